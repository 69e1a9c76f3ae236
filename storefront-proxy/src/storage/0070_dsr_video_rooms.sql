-- The appointment's video room (issue 17: createVideoRoom / deleteVideoRoom, the entity
-- dsr_appointment_video_chat). The room itself is the LiveKit room the hub mints the
-- participants' tokens for, named by the appointment id; this row says that the guide
-- opened it (and where browsers reach the video server then). Tokens are per
-- participant and come with each hub session, so none is stored here.
CREATE TABLE dsr_appointment_video_chat (
    id TEXT PRIMARY KEY,
    appointment_id TEXT NOT NULL UNIQUE REFERENCES appointment(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    url TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT
);
