-- Appointment names per language (#16, #14 item 17), and invitations sent by e-mail.
-- `appointment.name` stays as the default language's name (the Admin API keeps it in
-- step); the live room answers the viewer's language and falls back to it.

CREATE TABLE appointment_translation (
    appointment_id TEXT NOT NULL REFERENCES appointment(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    PRIMARY KEY (appointment_id, language_id)
) WITHOUT ROWID;

INSERT INTO appointment_translation (appointment_id, language_id, name)
SELECT a.id, s.language_id, a.name FROM appointment a JOIN sales_channel s ON s.id = a.sales_channel_id;

-- Appointments inserted directly (the demo seed) get their name in the default language.
CREATE TRIGGER appointment_default_translation AFTER INSERT ON appointment WHEN NEW.name != '' BEGIN
    INSERT OR IGNORE INTO appointment_translation (appointment_id, language_id, name)
    SELECT NEW.id, s.language_id, NEW.name FROM sales_channel s WHERE s.id = NEW.sales_channel_id;
END;

-- One row per address invited; `token` is the invitation mail's (its links carry it), so
-- an answer given through the mail is the answer of this address.
CREATE TABLE appointment_invitation (
    id TEXT PRIMARY KEY,
    appointment_id TEXT NOT NULL REFERENCES appointment(id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    mail_id TEXT NOT NULL,
    answer TEXT CHECK (answer IN ('accepted', 'maybe', 'declined')),
    attendee_id TEXT REFERENCES attendee(id) ON DELETE SET NULL,
    sent_at TEXT NOT NULL,
    answered_at TEXT
);
CREATE INDEX appointment_invitation_by_appointment ON appointment_invitation(appointment_id, sent_at);

-- The guide who runs the appointment (set in the backoffice; any guide may still join).
ALTER TABLE appointment ADD COLUMN guide_user_id TEXT REFERENCES admin_user(id) ON DELETE SET NULL;
