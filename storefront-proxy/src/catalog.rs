//! The product catalogue of the store API: product search, detail with configurator,
//! reviews, category listings, search and search suggestions (spec section 7).

pub mod criteria;
pub mod cross_selling;
pub mod detail;
pub mod listing;
pub mod listing_index;
pub mod price;
pub mod product;
pub mod property;
pub mod purchasable;
pub mod query;
pub mod review;

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::Value;

use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::store_api::ShopContext;
use crate::store_api::{search_result, RequestParams};

pub fn routes() -> Router<App> {
    Router::new()
        .route("/product", post(search))
        .route("/product/{id}", post(detail::detail))
        .route("/product/{id}/reviews", post(review::reviews))
        .route(
            "/product/{id}/cross-selling",
            post(cross_selling::cross_sellings).get(cross_selling::cross_sellings),
        )
        .route(
            "/product-listing/{category_id}",
            post(listing::category_listing),
        )
        .route("/search", post(listing::search))
        .route("/search-suggest", post(listing::suggest))
}

/// Shopware's answer for an unknown product.
pub fn product_not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "CONTENT__PRODUCT_NOT_FOUND",
        format!("Product for id {id} not found."),
    )
}

/// A path id that is not 32 hex characters.
pub fn invalid_id(id: &str, pointer: &str) -> ApiError {
    ApiError::bad_request(
        "FRAMEWORK__INVALID_UUID",
        format!("Value is not a valid UUID: {id}"),
    )
    .at(pointer)
}

/// Which extra associations criteria ask for.
pub fn load_of(criteria: &criteria::Criteria) -> product::Load {
    product::Load {
        media: criteria.wants("media"),
        properties: criteria.wants("properties"),
    }
}

/// `POST /store-api/product`: products by criteria (main products unless `ids` or a
/// `parentId` filter pick variants).
pub async fn search(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut criteria = criteria::parse(&params, "product", &query::product_field)?;
    let limit = *criteria.limit.get_or_insert(criteria::MAX_LIMIT.min(100));
    let page = criteria.page;
    let includes = std::mem::take(&mut criteria.includes);
    let load = load_of(&criteria);
    let picks_variants = criteria.condition.text.contains("p.parent_id");
    let (elements, total) = app
        .db
        .read(move |conn| {
            let selection = query::Selection {
                main_only: !picks_variants,
                ..Default::default()
            };
            let (ids, total) = query::select(conn, &ctx.languages, &selection, &criteria, false)?;
            Ok((product::load(conn, &ctx, &ids, load)?, total))
        })
        .await?;
    let mut body = search_result("product", elements, total, page, Some(limit));
    criteria::apply_includes(&mut body, &includes);
    Ok(Json(body))
}
