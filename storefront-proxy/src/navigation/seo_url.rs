//! `POST /store-api/seo-url`: the SEO URLs (see [`crate::seo_url`]) by criteria.

use axum::extract::State;
use axum::Json;
use serde_json::Value;

use crate::catalog::criteria::{self, Expr, Field, Kind, Sql};
use crate::error::ApiResult;
use crate::seo_url::{from_row, COLUMNS};
use crate::state::App;
use crate::storage::json_ids;
use crate::store_api::{search_result, RequestParams, ShopContext};

fn seo_field(name: &str) -> Option<Field> {
    let column = |expr, kind| {
        Some(Field {
            expr: Expr::Column(expr),
            kind,
            translated: false,
        })
    };
    match name {
        "id" => column("id", Kind::Id),
        "foreignKey" => column("foreign_key", Kind::Id),
        "routeName" => column("route_name", Kind::Text),
        "pathInfo" => column("path_info", Kind::Text),
        "seoPathInfo" => column("seo_path_info", Kind::Text),
        "isCanonical" => column("is_canonical", Kind::Bool),
        "languageId" => column("language_id", Kind::Id),
        _ => None,
    }
}

/// `POST /store-api/seo-url`: SEO URLs of the sales channel and the request's
/// language, by criteria (e.g. `seoPathInfo` equals a path, `foreignKey` equals an id).
pub async fn search(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut criteria = criteria::parse(&params, "seo_url", &seo_field)?;
    let limit = criteria.limit.get_or_insert(criteria::MAX_LIMIT).to_owned();
    let page = criteria.page;
    let includes = std::mem::take(&mut criteria.includes);
    let (elements, total) = app
        .db
        .read(move |conn| {
            let mut from = Sql::default();
            from.push("FROM seo_url WHERE sales_channel_id = ")
                .bind(ctx.sales_channel.id.clone());
            from.push(" AND language_id = ")
                .bind(ctx.language_id().to_owned())
                .push(" AND is_deleted = 0");
            if let Some(ids) = &criteria.ids {
                from.push(" AND id IN (SELECT value FROM json_each(")
                    .bind(json_ids(ids))
                    .push("))");
            }
            if !criteria.condition.text.is_empty() {
                from.push(" AND (");
                from.append(&criteria.condition);
                from.push(")");
            }
            let mut query = Sql::default();
            query.push(&format!("SELECT {COLUMNS} "));
            query.append(&from);
            query.push(" ORDER BY ");
            if !criteria.order.text.is_empty() {
                query.append(&criteria.order);
                query.push(", ");
            }
            query
                .push("seo_path_info LIMIT ")
                .bind(limit)
                .push(" OFFSET ")
                .bind(criteria.offset());
            let elements = query.query_map(conn, |r| from_row(r, &ctx.base_url))?;
            let mut count = Sql::default();
            count.push("SELECT COUNT(*) ");
            count.append(&from);
            let total = count
                .query_map(conn, |r| r.get::<_, i64>(0))?
                .first()
                .copied()
                .unwrap_or(0) as usize;
            Ok((elements, total))
        })
        .await?;
    let mut body = search_result("seo_url", elements, total, page, Some(limit));
    criteria::apply_includes(&mut body, &includes);
    Ok(Json(body))
}
