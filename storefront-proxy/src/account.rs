//! Customer accounts: register (also as guest), login, logout, the logged-in
//! customer, addresses, profile changes and password recovery (spec section 7, account).

pub mod address;
pub mod customer;
pub mod logged_in;
pub mod password;
pub mod profile;
pub mod recovery;
pub mod session;

use axum::routing::{patch, post};
use axum::Router;

use crate::state::App;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/account/register", post(session::register))
        .route("/account/login", post(session::login))
        .route("/account/logout", post(session::logout))
        .route(
            "/account/customer",
            post(customer::current).get(customer::current),
        )
        .route(
            "/account/list-address",
            post(address::list).get(address::list),
        )
        .route("/account/address", post(address::create))
        .route(
            "/account/address/{id}",
            patch(address::update).delete(address::delete),
        )
        .route(
            "/account/address/default-billing/{id}",
            patch(address::default_billing),
        )
        .route(
            "/account/address/default-shipping/{id}",
            patch(address::default_shipping),
        )
        .route("/account/change-profile", post(profile::change_profile))
        .route("/account/change-email", post(profile::change_email))
        .route("/account/change-password", post(profile::change_password))
        .route(
            "/account/change-payment-method/{id}",
            post(profile::change_payment_method),
        )
        .route("/account/recovery-password", post(recovery::send_mail))
        .route(
            "/account/recovery-password-confirm",
            post(recovery::confirm),
        )
        .route(
            "/account/customer-recovery-is-expired",
            post(recovery::is_expired),
        )
}
