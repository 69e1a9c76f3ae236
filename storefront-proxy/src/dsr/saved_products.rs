//! The guide's saved products of an appointment (spec: "saved products layer and upsert
//! sidebar"): products kept aside during the session to present later, shared by the
//! appointment's guides and kept between sessions.
//! `GET /api/_action/dsr/appointment/{id}/saved-products` answers `{ productIds, total }`
//! in the order saved; `POST` with `{ productIds }` adds (already saved ones stay where
//! they are); `DELETE …/saved-products/{productId}` takes one out, `DELETE …/saved-products`
//! all of them. At most [`MAX_SAVED_PRODUCTS`] per appointment.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use rusqlite::{params, Connection};
use serde_json::{json, Value};

use super::appointment::{self, Appointment};
use super::listing::{id_list, product_exists};
use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult, Violation};
use crate::state::App;
use crate::storage::{is_id, now_rfc3339};
use crate::store_api::RequestParams;

/// The most products one appointment keeps saved.
pub const MAX_SAVED_PRODUCTS: usize = 100;

pub const TOO_MANY: &str = "DIGITAL_SALES_ROOMS__SAVED_PRODUCTS_LIMIT";

fn saved(conn: &Connection, appointment_id: &str) -> rusqlite::Result<Vec<String>> {
    let mut statement =
        conn.prepare_cached("SELECT product_id FROM appointment_saved_product WHERE appointment_id = ?1 ORDER BY position, created_at")?;
    let rows = statement.query_map([appointment_id], |r| r.get(0))?;
    rows.collect()
}

fn answer(ids: Vec<String>) -> Json<Value> {
    Json(json!({ "total": ids.len(), "productIds": ids }))
}

/// `GET …/saved-products`.
pub async fn list(_: AdminUser, State(app): State<App>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let ids = app
        .db
        .call(move |conn| {
            let Some(appointment) = Appointment::by_id(conn, &id)? else { return Ok(Err(appointment::not_found())) };
            Ok(Ok(saved(conn, &appointment.id)?))
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
        None | Some(Value::Null) => return Err(ApiError::Violations(vec![Violation::blank("/productIds")])),
        Some(value) => id_list(value, "/productIds")?,
    };
    if product_ids.is_empty() {
        return Err(ApiError::Violations(vec![Violation::blank("/productIds")]));
    }
    let ids = app
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
            tx.commit()?;
            Ok(Ok(ids))
        })
        .await??;
    Ok(answer(ids))
}

/// `DELETE …/saved-products/{productId}`: 204; a product that is not saved is a 404.
pub async fn remove(_: AdminUser, State(app): State<App>, Path((id, product_id)): Path<(String, String)>) -> ApiResult<StatusCode> {
    let product_id = product_id.to_lowercase();
    if !is_id(&product_id) {
        return Err(crate::catalog::invalid_id(&product_id, "/productId"));
    }
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
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE …/saved-products`: 204, none saved any more.
pub async fn clear(_: AdminUser, State(app): State<App>, Path(id): Path<String>) -> ApiResult<StatusCode> {
    app.db
        .call(move |conn| {
            let Some(appointment) = Appointment::by_id(conn, &id)? else { return Ok(Err(appointment::not_found())) };
            conn.execute("DELETE FROM appointment_saved_product WHERE appointment_id = ?1", [&appointment.id])?;
            Ok(Ok(()))
        })
        .await??;
    Ok(StatusCode::NO_CONTENT)
}
