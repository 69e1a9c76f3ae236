//! The guide's saved products of an appointment (spec: "saved products layer and upsert
//! sidebar"): products kept aside during the session to present later, shared by the
//! appointment's guides and kept between sessions.
//! `GET /api/_action/dsr/appointment/{id}/saved-products` answers
//! `{ productIds, total, elements: [{ productId, position, note }] }` in the guide's order;
//! `POST` with `{ productIds }` adds at the end (already saved ones stay where they are);
//! `PATCH …/saved-products/{productId}` with `{ position?, note? }` moves one (0-based,
//! clamped to the list) and/or sets its note (null or "" clears it); every change answers
//! the whole list. `DELETE …/saved-products/{productId}` takes one out,
//! `DELETE …/saved-products` all of them. At most [`MAX_SAVED_PRODUCTS`] per appointment,
//! notes of at most [`MAX_NOTE_CHARS`] characters.
//!
//! Every change that changed something tells the appointment's guides through the hub
//! (`savedProductsChanged`, guides only): a guide's cockpit then loads the list again, so
//! two guides of one appointment see each other's changes live.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use rusqlite::{params, Connection};
use serde_json::{json, Map, Value};

use super::appointment::{self, Appointment};
use super::listing::{id_list, product_exists};
use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult, Violation};
use crate::state::App;
use crate::storage::{is_id, now_rfc3339};
use crate::store_api::RequestParams;

/// Tells the appointment's guides that its saved products changed (in the background,
/// in order with the shop's other events: the write stands whether or not the hub takes it).
fn tell_guides(app: &App, appointment_id: &str) {
    app.hub.publish_later(
        appointment_id,
        protocol::internal::Audience::Guides,
        protocol::frame::Event::SavedProductsChanged {},
    );
}

/// The most products one appointment keeps saved.
pub const MAX_SAVED_PRODUCTS: usize = 100;

/// The longest note a guide keeps on a saved product, in characters.
pub const MAX_NOTE_CHARS: usize = 500;

pub const TOO_MANY: &str = "DIGITAL_SALES_ROOMS__SAVED_PRODUCTS_LIMIT";

/// One saved product: its id and the guide's note.
struct Saved {
    product_id: String,
    note: Option<String>,
}

fn saved_with_notes(conn: &Connection, appointment_id: &str) -> rusqlite::Result<Vec<Saved>> {
    let mut statement = conn
        .prepare_cached("SELECT product_id, note FROM appointment_saved_product WHERE appointment_id = ?1 ORDER BY position, created_at")?;
    let rows = statement.query_map([appointment_id], |r| {
        Ok(Saved {
            product_id: r.get(0)?,
            note: r.get(1)?,
        })
    })?;
    rows.collect()
}

fn saved(conn: &Connection, appointment_id: &str) -> rusqlite::Result<Vec<String>> {
    Ok(saved_with_notes(conn, appointment_id)?
        .into_iter()
        .map(|s| s.product_id)
        .collect())
}

fn answer(list: Vec<Saved>) -> Json<Value> {
    let elements: Vec<Value> =
        list.iter().enumerate().map(|(position, s)| json!({ "productId": s.product_id, "position": position, "note": s.note })).collect();
    let ids: Vec<&str> = list.iter().map(|s| s.product_id.as_str()).collect();
    Json(json!({ "total": list.len(), "productIds": ids, "elements": elements }))
}

/// `GET …/saved-products`.
pub async fn list(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let ids = app
        .db
        .call(move |conn| {
            let Some(appointment) = Appointment::by_id(conn, &id)? else {
                return Ok(Err(appointment::not_found()));
            };
            Ok(Ok(saved_with_notes(conn, &appointment.id)?))
        })
        .await??;
    Ok(answer(ids))
}

/// `POST …/saved-products` `{ productIds }`: 200 with the whole list.
pub async fn add(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let product_ids = match body.get("productIds") {
        None | Some(Value::Null) => {
            return Err(ApiError::Violations(vec![Violation::blank("/productIds")]))
        }
        Some(value) => id_list(value, "/productIds")?,
    };
    if product_ids.is_empty() {
        return Err(ApiError::Violations(vec![Violation::blank("/productIds")]));
    }
    let appointment_id = id.clone();
    let (ids, added) = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(appointment) = Appointment::by_id(&tx, &id)? else { return Ok(Err(appointment::not_found())) };
            for (index, product) in product_ids.iter().enumerate() {
                if !product_exists(&tx, product)? {
                    return Ok(Err(crate::catalog::product_not_found(product).at(&format!("/productIds/{index}"))));
                }
            }
            let mut ids = saved(&tx, &appointment.id)?;
            let before = ids.len();
            let mut position = ids.len() as i64;
            for product in product_ids {
                if ids.contains(&product) {
                    continue;
                }
                if ids.len() >= MAX_SAVED_PRODUCTS {
                    return Ok(Err(ApiError::bad_request(
                        TOO_MANY,
                        format!("An appointment keeps at most {MAX_SAVED_PRODUCTS} saved products; remove some first."),
                    )
                    .at("/productIds")));
                }
                tx.execute(
                    "INSERT INTO appointment_saved_product (appointment_id, product_id, position, created_at) VALUES (?1, ?2, ?3, ?4)",
                    params![appointment.id, product, position, now_rfc3339()],
                )?;
                position += 1;
                ids.push(product);
            }
            let added = ids.len() > before;
            let list = saved_with_notes(&tx, &appointment.id)?;
            tx.commit()?;
            Ok(Ok((list, added)))
        })
        .await??;
    if added {
        tell_guides(&app, &appointment_id);
    }
    Ok(answer(ids))
}

