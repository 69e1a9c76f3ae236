-- Issue #29, item 5: what a guide gets for an attendee's cart
-- (`GET /api/_action/dsr/appointment/attendee/{id}/sw-context-token`): not the
-- attendee's session but a token of its own (only its SHA-256 here), bound to the
-- attendee and their session, good for the cart routes of the Store API only, and only
-- while the attendee grants cart access, is in the appointment and it has not ended.
CREATE TABLE dsr_context_delegation (
    token_hash TEXT PRIMARY KEY,
    attendee_id TEXT NOT NULL REFERENCES attendee(id) ON DELETE CASCADE,
    context_token TEXT NOT NULL REFERENCES store_context(token) ON DELETE CASCADE,
    scope TEXT NOT NULL CHECK (scope IN ('cart')),
    admin_user_id TEXT REFERENCES admin_user(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX dsr_context_delegation_by_attendee ON dsr_context_delegation (attendee_id, created_at);
CREATE INDEX dsr_context_delegation_by_context ON dsr_context_delegation (context_token);
