-- Issue #29, item 4: store sessions are kept under the SHA-256 of their token, never the
-- token itself. The hook of this migration (`storage::hash_context_tokens`) rewrites the
-- existing tokens and every row that names them (carts, their line items, attendees);
-- foreign keys are checked at the end of the migration's transaction.
PRAGMA defer_foreign_keys = ON;
