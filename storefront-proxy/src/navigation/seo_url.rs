//! SEO URLs: readable paths of products, categories and landing pages per language,
//! and `POST /store-api/seo-url`.

use std::collections::HashMap;

use axum::extract::State;
use axum::Json;
use rusqlite::Connection;
use serde_json::{json, Value};

use crate::app::App;
use crate::catalog::criteria::{self, Expr, Field, Kind, Sql};
use crate::context::ShopContext;
use crate::error::ApiResult;
use crate::storage::json_ids;
use crate::store_api::{search_result, RequestParams};

const COLUMNS: &str =
    "id, sales_channel_id, language_id, foreign_key, route_name, path_info, seo_path_info, is_canonical, is_modified, is_deleted, created_at";

fn from_row(r: &rusqlite::Row, base_url: &str) -> rusqlite::Result<Value> {
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
    let rows = statement
        .query_map(rusqlite::params![json_ids(foreign_keys), ctx.language_id(), ctx.sales_channel.id, route_name], |r| {
            from_row(r, &ctx.base_url)
        })?;
    for row in rows {
        let row = row?;
        let key = row["foreignKey"].as_str().unwrap_or_default().to_owned();
        found.entry(key).or_default().push(row);
    }
    Ok(found)
}

fn seo_field(name: &str) -> Option<Field> {
    let column = |expr, kind| Some(Field { expr: Expr::Column(expr), kind, translated: false });
    match name {
        "id" => column("id", Kind::Id),
        "foreignKey" => column("foreign_key", Kind::Id),
        "routeName" => column("route_name", Kind::Text),
        "pathInfo" => column("path_info", Kind::Text),
        "seoPathInfo" => column("seo_path_info", Kind::Text),
        "isCanonical" => column("is_canonical", Kind::Bool),
        "languageId" => column("language_id", Kind::Id),
        _ => None,
    }
}

/// `POST /store-api/seo-url`: SEO URLs of the sales channel and the request's
/// language, by criteria (e.g. `seoPathInfo` equals a path, `foreignKey` equals an id).
pub async fn search(ctx: ShopContext, State(app): State<App>, RequestParams(params): RequestParams) -> ApiResult<Json<Value>> {
    let mut criteria = criteria::parse(&params, "seo_url", &seo_field)?;
    let limit = criteria.limit.get_or_insert(criteria::MAX_LIMIT).to_owned();
    let page = criteria.page;
    let includes = std::mem::take(&mut criteria.includes);
    let (elements, total) = app
        .db
        .read(move |conn| {
            let mut from = Sql::default();
            from.push("FROM seo_url WHERE sales_channel_id = ").bind(ctx.sales_channel.id.clone());
            from.push(" AND language_id = ").bind(ctx.language_id().to_owned()).push(" AND is_deleted = 0");
            if let Some(ids) = &criteria.ids {
                from.push(" AND id IN (SELECT value FROM json_each(").bind(json_ids(ids)).push("))");
            }
            if !criteria.condition.text.is_empty() {
                from.push(" AND (");
                from.append(&criteria.condition);
                from.push(")");
            }
            let mut query = Sql::default();
            query.push(&format!("SELECT {COLUMNS} "));
            query.append(&from);
            query.push(" ORDER BY ");
            if !criteria.order.text.is_empty() {
                query.append(&criteria.order);
                query.push(", ");
            }
            query.push("seo_path_info LIMIT ").bind(limit).push(" OFFSET ").bind(criteria.offset());
            let elements = query.query_map(conn, |r| from_row(r, &ctx.base_url))?;
            let mut count = Sql::default();
            count.push("SELECT COUNT(*) ");
            count.append(&from);
            let total = count.query_map(conn, |r| r.get::<_, i64>(0))?.first().copied().unwrap_or(0) as usize;
            Ok((elements, total))
        })
        .await?;
    let mut body = search_result("seo_url", elements, total, page, Some(limit));
    criteria::apply_includes(&mut body, &includes);
    Ok(Json(body))
}
