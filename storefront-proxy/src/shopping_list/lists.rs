//! The Store API calls of shopping lists (logged-in customers with an account; guests
//! and anonymous sessions get `CHECKOUT__CUSTOMER_NOT_LOGGED_IN`). A list of another
//! customer answers as an unknown one (404). Each call checks its whole body first and
//! writes in one transaction.

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use rusqlite::params;
use serde_json::{json, Map, Value};

use super::records::{self, Owner};
use super::{
    invalid_ids, invalid_line_items, invalid_name, invalid_quantity, line_item_not_found,
    not_found, too_many_lists,
};
use super::{MAX_IDS, MAX_LISTS, MAX_NAME, MAX_QUANTITY};
use crate::account::logged_in::Registered;
use crate::cart::calculate::{self, StoredItem};
use crate::catalog::{self, criteria, purchasable};
use crate::error::{ApiError, ApiResult};
use crate::shop_event::ShopEvent;
use crate::state::App;
use crate::storage::is_id;
use crate::store_api::{search_result, RequestParams, ShopContext};

fn owner(user: &crate::account::logged_in::LoggedIn) -> Owner {
    Owner {
        customer_id: user.customer_id.clone(),
        sales_channel_id: user.ctx.sales_channel.id.clone(),
    }
}

fn path_id(id: &str, pointer: &str) -> ApiResult<String> {
    let id = id.to_lowercase();
    if is_id(&id) {
        Ok(id)
    } else {
        Err(catalog::invalid_id(&id, pointer))
    }
}

fn no_content() -> Response {
    StatusCode::NO_CONTENT.into_response()
}

/// `name`: trimmed, 1 to [`MAX_NAME`] characters.
fn name_of(body: &Map<String, Value>) -> ApiResult<String> {
    match body.get("name") {
        Some(Value::String(name))
            if !name.trim().is_empty() && name.trim().chars().count() <= MAX_NAME =>
        {
            Ok(name.trim().to_owned())
        }
        _ => Err(invalid_name()),
    }
}

/// `lineItems` (`{key: {id, quantity}}`, or a list of such objects): product ids with
/// quantities, the same product's quantities added up, in the order given.
fn line_items_of(body: &Map<String, Value>, required: bool) -> ApiResult<Vec<(String, i64)>> {
    let entries: Vec<(String, &Value)> = match body.get("lineItems") {
        None | Some(Value::Null) if !required => return Ok(Vec::new()),
        Some(Value::Object(items)) if items.len() <= MAX_IDS => items
            .iter()
            .map(|(key, item)| (format!("/lineItems/{key}"), item))
            .collect(),
        Some(Value::Array(items)) if items.len() <= MAX_IDS => items
            .iter()
            .enumerate()
            .map(|(index, item)| (format!("/lineItems/{index}"), item))
            .collect(),
        _ => return Err(invalid_line_items("/lineItems")),
    };
    if required && entries.is_empty() {
        return Err(invalid_line_items("/lineItems"));
    }
    let mut items: Vec<(String, i64)> = Vec::new();
    for (pointer, item) in entries {
        let id = item
            .get("id")
            .and_then(Value::as_str)
            .map(str::to_lowercase)
            .filter(|id| is_id(id));
        let Some(id) = id else {
            return Err(invalid_line_items(&format!("{pointer}/id")));
        };
        let quantity = item
            .get("quantity")
            .and_then(criteria::integer)
            .filter(|q| (1..=MAX_QUANTITY).contains(q));
        let Some(quantity) = quantity else {
            return Err(invalid_quantity(&format!("{pointer}/quantity")));
        };
        match items.iter_mut().find(|(known, _)| *known == id) {
            Some((_, total)) if *total + quantity > MAX_QUANTITY => {
                return Err(invalid_quantity(&format!("{pointer}/quantity")))
            }
            Some((_, total)) => *total += quantity,
            None => items.push((id, quantity)),
        }
    }
    Ok(items)
}

/// A list of ids under `key`: 1 to [`MAX_IDS`] of them (`optional`: absent is none).
fn ids_of(body: &Map<String, Value>, key: &str, optional: bool) -> ApiResult<Vec<String>> {
    let pointer = format!("/{key}");
    let items = match body.get(key) {
        None | Some(Value::Null) if optional => return Ok(Vec::new()),
        Some(Value::Array(items)) if !items.is_empty() && items.len() <= MAX_IDS => items,
        _ => return Err(invalid_ids(&pointer)),
    };
    let mut ids = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        match item.as_str().map(str::to_lowercase) {
            Some(id) if is_id(&id) => {
                if !ids.contains(&id) {
                    ids.push(id)
                }
            }
            _ => {
                return Err(catalog::invalid_id(
                    &item.to_string(),
                    &format!("{pointer}/{index}"),
                ))
            }
        }
    }
    Ok(ids)
}

