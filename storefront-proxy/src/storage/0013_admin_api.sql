-- The Admin API's entities (issue 16): admin users get a role (admins manage the shop,
-- guides run appointments), an active flag and an email; promotions a usage limit;
-- product translations written after the product move `catalog_version` too, so a
-- product created through the Admin API is not hidden by a cached listing.
ALTER TABLE admin_user ADD COLUMN role TEXT NOT NULL DEFAULT 'admin' CHECK (role IN ('admin', 'guide'));
ALTER TABLE admin_user ADD COLUMN active INTEGER NOT NULL DEFAULT 1;
ALTER TABLE admin_user ADD COLUMN email TEXT;

ALTER TABLE promotion ADD COLUMN max_redemptions_global INTEGER CHECK (max_redemptions_global IS NULL OR max_redemptions_global > 0);

CREATE TRIGGER catalog_version_product_translation_insert AFTER INSERT ON product_translation
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_product_translation_delete AFTER DELETE ON product_translation
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_category_update AFTER UPDATE ON category
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER catalog_version_category_delete AFTER DELETE ON category
BEGIN UPDATE catalog_version SET n = n + 1 WHERE id = 1; END;