/// The `position` (capped at the list's size) and the `note` of an update; a note
/// of `Some(None)` clears it. At least one of them.
fn position_and_note(
    body: &Map<String, Value>,
) -> ApiResult<(Option<usize>, Option<Option<String>>)> {
    let mut violations = Vec::new();
    let position = match body.get("position") {
        None | Some(Value::Null) => None,
        Some(value) => match value.as_u64() {
            Some(position) => Some(position.min(MAX_SAVED_PRODUCTS as u64) as usize),
            None => {
                violations.push(Violation::new(
                    "FRAMEWORK__INVALID_REQUEST_PARAMETER",
                    "/position",
                    "Expected a position from 0.",
                ));
                None
            }
        },
    };
    // Outer None: the note stays; Some(None): cleared.
    let note = match body.get("note") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(Value::String(text)) if text.chars().count() > MAX_NOTE_CHARS => {
            violations.push(Violation::new(
                "VIOLATION::TOO_LONG_ERROR",
                "/note",
                format!("A note has at most {MAX_NOTE_CHARS} characters."),
            ));
            None
        }
        Some(Value::String(text)) => {
            Some(Some(text.trim().to_owned()).filter(|text| !text.is_empty()))
        }
        Some(_) => {
            violations.push(Violation::new(
                "FRAMEWORK__INVALID_REQUEST_PARAMETER",
                "/note",
                "Expected a text or null.",
            ));
            None
        }
    };
    if !violations.is_empty() {
        return Err(ApiError::Violations(violations));
    }
    if position.is_none() && note.is_none() {
        return Err(ApiError::Violations(vec![Violation::new(
            "FRAMEWORK__INVALID_REQUEST_PARAMETER",
            "",
            "Send a position, a note or both.",
        )]));
    }
    Ok((position, note))
}

/// `PATCH …/saved-products/{productId}` `{ position?, note? }`: 200 with the whole list.
pub async fn update(
    _: AdminUser,
    State(app): State<App>,
    Path((id, product_id)): Path<(String, String)>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let product_id = product_id.to_lowercase();
    if !is_id(&product_id) {
        return Err(crate::catalog::invalid_id(&product_id, "/productId"));
    }
    let (position, note) = position_and_note(&body)?;
    let appointment_id = id.clone();
    let list = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(appointment) = Appointment::by_id(&tx, &id)? else { return Ok(Err(appointment::not_found())) };
            let mut ids = saved(&tx, &appointment.id)?;
            let Some(from) = ids.iter().position(|saved| *saved == product_id) else {
                return Ok(Err(crate::catalog::product_not_found(&product_id)));
            };
            if let Some(note) = note {
                tx.execute(
                    "UPDATE appointment_saved_product SET note = ?3 WHERE appointment_id = ?1 AND product_id = ?2",
                    params![appointment.id, product_id, note],
                )?;
            }
            if let Some(to) = position {
                let moved = ids.remove(from);
                ids.insert(to.min(ids.len()), moved);
                for (index, saved) in ids.iter().enumerate() {
                    tx.execute(
                        "UPDATE appointment_saved_product SET position = ?3 WHERE appointment_id = ?1 AND product_id = ?2",
                        params![appointment.id, saved, index as i64],
                    )?;
                }
            }
            let list = saved_with_notes(&tx, &appointment.id)?;
            tx.commit()?;
            Ok(Ok(list))
        })
        .await??;
    tell_guides(&app, &appointment_id);
    Ok(answer(list))
}

/// `DELETE …/saved-products/{productId}`: 204; a product that is not saved is a 404.
pub async fn remove(
    _: AdminUser,
    State(app): State<App>,
    Path((id, product_id)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    let product_id = product_id.to_lowercase();
    if !is_id(&product_id) {
        return Err(crate::catalog::invalid_id(&product_id, "/productId"));
    }
    let appointment_id = id.clone();
    app.db
        .call(move |conn| {
            let Some(appointment) = Appointment::by_id(conn, &id)? else { return Ok(Err(appointment::not_found())) };
            let removed = conn.execute(
                "DELETE FROM appointment_saved_product WHERE appointment_id = ?1 AND product_id = ?2",
                params![appointment.id, product_id],
            )?;
            if removed == 0 {
                return Ok(Err(crate::catalog::product_not_found(&product_id)));
            }
            Ok(Ok(()))
        })
        .await??;
    tell_guides(&app, &appointment_id);
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE …/saved-products`: 204, none saved any more.
pub async fn clear(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let appointment_id = id.clone();
    let cleared = app
        .db
        .call(move |conn| {
            let Some(appointment) = Appointment::by_id(conn, &id)? else {
                return Ok(Err(appointment::not_found()));
            };
            Ok(Ok(conn.execute(
                "DELETE FROM appointment_saved_product WHERE appointment_id = ?1",
                [&appointment.id],
            )?))
        })
        .await??;
    if cleared > 0 {
        tell_guides(&app, &appointment_id);
    }
    Ok(StatusCode::NO_CONTENT)
}
