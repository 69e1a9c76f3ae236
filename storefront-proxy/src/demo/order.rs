//! Demo data of the order domain: one product sold as a download (an e-book-style
//! PDF guide) and a country that can be billed to but not shipped to.

use rusqlite::{params, Transaction};

use crate::order::document::Layout;
use crate::storage::new_id;

/// The product number of the download product.
pub fn digital_product_number(tx: &Transaction) -> rusqlite::Result<String> {
    // The last simple product of the demo catalogue (not the generated bulk one) in
    // stock: no variants, not on clearance.
    tx.query_row(
        "SELECT product_number FROM product WHERE product_number LIKE 'SR%' AND parent_id IS NULL AND child_count = 0 AND is_closeout = 0 AND stock >= 20
         ORDER BY product_number DESC LIMIT 1",
        [],
        |r| r.get(0),
    )
}

/// Makes the product a download with its file, and adds the country unless it exists.
pub fn seed(tx: &Transaction) -> anyhow::Result<()> {
    let number = digital_product_number(tx)?;
    let product_id: String = tx.query_row(
        "SELECT id FROM product WHERE product_number = ?1",
        [&number],
        |r| r.get(0),
    )?;
    tx.execute(
        "UPDATE product SET type = 'digital' WHERE id = ?1",
        [&product_id],
    )?;
    let mut guide = Layout::default();
    guide
        .text(56.0, "Salesroom care guide / Pflegeanleitung", 18.0, true)
        .gap(12.0);
    for line in [
        "Thank you for your purchase. This guide is yours to keep.",
        "Wash at 30 °C, dry flat, iron on low heat.",
        "",
        "Vielen Dank für Ihren Einkauf. Diese Anleitung gehört Ihnen.",
        "Bei 30 °C waschen, liegend trocknen, auf niedriger Stufe bügeln.",
    ] {
        guide.text(56.0, line, 11.0, false);
    }
    tx.execute(
        "INSERT INTO product_download (id, product_id, position, file_name, file_extension, mime_type, content) VALUES (?1, ?2, 0, 'care-guide', 'pdf', 'application/pdf', ?3)",
        params![new_id(), product_id, guide.render("Salesroom care guide")],
    )?;

    let country = new_id();
    let added = tx.execute(
        "INSERT OR IGNORE INTO country (id, iso, iso3, position, is_eu, postal_code_required, shipping_available) VALUES (?1, 'LI', 'LIE', 8, 0, 1, 0)",
        [&country],
    )?;
    if added == 1 {
        // The same name in English and German.
        tx.execute(
            "INSERT INTO country_translation (country_id, language_id, name) SELECT ?1, id, 'Liechtenstein' FROM language",
            [&country],
        )?;
    }
    Ok(())
}
