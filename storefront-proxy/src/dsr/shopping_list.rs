//! Shopping lists shared into an appointment (the document's `setSharingShoppingList`
//! and `getSharingShoppingList`; the lists themselves are `shopping_list/`):
//!
//! - `POST /api/_action/dsr/appointment/{appointmentId}/shopping-lists/{shoppingListId}`
//!   (any Admin API user: admin or guide): the list's products and quantities become the
//!   appointment's shared list (its "appointment cache", `dsr_appointment_shopping_list`),
//!   replacing what was shared before; the answer is that map,
//!   `{"data": {productId: {"quantity": n}}}`. The list must be of the appointment's sales
//!   channel. A guide may share any customer's list: Admin API users see every
//!   customer's data anyway, and the room is where a guide brings a customer's list up.
//! - `GET /store-api/dsr/appointment/{appointmentId}/shopping-lists`: an attendee of that
//!   appointment (their context token) reads the map,
//!   `{"apiAlias": "dsr.appointment.load-shopping-lists", "data": {…}}` (empty before a
//!   share). An attendee of another appointment, or a session that is none: 403.
//!
//! Quantities are JSON numbers (the document's example shows strings, as Shopware's
//! database layer reads them; the list's `quantity` is an integer in the same document).
//! Later changes to the list do not change what was shared: sharing again does.
//! Upstream mode forwards both calls as they are.

use axum::extract::{Path, State};
use axum::Json;
use rusqlite::{params, Connection};
use serde_json::{json, Map, Value};

use super::appointment::{self, Appointment};
use crate::admin::AdminUser;
use crate::catalog;
use crate::error::ApiResult;
use crate::shopping_list::{self, records};
use crate::state::App;
use crate::storage::{is_id, now_rfc3339};
use crate::store_api::ContextToken;

fn path_id(id: &str, pointer: &str) -> ApiResult<String> {
    let id = id.to_lowercase();
    if is_id(&id) {
        Ok(id)
    } else {
        Err(catalog::invalid_id(&id, pointer))
    }
}

/// The appointment's shared products: `{productId: {"quantity": n}}`, in the list's order.
fn shared(conn: &Connection, appointment_id: &str) -> rusqlite::Result<Value> {
    let mut statement =
        conn.prepare_cached("SELECT product_id, quantity FROM dsr_appointment_shopping_list WHERE appointment_id = ?1 ORDER BY position")?;
    let rows = statement.query_map([appointment_id], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
    })?;
    let mut data = Map::new();
    for row in rows {
        let (product_id, quantity) = row?;
        data.insert(product_id, json!({ "quantity": quantity }));
    }
    Ok(Value::Object(data))
}

/// `POST /api/_action/dsr/appointment/{appointmentId}/shopping-lists/{shoppingListId}`.
pub async fn share(
    _: AdminUser,
    State(app): State<App>,
    Path((id, list_id)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let id = path_id(&id, "/appointmentId")?;
    let list_id = path_id(&list_id, "/shoppingListId")?;
    let data = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(appointment) = Appointment::by_id(&tx, &id)? else { return Ok(Err(appointment::not_found())) };
            let in_channel: bool = tx.query_row(
                "SELECT EXISTS(SELECT 1 FROM shopping_list WHERE id = ?1 AND sales_channel_id = ?2)",
                params![list_id, appointment.sales_channel_id],
                |r| r.get(0),
            )?;
            if !in_channel {
                return Ok(Err(shopping_list::not_found(&list_id)));
            }
            tx.execute("DELETE FROM dsr_appointment_shopping_list WHERE appointment_id = ?1", [&id])?;
            let now = now_rfc3339();
            for (position, line) in records::lines(&tx, &list_id)?.into_iter().enumerate() {
                tx.execute(
                    "INSERT INTO dsr_appointment_shopping_list (appointment_id, product_id, quantity, position, shopping_list_id, shared_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![id, line.product_id, line.quantity, position as i64, list_id, now],
                )?;
            }
            let data = shared(&tx, &id)?;
            tx.commit()?;
            Ok(Ok(data))
        })
        .await??;
    Ok(Json(json!({ "data": data })))
}

/// `GET /store-api/dsr/appointment/{appointmentId}/shopping-lists`.
pub async fn load(
    ContextToken(token): ContextToken,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let id = path_id(&id, "/appointmentId")?;
    let attendee = super::attendee::of_context(&app, token).await?;
    if attendee.appointment_id != id {
        return Err(super::attendee::not_an_attendee());
    }
    let data = app.db.call(move |conn| Ok(shared(conn, &id)?)).await?;
    Ok(Json(
        json!({ "apiAlias": "dsr.appointment.load-shopping-lists", "data": data }),
    ))
}
