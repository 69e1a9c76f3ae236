//! The demo's CMS pages: the home page (hero, text, product slider, category
//! teasers, image slider), the category listing layout (navigation, filters, product
//! listing) and the "Spring inspiration" landing page. Every text in English and German.

use rusqlite::{params, Transaction};
use serde_json::{json, Value};

use super::catalog::{insert_seo_url, slug, Demo};
use crate::media::entity::{self, NewMedia};
use crate::media::svg::{self, Motif};
use crate::storage::{new_id, now_rfc3339};

/// A slot: type, slot name, config in English and German.
type Slot = (&'static str, &'static str, Value, Value);

fn page(
    tx: &Transaction,
    demo: &Demo,
    kind: &str,
    name_en: &str,
    name_de: &str,
) -> rusqlite::Result<String> {
    let id = new_id();
    tx.execute(
        "INSERT INTO cms_page (id, type, name) VALUES (?1, ?2, ?3)",
        params![id, kind, name_en],
    )?;
    for (language, name) in [(&demo.en, name_en), (&demo.de, name_de)] {
        tx.execute(
            "INSERT INTO cms_page_translation (cms_page_id, language_id, name) VALUES (?1, ?2, ?3)",
            params![id, language, name],
        )?;
    }
    Ok(id)
}

fn section(
    tx: &Transaction,
    page_id: &str,
    position: i64,
    kind: &str,
    sizing: &str,
    background: Option<&str>,
) -> rusqlite::Result<String> {
    let id = new_id();
    tx.execute(
        "INSERT INTO cms_section (id, cms_page_id, position, type, sizing_mode, background_color) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![id, page_id, position, kind, sizing, background],
    )?;
    Ok(id)
}

/// Where a block goes: its section and its position there.
struct At<'a> {
    section: &'a str,
    position: i64,
}

/// A block; no side margins, so the content lines up with the header and the breadcrumb.
fn block(
    tx: &Transaction,
    demo: &Demo,
    At {
        section: section_id,
        position,
    }: At,
    kind: &str,
    section_position: &str,
    background_media: Option<&str>,
    slots: &[Slot],
) -> rusqlite::Result<String> {
    let id = new_id();
    tx.execute(
        "INSERT INTO cms_block (id, cms_section_id, position, type, section_position, margin_top, margin_bottom, margin_left, margin_right, background_media_id)
         VALUES (?1, ?2, ?3, ?4, ?5, '20px', '20px', '0', '0', ?6)",
        params![id, section_id, position, kind, section_position, background_media],
    )?;
    for (slot_type, slot, config_en, config_de) in slots {
        let slot_id = new_id();
        tx.execute(
            "INSERT INTO cms_slot (id, cms_block_id, type, slot) VALUES (?1, ?2, ?3, ?4)",
            params![slot_id, id, slot_type, slot],
        )?;
        for (language, config) in [(&demo.en, config_en), (&demo.de, config_de)] {
            tx.execute(
                "INSERT INTO cms_slot_translation (cms_slot_id, language_id, config) VALUES (?1, ?2, ?3)",
                params![slot_id, language, config.to_string()],
            )?;
        }
    }
    Ok(id)
}

fn text(html: &str) -> Value {
    json!({ "content": { "source": "static", "value": html }, "verticalAlign": { "source": "static", "value": null } })
}

fn image(media_id: &str, display_mode: &str, url: Option<&str>) -> Value {
    json!({
        "media": { "source": "static", "value": media_id },
        "displayMode": { "source": "static", "value": display_mode },
        "url": { "source": "static", "value": url },
        "newTab": { "source": "static", "value": false },
        "minHeight": { "source": "static", "value": "300px" },
    })
}

/// Stores a generated picture; the alt texts say what it shows. Pictures carry no
/// words: a headline is text laid over them in the CMS, in each language.
fn picture(
    tx: &Transaction,
    demo: &Demo,
    (alt_en, alt_de): (&str, &str),
    content: &str,
    (width, height): (u32, u32),
) -> rusqlite::Result<String> {
    entity::insert(
        tx,
        &NewMedia {
            file_name: &super::catalog::slug(alt_en).to_lowercase(),
            extension: "svg",
            mime_type: "image/svg+xml",
            content: content.as_bytes(),
            width: Some(width),
            height: Some(height),
            alt: &[(&demo.en, alt_en), (&demo.de, alt_de)],
        },
    )
}

/// A top-level category's page in each language (SEO paths of `catalog::seed`).
fn category_paths(en_name: &str, de_name: &str) -> (String, String) {
    (
        format!("/{}/", slug(en_name)),
        format!("/de-DE/{}/", slug(de_name)),
    )
}

