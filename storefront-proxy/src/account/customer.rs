//! The `customer` entity and `GET|POST /store-api/account/customer`.

use axum::extract::State;
use axum::Json;
use rusqlite::{Connection, OptionalExtension};
use serde_json::{json, Value};

use super::address;
use super::logged_in::{not_logged_in, LoggedIn};
use crate::error::ApiResult;
use crate::settings::load_salutations;
use crate::state::App;
use crate::storage::translation;
use crate::store_api::ShopContext;

/// The customer with default and active (the session's chosen) addresses.
pub fn load(
    conn: &Connection,
    ctx: &ShopContext,
    customer_id: &str,
) -> rusqlite::Result<Option<Value>> {
    let Some(mut customer) = load_row(conn, customer_id)? else {
        return Ok(None);
    };
    let text = |customer: &Value, key: &str| customer[key].as_str().map(str::to_owned);
    let salutation_id = text(&customer, "salutationId");
    let group_id = text(&customer, "groupId").unwrap_or_default();
    add_addresses(conn, ctx, customer_id, &mut customer)?;
    customer["salutation"] = load_salutations(conn, &ctx.languages)?
        .into_iter()
        .find(|s| {
            salutation_id
                .as_ref()
                .is_some_and(|id| s["id"] == json!(id))
        })
        .unwrap_or(Value::Null);
    customer["group"] = load_group(conn, ctx, group_id)?;
    add_payment_method(conn, ctx, &mut customer)?;
    customer["apiAlias"] = json!("customer");
    Ok(Some(customer))
}

/// The `customer` row in the Store API's names.
fn load_row(conn: &Connection, customer_id: &str) -> rusqlite::Result<Option<Value>> {
    conn
        .query_row(
            "SELECT id, group_id, sales_channel_id, language_id, customer_number, salutation_id, title, first_name, last_name,
                    email, guest, active, birthday, default_billing_address_id, default_shipping_address_id, first_login,
                    last_login, created_at, updated_at, default_payment_method_id, account_type, company, vat_ids,
                    dsr_default_info_updated_at
             FROM customer WHERE id = ?1",
            [customer_id],
            |r| {
                Ok(json!({
                    "id": r.get::<_, String>(0)?,
                    "groupId": r.get::<_, String>(1)?,
                    "salesChannelId": r.get::<_, String>(2)?,
                    "languageId": r.get::<_, String>(3)?,
                    "customerNumber": r.get::<_, String>(4)?,
                    "salutationId": r.get::<_, Option<String>>(5)?,
                    "title": r.get::<_, Option<String>>(6)?,
                    "firstName": r.get::<_, String>(7)?,
                    "lastName": r.get::<_, String>(8)?,
                    "email": r.get::<_, String>(9)?,
                    "guest": r.get::<_, bool>(10)?,
                    "active": r.get::<_, bool>(11)?,
                    "birthday": r.get::<_, Option<String>>(12)?,
                    "defaultBillingAddressId": r.get::<_, Option<String>>(13)?,
                    "defaultShippingAddressId": r.get::<_, Option<String>>(14)?,
                    "firstLogin": r.get::<_, Option<String>>(15)?,
                    "lastLogin": r.get::<_, Option<String>>(16)?,
                    "createdAt": r.get::<_, String>(17)?,
                    "updatedAt": r.get::<_, Option<String>>(18)?,
                    "defaultPaymentMethodId": r.get::<_, Option<String>>(19)?,
                    "accountType": r.get::<_, String>(20)?,
                    "company": r.get::<_, Option<String>>(21)?,
                    "vatIds": r.get::<_, Option<String>>(22)?.and_then(|ids| serde_json::from_str::<Value>(&ids).ok()),
                    // The digital sales room's mark (`dsr/default_info.rs`), where a Shopware
                    // plugin keeps such a flag: null until the customer is marked.
                    "customFields": r
                        .get::<_, Option<String>>(23)?
                        .map(|at| json!({ "dsrDefaultInfoUpdatedAt": at })),
                }))
            },
        )
        .optional()
}

