-- Admin API tokens (issue #29): only the SHA-256 (hex) of a bearer or refresh token is
-- stored (the migration's hook hashes the tokens stored so far); the access and refresh
-- token of one grant share a `grant_id`, so that a logout (`/api/oauth/revoke`) ends both.
ALTER TABLE admin_token RENAME COLUMN token TO token_hash;
ALTER TABLE admin_token ADD COLUMN grant_id TEXT;
CREATE INDEX admin_token_user ON admin_token (user_id);
CREATE INDEX admin_token_grant ON admin_token (grant_id);

-- A new password ends every session of the user, whatever wrote it (the Admin API's
-- user entity, a sync, a script): its access and refresh tokens stop working.
CREATE TRIGGER admin_user_password_changed AFTER UPDATE OF password_hash ON admin_user
WHEN NEW.password_hash IS NOT OLD.password_hash
BEGIN
    DELETE FROM admin_token WHERE user_id = NEW.id;
END;
