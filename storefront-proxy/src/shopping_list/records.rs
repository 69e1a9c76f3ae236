//! The tables `shopping_list` and `shopping_list_line_item`: the lists as the Store API
//! answers them, and the checks every change makes (the owner, the product, the limits).

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};

use super::{too_many_line_items, MAX_LINE_ITEMS, MAX_QUANTITY};
use crate::catalog::product;
use crate::error::ApiError;
use crate::storage::{json_ids, new_id, now_rfc3339};
use crate::store_api::{ShopContext, LIVE_VERSION_ID};

/// Whose lists a call may touch: a customer's in one sales channel.
pub struct Owner {
    pub customer_id: String,
    pub sales_channel_id: String,
}

/// One line of a list.
#[derive(Debug, Clone)]
pub struct Line {
    pub id: String,
    pub product_id: String,
    pub quantity: i64,
}

/// Whether the list `id` is the owner's.
pub fn owned(conn: &Connection, owner: &Owner, id: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS(SELECT 1 FROM shopping_list WHERE id = ?1 AND customer_id = ?2 AND sales_channel_id = ?3)",
        params![id, owner.customer_id, owner.sales_channel_id],
        |r| r.get(0),
    )
}

/// How many lists the owner has.
pub fn count(conn: &Connection, owner: &Owner) -> rusqlite::Result<usize> {
    conn.query_row(
        "SELECT COUNT(*) FROM shopping_list WHERE customer_id = ?1 AND sales_channel_id = ?2",
        params![owner.customer_id, owner.sales_channel_id],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n as usize)
}

/// The owner's list ids, newest first, `limit` of them from `offset`.
pub fn ids(
    conn: &Connection,
    owner: &Owner,
    limit: i64,
    offset: i64,
) -> rusqlite::Result<Vec<String>> {
    let mut statement = conn.prepare_cached(
        "SELECT id FROM shopping_list WHERE customer_id = ?1 AND sales_channel_id = ?2
         ORDER BY created_at DESC, rowid DESC LIMIT ?3 OFFSET ?4",
    )?;
    let ids = statement.query_map(
        params![owner.customer_id, owner.sales_channel_id, limit, offset],
        |r| r.get(0),
    )?;
    ids.collect()
}

/// The lines of a list, in the order they were first added.
pub fn lines(conn: &Connection, list_id: &str) -> rusqlite::Result<Vec<Line>> {
    let mut statement =
        conn.prepare_cached("SELECT id, product_id, quantity FROM shopping_list_line_item WHERE shopping_list_id = ?1 ORDER BY position")?;
    let lines = statement.query_map([list_id], |r| {
        Ok(Line {
            id: r.get(0)?,
            product_id: r.get(1)?,
            quantity: r.get(2)?,
        })
    })?;
    lines.collect()
}

/// Creates a list; its lines follow with [`add_lines`].
pub fn insert(conn: &Connection, owner: &Owner, name: &str) -> rusqlite::Result<String> {
    let id = new_id();
    conn.execute(
        "INSERT INTO shopping_list (id, customer_id, sales_channel_id, name, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, owner.customer_id, owner.sales_channel_id, name, now_rfc3339()],
    )?;
    Ok(id)
}

/// Adds `items` (product id, quantity) to a list: a product already on it gets the
/// quantity added. Refused, with nothing written by this call, when a total would pass
/// [`MAX_QUANTITY`] or the list [`MAX_LINE_ITEMS`]; run it inside a transaction.
pub fn add_lines(
    conn: &Connection,
    list_id: &str,
    items: &[(String, i64)],
) -> rusqlite::Result<Result<(), ApiError>> {
    let existing = lines(conn, list_id)?;
    let mut count = existing.len();
    for (index, (product_id, quantity)) in items.iter().enumerate() {
        match existing.iter().find(|line| &line.product_id == product_id) {
            Some(line) if line.quantity + quantity > MAX_QUANTITY => {
                return Ok(Err(super::invalid_quantity(&format!(
                    "/lineItems/{index}/quantity"
                ))));
            }
            Some(_) => {}
            None => count += 1,
        }
    }
    if count > MAX_LINE_ITEMS {
        return Ok(Err(too_many_line_items()));
    }
    let now = now_rfc3339();
    for (product_id, quantity) in items {
        conn.execute(
            "INSERT INTO shopping_list_line_item (id, shopping_list_id, product_id, quantity, position, created_at)
             VALUES (?1, ?2, ?3, ?4, (SELECT COALESCE(MAX(position), 0) + 1 FROM shopping_list_line_item WHERE shopping_list_id = ?2), ?5)
             ON CONFLICT (shopping_list_id, product_id) DO UPDATE SET quantity = quantity + excluded.quantity, updated_at = ?5",
            params![new_id(), list_id, product_id, quantity, now],
        )?;
    }
    touch(conn, list_id)?;
    Ok(Ok(()))
}

