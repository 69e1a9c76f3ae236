//! The catalogue's entities: product (prices, list price, stock, translations,
//! categories, manufacturer, properties, options, variants through `parentId`, media),
//! category, product_manufacturer, property_group and property_group_option. Product
//! and category writes rebuild what the storefront derives from them: the listing
//! index (`product_category_tree`), the search index (`product_search`), a parent's
//! child count, cheapest price, stock and configurator, category paths.

use std::collections::HashMap;

use rusqlite::types::Value as SqlValue;
use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde_json::{json, Value};

use crate::admin_api::definition::{
    Access, Column, Definition, Extra, ExtraWrite, Hooks, Translation, Write, NO_HOOKS,
};
use crate::admin_api::write::{self, default_language};
use crate::catalog::criteria::Expr;
use crate::error::{ApiError, ApiResult, Violation};
use crate::storage::{is_id, json_ids, new_id, now_rfc3339};

/// Largest stock, purchase quantity and the like.
const MAX_QUANTITY: i64 = 1_000_000_000;

// ---------------------------------------------------------------- product

pub static PRODUCT: Definition = Definition {
    name: "product",
    table: "product",
    columns: &[
        Column::id("parentId", "parent_id", "product"),
        Column::text("productNumber", "product_number", 64)
            .required()
            .unique(),
        Column::boolean("active", "active"),
        Column::int("stock", "stock", 0, MAX_QUANTITY),
        Column::int(
            "availableStock",
            "available_stock",
            -MAX_QUANTITY,
            MAX_QUANTITY,
        )
        .read_only(),
        Column::id("manufacturerId", "manufacturer_id", "product_manufacturer"),
        Column::text("manufacturerNumber", "manufacturer_number", 255),
        Column::text("ean", "ean", 255),
        Column::id("taxId", "tax_id", "tax"),
        Column::id("unitId", "unit_id", "unit"),
        Column::id("deliveryTimeId", "delivery_time_id", "delivery_time"),
        Column::id("cmsPageId", "cms_page_id", "cms_page"),
        Column::boolean("isCloseout", "is_closeout"),
        Column::int("restockTime", "restock_time", 0, 3650).nullable(),
        Column::boolean("shippingFree", "shipping_free"),
        Column::int("minPurchase", "min_purchase", 1, MAX_QUANTITY),
        Column::int("maxPurchase", "max_purchase", 1, MAX_QUANTITY).nullable(),
        Column::int("purchaseSteps", "purchase_steps", 1, MAX_QUANTITY),
        Column::float("purchaseUnit", "purchase_unit"),
        Column::float("referenceUnit", "reference_unit"),
        Column::float("width", "width"),
        Column::float("height", "height"),
        Column::float("length", "length"),
        Column::float("weight", "weight"),
        Column::boolean("markAsTopseller", "mark_as_topseller"),
        Column::date("releaseDate", "release_date"),
        Column::int("childCount", "child_count", 0, MAX_QUANTITY).read_only(),
        Column::text("coverId", "cover_id", 32).read_only(),
        Column::int("sales", "sales", 0, MAX_QUANTITY).read_only(),
        Column::date("createdAt", "created_at").read_only(),
        Column::date("updatedAt", "updated_at").read_only(),
    ],
    translation: Some(Translation {
        table: "product_translation",
        key: "product_id",
        fields: &[
            Column::text("name", "name", 255).required(),
            Column::text("description", "description", 65_535).rich_text(),
            Column::text("keywords", "keywords", 1024),
            Column::text("metaTitle", "meta_title", 255),
            Column::text("metaDescription", "meta_description", 1024),
            Column::text("packUnit", "pack_unit", 255),
            Column::text("packUnitPlural", "pack_unit_plural", 255),
        ],
    }),
    extras: &[
        Extra {
            name: "price",
            write: ExtraWrite::Columns(price_columns),
            read: read_price,
            filter: None,
        },
        Extra {
            name: "categories",
            write: ExtraWrite::After(write_categories),
            read: read_categories,
            filter: Some(Expr::Membership {
                table: "product_category",
                key: "product_id",
                owner: "x.id",
                column: "category_id",
            }),
        },
        Extra {
            name: "properties",
            write: ExtraWrite::After(write_properties),
            read: read_properties,
            filter: Some(Expr::Membership {
                table: "product_property",
                key: "product_id",
                owner: "x.id",
                column: "option_id",
            }),
        },
        Extra {
            name: "options",
            write: ExtraWrite::After(write_options),
            read: read_options,
            filter: Some(Expr::Membership {
                table: "product_option",
                key: "product_id",
                owner: "x.id",
                column: "option_id",
            }),
        },
        Extra {
            name: "media",
            write: ExtraWrite::After(write_media),
            read: read_media,
            filter: None,
        },
    ],
    // Shopware clients send sales channel visibilities; this shop has one channel,
    // where every active product is visible.
    ignored: &["visibilities"],
    access: Access::GuidesRead,
    hooks: Hooks {
        prepare: prepare_product,
        after_write: after_product,
        before_delete: before_product_delete,
    },
    inherits_from: Some("parent_id"),
};

