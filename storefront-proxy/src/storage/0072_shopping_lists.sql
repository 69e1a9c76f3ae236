-- Shopping lists of logged-in customers (the Store API's B2B shopping lists, issue 17),
-- the lists guides share into an appointment, and the DSR "default info updated" mark.
CREATE TABLE shopping_list (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
    sales_channel_id TEXT NOT NULL REFERENCES sales_channel(id),
    name TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT
);
CREATE INDEX shopping_list_of_customer ON shopping_list (customer_id, sales_channel_id, created_at);

-- One line per product and list; quantities stay within shopping_list::MAX_QUANTITY.
CREATE TABLE shopping_list_line_item (
    id TEXT PRIMARY KEY,
    shopping_list_id TEXT NOT NULL REFERENCES shopping_list(id) ON DELETE CASCADE,
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    quantity INTEGER NOT NULL CHECK (quantity >= 1),
    position INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    UNIQUE (shopping_list_id, product_id)
);

-- The products and quantities of the shopping list a guide last shared into an
-- appointment (the document's "appointment cache"): a new share replaces them.
CREATE TABLE dsr_appointment_shopping_list (
    appointment_id TEXT NOT NULL REFERENCES appointment(id) ON DELETE CASCADE,
    product_id TEXT NOT NULL,
    quantity INTEGER NOT NULL,
    position INTEGER NOT NULL,
    shopping_list_id TEXT NOT NULL,
    shared_at TEXT NOT NULL,
    PRIMARY KEY (appointment_id, product_id)
);

-- When a customer marked their default info as updated (dsr/account/update-default-info).
ALTER TABLE customer ADD COLUMN dsr_default_info_updated_at TEXT;
