-- The embedded shop's catalogue (issue 3): locales and languages with translations,
-- currency, countries, salutations, taxes, units, delivery times, media, manufacturers,
-- properties, products with variants and prices, categories, SEO URLs, CMS blocks and
-- slots, landing pages, reviews, and the product search index.
--
-- Every `*_translation` table holds one row per entity and language; a missing row or
-- column falls back to the system default language (English), the way Shopware does.

CREATE TABLE locale (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    territory TEXT NOT NULL
);

ALTER TABLE language ADD COLUMN locale_id TEXT REFERENCES locale(id);
ALTER TABLE language ADD COLUMN parent_id TEXT REFERENCES language(id);

CREATE TABLE currency (
    id TEXT PRIMARY KEY,
    iso_code TEXT NOT NULL UNIQUE,
    symbol TEXT NOT NULL,
    factor REAL NOT NULL DEFAULT 1,
    position INTEGER NOT NULL DEFAULT 1,
    decimals INTEGER NOT NULL DEFAULT 2,
    is_system_default INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE currency_translation (
    currency_id TEXT NOT NULL REFERENCES currency(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    short_name TEXT,
    name TEXT,
    PRIMARY KEY (currency_id, language_id)
) WITHOUT ROWID;

CREATE TABLE country (
    id TEXT PRIMARY KEY,
    iso TEXT NOT NULL UNIQUE,
    iso3 TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 10,
    active INTEGER NOT NULL DEFAULT 1,
    shipping_available INTEGER NOT NULL DEFAULT 1,
    display_state_in_registration INTEGER NOT NULL DEFAULT 0,
    force_state_in_registration INTEGER NOT NULL DEFAULT 0,
    postal_code_required INTEGER NOT NULL DEFAULT 0,
    is_eu INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE country_translation (
    country_id TEXT NOT NULL REFERENCES country(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    PRIMARY KEY (country_id, language_id)
) WITHOUT ROWID;
CREATE TABLE country_state (
    id TEXT PRIMARY KEY,
    country_id TEXT NOT NULL REFERENCES country(id) ON DELETE CASCADE,
    short_code TEXT NOT NULL UNIQUE,
    position INTEGER NOT NULL DEFAULT 1,
    active INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX country_state_by_country ON country_state(country_id, position);
CREATE TABLE country_state_translation (
    country_state_id TEXT NOT NULL REFERENCES country_state(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    PRIMARY KEY (country_state_id, language_id)
) WITHOUT ROWID;

CREATE TABLE salutation (
    id TEXT PRIMARY KEY,
    salutation_key TEXT NOT NULL UNIQUE,
    position INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE salutation_translation (
    salutation_id TEXT NOT NULL REFERENCES salutation(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    display_name TEXT,
    letter_name TEXT,
    PRIMARY KEY (salutation_id, language_id)
) WITHOUT ROWID;

-- Null columns mean "the sales channel's default" (set through PATCH /context).
ALTER TABLE store_context ADD COLUMN language_id TEXT REFERENCES language(id);
ALTER TABLE store_context ADD COLUMN currency_id TEXT REFERENCES currency(id);
ALTER TABLE store_context ADD COLUMN country_id TEXT REFERENCES country(id);

CREATE TABLE sales_channel_language (
    sales_channel_id TEXT NOT NULL REFERENCES sales_channel(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    PRIMARY KEY (sales_channel_id, language_id)
) WITHOUT ROWID;

CREATE TABLE tax (
    id TEXT PRIMARY KEY,
    tax_rate REAL NOT NULL,
    name TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE unit (
    id TEXT PRIMARY KEY
);
CREATE TABLE unit_translation (
    unit_id TEXT NOT NULL REFERENCES unit(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    short_code TEXT,
    name TEXT,
    PRIMARY KEY (unit_id, language_id)
) WITHOUT ROWID;

CREATE TABLE delivery_time (
    id TEXT PRIMARY KEY,
    min INTEGER NOT NULL,
    max INTEGER NOT NULL,
    unit TEXT NOT NULL CHECK (unit IN ('hour', 'day', 'week', 'month', 'year'))
);
CREATE TABLE delivery_time_translation (
    delivery_time_id TEXT NOT NULL REFERENCES delivery_time(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    PRIMARY KEY (delivery_time_id, language_id)
) WITHOUT ROWID;

-- Media files live in the database (media_blob), served under /media/{path}.
CREATE TABLE media (
    id TEXT PRIMARY KEY,
    mime_type TEXT NOT NULL,
    file_extension TEXT NOT NULL,
    file_name TEXT NOT NULL,
    path TEXT NOT NULL UNIQUE,
    file_size INTEGER NOT NULL,
    width INTEGER,
    height INTEGER,
    uploaded_at TEXT NOT NULL
);
CREATE TABLE media_translation (
    media_id TEXT NOT NULL REFERENCES media(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    alt TEXT,
    title TEXT,
    PRIMARY KEY (media_id, language_id)
) WITHOUT ROWID;
CREATE TABLE media_blob (
    media_id TEXT PRIMARY KEY REFERENCES media(id) ON DELETE CASCADE,
    content BLOB NOT NULL
);

CREATE TABLE product_manufacturer (
    id TEXT PRIMARY KEY,
    media_id TEXT REFERENCES media(id),
    link TEXT
);
CREATE TABLE product_manufacturer_translation (
    product_manufacturer_id TEXT NOT NULL REFERENCES product_manufacturer(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    description TEXT,
    PRIMARY KEY (product_manufacturer_id, language_id)
) WITHOUT ROWID;

CREATE TABLE property_group (
    id TEXT PRIMARY KEY,
    display_type TEXT NOT NULL DEFAULT 'text' CHECK (display_type IN ('text', 'color', 'media', 'select')),
    sorting_type TEXT NOT NULL DEFAULT 'position',
    filterable INTEGER NOT NULL DEFAULT 1,
    visible_on_product_detail_page INTEGER NOT NULL DEFAULT 1,
    position INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE property_group_translation (
    property_group_id TEXT NOT NULL REFERENCES property_group(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    description TEXT,
    PRIMARY KEY (property_group_id, language_id)
) WITHOUT ROWID;
CREATE TABLE property_group_option (
    id TEXT PRIMARY KEY,
    property_group_id TEXT NOT NULL REFERENCES property_group(id) ON DELETE CASCADE,
    position INTEGER NOT NULL DEFAULT 1,
    color_hex_code TEXT,
    media_id TEXT REFERENCES media(id)
);
CREATE INDEX property_group_option_by_group ON property_group_option(property_group_id, position);
CREATE TABLE property_group_option_translation (
    property_group_option_id TEXT NOT NULL REFERENCES property_group_option(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    PRIMARY KEY (property_group_option_id, language_id)
) WITHOUT ROWID;

-- Products and their variants (parent_id set). Variants carry their own copy of the
-- parent's non-translated fields (written together); translations are inherited
-- from the parent when a variant has none.
CREATE TABLE product (
    id TEXT PRIMARY KEY,
    parent_id TEXT REFERENCES product(id) ON DELETE CASCADE,
    product_number TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL DEFAULT 'physical' CHECK (type IN ('physical', 'digital')),
    manufacturer_id TEXT REFERENCES product_manufacturer(id),
    manufacturer_number TEXT,
    ean TEXT,
    tax_id TEXT NOT NULL REFERENCES tax(id),
    unit_id TEXT REFERENCES unit(id),
    delivery_time_id TEXT REFERENCES delivery_time(id),
    cover_id TEXT,
    cms_page_id TEXT REFERENCES cms_page(id),
    active INTEGER NOT NULL DEFAULT 1,
    -- Deliverability.
    stock INTEGER NOT NULL DEFAULT 0,
    available_stock INTEGER NOT NULL DEFAULT 0,
    is_closeout INTEGER NOT NULL DEFAULT 0,
    restock_time INTEGER,
    shipping_free INTEGER NOT NULL DEFAULT 0,
    min_purchase INTEGER NOT NULL DEFAULT 1,
    max_purchase INTEGER,
    purchase_steps INTEGER NOT NULL DEFAULT 1,
    -- Specification: selling unit (purchase_unit of unit_id), basic unit
    -- (reference_unit), dimensions in mm, weight in kg.
    purchase_unit REAL,
    reference_unit REAL,
    width REAL,
    height REAL,
    length REAL,
    weight REAL,
    -- Prices in the system currency (EUR).
    price_net REAL NOT NULL,
    price_gross REAL NOT NULL,
    list_price_net REAL,
    list_price_gross REAL,
    purchase_price_net REAL,
    purchase_price_gross REAL,
    -- The cheapest gross price of the product and its variants: listing filter and sort.
    listing_price REAL NOT NULL,
    mark_as_topseller INTEGER NOT NULL DEFAULT 0,
    sales INTEGER NOT NULL DEFAULT 0,
    rating_average REAL,
    release_date TEXT,
    child_count INTEGER NOT NULL DEFAULT 0,
    display_group TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT
);
CREATE INDEX product_by_parent ON product(parent_id);
CREATE INDEX product_by_manufacturer ON product(manufacturer_id);
CREATE INDEX product_main_by_price ON product(listing_price) WHERE parent_id IS NULL;
CREATE INDEX product_main_by_sales ON product(sales) WHERE parent_id IS NULL;
CREATE INDEX product_main_by_release ON product(release_date) WHERE parent_id IS NULL;

CREATE TABLE product_translation (
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    description TEXT,
    keywords TEXT,
    meta_title TEXT,
    meta_description TEXT,
    pack_unit TEXT,
    pack_unit_plural TEXT,
    PRIMARY KEY (product_id, language_id)
) WITHOUT ROWID;
CREATE INDEX product_translation_by_name ON product_translation(language_id, name);

-- Advanced prices per quantity.
CREATE TABLE product_price (
    id TEXT PRIMARY KEY,
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    quantity_start INTEGER NOT NULL,
    quantity_end INTEGER,
    price_net REAL NOT NULL,
    price_gross REAL NOT NULL
);
CREATE INDEX product_price_by_product ON product_price(product_id, quantity_start);

-- Every price a product had, for the cheapest price of the last 30 days.
CREATE TABLE product_price_history (
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    valid_from TEXT NOT NULL,
    price_net REAL NOT NULL,
    price_gross REAL NOT NULL,
    PRIMARY KEY (product_id, valid_from)
) WITHOUT ROWID;

CREATE TABLE product_media (
    id TEXT PRIMARY KEY,
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    media_id TEXT NOT NULL REFERENCES media(id),
    position INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX product_media_by_product ON product_media(product_id, position);

-- Properties (filterable facts) and, for variants, the options that define them.
CREATE TABLE product_property (
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    option_id TEXT NOT NULL REFERENCES property_group_option(id) ON DELETE CASCADE,
    PRIMARY KEY (product_id, option_id)
) WITHOUT ROWID;
CREATE INDEX product_property_by_option ON product_property(option_id, product_id);
CREATE TABLE product_option (
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    option_id TEXT NOT NULL REFERENCES property_group_option(id) ON DELETE CASCADE,
    PRIMARY KEY (product_id, option_id)
) WITHOUT ROWID;
CREATE INDEX product_option_by_option ON product_option(option_id, product_id);
CREATE TABLE product_configurator_setting (
    id TEXT PRIMARY KEY,
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    option_id TEXT NOT NULL REFERENCES property_group_option(id) ON DELETE CASCADE,
    media_id TEXT REFERENCES media(id),
    position INTEGER NOT NULL DEFAULT 0,
    UNIQUE (product_id, option_id)
);

CREATE TABLE product_review (
    id TEXT PRIMARY KEY,
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    sales_channel_id TEXT NOT NULL REFERENCES sales_channel(id),
    language_id TEXT NOT NULL REFERENCES language(id),
    customer_id TEXT,
    external_user TEXT,
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    points REAL NOT NULL CHECK (points BETWEEN 1 AND 5),
    status INTEGER NOT NULL DEFAULT 1,
    comment TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX product_review_by_product ON product_review(product_id, status, created_at);

CREATE TABLE category (
    id TEXT PRIMARY KEY,
    parent_id TEXT REFERENCES category(id) ON DELETE CASCADE,
    position INTEGER NOT NULL DEFAULT 0,
    level INTEGER NOT NULL,
    -- Ancestor ids as `|root|…|parent|` (empty for a root), as in Shopware.
    path TEXT NOT NULL DEFAULT '',
    type TEXT NOT NULL DEFAULT 'page' CHECK (type IN ('page', 'link', 'folder')),
    link_type TEXT CHECK (link_type IN ('category', 'product', 'external', 'landing_page')),
    internal_link TEXT,
    link_new_tab INTEGER NOT NULL DEFAULT 0,
    cms_page_id TEXT REFERENCES cms_page(id),
    media_id TEXT REFERENCES media(id),
    display_nested_products INTEGER NOT NULL DEFAULT 1,
    visible INTEGER NOT NULL DEFAULT 1,
    active INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL
);
CREATE INDEX category_by_parent ON category(parent_id, position);
CREATE TABLE category_translation (
    category_id TEXT NOT NULL REFERENCES category(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    description TEXT,
    external_link TEXT,
    meta_title TEXT,
    meta_description TEXT,
    keywords TEXT,
    PRIMARY KEY (category_id, language_id)
) WITHOUT ROWID;

-- Direct assignments, and the same with every ancestor (listings with nested products).
CREATE TABLE product_category (
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    category_id TEXT NOT NULL REFERENCES category(id) ON DELETE CASCADE,
    PRIMARY KEY (product_id, category_id)
) WITHOUT ROWID;
-- The listing index: a category's products with copies of the product columns that
-- listings filter and sort by, so a listing reads one category's rows in order
-- instead of every product. Triggers below keep the copies in step with `product`.
CREATE TABLE product_category_tree (
    category_id TEXT NOT NULL REFERENCES category(id) ON DELETE CASCADE,
    product_id TEXT NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    -- An active main product (not a variant): what listings show.
    main INTEGER NOT NULL DEFAULT 0,
    listing_price REAL,
    sales INTEGER,
    release_date TEXT,
    rating_average REAL,
    shipping_free INTEGER,
    manufacturer_id TEXT,
    PRIMARY KEY (category_id, product_id)
) WITHOUT ROWID;
CREATE INDEX product_category_tree_by_product ON product_category_tree(product_id);
CREATE INDEX product_category_tree_by_price ON product_category_tree(category_id, main, listing_price);
CREATE INDEX product_category_tree_by_sales ON product_category_tree(category_id, main, sales);
CREATE INDEX product_category_tree_by_release ON product_category_tree(category_id, main, release_date);

CREATE TRIGGER product_category_tree_copy AFTER INSERT ON product_category_tree
BEGIN
    UPDATE product_category_tree
    SET (main, listing_price, sales, release_date, rating_average, shipping_free, manufacturer_id) = (
        SELECT p.active = 1 AND p.parent_id IS NULL, p.listing_price, p.sales, p.release_date, p.rating_average,
               p.shipping_free, p.manufacturer_id
        FROM product p WHERE p.id = NEW.product_id)
    WHERE category_id = NEW.category_id AND product_id = NEW.product_id;
END;

CREATE TRIGGER product_category_tree_follow AFTER UPDATE OF active, parent_id, listing_price, sales, release_date,
    rating_average, shipping_free, manufacturer_id ON product
BEGIN
    UPDATE product_category_tree
    SET main = (NEW.active = 1 AND NEW.parent_id IS NULL), listing_price = NEW.listing_price, sales = NEW.sales,
        release_date = NEW.release_date, rating_average = NEW.rating_average, shipping_free = NEW.shipping_free,
        manufacturer_id = NEW.manufacturer_id
    WHERE product_id = NEW.id;
END;

ALTER TABLE sales_channel ADD COLUMN navigation_category_id TEXT REFERENCES category(id);
ALTER TABLE sales_channel ADD COLUMN navigation_category_depth INTEGER NOT NULL DEFAULT 2;
ALTER TABLE sales_channel ADD COLUMN currency_id TEXT REFERENCES currency(id);
ALTER TABLE sales_channel ADD COLUMN country_id TEXT REFERENCES country(id);

CREATE TABLE seo_url (
    id TEXT PRIMARY KEY,
    sales_channel_id TEXT NOT NULL REFERENCES sales_channel(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    foreign_key TEXT NOT NULL,
    route_name TEXT NOT NULL CHECK (route_name IN ('frontend.navigation.page', 'frontend.detail.page', 'frontend.landing.page')),
    path_info TEXT NOT NULL,
    seo_path_info TEXT NOT NULL,
    is_canonical INTEGER NOT NULL DEFAULT 1,
    is_modified INTEGER NOT NULL DEFAULT 0,
    is_deleted INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX seo_url_by_path ON seo_url(sales_channel_id, language_id, seo_path_info);
CREATE INDEX seo_url_by_foreign_key ON seo_url(foreign_key, language_id);

-- CMS: pages (0001) get translations and section styling; blocks and slots are new.
-- Slot configs are translated as a whole JSON object per language.
CREATE TABLE cms_page_translation (
    cms_page_id TEXT NOT NULL REFERENCES cms_page(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    PRIMARY KEY (cms_page_id, language_id)
) WITHOUT ROWID;
ALTER TABLE cms_page ADD COLUMN entity TEXT;
ALTER TABLE cms_page ADD COLUMN css_class TEXT;
ALTER TABLE cms_section ADD COLUMN sizing_mode TEXT NOT NULL DEFAULT 'boxed';
ALTER TABLE cms_section ADD COLUMN mobile_behavior TEXT NOT NULL DEFAULT 'wrap';
ALTER TABLE cms_section ADD COLUMN background_color TEXT;
ALTER TABLE cms_section ADD COLUMN background_media_id TEXT REFERENCES media(id);
ALTER TABLE cms_section ADD COLUMN css_class TEXT;
CREATE INDEX cms_section_by_page ON cms_section(cms_page_id, position);

CREATE TABLE cms_block (
    id TEXT PRIMARY KEY,
    cms_section_id TEXT NOT NULL REFERENCES cms_section(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    type TEXT NOT NULL,
    name TEXT,
    section_position TEXT NOT NULL DEFAULT 'main' CHECK (section_position IN ('main', 'sidebar')),
    margin_top TEXT,
    margin_bottom TEXT,
    margin_left TEXT,
    margin_right TEXT,
    background_color TEXT,
    background_media_id TEXT REFERENCES media(id),
    css_class TEXT
);
CREATE INDEX cms_block_by_section ON cms_block(cms_section_id, position);

CREATE TABLE cms_slot (
    id TEXT PRIMARY KEY,
    cms_block_id TEXT NOT NULL REFERENCES cms_block(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    slot TEXT NOT NULL,
    locked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX cms_slot_by_block ON cms_slot(cms_block_id);
CREATE TABLE cms_slot_translation (
    cms_slot_id TEXT NOT NULL REFERENCES cms_slot(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    config TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (cms_slot_id, language_id)
) WITHOUT ROWID;

CREATE TABLE landing_page (
    id TEXT PRIMARY KEY,
    cms_page_id TEXT REFERENCES cms_page(id),
    active INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL
);
CREATE TABLE landing_page_translation (
    landing_page_id TEXT NOT NULL REFERENCES landing_page(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    name TEXT,
    url TEXT,
    meta_title TEXT,
    meta_description TEXT,
    keywords TEXT,
    PRIMARY KEY (landing_page_id, language_id)
) WITHOUT ROWID;

-- Full-text search over main products, one row per product and language: the name,
-- the numbers of the product and its variants, and keywords (manufacturer, category,
-- material); ranked with the name weighing most.
CREATE VIRTUAL TABLE product_search USING fts5(
    product_id UNINDEXED,
    language_id UNINDEXED,
    name,
    numbers,
    keywords,
    tokenize = 'unicode61 remove_diacritics 2'
);
-- `rank` weighs the name most.
INSERT INTO product_search (product_search, rank) VALUES ('rank', 'bm25(0.0, 0.0, 10.0, 5.0, 1.0)');

-- The listing sortings (spec section 9); the ORDER BY of each key is in the code.
CREATE TABLE product_sorting (
    id TEXT PRIMARY KEY,
    url_key TEXT NOT NULL UNIQUE,
    priority INTEGER NOT NULL,
    active INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE product_sorting_translation (
    product_sorting_id TEXT NOT NULL REFERENCES product_sorting(id) ON DELETE CASCADE,
    language_id TEXT NOT NULL REFERENCES language(id) ON DELETE CASCADE,
    label TEXT,
    PRIMARY KEY (product_sorting_id, language_id)
) WITHOUT ROWID;
