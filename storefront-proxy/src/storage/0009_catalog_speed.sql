-- Catalogue speed-ups (issue 3, item 7: the 100,000-product benchmark).

-- A counter that moves with every change to what listings and their aggregations read
-- (products, category membership, properties, variant options), so the server can keep
-- a listing's aggregations between requests and know when they are stale.
CREATE TABLE catalog_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n INTEGER NOT NULL
);
INSERT INTO catalog_version (id, n) VALUES (1, 0);

CREATE TRIGGER catalog_version_product_insert AFTER INSERT ON product
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_product_update AFTER UPDATE ON product
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_product_delete AFTER DELETE ON product
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_tree_insert AFTER INSERT ON product_category_tree
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_tree_update AFTER UPDATE ON product_category_tree
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_tree_delete AFTER DELETE ON product_category_tree
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_insert AFTER INSERT ON product_property
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_update AFTER UPDATE ON product_property
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_delete AFTER DELETE ON product_property
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_option_insert AFTER INSERT ON product_option
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_option_update AFTER UPDATE ON product_option
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_option_delete AFTER DELETE ON product_option
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_search_translation AFTER UPDATE ON product_translation
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;

-- A listing filtered by manufacturer reads only that manufacturer's rows of the
-- category, in price order, instead of walking all of the category's rows.
CREATE INDEX product_category_tree_by_manufacturer ON product_category_tree(category_id, main, manufacturer_id, listing_price);