/// The first of `items` that cannot be on a list, as the refusal.
fn check_products(
    conn: &rusqlite::Connection,
    ctx: &ShopContext,
    items: &[(String, i64)],
) -> rusqlite::Result<Result<(), ApiError>> {
    let ids: Vec<String> = items.iter().map(|(id, _)| id.clone()).collect();
    let products = purchasable::load(conn, ctx, &ids)?;
    for product_id in &ids {
        if !products.iter().any(|p| &p.id == product_id && p.listable()) {
            return Ok(Err(catalog::product_not_found(product_id)));
        }
    }
    Ok(Ok(()))
}

/// `POST /store-api/shopping-list` (`name`, optional `lineItems`): 201 `{id}`.
pub async fn create(
    Registered(user): Registered,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let name = name_of(&body)?;
    let items = line_items_of(&body, false)?;
    let owner = owner(&user);
    let ctx = user.ctx.clone();
    let id = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            if records::count(&tx, &owner)? >= MAX_LISTS {
                return Ok(Err(too_many_lists()));
            }
            if let Err(refused) = check_products(&tx, &ctx, &items)? {
                return Ok(Err(refused));
            }
            let id = records::insert(&tx, &owner, &name)?;
            if let Err(refused) = records::add_lines(&tx, &id, &items)? {
                return Ok(Err(refused));
            }
            tx.commit()?;
            Ok(Ok(id))
        })
        .await??;
    Ok((StatusCode::CREATED, Json(json!({ "id": id }))).into_response())
}

/// `DELETE /store-api/shopping-list` (`ids`): all of them the caller's, or none goes.
pub async fn delete(
    Registered(user): Registered,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let ids = ids_of(&body, "ids", false)?;
    let owner = owner(&user);
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            for id in &ids {
                if !records::owned(&tx, &owner, id)? {
                    return Ok(Err(not_found(id)));
                }
                tx.execute("DELETE FROM shopping_list WHERE id = ?1", [id])?;
            }
            tx.commit()?;
            Ok(Ok(()))
        })
        .await??;
    Ok(no_content())
}

/// Whether criteria ask for the line items' products
/// (`associations.lineItems.associations.product`).
fn wants_products(body: &Map<String, Value>) -> bool {
    body.get("associations")
        .and_then(|a| a.get("lineItems"))
        .and_then(|l| l.get("associations"))
        .and_then(|a| a.get("product"))
        .is_some()
}

/// `POST /store-api/shopping-lists` (criteria: `limit`, `page`, the products'
/// association; other criteria are not read): the caller's lists, newest first.
pub async fn search(
    Registered(user): Registered,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let number = |key: &str, code: &'static str| -> ApiResult<Option<i64>> {
        let max = MAX_LISTS as i64;
        match body.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => criteria::integer(value)
                .filter(|n| (1..=max).contains(n))
                .map(Some)
                .ok_or_else(|| {
                    ApiError::bad_request(
                        code,
                        format!("{key} must be a whole number from 1 to {max}."),
                    )
                    .at(&format!("/{key}"))
                }),
        }
    };
    let limit = number("limit", "FRAMEWORK__INVALID_LIMIT_QUERY")?;
    let page = number("page", "FRAMEWORK__INVALID_PAGE_QUERY")?.unwrap_or(1);
    let with_products = wants_products(&body);
    let owner = owner(&user);
    let ctx = user.ctx.clone();
    let body = app
        .db
        .call(move |conn| {
            let total = records::count(conn, &owner)?;
            let take = limit.unwrap_or(MAX_LISTS as i64);
            let ids = records::ids(conn, &owner, take, (page - 1) * take)?;
            let elements = records::load(conn, &ctx, &ids, with_products)?;
            Ok(search_result(
                "b2b_components_shopping_list",
                elements,
                total,
                page,
                limit,
            ))
        })
        .await?;
    Ok(Json(body))
}

