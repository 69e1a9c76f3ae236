-- A slide group's (presentation page's) title per language (#14 item 17). The room shows
-- the viewer's language, then the shop's default language, then `presentation_page.title`
-- (kept as written before translations existed), then the CMS page's name.
CREATE TABLE presentation_page_translation (
    presentation_page_id TEXT NOT NULL REFERENCES presentation_page(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    PRIMARY KEY (presentation_page_id, language_id)
) WITHOUT ROWID;
