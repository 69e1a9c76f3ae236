//! Digital sales rooms: appointments, joining, presentations (spec section 7,
//! "Presentation"), in the shapes of `reference/dsr-openapi.json`.

pub mod appointment;
pub mod appointment_request;
pub mod attendee;
pub mod calendar;
pub mod cart;
pub mod default_info;
pub mod delegation;
pub mod discount;
pub mod forwarded;
pub mod instant_listing;
pub mod interaction;
pub mod invite;
pub mod join;
pub mod lifecycle;
pub mod listing;
pub mod login_token;
pub mod presentation;
pub mod profile;
pub mod relay;
pub mod report;
pub mod saved_products;
pub mod search;
pub mod setting;
pub mod shopping_list;
pub mod slide;
pub mod upcoming;
pub mod video_room;
pub mod widget;
pub mod wishlist;

use axum::routing::{delete, get, patch, post};
use axum::Router;

pub use relay::RoomRelay;

use crate::state::App;

/// Routes under `/api` (admin, guide side).
pub fn admin_routes() -> Router<App> {
    Router::new()
        .route("/search/dsr-appointment", post(appointment::search))
        .route(
            "/_action/dsr/appointment/{id}/join-as-guide",
            post(join::as_guide),
        )
        .route(
            "/_action/dsr/appointment/{id}/start",
            post(lifecycle::start),
        )
        .route("/_action/dsr/appointment/{id}/end", post(lifecycle::end))
        .route("/_action/dsr/appointment/{id}/invite", post(invite::invite))
        .route(
            "/_action/dsr/appointment/{id}/invitations",
            get(invite::invitations),
        )
        .route("/_action/dsr/appointment/{id}/report", get(report::report))
        .route(
            "/_action/dsr/appointment/{id}/presentation/state",
            get(lifecycle::guide_state),
        )
        .route(
            "/_action/dsr/appointment/attendee/{id}/sw-context-token",
            get(delegation::context_token),
        )
        .route(
            "/_action/dsr/appointment/attendee/{id}/remove",
            post(attendee::remove),
        )
        .route(
            "/_action/dsr/appointment/attendee/{id}/last-seen-product-ids",
            get(interaction::last_seen_product_ids),
        )
        .route(
            "/_action/dsr/appointment/attendee/{id}/load-temp-cart",
            get(discount::load_temp_cart),
        )
        .route(
            "/_action/dsr/appointment/attendee/{id}/add-temp-discount",
            post(discount::add_temp_discount),
        )
        .route(
            "/_action/dsr/appointment/attendee/{id}/remove-temp-discount",
            post(discount::remove_temp_discount),
        )
        .route(
            "/_action/dsr/appointment/attendee/{id}/apply-temp-discount",
            post(discount::apply_temp_discount),
        )
        .route(
            "/_action/dsr/appointment/attendee/{id}/add-cart-discount",
            post(discount::add_cart_discount),
        )
        .route(
            "/_action/dsr/appointment/{id}/shopping-lists/{shopping_list_id}",
            post(shopping_list::share),
        )
        .route(
            "/_action/dsr/appointment/{id}/video-room",
            post(video_room::create).delete(video_room::delete),
        )
        .route(
            "/search/dsr-appointment-video-chat",
            post(video_room::search),
        )
        .route("/search/dsr-appointment-attendee", post(search::attendees))
        .route(
            "/search/dsr-attendee-product-collection",
            post(search::collections),
        )
        .route("/search/product", post(search::products))
        .route("/search/order-customer", post(search::order_customers))
        .route(
            "/dsr-attendee-product-collection",
            get(search::list_collections).post(search::create_collection),
        )
        .route(
            "/dsr-attendee-product-collection/{id}",
            get(search::read_collection)
                .patch(search::update_collection)
                .delete(search::delete_collection),
        )
        .route(
            "/_action/dsr/appointment/{id}/instant-listing",
            post(instant_listing::create).patch(instant_listing::update),
        )
        .route(
            "/_action/dsr/appointment/{id}/instant-listing/{page_id}",
            delete(instant_listing::delete),
        )
        .route(
            "/_action/dsr/appointment/{id}/saved-products",
            get(saved_products::list)
                .post(saved_products::add)
                .delete(saved_products::clear),
        )
        .route(
            "/_action/dsr/appointment/{id}/saved-products/{product_id}",
            patch(saved_products::update).delete(saved_products::remove),
        )
        .route(
            "/_action/dsr/appointment/{id}/widgets/wishlist",
            get(widget::wishlist),
        )
        .route(
            "/_action/dsr/appointment/{id}/widgets/wishlist-statistics",
            get(widget::wishlist),
        )
        .route(
            "/_action/dsr/appointment/{id}/widgets/last-seen-statistics",
            get(widget::last_seen),
        )
        .route(
            "/_action/dsr/appointment/{id}/widgets/cart-statistics",
            get(widget::cart_statistics),
        )
        .route(
            "/_action/dsr/appointment/{id}/widgets/cart-insights",
            get(widget::cart_insights),
        )
        .route(
            "/_action/dsr/appointment/{id}/widgets/attendee-insights",
            get(widget::attendee_insights),
        )
        .route(
            "/_proxy/store-api/{sales_channel_id}/checkout/cart",
            get(cart::get_cart),
        )
        .route(
            "/_proxy/store-api/{sales_channel_id}/checkout/cart/line-item",
            post(cart::add).patch(cart::update).delete(cart::remove),
        )
}

