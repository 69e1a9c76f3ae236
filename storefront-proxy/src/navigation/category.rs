//! Categories (`category`): loading with breadcrumbs, media and SEO URLs, and
//! `POST /store-api/category/{id}` with its resolved CMS page.

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::Json;
use rusqlite::{Connection, OptionalExtension};
use serde_json::{json, Value};

use crate::catalog::listing::{self, category_not_found};
use crate::catalog::{criteria, invalid_id};
use crate::cms;
use crate::error::ApiResult;
use crate::media;
use crate::seo_url;
use crate::state::App;
use crate::storage::translation::{self, json_of};
use crate::storage::{is_id, json_ids};
use crate::store_api::RequestParams;
use crate::store_api::ShopContext;
use crate::store_api::LIVE_VERSION_ID;

const FIELDS: &[(&str, &str)] = &[
    ("name", "name"),
    ("description", "description"),
    ("external_link", "externalLink"),
    ("meta_title", "metaTitle"),
    ("meta_description", "metaDescription"),
    ("keywords", "keywords"),
];
const COLUMNS: &[(&str, &str)] = &[
    ("id", "id"),
    ("parent_id", "parentId"),
    ("position", "position"),
    ("level", "level"),
    ("path", "path"),
    ("type", "type"),
    ("link_type", "linkType"),
    ("internal_link", "internalLink"),
    ("link_new_tab", "linkNewTab"),
    ("cms_page_id", "cmsPageId"),
    ("media_id", "mediaId"),
    ("display_nested_products", "displayNestedProducts"),
    ("visible", "visible"),
    ("active", "active"),
    ("created_at", "createdAt"),
];
const BOOLEANS: &[&str] = &["linkNewTab", "displayNestedProducts", "visible", "active"];

/// The sales channel's navigation root for the aliases `home` and `main-navigation`, its
/// footer category for `footer-navigation`.
pub fn resolve_alias(
    conn: &Connection,
    sales_channel_id: &str,
    id: &str,
) -> rusqlite::Result<Option<String>> {
    match id {
        "home" | "main-navigation" => Ok(conn
            .query_row(
                "SELECT navigation_category_id FROM sales_channel WHERE id = ?1",
                [sales_channel_id],
                |r| r.get(0),
            )
            .optional()?
            .flatten()),
        "footer-navigation" => Ok(conn
            .query_row(
                "SELECT footer_category_id FROM sales_channel WHERE id = ?1",
                [sales_channel_id],
                |r| r.get(0),
            )
            .optional()?
            .flatten()),
        // No service navigation is configured.
        "service-navigation" => Ok(None),
        other => Ok(Some(other.to_lowercase())),
    }
}