/// The default addresses, and the active ones (the session's choice, else the default).
fn add_addresses(
    conn: &Connection,
    ctx: &ShopContext,
    customer_id: &str,
    customer: &mut Value,
) -> rusqlite::Result<()> {
    let (active_billing, active_shipping): (Option<String>, Option<String>) = match &ctx.token {
        Some(token) => conn
            .query_row(
                "SELECT billing_address_id, shipping_address_id FROM store_context WHERE token = ?1 AND customer_id = ?2",
                [token, customer_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?
            .unwrap_or((None, None)),
        None => (None, None),
    };
    let text = |customer: &Value, key: &str| customer[key].as_str().map(str::to_owned);
    let default_billing = text(customer, "defaultBillingAddressId");
    let default_shipping = text(customer, "defaultShippingAddressId");
    let wanted: Vec<String> = [
        &default_billing,
        &default_shipping,
        &active_billing,
        &active_shipping,
    ]
    .into_iter()
    .flatten()
    .cloned()
    .collect();
    let addresses = address::load(conn, ctx, customer_id, Some(&wanted))?;
    let find = |id: &Option<String>| {
        id.as_ref()
            .and_then(|id| addresses.iter().find(|a| a["id"] == json!(id)))
            .cloned()
            .unwrap_or(Value::Null)
    };
    customer["defaultBillingAddress"] = find(&default_billing);
    customer["defaultShippingAddress"] = find(&default_shipping);
    customer["activeBillingAddress"] = find(&active_billing.or(default_billing));
    customer["activeShippingAddress"] = find(&active_shipping.or(default_shipping));
    Ok(())
}

/// The customer's group, translated.
fn load_group(conn: &Connection, ctx: &ShopContext, group_id: String) -> rusqlite::Result<Value> {
    const NAME: &[(&str, &str)] = &[("name", "name")];
    let names = translation::load(
        conn,
        "customer_group_translation",
        "customer_group_id",
        NAME,
        std::slice::from_ref(&group_id),
        &ctx.languages,
    )?;
    let display_gross: bool = conn
        .query_row(
            "SELECT display_gross FROM customer_group WHERE id = ?1",
            [&group_id],
            |r| r.get(0),
        )
        .unwrap_or(true);
    let group_name = translation::get(&names, &group_id, NAME);
    Ok(
        json!({ "id": group_id, "name": group_name["name"], "displayGross": display_gross, "translated": group_name, "apiAlias": "customer_group" }),
    )
}

/// The customer's payment preference, else the sales channel's default.
fn add_payment_method(
    conn: &Connection,
    ctx: &ShopContext,
    customer: &mut Value,
) -> rusqlite::Result<()> {
    let channel_payment: Option<String> = conn
        .query_row(
            "SELECT payment_method_id FROM sales_channel WHERE id = ?1",
            [&ctx.sales_channel.id],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    let payment_id = customer["defaultPaymentMethodId"]
        .as_str()
        .map(str::to_owned)
        .or(channel_payment);
    let payment = match &payment_id {
        Some(id) => crate::checkout::methods::load_payment_methods(conn, &ctx.languages, Some(id))?
            .into_iter()
            .next(),
        None => None,
    };
    customer["defaultPaymentMethodId"] = json!(payment.as_ref().map(|p| &p["id"]));
    customer["defaultPaymentMethod"] = payment.unwrap_or(Value::Null);
    Ok(())
}

/// `GET|POST /store-api/account/customer`: the session's customer, 403 without one.
pub async fn current(user: LoggedIn, State(app): State<App>) -> ApiResult<Json<Value>> {
    let customer = app
        .db
        .call(move |conn| Ok(load(conn, &user.ctx, &user.customer_id)?))
        .await?;
    customer.map(Json).ok_or_else(not_logged_in)
}
