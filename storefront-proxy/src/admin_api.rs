//! Shopware's Admin API over the embedded shop (issue 16): one generic set of routes
//! over a table of entity [`Definition`]s (`entities/`), so a new entity is a
//! definition, not a new handler.
//!
//! - `GET /api/{entity}` (criteria in the query: `limit`, `page`, `ids`,
//!   `total-count-mode`), `POST /api/search/{entity}` and `POST /api/search-ids/{entity}`
//!   (full criteria: filter, sort, page, limit, ids, total-count-mode);
//! - `GET|PATCH|DELETE /api/{entity}/{id}`, `POST /api/{entity}` (204 with a
//!   `Location` header, or `?_response=basic|detail` for 200 with the entity);
//! - `POST /api/_action/sync` (`sync.rs`), `POST /api/_action/media/{id}/upload`
//!   (`upload.rs`).
//! - the orders' state actions and documents (`actions.rs`) and a customer's GDPR export
//!   and anonymisation (`gdpr.rs`).
//!
//! Every call needs an admin user's bearer token (`admin::oauth`); writes need the
//! `admin` role, reads of the catalogue are open to guides, users are admins' only.
//! Errors are Shopware's (`crate::error`), validation failures 400 with a pointer per
//! field. Writes run in one transaction each and keep the storefront's derived data
//! (listing and search index, category paths) in step through the entities' hooks.
//!
//! `POST /api/search/product` stays the live room's product search (`dsr::search`),
//! which already answers Shopware's criteria over products; `GET /api/product` is
//! this module's.

pub mod actions;
pub mod aggregation;
pub mod definition;
pub mod entities;
pub mod gdpr;
pub mod legal_pages;
pub mod read;
pub mod sync;
pub mod upload;
pub mod write;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rusqlite::Transaction;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::admin::search;
use crate::admin::AdminUser;
use crate::catalog::criteria::Criteria;
use crate::error::{ApiError, ApiResult, Body};
use crate::state::App;
use crate::store_api::RequestParams;
use definition::Definition;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/_action/sync", post(sync::sync))
        .route("/_action/media/{id}/upload", post(upload::upload))
        .route("/search/{entity}", post(search_entities))
        .route("/search-ids/{entity}", post(search_ids))
        .route("/{entity}", get(list).post(create))
        .route("/{entity}/{id}", get(detail).patch(update).delete(remove))
        .merge(actions::routes())
        .merge(gdpr::routes())
        .merge(legal_pages::routes())
}

/// The definition of a URL's entity (`product-manufacturer` or `product_manufacturer`).
pub fn definition(name: &str) -> ApiResult<&'static Definition> {
    let name = name.replace('-', "_");
    entities::ALL
        .iter()
        .copied()
        .find(|d| d.name == name)
        .ok_or_else(|| {
            ApiError::not_found(
                "FRAMEWORK__DEFINITION_NOT_FOUND",
                format!("Definition for entity \"{name}\" does not exist."),
            )
        })
}

/// Refuses a user whose role may not read (or, with `write`, change) the entity.
pub fn authorize(user: &AdminUser, def: &Definition, write: bool) -> ApiResult<()> {
    let allowed = if write {
        def.access.may_write(user.role)
    } else {
        def.access.may_read(user.role)
    };
    if allowed {
        return Ok(());
    }
    let privilege = if write { "write" } else { "read" };
    let why = if write && def.access == definition::Access::ReadOnly {
        "it is read-only through this API"
    } else {
        "only admins may do this"
    };
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        "FRAMEWORK__MISSING_PRIVILEGE_ERROR",
        format!("Missing privilege {}:{privilege}: {why}.", def.name),
    ))
}

/// Runs `f` in one write transaction: committed when it succeeds, rolled back when it
/// answers an error.
pub async fn in_transaction<T, F>(app: &App, f: F) -> ApiResult<T>
where
    F: FnOnce(&Transaction) -> ApiResult<T> + Send + 'static,
    T: Send + 'static,
{
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            match f(&tx) {
                Ok(value) => {
                    tx.commit()?;
                    Ok(Ok(value))
                }
                Err(error) => Ok(Err(error)),
            }
        })
        .await?
}

