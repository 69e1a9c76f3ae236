-- Orders (issue 3, checkout): what was bought, by whom, to where, at which price, kept
-- as a snapshot of the cart, customer and addresses at order time; their payment
-- transactions, deliveries, invoice documents and digital downloads; the tokens of
-- the hosted payment page; and the number ranges of order and invoice numbers.

CREATE TABLE number_range (
    name TEXT PRIMARY KEY,
    next_number INTEGER NOT NULL
);
INSERT INTO number_range (name, next_number) VALUES ('order', 10000), ('invoice', 1000);

CREATE TABLE shop_order (
    id TEXT PRIMARY KEY,
    order_number TEXT NOT NULL UNIQUE,
    sales_channel_id TEXT NOT NULL REFERENCES sales_channel(id),
    -- Null once the customer is deleted; the snapshot below stays.
    customer_id TEXT REFERENCES customer(id) ON DELETE SET NULL,
    language_id TEXT NOT NULL REFERENCES language(id),
    currency_id TEXT NOT NULL REFERENCES currency(id),
    -- The order state machine's technical state (order/state.rs).
    state TEXT NOT NULL DEFAULT 'open',
    order_date_time TEXT NOT NULL,
    billing_address_id TEXT NOT NULL,
    -- The cart's CartPrice and the delivery's CalculatedPrice, as JSON.
    price TEXT NOT NULL,
    shipping_costs TEXT NOT NULL,
    amount_total REAL NOT NULL,
    amount_net REAL NOT NULL,
    position_price REAL NOT NULL,
    shipping_total REAL NOT NULL,
    tax_status TEXT NOT NULL,
    deep_link_code TEXT NOT NULL UNIQUE,
    customer_comment TEXT,
    affiliate_code TEXT,
    campaign_code TEXT,
    -- orderCustomer: the customer as they were when ordering.
    order_customer_id TEXT NOT NULL,
    customer_email TEXT NOT NULL,
    customer_first_name TEXT NOT NULL,
    customer_last_name TEXT NOT NULL,
    customer_number TEXT,
    customer_salutation_id TEXT,
    customer_title TEXT,
    customer_company TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT
);
CREATE INDEX shop_order_by_customer ON shop_order(customer_id, order_date_time);

CREATE TABLE order_address (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES shop_order(id) ON DELETE CASCADE,
    country_id TEXT NOT NULL REFERENCES country(id),
    country_state_id TEXT REFERENCES country_state(id),
    salutation_id TEXT REFERENCES salutation(id),
    title TEXT,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    company TEXT,
    department TEXT,
    street TEXT NOT NULL,
    zipcode TEXT,
    city TEXT NOT NULL,
    phone_number TEXT,
    additional_address_line1 TEXT,
    additional_address_line2 TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX order_address_by_order ON order_address(order_id);

CREATE TABLE order_line_item (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES shop_order(id) ON DELETE CASCADE,
    identifier TEXT NOT NULL,
    referenced_id TEXT,
    product_id TEXT,
    promotion_id TEXT,
    type TEXT NOT NULL,
    label TEXT NOT NULL,
    description TEXT,
    quantity INTEGER NOT NULL,
    unit_price REAL NOT NULL,
    total_price REAL NOT NULL,
    good INTEGER NOT NULL,
    position INTEGER NOT NULL,
    -- Snapshots as JSON: CalculatedPrice, price definition, payload, cover media, states.
    price TEXT NOT NULL,
    price_definition TEXT,
    payload TEXT NOT NULL,
    cover TEXT,
    states TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX order_line_item_by_order ON order_line_item(order_id, position);

CREATE TABLE order_transaction (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES shop_order(id) ON DELETE CASCADE,
    payment_method_id TEXT NOT NULL REFERENCES payment_method(id),
    -- CalculatedPrice as JSON.
    amount TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'open',
    created_at TEXT NOT NULL,
    updated_at TEXT
);
CREATE INDEX order_transaction_by_order ON order_transaction(order_id, created_at);

CREATE TABLE order_delivery (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES shop_order(id) ON DELETE CASCADE,
    shipping_order_address_id TEXT NOT NULL REFERENCES order_address(id),
    shipping_method_id TEXT NOT NULL REFERENCES shipping_method(id),
    state TEXT NOT NULL DEFAULT 'open',
    shipping_date_earliest TEXT NOT NULL,
    shipping_date_latest TEXT NOT NULL,
    shipping_costs TEXT NOT NULL,
    tracking_codes TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL
);
CREATE INDEX order_delivery_by_order ON order_delivery(order_id);

CREATE TABLE order_document (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES shop_order(id) ON DELETE CASCADE,
    document_type TEXT NOT NULL CHECK (document_type IN ('invoice')),
    document_number TEXT NOT NULL,
    deep_link_code TEXT NOT NULL,
    file_name TEXT NOT NULL,
    content BLOB NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX order_document_by_order ON order_document(order_id);

-- Files a digital product delivers, and their copies in an order.
CREATE TABLE product_download (
    id TEXT PRIMARY KEY,
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    position INTEGER NOT NULL DEFAULT 0,
    file_name TEXT NOT NULL,
    file_extension TEXT NOT NULL,
    mime_type TEXT NOT NULL,
    content BLOB NOT NULL
);
CREATE INDEX product_download_by_product ON product_download(product_id, position);
CREATE TABLE order_line_item_download (
    id TEXT PRIMARY KEY,
    order_line_item_id TEXT NOT NULL REFERENCES order_line_item(id) ON DELETE CASCADE,
    media_id TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0,
    file_name TEXT NOT NULL,
    file_extension TEXT NOT NULL,
    mime_type TEXT NOT NULL,
    content BLOB NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX order_line_item_download_by_item ON order_line_item_download(order_line_item_id);

-- One visit of the hosted payment page: single use, bound to one transaction.
CREATE TABLE payment_token (
    token TEXT PRIMARY KEY,
    transaction_id TEXT NOT NULL REFERENCES order_transaction(id) ON DELETE CASCADE,
    finish_url TEXT,
    error_url TEXT,
    -- de or en: the language of the page.
    locale TEXT NOT NULL,
    created_at TEXT NOT NULL,
    used_at TEXT
);
