-- Substrings of product names through an index (issue #29, item 8): a `contains`,
-- `prefix` or `suffix` filter on a product's name (three characters or more) first
-- takes the products whose name in some language has the text from this trigram
-- index, then checks the exact condition on those alone, instead of testing every
-- product's name (`catalog::criteria`).
--
-- One row per `product_translation` row (every product, variants too, every language);
-- `product_name_key` gives each its rowid, so that a change finds its index row.
CREATE TABLE product_name_key (
    id INTEGER PRIMARY KEY,
    product_id TEXT NOT NULL,
    language_id TEXT NOT NULL,
    UNIQUE (product_id, language_id)
);

CREATE VIRTUAL TABLE product_name_index USING fts5(
    product_id UNINDEXED,
    name,
    tokenize = 'trigram'
);

INSERT INTO product_name_key (product_id, language_id) SELECT product_id, language_id FROM product_translation;
INSERT INTO product_name_index (rowid, product_id, name)
    SELECT k.id, t.product_id, t.name FROM product_name_key k
    JOIN product_translation t ON t.product_id = k.product_id AND t.language_id = k.language_id;

-- A REPLACE of a translation runs no delete trigger: an insert drops what its key had.
CREATE TRIGGER product_name_index_insert AFTER INSERT ON product_translation
BEGIN
    DELETE FROM product_name_index WHERE rowid =
        (SELECT id FROM product_name_key WHERE product_id = new.product_id AND language_id = new.language_id);
    DELETE FROM product_name_key WHERE product_id = new.product_id AND language_id = new.language_id;
    INSERT INTO product_name_key (product_id, language_id) VALUES (new.product_id, new.language_id);
    INSERT INTO product_name_index (rowid, product_id, name)
        SELECT id, new.product_id, new.name FROM product_name_key WHERE product_id = new.product_id AND language_id = new.language_id;
END;

CREATE TRIGGER product_name_index_update AFTER UPDATE ON product_translation
WHEN old.name IS NOT new.name OR old.product_id IS NOT new.product_id OR old.language_id IS NOT new.language_id
BEGIN
    DELETE FROM product_name_index WHERE rowid =
        (SELECT id FROM product_name_key WHERE product_id = old.product_id AND language_id = old.language_id);
    DELETE FROM product_name_key WHERE product_id = old.product_id AND language_id = old.language_id;
    INSERT INTO product_name_key (product_id, language_id) VALUES (new.product_id, new.language_id);
    INSERT INTO product_name_index (rowid, product_id, name)
        SELECT id, new.product_id, new.name FROM product_name_key WHERE product_id = new.product_id AND language_id = new.language_id;
END;

CREATE TRIGGER product_name_index_delete AFTER DELETE ON product_translation
BEGIN
    DELETE FROM product_name_index WHERE rowid =
        (SELECT id FROM product_name_key WHERE product_id = old.product_id AND language_id = old.language_id);
    DELETE FROM product_name_key WHERE product_id = old.product_id AND language_id = old.language_id;
END;
