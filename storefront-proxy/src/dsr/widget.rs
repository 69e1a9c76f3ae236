//! The guide's widgets over the attendees' real data:
//! `GET /api/_action/dsr/appointment/{id}/widgets/` `wishlist` (also
//! `wishlist-statistics`: liked products), `last-seen-statistics`, `cart-statistics`
//! (all carts as one), `cart-insights` and `attendee-insights` (per attendee).

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, Uri};
use axum::Json;
use rusqlite::{params, Connection};
use serde_json::{json, Map, Value};

use super::appointment::{self, Appointment};
use super::listing::{self, RoomListing};
use crate::admin::AdminUser;
use crate::cart::calculate;
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::is_id;
use crate::store_api::ShopContext;

/// Client attendees of an appointment still in it: (id, context token).
fn clients(conn: &Connection, appointment_id: &str) -> rusqlite::Result<Vec<(String, String)>> {
    let mut statement = conn.prepare_cached(
        "SELECT id, context_token FROM attendee WHERE appointment_id = ?1 AND type = 'CLIENT' AND removed_at IS NULL ORDER BY joined_at, id",
    )?;
    let rows = statement.query_map([appointment_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

fn query_of(uri: &Uri) -> Map<String, Value> {
    let pairs: Vec<(String, String)> = axum::extract::Query::try_from_uri(uri)
        .map(|q| q.0)
        .unwrap_or_default();
    pairs
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect()
}

async fn appointment_and_context(
    app: &App,
    headers: &HeaderMap,
    id: String,
) -> ApiResult<(Appointment, ShopContext)> {
    let appointment = app
        .db
        .call(move |conn| Ok(Appointment::by_id(conn, &id)?))
        .await?
        .ok_or_else(appointment::not_found)?;
    let ctx = super::cart::shop_context(
        app,
        headers,
        Some(appointment.sales_channel_id.clone()),
        None,
    )
    .await?;
    Ok((appointment, ctx))
}

/// The attendee filter of a widget: an attendee of this appointment.
fn attendee_filter(query: &Map<String, Value>) -> ApiResult<Option<String>> {
    match query.get("attendeeId").and_then(Value::as_str) {
        None | Some("") => Ok(None),
        Some(id) if is_id(id) => Ok(Some(id.to_owned())),
        Some(id) => Err(crate::catalog::invalid_id(id, "/attendeeId")),
    }
}

/// Products of a collection of the appointment's attendees, most collected first, as
/// `WidgetProductListing`; each product names its attendees in `customFields`.
async fn collection_widget(
    app: App,
    headers: HeaderMap,
    id: String,
    uri: Uri,
    alias: &'static str,
    field: &'static str,
) -> ApiResult<Json<Value>> {
    let (appointment, ctx) = appointment_and_context(&app, &headers, id).await?;
    let query = query_of(&uri);
    let attendee = attendee_filter(&query)?;
    let mut params = Map::new();
    params.insert(
        "limit".into(),
        query.get("limit").cloned().unwrap_or(json!(10)),
    );
    for key in ["page", "term"] {
        if let Some(value) = query.get(key) {
            params.insert(key.into(), value.clone());
        }
    }
    if let Some(sort) = query
        .get("sort")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
    {
        let order = query.get("order").and_then(Value::as_str).unwrap_or("ASC");
        params.insert("sort".into(), json!([{ "field": sort, "order": order }]));
    }
    let mut criteria =
        crate::catalog::criteria::parse(&params, "product", &crate::catalog::query::product_field)?;
    let body = app
        .db
        .call(move |conn| {
            let mut statement = conn.prepare_cached(
                "SELECT c.product_id, json_group_array(c.attendee_id) FROM attendee_product_collection c JOIN attendee a ON a.id = c.attendee_id
                 WHERE a.appointment_id = ?1 AND a.type = 'CLIENT' AND a.removed_at IS NULL AND c.alias = ?2 AND (?3 IS NULL OR a.id = ?3)
                 GROUP BY c.product_id ORDER BY COUNT(*) DESC, MAX(c.created_at) DESC",
            )?;
            let rows = statement
                .query_map(params![appointment.id, alias, attendee], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
                .collect::<Result<Vec<_>, _>>()?;
            let who: BTreeMap<String, Value> = rows.iter().map(|(p, a)| (p.clone(), serde_json::from_str(a).unwrap_or_default())).collect();
            let ids: Vec<String> = rows.into_iter().map(|(p, _)| p).collect();
            let listing = listing::run(conn, &ctx, &mut criteria, &RoomListing { ids: Some(ids), ..Default::default() })?;
            let mut products = listing["elements"].as_array().cloned().unwrap_or_default();
            for product in &mut products {
                let attendees = product["id"].as_str().and_then(|id| who.get(id)).cloned().unwrap_or(json!([]));
                if !product["customFields"].is_object() {
                    product["customFields"] = json!({});
                }
                product["customFields"][field] = attendees;
            }
            Ok(json!({ "extensions": [], "products": products, "total": listing["total"], "page": listing["page"], "limit": listing["limit"] }))
        })
        .await?;
    Ok(Json(body))
}

/// `GET …/widgets/wishlist` and `…/widgets/wishlist-statistics`: liked products.
pub async fn wishlist(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    uri: Uri,
) -> ApiResult<Json<Value>> {
    collection_widget(app, headers, id, uri, "liked", "wishlistAttendeeIds").await
}

/// `GET …/widgets/last-seen-statistics`
pub async fn last_seen(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    uri: Uri,
) -> ApiResult<Json<Value>> {
    collection_widget(app, headers, id, uri, "lastSeen", "lastSeenAttendeeIds").await
}

/// Every client's recalculated cart: (attendee id, cart).
async fn carts(
    app: &App,
    appointment: &Appointment,
    ctx: &ShopContext,
) -> ApiResult<Vec<(String, Value)>> {
    let (appointment_id, ctx) = (appointment.id.clone(), ctx.clone());
    Ok(app
        .db
        .call(move |conn| {
            let mut carts = Vec::new();
            for (attendee_id, token) in clients(conn, &appointment_id)? {
                let cart = calculate::calculate(conn, &ctx, &token, Vec::new())?;
                carts.push((attendee_id, cart));
            }
            Ok(carts)
        })
        .await?)
}

fn products_of(cart: &Value) -> impl Iterator<Item = &Value> {
    cart["lineItems"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|i| i["type"] == "product")
}

fn currency(app: &App) -> impl std::future::Future<Output = anyhow::Result<(String, String)>> + '_ {
    app.db.call(|conn| {
        Ok(conn.query_row(
            "SELECT id, symbol FROM currency ORDER BY is_system_default DESC, position LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?)
    })
}

/// `sort` (quantity, price, label; quantity by default) and whether `order` is
/// descending (the default).
fn sort_and_order(query: &Map<String, Value>) -> ApiResult<(String, bool)> {
    let sort = query
        .get("sort")
        .and_then(Value::as_str)
        .unwrap_or("quantity")
        .to_owned();
    if !["quantity", "price", "label"].contains(&sort.as_str()) {
        return Err(ApiError::bad_request(
            "FRAMEWORK__INVALID_SORT_QUERY",
            "sort must be quantity, price or label.",
        )
        .at("/sort"));
    }
    let descending = match query
        .get("order")
        .and_then(Value::as_str)
        .map(str::to_lowercase)
        .as_deref()
    {
        None | Some("desc") => true,
        Some("asc") => false,
        Some(_) => {
            return Err(ApiError::bad_request(
                "FRAMEWORK__INVALID_SORT_DIRECTION",
                "order must be asc or desc.",
            )
            .at("/order"))
        }
    };
    Ok((sort, descending))
}

/// The line items of all `carts` merged by product (quantities and totals added, the
/// attendees named), and the carts' total and net sums.
fn merged(carts: &[(String, Value)]) -> (Vec<Value>, f64, f64) {
    let mut items: BTreeMap<String, Value> = BTreeMap::new();
    let (mut total, mut net) = (0.0, 0.0);
    for (attendee_id, cart) in carts {
        for item in products_of(cart) {
            let product_id = item["referencedId"].as_str().unwrap_or_default().to_owned();
            let entry = items.entry(product_id.clone()).or_insert_with(|| {
                json!({
                    "id": product_id, "referencedId": product_id, "label": item["label"], "type": "product", "quantity": 0,
                    "cover": item["cover"], "good": true,
                    "price": { "unitPrice": item["price"]["unitPrice"], "totalPrice": 0.0, "quantity": 0, "apiAlias": "calculated_price" },
                    "payload": { "attendeeIds": [] }, "apiAlias": "cart_line_item",
                })
            });
            let quantity = item["quantity"].as_i64().unwrap_or(0);
            let price = item["price"]["totalPrice"].as_f64().unwrap_or(0.0);
            entry["quantity"] = json!(entry["quantity"].as_i64().unwrap_or(0) + quantity);
            entry["price"]["quantity"] = entry["quantity"].clone();
            entry["price"]["totalPrice"] = json!(crate::catalog::price::round(
                entry["price"]["totalPrice"].as_f64().unwrap_or(0.0) + price
            ));
            if let Some(ids) = entry["payload"]["attendeeIds"].as_array_mut() {
                if !ids.contains(&json!(attendee_id)) {
                    ids.push(json!(attendee_id));
                }
            }
        }
        total += cart["price"]["totalPrice"].as_f64().unwrap_or(0.0);
        net += cart["price"]["netPrice"].as_f64().unwrap_or(0.0);
    }
    (items.into_values().collect(), total, net)
}

fn sort_line_items(line_items: &mut [Value], sort: &str, descending: bool) {
    line_items.sort_by(|a, b| {
        let ordering = match sort {
            "price" => a["price"]["totalPrice"]
                .as_f64()
                .partial_cmp(&b["price"]["totalPrice"].as_f64())
                .unwrap_or(std::cmp::Ordering::Equal),
            "label" => a["label"]
                .as_str()
                .unwrap_or_default()
                .to_lowercase()
                .cmp(&b["label"].as_str().unwrap_or_default().to_lowercase()),
            _ => a["quantity"].as_i64().cmp(&b["quantity"].as_i64()),
        };
        if descending {
            ordering.reverse()
        } else {
            ordering
        }
    });
}

/// `GET …/widgets/cart-statistics`: the attendees' carts as one `Cart`; `sort`
/// (quantity, price, label) and `order` (asc, desc) order its line items.
pub async fn cart_statistics(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    uri: Uri,
) -> ApiResult<Json<Value>> {
    let (sort, descending) = sort_and_order(&query_of(&uri))?;
    let (appointment, ctx) = appointment_and_context(&app, &headers, id).await?;
    let carts = carts(&app, &appointment, &ctx).await?;
    let (mut line_items, total, net) = merged(&carts);
    sort_line_items(&mut line_items, &sort, descending);
    let round = crate::catalog::price::round;
    Ok(Json(json!({
        "name": "dsr-cart-statistics",
        "token": null,
        "price": { "netPrice": round(net), "totalPrice": round(total), "positionPrice": round(total), "calculatedTaxes": [], "taxRules": [], "taxStatus": "gross", "rawTotal": round(total), "apiAlias": "cart_price" },
        "lineItems": line_items,
        "errors": [],
        "deliveries": [],
        "transactions": [],
        "modified": false,
        "customerComment": null,
        "affiliateCode": null,
        "campaignCode": null,
        "apiAlias": "cart",
    })))
}

/// `GET …/widgets/attendee-insights`: each client's cart sum, product and line item count.
pub async fn attendee_insights(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let (appointment, ctx) = appointment_and_context(&app, &headers, id).await?;
    let carts = carts(&app, &appointment, &ctx).await?;
    let mut attendees = Map::new();
    for (attendee_id, cart) in carts {
        let product_count: i64 = products_of(&cart)
            .map(|i| i["quantity"].as_i64().unwrap_or(0))
            .sum();
        attendees.insert(
            attendee_id.clone(),
            json!({
                "id": attendee_id,
                "cartSum": cart["price"]["netPrice"].as_f64().unwrap_or(0.0),
                "productCount": product_count,
                "lineItemCount": products_of(&cart).count(),
                "extensions": [],
            }),
        );
    }
    let (currency_id, symbol) = currency(&app).await?;
    Ok(Json(
        json!({ "extensions": [], "attendees": attendees, "currencyId": currency_id, "currencySymbol": symbol }),
    ))
}

/// `GET …/widgets/cart-insights`: all carts' sum, product count, and top products.
pub async fn cart_insights(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let (appointment, ctx) = appointment_and_context(&app, &headers, id).await?;
    let carts = carts(&app, &appointment, &ctx).await?;
    let (mut sum, mut count) = (0.0, 0);
    let mut by_product: BTreeMap<String, (i64, f64)> = BTreeMap::new();
    for (_, cart) in &carts {
        sum += cart["price"]["netPrice"].as_f64().unwrap_or(0.0);
        for item in products_of(cart) {
            let quantity = item["quantity"].as_i64().unwrap_or(0);
            count += quantity;
            let entry = by_product
                .entry(item["referencedId"].as_str().unwrap_or_default().to_owned())
                .or_default();
            entry.0 += quantity;
            entry.1 += item["price"]["totalPrice"].as_f64().unwrap_or(0.0);
        }
    }
    let mut by_quantity: Vec<(String, i64)> = by_product
        .iter()
        .map(|(id, (q, _))| (id.clone(), *q))
        .collect();
    by_quantity.sort_by_key(|(_, quantity)| std::cmp::Reverse(*quantity));
    let mut by_revenue: Vec<(String, f64)> = by_product
        .iter()
        .map(|(id, (_, r))| (id.clone(), *r))
        .collect();
    by_revenue.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
    let (currency_id, symbol) = currency(&app).await?;
    let round = crate::catalog::price::round;
    Ok(Json(json!({
        "extensions": [],
        "cartSum": round(sum),
        "productCount": count,
        "currencyId": currency_id,
        "currencySymbol": symbol,
        "topProducts": {
            "byQuantity": by_quantity.into_iter().take(10).map(|(id, v)| json!({ "productId": id, "value": v })).collect::<Vec<_>>(),
            "byRevenue": by_revenue.into_iter().take(10).map(|(id, v)| json!({ "productId": id, "value": round(v) })).collect::<Vec<_>>(),
        },
    })))
}
