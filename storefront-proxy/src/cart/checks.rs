//! Checks of a logged-in session's billing and shipping address, reported as cart
//! errors (spec section 8): `billing-address-blocked`, `shipping-address-blocked`,
//! `billing-address-invalid`, `shipping-address-invalid`. An order is refused while
//! any of them is present.

use rusqlite::{Connection, OptionalExtension};

use super::model::CartError;

/// What the checks need to know about an address.
struct AddressFacts {
    country_iso: Option<String>,
    country_active: bool,
    shipping_available: bool,
    complete: bool,
}

fn facts(
    conn: &Connection,
    address_id: &str,
    customer_id: &str,
) -> rusqlite::Result<Option<AddressFacts>> {
    conn.query_row(
        "SELECT c.iso, COALESCE(c.active, 0), COALESCE(c.shipping_available, 0),
                a.street <> '' AND a.city <> '' AND a.first_name <> '' AND a.last_name <> ''
                AND (c.id IS NULL OR c.postal_code_required = 0 OR COALESCE(a.zipcode, '') <> '')
                AND (c.id IS NULL OR c.force_state_in_registration = 0 OR a.country_state_id IS NOT NULL)
         FROM customer_address a LEFT JOIN country c ON c.id = a.country_id
         WHERE a.id = ?1 AND a.customer_id = ?2",
        [address_id, customer_id],
        |r| Ok(AddressFacts { country_iso: r.get(0)?, country_active: r.get(1)?, shipping_available: r.get(2)?, complete: r.get(3)? }),
    )
    .optional()
}

/// A session's customer and the billing and shipping address it uses.
pub struct ActiveAddresses {
    pub customer_id: String,
    pub billing: Option<String>,
    pub shipping: Option<String>,
}

/// The session's active billing and shipping address ids (chosen in the context, else
/// the customer's defaults), and the customer; `None` without a logged-in customer.
pub fn active_addresses(
    conn: &Connection,
    token: &str,
) -> rusqlite::Result<Option<ActiveAddresses>> {
    conn.query_row(
        "SELECT c.id, COALESCE(s.billing_address_id, c.default_billing_address_id), COALESCE(s.shipping_address_id, c.default_shipping_address_id)
         FROM store_context s JOIN customer c ON c.id = s.customer_id WHERE s.token = ?1 AND c.active = 1",
        [token],
        |r| Ok(ActiveAddresses { customer_id: r.get(0)?, billing: r.get(1)?, shipping: r.get(2)? }),
    )
    .optional()
}

fn error(message_key: &'static str, subject: &str, message: &str) -> CartError {
    CartError {
        message_key,
        subject: subject.to_owned(),
        level: 20,
        message: message.to_owned(),
    }
}

/// The address errors of the session `token` (none without a customer).
pub fn address_errors(conn: &Connection, token: &str) -> rusqlite::Result<Vec<CartError>> {
    let Some(ActiveAddresses {
        customer_id,
        billing,
        shipping,
    }) = active_addresses(conn, token)?
    else {
        return Ok(Vec::new());
    };
    let mut errors = Vec::new();
    let billing = match &billing {
        Some(id) => facts(conn, id, &customer_id)?,
        None => None,
    };
    match billing {
        None => errors.push(error(
            "billing-address-invalid",
            "",
            "The billing address is invalid or incomplete. Please check your entries.",
        )),
        Some(facts) if !facts.country_active => errors.push(error(
            "billing-address-blocked",
            &facts.country_iso.unwrap_or_default(),
            "Billing to the selected address is not possible.",
        )),
        Some(facts) if !facts.complete => errors.push(error(
            "billing-address-invalid",
            "",
            "The billing address is invalid or incomplete. Please check your entries.",
        )),
        Some(_) => {}
    }
    let shipping = match &shipping {
        Some(id) => facts(conn, id, &customer_id)?,
        None => None,
    };
    match shipping {
        None => errors.push(error(
            "shipping-address-invalid",
            "",
            "The shipping address is invalid or incomplete. Please check your entries.",
        )),
        Some(facts) if !facts.country_active || !facts.shipping_available => errors.push(error(
            "shipping-address-blocked",
            &facts.country_iso.unwrap_or_default(),
            "Shipping to the selected shipping address is currently not possible.",
        )),
        Some(facts) if !facts.complete => errors.push(error(
            "shipping-address-invalid",
            "",
            "The shipping address is invalid or incomplete. Please check your entries.",
        )),
        Some(_) => {}
    }
    Ok(errors)
}
