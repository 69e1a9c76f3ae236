-- Broadcast mode default per appointment (#16): the live room starts with it (only the
-- guide publishes camera and microphone); the guide switches it in the room as before.
ALTER TABLE appointment ADD COLUMN broadcast_mode INTEGER NOT NULL DEFAULT 0 CHECK (broadcast_mode IN (0, 1));
