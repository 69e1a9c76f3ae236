//! Orders of the embedded shop (spec section 7, checkout and order calls): placing an
//! order from the cart, the order list, cancelling, changing the payment method,
//! handling the payment (with a hosted page for the online method), invoices as PDF
//! and downloads of digital products. States move only along the state machines of
//! `state`.

pub mod document;
pub mod document_type;
pub mod download;
pub mod load;
pub mod manage;
pub mod number;
pub mod payment;
pub mod place;
pub mod state;
pub mod transition;

use axum::routing::{get, post};
use axum::Router;

use crate::state::App;

/// The store API calls (under `/store-api`).
pub fn routes() -> Router<App> {
    Router::new()
        .route("/checkout/order", post(place::place))
        .route("/order", post(load::list))
        .route("/order/state/cancel", post(manage::cancel))
        .route("/order/payment", post(manage::change_payment))
        .route(
            "/handle-payment",
            get(payment::handle).post(payment::handle),
        )
        .route(
            "/document/download/{document_id}/{deep_link_code}",
            get(document::download).post(document::download),
        )
        .route(
            "/order/download/{order_id}/{download_id}",
            get(download::download),
        )
}

/// The hosted payment page of the "pay online" method (outside the store API: the
/// customer's browser opens it).
pub fn public_routes() -> Router<App> {
    Router::new().route(
        "/payment/pay-online/{token}",
        get(payment::show).post(payment::decide),
    )
}