/// Shopware's `price`: `[{"currencyId", "gross", "net", "linked", "listPrice": {"gross", "net"}}]`
/// (one currency: the shop's). A missing net is derived from gross later.
fn price_columns(
    value: &Value,
    pointer: &str,
) -> Result<Vec<(&'static str, SqlValue)>, Vec<Violation>> {
    let entry = match value {
        Value::Array(list) if list.len() == 1 => &list[0],
        Value::Object(_) => value,
        _ => {
            return Err(vec![Violation::new(
                "VIOLATION::TYPE_ERROR",
                pointer.to_owned(),
                "price must be a list with one price (the shop's currency).",
            )])
        }
    };
    let at = if value.is_array() {
        format!("{pointer}/0")
    } else {
        pointer.to_owned()
    };
    let mut violations = Vec::new();
    let amount =
        |entry: &Value, key: &str, at: &str, violations: &mut Vec<Violation>| -> Option<f64> {
            match entry.get(key) {
                None | Some(Value::Null) => None,
                Some(v) => match v.as_f64().filter(|f| f.is_finite() && *f >= 0.0) {
                    Some(f) => Some(f),
                    None => {
                        violations.push(Violation::new(
                            "VIOLATION::TYPE_ERROR",
                            format!("{at}/{key}"),
                            "A price is a number of 0 or more.",
                        ));
                        None
                    }
                },
            }
        };
    let gross = amount(entry, "gross", &at, &mut violations);
    let net = amount(entry, "net", &at, &mut violations);
    if gross.is_none() && violations.is_empty() {
        violations.push(Violation::blank(format!("{at}/gross")));
    }
    let mut columns = Vec::new();
    if let Some(gross) = gross {
        columns.push(("price_gross", SqlValue::Real(gross)));
        columns.push((
            "price_net",
            net.map(SqlValue::Real).unwrap_or(SqlValue::Null),
        ));
    }
    match entry.get("listPrice") {
        None => {}
        Some(Value::Null) => {
            columns.push(("list_price_gross", SqlValue::Null));
            columns.push(("list_price_net", SqlValue::Null));
        }
        Some(list) => {
            let list_at = format!("{at}/listPrice");
            let list_gross = amount(list, "gross", &list_at, &mut violations);
            let list_net = amount(list, "net", &list_at, &mut violations);
            match (list_gross, gross) {
                (Some(list_gross), Some(gross)) if list_gross <= gross => {
                    violations.push(Violation::new(
                        "VIOLATION::LIST_PRICE_TOO_LOW",
                        format!("{list_at}/gross"),
                        "The list price should be higher than the price.",
                    ))
                }
                (None, _) if violations.is_empty() => {
                    violations.push(Violation::blank(format!("{list_at}/gross")))
                }
                _ => {}
            }
            columns.push((
                "list_price_gross",
                list_gross.map(SqlValue::Real).unwrap_or(SqlValue::Null),
            ));
            columns.push((
                "list_price_net",
                list_net.map(SqlValue::Real).unwrap_or(SqlValue::Null),
            ));
        }
    }
    if violations.is_empty() {
        Ok(columns)
    } else {
        Err(violations)
    }
}

fn read_price(conn: &Connection, ids: &[String]) -> rusqlite::Result<HashMap<String, Value>> {
    let currency: Option<String> = conn
        .query_row(
            "SELECT id FROM currency WHERE is_system_default = 1",
            [],
            |r| r.get(0),
        )
        .optional()?;
    let mut statement = conn.prepare(
        "SELECT id, price_gross, price_net, list_price_gross, list_price_net FROM product WHERE id IN (SELECT value FROM json_each(?1))",
    )?;
    let rows = statement.query_map([json_ids(ids)], |r| {
        let list_gross: Option<f64> = r.get(3)?;
        let list = list_gross.map(|gross| json!({ "gross": gross, "net": r.get::<_, Option<f64>>(4).ok().flatten(), "linked": true }));
        Ok((
            r.get::<_, String>(0)?,
            json!([{ "currencyId": currency, "gross": r.get::<_, f64>(1)?, "net": r.get::<_, f64>(2)?, "linked": true, "listPrice": list }]),
        ))
    })?;
    rows.collect()
}

