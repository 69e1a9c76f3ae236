//! `POST /store-api/checkout/order`: the session's cart becomes an order in one
//! transaction: a snapshot of line items, prices, addresses and customer; stock taken;
//! a transaction with the session's payment method, a delivery with its shipping
//! method; the invoice; the cart emptied.

use axum::extract::State;
use axum::Json;
use rusqlite::{params, Transaction};
use serde_json::{json, Map, Value};

use super::state::Locale;
use crate::account::customer::LoggedIn;
use crate::cart::calculate;
use crate::cart::checks::{active_addresses, ActiveAddresses};
use crate::checkout::methods;
use crate::error::{ApiError, ApiResult, Violation};
use crate::shop_event::ShopEvent;
use crate::state::App;
use crate::storage::{new_id, now_rfc3339};
use crate::store_api::RequestParams;

const MAX_COMMENT_LENGTH: usize = 5000;
const MAX_CODE_LENGTH: usize = 255;

/// The optional fields of the request.
#[derive(Debug, Default)]
struct Input {
    customer_comment: Option<String>,
    affiliate_code: Option<String>,
    campaign_code: Option<String>,
}

fn optional_text(body: &Map<String, Value>, key: &str, max: usize, violations: &mut Vec<Violation>) -> Option<String> {
    match body.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) if text.chars().count() > max => {
            violations.push(Violation::new(
                "VIOLATION::TOO_LONG_ERROR",
                format!("/{key}"),
                format!("This value is too long. It should have {max} characters or less."),
            ));
            None
        }
        Some(Value::String(text)) => Some(text.trim().to_owned()).filter(|t| !t.is_empty()),
        Some(_) => {
            violations.push(Violation::new("VIOLATION::INVALID_TYPE_ERROR", format!("/{key}"), "This value should be of type string."));
            None
        }
    }
}

fn parse(body: &Map<String, Value>) -> Result<Input, ApiError> {
    let mut violations = Vec::new();
    // The store API does not ask for the terms; a client that sends them must send true.
    if let Some(tos) = body.get("tos") {
        let accepted = matches!(tos, Value::Bool(true)) || matches!(tos, Value::String(s) if s == "true" || s == "1") || tos == &json!(1);
        if !accepted {
            violations.push(Violation::new("VIOLATION::NOT_TRUE_ERROR", "/tos", "The terms and conditions must be accepted."));
        }
    }
    let input = Input {
        customer_comment: optional_text(body, "customerComment", MAX_COMMENT_LENGTH, &mut violations),
        affiliate_code: optional_text(body, "affiliateCode", MAX_CODE_LENGTH, &mut violations),
        campaign_code: optional_text(body, "campaignCode", MAX_CODE_LENGTH, &mut violations),
    };
    if violations.is_empty() {
        Ok(input)
    } else {
        Err(ApiError::Violations(violations))
    }
}

fn cart_empty() -> ApiError {
    ApiError::bad_request("CHECKOUT__CART_EMPTY", "Cart is empty")
}

fn cart_invalid(errors: &[Value]) -> ApiError {
    let keys: Vec<String> = errors
        .iter()
        .map(|e| format!("{} ({})", e["messageKey"].as_str().unwrap_or_default(), e["message"].as_str().unwrap_or_default()))
        .collect();
    ApiError::bad_request("CHECKOUT__CART_INVALID", format!("The cart is invalid, got {} error(s): {}", errors.len(), keys.join("; ")))
}

/// The next number of the range `name` (`order`, `invoice`).
pub fn next_number(tx: &Transaction, name: &str) -> rusqlite::Result<String> {
    let number: i64 =
        tx.query_row("UPDATE number_range SET next_number = next_number + 1 WHERE name = ?1 RETURNING next_number - 1", [name], |r| {
            r.get(0)
        })?;
    Ok(number.to_string())
}

