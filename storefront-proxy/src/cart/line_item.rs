//! The cart calls: `GET|DELETE /checkout/cart`, `POST|PATCH|DELETE
//! /checkout/cart/line-item`, `POST /checkout/cart/line-item/delete`. Every answer
//! is the recalculated cart, with the session token in the header. Every change emits
//! [`ShopEvent::CartChanged`] (emptying the cart too).

use axum::extract::State;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rusqlite::{params, OptionalExtension};
use serde_json::Value;

use super::calculate;
use super::model::CartError;
use super::store;
use crate::error::{ApiError, ApiResult};
use crate::shop_event::ShopEvent;
use crate::state::App;
use crate::storage::is_id;
use crate::store_api::ShopContext;
use crate::store_api::{RequestParams, CONTEXT_TOKEN_HEADER};

/// The largest quantity one request may put in.
const MAX_QUANTITY: i64 = 100_000;

fn respond(token: &str, cart: Value) -> Response {
    let mut response = Json(cart).into_response();
    // No token: a guide's call through the Admin API (the attendee's token is not kept).
    if let Some(value) = Some(token)
        .filter(|t| !t.is_empty())
        .and_then(|t| HeaderValue::from_str(t).ok())
    {
        response.headers_mut().insert(CONTEXT_TOKEN_HEADER, value);
    }
    response
}

/// The shop event of a changed cart, with its summary: product lines and total.
fn cart_changed(token: &str, cart: &Value) -> ShopEvent {
    ShopEvent::cart_changed(token, cart)
}

fn line_item_not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "CHECKOUT__CART_LINE_ITEM_NOT_FOUND",
        format!("Line item with identifier {id} not found."),
    )
}

fn line_item_not_removable(id: &str) -> ApiError {
    ApiError::bad_request(
        "CHECKOUT__CART_LINE_ITEM_NOT_REMOVABLE",
        format!("Line item with identifier {id} is not removable."),
    )
}

fn invalid(pointer: String, detail: impl Into<String>) -> ApiError {
    ApiError::bad_request("CHECKOUT__CART_INVALID_LINE_ITEM", detail).at(&pointer)
}

/// `GET /store-api/checkout/cart`
pub async fn get_cart(ctx: ShopContext, State(app): State<App>) -> ApiResult<Response> {
    let (token, cart) = app
        .db
        .call(move |conn| {
            // A read: a new session is answered but not stored (issue #29, item 10).
            let session = ctx.peek_session();
            let cart = calculate::calculate(conn, &ctx, &session.key, Vec::new())?;
            Ok((session.token, cart))
        })
        .await?;
    Ok(respond(&token, cart))
}

/// `DELETE /store-api/checkout/cart`: 204.
pub async fn delete_cart(ctx: ShopContext, State(app): State<App>) -> ApiResult<Response> {
    if let Some(token) = ctx.token.clone() {
        let key = token.clone();
        app.db
            .call(move |conn| Ok(conn.execute("DELETE FROM cart WHERE token = ?1", [key])?))
            .await?;
        app.events.emit(ShopEvent::emptied_cart(token)).await;
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

struct NewItem {
    id: String,
    kind: String,
    referenced_id: String,
    quantity: i64,
}

fn quantity_of(item: &Value, pointer: &str) -> Result<i64, ApiError> {
    match item.get("quantity") {
        None | Some(Value::Null) => Ok(1),
        Some(value) => crate::catalog::criteria::integer(value)
            .filter(|q| (1..=MAX_QUANTITY).contains(q))
            .ok_or_else(|| {
                ApiError::bad_request(
                    "CHECKOUT__CART_INVALID_LINE_ITEM_QUANTITY",
                    format!("The quantity must be a whole number from 1 to {MAX_QUANTITY}."),
                )
                .at(&format!("{pointer}/quantity"))
            }),
    }
}

fn items_of(body: &serde_json::Map<String, Value>) -> Result<&Vec<Value>, ApiError> {
    match body.get("items") {
        Some(Value::Array(items)) if !items.is_empty() => Ok(items),
        _ => Err(ApiError::bad_request(
            "CHECKOUT__CART_INVALID_LINE_ITEM",
            "The request needs a non-empty list of items.",
        )
        .at("/items")),
    }
}

/// `POST /store-api/checkout/cart/line-item`: adds products (`type: product`,
/// `referencedId` a product id) and promotion codes (`type: promotion`,
/// `referencedId` the code).
pub async fn add(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let mut new_items = Vec::new();
    for (index, item) in items_of(&body)?.iter().enumerate() {
        let pointer = format!("/items/{index}");
        let kind = item
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("product")
            .to_owned();
        let referenced = item
            .get("referencedId")
            .or_else(|| item.get("id"))
            .and_then(Value::as_str)
            .map(str::trim)
            .unwrap_or_default()
            .to_owned();
        match kind.as_str() {
            "product" => {
                let referenced = referenced.to_lowercase();
                if !is_id(&referenced) {
                    return Err(invalid(
                        format!("{pointer}/referencedId"),
                        "A product line item needs the product id as referencedId.",
                    ));
                }
                let id = item
                    .get("id")
                    .and_then(Value::as_str)
                    .map(str::to_lowercase)
                    .unwrap_or_else(|| referenced.clone());
                if id.is_empty() || id.len() > 64 {
                    return Err(invalid(
                        format!("{pointer}/id"),
                        "The line item id is invalid.",
                    ));
                }
                new_items.push(NewItem {
                    id,
                    kind,
                    referenced_id: referenced,
                    quantity: quantity_of(item, &pointer)?,
                });
            }
            "promotion" => {
                if referenced.is_empty() || referenced.len() > 255 {
                    return Err(invalid(
                        format!("{pointer}/referencedId"),
                        "A promotion line item needs the code as referencedId.",
                    ));
                }
                new_items.push(NewItem {
                    id: String::new(),
                    kind,
                    referenced_id: referenced,
                    quantity: 1,
                });
            }
            other => {
                return Err(ApiError::bad_request(
                    "CHECKOUT__CART_LINE_ITEM_TYPE_NOT_SUPPORTED",
                    format!("Line item type \"{other}\" is not supported."),
                )
                .at(&format!("{pointer}/type")))
            }
        }
    }
    let (session, cart) = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let session = ctx.ensure_session(&tx)?;
            let token = session.key.clone();
            let mut errors = Vec::new();
            for item in new_items {
                if item.kind == "promotion" {
                    match store::promotion(&tx, &ctx, &item.referenced_id)? {
                        Some(promotion) => store::add_item(
                            &tx,
                            &token,
                            &promotion.id,
                            "promotion",
                            &item.referenced_id,
                            1,
                        )?,
                        None => errors.push(CartError::promotion_not_found(&item.referenced_id)),
                    }
                } else {
                    store::add_item(
                        &tx,
                        &token,
                        &item.id,
                        &item.kind,
                        &item.referenced_id,
                        item.quantity,
                    )?;
                }
            }
            tx.commit()?;
            let cart = calculate::calculate(conn, &ctx, &token, errors)?;
            Ok((session, cart))
        })
        .await?;
    app.events.emit(cart_changed(&session.key, &cart)).await;
    Ok(respond(&session.token, cart))
}

