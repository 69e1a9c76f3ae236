//! SEO URLs: the readable paths of products, categories and landing pages per
//! language, as the entities that have them load them. Below `catalog`, `cms` and
//! `navigation`; `navigation` serves `POST /store-api/seo-url` on top.

use std::collections::HashMap;

use rusqlite::Connection;
use serde_json::{json, Value};

use crate::storage::json_ids;
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
