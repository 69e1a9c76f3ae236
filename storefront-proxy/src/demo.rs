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

use rusqlite::{params, Connection, OptionalExtension};

use crate::account::password::hash_password;
use crate::storage::{new_id, now_rfc3339};

pub const ACCESS_KEY: &str = "SWSCSALESROOMDEMO000000000";
pub const ADMIN_USERNAME: &str = "admin";
pub const ADMIN_PASSWORD: &str = "shopware";

/// What to seed on first start.
#[derive(Clone)]
pub struct Options {
    /// Extra generated products for benchmarks (`DEMO_PRODUCTS`, e.g. 100000).
    pub extra_products: usize,
    /// The demo shop (`DEMO=1`) or an empty one with one admin user (`DEMO=0`).
    pub demo: bool,
    /// The first admin's password (`ADMIN_PASSWORD`).
    pub admin_password: Option<String>,
    /// Where an empty shop's generated admin password is written (0600), never to
    /// stdout or the log: `DATA_DIR/admin-password`.
    pub admin_password_file: Option<std::path::PathBuf>,
}

/// The file in `DATA_DIR` an empty shop's generated admin password goes to.
pub const ADMIN_PASSWORD_FILE: &str = "admin-password";

impl Default for Options {
    /// The demo shop, without extra products.
    fn default() -> Options {
        Options {
            extra_products: 0,
            demo: true,
            admin_password: None,
            admin_password_file: None,
        }
    }
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("extra_products", &self.extra_products)
            .field("demo", &self.demo)
            .finish_non_exhaustive()
    }
}

/// The sales channel's name in the demo shop; an empty shop's is [`EMPTY_SHOP_NAME`].
pub const DEMO_SHOP_NAME: &str = "Salesroom Demo";
pub const EMPTY_SHOP_NAME: &str = "Salesroom";

impl Options {
    /// Reads `DEMO_PRODUCTS` from the environment.
    pub fn from_env() -> anyhow::Result<Options> {
        let extra_products = match std::env::var("DEMO_PRODUCTS") {
            Ok(value) if !value.trim().is_empty() => value.trim().parse().map_err(|_| {
                anyhow::anyhow!("DEMO_PRODUCTS must be a number of products, not {value:?}")
            })?,
            _ => 0,
        };
        Ok(Options {
            extra_products,
            demo: true,
            admin_password: None,
            admin_password_file: None,
        })
    }
}

