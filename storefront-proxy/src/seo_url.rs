//! SEO URLs: the readable paths of products, categories and landing pages per
//! language, as the entities that have them load them. Below `catalog`, `cms` and
//! `navigation`; `navigation` serves `POST /store-api/seo-url` on top. Products and
//! categories written through the Admin API get theirs as the demo's are made
//! ([`write_product`], [`write_category`]).

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};

use crate::storage::{json_ids, new_id, now_rfc3339};
use crate::store_api::ShopContext;

/// The columns [`from_row`] reads, in its order.
pub const COLUMNS: &str =
    "id, sales_channel_id, language_id, foreign_key, route_name, path_info, seo_path_info, is_canonical, is_modified, is_deleted, created_at";

pub fn from_row(r: &rusqlite::Row, base_url: &str) -> rusqlite::Result<Value> {
    let seo_path_info: String = r.get(6)?;
    Ok(json!({
        "id": r.get::<_, String>(0)?,
        "salesChannelId": r.get::<_, String>(1)?,
        "languageId": r.get::<_, String>(2)?,
        "foreignKey": r.get::<_, String>(3)?,
        "routeName": r.get::<_, String>(4)?,
        "pathInfo": r.get::<_, String>(5)?,
        "url": format!("{base_url}/{seo_path_info}"),
        "seoPathInfo": seo_path_info,
        "isCanonical": r.get::<_, bool>(7)?,
        "isModified": r.get::<_, bool>(8)?,
        "isDeleted": r.get::<_, bool>(9)?,
        "createdAt": r.get::<_, String>(10)?,
        "apiAlias": "seo_url",
    }))
}

/// The canonical SEO URLs of `route_name` for the entities `foreign_keys` in the
/// context's sales channel and language.
pub fn load_for(
    conn: &Connection,
    ctx: &ShopContext,
    route_name: &str,
    foreign_keys: &[String],
) -> rusqlite::Result<HashMap<String, Vec<Value>>> {
    let mut found: HashMap<String, Vec<Value>> = HashMap::new();
    if foreign_keys.is_empty() {
        return Ok(found);
    }
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM seo_url WHERE foreign_key IN (SELECT value FROM json_each(?1))
         AND language_id = ?2 AND sales_channel_id = ?3 AND route_name = ?4 AND is_deleted = 0"
    ))?;
    let rows = statement.query_map(
        rusqlite::params![
            json_ids(foreign_keys),
            ctx.language_id(),
            ctx.sales_channel.id,
            route_name
        ],
        |r| from_row(r, &ctx.base_url),
    )?;
    for row in rows {
        let row = row?;
        let key = row["foreignKey"].as_str().unwrap_or_default().to_owned();
        found.entry(key).or_default().push(row);
    }
    Ok(found)
}

/// A readable URL segment: umlauts transliterated, everything else but letters and
/// digits turned into single dashes.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            'ä' => out.push_str("ae"),
            'ö' => out.push_str("oe"),
            'ü' => out.push_str("ue"),
            'Ä' => out.push_str("Ae"),
            'Ö' => out.push_str("Oe"),
            'Ü' => out.push_str("Ue"),
            'ß' => out.push_str("ss"),
            c if c.is_ascii_alphanumeric() => out.push(c),
            _ => {
                if !out.ends_with('-') && !out.is_empty() {
                    out.push('-')
                }
            }
        }
    }
    out.trim_end_matches('-').to_owned()
}

