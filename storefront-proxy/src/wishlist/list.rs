//! `customer_wishlist` and its products. One wishlist per customer and sales channel,
//! created by the first add or merge. Every change emits a shop event
//! ([`ShopEvent::WishlistChanged`], [`ShopEvent::WishlistMerged`]).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};

use crate::account::logged_in::Registered;
use crate::account::profile::success;
use crate::catalog::{self, criteria, product, query};
use crate::error::{ApiError, ApiResult};
use crate::shop_event::ShopEvent;
use crate::state::App;
use crate::storage::{is_id, json_ids, new_id, now_rfc3339};
use crate::store_api::RequestParams;

fn wishlist_not_found() -> ApiError {
    ApiError::not_found(
        "CHECKOUT__WISHLIST_NOT_FOUND",
        "Wishlist for this customer was not found.",
    )
}

fn product_not_on_wishlist(id: &str) -> ApiError {
    ApiError::not_found(
        "CHECKOUT__WISHLIST_PRODUCT_NOT_FOUND",
        format!("Wishlist product with id {id} not found"),
    )
}

fn duplicate_product() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "CHECKOUT__DUPLICATE_WISHLIST_PRODUCT",
        "Product already added in wishlist",
    )
}

fn product_ids_missing() -> ApiError {
    ApiError::bad_request(
        "CHECKOUT__PRODUCT_IDS_PARAMETER_IS_MISSING",
        "Parameter \"productIds\" is missing.",
    )
    .at("/productIds")
}

/// The id of the customer's wishlist in the sales channel, if any.
fn find(
    conn: &Connection,
    customer_id: &str,
    sales_channel_id: &str,
) -> rusqlite::Result<Option<String>> {
    conn.query_row(
        "SELECT id FROM customer_wishlist WHERE customer_id = ?1 AND sales_channel_id = ?2",
        [customer_id, sales_channel_id],
        |r| r.get(0),
    )
    .optional()
}

/// The customer's wishlist, created when missing.
fn find_or_create(
    conn: &Connection,
    customer_id: &str,
    sales_channel_id: &str,
) -> rusqlite::Result<String> {
    if let Some(id) = find(conn, customer_id, sales_channel_id)? {
        return Ok(id);
    }
    let id = new_id();
    conn.execute(
        "INSERT INTO customer_wishlist (id, customer_id, sales_channel_id, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![id, customer_id, sales_channel_id, now_rfc3339()],
    )?;
    Ok(id)
}

fn path_id(id: &str) -> ApiResult<String> {
    let id = id.to_lowercase();
    if is_id(&id) {
        Ok(id)
    } else {
        Err(catalog::invalid_id(&id, "/productId"))
    }
}

fn product_exists(conn: &Connection, id: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS(SELECT 1 FROM product WHERE id = ?1 AND active = 1)",
        [id],
        |r| r.get(0),
    )
}

/// `POST /store-api/customer/wishlist`: the wishlist and its products, read with the
/// catalogue's product criteria (filter, sort, limit, page, includes, associations);
/// without a sort, the last added first. 404 when the customer has none yet.
pub async fn load(
    Registered(user): Registered,
    State(app): State<App>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut criteria = criteria::parse(&params, "product", &query::product_field)?;
    let limit = *criteria.limit.get_or_insert(criteria::MAX_LIMIT.min(100));
    let page = criteria.page;
    let includes = std::mem::take(&mut criteria.includes);
    let load = catalog::load_of(&criteria);
    let ctx = user.ctx.clone();
    let body = app
        .db
        .call(move |conn| {
            let Some(wishlist_id) = find(conn, &user.customer_id, &ctx.sales_channel.id)? else {
                return Ok(Err(wishlist_not_found()));
            };
            let mut statement = conn.prepare_cached(
                "SELECT product_id FROM customer_wishlist_product WHERE wishlist_id = ?1 ORDER BY created_at DESC, rowid DESC",
            )?;
            let listed: Vec<String> = statement.query_map([&wishlist_id], |r| r.get(0))?.collect::<Result<_, _>>()?;
            // The criteria's own ids narrow the wishlist, never widen it.
            let ids: Vec<String> = match criteria.ids.take() {
                Some(wanted) => listed.iter().filter(|id| wanted.contains(id)).cloned().collect(),
                None => listed.clone(),
            };
            criteria.ids = Some(ids);
            if criteria.order.text.is_empty() {
                criteria.order.push("instr(:wishlist_order, p.id)");
                criteria.order.set(":wishlist_order", json_ids(&listed));
            }
            let (ids, total) = query::select(conn, &ctx.languages, &query::Selection::default(), &criteria, true)?;
            let elements = product::load(conn, &ctx, &ids, load)?;
            let navigation_id: Option<String> = conn
                .query_row("SELECT navigation_category_id FROM sales_channel WHERE id = ?1", [&ctx.sales_channel.id], |r| r.get(0))
                .optional()?
                .flatten();
            let mut products = json!({
                "elements": elements,
                "aggregations": [],
                "page": page,
                "limit": limit,
                "entity": "product",
                "total": total,
                "sorting": null,
                "currentFilters": {
                    "navigationId": navigation_id, "manufacturer": [], "price": { "min": 0, "max": 0 }, "rating": null,
                    "shipping-free": false, "properties": [],
                },
                "availableSortings": [],
                "apiAlias": "product_listing",
            });
            criteria::apply_includes(&mut products, &includes);
            let wishlist = json!({
                "id": wishlist_id,
                "customerId": user.customer_id,
                "salesChannelId": ctx.sales_channel.id,
                "apiAlias": "customer_wishlist",
            });
            Ok(Ok(json!({ "wishlist": wishlist, "products": products })))
        })
        .await??;
    Ok(Json(body))
}

