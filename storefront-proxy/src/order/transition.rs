//! Moving an order, a payment transaction or a delivery along its state machine
//! (`state.rs`) by an action name, as Shopware's `StateMachineRegistry::transition`
//! does: the action checked against the current state, the new state written, the
//! change kept in `state_machine_history`, and what follows for the shop: an order's
//! stock goes back when it is cancelled and is taken again when it is reopened.

use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde_json::{json, Value};

use super::state::{Locale, Machine};
use crate::error::{ApiError, ApiResult};
use crate::storage::{json_ids, new_id, now_rfc3339};
use crate::store_api::LIVE_VERSION_ID;

/// A state change that was made.
#[derive(Debug, Clone)]
pub struct Changed {
    pub order_id: String,
    pub from: String,
    pub to: &'static str,
}

/// Shopware's answer for a state machine entity that does not exist.
pub fn entity_not_found(machine: Machine, id: &str) -> ApiError {
    ApiError::bad_request(
        "SYSTEM__STATE_MACHINE_INVALID_ENTITY_ID",
        format!(
            "Unable to read entity \"{}\" with id \"{id}\".",
            machine.entity()
        ),
    )
}

/// The current state of the entity `id` and its order's id, if it exists.
pub fn current(
    conn: &Connection,
    machine: Machine,
    id: &str,
) -> rusqlite::Result<Option<(String, String)>> {
    let order_column = match machine {
        Machine::Order => "id",
        Machine::Transaction | Machine::Delivery => "order_id",
    };
    conn.query_row(
        &format!(
            "SELECT state, {order_column} FROM {} WHERE id = ?1",
            machine.table()
        ),
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
}

/// Records a state change of the entity `id` (made here, or elsewhere: the customer's
/// cancel, a payment).
pub fn record(
    tx: &Transaction,
    machine: Machine,
    id: &str,
    (from, action, to): (&str, &str, &str),
    user_id: Option<&str>,
) -> rusqlite::Result<()> {
    let Some((_, order_id)) = current(tx, machine, id)? else {
        return Ok(());
    };
    tx.execute(
        "INSERT INTO state_machine_history (id, entity_name, referenced_id, order_id, from_state, to_state, action_name, user_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![new_id(), machine.entity(), id, order_id, from, to, action, user_id, now_rfc3339()],
    )?;
    Ok(())
}

/// Applies `action` to the entity `id` of `machine`, by the admin user `user_id`.
pub fn apply(
    tx: &Transaction,
    machine: Machine,
    id: &str,
    action: &str,
    user_id: Option<&str>,
) -> ApiResult<Changed> {
    let Some((from, order_id)) = current(tx, machine, id)? else {
        return Err(entity_not_found(machine, id));
    };
    let to = machine.transition(&from, action)?;
    let now = now_rfc3339();
    if machine == Machine::Delivery {
        tx.execute(
            "UPDATE order_delivery SET state = ?2 WHERE id = ?1",
            params![id, to],
        )?;
    } else {
        tx.execute(
            &format!(
                "UPDATE {} SET state = ?2, updated_at = ?3 WHERE id = ?1",
                machine.table()
            ),
            params![id, to, now],
        )?;
    }
    if machine != Machine::Order {
        tx.execute(
            "UPDATE shop_order SET updated_at = ?2 WHERE id = ?1",
            params![order_id, now],
        )?;
    }
    if machine == Machine::Order && to == "cancelled" {
        super::place::restore_stock(tx, &order_id)?;
    }
    if machine == Machine::Order && from == "cancelled" && to == "open" {
        take_stock_again(tx, &order_id)?;
    }
    record(tx, machine, id, (&from, action, to), user_id)?;
    tracing::info!(entity = machine.entity(), %id, %from, to, "state changed");
    Ok(Changed { order_id, from, to })
}

/// A reopened order takes its goods from stock again (stock may go below zero: the
/// merchant decided so).
fn take_stock_again(tx: &Transaction, order_id: &str) -> rusqlite::Result<()> {
    let items: Vec<(String, i64)> = tx
        .prepare_cached(
            "SELECT product_id, quantity FROM order_line_item WHERE order_id = ?1 AND type = 'product' AND product_id IS NOT NULL",
        )?
        .query_map([order_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (product_id, quantity) in items {
        tx.execute(
            "UPDATE product SET stock = stock - ?2, available_stock = available_stock - ?2 WHERE id = ?1 OR id = (SELECT parent_id FROM product WHERE id = ?1)",
            params![product_id, quantity],
        )?;
    }
    Ok(())
}

/// Shopware's answer of `GET /api/_action/state-machine/{entity}/{id}/state`: the
/// transitions possible from the current state.
pub fn available(
    conn: &Connection,
    machine: Machine,
    id: &str,
    locale: Locale,
) -> ApiResult<Value> {
    let Some((from, _)) = current(conn, machine, id)? else {
        return Err(entity_not_found(machine, id));
    };
    let transitions: Vec<Value> = machine
        .available(&from)
        .into_iter()
        .map(|(action, to)| {
            json!({
                "name": machine.name(to, locale),
                "technicalName": to,
                "actionName": action,
                "fromStateName": from,
                "toStateName": to,
                "url": format!("/api/_action/state-machine/{}/{id}/state/{action}", machine.entity()),
            })
        })
        .collect();
    Ok(json!({ "transitions": transitions }))
}

/// The `state_machine_history` entities of the orders `order_ids` (their own changes
/// and those of their transactions and deliveries), oldest first, by order id.
pub fn history(
    conn: &Connection,
    order_ids: &[String],
    locale: Locale,
) -> rusqlite::Result<Vec<(String, Value)>> {
    let mut statement = conn.prepare_cached(
        "SELECT h.id, h.entity_name, h.referenced_id, h.order_id, h.from_state, h.to_state, h.action_name, h.user_id, h.created_at,
                u.username
         FROM state_machine_history h LEFT JOIN admin_user u ON u.id = h.user_id
         WHERE h.order_id IN (SELECT value FROM json_each(?1)) ORDER BY h.created_at, h.rowid",
    )?;
    let rows = statement.query_map([json_ids(order_ids)], |r| {
        let entity: String = r.get(1)?;
        let machine = match entity.as_str() {
            "order_transaction" => Machine::Transaction,
            "order_delivery" => Machine::Delivery,
            _ => Machine::Order,
        };
        let (from, to): (String, String) = (r.get(4)?, r.get(5)?);
        let user_id: Option<String> = r.get(7)?;
        let username: Option<String> = r.get(9)?;
        let order_id: String = r.get(3)?;
        Ok((
            order_id,
            json!({
                "id": r.get::<_, String>(0)?,
                "referencedId": r.get::<_, String>(2)?,
                "referencedVersionId": LIVE_VERSION_ID,
                "stateMachineId": machine.state_id(""),
                "stateMachine": {
                    "id": machine.state_id(""),
                    "technicalName": machine.technical_name(),
                    "apiAlias": "state_machine",
                },
                "entityName": entity,
                "fromStateId": machine.state_id(&from),
                "toStateId": machine.state_id(&to),
                "fromStateMachineState": machine.state(&from, locale),
                "toStateMachineState": machine.state(&to, locale),
                "transitionActionName": r.get::<_, String>(6)?,
                "userId": user_id,
                "user": username.map(|name| json!({ "username": name, "apiAlias": "user" })),
                "integrationId": null,
                "internalComment": null,
                "createdAt": r.get::<_, String>(8)?,
                "updatedAt": null,
                "apiAlias": "state_machine_history",
            }),
        ))
    })?;
    rows.collect()
}
