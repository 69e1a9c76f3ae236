//! The newsletter: subscribe with double opt-in, confirm, unsubscribe, and the logged-in
//! customer's status (spec sections 4 and 7).

pub mod recipient;

use axum::routing::post;
use axum::Router;

use crate::state::App;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/newsletter/subscribe", post(recipient::subscribe))
        .route("/newsletter/confirm", post(recipient::confirm))
        .route("/newsletter/unsubscribe", post(recipient::unsubscribe))
        .route(
            "/account/newsletter-recipient",
            post(recipient::status).get(recipient::status),
        )
}
