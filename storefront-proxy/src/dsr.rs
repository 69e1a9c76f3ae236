//! Digital sales rooms: appointments, joining, presentations (spec section 7,
//! "Presentation"), in the shapes of `reference/dsr-openapi.json`.

pub mod appointment;
pub mod attendee;
pub mod interaction;
pub mod join;
pub mod lifecycle;
pub mod listing;
pub mod presentation;
pub mod profile;
pub mod setting;
pub mod slide;

use axum::routing::{get, patch, post};
use axum::Router;

use crate::app::App;

/// Routes under `/api` (admin, guide side).
pub fn admin_routes() -> Router<App> {
    Router::new()
        .route("/search/dsr-appointment", post(appointment::search))
        .route("/_action/dsr/appointment/{id}/join-as-guide", post(join::as_guide))
        .route("/_action/dsr/appointment/{id}/start", post(lifecycle::start))
        .route("/_action/dsr/appointment/{id}/end", post(lifecycle::end))
        .route("/_action/dsr/appointment/{id}/presentation/state", get(lifecycle::guide_state))
        .route("/_action/dsr/appointment/attendee/{id}/sw-context-token", get(attendee::context_token))
        .route("/_action/dsr/appointment/attendee/{id}/remove", post(attendee::remove))
}

/// Routes under `/store-api` (client side).
pub fn store_routes() -> Router<App> {
    Router::new()
        .route("/dsr/appointment/{presentation_path}/join-as-client", post(join::as_client))
        .route("/dsr/appointment/presentation", get(presentation::structure))
        .route("/dsr/appointment/presentation/state", get(lifecycle::client_state))
        .route("/dsr/interaction", post(interaction::create))
        .route("/dsr/appointment/collection/last-seen", get(interaction::last_seen))
        .route("/dsr/appointment/collection/{alias}", get(interaction::list))
        .route("/dsr/appointment/collection/{alias}/{product_id}", post(interaction::add).delete(interaction::remove))
        .route("/dsr/appointment/presentation/{page_id}/slide/{section_id}", get(slide::slide))
        .route("/dsr/appointment/presentation/{page_id}/slide/{section_id}/products", post(slide::products))
        .route("/dsr/appointment/attendee", patch(profile::update))
        .route("/dsr/appointment/{presentation_path}/attendee/respond-invitation", patch(profile::respond_invitation))
        .route("/dsr/appointment/{presentation_path}/basic-setting", get(setting::basic_setting))
        .route("/dsr/shop-pages/{layout_name}", get(setting::shop_page))
        .route("/dsr/product-listing", post(listing::product_listing))
        .route("/dsr/quickview/{product_id}", get(listing::quickview_default))
        .route("/dsr/quickview/{product_id}/{layout_id}", get(listing::quickview))
        .route("/dsr/product/{product_id}", get(listing::product))
}
