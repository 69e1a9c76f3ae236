//! Demo cross-selling: every main demo product (numbers `SR…`) gets "Similar products"
//! ("Ähnliche Produkte"): up to four other main products of its first category. Added
//! when missing, so older shops get it too.

use rusqlite::{params, OptionalExtension, Transaction};

use crate::storage::{new_id, now_rfc3339};

pub fn seed_missing(tx: &Transaction) -> anyhow::Result<()> {
    let seeded: bool = tx.query_row(
        "SELECT EXISTS(SELECT 1 FROM product_cross_selling)",
        [],
        |r| r.get(0),
    )?;
    if seeded {
        return Ok(());
    }
    let en: Option<String> = tx
        .query_row("SELECT id FROM language WHERE code = 'en-GB'", [], |r| {
            r.get(0)
        })
        .optional()?;
    let de: Option<String> = tx
        .query_row("SELECT id FROM language WHERE code = 'de-DE'", [], |r| {
            r.get(0)
        })
        .optional()?;
    let (Some(en), Some(de)) = (en, de) else {
        return Ok(());
    };
    let mut products = tx.prepare(
        "SELECT p.id, (SELECT pc.category_id FROM product_category pc WHERE pc.product_id = p.id ORDER BY pc.category_id LIMIT 1)
         FROM product p WHERE p.parent_id IS NULL AND p.active = 1 AND p.product_number LIKE 'SR%' ORDER BY p.product_number",
    )?;
    let rows = products
        .query_map([], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut similar = tx.prepare(
        "SELECT p.id FROM product_category pc JOIN product p ON p.id = pc.product_id
         WHERE pc.category_id = ?1 AND p.id != ?2 AND p.parent_id IS NULL AND p.active = 1 ORDER BY p.product_number LIMIT 4",
    )?;
    let now = now_rfc3339();
    for (product_id, category_id) in rows {
        let Some(category_id) = category_id else {
            continue;
        };
        let others = similar
            .query_map(params![category_id, product_id], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        if others.is_empty() {
            continue;
        }
        let id = new_id();
        tx.execute(
            "INSERT INTO product_cross_selling (id, product_id, position, created_at) VALUES (?1, ?2, 1, ?3)",
            params![id, product_id, now],
        )?;
        tx.execute(
            "INSERT INTO product_cross_selling_translation (cross_selling_id, language_id, name) VALUES (?1, ?2, 'Similar products')",
            params![id, en],
        )?;
        tx.execute(
            "INSERT INTO product_cross_selling_translation (cross_selling_id, language_id, name) VALUES (?1, ?2, 'Ähnliche Produkte')",
            params![id, de],
        )?;
        for (position, other) in others.iter().enumerate() {
            tx.execute(
                "INSERT INTO product_cross_selling_assigned_products (id, cross_selling_id, product_id, position) VALUES (?1, ?2, ?3, ?4)",
                params![new_id(), id, other, position as i64],
            )?;
        }
    }
    Ok(())
}
