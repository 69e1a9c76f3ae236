//! The demo shop of CONTRACT.md, written on first start (an empty database).

use argon2::password_hash::{rand_core::OsRng, PasswordHasher, SaltString};
use argon2::Argon2;
use rusqlite::{params, Connection};

use crate::storage::{new_id, now_rfc3339};

pub const ACCESS_KEY: &str = "SWSCSALESROOMDEMO000000000";
pub const ADMIN_USERNAME: &str = "admin";
pub const ADMIN_PASSWORD: &str = "shopware";

pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| anyhow::anyhow!("hashing a password: {e}"))?
        .to_string())
}

/// Seeds the demo data unless a sales channel exists already. One transaction: a crash
/// half-way leaves an empty database that is seeded again on the next start.
pub fn seed_if_empty(conn: &mut Connection) -> anyhow::Result<()> {
    let seeded: bool = conn.query_row("SELECT EXISTS(SELECT 1 FROM sales_channel)", [], |r| r.get(0))?;
    if seeded {
        return Ok(());
    }
    let password_hash = hash_password(ADMIN_PASSWORD)?;
    let tx = conn.transaction()?;
    let english = new_id();
    tx.execute("INSERT INTO language (id, code, name) VALUES (?1, 'en-GB', 'English')", [&english])?;
    tx.execute("INSERT INTO language (id, code, name) VALUES (?1, 'de-DE', 'Deutsch')", [new_id()])?;
    let sales_channel = new_id();
    tx.execute(
        "INSERT INTO sales_channel (id, name, access_key, language_id) VALUES (?1, 'Salesroom Demo', ?2, ?3)",
        params![sales_channel, ACCESS_KEY, english],
    )?;
    tx.execute(
        "INSERT INTO admin_user (id, username, password_hash, first_name, last_name) VALUES (?1, ?2, ?3, 'Ada', 'Admin')",
        params![new_id(), ADMIN_USERNAME, password_hash],
    )?;

    let presentation = new_id();
    tx.execute("INSERT INTO presentation (id, name) VALUES (?1, 'Autumn collection')", [&presentation])?;
    // Pages of the presentation, each a CMS page whose sections are slides.
    let pages: [(&str, &str, bool, &[&str]); 4] = [
        ("presentation_landingpage", "Welcome", false, &["Welcome to the autumn collection", "Our bestsellers"]),
        ("presentation_product_detail", "Product spotlight", false, &["Featured product"]),
        ("presentation_product_list", "Instant listing", true, &["Picked for you"]),
        ("presentation_landingpage", "Questions and thanks", false, &["Your questions", "Thank you"]),
    ];
    for (position, (page_type, name, instant, sections)) in pages.iter().enumerate() {
        let cms_page = new_id();
        tx.execute("INSERT INTO cms_page (id, type, name) VALUES (?1, ?2, ?3)", params![cms_page, page_type, name])?;
        for (section_position, section_name) in sections.iter().enumerate() {
            tx.execute(
                "INSERT INTO cms_section (id, cms_page_id, position, name) VALUES (?1, ?2, ?3, ?4)",
                params![new_id(), cms_page, section_position as i64, section_name],
            )?;
        }
        tx.execute(
            "INSERT INTO presentation_page (id, presentation_id, cms_page_id, position, title, is_instant_listing)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![new_id(), presentation, cms_page, position as i64, name, *instant],
        )?;
    }
    for (path, name, restriction) in [
        ("demo", "Autumn collection live", "open"),
        ("demo-customers", "Autumn collection for customers", "customer"),
    ] {
        tx.execute(
            "INSERT INTO appointment (id, presentation_id, sales_channel_id, presentation_path, name, attendee_restriction_type, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![new_id(), presentation, sales_channel, path, name, restriction, now_rfc3339()],
        )?;
    }
    tx.commit()?;
    tracing::info!("seeded the demo shop");
    Ok(())
}
