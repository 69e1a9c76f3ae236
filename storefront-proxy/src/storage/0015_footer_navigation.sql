-- The sales channel's footer navigation (Shopware's footerCategoryId): the category whose
-- children the footer links to, answered for the alias `footer-navigation`.
ALTER TABLE sales_channel ADD COLUMN footer_category_id TEXT REFERENCES category(id);
