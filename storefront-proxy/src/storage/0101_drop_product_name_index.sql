-- The trigram index of product names (0100) goes again (issue #29, item 8): measured over
-- 100,000 products, a `contains` through it was slower where it hurts (a text every name
-- has: the candidates are every product, the exact count went from ~0.5 s to ~9 s) and
-- hardly faster where it could help (a rare text: 19 → 6 ms for the count, as the
-- names are short). An expensive `contains` is capped instead: each read of a Store API
-- request has a time budget (`storage::budget`), and a client whose reads keep running
-- into it is refused for a while (`store_api::budget`).
DROP TRIGGER product_name_index_insert;
DROP TRIGGER product_name_index_update;
DROP TRIGGER product_name_index_delete;
DROP TABLE product_name_index;
DROP TABLE product_name_key;
