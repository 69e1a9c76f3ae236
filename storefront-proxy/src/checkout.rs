//! Checkout settings: payment methods and shipping methods with their costs (spec
//! section 7: payment-method, shipping-method).

pub mod methods;

use axum::routing::get;
use axum::Router;

use crate::state::App;

pub fn routes() -> Router<App> {
    Router::new()
        .route(
            "/payment-method",
            get(methods::payment_methods).post(methods::payment_methods),
        )
        .route(
            "/shipping-method",
            get(methods::shipping_methods).post(methods::shipping_methods),
        )
}
