//! The live presentation's slide content and the shop pages, added where missing (so
//! a database seeded by an earlier version gets them too): text and image slides, a
//! product slider, a product detail slide, the picked products of the listing slide,
//! the guide's notes of the slides, and the terms, privacy and imprint pages, in
//! English and German.

use rusqlite::{params, OptionalExtension, Transaction};
use serde_json::{json, Value};

use crate::cms::page::NOTES_BLOCK_TYPE;
use crate::storage::{json_ids, new_id, now_rfc3339};

struct Languages {
    en: String,
    de: Option<String>,
}

fn text(html: &str) -> Value {
    json!({ "content": { "source": "static", "value": html }, "verticalAlign": { "source": "static", "value": null } })
}

/// A block with one slot per `(type, slot, English config, German config)`.
fn block(
    tx: &Transaction,
    languages: &Languages,
    section_id: &str,
    position: i64,
    kind: &str,
    slots: &[(&str, &str, Value, Value)],
) -> rusqlite::Result<()> {
    let id = new_id();
    tx.execute(
        "INSERT INTO cms_block (id, cms_section_id, position, type, margin_top, margin_bottom, margin_left, margin_right)
         VALUES (?1, ?2, ?3, ?4, '20px', '20px', '20px', '20px')",
        params![id, section_id, position, kind],
    )?;
    for (slot_type, slot, en, de) in slots {
        let slot_id = new_id();
        tx.execute(
            "INSERT INTO cms_slot (id, cms_block_id, type, slot) VALUES (?1, ?2, ?3, ?4)",
            params![slot_id, id, slot_type, slot],
        )?;
        tx.execute(
            "INSERT INTO cms_slot_translation (cms_slot_id, language_id, config) VALUES (?1, ?2, ?3)",
            params![slot_id, languages.en, en.to_string()],
        )?;
        if let Some(de_id) = &languages.de {
            tx.execute(
                "INSERT INTO cms_slot_translation (cms_slot_id, language_id, config) VALUES (?1, ?2, ?3)",
                params![slot_id, de_id, de.to_string()],
            )?;
        }
    }
    Ok(())
}

fn text_block(
    tx: &Transaction,
    languages: &Languages,
    section_id: &str,
    position: i64,
    en: &str,
    de: &str,
) -> rusqlite::Result<()> {
    block(
        tx,
        languages,
        section_id,
        position,
        "text",
        &[("text", "content", text(en), text(de))],
    )
}

fn top_products(tx: &Transaction, limit: i64) -> rusqlite::Result<Vec<String>> {
    let mut statement =
        tx.prepare("SELECT id FROM product WHERE parent_id IS NULL AND active = 1 ORDER BY sales DESC, product_number LIMIT ?1")?;
    let ids = statement.query_map([limit], |r| r.get(0))?.collect();
    ids
}

/// Seeds what is missing; does nothing before the foundation and catalogue exist.
pub fn seed_missing(tx: &Transaction) -> anyhow::Result<()> {
    let en: Option<String> = tx
        .query_row("SELECT id FROM language WHERE code = 'en-GB'", [], |r| {
            r.get(0)
        })
        .optional()?;
    let Some(en) = en else { return Ok(()) };
    let de = tx
        .query_row("SELECT id FROM language WHERE code = 'de-DE'", [], |r| {
            r.get(0)
        })
        .optional()?;
    let languages = Languages { en, de };
    let products = top_products(tx, 8)?;
    if products.is_empty() {
        return Ok(());
    }
    seed_slides(tx, &languages, &products)?;
    seed_notes(tx, &languages)?;
    tx.execute(
        "UPDATE presentation_page SET created_at = ?1 WHERE created_at IS NULL",
        [crate::storage::now_rfc3339()],
    )?;
    seed_shop_pages(tx, &languages)?;
    seed_appointments(tx, &languages)?;
    Ok(())
}

/// The demo appointments' German names, by path.
const APPOINTMENT_NAMES_DE: [(&str, &str); 2] = [
    ("demo", "Herbstkollektion live"),
    (
        "demo-customers",
        "Herbstkollektion für Kundinnen und Kunden",
    ),
];

/// How long the demo appointments stay open from their start: a year, so the demo can
/// be joined for as long as anyone keeps a data directory.
const DEMO_WINDOW_DAYS: i64 = 365;

