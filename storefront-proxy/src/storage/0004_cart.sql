-- Carts (one per session token), their line items, and promotions with codes.

CREATE TABLE cart (
    token TEXT PRIMARY KEY REFERENCES store_context(token) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE cart_line_item (
    token TEXT NOT NULL REFERENCES cart(token) ON DELETE CASCADE,
    id TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('product', 'promotion')),
    -- The product id, or the promotion code.
    referenced_id TEXT NOT NULL,
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    position INTEGER NOT NULL,
    PRIMARY KEY (token, id)
) WITHOUT ROWID;

CREATE TABLE promotion (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE COLLATE NOCASE,
    active INTEGER NOT NULL DEFAULT 1,
    valid_from TEXT,
    valid_until TEXT,
    discount_type TEXT NOT NULL CHECK (discount_type IN ('percentage', 'absolute')),
    discount_value REAL NOT NULL CHECK (discount_value > 0)
);
CREATE TABLE promotion_translation (
    promotion_id TEXT NOT NULL REFERENCES promotion(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    PRIMARY KEY (promotion_id, language_id)
) WITHOUT ROWID;
