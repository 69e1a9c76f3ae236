-- A store session that followed a live-room attendee's (a login, a registration, a guest
-- checkout's registration or a logout answered a new token), or followed such a session:
-- the session report counts what the attendee carted and ordered in these later sessions
-- and as their customer (account/session.rs writes it). Kept when the sessions expire, so
-- the report stays the same.
CREATE TABLE store_context_successor (
    token TEXT NOT NULL,
    successor TEXT NOT NULL,
    -- The customer of the successor session when it began (NULL: anonymous).
    customer_id TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (token, successor)
) WITHOUT ROWID;
CREATE INDEX store_context_successor_by_successor ON store_context_successor(successor);
