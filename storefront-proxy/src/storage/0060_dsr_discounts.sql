-- Discounts a guide gives an attendee (issue 17: add-cart-discount, the temporary cart).
-- A cart line item of type 'discount' is the discount in the attendee's cart; its
-- referenced_id holds the discount's definition as JSON:
-- {"discountType": "percentage"|"absolute", "discountValue": n, "appliedItemIds": [...]}
-- (no ids: the whole cart). SQLite cannot widen a CHECK: the table is rebuilt.
CREATE TABLE cart_line_item_new (
    token TEXT NOT NULL REFERENCES cart(token) ON DELETE CASCADE,
    id TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('product', 'promotion', 'discount')),
    -- The product id, the promotion code, or the discount's definition (JSON).
    referenced_id TEXT NOT NULL,
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    position INTEGER NOT NULL,
    PRIMARY KEY (token, id)
) WITHOUT ROWID;
INSERT INTO cart_line_item_new (token, id, type, referenced_id, quantity, position)
    SELECT token, id, type, referenced_id, quantity, position FROM cart_line_item;
DROP TABLE cart_line_item;
ALTER TABLE cart_line_item_new RENAME TO cart_line_item;

-- The guide's draft discount for one attendee (the "temporary cart"): the attendee's cart
-- as it would be with it, until the guide applies it to the cart or removes it.
CREATE TABLE dsr_temp_discount (
    attendee_id TEXT PRIMARY KEY REFERENCES attendee(id) ON DELETE CASCADE,
    definition TEXT NOT NULL,
    created_at TEXT NOT NULL
);