/// The home page's category teasers (the third to fifth listing categories: shoes, home
/// and living, kitchen): the pictures' motifs and a line of text in English and German.
const TEASERS: &[(&[Motif], &str, &str)] = &[
    (
        &[Motif::Sneaker, Motif::Boot],
        "Sneakers, boots and slippers for every step.",
        "Sneaker, Stiefel und Hausschuhe für jeden Schritt.",
    ),
    (
        &[Motif::Vase, Motif::Lamp],
        "Vases, blankets and lamps for a cosy home.",
        "Vasen, Decken und Lampen für ein gemütliches Zuhause.",
    ),
    (
        &[Motif::Pot, Motif::Cup],
        "Knives, pans and cups for everyday cooking.",
        "Messer, Pfannen und Tassen für die tägliche Küche.",
    ),
];

/// The home page's image slider: a slide per top-level category (English and German
/// name as in `catalog::seed`), with its motifs.
const SLIDES: &[(&str, &str, &[Motif])] = &[
    (
        "Clothing",
        "Kleidung",
        &[Motif::Shirt, Motif::Jacket, Motif::Polo],
    ),
    (
        "Electronics",
        "Elektronik",
        &[Motif::Headphones, Motif::Watch, Motif::Speaker],
    ),
    (
        "Outdoor",
        "Outdoor",
        &[Motif::Tent, Motif::Backpack, Motif::HeadTorch],
    ),
    (
        "Coffee & Tea",
        "Kaffee & Tee",
        &[Motif::CoffeeBag, Motif::Cup, Motif::Teapot],
    ),
];

