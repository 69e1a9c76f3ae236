//! `POST /store-api/landing-page/{id}`: a landing page with its resolved CMS page.

use axum::extract::{Path, State};
use axum::Json;
use rusqlite::OptionalExtension;
use serde_json::{json, Value};

use super::page;
use crate::catalog::{criteria, invalid_id};
use crate::error::{ApiError, ApiResult};
use crate::seo_url;
use crate::state::App;
use crate::storage::is_id;
use crate::storage::translation;
use crate::store_api::RequestParams;
use crate::store_api::ShopContext;

const FIELDS: &[(&str, &str)] = &[
    ("name", "name"),
    ("url", "url"),
    ("meta_title", "metaTitle"),
    ("meta_description", "metaDescription"),
    ("keywords", "keywords"),
];

fn not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "CONTENT__LANDING_PAGE_NOT_FOUND",
        format!("Landing page \"{id}\" not found."),
    )
}

pub async fn landing_page(
    ctx: ShopContext,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let id = id.to_lowercase();
    if !is_id(&id) {
        return Err(invalid_id(&id, "/landingPageId"));
    }
    let mut includes_only = serde_json::Map::new();
    if let Some(includes) = params.get("includes") {
        includes_only.insert("includes".into(), includes.clone());
    }
    let includes = criteria::parse(&includes_only, "landing_page", &|_| None)?.includes;
    let landing_id = id.clone();
    let found = app
        .db
        .read(move |conn| {
            let row: Option<(Option<String>, bool, String)> = conn
                .query_row("SELECT cms_page_id, active, created_at FROM landing_page WHERE id = ?1 AND active = 1", [&landing_id], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .optional()?;
            let Some((cms_page_id, active, created_at)) = row else { return Ok(Ok(None)) };
            let texts = translation::load(
                conn,
                "landing_page_translation",
                "landing_page_id",
                FIELDS,
                std::slice::from_ref(&landing_id),
                &ctx.languages,
            )?;
            let translated = translation::get(&texts, &landing_id, FIELDS);
            let cms_page = match &cms_page_id {
                Some(page_id) => match page::load(conn, &ctx, page_id, &page::Resolve { category_id: None, listing: None }) {
                    Ok(page) => page.unwrap_or(Value::Null),
                    Err(error) => return Ok(Err(error)),
                },
                None => Value::Null,
            };
            let mut body = json!({
                "id": landing_id,
                "active": active,
                "name": translated["name"],
                "url": translated["url"],
                "metaTitle": translated["metaTitle"],
                "metaDescription": translated["metaDescription"],
                "keywords": translated["keywords"],
                "cmsPageId": cms_page_id,
                "cmsPage": cms_page,
                "createdAt": created_at,
                "translated": translated,
                "apiAlias": "landing_page",
            });
            if ctx.include_seo_urls {
                let urls = seo_url::load_for(conn, &ctx, "frontend.landing.page", std::slice::from_ref(&landing_id))?;
                body["seoUrls"] = json!(urls.get(&landing_id).cloned().unwrap_or_default());
            }
            Ok(Ok(Some(body)))
        })
        .await??;
    let mut body = found.ok_or_else(|| not_found(&id))?;
    criteria::apply_includes(&mut body, &includes);
    Ok(Json(body))
}