/// The demo appointments get their German name and a start and end where missing: they
/// start at the hour of seeding (already begun, so joining is open at once) and end a
/// year later. An appointment the merchant changed keeps what it has.
fn seed_appointments(tx: &Transaction, languages: &Languages) -> anyhow::Result<()> {
    if let Some(de) = &languages.de {
        for (path, name) in APPOINTMENT_NAMES_DE {
            tx.execute(
                "INSERT OR IGNORE INTO appointment_translation (appointment_id, language_id, name)
                 SELECT id, ?2, ?3 FROM appointment WHERE presentation_path = ?1",
                params![path, de, name],
            )?;
        }
    }
    let (start, end) = demo_window(time::OffsetDateTime::now_utc())?;
    for (path, _) in APPOINTMENT_NAMES_DE {
        tx.execute(
            "UPDATE appointment SET accessible_from = ?2, accessible_to = ?3
             WHERE presentation_path = ?1 AND accessible_from IS NULL AND accessible_to IS NULL",
            params![path, start, end],
        )?;
    }
    Ok(())
}

/// The demo window from `now`: the start of its hour (UTC) and a year later, RFC 3339.
fn demo_window(now: time::OffsetDateTime) -> anyhow::Result<(String, String)> {
    use time::format_description::well_known::Rfc3339;
    let start = now
        .to_offset(time::UtcOffset::UTC)
        .replace_minute(0)?
        .replace_second(0)?
        .replace_nanosecond(0)?;
    let end = start + time::Duration::days(DEMO_WINDOW_DAYS);
    Ok((start.format(&Rfc3339)?, end.format(&Rfc3339)?))
}

