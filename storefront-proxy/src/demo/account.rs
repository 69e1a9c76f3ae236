//! The demo's customer group, customer (`demo@example.com` / `salesroom`) and promotion
//! code (`SALESROOM10`), as CONTRACT.md lists them.

use rusqlite::{params, Transaction};

use super::catalog::Demo;
use crate::storage::{new_id, now_rfc3339};

pub const CUSTOMER_EMAIL: &str = "demo@example.com";
pub const CUSTOMER_PASSWORD: &str = "salesroom";
pub const PROMOTION_CODE: &str = "SALESROOM10";

pub fn seed(tx: &Transaction, demo: &Demo) -> anyhow::Result<()> {
    let group = new_id();
    tx.execute("INSERT INTO customer_group (id, display_gross) VALUES (?1, 1)", [&group])?;
    for (language, name) in [(&demo.en, "Standard customer group"), (&demo.de, "Standard-Kundengruppe")] {
        tx.execute("INSERT INTO customer_group_translation (customer_group_id, language_id, name) VALUES (?1, ?2, ?3)", params![group, language, name])?;
    }
    tx.execute("UPDATE sales_channel SET customer_group_id = ?1 WHERE id = ?2", params![group, demo.sales_channel_id])?;

    // The promotion code of CONTRACT.md: 10% off the cart.
    let promotion = new_id();
    tx.execute(
        "INSERT INTO promotion (id, code, discount_type, discount_value) VALUES (?1, ?2, 'percentage', 10)",
        params![promotion, PROMOTION_CODE],
    )?;
    for (language, name) in [(&demo.en, "10% off your order"), (&demo.de, "10 % Rabatt auf Ihre Bestellung")] {
        tx.execute("INSERT INTO promotion_translation (promotion_id, language_id, name) VALUES (?1, ?2, ?3)", params![promotion, language, name])?;
    }

    let salutation: String = tx.query_row("SELECT id FROM salutation WHERE salutation_key = 'mrs'", [], |r| r.get(0))?;
    let germany: String = tx.query_row("SELECT id FROM country WHERE iso = 'DE'", [], |r| r.get(0))?;
    let berlin: String = tx.query_row("SELECT id FROM country_state WHERE short_code = 'DE-BE'", [], |r| r.get(0))?;
    let customer = new_id();
    let address = new_id();
    let now = now_rfc3339();
    tx.execute(
        "INSERT INTO customer (id, sales_channel_id, group_id, language_id, customer_number, salutation_id, first_name, last_name, email,
            password_hash, created_at)
         VALUES (?1, ?2, ?3, ?4, '10000', ?5, 'Dana', 'Demo', ?6, ?7, ?8)",
        params![customer, demo.sales_channel_id, group, demo.en, salutation, CUSTOMER_EMAIL, super::hash_password(CUSTOMER_PASSWORD)?, now],
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