/// Loads categories by id (in that order; unknown or inactive ones left out), each
/// with `breadcrumb`, `childCount`, `media` and, when asked, `seoUrls`.
pub fn load(conn: &Connection, ctx: &ShopContext, ids: &[String]) -> rusqlite::Result<Vec<Value>> {
    let columns: Vec<&str> = COLUMNS.iter().map(|(c, _)| *c).collect();
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {}, (SELECT COUNT(*) FROM category c WHERE c.parent_id = category.id AND c.active = 1),
                (SELECT COUNT(*) FROM category c WHERE c.parent_id = category.id AND c.active = 1 AND c.visible = 1)
         FROM category WHERE id IN (SELECT value FROM json_each(?1)) AND active = 1",
        columns.join(", ")
    ))?;
    let mut rows: HashMap<String, serde_json::Map<String, Value>> = HashMap::new();
    let mut query = statement.query([json_ids(ids)])?;
    while let Some(r) = query.next()? {
        let mut row = serde_json::Map::new();
        for (index, (_, name)) in COLUMNS.iter().enumerate() {
            let mut value = json_of(r.get_ref(index)?);
            if BOOLEANS.contains(name) {
                value = Value::Bool(value.as_i64() == Some(1));
            }
            row.insert((*name).to_owned(), value);
        }
        row.insert("childCount".into(), json!(r.get::<_, i64>(COLUMNS.len())?));
        row.insert(
            "visibleChildCount".into(),
            json!(r.get::<_, i64>(COLUMNS.len() + 1)?),
        );
        rows.insert(row["id"].as_str().unwrap_or_default().to_owned(), row);
    }
    // Names of every category on the paths, for breadcrumbs.
    let mut named: Vec<String> = Vec::new();
    for row in rows.values() {
        named.extend(
            row["path"]
                .as_str()
                .unwrap_or_default()
                .split('|')
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
        );
        named.push(row["id"].as_str().unwrap_or_default().to_owned());
    }
    named.sort();
    named.dedup();
    let texts = translation::load(
        conn,
        "category_translation",
        "category_id",
        FIELDS,
        &named,
        &ctx.languages,
    )?;
    let media_ids: Vec<String> = rows
        .values()
        .filter_map(|r| r["mediaId"].as_str().map(str::to_owned))
        .collect();
    let media = media::entity::load(conn, &ctx.languages, &ctx.base_url, &media_ids)?;
    let found: Vec<String> = ids
        .iter()
        .filter(|id| rows.contains_key(*id))
        .cloned()
        .collect();
    let mut seo_urls = if ctx.include_seo_urls {
        seo_url::load_for(conn, ctx, "frontend.navigation.page", &found)?
    } else {
        HashMap::new()
    };
    if ctx.include_seo_urls {
        // A link to a landing page carries that page's SEO URLs, so it can link to the readable path.
        let landing_links: Vec<(String, String)> = found
            .iter()
            .filter_map(|id| {
                let row = rows.get(id)?;
                (row.get("linkType").and_then(Value::as_str) == Some("landing_page"))
                    .then(|| {
                        row.get("internalLink")
                            .and_then(Value::as_str)
                            .map(|link| (id.clone(), link.to_owned()))
                    })
                    .flatten()
            })
            .collect();
        let targets: Vec<String> = landing_links
            .iter()
            .map(|(_, target)| target.clone())
            .collect();
        let landing_urls = seo_url::load_for(conn, ctx, "frontend.landing.page", &targets)?;
        for (id, target) in landing_links {
            if let Some(urls) = landing_urls.get(&target) {
                seo_urls.entry(id).or_default().extend(urls.iter().cloned());
            }
        }
    }
    let mut categories = Vec::new();
    for id in &found {
        let Some(mut row) = rows.remove(id) else {
            continue;
        };
        let translated = translation::get(&texts, id, FIELDS);
        for (key, value) in &translated {
            row.insert(key.clone(), value.clone());
        }
        let breadcrumb: Vec<Value> = row["path"]
            .as_str()
            .unwrap_or_default()
            .split('|')
            .filter(|s| !s.is_empty())
            .chain(std::iter::once(id.as_str()))
            .map(|ancestor| translation::get(&texts, ancestor, FIELDS)["name"].clone())
            .collect();
        let mut translated = translated;
        translated.insert("breadcrumb".into(), json!(breadcrumb));
        row.insert("breadcrumb".into(), json!(breadcrumb));
        row.insert("translated".into(), Value::Object(translated));
        let media_id = row["mediaId"].as_str().map(str::to_owned);
        row.insert(
            "media".into(),
            media_id
                .and_then(|m| media.get(&m).cloned())
                .unwrap_or(Value::Null),
        );
        row.insert("versionId".into(), json!(LIVE_VERSION_ID));
        row.insert("productAssignmentType".into(), json!("product"));
        row.insert("children".into(), json!([]));
        if ctx.include_seo_urls {
            row.insert(
                "seoUrls".into(),
                json!(seo_urls.get(id).cloned().unwrap_or_default()),
            );
        }
        // Shopware's path ends with a separator ("|root|parent|"), null for roots.
        if row["path"].as_str().is_some_and(str::is_empty) {
            row.insert("path".into(), Value::Null);
        }
        row.insert("apiAlias".into(), json!("category"));
        categories.push(Value::Object(row));
    }
    Ok(categories)
}

/// `POST /store-api/category/{id}` (also `home`): the category with its CMS page, whose
/// product listing follows the request's listing parameters.
pub async fn category(
    ctx: ShopContext,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    if id != "home" && !is_id(&id.to_lowercase()) {
        return Err(invalid_id(&id, "/navigationId"));
    }
    let request = listing::parse(&params, listing::Kind::Category)?;
    let includes = request_includes(&params)?;
    let body = app
        .db
        .read(move |conn| {
            let Some(category_id) = resolve_alias(conn, &ctx.sales_channel.id, &id)? else {
                return Ok(Err(category_not_found(&id)));
            };
            let Some(mut category) = load(conn, &ctx, std::slice::from_ref(&category_id))?
                .into_iter()
                .next()
            else {
                return Ok(Err(category_not_found(&id)));
            };
            let page_id = category["cmsPageId"].as_str().map(str::to_owned);
            let page = match page_id {
                Some(page_id) if category["type"] == json!("page") => {
                    match cms::page::load(
                        conn,
                        &ctx,
                        &page_id,
                        &cms::page::Resolve {
                            category_id: Some(&category_id),
                            listing: Some(&request),
                        },
                    ) {
                        Ok(page) => page.unwrap_or(Value::Null),
                        Err(error) => return Ok(Err(error)),
                    }
                }
                _ => Value::Null,
            };
            category["cmsPage"] = page;
            Ok(Ok(category))
        })
        .await??;
    let mut body = body;
    criteria::apply_includes(&mut body, &includes);
    Ok(Json(body))
}

fn request_includes(
    params: &serde_json::Map<String, Value>,
) -> Result<HashMap<String, Vec<String>>, crate::error::ApiError> {
    let mut only_includes = serde_json::Map::new();
    if let Some(includes) = params.get("includes") {
        only_includes.insert("includes".into(), includes.clone());
    }
    Ok(criteria::parse(&only_includes, "category", &|_| None)?.includes)
}