/// The ids of a list of `{"id": …}` (or of plain ids), each a row of `table`.
pub(super) fn referenced_ids(
    tx: &Transaction,
    value: &Value,
    pointer: &str,
    table: &str,
    key: &str,
) -> ApiResult<Vec<String>> {
    let Some(list) = value.as_array() else {
        return Err(ApiError::Violations(vec![Violation::new(
            "VIOLATION::TYPE_ERROR",
            pointer.to_owned(),
            "This value should be a list.",
        )]));
    };
    let mut ids = Vec::new();
    let mut violations = Vec::new();
    for (n, item) in list.iter().enumerate() {
        let id = item.get(key).or(Some(item)).and_then(Value::as_str);
        match id {
            Some(id) if is_id(id) && write::exists(tx, table, id)? => {
                if !ids.iter().any(|known| known == id) {
                    ids.push(id.to_owned());
                }
            }
            Some(id) if is_id(id) => violations.push(Violation::new(
                "VIOLATION::ENTITY_DOES_NOT_EXIST",
                format!("{pointer}/{n}/{key}"),
                format!("There is no {table} with id \"{id}\"."),
            )),
            _ => violations.push(Violation::new(
                "VIOLATION::INVALID_ID",
                format!("{pointer}/{n}/{key}"),
                "An id is 32 lowercase hexadecimal characters.",
            )),
        }
    }
    if violations.is_empty() {
        Ok(ids)
    } else {
        Err(ApiError::Violations(violations))
    }
}

/// Replaces the rows of a link table (`product_category`) of `owner` with `ids`.
pub(super) fn replace_links(
    tx: &Transaction,
    table: &str,
    owner_key: &str,
    other_key: &str,
    owner: &str,
    ids: &[String],
) -> rusqlite::Result<()> {
    tx.execute(
        &format!("DELETE FROM {table} WHERE {owner_key} = ?1"),
        [owner],
    )?;
    for id in ids {
        tx.execute(
            &format!("INSERT INTO {table} ({owner_key}, {other_key}) VALUES (?1, ?2)"),
            [owner, id],
        )?;
    }
    Ok(())
}

fn read_links(
    conn: &Connection,
    sql: &str,
    ids: &[String],
) -> rusqlite::Result<HashMap<String, Value>> {
    let mut statement = conn.prepare(sql)?;
    let mut found: HashMap<String, Vec<Value>> = HashMap::new();
    let rows = statement.query_map([json_ids(ids)], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })?;
    for row in rows {
        let (owner, id) = row?;
        found.entry(owner).or_default().push(json!({ "id": id }));
    }
    Ok(ids
        .iter()
        .map(|id| {
            (
                id.clone(),
                Value::Array(found.remove(id).unwrap_or_default()),
            )
        })
        .collect())
}

fn write_categories(tx: &Transaction, id: &str, value: &Value, pointer: &str) -> ApiResult<()> {
    let ids = referenced_ids(tx, value, pointer, "category", "id")?;
    Ok(replace_links(
        tx,
        "product_category",
        "product_id",
        "category_id",
        id,
        &ids,
    )?)
}

fn read_categories(conn: &Connection, ids: &[String]) -> rusqlite::Result<HashMap<String, Value>> {
    read_links(
        conn,
        "SELECT product_id, category_id FROM product_category WHERE product_id IN (SELECT value FROM json_each(?1)) ORDER BY category_id",
        ids,
    )
}

fn write_properties(tx: &Transaction, id: &str, value: &Value, pointer: &str) -> ApiResult<()> {
    let ids = referenced_ids(tx, value, pointer, "property_group_option", "id")?;
    Ok(replace_links(
        tx,
        "product_property",
        "product_id",
        "option_id",
        id,
        &ids,
    )?)
}

fn read_properties(conn: &Connection, ids: &[String]) -> rusqlite::Result<HashMap<String, Value>> {
    read_links(
        conn,
        "SELECT product_id, option_id FROM product_property WHERE product_id IN (SELECT value FROM json_each(?1)) ORDER BY option_id",
        ids,
    )
}

fn write_options(tx: &Transaction, id: &str, value: &Value, pointer: &str) -> ApiResult<()> {
    let ids = referenced_ids(tx, value, pointer, "property_group_option", "id")?;
    Ok(replace_links(
        tx,
        "product_option",
        "product_id",
        "option_id",
        id,
        &ids,
    )?)
}

