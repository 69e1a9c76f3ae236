//! The demo catalogue: locales, currency, countries, salutations, taxes, units,
//! delivery times, sortings, manufacturers, properties, categories, 66 products (some
//! with variants, advanced prices, list prices and price history), images, reviews,
//! SEO URLs and the search index. Every text in English and German.

use rusqlite::{params, Transaction};

use crate::catalog::price::round;
use crate::media::entity::{self, NewMedia};
use crate::media::svg::{self, Motif, Tint};
use crate::storage::new_id;

/// Ids the CMS pages and the bulk generator build on.
#[derive(Default)]
pub struct Demo {
    pub en: String,
    pub de: String,
    pub sales_channel_id: String,
    pub root_category_id: String,
    /// Categories that list products: (id, English name, German name).
    pub listing_categories: Vec<(String, String, String)>,
    /// Top-level page categories, for the home page's teasers.
    pub top_categories: Vec<String>,
    /// The "Spring inspiration" link category (points to the landing page).
    pub landing_link_category_id: String,
    /// The service pages of the footer ("About us", "Contact", "Newsletter"), each a page
    /// category under "Service" (the sales channel's footer navigation).
    pub service_pages: ServicePages,
    /// Main products, in creation order.
    pub products: Vec<String>,
    /// Each listing category's products.
    pub products_by_category: Vec<Vec<String>>,
    pub product_media: Vec<String>,
    pub tax_standard: String,
    pub manufacturers: Vec<String>,
    /// Options that products carry as properties: (material options, colour options).
    pub materials: Vec<String>,
    pub colors: Vec<String>,
}

/// The footer's page categories; the CMS seed gives each its page.
#[derive(Default)]
pub struct ServicePages {
    pub about: String,
    pub contact: String,
    pub newsletter: String,
}

/// A readable URL segment (`seo_url::slug`, which the Admin API's paths use too).
pub fn slug(text: &str) -> String {
    crate::seo_url::slug(text)
}

/// Days before now as RFC 3339.
pub fn days_ago(days: i64) -> String {
    (time::OffsetDateTime::now_utc() - time::Duration::days(days))
        .replace_nanosecond(0)
        .unwrap_or_else(|_| time::OffsetDateTime::now_utc())
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

pub fn insert_seo_url(
    tx: &Transaction,
    demo_channel: &str,
    language: &str,
    foreign_key: &str,
    route: &str,
    path_info: &str,
    seo_path: &str,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO seo_url (id, sales_channel_id, language_id, foreign_key, route_name, path_info, seo_path_info, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![new_id(), demo_channel, language, foreign_key, route, path_info, seo_path, days_ago(60)],
    )?;
    Ok(())
}

fn translated2(
    tx: &Transaction,
    sql: &str,
    id: &str,
    en: &str,
    en_values: &[&str],
    de: &str,
    de_values: &[&str],
) -> rusqlite::Result<()> {
    for (language, values) in [(en, en_values), (de, de_values)] {
        let mut all: Vec<&dyn rusqlite::ToSql> = vec![&id, &language];
        for v in values {
            all.push(v);
        }
        tx.execute(sql, all.as_slice())?;
    }
    Ok(())
}

struct Category {
    en: &'static str,
    de: &'static str,
    /// Tax: true for the reduced rate (food).
    reduced: bool,
    base_price: f64,
    step: f64,
    /// Description templates; `{name}` and `{material}` are replaced.
    text_en: &'static str,
    text_de: &'static str,
    materials: &'static [usize],
    /// (English name, German name, variants, picture).
    products: &'static [(&'static str, &'static str, Variants, Motif)],
}

#[derive(Clone, Copy, PartialEq)]
enum Variants {
    None,
    /// Sizes S–XL in two colours.
    Clothing,
    /// Shoe sizes 40–44.
    Shoes,
}

/// Colour options: names, the swatch, and the tint a product of that colour is drawn in.
const COLORS: &[(&str, &str, &str, Tint)] = &[
    ("Red", "Rot", "#c0392b", Tint::new(6, 63, 46)),
    ("Blue", "Blau", "#2e64b5", Tint::new(215, 60, 45)),
    ("Green", "Grün", "#2e8b57", Tint::new(146, 50, 36)),
    ("Black", "Schwarz", "#222222", Tint::new(220, 8, 17)),
    ("White", "Weiß", "#f5f5f5", Tint::new(40, 12, 96)),
    ("Grey", "Grau", "#888888", Tint::new(210, 6, 55)),
    ("Beige", "Beige", "#d8c3a5", Tint::new(35, 40, 75)),
];
const MATERIALS: &[(&str, &str)] = &[
    ("Cotton", "Baumwolle"),
    ("Linen", "Leinen"),
    ("Wool", "Wolle"),
    ("Leather", "Leder"),
    ("Stainless steel", "Edelstahl"),
    ("Oak", "Eiche"),
    ("Ceramic", "Keramik"),
    ("Glass", "Glas"),
    ("Recycled plastic", "Recycelter Kunststoff"),
    ("Organic", "Bio"),
];
/// A country: ISO codes, English and German name, position, EU member, states
/// (code, English and German name).
type CountrySeed = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    i64,
    bool,
    &'static [(&'static str, &'static str, &'static str)],
);

const SIZES: &[&str] = &["S", "M", "L", "XL"];
const SHOE_SIZES: &[&str] = &["40", "41", "42", "43", "44"];

