//! Promotions: a code, one discount (percentage or absolute, on the cart), a validity
//! window and a usage limit (orders that used it), as the cart applies them.

use std::collections::HashMap;

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, Transaction};
use serde_json::{json, Value};

use crate::admin_api::definition::{
    Access, Column, Definition, Extra, ExtraWrite, Hooks, Translation, Write, NO_HOOKS,
};
use crate::error::{ApiError, ApiResult, Violation};
use crate::storage::json_ids;

pub static PROMOTION: Definition = Definition {
    name: "promotion",
    table: "promotion",
    columns: &[
        Column::text("code", "code", 255).required().unique(),
        Column::boolean("active", "active"),
        Column::date("validFrom", "valid_from"),
        Column::date("validUntil", "valid_until"),
        Column::int(
            "maxRedemptionsGlobal",
            "max_redemptions_global",
            1,
            1_000_000_000,
        )
        .nullable(),
    ],
    translation: Some(Translation {
        table: "promotion_translation",
        key: "promotion_id",
        fields: &[Column::text("name", "name", 255).required()],
    }),
    extras: &[Extra {
        name: "discounts",
        write: ExtraWrite::Columns(discount_columns),
        read: read_discounts,
        filter: None,
    }],
    // Codes are always used (`useCodes`); this shop has one channel and no rules.
    ignored: &["useCodes", "salesChannels", "exclusive", "priority"],
    access: Access::GuidesRead,
    hooks: Hooks {
        prepare,
        ..NO_HOOKS
    },
    inherits_from: None,
};

/// `discounts: [{"type": "percentage"|"absolute", "value": …, "scope": "cart"}]`: one.
fn discount_columns(
    value: &Value,
    pointer: &str,
) -> Result<Vec<(&'static str, SqlValue)>, Vec<Violation>> {
    let Some([discount]) = value.as_array().map(Vec::as_slice) else {
        return Err(vec![Violation::new(
            "VIOLATION::TYPE_ERROR",
            pointer.to_owned(),
            "discounts must be a list with one discount.",
        )]);
    };
    let at = format!("{pointer}/0");
    let mut violations = Vec::new();
    let kind = discount
        .get("type")
        .and_then(Value::as_str)
        .filter(|t| ["percentage", "absolute"].contains(t));
    if kind.is_none() {
        violations.push(Violation::new(
            "VIOLATION::NO_SUCH_CHOICE_ERROR",
            format!("{at}/type"),
            "The value should be one of: percentage, absolute.",
        ));
    }
    let amount = discount
        .get("value")
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite() && *v > 0.0);
    match amount {
        None => violations.push(Violation::new(
            "VIOLATION::TOO_LOW_ERROR",
            format!("{at}/value"),
            "A discount is a number above 0.",
        )),
        Some(v) if kind == Some("percentage") && v > 100.0 => violations.push(Violation::new(
            "VIOLATION::TOO_HIGH_ERROR",
            format!("{at}/value"),
            "A percentage is at most 100.",
        )),
        _ => {}
    }
    if let Some(scope) = discount.get("scope").and_then(Value::as_str) {
        if scope != "cart" {
            violations.push(Violation::new(
                "VIOLATION::NO_SUCH_CHOICE_ERROR",
                format!("{at}/scope"),
                "Only cart discounts are supported.",
            ));
        }
    }
    match (kind, amount) {
        (Some(kind), Some(amount)) if violations.is_empty() => Ok(vec![
            ("discount_type", SqlValue::Text(kind.to_owned())),
            ("discount_value", SqlValue::Real(amount)),
        ]),
        _ => Err(violations),
    }
}

fn read_discounts(conn: &Connection, ids: &[String]) -> rusqlite::Result<HashMap<String, Value>> {
    let mut statement =
        conn.prepare("SELECT id, discount_type, discount_value FROM promotion WHERE id IN (SELECT value FROM json_each(?1))")?;
    let rows = statement.query_map([json_ids(ids)], |r| {
        Ok((r.get::<_, String>(0)?, json!([{ "type": r.get::<_, String>(1)?, "value": r.get::<_, f64>(2)?, "scope": "cart" }])))
    })?;
    rows.collect()
}

fn prepare(tx: &Transaction, w: &mut Write) -> ApiResult<()> {
    if w.creating && !w.has("discount_type") {
        return Err(ApiError::Violations(vec![Violation::blank(format!(
            "{}/discounts",
            w.pointer
        ))]));
    }
    // The window as it will be: the written ends, else the stored ones.
    let stored: (Option<String>, Option<String>) = if w.creating {
        (None, None)
    } else {
        tx.query_row(
            "SELECT valid_from, valid_until FROM promotion WHERE id = ?1",
            [&w.id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?
    };
    let text = |value: Option<&SqlValue>, stored: Option<String>| match value {
        Some(SqlValue::Text(t)) => Some(t.clone()),
        Some(_) => None,
        None => stored,
    };
    let from = text(w.get("valid_from"), stored.0);
    let until = text(w.get("valid_until"), stored.1);
    if let (Some(from), Some(until)) = (from, until) {
        if until <= from {
            return Err(ApiError::Violations(vec![w.violation(
                "VIOLATION::INVALID_WINDOW",
                "validUntil",
                "validUntil should be after validFrom.",
            )]));
        }
    }
    Ok(())
}
