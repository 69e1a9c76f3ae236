//! Shopping experiences: CMS pages with sections, blocks and slots, whose slot data
//! (product listings, products, images) is resolved per request; landing pages.

pub mod landing;
pub mod page;
pub mod shop_page;

use axum::routing::post;
use axum::Router;

use crate::state::App;

pub fn routes() -> Router<App> {
    Router::new().route(
        "/landing-page/{id}",
        post(landing::landing_page).get(landing::landing_page),
    )
}
