//! The Admin API's order actions, in Shopware's routes and shapes (admins only):
//!
//! - `POST /api/_action/order/{id}/state/{transition}`, the same for
//!   `order_transaction` and `order_delivery`, and Shopware's generic
//!   `POST /api/_action/state-machine/{entity}/{id}/state/{transition}`: the new
//!   `StateMachineState` (`order::transition`; an illegal action is
//!   `SYSTEM__ILLEGAL_STATE_TRANSITION`, 400, naming the possible ones);
//! - `GET /api/_action/state-machine/{entity}/{id}/state`: `{"transitions": […]}`;
//! - `POST /api/_action/order/{orderId}/document/{documentType}` (`invoice`,
//!   `credit_note`, `delivery_note`, `storno`): `{"documentId", "documentNumber",
//!   "documentDeepLink"}`, and Shopware's bulk
//!   `POST /api/_action/order/document/{documentType}/create` (`[{"orderId", …}]`):
//!   `{"data": [{"documentId", "documentMediaId", "documentDeepLink"}], "errors": {}}`;
//! - `GET /api/_action/document/{id}/{deepLinkCode}` (`?download=1`): the PDF.

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rusqlite::{Connection, OptionalExtension, Transaction};
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::entities::order::admin_context;
use super::in_transaction;
use crate::admin::oauth::Role;
use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::order::document;
use crate::order::document_type::DOCUMENT_TYPES;
use crate::order::load::{self, Associations};
use crate::order::state::{Locale, Machine};
use crate::order::transition;
use crate::state::App;
use crate::storage::is_id;
use crate::store_api::RequestParams;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/_action/order/{id}/state/{transition}", post(order_state))
        .route(
            "/_action/order_transaction/{id}/state/{transition}",
            post(transaction_state),
        )
        .route(
            "/_action/order_delivery/{id}/state/{transition}",
            post(delivery_state),
        )
        .route("/_action/state-machine/{entity}/{id}/state", get(available))
        .route(
            "/_action/state-machine/{entity}/{id}/state/{transition}",
            post(machine_state),
        )
        .route(
            "/_action/order/{id}/document/{document_type}",
            post(create_document),
        )
        .route(
            "/_action/order/document/{document_type}/create",
            post(create_documents),
        )
        .route("/_action/document/{id}/{deep_link_code}", get(download))
}

fn admins_only(user: &AdminUser, entity: &str, privilege: &str) -> ApiResult<()> {
    if user.role == Role::Admin {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        "FRAMEWORK__MISSING_PRIVILEGE_ERROR",
        format!("Missing privilege {entity}:{privilege}: only admins may do this."),
    ))
}

fn machine_of(entity: &str) -> ApiResult<Machine> {
    match entity.replace('-', "_").as_str() {
        "order" => Ok(Machine::Order),
        "order_transaction" => Ok(Machine::Transaction),
        "order_delivery" => Ok(Machine::Delivery),
        other => Err(ApiError::not_found(
            "FRAMEWORK__DEFINITION_NOT_FOUND",
            format!("Definition for entity \"{other}\" does not exist."),
        )),
    }
}

/// The shop's language for the names of states.
fn shop_locale(conn: &Connection) -> rusqlite::Result<Locale> {
    let language: String = conn.query_row(
        "SELECT language_id FROM sales_channel ORDER BY rowid LIMIT 1",
        [],
        |r| r.get(0),
    )?;
    Locale::of(conn, &language)
}

async fn transition_state(
    user: AdminUser,
    app: App,
    machine: Machine,
    id: String,
    action: String,
) -> ApiResult<Json<Value>> {
    admins_only(&user, machine.entity(), "update")?;
    let id = id.to_lowercase();
    if !is_id(&id) {
        return Err(transition::entity_not_found(machine, &id));
    }
    let user_id = user.id.clone();
    let state = in_transaction(&app, move |tx| {
        let changed = transition::apply(tx, machine, &id, &action, Some(&user_id))?;
        Ok(machine.state(changed.to, shop_locale(tx)?))
    })
    .await?;
    Ok(Json(state))
}

