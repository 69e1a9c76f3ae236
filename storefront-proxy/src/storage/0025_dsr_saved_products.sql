-- The guide's saved products of an appointment: products kept aside during the session
-- to present later (highlight, or an instant listing of them), in the order saved.
CREATE TABLE appointment_saved_product (
    appointment_id TEXT NOT NULL REFERENCES appointment(id) ON DELETE CASCADE,
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (appointment_id, product_id)
);
