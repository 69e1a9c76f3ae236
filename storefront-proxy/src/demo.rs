//! The demo shop of CONTRACT.md, written on first start (an empty database): the
//! sales channel, admin user and appointments here, the catalogue (`catalog`), its
//! CMS pages (`cms`), the demo customer (`account`) and, for benchmarks, a large generated catalogue (`bulk`).

pub mod account;
pub mod bulk;
pub mod catalog;
pub mod cms;
pub mod cross_selling;
pub mod dsr;
pub mod order;

use rusqlite::{params, Connection};

use crate::account::password::hash_password;
use crate::storage::{new_id, now_rfc3339};

pub const ACCESS_KEY: &str = "SWSCSALESROOMDEMO000000000";
pub const ADMIN_USERNAME: &str = "admin";
pub const ADMIN_PASSWORD: &str = "shopware";

/// What to seed besides the demo shop.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Extra generated products for benchmarks (`DEMO_PRODUCTS`, e.g. 100000).
    pub extra_products: usize,
}

impl Options {
    /// Reads `DEMO_PRODUCTS` from the environment.
    pub fn from_env() -> anyhow::Result<Options> {
        let extra_products = match std::env::var("DEMO_PRODUCTS") {
            Ok(value) if !value.trim().is_empty() => {
                value.trim().parse().map_err(|_| anyhow::anyhow!("DEMO_PRODUCTS must be a number of products, not {value:?}"))?
            }
            _ => 0,
        };
        Ok(Options { extra_products })
    }
}

/// Seeds the demo data that is missing: the foundation (sales channel, admin,
/// appointments) unless a sales channel exists, the catalogue unless a category
/// exists (so a database of an earlier version gets it too). One transaction: a crash
/// half-way leaves the database as it was, and seeding runs again on the next start.
pub fn seed_if_empty(conn: &mut Connection, options: Options) -> anyhow::Result<()> {
    let seeded: bool = conn.query_row("SELECT EXISTS(SELECT 1 FROM sales_channel)", [], |r| r.get(0))?;
    let catalogue: bool = conn.query_row("SELECT EXISTS(SELECT 1 FROM category)", [], |r| r.get(0))?;
    if seeded && catalogue {
        // A shop of a version before orders gets the order demo data on its own.
        let orders_demo: bool = conn.query_row("SELECT EXISTS(SELECT 1 FROM product_download)", [], |r| r.get(0))?;
        if !orders_demo {
            let tx = conn.transaction()?;
            order::seed(&tx)?;
            tx.commit()?;
        }
        let tx = conn.transaction()?;
        dsr::seed_missing(&tx)?;
        cross_selling::seed_missing(&tx)?;
        tx.commit()?;
        return Ok(());
    }
    let tx = conn.transaction()?;
    if !seeded {
        seed_foundation(&tx)?;
    }
    if !catalogue {
        let demo = catalog::seed(&tx)?;
        cms::seed(&tx, &demo)?;
        account::seed(&tx, &demo)?;
        account::seed_methods(&tx, &demo)?;
        order::seed(&tx)?;
        if options.extra_products > 0 {
            bulk::seed(&tx, &demo, options.extra_products)?;
        }
    }
    dsr::seed_missing(&tx)?;
    cross_selling::seed_missing(&tx)?;
    tx.commit()?;
    tracing::info!(extra_products = options.extra_products, "seeded the demo shop");
    Ok(())
}

fn seed_foundation(tx: &rusqlite::Transaction) -> anyhow::Result<()> {
    let password_hash = hash_password(ADMIN_PASSWORD)?;
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
    for (path, name, restriction) in
        [("demo", "Autumn collection live", "open"), ("demo-customers", "Autumn collection for customers", "customer")]
    {
        tx.execute(
            "INSERT INTO appointment (id, presentation_id, sales_channel_id, presentation_path, name, attendee_restriction_type, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![new_id(), presentation, sales_channel, path, name, restriction, now_rfc3339()],
        )?;
    }
    Ok(())
}