/// Every sales channel with every language: where an entity needs a path.
fn channels_and_languages(conn: &Connection) -> rusqlite::Result<Vec<(String, String)>> {
    let mut statement =
        conn.prepare("SELECT s.id, l.id FROM sales_channel s CROSS JOIN language l")?;
    let rows = statement.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

/// Sets the canonical path of an entity in one channel and language: written when
/// missing, moved along when its name changed, never over a path the merchant set
/// (`is_modified`). A path another entity holds gets `-2`, `-3`… on its last segment.
fn put(
    conn: &Connection,
    (channel, language): (&str, &str),
    foreign_key: &str,
    route: &str,
    wanted: &str,
) -> rusqlite::Result<()> {
    let existing: Option<(String, String, bool)> = conn
        .query_row(
            "SELECT id, seo_path_info, is_modified FROM seo_url
             WHERE sales_channel_id = ?1 AND language_id = ?2 AND foreign_key = ?3 AND route_name = ?4
               AND is_canonical = 1 AND is_deleted = 0",
            params![channel, language, foreign_key, route],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    if matches!(existing, Some((_, _, true))) {
        return Ok(());
    }
    let taken = |path: &str| -> rusqlite::Result<bool> {
        conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM seo_url WHERE sales_channel_id = ?1 AND language_id = ?2
                 AND seo_path_info = ?3 AND foreign_key != ?4)",
            params![channel, language, path, foreign_key],
            |r| r.get(0),
        )
    };
    let (stem, tail) = match wanted.strip_suffix('/') {
        Some(stem) => (stem, "/"),
        None => (wanted, ""),
    };
    let mut path = wanted.to_owned();
    let mut number = 1;
    while taken(&path)? {
        number += 1;
        path = format!("{stem}-{number}{tail}");
    }
    let path_info = match route {
        "frontend.detail.page" => format!("/detail/{foreign_key}"),
        _ => format!("/navigation/{foreign_key}"),
    };
    match existing {
        Some((_, current, _)) if current == path => {}
        Some((id, _, _)) => {
            conn.execute(
                "UPDATE seo_url SET seo_path_info = ?1 WHERE id = ?2",
                params![path, id],
            )?;
        }
        None => {
            conn.execute(
                "INSERT INTO seo_url (id, sales_channel_id, language_id, foreign_key, route_name, path_info, seo_path_info, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![new_id(), channel, language, foreign_key, route, path_info, path, now_rfc3339()],
            )?;
        }
    }
    Ok(())
}

/// A product's paths as the demo's: `Name/NUMBER` in each language (a variant by its
/// parent's name and its own number).
pub fn write_product(conn: &Connection, id: &str) -> rusqlite::Result<()> {
    let number: Option<String> = conn
        .query_row(
            "SELECT product_number FROM product WHERE id = ?1",
            [id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(number) = number else {
        return Ok(());
    };
    let number = if number
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
    {
        number
    } else {
        slug(&number)
    };
    for (channel, language) in channels_and_languages(conn)? {
        let name: Option<String> = conn.query_row(
            "SELECT COALESCE(
                 (SELECT name FROM product_translation WHERE product_id = p.id AND language_id = ?2 AND name != ''),
                 (SELECT name FROM product_translation WHERE product_id = p.parent_id AND language_id = ?2 AND name != ''),
                 (SELECT name FROM product_translation WHERE product_id = p.id AND name != '' LIMIT 1),
                 (SELECT name FROM product_translation WHERE product_id = p.parent_id AND name != '' LIMIT 1))
             FROM product p WHERE p.id = ?1",
            params![id, language],
            |r| r.get(0),
        )?;
        let Some(name) = name.map(|name| slug(&name)).filter(|name| !name.is_empty()) else {
            continue;
        };
        put(
            conn,
            (&channel, &language),
            id,
            "frontend.detail.page",
            &format!("{name}/{number}"),
        )?;
    }
    Ok(())
}

/// A category's paths as the demo's: the names below the root, `Parent/Child/`, in
/// each language. A root (no parent) has none.
pub fn write_category(conn: &Connection, id: &str) -> rusqlite::Result<()> {
    for (channel, language) in channels_and_languages(conn)? {
        let mut names = Vec::new();
        let mut current = Some(id.to_owned());
        while let Some(category) = current {
            let row: Option<(Option<String>, Option<String>)> = conn
                .query_row(
                    "SELECT c.parent_id, COALESCE(
                         (SELECT name FROM category_translation WHERE category_id = c.id AND language_id = ?2 AND name != ''),
                         (SELECT name FROM category_translation WHERE category_id = c.id AND name != '' LIMIT 1))
                     FROM category c WHERE c.id = ?1",
                    params![category, language],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            let Some((parent, name)) = row else { break };
            if parent.is_none() {
                break;
            }
            names.push(slug(name.as_deref().unwrap_or_default()));
            current = parent;
        }
        if names.is_empty() || names.iter().any(String::is_empty) {
            continue;
        }
        names.reverse();
        put(
            conn,
            (&channel, &language),
            id,
            "frontend.navigation.page",
            &format!("{}/", names.join("/")),
        )?;
    }
    Ok(())
}