const CATEGORIES: &[Category] = &[
    Category {
        en: "Shirts",
        de: "Hemden",
        reduced: false,
        base_price: 29.0,
        step: 4.0,
        text_en: "{name} in {material}, cut for comfortable everyday wear. Easy care and machine washable at 30 °C.",
        text_de: "{name} aus {material}, geschnitten für bequemen Alltag. Pflegeleicht und bei 30 °C waschbar.",
        materials: &[0, 1],
        products: &[
            ("Linen shirt", "Leinenhemd", Variants::Clothing, Motif::Shirt),
            ("Oxford shirt", "Oxford-Hemd", Variants::Clothing, Motif::Shirt),
            ("Flannel shirt", "Flanellhemd", Variants::Clothing, Motif::Shirt),
            ("Polo shirt", "Poloshirt", Variants::Clothing, Motif::Polo),
            ("Denim shirt", "Jeanshemd", Variants::None, Motif::Shirt),
            ("Henley shirt", "Henley-Shirt", Variants::None, Motif::TShirt),
            ("Striped T-shirt", "Gestreiftes T-Shirt", Variants::None, Motif::TShirt),
            ("Basic T-shirt", "Basic-T-Shirt", Variants::None, Motif::TShirt),
        ],
    },
    Category {
        en: "Jackets",
        de: "Jacken",
        reduced: false,
        base_price: 89.0,
        step: 15.0,
        text_en: "{name} made of {material}: warm, light and ready for changing weather.",
        text_de: "{name} aus {material}: warm, leicht und bereit für wechselhaftes Wetter.",
        materials: &[0, 2, 8],
        products: &[
            ("Rain jacket", "Regenjacke", Variants::Clothing, Motif::Jacket),
            ("Down jacket", "Daunenjacke", Variants::Clothing, Motif::Jacket),
            ("Denim jacket", "Jeansjacke", Variants::None, Motif::Jacket),
            ("Softshell jacket", "Softshelljacke", Variants::None, Motif::Jacket),
            ("Wool coat", "Wollmantel", Variants::None, Motif::Jacket),
            ("Fleece jacket", "Fleecejacke", Variants::None, Motif::Jacket),
        ],
    },
    Category {
        en: "Shoes",
        de: "Schuhe",
        reduced: false,
        base_price: 59.0,
        step: 10.0,
        text_en: "{name} with an upper of {material} and a cushioned sole for long days on your feet.",
        text_de: "{name} mit einem Obermaterial aus {material} und gedämpfter Sohle für lange Tage auf den Beinen.",
        materials: &[3, 0, 8],
        products: &[
            ("Leather sneakers", "Leder-Sneaker", Variants::Shoes, Motif::Sneaker),
            ("Running shoes", "Laufschuhe", Variants::Shoes, Motif::Sneaker),
            ("Hiking boots", "Wanderstiefel", Variants::Shoes, Motif::Boot),
            ("Chelsea boots", "Chelsea-Boots", Variants::None, Motif::Boot),
            ("Canvas shoes", "Leinenschuhe", Variants::None, Motif::Sneaker),
            ("Slippers", "Hausschuhe", Variants::None, Motif::LowShoe),
            ("Sandals", "Sandalen", Variants::None, Motif::LowShoe),
            ("Loafers", "Loafer", Variants::None, Motif::LowShoe),
        ],
    },
    Category {
        en: "Home & Living",
        de: "Wohnen",
        reduced: false,
        base_price: 19.0,
        step: 9.0,
        text_en: "{name} in {material} that brings calm and warmth to any room.",
        text_de: "{name} aus {material}, das jedem Raum Ruhe und Wärme gibt.",
        materials: &[6, 2, 1, 5],
        products: &[
            ("Ceramic vase", "Keramikvase", Variants::None, Motif::Vase),
            ("Wool blanket", "Wolldecke", Variants::None, Motif::Blanket),
            ("Linen cushion", "Leinenkissen", Variants::None, Motif::Cushion),
            ("Scented candle", "Duftkerze", Variants::None, Motif::Candle),
            ("Oak side table", "Beistelltisch aus Eiche", Variants::None, Motif::Table),
            ("Wall clock", "Wanduhr", Variants::None, Motif::Clock),
            ("Table lamp", "Tischlampe", Variants::None, Motif::Lamp),
            ("Picture frame", "Bilderrahmen", Variants::None, Motif::Frame),
            ("Storage basket", "Aufbewahrungskorb", Variants::None, Motif::Basket),
        ],
    },
    Category {
        en: "Kitchen",
        de: "Küche",
        reduced: false,
        base_price: 15.0,
        step: 8.0,
        text_en: "{name} of {material}, built for daily cooking and made to last.",
        text_de: "{name} aus {material}, gebaut für das tägliche Kochen und für lange Zeit.",
        materials: &[4, 5, 6, 7],
        products: &[
            ("Chef's knife", "Kochmesser", Variants::None, Motif::Knife),
            ("Cast iron pan", "Gusseisenpfanne", Variants::None, Motif::Pan),
            ("Cutting board", "Schneidebrett", Variants::None, Motif::Board),
            ("Espresso cups, set of 2", "Espressotassen, 2er-Set", Variants::None, Motif::Cup),
            ("Teapot", "Teekanne", Variants::None, Motif::Teapot),
            ("Salad bowl", "Salatschüssel", Variants::None, Motif::Bowl),
            ("Stainless steel pot", "Edelstahltopf", Variants::None, Motif::Pot),
            ("Pepper mill", "Pfeffermühle", Variants::None, Motif::Mill),
            ("Water carafe", "Wasserkaraffe", Variants::None, Motif::Bottle),
        ],
    },
    Category {
        en: "Electronics",
        de: "Elektronik",
        reduced: false,
        base_price: 25.0,
        step: 22.0,
        text_en: "{name} with a housing of {material}, long battery life and a two-year warranty.",
        text_de: "{name} mit Gehäuse aus {material}, langer Akkulaufzeit und zwei Jahren Garantie.",
        materials: &[8, 4],
        products: &[
            ("Wireless headphones", "Kabellose Kopfhörer", Variants::None, Motif::Headphones),
            ("Bluetooth speaker", "Bluetooth-Lautsprecher", Variants::None, Motif::Speaker),
            ("Smart watch", "Smartwatch", Variants::None, Motif::Watch),
            ("Power bank", "Powerbank", Variants::None, Motif::PowerBank),
            ("USB-C charger", "USB-C-Ladegerät", Variants::None, Motif::Charger),
            ("E-reader", "E-Reader", Variants::None, Motif::EReader),
            ("Webcam", "Webcam", Variants::None, Motif::Webcam),
            ("Mechanical keyboard", "Mechanische Tastatur", Variants::None, Motif::Keyboard),
            ("Wireless mouse", "Kabellose Maus", Variants::None, Motif::Mouse),
        ],
    },
    Category {
        en: "Outdoor",
        de: "Outdoor",
        reduced: false,
        base_price: 12.0,
        step: 18.0,
        text_en: "{name} of {material}, light to carry and tough enough for every trip.",
        text_de: "{name} aus {material}, leicht zu tragen und robust genug für jede Tour.",
        materials: &[8, 4, 0],
        products: &[
            ("Tent for two", "Zelt für zwei", Variants::None, Motif::Tent),
            ("Sleeping bag", "Schlafsack", Variants::None, Motif::SleepingBag),
            ("Hiking backpack", "Wanderrucksack", Variants::None, Motif::Backpack),
            ("Camping stove", "Campingkocher", Variants::None, Motif::Stove),
            ("Head torch", "Stirnlampe", Variants::None, Motif::HeadTorch),
            ("Water bottle", "Trinkflasche", Variants::None, Motif::Bottle),
            ("Trekking poles", "Trekkingstöcke", Variants::None, Motif::Poles),
            ("Hammock", "Hängematte", Variants::None, Motif::Hammock),
            ("Picnic blanket", "Picknickdecke", Variants::None, Motif::Blanket),
        ],
    },
    Category {
        en: "Coffee & Tea",
        de: "Kaffee & Tee",
        reduced: true,
        base_price: 6.0,
        step: 2.5,
        text_en: "{name}: {material} quality, roasted or blended in small batches for a full taste.",
        text_de: "{name}: {material}-Qualität, in kleinen Mengen geröstet oder gemischt für vollen Geschmack.",
        materials: &[9],
        products: &[
            ("Espresso beans 500 g", "Espressobohnen 500 g", Variants::None, Motif::CoffeeBag),
            ("Filter coffee 1 kg", "Filterkaffee 1 kg", Variants::None, Motif::CoffeeBag),
            ("Green tea 100 g", "Grüner Tee 100 g", Variants::None, Motif::Tin),
            ("Earl Grey 100 g", "Earl Grey 100 g", Variants::None, Motif::Tin),
            ("Chai spice tea 250 g", "Chai-Gewürztee 250 g", Variants::None, Motif::Tin),
            ("Decaf beans 500 g", "Entkoffeinierte Bohnen 500 g", Variants::None, Motif::CoffeeBag),
            ("Cold brew concentrate 1 l", "Cold-Brew-Konzentrat 1 l", Variants::None, Motif::Bottle),
            ("Hot chocolate 250 g", "Trinkschokolade 250 g", Variants::None, Motif::Tin),
        ],
    },
];

