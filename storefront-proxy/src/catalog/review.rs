//! Product reviews: `POST /store-api/product/{id}/reviews`, the published reviews of
//! a product (of its parent for a variant), newest first unless sorted otherwise.

use axum::extract::{Path, State};
use axum::Json;
use rusqlite::OptionalExtension;
use serde_json::{json, Value};

use super::criteria::{self, Expr, Field, Kind, Sql};
use super::{invalid_id, product_not_found};
use crate::error::ApiResult;
use crate::state::App;
use crate::storage::{is_id, json_ids};
use crate::store_api::ShopContext;
use crate::store_api::{search_result, RequestParams};

fn review_field(name: &str) -> Option<Field> {
    let column = |expr, kind| {
        Some(Field {
            expr: Expr::Column(expr),
            kind,
            translated: false,
        })
    };
    match name {
        "id" => column("r.id", Kind::Id),
        "points" => column("r.points", Kind::Number),
        "createdAt" => column("r.created_at", Kind::Date),
        "languageId" => column("r.language_id", Kind::Id),
        "title" => column("r.title", Kind::Text),
        "content" => column("r.content", Kind::Text),
        _ => None,
    }
}

pub async fn reviews(
    ctx: ShopContext,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let id = id.to_lowercase();
    if !is_id(&id) {
        return Err(invalid_id(&id, "/productId"));
    }
    let mut criteria = criteria::parse(&params, "product_review", &review_field)?;
    let limit = *criteria.limit.get_or_insert(10);
    let page = criteria.page;
    let includes = std::mem::take(&mut criteria.includes);
    let product_id = id.clone();
    let result = app
        .db
        .read(move |conn| {
            let owner: Option<String> = conn
                .query_row("SELECT COALESCE(parent_id, id) FROM product WHERE id = ?1 AND active = 1", [&product_id], |r| r.get(0))
                .optional()?;
            let Some(owner) = owner else { return Ok(None) };
            let mut from = Sql::default();
            from.push("FROM product_review r WHERE r.status = 1 AND r.product_id IN (SELECT value FROM json_each(")
                .bind(json_ids(&[owner.clone(), product_id.clone()]))
                .push(")) AND r.sales_channel_id = ")
                .bind(ctx.sales_channel.id.clone());
            if !criteria.condition.text.is_empty() {
                from.push(" AND (");
                from.append(&criteria.condition);
                from.push(")");
            }
            let mut query = Sql::default();
            query.push(
                "SELECT r.id, r.product_id, r.sales_channel_id, r.language_id, r.external_user, r.title, r.content, r.points,
                        r.status, r.comment, r.created_at ",
            );
            query.append(&from);
            query.push(" ORDER BY ");
            if criteria.order.text.is_empty() {
                query.push("r.created_at DESC");
            } else {
                query.append(&criteria.order);
            }
            query.push(", r.id LIMIT ").bind(limit).push(" OFFSET ").bind(criteria.offset());
            let elements = query.query_map(conn, |r| {
                Ok(json!({
                    "id": r.get::<_, String>(0)?,
                    "productId": r.get::<_, String>(1)?,
                    "salesChannelId": r.get::<_, String>(2)?,
                    "languageId": r.get::<_, String>(3)?,
                    "externalUser": r.get::<_, Option<String>>(4)?,
                    "title": r.get::<_, String>(5)?,
                    "content": r.get::<_, String>(6)?,
                    "points": r.get::<_, f64>(7)?,
                    "status": r.get::<_, bool>(8)?,
                    "comment": r.get::<_, Option<String>>(9)?,
                    "createdAt": r.get::<_, String>(10)?,
                    "apiAlias": "product_review",
                }))
            })?;
            let mut count = Sql::default();
            count.push("SELECT COUNT(*) ");
            count.append(&from);
            let total = count.query_map(conn, |r| r.get::<_, i64>(0))?.first().copied().unwrap_or(0) as usize;
            Ok(Some((elements, total)))
        })
        .await?;
    let (elements, total) = result.ok_or_else(|| product_not_found(&id))?;
    let mut body = search_result("product_review", elements, total, page, Some(limit));
    criteria::apply_includes(&mut body, &includes);
    Ok(Json(body))
}
