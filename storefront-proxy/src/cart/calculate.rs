//! Cart calculation with SQLite around it: loads what the steps need (stored items,
//! purchasables, promotions, the address checks, the shipping method and country),
//! runs the typed steps of `pipeline`, writes back the quantity fixes and removals
//! (reported once as cart errors), and answers the cart, as JSON only at the edge
//! (`json`).

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension};
use serde_json::Value;

use super::json;
use super::model::Cart;
use super::pipeline::{self, shipping, Input, Shipping};
use super::store;
use crate::catalog::purchasable;
use crate::checkout::methods;
use crate::store_api::ShopContext;

pub use super::model::{CartError, StoredItem};
pub use super::store::{add_item, ensure_cart, load_items, merge, promotion};

/// Recalculates the cart of `token`, writing quantity fixes and removals back, and
/// answers the `Cart` with `errors` (those found now, plus `reported`).
pub fn calculate(
    conn: &mut Connection,
    ctx: &ShopContext,
    token: &str,
    errors: Vec<CartError>,
) -> rusqlite::Result<Value> {
    calculate_with(conn, ctx, token, errors, Vec::new())
}

/// [`calculate`], with `extra` items counted as if they were in the cart (not stored):
/// the live room's temporary cart, a cart with the guide's draft discount.
pub fn calculate_with(
    conn: &mut Connection,
    ctx: &ShopContext,
    token: &str,
    errors: Vec<CartError>,
    extra: Vec<StoredItem>,
) -> rusqlite::Result<Value> {
    Ok(json::cart(&calculate_cart(
        conn, ctx, token, errors, extra,
    )?))
}

/// [`calculate_with`], answering the typed [`Cart`] (what an order is placed from).
pub fn calculate_cart(
    conn: &mut Connection,
    ctx: &ShopContext,
    token: &str,
    errors: Vec<CartError>,
    extra: Vec<StoredItem>,
) -> rusqlite::Result<Cart> {
    let tx = conn.transaction()?;
    let reduced = pipeline::reduce(input(&tx, ctx, token, errors, extra)?);
    let shipping = if reduced.has_goods() {
        session_shipping(&tx, ctx, token)?
    } else {
        None
    };
    let (cart, changes) = pipeline::finish(reduced, shipping, time::OffsetDateTime::now_utc());
    store::write_back(&tx, token, &changes)?;
    tx.commit()?;
    Ok(cart)
}

/// What the steps start from: the stored items with `extra`, their products and
/// promotions, and the address errors after `errors`.
fn input(
    conn: &Connection,
    ctx: &ShopContext,
    token: &str,
    mut errors: Vec<CartError>,
    extra: Vec<StoredItem>,
) -> rusqlite::Result<Input> {
    errors.extend(super::checks::address_errors(conn, token)?);
    let mut items = store::load_items(conn, token)?;
    items.extend(extra);
    let product_ids: Vec<String> = items
        .iter()
        .filter(|i| i.kind == "product")
        .map(|i| i.referenced_id.clone())
        .collect();
    let products = purchasable::load(conn, ctx, &product_ids)?;
    let mut promotions = HashMap::new();
    for item in items.iter().filter(|i| i.kind == "promotion") {
        if let Some(promotion) = store::promotion(conn, ctx, &item.referenced_id)? {
            promotions.insert(item.referenced_id.clone(), promotion);
        }
    }
    Ok(Input {
        token: token.to_owned(),
        errors,
        items,
        products,
        promotions,
    })
}

/// The session's shipping method (chosen, else the sales channel's) and country.
fn session_shipping(
    conn: &Connection,
    ctx: &ShopContext,
    token: &str,
) -> rusqlite::Result<Option<Shipping>> {
    let (_, shipping_id) = methods::chosen(conn, ctx, Some(token))?;
    let method = match &shipping_id {
        Some(id) => methods::load_shipping_methods(conn, &ctx.languages, Some(id))?
            .into_iter()
            .next(),
        None => None,
    };
    let Some(method) = method else {
        return Ok(None);
    };
    let country_id: Option<String> = conn
        .query_row(
            "SELECT COALESCE(s.country_id, c.country_id) FROM store_context s JOIN sales_channel c ON c.id = s.sales_channel_id WHERE s.token = ?1",
            [token],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    let country = match &country_id {
        Some(id) => crate::settings::load_countries(conn, &ctx.languages, Some(id), false)?
            .into_iter()
            .next()
            .unwrap_or(Value::Null),
        None => Value::Null,
    };
    Ok(Some(Shipping {
        method: shipping::Method::of(method),
        country,
    }))
}
