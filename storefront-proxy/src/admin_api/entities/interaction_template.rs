//! Interaction templates (spec: "interaction template sidebar"): interactions a guide
//! prepares for an appointment and runs in one click during the session. Each is one of
//! [`TYPES`]: a product highlight or a product page (one product), an instant listing
//! (1 to [`MAX_PRODUCTS`] products, in order), or a chat announcement (a message of at
//! most [`MAX_MESSAGE`] characters). Running one sends the live room's own actions; the
//! shop only keeps them. Guides write them as well as admins (`Access::GuidesWrite`).

use std::collections::HashMap;

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, OptionalExtension, Transaction};
use serde_json::Value;

use crate::admin_api::definition::{
    Access, Column, ColumnsOf, Definition, Extra, ExtraWrite, Hooks, ValuesById, Write, NO_HOOKS,
};
use crate::error::{ApiError, ApiResult, Violation};
use crate::storage::{is_id, json_ids, now_rfc3339};

/// What a template does when it runs.
pub const TYPES: &[&str] = &[
    "highlight-product",
    "open-product-page",
    "instant-listing",
    "message",
];
/// The most products an instant-listing template holds.
pub const MAX_PRODUCTS: usize = 24;
/// The longest announcement (the chat's own limit).
pub const MAX_MESSAGE: usize = 500;
/// The most templates one appointment keeps.
pub const MAX_PER_APPOINTMENT: i64 = 50;

pub const TOO_MANY: &str = "DIGITAL_SALES_ROOMS__INTERACTION_TEMPLATE_LIMIT";

pub static INTERACTION_TEMPLATE: Definition = Definition {
    name: "dsr_interaction_template",
    table: "dsr_interaction_template",
    columns: &[
        Column::id("appointmentId", "appointment_id", "appointment").required(),
        Column::text("name", "name", 120).required(),
        Column::choice("type", "type", TYPES).required(),
        Column::text("message", "message", MAX_MESSAGE),
        Column::int("position", "position", 0, 10_000),
        Column::date("createdAt", "created_at").read_only(),
    ],
    translation: None,
    extras: &[Extra {
        name: "productIds",
        write: ExtraWrite::Columns(product_ids_column),
        read: read_product_ids,
        filter: None,
    }],
    ignored: &[],
    access: Access::GuidesWrite,
    hooks: Hooks {
        prepare,
        ..NO_HOOKS
    },
    inherits_from: None,
};

/// `productIds`: a list of product ids, stored as a JSON array.
fn product_ids_column(value: &Value, pointer: &str) -> ColumnsOf {
    let Some(list) = value.as_array() else {
        return Err(vec![Violation::new(
            "VIOLATION::TYPE_ERROR",
            pointer,
            "This value should be a list of product ids.",
        )]);
    };
    if list.len() > MAX_PRODUCTS {
        return Err(vec![Violation::new(
            "VIOLATION::TOO_MANY_ELEMENTS_ERROR",
            pointer,
            format!("A template holds at most {MAX_PRODUCTS} products."),
        )]);
    }
    let mut ids = Vec::with_capacity(list.len());
    let mut violations = Vec::new();
    for (index, item) in list.iter().enumerate() {
        match item.as_str().map(str::to_lowercase) {
            Some(id) if is_id(&id) => {
                if !ids.contains(&id) {
                    ids.push(id)
                }
            }
            _ => violations.push(Violation::new(
                "VIOLATION::INVALID_ID",
                format!("{pointer}/{index}"),
                "This is not a valid id.",
            )),
        }
    }
    if !violations.is_empty() {
        return Err(violations);
    }
    Ok(vec![("product_ids", SqlValue::Text(json_ids(&ids)))])
}

fn read_product_ids(conn: &Connection, ids: &[String]) -> ValuesById {
    let mut statement =
        conn.prepare("SELECT id, product_ids FROM dsr_interaction_template WHERE id IN (SELECT value FROM json_each(?1))")?;
    let rows = statement.query_map([json_ids(ids)], |r| {
        let list: String = r.get(1)?;
        Ok((
            r.get::<_, String>(0)?,
            serde_json::from_str(&list).unwrap_or(Value::Array(Vec::new())),
        ))
    })?;
    rows.collect::<rusqlite::Result<HashMap<_, _>>>()
}

fn text(value: Option<&SqlValue>) -> Option<String> {
    match value {
        Some(SqlValue::Text(text)) => Some(text.clone()),
        _ => None,
    }
}

/// Checks the template as it will be stored (a PATCH merged with the stored row): the
/// products its type needs, all of them in the shop; an announcement's text; the limit
/// per appointment.
fn prepare(tx: &Transaction, w: &mut Write) -> ApiResult<()> {
    let stored: Option<(String, String, String, Option<String>)> = if w.creating {
        None
    } else {
        tx.query_row("SELECT appointment_id, type, product_ids, message FROM dsr_interaction_template WHERE id = ?1", [&w.id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .optional()?
    };
    let kind = text(w.get("type"))
        .or_else(|| stored.as_ref().map(|s| s.1.clone()))
        .unwrap_or_default();
    let products: Vec<String> = text(w.get("product_ids"))
        .or_else(|| stored.as_ref().map(|s| s.2.clone()))
        .and_then(|list| serde_json::from_str(&list).ok())
        .unwrap_or_default();
    let message = if w.has("message") {
        text(w.get("message"))
    } else {
        stored.as_ref().and_then(|s| s.3.clone())
    };
    let mut violations = Vec::new();
    let wanted = match kind.as_str() {
        "highlight-product" | "open-product-page" => Some((1, 1)),
        "instant-listing" => Some((1, MAX_PRODUCTS)),
        _ => None,
    };
    if let Some((min, max)) = wanted {
        if products.len() < min || products.len() > max {
            let detail = if min == max {
                format!("A \"{kind}\" template shows exactly one product.")
            } else {
                format!("An instant listing holds 1 to {max} products.")
            };
            violations.push(w.violation("VIOLATION::PRODUCT_COUNT", "productIds", detail));
        }
        for (index, product) in products.iter().enumerate() {
            let exists: bool = tx.query_row(
                "SELECT EXISTS(SELECT 1 FROM product WHERE id = ?1)",
                [product],
                |r| r.get(0),
            )?;
            if !exists {
                violations.push(w.violation(
                    "VIOLATION::ENTITY_DOES_NOT_EXIST",
                    &format!("productIds/{index}"),
                    format!("There is no product {product}."),
                ));
            }
        }
    } else if kind == "message"
        && message
            .as_deref()
            .map(str::trim)
            .unwrap_or_default()
            .is_empty()
    {
        violations.push(w.violation(
            "VIOLATION::IS_BLANK_ERROR",
            "message",
            "An announcement needs its text.",
        ));
    }
    if !violations.is_empty() {
        return Err(ApiError::Violations(violations));
    }
    if w.creating {
        w.set("created_at", now_rfc3339());
        if !w.has("product_ids") {
            w.set("product_ids", "[]".to_owned());
        }
        let appointment = text(w.get("appointment_id")).unwrap_or_default();
        let count: i64 = tx.query_row(
            "SELECT COUNT(*) FROM dsr_interaction_template WHERE appointment_id = ?1",
            [&appointment],
            |r| r.get(0),
        )?;
        if count >= MAX_PER_APPOINTMENT {
            return Err(ApiError::bad_request(
                TOO_MANY,
                format!("An appointment keeps at most {MAX_PER_APPOINTMENT} interaction templates; delete some first."),
            )
            .at(&w.pointer));
        }
        if !w.has("position") {
            w.set("position", count);
        }
    }
    Ok(())
}
