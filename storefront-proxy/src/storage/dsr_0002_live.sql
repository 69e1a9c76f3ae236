-- Live presentations over REST: attendee details (email, invitation answer, video user),
-- product detail slides and per-appointment instant listings, ids for attendee product
-- collections (admin API), and the shop pages (terms, privacy, imprint) by layout name.

ALTER TABLE attendee ADD COLUMN email TEXT;
ALTER TABLE attendee ADD COLUMN invitation_status TEXT CHECK (invitation_status IN ('pending', 'accepted', 'maybe', 'declined'));
ALTER TABLE attendee ADD COLUMN video_user_id TEXT;
ALTER TABLE attendee ADD COLUMN updated_at TEXT;
CREATE INDEX attendee_by_appointment ON attendee(appointment_id);

-- The product a product detail slide shows.
ALTER TABLE presentation_page ADD COLUMN product_id TEXT;
-- Set for instant listings: they belong to the appointment whose guide made them.
ALTER TABLE presentation_page ADD COLUMN appointment_id TEXT REFERENCES appointment(id) ON DELETE CASCADE;
ALTER TABLE presentation_page ADD COLUMN created_at TEXT;
ALTER TABLE presentation_page ADD COLUMN updated_at TEXT;

ALTER TABLE attendee_product_collection ADD COLUMN id TEXT;
UPDATE attendee_product_collection SET id = lower(hex(randomblob(16))) WHERE id IS NULL;
CREATE UNIQUE INDEX attendee_product_collection_by_id ON attendee_product_collection(id);

CREATE TABLE dsr_shop_page (
    layout_name TEXT PRIMARY KEY,
    cms_page_id TEXT NOT NULL REFERENCES cms_page(id) ON DELETE CASCADE
) WITHOUT ROWID;