/// `POST /store-api/customer/wishlist/add/{productId}`
pub async fn add(
    Registered(user): Registered,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let id = path_id(&id)?;
    let (token, product_id) = (user.token.clone(), id.clone());
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            if !product_exists(&tx, &id)? {
                return Ok(Err(catalog::product_not_found(&id)));
            }
            let wishlist_id = find_or_create(&tx, &user.customer_id, &user.ctx.sales_channel.id)?;
            let added = tx.execute(
                "INSERT INTO customer_wishlist_product (id, wishlist_id, product_id, created_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (wishlist_id, product_id) DO NOTHING",
                params![new_id(), wishlist_id, id, now_rfc3339()],
            )?;
            if added == 0 {
                return Ok(Err(duplicate_product()));
            }
            tx.execute("UPDATE customer_wishlist SET updated_at = ?1 WHERE id = ?2", params![now_rfc3339(), wishlist_id])?;
            tx.commit()?;
            Ok(Ok(()))
        })
        .await??;
    app.events
        .emit(ShopEvent::WishlistChanged {
            context_token: token,
            product_id,
            added: true,
        })
        .await;
    Ok(success())
}

/// `DELETE /store-api/customer/wishlist/delete/{productId}`
pub async fn remove(
    Registered(user): Registered,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let id = path_id(&id)?;
    let (token, product_id) = (user.token.clone(), id.clone());
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(wishlist_id) = find(&tx, &user.customer_id, &user.ctx.sales_channel.id)?
            else {
                return Ok(Err(wishlist_not_found()));
            };
            let removed = tx.execute(
                "DELETE FROM customer_wishlist_product WHERE wishlist_id = ?1 AND product_id = ?2",
                [&wishlist_id, &id],
            )?;
            if removed == 0 {
                return Ok(Err(product_not_on_wishlist(&id)));
            }
            tx.execute(
                "UPDATE customer_wishlist SET updated_at = ?1 WHERE id = ?2",
                params![now_rfc3339(), wishlist_id],
            )?;
            tx.commit()?;
            Ok(Ok(()))
        })
        .await??;
    app.events
        .emit(ShopEvent::WishlistChanged {
            context_token: token,
            product_id,
            added: false,
        })
        .await;
    Ok(success())
}

/// `POST /store-api/customer/wishlist/merge` (productIds): adds the products not yet
/// listed, skipping unknown ones, in one transaction; creates the wishlist if needed.
pub async fn merge(
    Registered(user): Registered,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let Some(Value::Array(items)) = body.get("productIds") else {
        return Err(product_ids_missing());
    };
    let mut ids = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item.as_str().map(str::to_lowercase) {
            Some(id) if is_id(&id) => ids.push(id),
            _ => {
                return Err(catalog::invalid_id(
                    &item.to_string(),
                    &format!("/productIds/{i}"),
                ))
            }
        }
    }
    let token = user.token.clone();
    let added = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let wishlist_id = find_or_create(&tx, &user.customer_id, &user.ctx.sales_channel.id)?;
            let now = now_rfc3339();
            let mut added = Vec::new();
            // In the given order, so the first of the local list counts as added first.
            for id in ids {
                if product_exists(&tx, &id)? {
                    let inserted = tx.execute(
                        "INSERT INTO customer_wishlist_product (id, wishlist_id, product_id, created_at) VALUES (?1, ?2, ?3, ?4)
                         ON CONFLICT (wishlist_id, product_id) DO NOTHING",
                        params![new_id(), wishlist_id, id, now],
                    )?;
                    if inserted > 0 {
                        added.push(id);
                    }
                }
            }
            tx.execute("UPDATE customer_wishlist SET updated_at = ?1 WHERE id = ?2", params![now, wishlist_id])?;
            tx.commit()?;
            Ok(added)
        })
        .await?;
    app.events
        .emit(ShopEvent::WishlistMerged {
            context_token: token,
            added,
        })
        .await;
    Ok(success())
}