/// Copies a customer address into the order; answers the order address id.
fn copy_address(tx: &Transaction, id: String, order_id: &str, address_id: &str, now: &str) -> rusqlite::Result<String> {
    tx.execute(
        "INSERT INTO order_address (id, order_id, country_id, country_state_id, salutation_id, title, first_name, last_name, company, department,
            street, zipcode, city, phone_number, additional_address_line1, additional_address_line2, created_at)
         SELECT ?1, ?2, country_id, country_state_id, salutation_id, title, first_name, last_name, company, department,
            street, zipcode, city, phone_number, additional_address_line1, additional_address_line2, ?4
         FROM customer_address WHERE id = ?3",
        params![id, order_id, address_id, now],
    )?;
    Ok(id)
}

/// Takes `quantity` of a product (and of its parent's sum) from stock; false when not
/// enough is available.
fn take_stock(tx: &Transaction, product_id: &str, quantity: i64) -> rusqlite::Result<bool> {
    let taken = tx.execute(
        "UPDATE product SET stock = stock - ?2, available_stock = available_stock - ?2 WHERE id = ?1 AND available_stock >= ?2",
        params![product_id, quantity],
    )?;
    if taken == 1 {
        tx.execute(
            "UPDATE product SET stock = stock - ?2, available_stock = available_stock - ?2 WHERE id = (SELECT parent_id FROM product WHERE id = ?1)",
            params![product_id, quantity],
        )?;
    }
    Ok(taken == 1)
}