async fn order_state(
    user: AdminUser,
    State(app): State<App>,
    Path((id, action)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    transition_state(user, app, Machine::Order, id, action).await
}

async fn transaction_state(
    user: AdminUser,
    State(app): State<App>,
    Path((id, action)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    transition_state(user, app, Machine::Transaction, id, action).await
}

async fn delivery_state(
    user: AdminUser,
    State(app): State<App>,
    Path((id, action)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    transition_state(user, app, Machine::Delivery, id, action).await
}

async fn machine_state(
    user: AdminUser,
    State(app): State<App>,
    Path((entity, id, action)): Path<(String, String, String)>,
) -> ApiResult<Json<Value>> {
    let machine = machine_of(&entity)?;
    transition_state(user, app, machine, id, action).await
}

async fn available(
    user: AdminUser,
    State(app): State<App>,
    Path((entity, id)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let machine = machine_of(&entity)?;
    admins_only(&user, machine.entity(), "read")?;
    let id = id.to_lowercase();
    if !is_id(&id) {
        return Err(transition::entity_not_found(machine, &id));
    }
    let answer = app
        .db
        .read(move |conn| {
            Ok(transition::available(
                conn,
                machine,
                &id,
                shop_locale(conn)?,
            ))
        })
        .await??;
    Ok(Json(answer))
}

fn invalid_type(kind: &str) -> ApiError {
    ApiError::bad_request(
        "DOCUMENT__INVALID_GENERATOR_TYPE",
        format!("Unable to find a document generator with type \"{kind}\""),
    )
}

fn order_not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "DOCUMENT__ORDER_NOT_FOUND",
        format!("The order with id {id} is invalid or could not be found."),
    )
}

/// Writes a document of `kind` for the order `order_id`; a credit note or cancellation
/// invoice refers to `referenced` or else the order's latest invoice.
fn generate(
    tx: &Transaction,
    kind: &str,
    order_id: &str,
    referenced: Option<&str>,
) -> ApiResult<(String, String, String)> {
    let ctx = admin_context(tx)?;
    let Some(order) = load::load(tx, &ctx, &[order_id.to_owned()], Associations::ALL)?.pop() else {
        return Err(order_not_found(order_id));
    };
    let language = order["languageId"].as_str().unwrap_or_default().to_owned();
    let locale = Locale::of(tx, &language)?;
    let refers_to: Option<(String, String)> = if kind == "storno" || kind == "credit_note" {
        let found: Option<(String, String)> = tx
            .query_row(
                "SELECT id, document_number FROM order_document
                 WHERE order_id = ?1 AND document_type = 'invoice' AND (?2 IS NULL OR id = ?2)
                 ORDER BY created_at DESC, rowid DESC LIMIT 1",
                rusqlite::params![order_id, referenced],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        match found {
            Some(found) => Some(found),
            None => {
                return Err(ApiError::bad_request(
                    "DOCUMENT__GENERATION_ERROR",
                    format!("Unable to generate document. Can not generate {kind} document because no invoice document exists. OrderId: {order_id}"),
                ))
            }
        }
    } else {
        None
    };
    let (id, code) = document::create_document(
        tx,
        kind,
        &order,
        locale,
        refers_to.as_ref().map(|(i, n)| (i.as_str(), n.as_str())),
    )?;
    let number: String = tx.query_row(
        "SELECT document_number FROM order_document WHERE id = ?1",
        [&id],
        |r| r.get(0),
    )?;
    tracing::info!(%order_id, document_id = %id, kind, "document created");
    Ok((id, number, code))
}

fn document_type(kind: &str) -> ApiResult<String> {
    DOCUMENT_TYPES
        .iter()
        .find(|(k, _, _)| *k == kind)
        .map(|(k, _, _)| (*k).to_owned())
        .ok_or_else(|| invalid_type(kind))
}

fn referenced_id(body: &Map<String, Value>, pointer: &str) -> ApiResult<Option<String>> {
    match body.get("referencedDocumentId") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(id)) if is_id(id) => Ok(Some(id.clone())),
        Some(_) => Err(ApiError::bad_request(
            "FRAMEWORK__INVALID_UUID",
            "The value of referencedDocumentId is not a valid id.",
        )
        .at(&format!("{pointer}/referencedDocumentId"))),
    }
}

/// `POST /api/_action/order/{orderId}/document/{documentType}`
async fn create_document(
    user: AdminUser,
    State(app): State<App>,
    Path((order_id, kind)): Path<(String, String)>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    admins_only(&user, "document", "create")?;
    let kind = document_type(&kind)?;
    let order_id = order_id.to_lowercase();
    if !is_id(&order_id) {
        return Err(order_not_found(&order_id));
    }
    let referenced = referenced_id(&body, "")?;
    let (id, number, code) = in_transaction(&app, move |tx| {
        generate(tx, &kind, &order_id, referenced.as_deref())
    })
    .await?;
    Ok(Json(json!({
        "documentId": id,
        "documentNumber": number,
        "documentDeepLink": code,
        "documentMediaId": null,
    })))
}

/// `POST /api/_action/order/document/{documentType}/create` with `[{"orderId", …}]`:
/// one document per order; an order that fails is named in `errors`.
async fn create_documents(
    user: AdminUser,
    State(app): State<App>,
    Path(kind): Path<String>,
    crate::error::Body(body): crate::error::Body<Value>,
) -> ApiResult<Json<Value>> {
    admins_only(&user, "document", "create")?;
    let kind = document_type(&kind)?;
    let Some(operations) = body.as_array().filter(|list| !list.is_empty()) else {
        return Err(ApiError::bad_request(
            "FRAMEWORK__INVALID_REQUEST_PARAMETER",
            "The parameter \"Request parameters must be an array of documents object\" is invalid.",
        ));
    };
    let mut wanted = Vec::new();
    for (n, operation) in operations.iter().take(100).enumerate() {
        let pointer = format!("/{n}");
        let order_id = operation
            .get("orderId")
            .and_then(Value::as_str)
            .map(str::to_lowercase)
            .filter(|id| is_id(id))
            .ok_or_else(|| {
                ApiError::bad_request("FRAMEWORK__INVALID_UUID", "orderId is not a valid id.")
                    .at(&format!("{pointer}/orderId"))
            })?;
        let referenced = match operation.as_object() {
            Some(fields) => referenced_id(fields, &pointer)?,
            None => None,
        };
        wanted.push((order_id, referenced));
    }
    let answer = in_transaction(&app, move |tx| {
        let mut data = Vec::new();
        let mut errors = Map::new();
        for (order_id, referenced) in wanted {
            match generate(tx, &kind, &order_id, referenced.as_deref()) {
                Ok((id, _, code)) => data.push(json!({
                    "documentId": id,
                    "documentMediaId": null,
                    "documentDeepLink": code,
                })),
                Err(ApiError::Client {
                    status,
                    code,
                    detail,
                    ..
                }) => {
                    errors.insert(
                        order_id,
                        json!([{ "status": status.as_u16().to_string(), "code": code, "title": status.canonical_reason(), "detail": detail }]),
                    );
                }
                Err(other) => return Err(other),
            }
        }
        Ok(json!({ "data": data, "errors": errors }))
    })
    .await?;
    Ok(Json(answer))
}

#[derive(Deserialize)]
struct DownloadQuery {
    download: Option<String>,
}

/// `GET /api/_action/document/{id}/{deepLinkCode}`: the PDF (`?download=1`: as an
/// attachment).
async fn download(
    user: AdminUser,
    State(app): State<App>,
    Path((id, code)): Path<(String, String)>,
    Query(query): Query<DownloadQuery>,
) -> ApiResult<Response> {
    admins_only(&user, "document", "read")?;
    let id = id.to_lowercase();
    let lookup = id.clone();
    let found: Option<(String, Vec<u8>)> = app
        .db
        .read(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT file_name, content FROM order_document WHERE id = ?1 AND deep_link_code = ?2",
                    [&lookup, &code],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?)
        })
        .await?;
    let Some((file_name, content)) = found else {
        return Err(ApiError::not_found(
            "DOCUMENT__DOCUMENT_NOT_FOUND",
            format!("The document with id \"{id}\" is invalid or could not be found."),
        ));
    };
    let disposition = if query.download.is_some_and(|d| d == "1" || d == "true") {
        "attachment"
    } else {
        "inline"
    };
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("{disposition}; filename=\"{file_name}.pdf\""),
            ),
        ],
        content,
    )
        .into_response())
}
