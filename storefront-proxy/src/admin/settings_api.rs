//! Shopware's system configuration through the Admin API: the shop's settings a
//! merchant edits that belong to no entity (the shop's name and the address its mails
//! come from, `core.basicInformation.*`).
//!
//! - `GET /api/_action/system-config?domain=core.basicInformation[&salesChannelId=…]`:
//!   the values of the domain's keys, an object keyed by the full key;
//! - `POST /api/_action/system-config[?salesChannelId=…]` with `{key: value}`: stores the
//!   values (null removes one), 204;
//! - `POST /api/_action/system-config/batch` with `{"null": {…}, "<salesChannelId>": {…}}`:
//!   the same for several sales channels at once (`null` is the shop-wide value), 204.
//!
//! Admins only. Keys are dotted names (`core.basicInformation.shopName`); the keys this
//! shop acts on are checked (a blank name, a broken e-mail address are 400s with their
//! pointers), any other key is kept as given, as Shopware keeps a plugin's settings.
//! The stored values live in `system_config` (migration 0140); the mail outbox reads its
//! sender from there (`mail::sender`).

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use rusqlite::{params, Connection, OptionalExtension};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::admin::oauth::Role;
use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult, Body, Violation};
use crate::mail;
use crate::state::App;
use crate::storage::now_rfc3339;

/// The shop's name: the sender's name of every mail.
pub const SHOP_NAME: &str = "core.basicInformation.shopName";
/// The shop's e-mail address: the sender of every mail, the recipient of contact requests.
pub const SHOP_EMAIL: &str = "core.basicInformation.email";

/// Longest key, and longest stored value (as JSON text).
const MAX_KEY: usize = 255;
const MAX_VALUE: usize = 16 * 1024;
/// Longest shop name.
const MAX_SHOP_NAME: usize = 100;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/_action/system-config", get(values).post(save))
        .route("/_action/system-config/batch", post(save_batch))
}

#[derive(Deserialize)]
struct ValuesQuery {
    #[serde(default)]
    domain: String,
    #[serde(rename = "salesChannelId")]
    sales_channel_id: Option<String>,
}

#[derive(Deserialize)]
struct SaveQuery {
    #[serde(rename = "salesChannelId")]
    sales_channel_id: Option<String>,
}

fn admins_only(user: &AdminUser) -> ApiResult<()> {
    if user.role == Role::Admin {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        "FRAMEWORK__MISSING_PRIVILEGE_ERROR",
        "Missing privilege system_config:read: only admins may do this.",
    ))
}

/// A sales channel id of the query: none (empty, `null`) is the shop-wide value.
fn channel(id: Option<String>) -> String {
    match id {
        Some(id) if id != "null" => id.to_lowercase(),
        _ => String::new(),
    }
}

/// `GET /api/_action/system-config`: the domain's values (every key, without a domain);
/// a sales channel's own values over the shop-wide ones.
async fn values(
    user: AdminUser,
    State(app): State<App>,
    Query(query): Query<ValuesQuery>,
) -> ApiResult<Json<Map<String, Value>>> {
    admins_only(&user)?;
    let channel = channel(query.sales_channel_id);
    let domain = query.domain.trim_end_matches('.').to_owned();
    let values = app
        .db
        .read(move |conn| Ok(domain_values(conn, &domain, &channel)?))
        .await?;
    Ok(Json(values))
}