pub fn seed(tx: &Transaction, demo: &Demo) -> anyhow::Result<()> {
    // Home page.
    let home = page(tx, demo, "landingpage", "Home", "Startseite")?;
    let hero = picture(
        tx,
        demo,
        ("Welcome to Salesroom", "Willkommen bei Salesroom"),
        &svg::banner(200, &[Motif::Jacket, Motif::Sneaker, Motif::Cup]),
        (1600, 600),
    )?;
    let first = section(tx, &home, 0, "default", "full_width", None)?;
    block(
        tx,
        demo,
        At {
            section: &first,
            position: 0,
        },
        "text-on-image",
        "main",
        Some(&hero),
        &[(
            "text",
            "content",
            text(
                r#"<h1>Shop live with us</h1><p><a href="/presentations">Join a guided presentation</a> or browse the whole collection.</p>"#,
            ),
            text(
                r#"<h1>Live mit uns einkaufen</h1><p><a href="/de-DE/presentations">Nehmen Sie an einer Präsentation teil</a> oder stöbern Sie in der ganzen Kollektion.</p>"#,
            ),
        )],
    )?;
    let second = section(tx, &home, 1, "default", "boxed", None)?;
    block(
        tx,
        demo,
        At { section: &second, position: 0 },
        "text",
        "main",
        None,
        &[(
            "text",
            "content",
            text("<h2>Our favourites this season</h2><p>Hand-picked products from every category.</p>"),
            text("<h2>Unsere Lieblinge der Saison</h2><p>Handverlesene Produkte aus allen Kategorien.</p>"),
        )],
    )?;
    let picks: Vec<&String> = demo
        .products_by_category
        .iter()
        .filter_map(|products| products.first())
        .collect();
    // The text block above is the heading: the slider has no title of its own.
    let slider = json!({
        "products": { "source": "static", "value": picks },
        "displayMode": { "source": "static", "value": "standard" },
        "boxLayout": { "source": "static", "value": "standard" },
        "navigation": { "source": "static", "value": true },
    });
    block(
        tx,
        demo,
        At {
            section: &second,
            position: 1,
        },
        "product-slider",
        "main",
        None,
        &[("product-slider", "productSlider", slider.clone(), slider)],
    )?;
    // Three category teasers: a picture and a linked heading each.
    let mut teaser_slots: Vec<Slot> = Vec::new();
    for (index, ((image_slot, text_slot), ((_, en_name, de_name), (motifs, en_text, de_text)))) in [
        ("left-image", "left-text"),
        ("center-image", "center-text"),
        ("right-image", "right-text"),
    ]
    .iter()
    .zip(demo.listing_categories.iter().skip(2).zip(TEASERS))
    .enumerate()
    {
        let media = picture(
            tx,
            demo,
            (en_name, de_name),
            &svg::teaser(20 + index as u32 * 90, motifs),
            (1200, 900),
        )?;
        let (en_path, de_path) = category_paths(en_name, de_name);
        let heading = |path: &str, name: &str, line: &str| {
            text(&format!(
                r#"<h3><a href="{path}">{name}</a></h3><p>{line}</p>"#,
                name = name.replace('&', "&amp;")
            ))
        };
        teaser_slots.push((
            "image",
            image_slot,
            image(&media, "standard", Some(&en_path)),
            image(&media, "standard", Some(&de_path)),
        ));
        teaser_slots.push((
            "text",
            text_slot,
            heading(&en_path, en_name, en_text),
            heading(&de_path, de_name, de_text),
        ));
    }
    block(
        tx,
        demo,
        At {
            section: &second,
            position: 2,
        },
        "image-text-row",
        "main",
        None,
        &teaser_slots,
    )?;
    let mut slides = (Vec::new(), Vec::new());
    for (index, (en_name, de_name, motifs)) in SLIDES.iter().enumerate() {
        let media = picture(
            tx,
            demo,
            (en_name, de_name),
            &svg::slide(150 + index as u32 * 55, motifs),
            (1600, 700),
        )?;
        let (en_path, de_path) = category_paths(en_name, de_name);
        slides
            .0
            .push(json!({ "mediaId": media, "url": en_path, "newTab": false }));
        slides
            .1
            .push(json!({ "mediaId": media, "url": de_path, "newTab": false }));
    }
    let gallery = |items: Vec<Value>| json!({ "sliderItems": { "source": "static", "value": items }, "navigationArrows": { "source": "static", "value": "outside" } });
    block(
        tx,
        demo,
        At {
            section: &second,
            position: 3,
        },
        "image-slider",
        "main",
        None,
        &[(
            "image-slider",
            "imageSlider",
            gallery(slides.0),
            gallery(slides.1),
        )],
    )?;
    tx.execute(
        "UPDATE category SET cms_page_id = ?1 WHERE id = ?2",
        params![home, demo.root_category_id],
    )?;

    // The listing layout of every category.
    let listing = page(
        tx,
        demo,
        "product_list",
        "Category listing",
        "Kategorie-Listing",
    )?;
    let main = section(tx, &listing, 0, "sidebar", "boxed", None)?;
    block(
        tx,
        demo,
        At {
            section: &main,
            position: 0,
        },
        "category-navigation",
        "sidebar",
        None,
        &[("category-navigation", "content", json!({}), json!({}))],
    )?;
    block(
        tx,
        demo,
        At {
            section: &main,
            position: 1,
        },
        "sidebar-filter",
        "sidebar",
        None,
        &[("sidebar-filter", "content", json!({}), json!({}))],
    )?;
    let listing_config = json!({
        "boxLayout": { "source": "static", "value": "standard" },
        "showSorting": { "source": "static", "value": true },
        "useCustomSorting": { "source": "static", "value": false },
        "filters": { "source": "static", "value": "manufacturer-filter,rating-filter,price-filter,shipping-free-filter,property-filter" },
    });
    block(
        tx,
        demo,
        At {
            section: &main,
            position: 2,
        },
        "product-listing",
        "main",
        None,
        &[(
            "product-listing",
            "content",
            listing_config.clone(),
            listing_config,
        )],
    )?;
    service_pages(tx, demo)?;
    tx.execute(
        "UPDATE category SET cms_page_id = ?1 WHERE type = 'page' AND id != ?2 AND cms_page_id IS NULL",
        params![listing, demo.root_category_id],
    )?;

    // Landing page.
    let spring = page(
        tx,
        demo,
        "landingpage",
        "Spring inspiration",
        "Frühlingsinspiration",
    )?;
    let spring_banner = picture(
        tx,
        demo,
        ("Spring inspiration", "Frühlingsinspiration"),
        &svg::banner(100, &[Motif::Jacket, Motif::Tent, Motif::Cup]),
        (1600, 600),
    )?;
    let body = section(tx, &spring, 0, "default", "boxed", None)?;
    block(
        tx,
        demo,
        At {
            section: &body,
            position: 0,
        },
        "text-on-image",
        "main",
        Some(&spring_banner),
        &[(
            "text",
            "content",
            text("<h1>Spring inspiration</h1><p>Our ideas for the new season.</p>"),
            // A soft hyphen: the long German word may break on a phone.
            text("<h1>Frühlings&shy;inspiration</h1><p>Unsere Ideen für die neue Saison.</p>"),
        )],
    )?;
    block(
        tx,
        demo,
        At { section: &body, position: 1 },
        "text",
        "main",
        None,
        &[(
            "text",
            "content",
            text("<h2>Fresh ideas for spring</h2><p>Light layers, outdoor gear and a good cup of coffee.</p>"),
            text("<h2>Frische Ideen für den Frühling</h2><p>Leichte Kleidung, Outdoor-Ausrüstung und eine gute Tasse Kaffee.</p>"),
        )],
    )?;
    // What the text promises: a jacket, outdoor gear and coffee (the first product of those listing categories).
    let featured: Vec<Slot> = ["left", "center", "right"]
        .into_iter()
        .zip([1, 6, 7])
        .filter_map(|(slot, category)| {
            demo.products_by_category.get(category).and_then(|products| products.first()).map(|product| (slot, product))
        })
        .map(|(slot, product)| {
            let product_box =
                json!({ "product": { "source": "static", "value": product }, "boxLayout": { "source": "static", "value": "standard" } });
            ("product-box", slot, product_box.clone(), product_box)
        })
        .collect();
    block(
        tx,
        demo,
        At {
            section: &body,
            position: 2,
        },
        "product-three-column",
        "main",
        None,
        &featured,
    )?;
    let landing = new_id();
    tx.execute(
        "INSERT INTO landing_page (id, cms_page_id, created_at) VALUES (?1, ?2, ?3)",
        params![landing, spring, now_rfc3339()],
    )?;
    for (language, name, url) in [
        (&demo.en, "Spring inspiration", "spring-inspiration"),
        (&demo.de, "Frühlingsinspiration", "fruehlingsinspiration"),
    ] {
        tx.execute(
            "INSERT INTO landing_page_translation (landing_page_id, language_id, name, url, meta_title) VALUES (?1, ?2, ?3, ?4, ?3)",
            params![landing, language, name, url],
        )?;
        insert_seo_url(
            tx,
            &demo.sales_channel_id,
            language,
            &landing,
            "frontend.landing.page",
            &format!("/landingPage/{landing}"),
            &format!("{url}/"),
        )?;
    }
    tx.execute(
        "UPDATE category SET internal_link = ?1 WHERE id = ?2",
        params![landing, demo.landing_link_category_id],
    )?;
    Ok(())
}

