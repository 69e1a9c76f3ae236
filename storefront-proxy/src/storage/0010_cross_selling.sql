-- Cross-selling of a product (Shopware's product_cross_selling of type productList):
-- named groups of assigned products shown on the product page.
CREATE TABLE product_cross_selling (
    id TEXT PRIMARY KEY,
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    position INTEGER NOT NULL DEFAULT 1,
    active INTEGER NOT NULL DEFAULT 1,
    limit_count INTEGER NOT NULL DEFAULT 24,
    created_at TEXT NOT NULL
);
CREATE INDEX product_cross_selling_by_product ON product_cross_selling(product_id, position);
CREATE TABLE product_cross_selling_translation (
    cross_selling_id TEXT NOT NULL REFERENCES product_cross_selling(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    PRIMARY KEY (cross_selling_id, language_id)
) WITHOUT ROWID;
CREATE TABLE product_cross_selling_assigned_products (
    id TEXT PRIMARY KEY,
    cross_selling_id TEXT NOT NULL REFERENCES product_cross_selling(id) ON DELETE CASCADE,
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    position INTEGER NOT NULL DEFAULT 0,
    UNIQUE (cross_selling_id, product_id)
);