/// The values of the keys under `domain` (all for an empty one): the shop-wide ones,
/// then the sales channel's over them; the shop's name and e-mail address always (their
/// values as mails use them).
pub fn domain_values(
    conn: &Connection,
    domain: &str,
    channel: &str,
) -> rusqlite::Result<Map<String, Value>> {
    let prefix = if domain.is_empty() {
        String::new()
    } else {
        format!("{domain}.")
    };
    let mut statement = conn.prepare_cached(
        "SELECT configuration_key, configuration_value FROM system_config
         WHERE substr(configuration_key, 1, length(?1)) = ?1 AND sales_channel_id IN ('', ?2)
         ORDER BY sales_channel_id, configuration_key",
    )?;
    let rows = statement.query_map(params![prefix, channel], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })?;
    let mut values = Map::new();
    for row in rows {
        let (key, text) = row?;
        values.insert(key, serde_json::from_str(&text).unwrap_or(Value::Null));
    }
    let (name, address) = mail::sender(conn)?;
    for (key, value) in [(SHOP_NAME, name), (SHOP_EMAIL, address)] {
        if key.starts_with(&prefix) {
            values.entry(key).or_insert(Value::String(value));
        }
    }
    Ok(values)
}

/// `POST /api/_action/system-config`: stores the body's values for one sales channel
/// (or shop-wide).
async fn save(
    user: AdminUser,
    State(app): State<App>,
    Query(query): Query<SaveQuery>,
    Body(body): Body<Map<String, Value>>,
) -> ApiResult<StatusCode> {
    admins_only(&user)?;
    let batch = vec![(channel(query.sales_channel_id), String::new(), body)];
    store(&app, batch).await
}

/// `POST /api/_action/system-config/batch`: `{"null" | salesChannelId: {key: value}}`.
async fn save_batch(
    user: AdminUser,
    State(app): State<App>,
    Body(body): Body<Map<String, Value>>,
) -> ApiResult<StatusCode> {
    admins_only(&user)?;
    let mut batch = Vec::new();
    for (channel_key, values) in body {
        let Value::Object(values) = values else {
            return Err(ApiError::Violations(vec![Violation::new(
                "VIOLATION::TYPE_ERROR",
                format!("/{channel_key}"),
                "The values of a sales channel must be an object of keys and values.",
            )]));
        };
        let pointer = format!("/{channel_key}");
        batch.push((channel(Some(channel_key)), pointer, values));
    }
    store(&app, batch).await
}

