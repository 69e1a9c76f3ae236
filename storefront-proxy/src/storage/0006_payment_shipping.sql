-- Payment and shipping methods, the sales channel's defaults and the session's choice.

CREATE TABLE payment_method (
    id TEXT PRIMARY KEY,
    technical_name TEXT NOT NULL UNIQUE,
    -- How an order is paid: by invoice, in advance, on delivery, or online (an
    -- asynchronous payment that redirects through handle-payment).
    handler TEXT NOT NULL CHECK (handler IN ('invoice', 'prepayment', 'cash', 'online')),
    position INTEGER NOT NULL DEFAULT 1,
    active INTEGER NOT NULL DEFAULT 1,
    after_order_enabled INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE payment_method_translation (
    payment_method_id TEXT NOT NULL REFERENCES payment_method(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    description TEXT,
    PRIMARY KEY (payment_method_id, language_id)
) WITHOUT ROWID;

CREATE TABLE shipping_method (
    id TEXT PRIMARY KEY,
    technical_name TEXT NOT NULL UNIQUE,
    position INTEGER NOT NULL DEFAULT 1,
    active INTEGER NOT NULL DEFAULT 1,
    delivery_time_id TEXT NOT NULL REFERENCES delivery_time(id),
    -- Gross shipping costs of a delivery; none from `free_from` (goods, gross) on.
    price_gross REAL NOT NULL,
    free_from REAL
);
CREATE TABLE shipping_method_translation (
    shipping_method_id TEXT NOT NULL REFERENCES shipping_method(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    description TEXT,
    PRIMARY KEY (shipping_method_id, language_id)
) WITHOUT ROWID;

ALTER TABLE sales_channel ADD COLUMN payment_method_id TEXT REFERENCES payment_method(id);
ALTER TABLE sales_channel ADD COLUMN shipping_method_id TEXT REFERENCES shipping_method(id);
ALTER TABLE store_context ADD COLUMN payment_method_id TEXT REFERENCES payment_method(id);
ALTER TABLE store_context ADD COLUMN shipping_method_id TEXT REFERENCES shipping_method(id);
