//! `POST /store-api/checkout/order`: the session's cart becomes an order in one
//! transaction: a snapshot of line items, prices, addresses and customer; stock taken;
//! a transaction with the session's payment method, a delivery with its shipping
//! method; the invoice; the cart emptied.
//!
//! Typed steps: `request` (the body), the typed cart (`cart::calculate`), `rows` (what
//! the order stores of it, no SQLite), `write` (the rows inside the transaction).

pub mod request;
pub mod rows;
pub mod write;

use axum::extract::State;
use axum::Json;
use rusqlite::{Connection, Transaction};
use serde_json::Value;

use self::request::Request;
use self::rows::Refusal;
pub use self::write::restore_stock;
use super::number::next_number;
use super::state::Locale;
use crate::account::logged_in::LoggedIn;
use crate::cart::calculate;
use crate::cart::checks::{active_addresses, ActiveAddresses};
use crate::cart::model::Cart;
use crate::checkout::methods;
use crate::error::{ApiError, ApiResult};
use crate::shop_event::ShopEvent;
use crate::state::App;
use crate::storage::{new_id, now_rfc3339};
use crate::store_api::RequestParams;
use crate::store_api::ShopContext;

fn cart_invalid(errors: &[(String, String)]) -> ApiError {
    let keys: Vec<String> = errors
        .iter()
        .map(|(key, message)| format!("{key} ({message})"))
        .collect();
    ApiError::bad_request(
        "CHECKOUT__CART_INVALID",
        format!(
            "The cart is invalid, got {} error(s): {}",
            errors.len(),
            keys.join("; ")
        ),
    )
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> ApiError {
        match refusal {
            Refusal::Empty => ApiError::bad_request("CHECKOUT__CART_EMPTY", "Cart is empty"),
            Refusal::Invalid(errors) => cart_invalid(&errors),
        }
    }
}

/// Who orders and how: the customer, the addresses, the payment method.
struct Checkout {
    customer_id: String,
    billing_id: String,
    shipping_id: String,
    payment_method_id: String,
}

/// The session's customer with both addresses and its payment method.
fn checkout(
    conn: &Connection,
    ctx: &ShopContext,
    token: &str,
) -> rusqlite::Result<Result<Checkout, ApiError>> {
    let Some(ActiveAddresses {
        customer_id,
        billing: Some(billing_id),
        shipping: Some(shipping_id),
    }) = active_addresses(conn, token)?
    else {
        return Ok(Err(cart_invalid(&[(
            "billing-address-invalid".into(),
            "The address is missing.".into(),
        )])));
    };
    let (payment_id, _) = methods::chosen(conn, ctx, Some(token))?;
    let payment = match &payment_id {
        Some(id) => methods::load_payment_methods(conn, &ctx.languages, Some(id))?
            .into_iter()
            .next(),
        None => None,
    };
    let Some(payment) = payment else {
        return Ok(Err(ApiError::not_found(
            "CHECKOUT__UNKNOWN_PAYMENT_METHOD",
            "The payment method of the session could not be found.",
        )));
    };
    let payment_method_id = payment["id"].as_str().unwrap_or_default().to_owned();
    Ok(Ok(Checkout {
        customer_id,
        billing_id,
        shipping_id,
        payment_method_id,
    }))
}

