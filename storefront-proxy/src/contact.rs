//! The contact form (spec section 7): `POST /store-api/contact-form`.

pub mod form;

use axum::routing::post;
use axum::Router;

use crate::state::App;

pub fn routes() -> Router<App> {
    Router::new().route("/contact-form", post(form::send))
}