fn read_options(conn: &Connection, ids: &[String]) -> rusqlite::Result<HashMap<String, Value>> {
    read_links(
        conn,
        "SELECT product_id, option_id FROM product_option WHERE product_id IN (SELECT value FROM json_each(?1)) ORDER BY option_id",
        ids,
    )
}

/// `media: [{"mediaId", "position"}]`: the product's pictures, replaced; the first
/// by position is the cover.
fn write_media(tx: &Transaction, id: &str, value: &Value, pointer: &str) -> ApiResult<()> {
    let ids = referenced_ids(tx, value, pointer, "media", "mediaId")?;
    let positions: Vec<i64> = value
        .as_array()
        .map(|list| {
            list.iter()
                .enumerate()
                .map(|(n, item)| {
                    item.get("position")
                        .and_then(Value::as_i64)
                        .unwrap_or(n as i64 + 1)
                })
                .collect()
        })
        .unwrap_or_default();
    tx.execute("UPDATE product SET cover_id = NULL WHERE id = ?1", [id])?;
    tx.execute("DELETE FROM product_media WHERE product_id = ?1", [id])?;
    let mut cover: Option<(i64, String)> = None;
    for (n, media) in ids.iter().enumerate() {
        let position = positions.get(n).copied().unwrap_or(n as i64 + 1);
        let link = new_id();
        tx.execute(
            "INSERT INTO product_media (id, product_id, media_id, position) VALUES (?1, ?2, ?3, ?4)",
            params![link, id, media, position],
        )?;
        if cover.as_ref().is_none_or(|(p, _)| position < *p) {
            cover = Some((position, link));
        }
    }
    tx.execute(
        "UPDATE product SET cover_id = ?1 WHERE id = ?2",
        params![cover.map(|(_, link)| link), id],
    )?;
    Ok(())
}

fn read_media(conn: &Connection, ids: &[String]) -> rusqlite::Result<HashMap<String, Value>> {
    let mut statement = conn.prepare(
        "SELECT product_id, id, media_id, position FROM product_media WHERE product_id IN (SELECT value FROM json_each(?1)) ORDER BY position, id",
    )?;
    let mut found: HashMap<String, Vec<Value>> = HashMap::new();
    let rows = statement.query_map([json_ids(ids)], |r| {
        Ok((
            r.get::<_, String>(0)?,
            json!({ "id": r.get::<_, String>(1)?, "mediaId": r.get::<_, String>(2)?, "position": r.get::<_, i64>(3)? }),
        ))
    })?;
    for row in rows {
        let (owner, media) = row?;
        found.entry(owner).or_default().push(media);
    }
    Ok(ids
        .iter()
        .map(|id| {
            (
                id.clone(),
                Value::Array(found.remove(id).unwrap_or_default()),
            )
        })
        .collect())
}

/// Columns a new variant takes from its parent when the payload does not set them.
const INHERITED: &[&str] = &[
    "tax_id",
    "manufacturer_id",
    "price_net",
    "price_gross",
    "list_price_net",
    "list_price_gross",
    "delivery_time_id",
    "unit_id",
    "shipping_free",
    "weight",
    "release_date",
];

