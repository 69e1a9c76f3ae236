-- The merchant's side of the shop through the Admin API (issue 32): every state change
-- of an order, its transactions and deliveries kept as history; invoices, credit notes,
-- delivery notes and cancellation invoices; the appointment an order was placed in;
-- media folders, rules (read only) and the sales channel's domains.

CREATE TABLE state_machine_history (
    id TEXT PRIMARY KEY,
    -- order, order_transaction or order_delivery
    entity_name TEXT NOT NULL,
    referenced_id TEXT NOT NULL,
    order_id TEXT NOT NULL REFERENCES shop_order(id) ON DELETE CASCADE,
    from_state TEXT NOT NULL,
    to_state TEXT NOT NULL,
    action_name TEXT NOT NULL,
    -- The admin user who made the change; null for the shop itself (payment, customer).
    user_id TEXT REFERENCES admin_user(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX state_machine_history_by_order ON state_machine_history(order_id, created_at);
CREATE INDEX state_machine_history_by_reference ON state_machine_history(referenced_id, created_at);

-- The live appointment the order was placed in (its attendee's session), if any.
ALTER TABLE shop_order ADD COLUMN appointment_id TEXT REFERENCES appointment(id) ON DELETE SET NULL;
CREATE INDEX shop_order_by_appointment ON shop_order(appointment_id) WHERE appointment_id IS NOT NULL;
CREATE INDEX shop_order_by_date ON shop_order(order_date_time);

-- Documents of every type Shopware knows; a cancellation invoice (storno) or credit
-- note names the invoice it refers to.
CREATE TABLE order_document_new (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES shop_order(id) ON DELETE CASCADE,
    document_type TEXT NOT NULL CHECK (document_type IN ('invoice', 'credit_note', 'delivery_note', 'storno')),
    document_number TEXT NOT NULL,
    deep_link_code TEXT NOT NULL,
    file_name TEXT NOT NULL,
    content BLOB NOT NULL,
    referenced_document_id TEXT,
    created_at TEXT NOT NULL
);
INSERT INTO order_document_new (id, order_id, document_type, document_number, deep_link_code, file_name, content, created_at)
    SELECT id, order_id, document_type, document_number, deep_link_code, file_name, content, created_at FROM order_document;
DROP TABLE order_document;
ALTER TABLE order_document_new RENAME TO order_document;
CREATE INDEX order_document_by_order ON order_document(order_id);
INSERT OR IGNORE INTO number_range (name, next_number) VALUES ('credit_note', 1000), ('delivery_note', 1000), ('storno', 1000);

CREATE TABLE media_folder (
    id TEXT PRIMARY KEY,
    parent_id TEXT REFERENCES media_folder(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    use_parent_configuration INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT
);
ALTER TABLE media ADD COLUMN media_folder_id TEXT REFERENCES media_folder(id) ON DELETE SET NULL;

-- Rules decide in Shopware when a method is available; this shop has one, always valid.
CREATE TABLE rule (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    priority INTEGER NOT NULL DEFAULT 1,
    description TEXT,
    created_at TEXT NOT NULL
);
INSERT INTO rule (id, name, priority, description, created_at)
    VALUES ('1e4a3b2c5d6e4f708192a3b4c5d6e7f8', 'Always valid (Default)', 100, NULL, '2026-01-01T00:00:00+00:00');

CREATE TABLE sales_channel_domain (
    id TEXT PRIMARY KEY,
    sales_channel_id TEXT NOT NULL REFERENCES sales_channel(id) ON DELETE CASCADE,
    url TEXT NOT NULL UNIQUE,
    language_id TEXT NOT NULL REFERENCES language(id),
    currency_id TEXT REFERENCES currency(id),
    created_at TEXT NOT NULL
);
