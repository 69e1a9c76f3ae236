-- Sales channels, languages, admin users and tokens, store contexts, CMS pages and
-- sections, presentations, appointments and attendees.

CREATE TABLE language (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL
);

CREATE TABLE sales_channel (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    access_key TEXT NOT NULL UNIQUE,
    language_id TEXT NOT NULL REFERENCES language(id)
);

CREATE TABLE admin_user (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL
);

CREATE TABLE admin_token (
    token TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    user_id TEXT NOT NULL REFERENCES admin_user(id) ON DELETE CASCADE,
    expires_at INTEGER NOT NULL
);

-- A store API session (sw-context-token).
CREATE TABLE store_context (
    token TEXT PRIMARY KEY,
    sales_channel_id TEXT NOT NULL REFERENCES sales_channel(id),
    customer_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE cms_page (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    name TEXT NOT NULL
);

CREATE TABLE cms_section (
    id TEXT PRIMARY KEY,
    cms_page_id TEXT NOT NULL REFERENCES cms_page(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    type TEXT NOT NULL DEFAULT 'default',
    name TEXT
);

CREATE TABLE presentation (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL
);

-- A presentation page: a CMS page whose sections are slides.
CREATE TABLE presentation_page (
    id TEXT PRIMARY KEY,
    presentation_id TEXT NOT NULL REFERENCES presentation(id) ON DELETE CASCADE,
    cms_page_id TEXT NOT NULL REFERENCES cms_page(id),
    position INTEGER NOT NULL,
    title TEXT,
    is_instant_listing INTEGER NOT NULL DEFAULT 0,
    picked_product_ids TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE appointment (
    id TEXT PRIMARY KEY,
    presentation_id TEXT NOT NULL REFERENCES presentation(id),
    sales_channel_id TEXT NOT NULL REFERENCES sales_channel(id),
    presentation_path TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    mode TEXT NOT NULL DEFAULT 'guided' CHECK (mode IN ('guided', 'self')),
    attendee_restriction_type TEXT NOT NULL DEFAULT 'open' CHECK (attendee_restriction_type IN ('open', 'customer', 'rules')),
    video_audio_settings TEXT NOT NULL DEFAULT 'both',
    accessible_from TEXT,
    accessible_to TEXT,
    started_at TEXT,
    ended_at TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE attendee (
    id TEXT PRIMARY KEY,
    appointment_id TEXT NOT NULL REFERENCES appointment(id) ON DELETE CASCADE,
    type TEXT NOT NULL CHECK (type IN ('GUIDE', 'CLIENT')),
    name TEXT,
    admin_user_id TEXT REFERENCES admin_user(id),
    customer_id TEXT,
    context_token TEXT NOT NULL REFERENCES store_context(token),
    joined_at TEXT NOT NULL,
    last_active_at TEXT
);
CREATE INDEX attendee_by_context ON attendee(context_token);
CREATE UNIQUE INDEX guide_per_user ON attendee(appointment_id, admin_user_id) WHERE admin_user_id IS NOT NULL;
