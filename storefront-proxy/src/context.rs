//! `GET|PATCH /store-api/context`: the session's `SalesChannelContext` and switching
//! its language, currency, country, addresses and methods.
//!
//! These calls sit above `account`, `checkout` and `settings` (they show the customer,
//! the chosen methods and the session's settings). What every domain needs about a
//! request's context ([`crate::store_api::ShopContext`], the session token) lives
//! below, in `store_api`.

pub mod session;

use axum::routing::get;
use axum::Router;

use crate::state::App;

pub fn routes() -> Router<App> {
    Router::new().route(
        "/context",
        get(session::get_context).patch(session::patch_context),
    )
}
