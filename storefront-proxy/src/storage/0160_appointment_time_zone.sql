-- The time zone an appointment was planned in (an IANA name such as Europe/Berlin): its
-- times are stored as instants (UTC); mails and calendar files name them in this zone,
-- and the backoffice's form shows them in it again. Older appointments were planned in UTC.
ALTER TABLE appointment ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
