-- Appointment requests (issue 17, the DSR contract): a customer asks for an appointment
-- through `POST /store-api/dsr/appointment/request`; admins list them through the Admin
-- API (`dsr_appointment_request`). `appointment_id` and `requested_by_id` are set when the
-- request came from an attendee of an appointment.
CREATE TABLE dsr_appointment_request (
    id TEXT PRIMARY KEY,
    appointment_id TEXT REFERENCES appointment(id) ON DELETE SET NULL,
    salutation_id TEXT NOT NULL REFERENCES salutation(id),
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email_address TEXT NOT NULL,
    company_name TEXT,
    phone_number TEXT,
    subject TEXT NOT NULL,
    message TEXT,
    requested_by_id TEXT REFERENCES attendee(id) ON DELETE SET NULL,
    handled_by_id TEXT REFERENCES admin_user(id) ON DELETE SET NULL,
    sales_channel_id TEXT NOT NULL REFERENCES sales_channel(id),
    created_at TEXT NOT NULL
);
CREATE INDEX dsr_appointment_request_by_date ON dsr_appointment_request(created_at);

-- Slides as Shopware's `dsr_cms_slide` names them: the sections of the CMS pages that
-- presentations show (read through the Admin API; written as CMS pages).
CREATE VIEW dsr_cms_slide AS
SELECT s.id AS id, COALESCE(s.name, '') AS slide_name, s.id AS cms_section_id, s.cms_page_id AS cms_page_id, s.position AS position
FROM cms_section s
WHERE s.cms_page_id IN (SELECT cms_page_id FROM presentation_page);