/// After a write of `defs`: a changed domain of the sales channel is at once one of the
/// shop's origins (`Config::merchant_domains`).
pub(super) async fn after_writing(app: &App, defs: &[&'static Definition]) -> ApiResult<()> {
    if defs
        .iter()
        .any(|def| matches!(def.name, "sales_channel_domain" | "sales_channel"))
    {
        let domains = app.config.merchant_domains.clone();
        app.db.read(move |conn| Ok(domains.load(conn)?)).await?;
    }
    Ok(())
}

/// The entity's definition and the request's criteria, once the user may read it.
fn readable(
    user: &AdminUser,
    entity: &str,
    params: &serde_json::Map<String, Value>,
) -> ApiResult<(&'static Definition, Criteria)> {
    let def = definition(entity)?;
    authorize(user, def, false)?;
    Ok((def, read::parse_criteria(def, params)?))
}

async fn search_entities(
    user: AdminUser,
    State(app): State<App>,
    Path(entity): Path<String>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let (def, criteria) = readable(&user, &entity, &params)?;
    let aggregations = aggregation::parse(def, &params)?;
    let body = app
        .db
        .read(move |conn| {
            let (ids, total) = read::select(conn, def, &criteria)?;
            let aggregations = aggregation::compute(conn, def, &criteria, &aggregations)?;
            Ok(search::result_with(
                total,
                read::load(conn, def, &ids)?,
                aggregations,
            ))
        })
        .await?;
    Ok(Json(body))
}

async fn list(
    user: AdminUser,
    state: State<App>,
    entity: Path<String>,
    params: RequestParams,
) -> ApiResult<Json<Value>> {
    search_entities(user, state, entity, params).await
}

async fn search_ids(
    user: AdminUser,
    State(app): State<App>,
    Path(entity): Path<String>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let (def, criteria) = readable(&user, &entity, &params)?;
    let (ids, total) = app
        .db
        .read(move |conn| Ok(read::select(conn, def, &criteria)?))
        .await?;
    Ok(Json(json!({ "total": total, "data": ids })))
}

async fn detail(
    user: AdminUser,
    State(app): State<App>,
    Path((entity, id)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let def = definition(&entity)?;
    authorize(&user, def, false)?;
    let key = id.clone();
    let mut found = app
        .db
        .read(move |conn| Ok(read::load(conn, def, &[key])?))
        .await?;
    match found.pop() {
        Some(entity) => Ok(Json(json!({ "data": entity }))),
        None => Err(write::not_found(def, &id)),
    }
}

#[derive(Deserialize)]
struct WriteQuery {
    #[serde(rename = "_response")]
    response: Option<String>,
}

/// Shopware's answer to a write: 204 with the entity's `Location`, or with
/// `_response` set, 200 with the entity.
async fn written(
    app: &App,
    headers: &HeaderMap,
    def: &'static Definition,
    id: String,
    query: WriteQuery,
) -> ApiResult<Response> {
    if query
        .response
        .is_some_and(|r| !r.is_empty() && r != "false")
    {
        let key = id.clone();
        let entity = app
            .db
            .read(move |conn| Ok(read::load(conn, def, &[key])?))
            .await?
            .pop()
            .unwrap_or(Value::Null);
        return Ok((StatusCode::OK, Json(json!({ "data": entity }))).into_response());
    }
    let base = match (
        &app.config.shop_endpoint,
        headers.get(header::HOST).and_then(|h| h.to_str().ok()),
    ) {
        (Some(endpoint), _) => endpoint.trim_end_matches('/').to_owned(),
        (None, Some(host)) => format!("http://{host}"),
        (None, None) => String::new(),
    };
    let location = format!("{base}/api/{}/{id}", def.url_name());
    let mut response = StatusCode::NO_CONTENT.into_response();
    if let Ok(value) = HeaderValue::from_str(&location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    Ok(response)
}

async fn create(
    user: AdminUser,
    State(app): State<App>,
    Path(entity): Path<String>,
    Query(query): Query<WriteQuery>,
    headers: HeaderMap,
    Body(payload): Body<Value>,
) -> ApiResult<Response> {
    let def = definition(&entity)?;
    authorize(&user, def, true)?;
    let hashes = entities::user::Prehashed::of(&app, def, [&payload]).await?;
    let id = in_transaction(&app, move |tx| {
        hashes.during(|| write::create(tx, def, &payload, "/0"))
    })
    .await?;
    after_writing(&app, &[def]).await?;
    written(&app, &headers, def, id, query).await
}

async fn update(
    user: AdminUser,
    State(app): State<App>,
    Path((entity, id)): Path<(String, String)>,
    Query(query): Query<WriteQuery>,
    headers: HeaderMap,
    Body(payload): Body<Value>,
) -> ApiResult<Response> {
    let def = definition(&entity)?;
    authorize(&user, def, true)?;
    if payload
        .get("id")
        .is_some_and(|given| given.as_str() != Some(id.as_str()))
    {
        return Err(ApiError::bad_request(
            "FRAMEWORK__WRITE_ID_MISMATCH",
            "The id of the body differs from the id of the URL.",
        )
        .at("/0/id"));
    }
    let key = id.clone();
    let hashes = entities::user::Prehashed::of(&app, def, [&payload]).await?;
    in_transaction(&app, move |tx| {
        hashes.during(|| write::update(tx, def, &key, &payload, "/0"))
    })
    .await?;
    after_writing(&app, &[def]).await?;
    written(&app, &headers, def, id, query).await
}

async fn remove(
    user: AdminUser,
    State(app): State<App>,
    Path((entity, id)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    let def = definition(&entity)?;
    authorize(&user, def, true)?;
    let key = id.clone();
    let deleted = in_transaction(&app, move |tx| write::delete(tx, def, &key)).await?;
    after_writing(&app, &[def]).await?;
    if deleted {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(write::not_found(def, &id))
    }
}
