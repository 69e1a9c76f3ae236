-- Upstream mode (issue #29, items 4 and 5). Forwarded attendees' upstream sessions are
-- kept as their SHA-256 only (this migration's hook hashes the stored ones). The guide's
-- delegated tokens for an attendee's cart: the token's SHA-256, the attendee's session
-- when it was made (its key), and the attendee's upstream session sealed with a key
-- derived from the delegated token, so only its holder can open it
-- (dsr::forwarded::delegation).
CREATE TABLE forwarded_delegation (
    token_hash TEXT PRIMARY KEY,
    attendee_id TEXT NOT NULL REFERENCES forwarded_attendee(id) ON DELETE CASCADE,
    context_key TEXT NOT NULL,
    sealed_token BLOB NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX forwarded_delegation_by_attendee ON forwarded_delegation(attendee_id, created_at);