fn prepare_product(tx: &Transaction, w: &mut Write) -> ApiResult<()> {
    let now = now_rfc3339();
    if w.creating {
        w.set("created_at", now);
    } else {
        w.set("updated_at", now);
    }
    if let Some(stock) = w.get("stock").cloned() {
        w.set("available_stock", stock);
    }
    let parent = match w.get("parent_id") {
        Some(SqlValue::Text(parent)) => Some(parent.clone()),
        _ => None,
    };
    if let Some(parent) = &parent {
        let grandparent: Option<String> = tx.query_row(
            "SELECT parent_id FROM product WHERE id = ?1",
            [parent],
            |r| r.get(0),
        )?;
        if grandparent.is_some() || parent == &w.id {
            return Err(ApiError::Violations(vec![w.violation(
                "VIOLATION::INVALID_PARENT",
                "parentId",
                "A variant's parent must be a main product (variants do not nest).",
            )]));
        }
        if !w.creating {
            let children: bool = tx.query_row(
                "SELECT EXISTS(SELECT 1 FROM product WHERE parent_id = ?1)",
                [&w.id],
                |r| r.get(0),
            )?;
            if children {
                return Err(ApiError::Violations(vec![w.violation(
                    "VIOLATION::INVALID_PARENT",
                    "parentId",
                    "A product with variants cannot become a variant.",
                )]));
            }
        }
        if w.creating {
            for column in INHERITED {
                if !w.has(column) {
                    let value: SqlValue = tx.query_row(
                        &format!("SELECT {column} FROM product WHERE id = ?1"),
                        [parent],
                        |r| r.get(0),
                    )?;
                    w.set(column, value);
                }
            }
        }
    }
    if w.creating && !w.has("price_gross") {
        return Err(ApiError::Violations(vec![Violation::blank(format!(
            "{}/price",
            w.pointer
        ))]));
    }
    if w.creating && !w.has("tax_id") {
        // Shopware needs a tax; the shop's standard rate (the first) is taken.
        let tax: Option<String> = tx
            .query_row(
                "SELECT id FROM tax ORDER BY position, id LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?;
        match tax {
            Some(tax) => w.set("tax_id", tax),
            None => {
                return Err(ApiError::Violations(vec![Violation::blank(format!(
                    "{}/taxId",
                    w.pointer
                ))]))
            }
        }
    }
    if let Some(SqlValue::Real(gross)) = w.get("price_gross").cloned() {
        // A net price not given is derived from the product's tax rate.
        if matches!(w.get("price_net"), None | Some(SqlValue::Null)) {
            let tax_id: Option<String> = match w.get("tax_id") {
                Some(SqlValue::Text(t)) => Some(t.clone()),
                _ => tx
                    .query_row("SELECT tax_id FROM product WHERE id = ?1", [&w.id], |r| {
                        r.get(0)
                    })
                    .optional()?,
            };
            let rate: f64 = match tax_id {
                Some(tax) => tx
                    .query_row("SELECT tax_rate FROM tax WHERE id = ?1", [tax], |r| {
                        r.get(0)
                    })
                    .optional()?
                    .unwrap_or(0.0),
                None => 0.0,
            };
            w.set("price_net", round(gross / (1.0 + rate / 100.0)));
        }
        if let Some(SqlValue::Real(list)) = w.get("list_price_gross").cloned() {
            if matches!(w.get("list_price_net"), None | Some(SqlValue::Null)) {
                let ratio = match w.get("price_net") {
                    Some(SqlValue::Real(net)) if gross > 0.0 => net / gross,
                    _ => 1.0,
                };
                w.set("list_price_net", round(list * ratio));
            }
        }
        w.set("listing_price", gross);
    }
    Ok(())
}

fn round(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

fn after_product(tx: &Transaction, id: &str) -> ApiResult<()> {
    let Some(parent) = tx
        .query_row("SELECT parent_id FROM product WHERE id = ?1", [id], |r| {
            r.get::<_, Option<String>>(0)
        })
        .optional()?
    else {
        return Ok(());
    };
    record_price(tx, id)?;
    reindex_product(tx, parent.as_deref().unwrap_or(id))?;
    // Its readable paths, as the demo's products have them (#31 item 12).
    crate::seo_url::write_product(tx, id)?;
    Ok(())
}

/// Keeps the price history (the cheapest price of the last 30 days) when the price
/// differs from the last one recorded.
fn record_price(tx: &Transaction, id: &str) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO product_price_history (product_id, valid_from, price_net, price_gross)
         SELECT p.id, ?2, p.price_net, p.price_gross FROM product p
         WHERE p.id = ?1 AND NOT EXISTS (
             SELECT 1 FROM product_price_history h WHERE h.product_id = p.id AND h.price_gross = p.price_gross
             AND h.valid_from = (SELECT MAX(valid_from) FROM product_price_history WHERE product_id = p.id))
         ON CONFLICT (product_id, valid_from) DO UPDATE SET price_net = excluded.price_net, price_gross = excluded.price_gross",
        params![id, now_rfc3339()],
    )?;
    Ok(())
}

fn before_product_delete(tx: &Transaction, id: &str) -> ApiResult<Vec<String>> {
    tx.execute("DELETE FROM product_search WHERE product_id = ?1", [id])?;
    let parent: Option<String> =
        tx.query_row("SELECT parent_id FROM product WHERE id = ?1", [id], |r| {
            r.get(0)
        })?;
    Ok(parent.into_iter().collect())
}

