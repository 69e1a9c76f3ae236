//! The stored cart (`cart`, `cart_line_item`): its items, adding, merging, what a
//! calculation writes back, and the promotions redeemable by code.

use rusqlite::{params, Connection, OptionalExtension, Transaction};

use super::model::{Change, Promotion, StoredItem};
use crate::storage::now_rfc3339;
use crate::storage::translation;
use crate::store_api::ShopContext;

pub fn load_items(conn: &Connection, token: &str) -> rusqlite::Result<Vec<StoredItem>> {
    let mut statement =
        conn.prepare_cached("SELECT id, type, referenced_id, quantity FROM cart_line_item WHERE token = ?1 ORDER BY position")?;
    let rows = statement.query_map([token], |r| {
        Ok(StoredItem {
            id: r.get(0)?,
            kind: r.get(1)?,
            referenced_id: r.get(2)?,
            quantity: r.get(3)?,
        })
    })?;
    rows.collect()
}

/// Creates the cart row of `token` if missing.
pub fn ensure_cart(tx: &Transaction, token: &str) -> rusqlite::Result<()> {
    let now = now_rfc3339();
    tx.execute(
        "INSERT INTO cart (token, created_at, updated_at) VALUES (?1, ?2, ?2) ON CONFLICT (token) DO UPDATE SET updated_at = ?2",
        params![token, now],
    )?;
    Ok(())
}

/// Adds `quantity` of an item, or to the item with the same id.
pub fn add_item(
    tx: &Transaction,
    token: &str,
    id: &str,
    kind: &str,
    referenced_id: &str,
    quantity: i64,
) -> rusqlite::Result<()> {
    ensure_cart(tx, token)?;
    tx.execute(
        "INSERT INTO cart_line_item (token, id, type, referenced_id, quantity, position)
         VALUES (?1, ?2, ?3, ?4, ?5, (SELECT COALESCE(MAX(position), 0) + 1 FROM cart_line_item WHERE token = ?1))
         ON CONFLICT (token, id) DO UPDATE SET quantity = CASE WHEN type IN ('promotion', 'discount') THEN 1 ELSE MIN(quantity + excluded.quantity, 1000000) END",
        params![token, id, kind, referenced_id, quantity],
    )?;
    Ok(())
}

/// Moves the items of the carts of `from` into the cart of `to` (quantities of the
/// same item add up). Used when a guest logs in.
pub fn merge(tx: &Transaction, from: &[String], to: &str) -> rusqlite::Result<()> {
    for source in from.iter().filter(|t| t.as_str() != to) {
        for item in load_items(tx, source)? {
            add_item(
                tx,
                to,
                &item.id,
                &item.kind,
                &item.referenced_id,
                item.quantity,
            )?;
        }
        tx.execute("DELETE FROM cart WHERE token = ?1", [source])?;
    }
    Ok(())
}

/// Stores what a calculation fixed: quantities, removed lines.
pub fn write_back(conn: &Connection, token: &str, changes: &[Change]) -> rusqlite::Result<()> {
    for change in changes {
        match change {
            Change::Remove(id) => conn.execute(
                "DELETE FROM cart_line_item WHERE token = ?1 AND id = ?2",
                [token, id],
            )?,
            Change::SetQuantity(id, quantity) => conn.execute(
                "UPDATE cart_line_item SET quantity = ?1 WHERE token = ?2 AND id = ?3",
                params![quantity, token, id],
            )?,
        };
    }
    Ok(())
}

/// The promotion redeemable now with `code`.
pub fn promotion(
    conn: &Connection,
    ctx: &ShopContext,
    code: &str,
) -> rusqlite::Result<Option<Promotion>> {
    let now = now_rfc3339();
    let found: Option<(String, String, f64)> = conn
        .query_row(
            "SELECT id, discount_type, discount_value FROM promotion WHERE code = ?1 AND active = 1
             AND (valid_from IS NULL OR valid_from <= ?2) AND (valid_until IS NULL OR valid_until >= ?2)
             AND (max_redemptions_global IS NULL
                  OR max_redemptions_global > (SELECT COUNT(DISTINCT o.order_id) FROM order_line_item o WHERE o.promotion_id = promotion.id))",
            [code, &now],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let Some((id, kind, value)) = found else {
        return Ok(None);
    };
    const NAME: &[(&str, &str)] = &[("name", "name")];
    let names = translation::load(
        conn,
        "promotion_translation",
        "promotion_id",
        NAME,
        std::slice::from_ref(&id),
        &ctx.languages,
    )?;
    let name = translation::get(&names, &id, NAME)["name"]
        .as_str()
        .unwrap_or(code)
        .to_owned();
    Ok(Some(Promotion {
        id,
        name,
        kind,
        value,
    }))
}
