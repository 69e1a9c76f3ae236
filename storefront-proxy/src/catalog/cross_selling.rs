//! Cross-selling: `POST|GET /store-api/product/{productId}/cross-selling`, the product's
//! active cross-selling groups (a variant shows its parent's) with their assigned,
//! active products in order, as Shopware's `CrossSellingElementCollection`.

use axum::extract::{Path, State};
use axum::Json;
use rusqlite::{Connection, OptionalExtension};
use serde_json::{json, Value};

use super::product::{self, Load};
use super::{invalid_id, product_not_found};
use crate::error::ApiResult;
use crate::state::App;
use crate::storage::is_id;
use crate::storage::translation;
use crate::store_api::ShopContext;

const NAME: &[(&str, &str)] = &[("name", "name")];

pub async fn cross_sellings(
    ctx: ShopContext,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let id = id.to_lowercase();
    if !is_id(&id) {
        return Err(invalid_id(&id, "/productId"));
    }
    let product_id = id.clone();
    let elements = app
        .db
        .read(move |conn| Ok(load(conn, &ctx, &product_id)?))
        .await?;
    match elements {
        Some(elements) => Ok(Json(Value::Array(elements))),
        None => Err(product_not_found(&id)),
    }
}

/// The cross-selling elements of a product; None when there is no such active product.
fn load(
    conn: &Connection,
    ctx: &ShopContext,
    product_id: &str,
) -> rusqlite::Result<Option<Vec<Value>>> {
    let owner: Option<String> = conn
        .query_row(
            "SELECT COALESCE(parent_id, id) FROM product WHERE id = ?1 AND active = 1",
            [product_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(owner) = owner else { return Ok(None) };
    let mut statement = conn.prepare_cached(
        "SELECT id, position, limit_count, created_at FROM product_cross_selling WHERE product_id = ?1 AND active = 1 ORDER BY position, id",
    )?;
    let groups = statement
        .query_map([&owner], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let group_ids: Vec<String> = groups.iter().map(|g| g.0.clone()).collect();
    let names = translation::load(
        conn,
        "product_cross_selling_translation",
        "cross_selling_id",
        NAME,
        &group_ids,
        &ctx.languages,
    )?;
    let mut assigned = conn.prepare_cached(
        "SELECT a.product_id FROM product_cross_selling_assigned_products a JOIN product p ON p.id = a.product_id
         WHERE a.cross_selling_id = ?1 AND p.active = 1 ORDER BY a.position, a.id LIMIT ?2",
    )?;
    let mut elements = Vec::with_capacity(groups.len());
    for (id, position, limit, created_at) in groups {
        let ids = assigned
            .query_map(rusqlite::params![id, limit], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        let products = product::load(
            conn,
            ctx,
            &ids,
            Load {
                media: true,
                properties: false,
            },
        )?;
        let translated = translation::get(&names, &id, NAME);
        elements.push(json!({
            "crossSelling": {
                "id": id,
                "productId": owner,
                "name": translated["name"],
                "position": position,
                "type": "productList",
                "sortBy": "name",
                "sortDirection": "ASC",
                "active": true,
                "limit": limit,
                "createdAt": created_at,
                "updatedAt": null,
                "translated": translated,
                "apiAlias": "product_cross_selling",
            },
            "total": products.len(),
            "products": products,
            "streamId": null,
            "apiAlias": "cross_selling_element",
        }));
    }
    Ok(Some(elements))
}