/// `POST /store-api/shopping-list/{id}`: one of the caller's lists with its line items.
pub async fn read(
    Registered(user): Registered,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let id = path_id(&id, "/id")?;
    let with_products = wants_products(&body);
    let owner = owner(&user);
    let ctx = user.ctx.clone();
    let list = app
        .db
        .call(move |conn| {
            if !records::owned(conn, &owner, &id)? {
                return Ok(Err(not_found(&id)));
            }
            Ok(
                records::load(conn, &ctx, std::slice::from_ref(&id), with_products)?
                    .pop()
                    .ok_or_else(|| not_found(&id)),
            )
        })
        .await??;
    Ok(Json(list))
}

/// `POST /store-api/shopping-list/{id}/add` (`lineItems`): 204.
pub async fn add_line_items(
    Registered(user): Registered,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let id = path_id(&id, "/id")?;
    let items = line_items_of(&body, true)?;
    let owner = owner(&user);
    let ctx = user.ctx.clone();
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            if !records::owned(&tx, &owner, &id)? {
                return Ok(Err(not_found(&id)));
            }
            if let Err(refused) = check_products(&tx, &ctx, &items)? {
                return Ok(Err(refused));
            }
            if let Err(refused) = records::add_lines(&tx, &id, &items)? {
                return Ok(Err(refused));
            }
            tx.commit()?;
            Ok(Ok(()))
        })
        .await??;
    Ok(no_content())
}

/// `POST /store-api/shopping-list/line-item/remove`: `ids` (line items of the caller's
/// lists) and/or `productIds` (with `listId`, those products off that list); each named
/// one must be there, or nothing is removed.
pub async fn remove_line_items(
    Registered(user): Registered,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let ids = ids_of(&body, "ids", true)?;
    let product_ids = ids_of(&body, "productIds", true)?;
    let list_id = match body.get("listId") {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) => Some(path_id(id, "/listId")?),
        Some(other) => return Err(catalog::invalid_id(&other.to_string(), "/listId")),
    };
    if ids.is_empty() && product_ids.is_empty() {
        return Err(invalid_ids("/ids"));
    }
    if !product_ids.is_empty() && list_id.is_none() {
        return Err(ApiError::bad_request(
            "B2B__SHOPPING_LIST_INVALID_IDS",
            "productIds need the listId of their list.",
        )
        .at("/listId"));
    }
    let owner = owner(&user);
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let mut touched = Vec::new();
            for id in &ids {
                let Some(list) = records::list_of_line_item(&tx, &owner, id)? else { return Ok(Err(line_item_not_found(id))) };
                tx.execute("DELETE FROM shopping_list_line_item WHERE id = ?1", [id])?;
                touched.push(list);
            }
            if let Some(list) = list_id.filter(|_| !product_ids.is_empty()) {
                if !records::owned(&tx, &owner, &list)? {
                    return Ok(Err(not_found(&list)));
                }
                for product_id in &product_ids {
                    let removed = tx.execute(
                        "DELETE FROM shopping_list_line_item WHERE shopping_list_id = ?1 AND product_id = ?2",
                        params![list, product_id],
                    )?;
                    if removed == 0 {
                        return Ok(Err(line_item_not_found(product_id)));
                    }
                }
                touched.push(list);
            }
            for list in touched {
                records::touch(&tx, &list)?;
            }
            tx.commit()?;
            Ok(Ok(()))
        })
        .await??;
    Ok(no_content())
}

/// `POST /store-api/shopping-list/line-item/{id}/change-quantity` (`quantity`): 204.
pub async fn change_quantity(
    Registered(user): Registered,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let id = path_id(&id, "/id")?;
    let quantity = body
        .get("quantity")
        .and_then(criteria::integer)
        .filter(|q| (1..=MAX_QUANTITY).contains(q))
        .ok_or_else(|| invalid_quantity("/quantity"))?;
    let owner = owner(&user);
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(list) = records::list_of_line_item(&tx, &owner, &id)? else {
                return Ok(Err(line_item_not_found(&id)));
            };
            tx.execute(
                "UPDATE shopping_list_line_item SET quantity = ?1, updated_at = ?2 WHERE id = ?3",
                params![quantity, crate::storage::now_rfc3339(), id],
            )?;
            records::touch(&tx, &list)?;
            tx.commit()?;
            Ok(Ok(()))
        })
        .await??;
    Ok(no_content())
}