fn seed_slides(tx: &Transaction, languages: &Languages, products: &[String]) -> anyhow::Result<()> {
    let mut statement = tx.prepare(
        "SELECT pp.id, c.type, s.id, COALESCE(s.name, '') FROM presentation_page pp JOIN cms_page c ON c.id = pp.cms_page_id
         JOIN cms_section s ON s.cms_page_id = c.id
         WHERE pp.appointment_id IS NULL AND NOT EXISTS (SELECT 1 FROM cms_block b WHERE b.cms_section_id = s.id)
         ORDER BY pp.position, s.position",
    )?;
    let empty: Vec<(String, String, String, String)> = statement
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    let media: Option<String> = tx
        .query_row(
            "SELECT id FROM media WHERE mime_type LIKE 'image/%' ORDER BY id LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()?;
    let featured: Option<String> = tx
        .query_row(
            "SELECT id FROM product WHERE parent_id IS NULL AND active = 1 AND child_count > 0 ORDER BY sales DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()?;
    let featured = featured.unwrap_or_else(|| products[0].clone());
    for (page_id, page_type, section_id, name) in empty {
        match (page_type.as_str(), name.as_str()) {
            ("presentation_product_detail", _) => {
                tx.execute(
                    "UPDATE presentation_page SET product_id = ?2 WHERE id = ?1 AND product_id IS NULL",
                    params![page_id, featured],
                )?;
                let none = json!({});
                block(tx, languages, &section_id, 0, "product-heading", &[("product-name", "left", none.clone(), none.clone())])?;
                block(
                    tx,
                    languages,
                    &section_id,
                    1,
                    "gallery-buybox",
                    &[("image-gallery", "left", none.clone(), none.clone()), ("buy-box", "right", none.clone(), none.clone())],
                )?;
                block(
                    tx,
                    languages,
                    &section_id,
                    2,
                    "product-description-reviews",
                    &[("product-description-reviews", "content", none.clone(), none)],
                )?;
            }
            ("presentation_product_list", _) => {
                tx.execute(
                    "UPDATE presentation_page SET picked_product_ids = ?2 WHERE id = ?1 AND picked_product_ids = '[]'",
                    params![page_id, json_ids(products)],
                )?;
                let config = json!({ "boxLayout": { "source": "static", "value": "standard" }, "showSorting": { "source": "static", "value": false } });
                block(tx, languages, &section_id, 0, "product-listing", &[("product-listing", "content", config.clone(), config)])?;
            }
            (_, "Our bestsellers") => {
                let config = json!({
                    "products": { "source": "static", "value": products.iter().take(4).collect::<Vec<_>>() },
                    "title": { "source": "static", "value": "Our bestsellers" },
                    "boxLayout": { "source": "static", "value": "standard" },
                });
                let mut de = config.clone();
                de["title"]["value"] = json!("Unsere Bestseller");
                block(tx, languages, &section_id, 0, "product-slider", &[("product-slider", "productSlider", config, de)])?;
            }
            (_, "Welcome to the autumn collection") => {
                text_block(
                    tx,
                    languages,
                    &section_id,
                    0,
                    "<h1>Welcome to the autumn collection</h1><p>Warm colours, soft fabrics and our favourite pieces of the season, live.</p>",
                    "<h1>Willkommen zur Herbstkollektion</h1><p>Warme Farben, weiche Stoffe und unsere Lieblingsstücke der Saison, live.</p>",
                )?;
                if let Some(media) = &media {
                    let config = json!({
                        "media": { "source": "static", "value": media },
                        "displayMode": { "source": "static", "value": "cover" },
                        "url": { "source": "static", "value": null },
                        "newTab": { "source": "static", "value": false },
                    });
                    block(tx, languages, &section_id, 1, "image", &[("image", "image", config.clone(), config)])?;
                }
            }
            (_, "Thank you") => text_block(
                tx,
                languages,
                &section_id,
                0,
                "<h2>Thank you for joining</h2><p>Your cart and your likes stay with you after the presentation.</p>",
                "<h2>Danke fürs Dabeisein</h2><p>Ihr Warenkorb und Ihre Favoriten bleiben nach der Präsentation erhalten.</p>",
            )?,
            (_, "Your questions") => text_block(
                tx,
                languages,
                &section_id,
                0,
                "<h2>Your questions</h2><p>Ask us anything about the products you have seen.</p>",
                "<h2>Ihre Fragen</h2><p>Fragen Sie uns alles zu den Produkten, die Sie gesehen haben.</p>",
            )?,
            (_, other) => text_block(tx, languages, &section_id, 0, &format!("<h2>{other}</h2>"), &format!("<h2>{other}</h2>"))?,
        }
    }
    Ok(())
}

/// The guide's notes of the demo slides (by slide name), `(English, German)` HTML.
const NOTES: &[(&str, &str, &str)] = &[
    (
        "Welcome to the autumn collection",
        "<p>Welcome everyone and introduce yourself.</p><ul><li>Invite attendees to switch on camera and microphone if they want to talk.</li><li>Mention today's code <strong>SALESROOM10</strong>: 10% off the cart.</li></ul>",
        "<p>Begrüßen Sie alle und stellen Sie sich vor.</p><ul><li>Laden Sie die Teilnehmenden ein, Kamera und Mikrofon einzuschalten, wenn sie sprechen möchten.</li><li>Nennen Sie den heutigen Code <strong>SALESROOM10</strong>: 10 % auf den Warenkorb.</li></ul>",
    ),
    (
        "Our bestsellers",
        "<p>Highlight one or two bestsellers and ask everyone to <em>like</em> what they want to see again.</p>",
        "<p>Heben Sie ein oder zwei Bestseller hervor und bitten Sie alle, zu <em>liken</em>, was sie noch einmal sehen möchten.</p>",
    ),
    (
        "Featured product",
        "<p>Show the colours and sizes. Ask who would like it in their cart; with their permission you can add it for them.</p>",
        "<p>Zeigen Sie Farben und Größen. Fragen Sie, wer es im Warenkorb haben möchte; mit Erlaubnis können Sie es für die Person hinzufügen.</p>",
    ),
    (
        "Picked for you",
        "<p>Build this listing live from the products attendees liked most (widgets: wishlist).</p>",
        "<p>Stellen Sie diese Liste live aus den meistgelikten Produkten zusammen (Widgets: Wunschliste).</p>",
    ),
    (
        "Thank you",
        "<p>Remind everyone that cart and likes stay after the end, then end the presentation.</p>",
        "<p>Erinnern Sie daran, dass Warenkorb und Favoriten nach dem Ende bleiben, und beenden Sie dann die Präsentation.</p>",
    ),
];

/// Adds the notes of the demo slides that have none yet.
fn seed_notes(tx: &Transaction, languages: &Languages) -> anyhow::Result<()> {
    let mut statement = tx.prepare(
        "SELECT s.id FROM presentation_page pp JOIN cms_section s ON s.cms_page_id = pp.cms_page_id
         WHERE pp.appointment_id IS NULL AND s.name = ?1
           AND NOT EXISTS (SELECT 1 FROM cms_block b WHERE b.cms_section_id = s.id AND b.type = ?2)",
    )?;
    for (name, en, de) in NOTES {
        let sections: Vec<String> = statement
            .query_map(params![name, NOTES_BLOCK_TYPE], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        for section_id in sections {
            block(
                tx,
                languages,
                &section_id,
                100,
                NOTES_BLOCK_TYPE,
                &[("notes", "content", text(en), text(de))],
            )?;
        }
    }
    Ok(())
}

/// Links a legal page as Shopware does, in the basic information's settings
/// (`core.basicInformation.privacyPage` …), unless the merchant chose a page there.
fn link_legal_page(tx: &Transaction, layout: &str, page_id: &str) -> rusqlite::Result<()> {
    if let Some(key) = crate::cms::shop_page::config_key(layout) {
        tx.execute(
            "INSERT OR IGNORE INTO system_config (configuration_key, sales_channel_id, configuration_value, updated_at)
             VALUES (?1, '', ?2, ?3)",
            params![key, Value::String(page_id.to_owned()).to_string(), now_rfc3339()],
        )?;
    }
    Ok(())
}

fn seed_shop_pages(tx: &Transaction, languages: &Languages) -> anyhow::Result<()> {
    let pages = [
        (
            "tos",
            ("Terms and conditions", "Allgemeine Geschäftsbedingungen"),
            (
                "<h2>Terms and conditions</h2><p>Orders placed during a live presentation are subject to these terms. Prices include VAT.</p>",
                "<h2>Allgemeine Geschäftsbedingungen</h2><p>Für Bestellungen während einer Live-Präsentation gelten diese Bedingungen. Preise inklusive MwSt.</p>",
            ),
        ),
        (
            "privacy",
            ("Privacy", "Datenschutz"),
            (
                "<h2>Privacy</h2><p>We keep your name for the presentation and your cart and likes for your shopping; video is never recorded.</p>",
                "<h2>Datenschutz</h2><p>Wir speichern Ihren Namen für die Präsentation sowie Warenkorb und Favoriten für Ihren Einkauf; Video wird nie aufgezeichnet.</p>",
            ),
        ),
        (
            "imprint",
            ("Imprint", "Impressum"),
            (
                "<h2>Imprint</h2><p>Salesroom Demo GmbH, Example Street 1, 12345 Example City.</p>",
                "<h2>Impressum</h2><p>Salesroom Demo GmbH, Beispielstraße 1, 12345 Beispielstadt.</p>",
            ),
        ),
    ];
    for (layout, (name_en, name_de), (html_en, html_de)) in pages {
        let existing: Option<String> = tx
            .query_row(
                "SELECT cms_page_id FROM dsr_shop_page WHERE layout_name = ?1",
                [layout],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(page_id) = existing {
            link_legal_page(tx, layout, &page_id)?;
            continue;
        }
        let page_id = new_id();
        tx.execute(
            "INSERT INTO cms_page (id, type, name) VALUES (?1, 'page', ?2)",
            params![page_id, name_en],
        )?;
        tx.execute(
            "INSERT INTO cms_page_translation (cms_page_id, language_id, name) VALUES (?1, ?2, ?3)",
            params![page_id, languages.en, name_en],
        )?;
        if let Some(de) = &languages.de {
            tx.execute(
                "INSERT INTO cms_page_translation (cms_page_id, language_id, name) VALUES (?1, ?2, ?3)",
                params![page_id, de, name_de],
            )?;
        }
        let section_id = new_id();
        tx.execute(
            "INSERT INTO cms_section (id, cms_page_id, position, name) VALUES (?1, ?2, 0, ?3)",
            params![section_id, page_id, name_en],
        )?;
        text_block(tx, languages, &section_id, 0, html_en, html_de)?;
        tx.execute(
            "INSERT INTO dsr_shop_page (layout_name, cms_page_id) VALUES (?1, ?2)",
            params![layout, page_id],
        )?;
        link_legal_page(tx, layout, &page_id)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_demo_window_starts_at_the_hour_and_lasts_a_year() {
        let now = time::macros::datetime!(2026-11-27 02:13:39.5 UTC);
        let (start, end) = super::demo_window(now).unwrap();
        assert_eq!(start, "2026-11-27T02:00:00Z");
        assert_eq!(end, "2027-11-27T02:00:00Z");
    }
}