const MANUFACTURERS: &[(&str, &str, &str)] = &[
    (
        "Northwind",
        "Clothing and outdoor gear from the north.",
        "Kleidung und Outdoor-Ausrüstung aus dem Norden.",
    ),
    (
        "Alpenglück",
        "Shoes and boots from the Alps.",
        "Schuhe und Stiefel aus den Alpen.",
    ),
    (
        "Hearth & Co",
        "Things for home and kitchen.",
        "Dinge für Wohnung und Küche.",
    ),
    (
        "Voltline",
        "Everyday electronics.",
        "Elektronik für jeden Tag.",
    ),
    (
        "Bean Brothers",
        "Coffee and tea roasters.",
        "Kaffee- und Teeröster.",
    ),
];
/// The manufacturer of each category (index into MANUFACTURERS).
const CATEGORY_MANUFACTURER: &[usize] = &[0, 0, 1, 2, 2, 3, 0, 4];

const REVIEWS: &[(&str, &str, &str, &str, f64)] = &[
    (
        "Great quality",
        "Exactly as described, very well made.",
        "Tolle Qualität",
        "Genau wie beschrieben, sehr gut verarbeitet.",
        5.0,
    ),
    (
        "Good value",
        "Does what it should for a fair price.",
        "Gutes Preis-Leistungs-Verhältnis",
        "Tut, was es soll, zu einem fairen Preis.",
        4.0,
    ),
    (
        "Okay",
        "Fine, but delivery took a while.",
        "In Ordnung",
        "Gut, aber die Lieferung hat gedauert.",
        3.0,
    ),
];

/// The tiers of advanced prices: (start, end, factor of the base price).
const TIERS: &[(i64, Option<i64>, f64)] = &[(1, Some(4), 1.0), (5, Some(9), 0.95), (10, None, 0.9)];

/// What every shop needs before its catalogue, demo or not: locales, the currency,
/// countries, salutations, taxes, units, delivery times and the listing sortings.
pub struct Base {
    pub en: String,
    pub de: String,
    pub sales_channel_id: String,
    pub currency: String,
    pub germany: String,
    pub tax_standard: String,
    pub tax_reduced: String,
    pub kilogram: String,
    pub litre: String,
    pub delivery_times: Vec<String>,
}

