//! `POST /api/_action/sync`: Shopware's bulk write. The body is an object of named
//! operations (`{"write-product": {"entity": "product", "action": "upsert", "payload": […]}}`)
//! or, as in Shopware 6.5+, a list of them (`[{"key": …, "entity": …, "action": …, "payload": […]}]`).
//! `upsert` creates or updates each record (by `id`), `delete` deletes by `id`.
//!
//! All operations run in one transaction: the first failing record rolls back the
//! whole request, and its error's pointer names the operation, the record's index
//! and the field (`/write-product/3/productNumber`). The answer names the written
//! ids per entity (`data`), the deleted ones (`deleted`) and ids to delete that did
//! not exist (`notFound`).

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

use super::{authorize, definition, in_transaction, write};
use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult, Body, Violation};
use crate::state::App;
use crate::storage::is_id;

/// Records one sync request may carry (all operations together).
pub const MAX_RECORDS: usize = 5_000;

struct Operation {
    key: String,
    def: &'static super::definition::Definition,
    delete: bool,
    payload: Vec<Value>,
}

fn invalid(pointer: String, detail: impl Into<String>) -> ApiError {
    ApiError::Violations(vec![Violation::new(
        "FRAMEWORK__INVALID_SYNC_OPERATION",
        pointer,
        detail,
    )])
}

fn operations(body: &Value) -> ApiResult<Vec<Operation>> {
    let named: Vec<(String, &Value)> = match body {
        Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
        Value::Array(list) => list
            .iter()
            .enumerate()
            .map(|(n, v)| {
                (
                    v.get("key")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                        .unwrap_or_else(|| n.to_string()),
                    v,
                )
            })
            .collect(),
        _ => {
            return Err(invalid(
                String::new(),
                "The sync body is an object or a list of operations.",
            ))
        }
    };
    let mut found = Vec::new();
    let mut records = 0;
    for (key, operation) in named {
        let pointer = format!("/{key}");
        let Some(entity) = operation.get("entity").and_then(Value::as_str) else {
            return Err(invalid(
                format!("{pointer}/entity"),
                "An operation names its entity.",
            ));
        };
        let def = definition(entity).map_err(|_| {
            invalid(
                format!("{pointer}/entity"),
                format!("There is no entity \"{entity}\"."),
            )
        })?;
        let delete = match operation.get("action").and_then(Value::as_str) {
            Some("upsert") => false,
            Some("delete") => true,
            _ => {
                return Err(invalid(
                    format!("{pointer}/action"),
                    "The action is \"upsert\" or \"delete\".",
                ))
            }
        };
        let Some(payload) = operation.get("payload").and_then(Value::as_array) else {
            return Err(invalid(
                format!("{pointer}/payload"),
                "The payload is a list of records.",
            ));
        };
        records += payload.len();
        if records > MAX_RECORDS {
            return Err(invalid(
                pointer,
                format!("A sync request carries at most {MAX_RECORDS} records; split it."),
            ));
        }
        found.push(Operation {
            key,
            def,
            delete,
            payload: payload.clone(),
        });
    }
    Ok(found)
}

/// Prefixes the detail of an error with the record it is about, when it is not in
/// Shopware's violation shape already (which carries the pointer).
fn about(error: ApiError, pointer: &str) -> ApiError {
    match error {
        ApiError::Client {
            status,
            code,
            detail,
            pointer: None,
        } => ApiError::Client {
            status,
            code,
            detail: format!("{pointer}: {detail}"),
            pointer: Some(pointer.to_owned()),
        },
        other => other,
    }
}

pub async fn sync(
    user: AdminUser,
    State(app): State<App>,
    Body(body): Body<Value>,
) -> ApiResult<Json<Value>> {
    let operations = operations(&body)?;
    for operation in &operations {
        authorize(&user, operation.def, true)?;
    }
    // New passwords are hashed before the transaction, within the bound on hashing.
    let mut hashes = super::entities::user::Prehashed::default();
    for operation in operations.iter().filter(|operation| !operation.delete) {
        hashes.merge(
            super::entities::user::Prehashed::of(&app, operation.def, operation.payload.iter())
                .await?,
        );
    }
    let defs: Vec<&'static super::definition::Definition> =
        operations.iter().map(|o| o.def).collect();
    let answer = in_transaction(&app, move |tx| {
        hashes.during(|| {
            let mut written: BTreeMap<&str, Vec<String>> = BTreeMap::new();
            let mut deleted: BTreeMap<&str, Vec<String>> = BTreeMap::new();
            let mut not_found: BTreeMap<&str, Vec<String>> = BTreeMap::new();
            for operation in &operations {
                let def = operation.def;
                for (n, record) in operation.payload.iter().enumerate() {
                    let pointer = format!("/{}/{n}", operation.key);
                    if operation.delete {
                        let id = record
                            .get("id")
                            .and_then(Value::as_str)
                            .filter(|id| is_id(id));
                        let Some(id) = id else {
                            return Err(ApiError::Violations(vec![Violation::new(
                                "VIOLATION::INVALID_ID",
                                format!("{pointer}/id"),
                                "A record to delete names its id.",
                            )]));
                        };
                        if write::delete(tx, def, id).map_err(|e| about(e, &pointer))? {
                            deleted.entry(def.name).or_default().push(id.to_owned());
                        } else {
                            not_found.entry(def.name).or_default().push(id.to_owned());
                        }
                    } else {
                        let id = write::upsert(tx, def, record, &pointer)
                            .map_err(|e| about(e, &pointer))?;
                        written.entry(def.name).or_default().push(id);
                    }
                }
            }
            Ok(json!({ "data": written, "deleted": deleted, "notFound": not_found }))
        })
    })
    .await?;
    super::after_writing(&app, &defs).await?;
    Ok(Json(answer))
}
