-- Orders take and give back stock; no listing, sorting, filter or aggregation reads it
-- (availability filters go through SQL, never the cached paths). A stock-only update no
-- longer moves `catalog_version`, so placing an order does not throw away the listing
-- index and aggregation cache of a large catalogue.
-- `UPDATE OF` fires when the statement sets any listed column: every column of product
-- except stock and available_stock. A column added to product later belongs here too.
DROP TRIGGER catalog_version_product_update;
CREATE TRIGGER catalog_version_product_update AFTER UPDATE OF
    id, parent_id, product_number, type, manufacturer_id, manufacturer_number, ean, tax_id, unit_id,
    delivery_time_id, cover_id, cms_page_id, active, is_closeout, restock_time, shipping_free,
    min_purchase, max_purchase, purchase_steps, purchase_unit, reference_unit, width, height, length,
    weight, price_net, price_gross, list_price_net, list_price_gross, purchase_price_net,
    purchase_price_gross, listing_price, mark_as_topseller, sales, rating_average, release_date,
    child_count, display_group, created_at, updated_at
ON product
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
