//! Shopping lists of logged-in customers, in the shapes of the Store API's B2B shopping
//! lists (`storeApiSchema.json`: `B2bComponentsShoppingList`,
//! `B2bComponentsShoppingListLineItem`; issue 17). A customer with an account keeps
//! named lists of products with quantities, puts whole lists into the cart, and a guide
//! may share one into an appointment (`dsr/shopping_list.rs`).
//!
//! What Shopware's B2B Components add around them (organisations, employees, their
//! permissions) this shop does not have: a list belongs to one customer in one sales
//! channel; `employeeId`, `createdById`, `updatedById` are null and `organization` is
//! not an extension here.
//!
//! Limits ([`MAX_LISTS`], [`MAX_LINE_ITEMS`], [`MAX_QUANTITY`], [`MAX_NAME`],
//! [`MAX_IDS`]) are checked before anything is written; every refusal is in Shopware's
//! error shape and changes nothing.

pub mod lists;
pub mod records;

use axum::http::StatusCode;
use axum::routing::{get, patch, post};
use axum::Router;

use crate::error::ApiError;
use crate::state::App;

/// Lists per customer and sales channel.
pub const MAX_LISTS: usize = 50;
/// Products (line items) per list.
pub const MAX_LINE_ITEMS: usize = 100;
/// Largest quantity of one line item (quantities start at 1).
pub const MAX_QUANTITY: i64 = 10_000;
/// Longest name, in characters.
pub const MAX_NAME: usize = 255;
/// Most ids (lists, line items, products) one call names.
pub const MAX_IDS: usize = 100;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/shopping-list", post(lists::create).delete(lists::delete))
        .route("/shopping-lists", post(lists::search))
        .route("/shopping-lists/add-to-cart", post(lists::add_to_cart))
        .route(
            "/shopping-list/line-item/remove",
            post(lists::remove_line_items),
        )
        .route(
            "/shopping-list/line-item/{id}/change-quantity",
            post(lists::change_quantity),
        )
        .route("/shopping-list/{id}", post(lists::read).get(lists::read))
        .route("/shopping-list/{id}/add", post(lists::add_line_items))
        .route("/shopping-list/{id}/change-name", patch(lists::change_name))
        .route("/shopping-list/{id}/duplicate", post(lists::duplicate))
        .route("/shopping-list/{id}/summary", get(lists::summary))
}

pub fn not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "B2B__SHOPPING_LIST_NOT_FOUND",
        format!("Shopping list with id {id} not found."),
    )
}

fn line_item_not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "B2B__SHOPPING_LIST_LINE_ITEM_NOT_FOUND",
        format!("Shopping list line item with id {id} not found."),
    )
}

fn invalid_name() -> ApiError {
    ApiError::bad_request(
        "B2B__SHOPPING_LIST_INVALID_NAME",
        format!("The name must be 1 to {MAX_NAME} characters."),
    )
    .at("/name")
}

fn invalid_line_items(pointer: &str) -> ApiError {
    ApiError::bad_request(
        "B2B__SHOPPING_LIST_INVALID_LINE_ITEMS",
        format!("lineItems must map keys to {{\"id\": product id, \"quantity\": number}}, at most {MAX_IDS} of them."),
    )
    .at(pointer)
}

fn invalid_quantity(pointer: &str) -> ApiError {
    ApiError::bad_request(
        "B2B__SHOPPING_LIST_INVALID_QUANTITY",
        format!("The quantity must be a whole number from 1 to {MAX_QUANTITY}."),
    )
    .at(pointer)
}

fn invalid_ids(pointer: &str) -> ApiError {
    ApiError::bad_request(
        "B2B__SHOPPING_LIST_INVALID_IDS",
        format!("{pointer} must be a list of 1 to {MAX_IDS} ids."),
    )
    .at(pointer)
}

fn too_many_lists() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "B2B__SHOPPING_LIST_LIMIT_REACHED",
        format!("A customer keeps at most {MAX_LISTS} shopping lists; delete one first."),
    )
}

fn too_many_line_items() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "B2B__SHOPPING_LIST_LINE_ITEM_LIMIT_REACHED",
        format!("A shopping list holds at most {MAX_LINE_ITEMS} products."),
    )
}