/// Writes the order of `cart` inside `tx`; its id, or why not (then `tx` is dropped,
/// which rolls everything back).
fn write_order(
    tx: &Transaction,
    user: &LoggedIn,
    cart: &Cart,
    checkout: &Checkout,
    request: &Request,
) -> rusqlite::Result<Result<(String, String), ApiError>> {
    let ctx = &user.ctx;
    let now = now_rfc3339();
    let order_id = new_id();
    let number = next_number(tx, "order")?;
    let customer = write::Customer::load(tx, &checkout.customer_id, &checkout.billing_id)?;
    let currency_id = write::currency(tx, &user.token)?;
    // The billing address row is written first; the order references it.
    let billing_address_id = new_id();
    let order = write::Order {
        id: &order_id,
        number: &number,
        currency_id: &currency_id,
        billing_address_id: &billing_address_id,
        now: &now,
    };
    write::insert_order(tx, ctx, &order, &customer, &rows::totals(cart), request)?;
    // Placed in a live appointment (the session is one of its attendees'): the order
    // keeps the appointment, as Shopware's digital sales rooms do.
    tx.execute(
        "UPDATE shop_order SET appointment_id = (
             SELECT a.appointment_id FROM attendee a JOIN appointment p ON p.id = a.appointment_id
             WHERE a.context_token = ?2 AND a.type = 'CLIENT' AND a.removed_at IS NULL AND p.ended_at IS NULL
             ORDER BY a.joined_at DESC LIMIT 1)
         WHERE id = ?1",
        rusqlite::params![order_id, user.token],
    )?;
    write::copy_address(
        tx,
        billing_address_id.clone(),
        &order_id,
        &checkout.billing_id,
        &now,
    )?;
    let shipping_address_id = if checkout.shipping_id == checkout.billing_id {
        billing_address_id
    } else {
        write::copy_address(tx, new_id(), &order_id, &checkout.shipping_id, &now)?
    };
    for line in rows::lines(cart) {
        if let Some(product_id) = &line.product_id {
            if !write::take_stock(tx, product_id, line.quantity)? {
                let message = format!(
                    "The product {} is not available in the quantity {}.",
                    line.label, line.quantity
                );
                return Ok(Err(cart_invalid(&[(
                    "product-stock-reached".into(),
                    message,
                )])));
            }
        }
        write::insert_line(tx, &order_id, &line, &now)?;
    }
    write::insert_transaction(
        tx,
        &order_id,
        &checkout.payment_method_id,
        &rows::amount(cart).to_string(),
        &now,
    )?;
    if let Some(delivery) = rows::delivery(cart) {
        write::insert_delivery(tx, &order_id, &shipping_address_id, &delivery, &now)?;
    }
    Ok(Ok((order_id, number)))
}

fn load_order(conn: &Connection, ctx: &ShopContext, order_id: &str) -> anyhow::Result<Value> {
    let orders = super::load::load(
        conn,
        ctx,
        &[order_id.to_owned()],
        super::load::Associations::ALL,
    )?;
    orders
        .into_iter()
        .next()
        .ok_or_else(|| anyhow::anyhow!("order {order_id} not written"))
}

/// Places the order of the session's cart: the order as the store API answers it.
fn place_order(
    conn: &mut Connection,
    user: &LoggedIn,
    request: &Request,
) -> anyhow::Result<Result<Value, ApiError>> {
    let ctx = &user.ctx;
    // The cart as the customer would see it now (adjustments are written back).
    let cart = calculate::calculate_cart(conn, ctx, &user.token, Vec::new(), Vec::new())?;
    if let Err(refusal) = rows::check(&cart) {
        return Ok(Err(refusal.into()));
    }
    let checkout = match checkout(conn, ctx, &user.token)? {
        Ok(checkout) => checkout,
        Err(error) => return Ok(Err(error)),
    };
    let tx = conn.transaction()?;
    let (order_id, order_number) = match write_order(&tx, user, &cart, &checkout, request)? {
        Ok(written) => written,
        Err(error) => return Ok(Err(error)),
    };
    tx.execute("DELETE FROM cart WHERE token = ?1", [&user.token])?;
    // The invoice, in the order's language.
    let locale = Locale::of(&tx, ctx.language_id())?;
    super::document::create_invoice(&tx, &load_order(&tx, ctx, &order_id)?, locale)?;
    tx.commit()?;
    let order = load_order(conn, ctx, &order_id)?;
    tracing::info!(%order_id, %order_number, "order placed");
    Ok(Ok(order))
}

/// `POST /store-api/checkout/order`
pub async fn place(
    user: LoggedIn,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let request = request::parse(&body)?;
    let token = user.token.clone();
    let order = app
        .db
        .call(move |conn| place_order(conn, &user, &request))
        .await??;
    // The cart became the order.
    app.events.emit(ShopEvent::emptied_cart(token)).await;
    Ok(Json(order))
}