/// `PATCH /store-api/checkout/cart/line-item`: new quantities of existing items.
pub async fn update(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let mut changes = Vec::new();
    for (index, item) in items_of(&body)?.iter().enumerate() {
        let pointer = format!("/items/{index}");
        let id = item
            .get("id")
            .and_then(Value::as_str)
            .map(str::to_lowercase)
            .ok_or_else(|| invalid(format!("{pointer}/id"), "A line item id is needed."))?;
        changes.push((id, quantity_of(item, &pointer)?));
    }
    let (session, cart) = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let session = ctx.ensure_session(&tx)?;
            let token = session.key.clone();
            for (id, quantity) in &changes {
                let changed = tx.execute(
                    "UPDATE cart_line_item SET quantity = CASE WHEN type IN ('promotion', 'discount') THEN 1 ELSE ?1 END WHERE token = ?2 AND id = ?3",
                    params![quantity, token, id],
                )?;
                if changed == 0 {
                    return Ok(Err(line_item_not_found(id)));
                }
            }
            tx.commit()?;
            let cart = calculate::calculate(conn, &ctx, &token, Vec::new())?;
            Ok(Ok((session, cart)))
        })
        .await??;
    app.events.emit(cart_changed(&session.key, &cart)).await;
    Ok(respond(&session.token, cart))
}

async fn remove_ids(ctx: ShopContext, app: App, ids: Vec<String>) -> ApiResult<Response> {
    if ids.is_empty() {
        return Err(ApiError::bad_request(
            "CHECKOUT__CART_INVALID_LINE_ITEM",
            "The request needs ids of line items.",
        )
        .at("/ids"));
    }
    let (session, cart) = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let session = ctx.ensure_session(&tx)?;
            let token = session.key.clone();
            for id in &ids {
                // The guide's discount is the guide's to take back (`remove-temp-discount`,
                // or a new one of 0), as Shopware's `removable: false`.
                let kind: Option<String> = tx
                    .query_row(
                        "SELECT type FROM cart_line_item WHERE token = ?1 AND id = ?2",
                        params![token, id],
                        |r| r.get(0),
                    )
                    .optional()?;
                match kind.as_deref() {
                    None => return Ok(Err(line_item_not_found(id))),
                    Some("discount") => return Ok(Err(line_item_not_removable(id))),
                    Some(_) => {}
                }
                tx.execute(
                    "DELETE FROM cart_line_item WHERE token = ?1 AND id = ?2",
                    params![token, id],
                )?;
            }
            tx.commit()?;
            let cart = calculate::calculate(conn, &ctx, &token, Vec::new())?;
            Ok(Ok((session, cart)))
        })
        .await??;
    app.events.emit(cart_changed(&session.key, &cart)).await;
    Ok(respond(&session.token, cart))
}

fn ids_of(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_lowercase)
            .collect(),
        Some(Value::String(s)) => s
            .split('|')
            .filter(|s| !s.is_empty())
            .map(str::to_lowercase)
            .collect(),
        _ => Vec::new(),
    }
}

/// `POST /store-api/checkout/cart/line-item/delete` with `ids`.
pub async fn remove(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    remove_ids(ctx, app, ids_of(body.get("ids"))).await
}

/// `DELETE /store-api/checkout/cart/line-item?ids[]=…` (or `ids=a|b`).
pub async fn remove_by_query(
    ctx: ShopContext,
    State(app): State<App>,
    uri: axum::http::Uri,
) -> ApiResult<Response> {
    let pairs: Vec<(String, String)> = axum::extract::Query::try_from_uri(&uri)
        .map(|q| q.0)
        .unwrap_or_default();
    let mut ids = Vec::new();
    for (key, value) in pairs {
        if key == "ids" || key.starts_with("ids[") {
            ids.extend(
                value
                    .split('|')
                    .filter(|s| !s.is_empty())
                    .map(str::to_lowercase),
            );
        }
    }
    remove_ids(ctx, app, ids).await
}
