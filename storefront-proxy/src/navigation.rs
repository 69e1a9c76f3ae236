//! Categories, the navigation tree, breadcrumbs and SEO URLs (spec section 7:
//! category, navigation, seo-url).

pub mod category;
pub mod seo_url;
pub mod tree;

use axum::routing::post;
use axum::Router;

use crate::state::App;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/category/{id}", post(category::category))
        .route("/navigation/{active_id}/{root_id}", post(tree::navigation))
        .route("/seo-url", post(seo_url::search).get(seo_url::search))
}