/// The footer's pages: "About us" (text), "Contact" (the contact form) and "Newsletter"
/// (the sign-up form), each in both languages.
fn service_pages(tx: &Transaction, demo: &Demo) -> rusqlite::Result<()> {
    let form = |kind: &str, title: &str| json!({ "type": { "source": "static", "value": kind }, "title": { "source": "static", "value": title } });
    /// Category, name (en, de), text (en, de), form element (en, de).
    type ServicePage<'a> = (
        &'a str,
        (&'a str, &'a str),
        (String, String),
        Option<(Value, Value)>,
    );
    let pages: [ServicePage; 3] = [
        (
            &demo.service_pages.about,
            ("About us", "Über uns"),
            (
                "<p>Salesroom is a small shop with a big idea: shopping together, live. Our guides present \
                 clothing, shoes, home and kitchen goods, and you ask, like and buy while they show.</p>"
                    .into(),
                "<p>Salesroom ist ein kleiner Shop mit einer großen Idee: gemeinsam live einkaufen. Unsere \
                 Beraterinnen und Berater zeigen Kleidung, Schuhe, Wohn- und Küchenartikel, und Sie fragen, liken und kaufen, \
                 während sie präsentieren.</p>"
                    .into(),
            ),
            None,
        ),
        (
            &demo.service_pages.contact,
            ("Contact", "Kontakt"),
            (
                "<p>Questions about a product or an order? Write to us; we answer within one working day.</p>".into(),
                "<p>Fragen zu einem Produkt oder einer Bestellung? Schreiben Sie uns; wir antworten innerhalb \
                 eines Werktags.</p>"
                    .into(),
            ),
            Some((form("contact", "Contact form"), form("contact", "Kontaktformular"))),
        ),
        (
            &demo.service_pages.newsletter,
            ("Newsletter", "Newsletter"),
            (
                "<p>New collections and live presentations, once a month in your inbox.</p>".into(),
                "<p>Neue Kollektionen und Live-Präsentationen, einmal im Monat in Ihrem Postfach.</p>".into(),
            ),
            Some((form("newsletter", "Newsletter sign-up"), form("newsletter", "Newsletter-Anmeldung"))),
        ),
    ];
    for (category, (name_en, name_de), (html_en, html_de), form) in pages {
        let id = page(tx, demo, "page", name_en, name_de)?;
        let body = section(tx, &id, 0, "default", "boxed", None)?;
        block(
            tx,
            demo,
            At {
                section: &body,
                position: 0,
            },
            "text",
            "main",
            None,
            &[("text", "content", text(&html_en), text(&html_de))],
        )?;
        if let Some((en, de)) = form {
            block(
                tx,
                demo,
                At {
                    section: &body,
                    position: 1,
                },
                "form",
                "main",
                None,
                &[("form", "content", en, de)],
            )?;
        }
        tx.execute(
            "UPDATE category SET cms_page_id = ?1 WHERE id = ?2",
            params![id, category],
        )?;
    }
    Ok(())
}
