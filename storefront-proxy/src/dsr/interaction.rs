//! `POST /store-api/dsr/interaction` (the interaction log, with the reference's names and
//! payloads) and the attendee's product collections (liked, disliked, last seen). Changes
//! to a collection go to the hub for the attendee and the guides.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use protocol::action::Interaction;
use protocol::frame::{Collection, Event};
use protocol::internal::Audience;
use rusqlite::params;
use serde_json::{json, Value};

use super::attendee::{self, Attendee};
use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::{is_id, new_id, now_rfc3339};
use crate::store_api::{ContextToken, SalesChannel};

/// Last-seen lists keep this many products.
const LAST_SEEN_LIMIT: i64 = 100;

fn invalid(pointer: &str, detail: impl Into<String>) -> ApiError {
    ApiError::bad_request("FRAMEWORK__INVALID_REQUEST_BODY", detail).at(pointer)
}

/// One change to a collection: (alias, product, added).
pub(crate) type CollectionChange = (&'static str, String, bool);

/// Applies collection changes in one transaction; returns those that changed something.
pub(crate) async fn change_collections(
    app: &App,
    attendee_id: &str,
    changes: Vec<CollectionChange>,
) -> ApiResult<Vec<CollectionChange>> {
    let attendee_id = attendee_id.to_owned();
    Ok(app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let mut changed = Vec::new();
            for (alias, product_id, added) in changes {
                let rows = if added {
                    // Last seen moves to the front when seen again.
                    tx.execute(
                        "INSERT INTO attendee_product_collection (attendee_id, alias, product_id, created_at, id) VALUES (?1, ?2, ?3, ?4, ?5)
                         ON CONFLICT (attendee_id, alias, product_id) DO UPDATE SET created_at = excluded.created_at",
                        params![attendee_id, alias, product_id, now_rfc3339(), new_id()],
                    )?
                } else {
                    tx.execute(
                        "DELETE FROM attendee_product_collection WHERE attendee_id = ?1 AND alias = ?2 AND product_id = ?3",
                        params![attendee_id, alias, product_id],
                    )?
                };
                if rows > 0 {
                    changed.push((alias, product_id, added));
                }
            }
            tx.execute(
                "DELETE FROM attendee_product_collection WHERE attendee_id = ?1 AND alias = 'lastSeen' AND product_id NOT IN
                 (SELECT product_id FROM attendee_product_collection WHERE attendee_id = ?1 AND alias = 'lastSeen'
                  ORDER BY created_at DESC LIMIT ?2)",
                params![attendee_id, LAST_SEEN_LIMIT],
            )?;
            tx.commit()?;
            Ok(changed)
        })
        .await?)
}

/// Tells the attendee and the guides, in the background and in order: the collection
/// is stored already, so a hub that is down or slow only delays the live view.
pub(crate) fn publish_changes(app: &App, attendee: &Attendee, changed: Vec<CollectionChange>) {
    for (alias, product_id, added) in changed {
        let collection = match alias {
            "liked" => Collection::Liked,
            "disliked" => Collection::Disliked,
            _ => Collection::LastSeen,
        };
        let event = Event::AttendeeCollectionChanged {
            attendee_id: attendee.id.clone(),
            collection,
            product_id,
            added,
        };
        app.hub.publish_later(
            &attendee.appointment_id,
            Audience::Attendee(attendee.id.clone()),
            event,
        );
    }
}

/// What an interaction changes in the attendee's collections: a viewed product is
/// last seen, a like undoes a dislike and the other way round.
fn collection_changes(interaction: &Interaction) -> Vec<CollectionChange> {
    match interaction {
        Interaction::ProductViewed(p) => vec![("lastSeen", p.product_id.clone(), true)],
        Interaction::ProductLiked(p) => vec![
            ("liked", p.product_id.clone(), true),
            ("disliked", p.product_id.clone(), false),
        ],
        Interaction::ProductDisliked(p) => vec![
            ("disliked", p.product_id.clone(), true),
            ("liked", p.product_id.clone(), false),
        ],
        Interaction::ProductRemovedFromCollection(p) => {
            vec![
                ("liked", p.product_id.clone(), false),
                ("disliked", p.product_id.clone(), false),
            ]
        }
        _ => vec![],
    }
}