pub fn seed(tx: &Transaction) -> anyhow::Result<Demo> {
    let Base {
        en,
        de,
        sales_channel_id,
        currency,
        germany,
        tax_standard,
        tax_reduced,
        kilogram,
        litre,
        delivery_times,
    } = seed_base(tx)?;
    let mut manufacturers = Vec::new();
    for (index, (name, description_en, description_de)) in MANUFACTURERS.iter().enumerate() {
        let logo = svg::logo(name, 40 + index as u32 * 70);
        let media = entity::insert(
            tx,
            &NewMedia {
                file_name: &slug(name).to_lowercase(),
                extension: "svg",
                mime_type: "image/svg+xml",
                content: logo.as_bytes(),
                width: Some(800),
                height: Some(800),
                alt: &[(&en, name), (&de, name)],
            },
        )?;
        let id = new_id();
        tx.execute(
            "INSERT INTO product_manufacturer (id, media_id, link) VALUES (?1, ?2, ?3)",
            params![
                id,
                media,
                format!("https://example.com/{}", slug(name).to_lowercase())
            ],
        )?;
        translated2(tx, "INSERT INTO product_manufacturer_translation (product_manufacturer_id, language_id, name, description) VALUES (?1, ?2, ?3, ?4)", &id, &en, &[name, description_en], &de, &[name, description_de])?;
        manufacturers.push(id);
    }

    // Property groups and options.
    let group = |display: &str,
                 position: i64,
                 en_name: &str,
                 de_name: &str|
     -> rusqlite::Result<String> {
        let id = new_id();
        tx.execute(
            "INSERT INTO property_group (id, display_type, position) VALUES (?1, ?2, ?3)",
            params![id, display, position],
        )?;
        translated2(
            tx,
            "INSERT INTO property_group_translation (property_group_id, language_id, name) VALUES (?1, ?2, ?3)",
            &id,
            &en,
            &[en_name],
            &de,
            &[de_name],
        )?;
        Ok(id)
    };
    let option = |group_id: &str,
                  position: usize,
                  en_name: &str,
                  de_name: &str,
                  color: Option<&str>|
     -> rusqlite::Result<String> {
        let id = new_id();
        tx.execute(
            "INSERT INTO property_group_option (id, property_group_id, position, color_hex_code) VALUES (?1, ?2, ?3, ?4)",
            params![id, group_id, position as i64 + 1, color],
        )?;
        translated2(
            tx,
            "INSERT INTO property_group_option_translation (property_group_option_id, language_id, name) VALUES (?1, ?2, ?3)",
            &id,
            &en,
            &[en_name],
            &de,
            &[de_name],
        )?;
        Ok(id)
    };
    let color_group = group("color", 1, "Colour", "Farbe")?;
    let size_group = group("text", 2, "Size", "Größe")?;
    let shoe_group = group("text", 3, "Shoe size", "Schuhgröße")?;
    let material_group = group("text", 4, "Material", "Material")?;
    let colors = COLORS
        .iter()
        .enumerate()
        .map(|(i, (e, d, hex, _))| option(&color_group, i, e, d, Some(hex)))
        .collect::<Result<Vec<_>, _>>()?;
    let sizes = SIZES
        .iter()
        .enumerate()
        .map(|(i, s)| option(&size_group, i, s, s, None))
        .collect::<Result<Vec<_>, _>>()?;
    let shoe_sizes = SHOE_SIZES
        .iter()
        .enumerate()
        .map(|(i, s)| option(&shoe_group, i, s, s, None))
        .collect::<Result<Vec<_>, _>>()?;
    let materials = MATERIALS
        .iter()
        .enumerate()
        .map(|(i, (e, d))| option(&material_group, i, e, d, None))
        .collect::<Result<Vec<_>, _>>()?;

    // Categories: Home > Clothing > (Shirts, Jackets), Shoes, Home & Living, Kitchen,
    // Electronics, Outdoor, Coffee & Tea; Service (folder, also the footer navigation) >
    // About us, Spring inspiration (landing page link), Contact, Newsletter (pages).
    let category = |parent: Option<(&str, &str)>,
                    level: i64,
                    position: i64,
                    kind: &str,
                    en_name: &str,
                    de_name: &str|
     -> rusqlite::Result<String> {
        let id = new_id();
        let path = match parent {
            Some((parent_id, parent_path)) => format!(
                "{}{parent_id}|",
                if parent_path.is_empty() {
                    "|"
                } else {
                    parent_path
                }
            ),
            None => String::new(),
        };
        tx.execute(
                "INSERT INTO category (id, parent_id, position, level, path, type, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![id, parent.map(|p| p.0), position, level, path, kind, days_ago(90)],
            )?;
        translated2(
            tx,
            "INSERT INTO category_translation (category_id, language_id, name) VALUES (?1, ?2, ?3)",
            &id,
            &en,
            &[en_name],
            &de,
            &[de_name],
        )?;
        Ok(id)
    };
    let path_of = |id: &str| -> rusqlite::Result<String> {
        tx.query_row("SELECT path FROM category WHERE id = ?1", [id], |r| {
            r.get(0)
        })
    };
    let root = category(None, 1, 0, "page", "Home", "Startseite")?;
    let root_path = path_of(&root)?;
    let clothing = category(
        Some((&root, &root_path)),
        2,
        1,
        "page",
        "Clothing",
        "Kleidung",
    )?;
    let clothing_path = path_of(&clothing)?;
    let mut listing_categories = Vec::new();
    let mut top_categories = vec![clothing.clone()];
    let mut category_ids = Vec::new();
    let mut top_position = 2;
    for (index, c) in CATEGORIES.iter().enumerate() {
        let id = if index < 2 {
            category(
                Some((&clothing, &clothing_path)),
                3,
                index as i64 + 1,
                "page",
                c.en,
                c.de,
            )?
        } else {
            top_position += 1;
            let id = category(
                Some((&root, &root_path)),
                2,
                top_position,
                "page",
                c.en,
                c.de,
            )?;
            top_categories.push(id.clone());
            id
        };
        listing_categories.push((id.clone(), c.en.to_owned(), c.de.to_owned()));
        category_ids.push(id);
    }
    let service = category(
        Some((&root, &root_path)),
        2,
        20,
        "folder",
        "Service",
        "Service",
    )?;
    let service_path = path_of(&service)?;
    let about = category(
        Some((&service, &service_path)),
        3,
        1,
        "page",
        "About us",
        "Über uns",
    )?;
    let landing_link = category(
        Some((&service, &service_path)),
        3,
        2,
        "link",
        "Spring inspiration",
        "Frühlingsinspiration",
    )?;
    tx.execute(
        "UPDATE category SET link_type = 'landing_page' WHERE id = ?1",
        [&landing_link],
    )?;
    let contact = category(
        Some((&service, &service_path)),
        3,
        3,
        "page",
        "Contact",
        "Kontakt",
    )?;
    let newsletter = category(
        Some((&service, &service_path)),
        3,
        4,
        "page",
        "Newsletter",
        "Newsletter",
    )?;
    for (id, en_name, de_name) in [
        (&about, "About us", "Über uns"),
        (&contact, "Contact", "Kontakt"),
        (&newsletter, "Newsletter", "Newsletter"),
    ] {
        for (language, name) in [(&en, en_name), (&de, de_name)] {
            insert_seo_url(
                tx,
                &sales_channel_id,
                language,
                id,
                "frontend.navigation.page",
                &format!("/navigation/{id}"),
                &format!("Service/{}/", slug(name)),
            )?;
        }
    }
    for (id, en_name, de_name) in std::iter::once((&clothing, "Clothing", "Kleidung")).chain(
        listing_categories
            .iter()
            .map(|(i, e, d)| (i, e.as_str(), d.as_str())),
    ) {
        let parent_segment = |name: &str, parent: bool| {
            if parent {
                format!("{}/", slug(name))
            } else {
                String::new()
            }
        };
        let in_clothing = listing_categories
            .iter()
            .position(|(c, _, _)| c == id)
            .is_some_and(|i| i < 2);
        insert_seo_url(
            tx,
            &sales_channel_id,
            &en,
            id,
            "frontend.navigation.page",
            &format!("/navigation/{id}"),
            &format!(
                "{}{}/",
                parent_segment("Clothing", in_clothing),
                slug(en_name)
            ),
        )?;
        insert_seo_url(
            tx,
            &sales_channel_id,
            &de,
            id,
            "frontend.navigation.page",
            &format!("/navigation/{id}"),
            &format!(
                "{}{}/",
                parent_segment("Kleidung", in_clothing),
                slug(de_name)
            ),
        )?;
        tx.execute(
            "UPDATE category_translation SET description = ?3, meta_title = ?4 WHERE category_id = ?1 AND language_id = ?2",
            params![id, en, format!("<p>Discover our {} collection.</p>", en_name.to_lowercase()), en_name],
        )?;
        tx.execute(
            "UPDATE category_translation SET description = ?3, meta_title = ?4 WHERE category_id = ?1 AND language_id = ?2",
            params![id, de, format!("<p>Entdecken Sie unsere Auswahl: {de_name}.</p>"), de_name],
        )?;
    }
    tx.execute(
        "UPDATE sales_channel SET navigation_category_id = ?1, currency_id = ?2, country_id = ?3, footer_category_id = ?5 WHERE id = ?4",
        params![root, currency, germany, sales_channel_id, service],
    )?;

    // Products.
    let mut number = 10000;
    let mut products = Vec::new();
    let mut products_by_category = Vec::new();
    let mut product_media = Vec::new();
    let mut global = 0usize;
    for (category_index, c) in CATEGORIES.iter().enumerate() {
        let category_id = &category_ids[category_index];
        let category_path = path_of(category_id)?;
        let ancestors: Vec<String> = category_path
            .split('|')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .chain(std::iter::once(category_id.clone()))
            .collect();
        let manufacturer = &manufacturers[CATEGORY_MANUFACTURER[category_index]];
        let manufacturer_name = MANUFACTURERS[CATEGORY_MANUFACTURER[category_index]].0;
        let mut in_category = Vec::new();
        for (index, (name_en, name_de, variants, motif)) in c.products.iter().enumerate() {
            global += 1;
            number += 1;
            let id = new_id();
            let material = c.materials[index % c.materials.len()];
            let color = (global * 3) % COLORS.len();
            let gross = c.base_price
                + c.step * index as f64
                + if global.is_multiple_of(2) { 0.95 } else { 0.99 };
            let tax_rate = if c.reduced { 7.0 } else { 19.0 };
            let net = round(gross / (1.0 + tax_rate / 100.0));
            // Every fourth product is on sale against a list price.
            let list_gross = (global.is_multiple_of(4)).then(|| (gross * 1.25).floor() + 0.99);
            let stock = ((global * 37) % 120) as i64;
            let closeout = global.is_multiple_of(11);
            let stock = if closeout { 0 } else { stock };
            let sales = ((global * 53) % 500) as i64;
            let release = days_ago(((global * 7) % 60) as i64 + 1);
            let (unit, purchase_unit, reference_unit, max_purchase) = if c.reduced {
                // "500 g" sells half a kilogram, "1 l" a litre; price per kg or l.
                let (amount, unit) = if name_en.ends_with("1 kg") {
                    (1.0, &kilogram)
                } else if name_en.ends_with("1 l") {
                    (1.0, &litre)
                } else if name_en.ends_with("500 g") {
                    (0.5, &kilogram)
                } else if name_en.ends_with("250 g") {
                    (0.25, &kilogram)
                } else {
                    (0.1, &kilogram)
                };
                (Some(unit.clone()), Some(amount), Some(1.0), Some(20))
            } else {
                (None, None, None, None)
            };
            let shipping_free = gross >= 100.0 || global.is_multiple_of(5);
            let delivery = &delivery_times[global % delivery_times.len()];
            let tax = if c.reduced {
                &tax_reduced
            } else {
                &tax_standard
            };
            let weight = round(0.2 + (global % 9) as f64 * 0.35);
            let variant_options: Vec<Vec<String>> = match variants {
                Variants::None => Vec::new(),
                Variants::Clothing => {
                    let two = [&colors[color], &colors[(color + 1) % colors.len()]];
                    two.iter()
                        .flat_map(|c| sizes.iter().map(move |s| vec![(*c).clone(), s.clone()]))
                        .collect()
                }
                Variants::Shoes => shoe_sizes
                    .iter()
                    .map(|s| vec![colors[color].clone(), s.clone()])
                    .collect(),
            };
            let listing_price = gross;
            tx.execute(
                "INSERT INTO product (id, product_number, manufacturer_id, manufacturer_number, ean, tax_id, unit_id, delivery_time_id,
                    stock, available_stock, is_closeout, restock_time, shipping_free, max_purchase, purchase_unit, reference_unit,
                    width, height, length, weight, price_net, price_gross, list_price_net, list_price_gross, purchase_price_net,
                    purchase_price_gross, listing_price, mark_as_topseller, sales, release_date, child_count, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23,
                    ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?29)",
                params![
                    id,
                    format!("SR{number}"),
                    manufacturer,
                    format!("{}-{number}", &manufacturer_name[..3].to_uppercase()),
                    format!("40{:011}", number),
                    tax,
                    unit,
                    delivery,
                    stock,
                    closeout,
                    closeout.then_some(14),
                    shipping_free,
                    max_purchase,
                    purchase_unit,
                    reference_unit,
                    100.0 + (global % 5) as f64 * 50.0,
                    50.0 + (global % 3) as f64 * 40.0,
                    200.0 + (global % 4) as f64 * 25.0,
                    weight,
                    net,
                    gross,
                    list_gross.map(|l| round(l / (1.0 + tax_rate / 100.0))),
                    list_gross,
                    round(net * 0.45),
                    round(gross * 0.45),
                    listing_price,
                    global.is_multiple_of(9),
                    sales,
                    release,
                    variant_options.len() as i64,
                ],
            )?;
            let text_en = c
                .text_en
                .replace("{name}", name_en)
                .replace("{material}", &MATERIALS[material].0.to_lowercase());
            let text_de = c
                .text_de
                .replace("{name}", name_de)
                .replace("{material}", MATERIALS[material].1);
            let keywords_en = format!(
                "{}, {}, {}",
                c.en.to_lowercase(),
                MATERIALS[material].0.to_lowercase(),
                manufacturer_name
            );
            let keywords_de = format!(
                "{}, {}, {}",
                c.de.to_lowercase(),
                MATERIALS[material].1.to_lowercase(),
                manufacturer_name
            );
            for (language, name, text, keywords, pack) in [
                (&en, name_en, &text_en, &keywords_en, "Piece"),
                (&de, name_de, &text_de, &keywords_de, "Stück"),
            ] {
                tx.execute(
                    "INSERT INTO product_translation (product_id, language_id, name, description, keywords, meta_title, meta_description, pack_unit, pack_unit_plural)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?3, ?6, ?7, ?7)",
                    params![id, language, name, format!("<p>{text}</p>"), keywords, text, pack],
                )?;
            }
            // Images: a cover, and a second view for every third product.
            let mut pictures = Vec::new();
            for view in 0..if global.is_multiple_of(3) { 2 } else { 1 } {
                // In its colour (a product with colour variants: its first colour).
                let picture = svg::product(*motif, COLORS[color].3, view);
                let media = entity::insert(
                    tx,
                    &NewMedia {
                        file_name: &slug(name_en).to_lowercase(),
                        extension: "svg",
                        mime_type: "image/svg+xml",
                        content: picture.as_bytes(),
                        width: Some(800),
                        height: Some(800),
                        alt: &[(&en, name_en), (&de, name_de)],
                    },
                )?;
                product_media.push(media.clone());
                pictures.push(media);
            }
            let mut cover = None;
            for (position, media) in pictures.iter().enumerate() {
                let product_media_id = new_id();
                tx.execute(
                    "INSERT INTO product_media (id, product_id, media_id, position) VALUES (?1, ?2, ?3, ?4)",
                    params![product_media_id, id, media, position as i64 + 1],
                )?;
                cover.get_or_insert(product_media_id);
            }
            tx.execute(
                "UPDATE product SET cover_id = ?1 WHERE id = ?2",
                params![cover, id],
            )?;
            tx.execute(
                "INSERT INTO product_category (product_id, category_id) VALUES (?1, ?2)",
                params![id, category_id],
            )?;
            for ancestor in &ancestors {
                tx.execute(
                    "INSERT INTO product_category_tree (category_id, product_id) VALUES (?1, ?2)",
                    params![ancestor, id],
                )?;
            }
            tx.execute(
                "INSERT INTO product_property (product_id, option_id) VALUES (?1, ?2)",
                params![id, materials[material]],
            )?;
            if *variants == Variants::None {
                tx.execute(
                    "INSERT INTO product_property (product_id, option_id) VALUES (?1, ?2)",
                    params![id, colors[color]],
                )?;
            }
            // Price history: the regular price 40 days ago; sale products got cheaper
            // 12 days ago; every seventh was cheaper still 5 days ago.
            tx.execute(
                "INSERT INTO product_price_history (product_id, valid_from, price_net, price_gross) VALUES (?1, ?2, ?3, ?4)",
                params![id, days_ago(40), net, list_gross.unwrap_or(gross)],
            )?;
            if list_gross.is_some() {
                tx.execute(
                    "INSERT INTO product_price_history (product_id, valid_from, price_net, price_gross) VALUES (?1, ?2, ?3, ?4)",
                    params![id, days_ago(12), net, gross],
                )?;
            }
            if global.is_multiple_of(7) {
                tx.execute(
                    "INSERT INTO product_price_history (product_id, valid_from, price_net, price_gross) VALUES (?1, ?2, ?3, ?4)",
                    params![id, days_ago(5), round(net - 1.5), round(gross - 2.0)],
                )?;
            }
            // Advanced prices for coffee and tea, and for kitchen sets.
            if c.reduced || name_en.contains("set of") {
                for (start, end, factor) in TIERS {
                    tx.execute(
                        "INSERT INTO product_price (id, product_id, quantity_start, quantity_end, price_net, price_gross) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        params![new_id(), id, start, end, round(net * factor), round(gross * factor)],
                    )?;
                }
            }
            // A clothing product's second colour has its own picture, so a variant's picture
            // follows the chosen colour (#31 item 12); the first colour's is the cover above.
            let second_color = (color + 1) % colors.len();
            let second_picture = if matches!(variants, Variants::Clothing) {
                let picture = svg::product(*motif, COLORS[second_color].3, 0);
                let file_name = format!("{}-{}", slug(name_en), slug(COLORS[second_color].0));
                Some(entity::insert(
                    tx,
                    &NewMedia {
                        file_name: &file_name.to_lowercase(),
                        extension: "svg",
                        mime_type: "image/svg+xml",
                        content: picture.as_bytes(),
                        width: Some(800),
                        height: Some(800),
                        alt: &[(&en, name_en), (&de, name_de)],
                    },
                )?)
            } else {
                None
            };
            // Variants: their own number, stock and options; XL costs a little more.
            let mut variant_numbers = Vec::new();
            for (position, options) in variant_options.iter().enumerate() {
                let variant = new_id();
                let variant_number = format!("SR{number}.{}", position + 1);
                let surcharge = if options.iter().any(|o| o == &sizes[3]) {
                    5.0
                } else {
                    0.0
                };
                let variant_gross = gross + surcharge;
                let variant_stock = ((global + position * 13) % 40) as i64;
                tx.execute(
                    "INSERT INTO product (id, parent_id, product_number, manufacturer_id, tax_id, delivery_time_id, cover_id, stock, available_stock,
                        shipping_free, weight, price_net, price_gross, list_price_net, list_price_gross, listing_price, sales, release_date, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL, ?7, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?11, ?14, ?15, ?15)",
                    params![
                        variant,
                        id,
                        variant_number,
                        manufacturer,
                        tax,
                        delivery,
                        variant_stock,
                        shipping_free,
                        weight,
                        round(variant_gross / (1.0 + tax_rate / 100.0)),
                        variant_gross,
                        list_gross.map(|l| round((l + surcharge) / (1.0 + tax_rate / 100.0))),
                        list_gross.map(|l| l + surcharge),
                        sales / variant_options.len() as i64,
                        release,
                    ],
                )?;
                let variant_media = new_id();
                let picture = match &second_picture {
                    Some(second) if options.contains(&colors[second_color]) => second,
                    _ => &pictures[0],
                };
                tx.execute(
                    "INSERT INTO product_media (id, product_id, media_id, position) VALUES (?1, ?2, ?3, 1)",
                    params![variant_media, variant, picture],
                )?;
                tx.execute(
                    "UPDATE product SET cover_id = ?1 WHERE id = ?2",
                    params![variant_media, variant],
                )?;
                tx.execute(
                    "INSERT INTO product_price_history (product_id, valid_from, price_net, price_gross) VALUES (?1, ?2, ?3, ?4)",
                    params![
                        variant,
                        days_ago(40),
                        round(variant_gross / (1.0 + tax_rate / 100.0)),
                        list_gross.map(|l| l + surcharge).unwrap_or(variant_gross)
                    ],
                )?;
                tx.execute(
                    "INSERT INTO product_category (product_id, category_id) VALUES (?1, ?2)",
                    params![variant, category_id],
                )?;
                for option in options {
                    tx.execute(
                        "INSERT INTO product_option (product_id, option_id) VALUES (?1, ?2)",
                        params![variant, option],
                    )?;
                }
                tx.execute(
                    "INSERT INTO product_property (product_id, option_id) VALUES (?1, ?2)",
                    params![variant, materials[material]],
                )?;
                for language in [&en, &de] {
                    let name = if language == &en { name_en } else { name_de };
                    insert_seo_url(
                        tx,
                        &sales_channel_id,
                        language,
                        &variant,
                        "frontend.detail.page",
                        &format!("/detail/{variant}"),
                        &format!("{}/{variant_number}", slug(name)),
                    )?;
                }
                variant_numbers.push(variant_number);
            }
            let mut seen_options = Vec::new();
            for options in &variant_options {
                for option in options {
                    if !seen_options.contains(option) {
                        seen_options.push(option.clone());
                    }
                }
            }
            for (position, option) in seen_options.iter().enumerate() {
                tx.execute(
                    "INSERT INTO product_configurator_setting (id, product_id, option_id, position) VALUES (?1, ?2, ?3, ?4)",
                    params![new_id(), id, option, position as i64],
                )?;
            }
            if !variant_options.is_empty() {
                let (min, max): (f64, f64) = tx.query_row(
                    "SELECT MIN(price_gross), MAX(price_gross) FROM product WHERE parent_id = ?1",
                    [&id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )?;
                let _ = max;
                tx.execute("UPDATE product SET listing_price = ?1, stock = (SELECT SUM(stock) FROM product WHERE parent_id = ?2), available_stock = (SELECT SUM(available_stock) FROM product WHERE parent_id = ?2) WHERE id = ?2", params![min, id])?;
            }
            // Reviews on every third product, which also sets its average rating.
            if global % 3 == 1 {
                let count = 1 + global % REVIEWS.len();
                let mut total = 0.0;
                for (index, (title_en, content_en, title_de, content_de, points)) in
                    REVIEWS.iter().take(count).enumerate()
                {
                    let german = index % 2 == 1;
                    tx.execute(
                        "INSERT INTO product_review (id, product_id, sales_channel_id, language_id, external_user, title, content, points, created_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                        params![
                            new_id(),
                            id,
                            sales_channel_id,
                            if german { &de } else { &en },
                            if german { "Jana" } else { "Sam" },
                            if german { title_de } else { title_en },
                            if german { content_de } else { content_en },
                            points,
                            days_ago(index as i64 * 3 + 1)
                        ],
                    )?;
                    total += points;
                }
                tx.execute(
                    "UPDATE product SET rating_average = ?1 WHERE id = ?2",
                    params![round(total / count as f64), id],
                )?;
            }
            for (language, name) in [(&en, name_en), (&de, name_de)] {
                insert_seo_url(
                    tx,
                    &sales_channel_id,
                    language,
                    &id,
                    "frontend.detail.page",
                    &format!("/detail/{id}"),
                    &format!("{}/SR{number}", slug(name)),
                )?;
                let keywords = if language == &en {
                    &keywords_en
                } else {
                    &keywords_de
                };
                tx.execute(
                    "INSERT INTO product_search (product_id, language_id, name, numbers, keywords) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![id, language, name, format!("SR{number} {}", variant_numbers.join(" ")), keywords],
                )?;
            }
            products.push(id.clone());
            in_category.push(id);
        }
        products_by_category.push(in_category);
    }

    Ok(Demo {
        en,
        de,
        sales_channel_id,
        root_category_id: root,
        listing_categories,
        top_categories,
        landing_link_category_id: landing_link,
        service_pages: ServicePages {
            about,
            contact,
            newsletter,
        },
        products,
        products_by_category,
        product_media,
        tax_standard,
        manufacturers,
        materials,
        colors,
    })
}