/// Routes under `/store-api` (client side).
pub fn store_routes() -> Router<App> {
    Router::new()
        .route("/dsr/appointments", get(upcoming::list))
        .route(
            "/dsr/appointment/{presentation_path}/join-as-client",
            post(join::as_client),
        )
        .route(
            "/dsr/appointment/{appointment_id}/download-ics",
            post(calendar::download_ics),
        )
        .route(
            "/dsr/appointment/request",
            post(appointment_request::create),
        )
        .route(
            "/dsr/appointment/presentation",
            get(presentation::structure),
        )
        .route(
            "/dsr/appointment/presentation/state",
            get(lifecycle::client_state),
        )
        .route("/dsr/interaction", post(interaction::create))
        .route(
            "/dsr/appointment/collection/last-seen",
            get(interaction::last_seen),
        )
        .route(
            "/dsr/appointment/collection/{alias}",
            get(interaction::list),
        )
        .route(
            "/dsr/appointment/collection/{alias}/{product_id}",
            post(interaction::add).delete(interaction::remove),
        )
        .route(
            "/dsr/appointment/presentation/{page_id}/slide/{section_id}",
            get(slide::slide),
        )
        .route(
            "/dsr/appointment/presentation/{page_id}/slide/{section_id}/products",
            post(slide::products),
        )
        .route(
            "/dsr/presentation/{presentation_id}/preview",
            get(slide::preview),
        )
        .route("/dsr/appointment/attendee", patch(profile::update))
        .route(
            "/dsr/appointment/{presentation_path}/attendee/respond-invitation",
            patch(profile::respond_invitation),
        )
        .route(
            "/dsr/appointment/{presentation_path}/basic-setting",
            get(setting::basic_setting),
        )
        .route("/dsr/shop-pages/{layout_name}", get(setting::shop_page))
        .route("/dsr/product-listing", post(listing::product_listing))
        .route(
            "/dsr/quickview/{product_id}",
            get(listing::quickview_default),
        )
        .route(
            "/dsr/quickview/{product_id}/{layout_id}",
            get(listing::quickview),
        )
        .route("/dsr/product/{product_id}", get(listing::product))
        .route(
            "/dsr/customer/wishlist-product-ids",
            post(wishlist::product_ids),
        )
        .route(
            "/dsr/customer/generate-login-token",
            post(login_token::generate),
        )
        .route(
            "/dsr/customer/automatic-login",
            post(login_token::automatic_login),
        )
        .route(
            "/dsr/customer/migrate-visitor-session",
            post(login_token::migrate_visitor_session),
        )
        .route(
            "/dsr/account/update-default-info",
            post(default_info::update),
        )
        .route(
            "/dsr/appointment/{appointment_id}/shopping-lists",
            get(shopping_list::load),
        )
}
