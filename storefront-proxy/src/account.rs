//! Customer accounts: register (also as guest), login, logout, the logged-in
//! customer, and addresses (spec section 7, account).

pub mod address;
pub mod customer;
pub mod session;

use axum::routing::{patch, post};
use axum::Router;

use crate::app::App;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/account/register", post(session::register))
        .route("/account/login", post(session::login))
        .route("/account/logout", post(session::logout))
        .route("/account/customer", post(customer::current).get(customer::current))
        .route("/account/list-address", post(address::list).get(address::list))
        .route("/account/address", post(address::create))
        .route("/account/address/{id}", patch(address::update).delete(address::delete))
        .route("/account/address/default-billing/{id}", patch(address::default_billing))
        .route("/account/address/default-shipping/{id}", patch(address::default_shipping))
}
