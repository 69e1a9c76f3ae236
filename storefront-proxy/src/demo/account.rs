//! The demo's customer group, customer (`demo@example.com` / `salesroom`) and promotion
//! code (`SALESROOM10`), as CONTRACT.md lists them.

use rusqlite::{params, Transaction};

use super::catalog::Demo;
use crate::storage::{new_id, now_rfc3339};

pub const CUSTOMER_EMAIL: &str = "demo@example.com";
pub const CUSTOMER_PASSWORD: &str = "salesroom";
pub const PROMOTION_CODE: &str = "SALESROOM10";

/// The standard customer group of a sales channel (customers registering, guests
/// ordering), unless it has one. Answers the group's id.
pub fn ensure_customer_group(
    tx: &Transaction,
    en: &str,
    de: &str,
    sales_channel_id: &str,
) -> anyhow::Result<String> {
    let existing: Option<String> = tx.query_row(
        "SELECT customer_group_id FROM sales_channel WHERE id = ?1",
        [sales_channel_id],
        |r| r.get(0),
    )?;
    if let Some(group) = existing {
        return Ok(group);
    }
    let group = new_id();
    tx.execute(
        "INSERT INTO customer_group (id, display_gross) VALUES (?1, 1)",
        [&group],
    )?;
    for (language, name) in [
        (en, "Standard customer group"),
        (de, "Standard-Kundengruppe"),
    ] {
        tx.execute(
            "INSERT INTO customer_group_translation (customer_group_id, language_id, name) VALUES (?1, ?2, ?3)",
            params![group, language, name],
        )?;
    }
    tx.execute(
        "UPDATE sales_channel SET customer_group_id = ?1 WHERE id = ?2",
        params![group, sales_channel_id],
    )?;
    Ok(group)
}

pub fn seed(tx: &Transaction, demo: &Demo) -> anyhow::Result<()> {
    let group = ensure_customer_group(tx, &demo.en, &demo.de, &demo.sales_channel_id)?;

    // The promotion code of CONTRACT.md: 10% off the cart.
    let promotion = new_id();
    tx.execute(
        "INSERT INTO promotion (id, code, discount_type, discount_value) VALUES (?1, ?2, 'percentage', 10)",
        params![promotion, PROMOTION_CODE],
    )?;
    for (language, name) in [
        (&demo.en, "10% off your order"),
        (&demo.de, "10 % Rabatt auf Ihre Bestellung"),
    ] {
        tx.execute(
            "INSERT INTO promotion_translation (promotion_id, language_id, name) VALUES (?1, ?2, ?3)",
            params![promotion, language, name],
        )?;
    }

    let salutation: String = tx.query_row(
        "SELECT id FROM salutation WHERE salutation_key = 'mrs'",
        [],
        |r| r.get(0),
    )?;
    let germany: String =
        tx.query_row("SELECT id FROM country WHERE iso = 'DE'", [], |r| r.get(0))?;
    let berlin: String = tx.query_row(
        "SELECT id FROM country_state WHERE short_code = 'DE-BE'",
        [],
        |r| r.get(0),
    )?;
    let customer = new_id();
    let address = new_id();
    let now = now_rfc3339();
    tx.execute(
        "INSERT INTO customer (id, sales_channel_id, group_id, language_id, customer_number, salutation_id, first_name, last_name, email,
            password_hash, created_at)
         VALUES (?1, ?2, ?3, ?4, '10000', ?5, 'Dana', 'Demo', ?6, ?7, ?8)",
        params![
            customer,
            demo.sales_channel_id,
            group,
            demo.en,
            salutation,
            CUSTOMER_EMAIL,
            crate::account::password::hash_password(CUSTOMER_PASSWORD)?,
            now
        ],
    )?;
    tx.execute(
        "INSERT INTO customer_address (id, customer_id, salutation_id, first_name, last_name, street, zipcode, city, country_id,
            country_state_id, created_at)
         VALUES (?1, ?2, ?3, 'Dana', 'Demo', 'Ebertstraße 1', '10117', 'Berlin', ?4, ?5, ?6)",
        params![address, customer, salutation, germany, berlin, now],
    )?;
    tx.execute(
        "UPDATE customer SET default_billing_address_id = ?1, default_shipping_address_id = ?1 WHERE id = ?2",
        params![address, customer],
    )?;
    Ok(())
}

