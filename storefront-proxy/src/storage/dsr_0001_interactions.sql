-- Attendees' product collections (liked, disliked, last seen), the interaction log, and
-- removal of attendees.

CREATE TABLE attendee_product_collection (
    attendee_id TEXT NOT NULL REFERENCES attendee(id) ON DELETE CASCADE,
    alias TEXT NOT NULL CHECK (alias IN ('liked', 'disliked', 'lastSeen')),
    product_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (attendee_id, alias, product_id)
) WITHOUT ROWID;

CREATE TABLE interaction (
    id TEXT PRIMARY KEY,
    appointment_id TEXT NOT NULL REFERENCES appointment(id) ON DELETE CASCADE,
    attendee_id TEXT NOT NULL REFERENCES attendee(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    payload TEXT NOT NULL,
    triggered_at TEXT NOT NULL,
    -- NULL: kept for good (lifeTimeInSeconds -1).
    expires_at TEXT
);
CREATE INDEX interaction_by_appointment ON interaction(appointment_id, name);

ALTER TABLE attendee ADD COLUMN removed_at TEXT;
