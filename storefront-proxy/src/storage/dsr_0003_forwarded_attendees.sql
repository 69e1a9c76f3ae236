-- Upstream mode (UPSTREAM_URL): the attendees that joined through this proxy, as the
-- upstream Shopware answered their joins. Their store sessions tell the live rooms whose
-- cart or wishlist a forwarded call changed; the appointments themselves stay upstream.

CREATE TABLE forwarded_attendee (
    id TEXT PRIMARY KEY,
    appointment_id TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('GUIDE', 'CLIENT')),
    name TEXT,
    context_token TEXT NOT NULL,
    joined_at TEXT NOT NULL,
    removed_at TEXT
);
CREATE INDEX forwarded_attendee_by_context_token ON forwarded_attendee(context_token, joined_at);