/// `POST /store-api/dsr/interaction`
pub async fn create(
    _: SalesChannel,
    ContextToken(token): ContextToken,
    State(app): State<App>,
    body: axum::body::Bytes,
) -> ApiResult<Response> {
    let attendee = attendee::of_context(&app, token).await?;
    let body: Value = serde_json::from_slice(&body)
        .map_err(|e| invalid("/", format!("The request body is not valid JSON: {e}")))?;
    let name = body
        .get("name")
        .cloned()
        .ok_or_else(|| invalid("/name", "The interaction name is required."))?;
    let payload = body.get("payload").cloned().unwrap_or_else(|| json!({}));
    let interaction: Interaction =
        serde_json::from_value(json!({ "name": name, "payload": payload }))
            .map_err(|e| invalid("/payload", format!("The interaction is not valid: {e}")))?;
    let life_time = match body.get("lifeTimeInSeconds") {
        None | Some(Value::Null) => -1,
        Some(value) => value.as_i64().ok_or_else(|| {
            invalid(
                "/lifeTimeInSeconds",
                "lifeTimeInSeconds must be an integer.",
            )
        })?,
    };
    let product_ids: Vec<&str> = match &interaction {
        Interaction::ProductViewed(p)
        | Interaction::ProductLiked(p)
        | Interaction::ProductDisliked(p)
        | Interaction::ProductRemovedFromCollection(p) => vec![p.product_id.as_str()],
        _ => vec![],
    };
    if product_ids.iter().any(|id| !is_id(id)) {
        return Err(invalid(
            "/payload/productId",
            "productId must be 32 lowercase hex characters.",
        ));
    }
    let changes = collection_changes(&interaction);
    let name = serde_json::to_value(interaction.name())
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let record = (
        new_id(),
        attendee.appointment_id.clone(),
        attendee.id.clone(),
        name,
        payload.to_string(),
    );
    let expires_at = (life_time >= 0)
        .then(|| time::OffsetDateTime::now_utc() + time::Duration::seconds(life_time))
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        });
    app.db
        .call(move |conn| {
            let (id, appointment_id, attendee_id, name, payload) = record;
            conn.execute(
                "INSERT INTO interaction (id, appointment_id, attendee_id, name, payload, triggered_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![id, appointment_id, attendee_id, name, payload, now_rfc3339(), expires_at],
            )?;
            Ok(())
        })
        .await?;
    let changed = change_collections(&app, &attendee.id, changes).await?;
    publish_changes(&app, &attendee, changed);
    Ok(StatusCode::OK.into_response())
}

fn alias(alias: &str) -> ApiResult<&'static str> {
    match alias {
        "liked" => Ok("liked"),
        "disliked" => Ok("disliked"),
        _ => Err(ApiError::not_found(
            "DIGITAL_SALES_ROOMS__COLLECTION_NOT_FOUND",
            "The collection must be liked or disliked.",
        )),
    }
}

/// `POST /store-api/dsr/appointment/collection/{alias}/{productId}` (204)
pub async fn add(
    _: SalesChannel,
    ContextToken(token): ContextToken,
    State(app): State<App>,
    Path((name, product_id)): Path<(String, String)>,
) -> ApiResult<Response> {
    let attendee = attendee::of_context(&app, token).await?;
    let alias = alias(&name)?;
    if !is_id(&product_id) {
        return Err(invalid(
            "/productId",
            "productId must be 32 lowercase hex characters.",
        ));
    }
    let other = if alias == "liked" {
        "disliked"
    } else {
        "liked"
    };
    let changed = change_collections(
        &app,
        &attendee.id,
        vec![
            (alias, product_id.clone(), true),
            (other, product_id, false),
        ],
    )
    .await?;
    publish_changes(&app, &attendee, changed);
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `DELETE /store-api/dsr/appointment/collection/{alias}/{productId}` (204)
pub async fn remove(
    _: SalesChannel,
    ContextToken(token): ContextToken,
    State(app): State<App>,
    Path((name, product_id)): Path<(String, String)>,
) -> ApiResult<Response> {
    let attendee = attendee::of_context(&app, token).await?;
    let alias = alias(&name)?;
    if !is_id(&product_id) {
        return Err(invalid(
            "/productId",
            "productId must be 32 lowercase hex characters.",
        ));
    }
    let changed = change_collections(&app, &attendee.id, vec![(alias, product_id, false)]).await?;
    publish_changes(&app, &attendee, changed);
    Ok(StatusCode::NO_CONTENT.into_response())
}

pub(super) async fn product_ids(
    app: &App,
    attendee_id: String,
    alias: &'static str,
) -> ApiResult<Vec<String>> {
    Ok(app
        .db
        .call(move |conn| {
            let mut statement = conn.prepare(
                "SELECT product_id FROM attendee_product_collection WHERE attendee_id = ?1 AND alias = ?2 ORDER BY created_at DESC, product_id",
            )?;
            let ids = statement.query_map(params![attendee_id, alias], |r| r.get(0))?.collect::<Result<Vec<String>, _>>()?;
            Ok(ids)
        })
        .await?)
}

/// `GET /store-api/dsr/appointment/collection/{alias}`
pub async fn list(
    _: SalesChannel,
    ContextToken(token): ContextToken,
    State(app): State<App>,
    Path(name): Path<String>,
) -> ApiResult<Json<Value>> {
    let attendee = attendee::of_context(&app, token).await?;
    let alias = alias(&name)?;
    let ids = product_ids(&app, attendee.id, alias).await?;
    Ok(Json(json!({ "collection": { alias: ids } })))
}

/// `GET /store-api/dsr/appointment/collection/last-seen`, newest first.
pub async fn last_seen(
    _: SalesChannel,
    ContextToken(token): ContextToken,
    State(app): State<App>,
) -> ApiResult<Json<Value>> {
    let attendee = attendee::of_context(&app, token).await?;
    let ids = product_ids(&app, attendee.id, "lastSeen").await?;
    Ok(Json(json!({ "collection": { "lastSeen": ids } })))
}

/// `GET /api/_action/dsr/appointment/attendee/{id}/last-seen-product-ids`: the products
/// the attendee looked at, newest first (the guide's view of one attendee; the same list
/// the attendee reads as `collection/last-seen`).
pub async fn last_seen_product_ids(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let attendee = attendee::load(&app, id).await?;
    let ids = product_ids(&app, attendee.id, "lastSeen").await?;
    Ok(Json(json!({ "collection": { "lastSeen": ids } })))
}
