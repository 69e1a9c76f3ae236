-- Interaction templates (spec: "interaction template sidebar"): prepared interactions of an
-- appointment that a guide runs in one click during the session: a product highlight, a
-- product page, an instant listing of chosen products, or a chat announcement.
CREATE TABLE dsr_interaction_template (
    id TEXT PRIMARY KEY,
    appointment_id TEXT NOT NULL REFERENCES appointment(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    -- A JSON array of product ids, in order (empty for an announcement).
    product_ids TEXT NOT NULL DEFAULT '[]',
    message TEXT,
    position INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE INDEX dsr_interaction_template_appointment ON dsr_interaction_template (appointment_id, position);
