-- Listing aggregations keep their manufacturer and property entities between requests
-- (per base and catalogue version): changes to manufacturers, property groups and
-- options, and their translations, move `catalog_version` too.
CREATE TRIGGER catalog_version_product_manufacturer_insert AFTER INSERT ON product_manufacturer
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_product_manufacturer_update AFTER UPDATE ON product_manufacturer
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_product_manufacturer_delete AFTER DELETE ON product_manufacturer
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_product_manufacturer_translation_insert AFTER INSERT ON product_manufacturer_translation
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_product_manufacturer_translation_update AFTER UPDATE ON product_manufacturer_translation
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_product_manufacturer_translation_delete AFTER DELETE ON product_manufacturer_translation
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_group_insert AFTER INSERT ON property_group
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_group_update AFTER UPDATE ON property_group
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_group_delete AFTER DELETE ON property_group
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_group_translation_insert AFTER INSERT ON property_group_translation
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_group_translation_update AFTER UPDATE ON property_group_translation
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_group_translation_delete AFTER DELETE ON property_group_translation
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_group_option_insert AFTER INSERT ON property_group_option
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_group_option_update AFTER UPDATE ON property_group_option
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_group_option_delete AFTER DELETE ON property_group_option
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_group_option_translation_insert AFTER INSERT ON property_group_option_translation
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_group_option_translation_update AFTER UPDATE ON property_group_option_translation
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_property_group_option_translation_delete AFTER DELETE ON property_group_option_translation
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;

-- A main product's new name reaches the search index (seeding writes the index rows;
-- their numbers and keywords come from seeding alone).
CREATE TRIGGER product_search_name AFTER UPDATE OF name ON product_translation
BEGIN
    UPDATE product_search SET name = NEW.name WHERE product_id = NEW.product_id AND language_id = NEW.language_id;
END;