/// Gives back what an order took (on cancel).
pub fn restore_stock(tx: &Transaction, order_id: &str) -> rusqlite::Result<()> {
    let items: Vec<(String, i64)> = tx
        .prepare_cached(
            "SELECT product_id, quantity FROM order_line_item WHERE order_id = ?1 AND type = 'product' AND product_id IS NOT NULL",
        )?
        .query_map([order_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (product_id, quantity) in items {
        tx.execute(
            "UPDATE product SET stock = stock + ?2, available_stock = available_stock + ?2 WHERE id = ?1",
            params![product_id, quantity],
        )?;
        tx.execute(
            "UPDATE product SET stock = stock + ?2, available_stock = available_stock + ?2 WHERE id = (SELECT parent_id FROM product WHERE id = ?1)",
            params![product_id, quantity],
        )?;
    }
    Ok(())
}

/// The amount of a transaction: the order total as one `calculated_price`.
pub fn amount_of(price: &Value) -> Value {
    json!({
        "unitPrice": price["totalPrice"],
        "quantity": 1,
        "totalPrice": price["totalPrice"],
        "calculatedTaxes": price["calculatedTaxes"],
        "taxRules": price["taxRules"],
        "referencePrice": null,
        "listPrice": null,
        "regulationPrice": null,
        "apiAlias": "calculated_price",
    })
}

fn zero_costs() -> Value {
    json!({ "unitPrice": 0.0, "quantity": 1, "totalPrice": 0.0, "calculatedTaxes": [], "taxRules": [], "referencePrice": null, "listPrice": null, "regulationPrice": null, "apiAlias": "calculated_price" })
}

/// `POST /store-api/checkout/order`
pub async fn place(user: LoggedIn, State(app): State<App>, RequestParams(body): RequestParams) -> ApiResult<Json<Value>> {
    let input = parse(&body)?;
    let token = user.token.clone();
    let order = app
        .db
        .call(move |conn| {
            let ctx = &user.ctx;
            // The cart as the customer would see it now (adjustments are written back).
            let cart = calculate::calculate(conn, ctx, &user.token, Vec::new())?;
            let items: Vec<Value> = cart["lineItems"].as_array().cloned().unwrap_or_default();
            if !items.iter().any(|i| i["type"] == "product") {
                return Ok(Err(cart_empty()));
            }
            let blocking: Vec<Value> = cart["errors"].as_object().map(|e| e.values().filter(|e| e["level"].as_i64().unwrap_or(0) >= 10).cloned().collect()).unwrap_or_default();
            if !blocking.is_empty() {
                return Ok(Err(cart_invalid(&blocking)));
            }
            let Some(ActiveAddresses { customer_id, billing: Some(billing_id), shipping: Some(shipping_id) }) = active_addresses(conn, &user.token)? else {
                return Ok(Err(cart_invalid(&[json!({"messageKey": "billing-address-invalid", "message": "The address is missing."})])));
            };
            let (payment_id, _) = methods::chosen(conn, ctx, Some(&user.token))?;
            let payment = match &payment_id {
                Some(id) => methods::load_payment_methods(conn, &ctx.languages, Some(id))?.into_iter().next(),
                None => None,
            };
            let Some(payment) = payment else {
                return Ok(Err(ApiError::not_found("CHECKOUT__UNKNOWN_PAYMENT_METHOD", "The payment method of the session could not be found.")));
            };

            let tx = conn.transaction()?;
            let now = now_rfc3339();
            let order_id = new_id();
            let order_number = next_number(&tx, "order")?;
            let (email, first_name, last_name, customer_number, salutation_id, title): (String, String, String, String, Option<String>, Option<String>) = tx.query_row(
                "SELECT email, first_name, last_name, customer_number, salutation_id, title FROM customer WHERE id = ?1",
                [&customer_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
            )?;
            let company: Option<String> = tx.query_row("SELECT company FROM customer_address WHERE id = ?1", [&billing_id], |r| r.get(0))?;
            let currency_id: String = tx.query_row(
                "SELECT COALESCE(s.currency_id, c.currency_id) FROM store_context s JOIN sales_channel c ON c.id = s.sales_channel_id WHERE s.token = ?1",
                [&user.token],
                |r| r.get(0),
            )?;
            let price = &cart["price"];
            let delivery = cart["deliveries"].as_array().and_then(|d| d.first()).cloned();
            let shipping_costs = delivery.as_ref().map(|d| d["shippingCosts"].clone()).unwrap_or_else(zero_costs);
            let shipping_total = shipping_costs["totalPrice"].as_f64().unwrap_or(0.0);
            // The billing address row is written first; the order references it.
            let billing_address_id = new_id();
            tx.execute(
                "INSERT INTO shop_order (id, order_number, sales_channel_id, customer_id, language_id, currency_id, state, order_date_time,
                    billing_address_id, price, shipping_costs, amount_total, amount_net, position_price, shipping_total, tax_status,
                    deep_link_code, customer_comment, affiliate_code, campaign_code, order_customer_id, customer_email, customer_first_name,
                    customer_last_name, customer_number, customer_salutation_id, customer_title, customer_company, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'open', ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24,
                    ?25, ?26, ?27, ?7)",
                params![
                    order_id,
                    order_number,
                    ctx.sales_channel.id,
                    customer_id,
                    ctx.language_id(),
                    currency_id,
                    now,
                    billing_address_id,
                    price.to_string(),
                    shipping_costs.to_string(),
                    price["totalPrice"].as_f64().unwrap_or(0.0),
                    price["netPrice"].as_f64().unwrap_or(0.0),
                    price["positionPrice"].as_f64().unwrap_or(0.0),
                    shipping_total,
                    price["taxStatus"].as_str().unwrap_or("gross"),
                    new_id() + &new_id(),
                    input.customer_comment,
                    input.affiliate_code,
                    input.campaign_code,
                    new_id(),
                    email,
                    first_name,
                    last_name,
                    customer_number,
                    salutation_id,
                    title,
                    company,
                ],
            )?;
            copy_address(&tx, billing_address_id.clone(), &order_id, &billing_id, &now)?;
            let shipping_address_id = if shipping_id == billing_id { billing_address_id.clone() } else { copy_address(&tx, new_id(), &order_id, &shipping_id, &now)? };

            for (position, item) in items.iter().enumerate() {
                let kind = item["type"].as_str().unwrap_or("product");
                let quantity = item["quantity"].as_i64().unwrap_or(1);
                let referenced = item["referencedId"].as_str().unwrap_or_default().to_owned();
                let label = item["label"].as_str().unwrap_or_default().to_owned();
                if kind == "product" && !take_stock(&tx, &referenced, quantity)? {
                    // Dropping `tx` rolls back everything written so far.
                    return Ok(Err(cart_invalid(&[json!({
                        "messageKey": "product-stock-reached",
                        "message": format!("The product {label} is not available in the quantity {quantity}."),
                    })])));
                }
                let line_item_id = new_id();
                let states = item["states"].clone();
                tx.execute(
                    "INSERT INTO order_line_item (id, order_id, identifier, referenced_id, product_id, promotion_id, type, label, description, quantity,
                        unit_price, total_price, good, position, price, price_definition, payload, cover, states, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
                    params![
                        line_item_id,
                        order_id,
                        item["id"].as_str().unwrap_or_default(),
                        referenced,
                        (kind == "product").then_some(&referenced),
                        item["payload"]["promotionId"].as_str(),
                        kind,
                        label,
                        item["description"].as_str(),
                        quantity,
                        item["price"]["unitPrice"].as_f64().unwrap_or(0.0),
                        item["price"]["totalPrice"].as_f64().unwrap_or(0.0),
                        item["good"].as_bool().unwrap_or(false),
                        position as i64 + 1,
                        item["price"].to_string(),
                        item.get("priceDefinition").map(Value::to_string),
                        item["payload"].to_string(),
                        item.get("cover").filter(|c| c.is_object()).map(Value::to_string),
                        states.to_string(),
                        now,
                    ],
                )?;
                if states.as_array().is_some_and(|s| s.iter().any(|s| s == "is-download")) {
                    tx.execute(
                        "INSERT INTO order_line_item_download (id, order_line_item_id, media_id, position, file_name, file_extension, mime_type, content, created_at)
                         SELECT lower(hex(randomblob(16))), ?1, lower(hex(randomblob(16))), position, file_name, file_extension, mime_type, content, ?3
                         FROM product_download WHERE product_id = ?2 ORDER BY position",
                        params![line_item_id, referenced, now],
                    )?;
                }
            }

            tx.execute(
                "INSERT INTO order_transaction (id, order_id, payment_method_id, amount, state, created_at) VALUES (?1, ?2, ?3, ?4, 'open', ?5)",
                params![new_id(), order_id, payment["id"].as_str().unwrap_or_default(), amount_of(price).to_string(), now],
            )?;
            if let Some(delivery) = &delivery {
                tx.execute(
                    "INSERT INTO order_delivery (id, order_id, shipping_order_address_id, shipping_method_id, state, shipping_date_earliest,
                        shipping_date_latest, shipping_costs, created_at)
                     VALUES (?1, ?2, ?3, ?4, 'open', ?5, ?6, ?7, ?8)",
                    params![
                        new_id(),
                        order_id,
                        shipping_address_id,
                        delivery["shippingMethod"]["id"].as_str().unwrap_or_default(),
                        delivery["deliveryDate"]["earliest"].as_str().unwrap_or(&now),
                        delivery["deliveryDate"]["latest"].as_str().unwrap_or(&now),
                        shipping_costs.to_string(),
                        now,
                    ],
                )?;
            }
            tx.execute("DELETE FROM cart WHERE token = ?1", [&user.token])?;
            // The invoice, in the order's language.
            let locale = Locale::of(&tx, ctx.language_id())?;
            let order = super::load::load(&tx, ctx, std::slice::from_ref(&order_id), super::load::Associations::ALL)?.into_iter().next().ok_or_else(|| anyhow::anyhow!("order {order_id} not written"))?;
            super::document::create_invoice(&tx, &order, locale)?;
            tx.commit()?;
            let order = super::load::load(conn, ctx, std::slice::from_ref(&order_id), super::load::Associations::ALL)?.into_iter().next().ok_or_else(|| anyhow::anyhow!("order {order_id} not written"))?;
            tracing::info!(%order_id, %order_number, "order placed");
            Ok(Ok(order))
        })
        .await??;
    // The cart became the order.
    app.events.emit(ShopEvent::emptied_cart(token)).await;
    Ok(Json(order))
}
