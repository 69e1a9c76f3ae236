-- Account extras (issue 3): the mail outbox, password recovery, the customer's
-- payment preference and profile fields, newsletter recipients and wishlists.

-- Every mail the shop sends; no SMTP here, each is also an .eml under DATA_DIR/mail/.
CREATE TABLE mail (
    id TEXT PRIMARY KEY,
    -- The recipient's address ("to").
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    body_text TEXT NOT NULL,
    body_html TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX mail_by_recipient ON mail(lower(recipient), created_at);

-- One open password recovery per customer; the hash is valid for two hours.
CREATE TABLE customer_recovery (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL UNIQUE REFERENCES customer(id) ON DELETE CASCADE,
    hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);

ALTER TABLE customer ADD COLUMN default_payment_method_id TEXT REFERENCES payment_method(id);
ALTER TABLE customer ADD COLUMN account_type TEXT NOT NULL DEFAULT 'private' CHECK (account_type IN ('private', 'business'));
ALTER TABLE customer ADD COLUMN company TEXT;
-- JSON array of strings, null for private accounts.
ALTER TABLE customer ADD COLUMN vat_ids TEXT;

CREATE TABLE newsletter_recipient (
    id TEXT PRIMARY KEY,
    sales_channel_id TEXT NOT NULL REFERENCES sales_channel(id),
    email TEXT NOT NULL,
    -- notSet: waiting for the double opt-in; optIn: confirmed; direct: subscribed by a
    -- logged-in customer without confirmation; optOut: unsubscribed.
    status TEXT NOT NULL CHECK (status IN ('notSet', 'optIn', 'optOut', 'direct')),
    -- The confirmation link's secret; a new one with every subscription.
    hash TEXT NOT NULL UNIQUE,
    language_id TEXT REFERENCES language(id),
    salutation_id TEXT REFERENCES salutation(id),
    first_name TEXT,
    last_name TEXT,
    street TEXT,
    city TEXT,
    zip_code TEXT,
    confirmed_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT
);
CREATE UNIQUE INDEX newsletter_recipient_by_email ON newsletter_recipient(sales_channel_id, lower(email));

CREATE TABLE customer_wishlist (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
    sales_channel_id TEXT NOT NULL REFERENCES sales_channel(id),
    created_at TEXT NOT NULL,
    updated_at TEXT,
    UNIQUE (customer_id, sales_channel_id)
);
CREATE TABLE customer_wishlist_product (
    id TEXT PRIMARY KEY,
    wishlist_id TEXT NOT NULL REFERENCES customer_wishlist(id) ON DELETE CASCADE,
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    UNIQUE (wishlist_id, product_id)
);
CREATE INDEX customer_wishlist_product_by_product ON customer_wishlist_product(product_id);