/// Checks every value of every sales channel, then stores them all in one transaction
/// (or none: any violation refuses the whole request).
async fn store(
    app: &App,
    batch: Vec<(String, String, Map<String, Value>)>,
) -> ApiResult<StatusCode> {
    let mut violations = Vec::new();
    let mut rows = Vec::new();
    for (channel, pointer, values) in batch {
        for (key, value) in values {
            let at = format!("{pointer}/{key}");
            match checked(&key, value, &at) {
                Ok(value) => rows.push((channel.clone(), key, value)),
                Err(violation) => violations.push(violation),
            }
        }
    }
    if !violations.is_empty() {
        return Err(ApiError::Violations(violations));
    }
    let unknown = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            for (channel, _, _) in &rows {
                let known: bool = channel.is_empty()
                    || tx
                        .query_row("SELECT 1 FROM sales_channel WHERE id = ?1", [channel], |_| Ok(()))
                        .optional()?
                        .is_some();
                if !known {
                    return Ok(Some(channel.clone()));
                }
            }
            let now = now_rfc3339();
            for (channel, key, value) in rows {
                match value {
                    None => {
                        tx.execute(
                            "DELETE FROM system_config WHERE configuration_key = ?1 AND sales_channel_id = ?2",
                            params![key, channel],
                        )?;
                    }
                    Some(value) => {
                        tx.execute(
                            "INSERT INTO system_config (configuration_key, sales_channel_id, configuration_value, updated_at)
                             VALUES (?1, ?2, ?3, ?4)
                             ON CONFLICT (configuration_key, sales_channel_id)
                             DO UPDATE SET configuration_value = excluded.configuration_value, updated_at = excluded.updated_at",
                            params![key, channel, value.to_string(), now],
                        )?;
                    }
                }
            }
            tx.commit()?;
            Ok(None)
        })
        .await?;
    if let Some(channel) = unknown {
        return Err(ApiError::not_found(
            "FRAMEWORK__ENTITY_NOT_FOUND",
            format!("Could not find sales_channel with id \"{channel}\"."),
        ));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// A value to store (none: remove the key), or why it is refused.
fn checked(key: &str, value: Value, pointer: &str) -> Result<Option<Value>, Violation> {
    let well_formed = key.len() <= MAX_KEY
        && key.contains('.')
        && key.split('.').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        });
    if !well_formed {
        return Err(Violation::new(
            "VIOLATION::TYPE_ERROR",
            pointer,
            "A configuration key is a dotted name of letters, digits, '_' and '-' (core.basicInformation.shopName).",
        ));
    }
    if value.is_null() {
        return Ok(None);
    }
    if value.to_string().len() > MAX_VALUE {
        return Err(Violation::new(
            "VIOLATION::TOO_LONG_ERROR",
            pointer,
            format!("A configuration value has {MAX_VALUE} characters at most (as JSON)."),
        ));
    }
    match key {
        SHOP_NAME => {
            let Value::String(name) = &value else {
                return Err(Violation::new(
                    "VIOLATION::TYPE_ERROR",
                    pointer,
                    "The shop's name must be a string.",
                ));
            };
            let name = name.trim();
            if name.is_empty() {
                return Err(Violation::blank(pointer));
            }
            if name.chars().count() > MAX_SHOP_NAME {
                return Err(Violation::new(
                    "VIOLATION::TOO_LONG_ERROR",
                    pointer,
                    format!("This value is too long. It should have {MAX_SHOP_NAME} characters or less."),
                ));
            }
            Ok(Some(Value::String(name.to_owned())))
        }
        SHOP_EMAIL => {
            let address = value.as_str().map(str::trim).unwrap_or_default();
            if address.is_empty() {
                return Err(Violation::blank(pointer));
            }
            if !mail::is_address(address) {
                return Err(Violation::new(
                    "VIOLATION::INVALID_EMAIL_FORMAT_ERROR",
                    pointer,
                    "This value is not a valid email address.",
                ));
            }
            Ok(Some(Value::String(address.to_lowercase())))
        }
        _ => Ok(Some(value)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_shops_name_and_address_are_checked_and_tidied() {
        assert_eq!(
            checked(SHOP_NAME, json!("  Kite shop "), "/x").unwrap(),
            Some(json!("Kite shop"))
        );
        assert_eq!(
            checked(SHOP_NAME, json!(" "), "/x").unwrap_err().code,
            "VIOLATION::IS_BLANK_ERROR"
        );
        assert_eq!(
            checked(SHOP_NAME, json!(3), "/x").unwrap_err().code,
            "VIOLATION::TYPE_ERROR"
        );
        assert_eq!(
            checked(SHOP_NAME, json!("x".repeat(101)), "/x")
                .unwrap_err()
                .code,
            "VIOLATION::TOO_LONG_ERROR"
        );
        assert_eq!(
            checked(SHOP_EMAIL, json!("Shop@Kites.Example"), "/x").unwrap(),
            Some(json!("shop@kites.example"))
        );
        let broken = checked(
            SHOP_EMAIL,
            json!("no address"),
            "/null/core.basicInformation.email",
        )
        .unwrap_err();
        assert_eq!(broken.code, "VIOLATION::INVALID_EMAIL_FORMAT_ERROR");
        assert_eq!(broken.pointer, "/null/core.basicInformation.email");
    }

    #[test]
    fn other_keys_are_kept_as_given_and_null_removes() {
        assert_eq!(
            checked("MyPlugin.config.flag", json!(true), "/x").unwrap(),
            Some(json!(true))
        );
        assert_eq!(checked(SHOP_NAME, Value::Null, "/x").unwrap(), None);
        for key in ["nodots", "a..b", "a.b c", ""] {
            assert_eq!(
                checked(key, json!(1), "/x").unwrap_err().code,
                "VIOLATION::TYPE_ERROR",
                "{key}"
            );
        }
    }
}