/// Marks a list as changed now.
pub fn touch(conn: &Connection, list_id: &str) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE shopping_list SET updated_at = ?1 WHERE id = ?2",
        params![now_rfc3339(), list_id],
    )?;
    Ok(())
}

/// The list a line item is on, if the line item is on one of the owner's lists.
pub fn list_of_line_item(
    conn: &Connection,
    owner: &Owner,
    line_item_id: &str,
) -> rusqlite::Result<Option<String>> {
    conn.query_row(
        "SELECT l.id FROM shopping_list_line_item i JOIN shopping_list l ON l.id = i.shopping_list_id
         WHERE i.id = ?1 AND l.customer_id = ?2 AND l.sales_channel_id = ?3",
        params![line_item_id, owner.customer_id, owner.sales_channel_id],
        |r| r.get(0),
    )
    .optional()
}

/// `B2bComponentsShoppingList` for each of `ids` (in that order), with their
/// `lineItems`; each line item's `product` too when `with_products`.
pub fn load(
    conn: &Connection,
    ctx: &ShopContext,
    ids: &[String],
    with_products: bool,
) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn.prepare_cached(
        "SELECT id, name, active, sales_channel_id, customer_id, created_at, updated_at
         FROM shopping_list WHERE id IN (SELECT value FROM json_each(?1))",
    )?;
    let found: Vec<Value> = statement
        .query_map([json_ids(ids)], |r| {
            Ok(json!({
                "id": r.get::<_, String>(0)?,
                "name": r.get::<_, String>(1)?,
                "active": r.get::<_, bool>(2)?,
                "salesChannelId": r.get::<_, String>(3)?,
                "customerId": r.get::<_, String>(4)?,
                "employeeId": null,
                "createdById": null,
                "updatedById": null,
                "customFields": null,
                "price": null,
                "createdAt": r.get::<_, String>(5)?,
                "updatedAt": r.get::<_, Option<String>>(6)?,
                "extensions": {},
                "apiAlias": "b2b_components_shopping_list",
            }))
        })?
        .collect::<Result<_, _>>()?;
    let mut lists = Vec::with_capacity(ids.len());
    for id in ids {
        let Some(mut list) = found.iter().find(|list| list["id"] == id.as_str()).cloned() else {
            continue;
        };
        let mut statement = conn.prepare_cached(
            "SELECT id, product_id, quantity, created_at, updated_at FROM shopping_list_line_item
             WHERE shopping_list_id = ?1 ORDER BY position",
        )?;
        let mut line_items: Vec<Value> = statement
            .query_map([id], |r| {
                Ok(json!({
                    "id": r.get::<_, String>(0)?,
                    "productId": r.get::<_, String>(1)?,
                    "productVersionId": LIVE_VERSION_ID,
                    "quantity": r.get::<_, i64>(2)?,
                    "price": null,
                    "createdAt": r.get::<_, String>(3)?,
                    "updatedAt": r.get::<_, Option<String>>(4)?,
                    "apiAlias": "b2b_components_shopping_list_line_item",
                }))
            })?
            .collect::<Result<_, _>>()?;
        if with_products {
            let product_ids: Vec<String> = line_items
                .iter()
                .filter_map(|item| item["productId"].as_str().map(str::to_owned))
                .collect();
            let products = product::load(conn, ctx, &product_ids, product::Load::default())?;
            for item in &mut line_items {
                item["product"] = products
                    .iter()
                    .find(|p| p["id"] == item["productId"])
                    .cloned()
                    .unwrap_or(Value::Null);
            }
        }
        list["lineItems"] = Value::Array(line_items);
        lists.push(list);
    }
    Ok(lists)
}