/// `PATCH /store-api/shopping-list/{id}/change-name` (`name`): 204.
pub async fn change_name(
    Registered(user): Registered,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let id = path_id(&id, "/id")?;
    let name = name_of(&body)?;
    let owner = owner(&user);
    app.db
        .call(move |conn| {
            if !records::owned(conn, &owner, &id)? {
                return Ok(Err(not_found(&id)));
            }
            conn.execute(
                "UPDATE shopping_list SET name = ?1, updated_at = ?2 WHERE id = ?3",
                params![name, crate::storage::now_rfc3339(), id],
            )?;
            Ok(Ok(()))
        })
        .await??;
    Ok(no_content())
}

/// `POST /store-api/shopping-list/{id}/duplicate` (`name`): a new list with the same
/// line items; `{id}` of the copy.
pub async fn duplicate(
    Registered(user): Registered,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let id = path_id(&id, "/id")?;
    let name = name_of(&body)?;
    let owner = owner(&user);
    let copy = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            if !records::owned(&tx, &owner, &id)? {
                return Ok(Err(not_found(&id)));
            }
            if records::count(&tx, &owner)? >= MAX_LISTS {
                return Ok(Err(too_many_lists()));
            }
            let items: Vec<(String, i64)> = records::lines(&tx, &id)?
                .into_iter()
                .map(|line| (line.product_id, line.quantity))
                .collect();
            let copy = records::insert(&tx, &owner, &name)?;
            if let Err(refused) = records::add_lines(&tx, &copy, &items)? {
                return Ok(Err(refused));
            }
            tx.commit()?;
            Ok(Ok(copy))
        })
        .await??;
    Ok(Json(json!({ "id": copy })))
}

/// `GET /store-api/shopping-list/{id}/summary`: the list priced as a cart of the
/// caller's context would be (`price`: net, total with shipping, positions, tax status),
/// without touching the caller's cart.
pub async fn summary(
    Registered(user): Registered,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let id = path_id(&id, "/id")?;
    let owner = owner(&user);
    let ctx = user.ctx.clone();
    let price = app
        .db
        .call(move |conn| {
            if !records::owned(conn, &owner, &id)? {
                return Ok(Err(not_found(&id)));
            }
            let extra: Vec<StoredItem> = records::lines(conn, &id)?
                .into_iter()
                .map(|line| StoredItem {
                    id: line.product_id.clone(),
                    kind: "product".into(),
                    referenced_id: line.product_id,
                    quantity: line.quantity,
                })
                .collect();
            // A token no cart has: only the list's lines are counted, nothing is stored.
            let token = format!("shopping-list-summary:{id}");
            let cart = calculate::calculate_with(conn, &ctx, &token, Vec::new(), extra)?;
            let price = &cart["price"];
            Ok(Ok(json!({
                "netPrice": price["netPrice"],
                "totalPrice": price["totalPrice"],
                "positionPrice": price["positionPrice"],
                "taxStatus": price["taxStatus"],
            })))
        })
        .await??;
    Ok(Json(json!({ "price": price })))
}

/// `POST /store-api/shopping-lists/add-to-cart` (`ids`): every line of the named lists
/// into the caller's cart (quantities of the same product add up); 204.
pub async fn add_to_cart(
    Registered(user): Registered,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let ids = ids_of(&body, "ids", false)?;
    let owner = owner(&user);
    let (ctx, token) = (user.ctx.clone(), user.token.clone());
    let cart_token = token.clone();
    let cart = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let mut quantities: Vec<(String, i64)> = Vec::new();
            let mut seen: HashMap<String, usize> = HashMap::new();
            for id in &ids {
                if !records::owned(&tx, &owner, id)? {
                    return Ok(Err(not_found(id)));
                }
                for line in records::lines(&tx, id)? {
                    match seen.get(&line.product_id) {
                        Some(&at) => quantities[at].1 += line.quantity,
                        None => {
                            seen.insert(line.product_id.clone(), quantities.len());
                            quantities.push((line.product_id, line.quantity));
                        }
                    }
                }
            }
            for (product_id, quantity) in &quantities {
                calculate::add_item(
                    &tx,
                    &cart_token,
                    product_id,
                    "product",
                    product_id,
                    *quantity,
                )?;
            }
            tx.commit()?;
            Ok(Ok(calculate::calculate(
                conn,
                &ctx,
                &cart_token,
                Vec::new(),
            )?))
        })
        .await??;
    app.events
        .emit(ShopEvent::cart_changed(&token, &cart))
        .await;
    Ok(no_content())
}
