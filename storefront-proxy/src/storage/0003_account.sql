-- Customers and their addresses (issue 3, accounts), customer groups, and the
-- session's chosen addresses.

CREATE TABLE customer_group (
    id TEXT PRIMARY KEY,
    display_gross INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE customer_group_translation (
    customer_group_id TEXT NOT NULL REFERENCES customer_group(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    PRIMARY KEY (customer_group_id, language_id)
) WITHOUT ROWID;
ALTER TABLE sales_channel ADD COLUMN customer_group_id TEXT REFERENCES customer_group(id);

CREATE TABLE customer (
    id TEXT PRIMARY KEY,
    sales_channel_id TEXT NOT NULL REFERENCES sales_channel(id),
    group_id TEXT NOT NULL REFERENCES customer_group(id),
    language_id TEXT NOT NULL REFERENCES language(id),
    customer_number TEXT NOT NULL UNIQUE,
    salutation_id TEXT REFERENCES salutation(id),
    title TEXT,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT NOT NULL,
    -- Null for guests, who cannot log in with a password.
    password_hash TEXT,
    guest INTEGER NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1,
    birthday TEXT,
    default_billing_address_id TEXT,
    default_shipping_address_id TEXT,
    first_login TEXT,
    last_login TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT
);
-- One account per email; guests may order again with the same address.
CREATE UNIQUE INDEX customer_by_email ON customer(lower(email)) WHERE guest = 0;

CREATE TABLE customer_address (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
    salutation_id TEXT REFERENCES salutation(id),
    title TEXT,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    company TEXT,
    department TEXT,
    street TEXT NOT NULL,
    zipcode TEXT,
    city TEXT NOT NULL,
    country_id TEXT NOT NULL REFERENCES country(id),
    country_state_id TEXT REFERENCES country_state(id),
    phone_number TEXT,
    additional_address_line1 TEXT,
    additional_address_line2 TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT
);
CREATE INDEX customer_address_by_customer ON customer_address(customer_id);

ALTER TABLE store_context ADD COLUMN billing_address_id TEXT REFERENCES customer_address(id) ON DELETE SET NULL;
ALTER TABLE store_context ADD COLUMN shipping_address_id TEXT REFERENCES customer_address(id) ON DELETE SET NULL;
ALTER TABLE store_context ADD COLUMN country_state_id TEXT REFERENCES country_state(id);
CREATE INDEX store_context_by_customer ON store_context(customer_id);