/// Rebuilds what the storefront derives from a main product and its variants.
pub fn reindex_product(tx: &Transaction, main: &str) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE product SET child_count = (SELECT COUNT(*) FROM product c WHERE c.parent_id = ?1) WHERE id = ?1 AND child_count != (SELECT COUNT(*) FROM product c WHERE c.parent_id = ?1)",
        [main],
    )?;
    tx.execute(
        "UPDATE product SET
            listing_price = COALESCE((SELECT MIN(c.price_gross) FROM product c WHERE c.parent_id = ?1 AND c.active = 1), price_gross),
            stock = CASE WHEN child_count > 0 THEN (SELECT SUM(c.stock) FROM product c WHERE c.parent_id = ?1) ELSE stock END,
            available_stock = CASE WHEN child_count > 0 THEN (SELECT SUM(c.available_stock) FROM product c WHERE c.parent_id = ?1) ELSE available_stock END
         WHERE id = ?1",
        [main],
    )?;
    // The configurator: every option a variant has.
    tx.execute(
        "DELETE FROM product_configurator_setting WHERE product_id = ?1 AND option_id NOT IN (
            SELECT po.option_id FROM product_option po JOIN product c ON c.id = po.product_id WHERE c.parent_id = ?1)",
        [main],
    )?;
    let options: Vec<String> = {
        let mut statement = tx.prepare(
            "SELECT DISTINCT po.option_id FROM product_option po JOIN product c ON c.id = po.product_id
             JOIN property_group_option o ON o.id = po.option_id
             WHERE c.parent_id = ?1 AND po.option_id NOT IN (SELECT option_id FROM product_configurator_setting WHERE product_id = ?1)
             ORDER BY o.property_group_id, o.position, o.id",
        )?;
        let rows = statement.query_map([main], |r| r.get(0))?;
        rows.collect::<Result<_, _>>()?
    };
    for (position, option) in options.iter().enumerate() {
        tx.execute(
            "INSERT INTO product_configurator_setting (id, product_id, option_id, position) VALUES (?1, ?2, ?3, ?4)",
            params![new_id(), main, option, position as i64],
        )?;
    }
    rebuild_tree(tx, main)?;
    // The search index: one row per language, the name falling back to the default
    // language's; the numbers of the product and its variants; keywords with the
    // manufacturer's name.
    tx.execute("DELETE FROM product_search WHERE product_id = ?1", [main])?;
    tx.execute(
        "INSERT INTO product_search (product_id, language_id, name, numbers, keywords)
         SELECT ?1, l.id, COALESCE(t.name, d.name, ''),
                (SELECT group_concat(product_number, ' ') FROM product WHERE id = ?1 OR parent_id = ?1),
                TRIM(COALESCE(t.keywords, d.keywords, '') || ' ' || COALESCE(
                    (SELECT mt.name FROM product_manufacturer_translation mt WHERE mt.product_manufacturer_id = m.manufacturer_id AND mt.language_id = l.id),
                    (SELECT mt.name FROM product_manufacturer_translation mt WHERE mt.product_manufacturer_id = m.manufacturer_id AND mt.language_id = ?2),
                    ''))
         FROM language l
         JOIN product m ON m.id = ?1
         LEFT JOIN product_translation t ON t.product_id = ?1 AND t.language_id = l.id
         LEFT JOIN product_translation d ON d.product_id = ?1 AND d.language_id = ?2
         WHERE COALESCE(t.name, d.name) IS NOT NULL",
        params![main, default_language(tx)?],
    )?;
    Ok(())
}

/// The listing index of a main product: its categories and all their ancestors.
fn rebuild_tree(tx: &Transaction, main: &str) -> rusqlite::Result<()> {
    tx.execute(
        "DELETE FROM product_category_tree WHERE product_id = ?1",
        [main],
    )?;
    tx.execute(
        "INSERT INTO product_category_tree (category_id, product_id)
         SELECT DISTINCT a.id, ?1 FROM product_category pc
         JOIN category c ON c.id = pc.category_id
         JOIN category a ON a.id = c.id OR instr(c.path, '|' || a.id || '|') > 0
         WHERE pc.product_id = ?1",
        [main],
    )?;
    Ok(())
}

// ---------------------------------------------------------------- category

pub static CATEGORY: Definition = Definition {
    name: "category",
    table: "category",
    columns: &[
        Column::id("parentId", "parent_id", "category"),
        Column::int("position", "position", 0, MAX_QUANTITY),
        Column::int("level", "level", 1, 1000).read_only(),
        Column::text("path", "path", 65_535).read_only(),
        Column::choice("type", "type", &["page", "link", "folder"]),
        Column::choice(
            "linkType",
            "link_type",
            &["category", "product", "external", "landing_page"],
        )
        .nullable(),
        Column::text("internalLink", "internal_link", 32),
        Column::boolean("linkNewTab", "link_new_tab"),
        Column::id("cmsPageId", "cms_page_id", "cms_page"),
        Column::id("mediaId", "media_id", "media"),
        Column::boolean("displayNestedProducts", "display_nested_products"),
        Column::boolean("visible", "visible"),
        Column::boolean("active", "active"),
        Column::date("createdAt", "created_at").read_only(),
    ],
    translation: Some(Translation {
        table: "category_translation",
        key: "category_id",
        fields: &[
            Column::text("name", "name", 255).required(),
            Column::text("description", "description", 65_535).rich_text(),
            Column::text("externalLink", "external_link", 2048),
            Column::text("metaTitle", "meta_title", 255),
            Column::text("metaDescription", "meta_description", 1024),
            Column::text("keywords", "keywords", 1024),
        ],
    }),
    extras: &[],
    ignored: &["afterCategoryId"],
    access: Access::GuidesRead,
    hooks: Hooks {
        prepare: prepare_category,
        after_write: after_category,
        before_delete: before_category_delete,
    },
    inherits_from: None,
};