/// Seeds the [`Base`] of a shop.
pub fn seed_base(tx: &Transaction) -> anyhow::Result<Base> {
    let (sales_channel_id, en): (String, String) = tx.query_row(
        "SELECT id, language_id FROM sales_channel ORDER BY rowid LIMIT 1",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let de: String = tx.query_row("SELECT id FROM language WHERE code = 'de-DE'", [], |r| {
        r.get(0)
    })?;

    // Locales, languages of the sales channel.
    for (language, code, name, territory) in [
        (&en, "en-GB", "English", "United Kingdom"),
        (&de, "de-DE", "German", "Germany"),
    ] {
        let locale = new_id();
        tx.execute(
            "INSERT INTO locale (id, code, name, territory) VALUES (?1, ?2, ?3, ?4)",
            params![locale, code, name, territory],
        )?;
        tx.execute(
            "UPDATE language SET locale_id = ?1 WHERE id = ?2",
            params![locale, language],
        )?;
        tx.execute(
            "INSERT INTO sales_channel_language (sales_channel_id, language_id) VALUES (?1, ?2)",
            params![sales_channel_id, language],
        )?;
    }

    let currency = new_id();
    tx.execute(
        "INSERT INTO currency (id, iso_code, symbol, is_system_default) VALUES (?1, 'EUR', '€', 1)",
        [&currency],
    )?;
    translated2(
        tx,
        "INSERT INTO currency_translation (currency_id, language_id, short_name, name) VALUES (?1, ?2, ?3, ?4)",
        &currency,
        &en,
        &["EUR", "Euro"],
        &de,
        &["EUR", "Euro"],
    )?;

    let countries: &[CountrySeed] = &[
        (
            "DE",
            "DEU",
            "Germany",
            "Deutschland",
            1,
            true,
            &[
                ("DE-BE", "Berlin", "Berlin"),
                ("DE-BY", "Bavaria", "Bayern"),
                ("DE-HH", "Hamburg", "Hamburg"),
                ("DE-NW", "North Rhine-Westphalia", "Nordrhein-Westfalen"),
            ],
        ),
        ("AT", "AUT", "Austria", "Österreich", 2, true, &[]),
        ("CH", "CHE", "Switzerland", "Schweiz", 3, false, &[]),
        (
            "GB",
            "GBR",
            "United Kingdom",
            "Vereinigtes Königreich",
            4,
            false,
            &[],
        ),
        ("NL", "NLD", "Netherlands", "Niederlande", 5, true, &[]),
        ("FR", "FRA", "France", "Frankreich", 6, true, &[]),
        (
            "US",
            "USA",
            "United States",
            "Vereinigte Staaten",
            7,
            false,
            &[
                ("US-CA", "California", "Kalifornien"),
                ("US-NY", "New York", "New York"),
                ("US-TX", "Texas", "Texas"),
            ],
        ),
    ];
    let mut germany = String::new();
    for (iso, iso3, name_en, name_de, position, eu, states) in countries {
        let id = new_id();
        if *iso == "DE" {
            germany = id.clone();
        }
        tx.execute(
            "INSERT INTO country (id, iso, iso3, position, is_eu, postal_code_required, display_state_in_registration) VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6)",
            params![id, iso, iso3, position, eu, !states.is_empty()],
        )?;
        translated2(
            tx,
            "INSERT INTO country_translation (country_id, language_id, name) VALUES (?1, ?2, ?3)",
            &id,
            &en,
            &[name_en],
            &de,
            &[name_de],
        )?;
        for (index, (code, state_en, state_de)) in states.iter().enumerate() {
            let state = new_id();
            tx.execute(
                "INSERT INTO country_state (id, country_id, short_code, position) VALUES (?1, ?2, ?3, ?4)",
                params![state, id, code, index as i64 + 1],
            )?;
            translated2(
                tx,
                "INSERT INTO country_state_translation (country_state_id, language_id, name) VALUES (?1, ?2, ?3)",
                &state,
                &en,
                &[state_en],
                &de,
                &[state_de],
            )?;
        }
    }

    for (position, (key, display_en, letter_en, display_de, letter_de)) in [
        ("mr", "Mr.", "Dear Mr.", "Herr", "Sehr geehrter Herr"),
        ("mrs", "Mrs.", "Dear Mrs.", "Frau", "Sehr geehrte Frau"),
        (
            "not_specified",
            "Not specified",
            "Hello",
            "Keine Angabe",
            "Hallo",
        ),
    ]
    .iter()
    .enumerate()
    {
        let id = new_id();
        tx.execute(
            "INSERT INTO salutation (id, salutation_key, position) VALUES (?1, ?2, ?3)",
            params![id, key, position as i64 + 1],
        )?;
        translated2(
            tx,
            "INSERT INTO salutation_translation (salutation_id, language_id, display_name, letter_name) VALUES (?1, ?2, ?3, ?4)",
            &id,
            &en,
            &[display_en, letter_en],
            &de,
            &[display_de, letter_de],
        )?;
    }

    let tax_standard = new_id();
    let tax_reduced = new_id();
    tx.execute(
        "INSERT INTO tax (id, tax_rate, name, position) VALUES (?1, 19, 'Standard rate', 1)",
        [&tax_standard],
    )?;
    tx.execute(
        "INSERT INTO tax (id, tax_rate, name, position) VALUES (?1, 7, 'Reduced rate', 2)",
        [&tax_reduced],
    )?;

    let kilogram = new_id();
    let litre = new_id();
    for (id, en_values, de_values) in [
        (&kilogram, ["kg", "Kilogram"], ["kg", "Kilogramm"]),
        (&litre, ["l", "Litre"], ["l", "Liter"]),
    ] {
        tx.execute("INSERT INTO unit (id) VALUES (?1)", [id])?;
        translated2(
            tx,
            "INSERT INTO unit_translation (unit_id, language_id, short_code, name) VALUES (?1, ?2, ?3, ?4)",
            id,
            &en,
            &en_values,
            &de,
            &de_values,
        )?;
    }

    let mut delivery_times = Vec::new();
    for (min, max, unit, name_en, name_de) in [
        (1, 3, "day", "1-3 days", "1-3 Tage"),
        (2, 5, "day", "2-5 days", "2-5 Tage"),
        (1, 2, "week", "1-2 weeks", "1-2 Wochen"),
    ] {
        let id = new_id();
        tx.execute(
            "INSERT INTO delivery_time (id, min, max, unit) VALUES (?1, ?2, ?3, ?4)",
            params![id, min, max, unit],
        )?;
        translated2(
            tx,
            "INSERT INTO delivery_time_translation (delivery_time_id, language_id, name) VALUES (?1, ?2, ?3)",
            &id,
            &en,
            &[name_en],
            &de,
            &[name_de],
        )?;
        delivery_times.push(id);
    }

    for (key, priority, label_en, label_de) in [
        ("score", 7, "Top results", "Beste Ergebnisse"),
        ("name-asc", 6, "Name A-Z", "Name A-Z"),
        ("name-desc", 5, "Name Z-A", "Name Z-A"),
        ("price-asc", 4, "Lowest price", "Niedrigster Preis"),
        ("price-desc", 3, "Highest price", "Höchster Preis"),
        ("topseller", 2, "Top seller", "Topseller"),
        ("newest", 1, "Last added", "Zuletzt hinzugefügt"),
    ] {
        let id = new_id();
        tx.execute(
            "INSERT INTO product_sorting (id, url_key, priority) VALUES (?1, ?2, ?3)",
            params![id, key, priority],
        )?;
        translated2(
            tx,
            "INSERT INTO product_sorting_translation (product_sorting_id, language_id, label) VALUES (?1, ?2, ?3)",
            &id,
            &en,
            &[label_en],
            &de,
            &[label_de],
        )?;
    }
    Ok(Base {
        en,
        de,
        sales_channel_id,
        currency,
        germany,
        tax_standard,
        tax_reduced,
        kilogram,
        litre,
        delivery_times,
    })
}
