-- Listing speed-ups after 0002 shipped.

-- Name sortings are case-insensitive, so the index that serves them has to be too.
DROP INDEX product_translation_by_name;
CREATE INDEX product_translation_by_name ON product_translation(language_id, name COLLATE NOCASE);

-- Rows inserted with their listing copies already set (the bulk generator) skip the
-- copy from `product`; rows without them (listing_price null) still get it.
DROP TRIGGER product_category_tree_copy;
CREATE TRIGGER product_category_tree_copy AFTER INSERT ON product_category_tree WHEN NEW.listing_price IS NULL
BEGIN
    UPDATE product_category_tree
    SET (main, listing_price, sales, release_date, rating_average, shipping_free, manufacturer_id) = (
        SELECT p.active = 1 AND p.parent_id IS NULL, p.listing_price, p.sales, p.release_date, p.rating_average,
               p.shipping_free, p.manufacturer_id
        FROM product p WHERE p.id = NEW.product_id)
    WHERE category_id = NEW.category_id AND product_id = NEW.product_id;
END;