/// The `path` and `level` of a category under `parent`.
fn placement(tx: &Transaction, parent: Option<&str>) -> rusqlite::Result<(String, i64)> {
    let Some(parent) = parent else {
        return Ok((String::new(), 1));
    };
    let (path, level): (String, i64) = tx.query_row(
        "SELECT path, level FROM category WHERE id = ?1",
        [parent],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let path = if path.is_empty() {
        format!("|{parent}|")
    } else {
        format!("{path}{parent}|")
    };
    Ok((path, level + 1))
}

fn prepare_category(tx: &Transaction, w: &mut Write) -> ApiResult<()> {
    if w.creating {
        w.set("created_at", now_rfc3339());
    }
    if w.creating || w.has("parent_id") {
        let parent = match w.get("parent_id") {
            Some(SqlValue::Text(parent)) => Some(parent.clone()),
            _ => None,
        };
        if let Some(parent) = &parent {
            let (path, _) = placement(tx, Some(parent))?;
            if parent == &w.id || path.contains(&format!("|{}|", w.id)) {
                return Err(ApiError::Violations(vec![w.violation(
                    "VIOLATION::PARENT_CYCLE",
                    "parentId",
                    "A category cannot be placed below itself or one of its children.",
                )]));
            }
        }
        let (path, level) = placement(tx, parent.as_deref())?;
        w.set("path", path);
        w.set("level", level);
    }
    Ok(())
}

/// After a move: the paths of every descendant, and the listing index of the
/// products in the moved subtree.
fn after_category(tx: &Transaction, id: &str) -> ApiResult<()> {
    let mut queue = vec![id.to_owned()];
    let mut subtree = Vec::new();
    while let Some(category) = queue.pop() {
        let children: Vec<String> = {
            let mut statement = tx.prepare("SELECT id FROM category WHERE parent_id = ?1")?;
            let rows = statement.query_map([&category], |r| r.get(0))?;
            rows.collect::<Result<_, _>>()?
        };
        let (path, level) = placement(tx, Some(&category))?;
        for child in &children {
            tx.execute(
                "UPDATE category SET path = ?1, level = ?2 WHERE id = ?3 AND (path != ?1 OR level != ?2)",
                params![path, level, child],
            )?;
        }
        queue.extend(children);
        subtree.push(category);
    }
    // Readable paths for the category and those below it (a renamed parent moves them).
    for category in &subtree {
        crate::seo_url::write_category(tx, category)?;
    }
    let products: Vec<String> = {
        let mut statement = tx.prepare(
            "SELECT DISTINCT COALESCE(p.parent_id, p.id) FROM product_category pc JOIN product p ON p.id = pc.product_id
             WHERE pc.category_id IN (SELECT value FROM json_each(?1))",
        )?;
        let rows = statement.query_map([json_ids(&subtree)], |r| r.get(0))?;
        rows.collect::<Result<_, _>>()?
    };
    for product in products {
        rebuild_tree(tx, &product)?;
    }
    Ok(())
}

fn before_category_delete(tx: &Transaction, id: &str) -> ApiResult<Vec<String>> {
    // The listing index of products in the subtree is rebuilt once it is gone.
    let mut statement = tx.prepare(
        "SELECT DISTINCT pc.product_id FROM product_category_tree pc WHERE pc.category_id = ?1",
    )?;
    let products: Vec<String> = statement
        .query_map([id], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    drop(statement);
    // Held in the transaction until the delete: a temp table is overkill; rebuild now
    // without the subtree's assignments, which the cascade removes anyway.
    tx.execute(
        "DELETE FROM product_category WHERE category_id = ?1 OR category_id IN (SELECT id FROM category WHERE instr(path, '|' || ?1 || '|') > 0)",
        [id],
    )?;
    for product in &products {
        rebuild_tree(tx, product)?;
    }
    Ok(Vec::new())
}

// ---------------------------------------------------------------- manufacturer

pub static PRODUCT_MANUFACTURER: Definition = Definition {
    name: "product_manufacturer",
    table: "product_manufacturer",
    columns: &[
        Column::id("mediaId", "media_id", "media"),
        Column::text("link", "link", 2048),
    ],
    translation: Some(Translation {
        table: "product_manufacturer_translation",
        key: "product_manufacturer_id",
        fields: &[
            Column::text("name", "name", 255).required(),
            Column::text("description", "description", 65_535),
        ],
    }),
    extras: &[],
    ignored: &[],
    access: Access::GuidesRead,
    hooks: NO_HOOKS,
    inherits_from: None,
};

// ---------------------------------------------------------------- properties

pub static PROPERTY_GROUP: Definition = Definition {
    name: "property_group",
    table: "property_group",
    columns: &[
        Column::choice(
            "displayType",
            "display_type",
            &["text", "color", "media", "select"],
        ),
        Column::choice("sortingType", "sorting_type", &["alphanumeric", "position"]),
        Column::boolean("filterable", "filterable"),
        Column::boolean(
            "visibleOnProductDetailPage",
            "visible_on_product_detail_page",
        ),
        Column::int("position", "position", 0, MAX_QUANTITY),
    ],
    translation: Some(Translation {
        table: "property_group_translation",
        key: "property_group_id",
        fields: &[
            Column::text("name", "name", 255).required(),
            Column::text("description", "description", 65_535),
        ],
    }),
    extras: &[Extra {
        name: "options",
        write: ExtraWrite::After(write_group_options),
        read: read_group_options,
        filter: Some(Expr::Membership {
            table: "property_group_option",
            key: "property_group_id",
            owner: "x.id",
            column: "id",
        }),
    }],
    ignored: &[],
    access: Access::GuidesRead,
    hooks: NO_HOOKS,
    inherits_from: None,
};

pub static PROPERTY_GROUP_OPTION: Definition = Definition {
    name: "property_group_option",
    table: "property_group_option",
    columns: &[
        Column::id("groupId", "property_group_id", "property_group").required(),
        Column::int("position", "position", 0, MAX_QUANTITY),
        Column::text("colorHexCode", "color_hex_code", 32),
        Column::id("mediaId", "media_id", "media"),
    ],
    translation: Some(Translation {
        table: "property_group_option_translation",
        key: "property_group_option_id",
        fields: &[Column::text("name", "name", 255).required()],
    }),
    extras: &[],
    ignored: &[],
    access: Access::GuidesRead,
    hooks: NO_HOOKS,
    inherits_from: None,
};

/// A group's `options`: each created or updated (by `id`) as a property_group_option
/// of the group; options not named stay.
fn write_group_options(tx: &Transaction, id: &str, value: &Value, pointer: &str) -> ApiResult<()> {
    let Some(list) = value.as_array() else {
        return Err(ApiError::Violations(vec![Violation::new(
            "VIOLATION::TYPE_ERROR",
            pointer.to_owned(),
            "This value should be a list.",
        )]));
    };
    for (n, option) in list.iter().enumerate() {
        let mut option = option.clone();
        if let Some(fields) = option.as_object_mut() {
            fields.insert("groupId".into(), Value::from(id));
        }
        write::upsert(
            tx,
            &PROPERTY_GROUP_OPTION,
            &option,
            &format!("{pointer}/{n}"),
        )?;
    }
    Ok(())
}

fn read_group_options(
    conn: &Connection,
    ids: &[String],
) -> rusqlite::Result<HashMap<String, Value>> {
    let mut statement = conn.prepare(
        "SELECT property_group_id, id FROM property_group_option WHERE property_group_id IN (SELECT value FROM json_each(?1)) ORDER BY position, id",
    )?;
    let pairs: Vec<(String, String)> = statement
        .query_map([json_ids(ids)], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let option_ids: Vec<String> = pairs.iter().map(|(_, option)| option.clone()).collect();
    let options = crate::admin_api::read::load(conn, &PROPERTY_GROUP_OPTION, &option_ids)?;
    let mut found: HashMap<String, Vec<Value>> = HashMap::new();
    for ((group, _), option) in pairs.into_iter().zip(options) {
        found.entry(group).or_default().push(option);
    }
    Ok(ids
        .iter()
        .map(|id| {
            (
                id.clone(),
                Value::Array(found.remove(id).unwrap_or_default()),
            )
        })
        .collect())
}