/// Seeds the demo data that is missing: the foundation (sales channel, admin,
/// appointments) unless a sales channel exists, the catalogue unless a category
/// exists (so a database of an earlier version gets it too). One transaction: a crash
/// half-way leaves the database as it was, and seeding runs again on the next start.
pub fn seed_if_empty(conn: &mut Connection, options: Options) -> anyhow::Result<()> {
    let seeded: bool = conn.query_row("SELECT EXISTS(SELECT 1 FROM sales_channel)", [], |r| {
        r.get(0)
    })?;
    // A merchant's shop (started empty) never gets demo data, whatever `DEMO` says later.
    let merchant: bool = conn.query_row(
        "SELECT EXISTS(SELECT 1 FROM sales_channel WHERE name = ?1)",
        [EMPTY_SHOP_NAME],
        |r| r.get(0),
    )?;
    if merchant {
        // A merchant's shop of an earlier version had no customer group: no one could register or order as a guest.
        let tx = conn.transaction()?;
        let shop: Option<(String, String)> = tx
            .query_row(
                "SELECT s.id, l.id FROM sales_channel s JOIN language l ON l.code = 'en-GB' WHERE s.name = ?1 AND s.customer_group_id IS NULL",
                [EMPTY_SHOP_NAME],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let german: Option<String> = tx
            .query_row("SELECT id FROM language WHERE code = 'de-DE'", [], |r| {
                r.get(0)
            })
            .optional()?;
        if let (Some((sales_channel, english)), Some(german)) = (shop, german) {
            account::ensure_customer_group(&tx, &english, &german, &sales_channel)?;
        }
        tx.commit()?;
        return Ok(());
    }
    if !options.demo && !seeded {
        let tx = conn.transaction()?;
        seed_empty_shop(
            &tx,
            options.admin_password.as_deref(),
            options.admin_password_file.as_deref(),
        )?;
        tx.commit()?;
        return Ok(());
    }
    let catalogue: bool =
        conn.query_row("SELECT EXISTS(SELECT 1 FROM category)", [], |r| r.get(0))?;
    if seeded && catalogue {
        // A shop of a version before orders gets the order demo data on its own.
        let orders_demo: bool =
            conn.query_row("SELECT EXISTS(SELECT 1 FROM product_download)", [], |r| {
                r.get(0)
            })?;
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
        seed_foundation(&tx, options.admin_password.as_deref())?;
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
    tracing::info!(
        extra_products = options.extra_products,
        "seeded the demo shop"
    );
    Ok(())
}

/// English and German, and the sales channel (English by default) with the access
/// key of CONTRACT.md. Answers the sales channel's id.
fn seed_sales_channel(tx: &rusqlite::Transaction, name: &str) -> anyhow::Result<String> {
    let english = new_id();
    tx.execute(
        "INSERT INTO language (id, code, name) VALUES (?1, 'en-GB', 'English')",
        [&english],
    )?;
    tx.execute(
        "INSERT INTO language (id, code, name) VALUES (?1, 'de-DE', 'Deutsch')",
        [new_id()],
    )?;
    let sales_channel = new_id();
    tx.execute(
        "INSERT INTO sales_channel (id, name, access_key, language_id) VALUES (?1, ?2, ?3, ?4)",
        params![sales_channel, name, ACCESS_KEY, english],
    )?;
    Ok(sales_channel)
}

/// An empty shop (`DEMO=0`): the sales channel with its languages, currency,
/// countries, taxes and methods, a root category for the navigation, and one admin
/// user whose password is `ADMIN_PASSWORD` or generated and written to `password_file`.
fn seed_empty_shop(
    tx: &rusqlite::Transaction,
    admin_password: Option<&str>,
    password_file: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    let sales_channel = seed_sales_channel(tx, EMPTY_SHOP_NAME)?;
    let base = catalog::seed_base(tx)?;
    let root = new_id();
    tx.execute(
        "INSERT INTO category (id, parent_id, position, level, path, type, created_at) VALUES (?1, NULL, 0, 1, '', 'page', ?2)",
        params![root, now_rfc3339()],
    )?;
    for (language, name) in [(&base.en, "Home"), (&base.de, "Startseite")] {
        tx.execute(
            "INSERT INTO category_translation (category_id, language_id, name) VALUES (?1, ?2, ?3)",
            params![root, language, name],
        )?;
    }
    tx.execute(
        "UPDATE sales_channel SET navigation_category_id = ?1, currency_id = ?2, country_id = ?3 WHERE id = ?4",
        params![root, base.currency, base.germany, sales_channel],
    )?;
    let methods = catalog::Demo {
        en: base.en.clone(),
        de: base.de.clone(),
        sales_channel_id: sales_channel,
        ..Default::default()
    };
    account::seed_methods(tx, &methods)?;
    account::ensure_customer_group(tx, &base.en, &base.de, &methods.sales_channel_id)?;
    let (password, generated) = match admin_password.filter(|p| !p.is_empty()) {
        Some(password) => (password.to_owned(), false),
        None => (new_id()[..20].to_owned(), true),
    };
    tx.execute(
        "INSERT INTO admin_user (id, username, password_hash, first_name, last_name, role) VALUES (?1, ?2, ?3, 'Shop', 'Admin', 'admin')",
        params![new_id(), ADMIN_USERNAME, hash_password(&password)?],
    )?;
    match (generated, password_file) {
        (true, Some(file)) => {
            write_private_file(file, &password)?;
            // The path, never the password: stdout ends up in logs.
            println!(
                "storefront-proxy: empty shop created; admin user \"{ADMIN_USERNAME}\", its generated password is in {} (0600; set ADMIN_PASSWORD to choose it)",
                file.display()
            );
        }
        (true, None) => {
            println!("storefront-proxy: empty shop created; admin user \"{ADMIN_USERNAME}\" with a generated password kept nowhere")
        }
        (false, _) => println!("storefront-proxy: empty shop created; admin user \"{ADMIN_USERNAME}\" with the password of ADMIN_PASSWORD"),
    }
    tracing::info!("seeded an empty shop");
    Ok(())
}

/// Writes `contents` to a new file readable by its owner only (0600), replacing an older one.
fn write_private_file(path: &std::path::Path, contents: &str) -> anyhow::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let _ = std::fs::remove_file(path);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(contents.as_bytes())?;
    file.write_all(b"\n")?;
    Ok(())
}

/// A demo presentation page: CMS page type, (English, German) title, instant listing?,
/// its sections' (English, German) names.
type DemoPage = (
    &'static str,
    (&'static str, &'static str),
    bool,
    &'static [(&'static str, &'static str)],
);

fn seed_foundation(tx: &rusqlite::Transaction, admin_password: Option<&str>) -> anyhow::Result<()> {
    let password_hash = hash_password(
        admin_password
            .filter(|p| !p.is_empty())
            .unwrap_or(ADMIN_PASSWORD),
    )?;
    let sales_channel = seed_sales_channel(tx, DEMO_SHOP_NAME)?;
    tx.execute(
        "INSERT INTO admin_user (id, username, password_hash, first_name, last_name) VALUES (?1, ?2, ?3, 'Ada', 'Admin')",
        params![new_id(), ADMIN_USERNAME, password_hash],
    )?;

    let presentation = new_id();
    tx.execute(
        "INSERT INTO presentation (id, name) VALUES (?1, 'Autumn collection')",
        [&presentation],
    )?;
    // Pages of the presentation, each a CMS page whose sections are slides.
    // German names beside the English ones: slide groups, slides and appointments are
    // shown in the viewer's language.
    let german: Option<String> = tx
        .query_row("SELECT id FROM language WHERE code = 'de-DE'", [], |r| {
            r.get(0)
        })
        .optional()?;
    let pages: [DemoPage; 4] = [
        (
            "presentation_landingpage",
            ("Welcome", "Willkommen"),
            false,
            &[
                (
                    "Welcome to the autumn collection",
                    "Willkommen zur Herbstkollektion",
                ),
                ("Our bestsellers", "Unsere Bestseller"),
            ],
        ),
        (
            "presentation_product_detail",
            ("Product spotlight", "Produkt im Rampenlicht"),
            false,
            &[("Featured product", "Ausgewähltes Produkt")],
        ),
        (
            "presentation_product_list",
            ("Instant listing", "Sofort-Listing"),
            true,
            &[("Picked for you", "Für Sie ausgewählt")],
        ),
        (
            "presentation_landingpage",
            ("Questions and thanks", "Fragen und Dank"),
            false,
            &[
                ("Your questions", "Ihre Fragen"),
                ("Thank you", "Vielen Dank"),
            ],
        ),
    ];
    for (position, (page_type, (name, name_de), instant, sections)) in pages.iter().enumerate() {
        let cms_page = new_id();
        tx.execute(
            "INSERT INTO cms_page (id, type, name) VALUES (?1, ?2, ?3)",
            params![cms_page, page_type, name],
        )?;
        for (section_position, (section_name, section_name_de)) in sections.iter().enumerate() {
            let section = new_id();
            tx.execute(
                "INSERT INTO cms_section (id, cms_page_id, position, name) VALUES (?1, ?2, ?3, ?4)",
                params![section, cms_page, section_position as i64, section_name],
            )?;
            if let Some(german) = &german {
                tx.execute(
                    "INSERT INTO cms_section_translation (cms_section_id, language_id, name) VALUES (?1, ?2, ?3)",
                    params![section, german, section_name_de],
                )?;
            }
        }
        let page = new_id();
        tx.execute(
            "INSERT INTO presentation_page (id, presentation_id, cms_page_id, position, title, is_instant_listing)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![page, presentation, cms_page, position as i64, name, *instant],
        )?;
        if let Some(german) = &german {
            tx.execute(
                "INSERT INTO presentation_page_translation (presentation_page_id, language_id, title) VALUES (?1, ?2, ?3)",
                params![page, german, name_de],
            )?;
        }
    }
    // German names and the open window: `dsr::seed_appointments`, which also mends older data directories.
    for (path, name, restriction) in [
        ("demo", "Autumn collection live", "open"),
        (
            "demo-customers",
            "Autumn collection for customers",
            "customer",
        ),
    ] {
        tx.execute(
            "INSERT INTO appointment (id, presentation_id, sales_channel_id, presentation_path, name, attendee_restriction_type, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![new_id(), presentation, sales_channel, path, name, restriction, now_rfc3339()],
        )?;
    }
    Ok(())
}
