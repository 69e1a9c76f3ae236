//! The server wishlist of logged-in customers with an account (spec sections 3, 4, 6):
//! load with product criteria, add, delete, and merge the local list at login.

pub mod list;

use axum::routing::{delete, post};
use axum::Router;

use crate::state::App;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/customer/wishlist", post(list::load).get(list::load))
        .route("/customer/wishlist/add/{id}", post(list::add))
        .route("/customer/wishlist/delete/{id}", delete(list::remove))
        .route("/customer/wishlist/merge", post(list::merge))
}
