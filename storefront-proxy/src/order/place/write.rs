//! The order's rows written inside the placing transaction: the order with its
//! customer snapshot, addresses copied, line items with stock taken and downloads,
//! the transaction and the delivery. Also the stock given back on cancel.

use rusqlite::{params, Transaction};

use super::request::Request;
use super::rows::{Delivery, Line, Totals};
use crate::storage::new_id;
use crate::store_api::ShopContext;

/// Who ordered, copied onto the order.
#[derive(Debug, Clone)]
pub struct Customer {
    pub id: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub number: String,
    pub salutation_id: Option<String>,
    pub title: Option<String>,
    /// The billing address's company.
    pub company: Option<String>,
}

impl Customer {
    pub fn load(tx: &Transaction, id: &str, billing_id: &str) -> rusqlite::Result<Customer> {
        let company: Option<String> = tx.query_row(
            "SELECT company FROM customer_address WHERE id = ?1",
            [billing_id],
            |r| r.get(0),
        )?;
        tx.query_row(
            "SELECT id, email, first_name, last_name, customer_number, salutation_id, title FROM customer WHERE id = ?1",
            [id],
            |r| {
                Ok(Customer {
                    id: r.get(0)?,
                    email: r.get(1)?,
                    first_name: r.get(2)?,
                    last_name: r.get(3)?,
                    number: r.get(4)?,
                    salutation_id: r.get(5)?,
                    title: r.get(6)?,
                    company,
                })
            },
        )
    }
}

/// The `shop_order` row's own fields.
pub struct Order<'a> {
    pub id: &'a str,
    pub number: &'a str,
    pub currency_id: &'a str,
    pub billing_address_id: &'a str,
    pub now: &'a str,
}

/// The session's currency (chosen, else the sales channel's).
pub fn currency(tx: &Transaction, token: &str) -> rusqlite::Result<String> {
    tx.query_row(
        "SELECT COALESCE(s.currency_id, c.currency_id) FROM store_context s JOIN sales_channel c ON c.id = s.sales_channel_id WHERE s.token = ?1",
        [token],
        |r| r.get(0),
    )
}

pub fn insert_order(
    tx: &Transaction,
    ctx: &ShopContext,
    order: &Order,
    customer: &Customer,
    totals: &Totals,
    request: &Request,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO shop_order (id, order_number, sales_channel_id, customer_id, language_id, currency_id, state, order_date_time,
            billing_address_id, price, shipping_costs, amount_total, amount_net, position_price, shipping_total, tax_status,
            deep_link_code, customer_comment, affiliate_code, campaign_code, order_customer_id, customer_email, customer_first_name,
            customer_last_name, customer_number, customer_salutation_id, customer_title, customer_company, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'open', ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, 'gross', ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23,
            ?24, ?25, ?26, ?7)",
        params![
            order.id,
            order.number,
            ctx.sales_channel.id,
            customer.id,
            ctx.language_id(),
            order.currency_id,
            order.now,
            order.billing_address_id,
            totals.price.to_string(),
            totals.shipping_costs.to_string(),
            totals.amount_total,
            totals.amount_net,
            totals.position_price,
            totals.shipping_total,
            new_id() + &new_id(),
            request.customer_comment,
            request.affiliate_code,
            request.campaign_code,
            new_id(),
            customer.email,
            customer.first_name,
            customer.last_name,
            customer.number,
            customer.salutation_id,
            customer.title,
            customer.company,
        ],
    )?;
    Ok(())
}

/// Copies a customer address into the order; answers the order address id.
pub fn copy_address(
    tx: &Transaction,
    id: String,
    order_id: &str,
    address_id: &str,
    now: &str,
) -> rusqlite::Result<String> {
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
pub fn take_stock(tx: &Transaction, product_id: &str, quantity: i64) -> rusqlite::Result<bool> {
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

/// Writes one line item (and a digital product's files).
pub fn insert_line(
    tx: &Transaction,
    order_id: &str,
    line: &Line,
    now: &str,
) -> rusqlite::Result<()> {
    let line_item_id = new_id();
    tx.execute(
        "INSERT INTO order_line_item (id, order_id, identifier, referenced_id, product_id, promotion_id, type, label, description, quantity,
            unit_price, total_price, good, position, price, price_definition, payload, cover, states, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
        params![
            line_item_id,
            order_id,
            line.identifier,
            line.referenced_id,
            line.product_id,
            line.promotion_id,
            line.kind,
            line.label,
            line.description,
            line.quantity,
            line.unit_price,
            line.total_price,
            line.good,
            line.position,
            line.price.to_string(),
            line.price_definition.as_ref().map(|v| v.to_string()),
            line.payload.to_string(),
            line.cover.as_ref().map(|v| v.to_string()),
            line.states.to_string(),
            now,
        ],
    )?;
    if line.download {
        tx.execute(
            "INSERT INTO order_line_item_download (id, order_line_item_id, media_id, position, file_name, file_extension, mime_type, content, created_at)
             SELECT lower(hex(randomblob(16))), ?1, lower(hex(randomblob(16))), position, file_name, file_extension, mime_type, content, ?3
             FROM product_download WHERE product_id = ?2 ORDER BY position",
            params![line_item_id, line.referenced_id, now],
        )?;
    }
    Ok(())
}

pub fn insert_transaction(
    tx: &Transaction,
    order_id: &str,
    payment_method_id: &str,
    amount: &str,
    now: &str,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO order_transaction (id, order_id, payment_method_id, amount, state, created_at) VALUES (?1, ?2, ?3, ?4, 'open', ?5)",
        params![new_id(), order_id, payment_method_id, amount, now],
    )?;
    Ok(())
}

pub fn insert_delivery(
    tx: &Transaction,
    order_id: &str,
    address_id: &str,
    delivery: &Delivery,
    now: &str,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO order_delivery (id, order_id, shipping_order_address_id, shipping_method_id, state, shipping_date_earliest,
            shipping_date_latest, shipping_costs, created_at)
         VALUES (?1, ?2, ?3, ?4, 'open', ?5, ?6, ?7, ?8)",
        params![
            new_id(),
            order_id,
            address_id,
            delivery.method_id,
            delivery.earliest.as_deref().unwrap_or(now),
            delivery.latest.as_deref().unwrap_or(now),
            delivery.costs.to_string(),
            now,
        ],
    )?;
    Ok(())
}
