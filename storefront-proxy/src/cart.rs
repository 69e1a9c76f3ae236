//! The cart of a session: product, promotion and guide's discount line items, recalculated on every
//! read with stock, quantity rules, advanced prices, taxes and promotion codes
//! (spec section 7, cart; issue 3, shop rules).
//!
//! `model` is the typed cart, `pipeline` the calculation's steps over it (no SQLite),
//! `calculate` runs them against the stored cart (`store`), `json` is the answer's shape.

pub mod calculate;
pub mod checks;
pub mod discount;
pub mod json;
pub mod line_item;
pub mod model;
pub mod pipeline;
pub mod store;

use axum::routing::{get, post};
use axum::Router;

use crate::state::App;

pub fn routes() -> Router<App> {
    Router::new()
        .route(
            "/checkout/cart",
            get(line_item::get_cart).delete(line_item::delete_cart),
        )
        .route(
            "/checkout/cart/line-item",
            post(line_item::add)
                .patch(line_item::update)
                .delete(line_item::remove_by_query),
        )
        .route("/checkout/cart/line-item/delete", post(line_item::remove))
}
