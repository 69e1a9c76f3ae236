-- The guide's own note on a saved product (what to say about it), at most 500 characters;
-- NULL when there is none.
ALTER TABLE appointment_saved_product ADD COLUMN note TEXT;
