-- One-use login tokens from the digital sales room to the storefront (issue 17:
-- generate-login-token, automatic-login). Only the SHA-256 of a token is kept; a token
-- works once, in its sales channel, until expires_at (unix seconds).
CREATE TABLE dsr_login_token (
    token_hash TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
    sales_channel_id TEXT NOT NULL,
    -- The attendee whose room session asked for it: one live token per attendee.
    attendee_id TEXT NOT NULL REFERENCES attendee(id) ON DELETE CASCADE,
    storefront_url TEXT,
    created_at TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at TEXT
);
CREATE INDEX dsr_login_token_attendee ON dsr_login_token (attendee_id);
