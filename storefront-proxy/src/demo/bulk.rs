//! A large generated catalogue for benchmarks (`DEMO_PRODUCTS=100000`): simple
//! products spread over the demo's listing categories, with translations, prices,
//! properties, images (shared with the demo products), SEO URLs and search entries.

use rusqlite::{params, Transaction};

use super::catalog::{days_ago, slug, Demo};
use crate::catalog::price::round;
use crate::storage::new_id;

const ADJECTIVES: &[(&str, &str)] = &[
    ("Classic", "Klassisch"),
    ("Modern", "Modern"),
    ("Compact", "Kompakt"),
    ("Deluxe", "Deluxe"),
    ("Everyday", "Alltags"),
    ("Premium", "Premium"),
    ("Travel", "Reise"),
    ("Studio", "Studio"),
];

pub fn seed(tx: &Transaction, demo: &Demo, count: usize) -> anyhow::Result<()> {
    let mut product = tx.prepare(
        "INSERT INTO product (id, product_number, manufacturer_id, tax_id, stock, available_stock, shipping_free, weight,
            price_net, price_gross, listing_price, sales, rating_average, release_date, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, ?8, ?9, ?9, ?10, ?11, ?12, ?12)",
    )?;
    let mut translation =
        tx.prepare("INSERT INTO product_translation (product_id, language_id, name, description) VALUES (?1, ?2, ?3, ?4)")?;
    let mut media = tx.prepare(
        "INSERT INTO product_media (id, product_id, media_id, position) VALUES (?1, ?2, ?3, 1)",
    )?;
    let mut cover = tx.prepare("UPDATE product SET cover_id = ?1 WHERE id = ?2")?;
    let mut assign =
        tx.prepare("INSERT INTO product_category (product_id, category_id) VALUES (?1, ?2)")?;
    // With the listing copies at once (the insert trigger skips rows that have them).
    let mut tree = tx.prepare(
        "INSERT INTO product_category_tree (category_id, product_id, main, listing_price, sales, release_date, rating_average,
            shipping_free, manufacturer_id)
         VALUES (?1, ?2, 1, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    let mut property =
        tx.prepare("INSERT INTO product_property (product_id, option_id) VALUES (?1, ?2)")?;
    let mut seo = tx.prepare(
        "INSERT INTO seo_url (id, sales_channel_id, language_id, foreign_key, route_name, path_info, seo_path_info, created_at)
         VALUES (?1, ?2, ?3, ?4, 'frontend.detail.page', ?5, ?6, ?7)",
    )?;
    let mut search =
        tx.prepare("INSERT INTO product_search (product_id, language_id, name, numbers, keywords) VALUES (?1, ?2, ?3, ?4, ?5)")?;
    let mut paths = Vec::new();
    for (category, _, _) in &demo.listing_categories {
        let path: String =
            tx.query_row("SELECT path FROM category WHERE id = ?1", [category], |r| {
                r.get(0)
            })?;
        let ancestors: Vec<String> = path
            .split('|')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .chain(std::iter::once(category.clone()))
            .collect();
        paths.push(ancestors);
    }
    let created = days_ago(30);
    for index in 0..count {
        let id = new_id();
        let number = format!("BN{:07}", index + 1);
        let category = index % demo.listing_categories.len();
        let (category_id, noun_en, noun_de) = &demo.listing_categories[category];
        let (adjective_en, adjective_de) =
            ADJECTIVES[(index / demo.listing_categories.len()) % ADJECTIVES.len()];
        let name_en = format!("{adjective_en} {noun_en} item {}", index + 1);
        let name_de = format!("{adjective_de} {noun_de} Artikel {}", index + 1);
        let gross = 5.0 + ((index * 7919) % 50000) as f64 / 100.0;
        let manufacturer = &demo.manufacturers[index % demo.manufacturers.len()];
        let shipping_free = index % 6 == 0;
        let sales = ((index * 97) % 1000) as i64;
        let rating = (index % 5 != 0).then_some(1.0 + (index % 5) as f64);
        let release = days_ago((index % 365) as i64);
        product.execute(params![
            id,
            number,
            manufacturer,
            demo.tax_standard,
            ((index * 31) % 200) as i64,
            shipping_free,
            round(0.1 + (index % 20) as f64 * 0.2),
            round(gross / 1.19),
            gross,
            sales,
            rating,
            release,
        ])?;
        translation.execute(params![
            id,
            demo.en,
            name_en,
            format!("<p>{name_en}: a generated benchmark product.</p>")
        ])?;
        translation.execute(params![
            id,
            demo.de,
            name_de,
            format!("<p>{name_de}: ein erzeugtes Benchmark-Produkt.</p>")
        ])?;
        let product_media = new_id();
        media.execute(params![
            product_media,
            id,
            demo.product_media[index % demo.product_media.len()]
        ])?;
        cover.execute(params![product_media, id])?;
        assign.execute(params![id, category_id])?;
        for ancestor in &paths[category] {
            tree.execute(params![
                ancestor,
                id,
                gross,
                sales,
                release,
                rating,
                shipping_free,
                manufacturer
            ])?;
        }
        property.execute(params![id, demo.materials[index % demo.materials.len()]])?;
        property.execute(params![id, demo.colors[(index / 3) % demo.colors.len()]])?;
        for (language, name, noun) in [(&demo.en, &name_en, noun_en), (&demo.de, &name_de, noun_de)]
        {
            seo.execute(params![
                new_id(),
                demo.sales_channel_id,
                language,
                id,
                format!("/detail/{id}"),
                format!("{}/{number}", slug(name)),
                created
            ])?;
            search.execute(params![id, language, name, number, noun])?;
        }
    }
    Ok(())
}
