-- A CMS section's (slide's) name per language (#14 item 17). `cms_section.name` stays as
-- written; the room shows the viewer's language, then the shop's default language, then it.
CREATE TABLE cms_section_translation (
    cms_section_id TEXT NOT NULL REFERENCES cms_section(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    PRIMARY KEY (cms_section_id, language_id)
) WITHOUT ROWID;