/// Payment methods (invoice, prepayment, cash on delivery, pay online) and shipping
/// methods (standard, free from 50 €; express), the first of each the default.
pub fn seed_methods(tx: &Transaction, demo: &Demo) -> anyhow::Result<()> {
    let mut first_payment = None;
    for (position, (technical, handler, name_en, name_de, text_en, text_de)) in [
        (
            "payment_invoice",
            "invoice",
            "Invoice",
            "Rechnung",
            "Pay within 14 days of delivery.",
            "Zahlbar innerhalb von 14 Tagen nach Lieferung.",
        ),
        (
            "payment_prepayment",
            "prepayment",
            "Prepayment",
            "Vorkasse",
            "Pay by bank transfer before we ship.",
            "Per Überweisung vor dem Versand bezahlen.",
        ),
        (
            "payment_cash_on_delivery",
            "cash",
            "Cash on delivery",
            "Nachnahme",
            "Pay the courier at the door.",
            "Bezahlen Sie bei der Lieferung.",
        ),
        (
            "payment_online",
            "online",
            "Pay online",
            "Online bezahlen",
            "Pay right away with our payment partner.",
            "Sofort bei unserem Zahlungspartner bezahlen.",
        ),
    ]
    .iter()
    .enumerate()
    {
        let id = new_id();
        tx.execute(
            "INSERT INTO payment_method (id, technical_name, handler, position) VALUES (?1, ?2, ?3, ?4)",
            params![id, technical, handler, position as i64 + 1],
        )?;
        for (language, name, text) in [(&demo.en, name_en, text_en), (&demo.de, name_de, text_de)] {
            tx.execute(
                "INSERT INTO payment_method_translation (payment_method_id, language_id, name, description) VALUES (?1, ?2, ?3, ?4)",
                params![id, language, name, text],
            )?;
        }
        first_payment.get_or_insert(id);
    }
    let standard_time: String = tx.query_row(
        "SELECT id FROM delivery_time WHERE min = 2 AND max = 5",
        [],
        |r| r.get(0),
    )?;
    let express_time: String = tx.query_row(
        "SELECT id FROM delivery_time WHERE min = 1 AND max = 3",
        [],
        |r| r.get(0),
    )?;
    let mut first_shipping = None;
    for (position, (technical, time, price, free_from, name_en, name_de)) in [
        (
            "shipping_standard",
            &standard_time,
            4.9,
            Some(50.0),
            "Standard",
            "Standard",
        ),
        (
            "shipping_express",
            &express_time,
            9.9,
            None,
            "Express",
            "Express",
        ),
    ]
    .iter()
    .enumerate()
    {
        let id = new_id();
        tx.execute(
            "INSERT INTO shipping_method (id, technical_name, position, delivery_time_id, price_gross, free_from) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![id, technical, position as i64 + 1, time, price, free_from],
        )?;
        for (language, name) in [(&demo.en, name_en), (&demo.de, name_de)] {
            tx.execute(
                "INSERT INTO shipping_method_translation (shipping_method_id, language_id, name) VALUES (?1, ?2, ?3)",
                params![id, language, name],
            )?;
        }
        first_shipping.get_or_insert(id);
    }
    tx.execute(
        "UPDATE sales_channel SET payment_method_id = ?1, shipping_method_id = ?2 WHERE id = ?3",
        params![first_payment, first_shipping, demo.sales_channel_id],
    )?;
    Ok(())
}
