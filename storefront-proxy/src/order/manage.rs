//! What a customer may do with an order afterwards: `POST /store-api/order/state/cancel`
//! (stock goes back) and `POST /store-api/order/payment` (another payment method: the
//! last transaction is cancelled, a new open one takes its place).

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use rusqlite::params;
use serde_json::{json, Map, Value};

use super::load::{owned, PAYMENT_CHANGEABLE};
use super::state::{Locale, Machine};
use crate::account::logged_in::LoggedIn;
use crate::error::{ApiError, ApiResult, Violation};
use crate::state::App;
use crate::storage::{is_id, new_id, now_rfc3339};
use crate::store_api::RequestParams;

/// A required id field of a request body (`orderId`, `paymentMethodId`).
pub fn required_id(body: &Map<String, Value>, key: &str) -> Result<String, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => Err(ApiError::Violations(vec![Violation::blank(format!(
            "/{key}"
        ))])),
        Some(Value::String(s)) if s.trim().is_empty() => {
            Err(ApiError::Violations(vec![Violation::blank(format!(
                "/{key}"
            ))]))
        }
        Some(Value::String(s)) if is_id(&s.trim().to_lowercase()) => Ok(s.trim().to_lowercase()),
        Some(_) => Err(ApiError::bad_request(
            "FRAMEWORK__INVALID_UUID",
            format!("The value of {key} is not a valid id."),
        )
        .at(&format!("/{key}"))),
    }
}

pub fn order_not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "CHECKOUT__ORDER_ORDER_NOT_FOUND",
        format!("Order with id \"{id}\" not found."),
    )
}

/// `POST /store-api/order/state/cancel` with `orderId`: the new `StateMachineState`.
pub async fn cancel(
    user: LoggedIn,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let order_id = required_id(&body, "orderId")?;
    let state = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(order) = owned(&tx, &user.customer_id, &order_id)? else {
                return Ok(Err(order_not_found(&order_id)));
            };
            if let Err(error) = Machine::Order.check(&order.state, "cancelled") {
                return Ok(Err(error));
            }
            tx.execute(
                "UPDATE shop_order SET state = 'cancelled', updated_at = ?2 WHERE id = ?1",
                params![order_id, now_rfc3339()],
            )?;
            super::place::restore_stock(&tx, &order_id)?;
            super::transition::record(
                &tx,
                Machine::Order,
                &order_id,
                (&order.state, "cancel", "cancelled"),
                None,
            )?;
            let locale = Locale::of(&tx, user.ctx.language_id())?;
            tx.commit()?;
            tracing::info!(%order_id, "order cancelled");
            Ok(Ok(Machine::Order.state("cancelled", locale)))
        })
        .await??;
    Ok(Json(state))
}

fn not_changeable(order_id: &str) -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "CHECKOUT__PAYMENT_METHOD_UNCHANGEABLE",
        format!("The order has an active transaction - {order_id}"),
    )
}

/// `POST /store-api/order/payment` with `orderId` and `paymentMethodId`.
pub async fn change_payment(
    user: LoggedIn,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let order_id = required_id(&body, "orderId")?;
    let method_id = required_id(&body, "paymentMethodId")?;
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(order) = owned(&tx, &user.customer_id, &order_id)? else { return Ok(Err(order_not_found(&order_id))) };
            let Some((transaction_id, state, _)) = order.transaction else { return Ok(Err(order_not_found(&order_id))) };
            if order.state == "cancelled" || !PAYMENT_CHANGEABLE.contains(&state.as_str()) {
                return Ok(Err(not_changeable(&order_id)));
            }
            let usable: bool = tx.query_row(
                "SELECT EXISTS(SELECT 1 FROM payment_method WHERE id = ?1 AND active = 1 AND after_order_enabled = 1)",
                [&method_id],
                |r| r.get(0),
            )?;
            if !usable {
                return Ok(Err(ApiError::not_found(
                    "CHECKOUT__UNKNOWN_PAYMENT_METHOD",
                    format!("The payment method {method_id} could not be found."),
                )));
            }
            let now = now_rfc3339();
            if state != "cancelled" && state != "failed" {
                if let Err(error) = Machine::Transaction.check(&state, "cancelled") {
                    return Ok(Err(error));
                }
                tx.execute(
                    "UPDATE order_transaction SET state = 'cancelled', updated_at = ?2 WHERE id = ?1",
                    params![transaction_id, now],
                )?;
                super::transition::record(&tx, Machine::Transaction, &transaction_id, (&state, "cancel", "cancelled"), None)?;
            }
            tx.execute(
                "INSERT INTO order_transaction (id, order_id, payment_method_id, amount, state, created_at)
                 SELECT ?1, order_id, ?2, amount, 'open', ?3 FROM order_transaction WHERE id = ?4",
                params![new_id(), method_id, now, transaction_id],
            )?;
            tx.execute("UPDATE shop_order SET updated_at = ?2 WHERE id = ?1", params![order_id, now])?;
            tx.commit()?;
            Ok(Ok(()))
        })
        .await??;
    Ok(Json(json!({ "success": true, "apiAlias": "array_struct" })))
}
