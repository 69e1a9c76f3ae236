//! The `customer` entity, the logged-in customer of a request, and
//! `GET|POST /store-api/account/customer`.

use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::Json;
use rusqlite::{Connection, OptionalExtension};
use serde_json::{json, Value};

use super::address;
use crate::error::{ApiError, ApiResult};
use crate::settings::load_salutations;
use crate::state::App;
use crate::storage::translation;
use crate::store_api::ShopContext;

pub fn not_logged_in() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "CHECKOUT__CUSTOMER_NOT_LOGGED_IN",
        "Customer is not logged in.",
    )
}

/// A request whose session belongs to a customer (guests included).
#[derive(Debug, Clone)]
pub struct LoggedIn {
    pub ctx: ShopContext,
    pub customer_id: String,
    pub token: String,
}

impl FromRequestParts<App> for LoggedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        let ctx = ShopContext::from_request_parts(parts, app).await?;
        let token = ctx.token.clone().ok_or_else(not_logged_in)?;
        let (session, channel) = (token.clone(), ctx.sales_channel.id.clone());
        let customer: Option<String> = app
            .db
            .call(move |conn| {
                Ok(conn
                    .query_row(
                        "SELECT c.id FROM store_context s JOIN customer c ON c.id = s.customer_id
                         WHERE s.token = ?1 AND s.sales_channel_id = ?2 AND c.active = 1",
                        [&session, &channel],
                        |r| r.get(0),
                    )
                    .optional()?)
            })
            .await?;
        let customer_id = customer.ok_or_else(not_logged_in)?;
        Ok(LoggedIn {
            ctx,
            customer_id,
            token,
        })
    }
}

/// A logged-in customer with an account: guests are refused like anonymous sessions.
#[derive(Debug, Clone)]
pub struct Registered(pub LoggedIn);

impl FromRequestParts<App> for Registered {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        let user = LoggedIn::from_request_parts(parts, app).await?;
        let id = user.customer_id.clone();
        let guest: bool = app
            .db
            .call(move |conn| {
                Ok(
                    conn.query_row("SELECT guest FROM customer WHERE id = ?1", [&id], |r| {
                        r.get(0)
                    })?,
                )
            })
            .await?;
        if guest {
            return Err(not_logged_in());
        }
        Ok(Registered(user))
    }
}

/// The customer with default and active (the session's chosen) addresses.
pub fn load(
    conn: &Connection,
    ctx: &ShopContext,
    customer_id: &str,
) -> rusqlite::Result<Option<Value>> {
    let row = conn
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
        .optional()?;
    let Some(mut customer) = row else {
        return Ok(None);
    };
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
    let default_billing = text(&customer, "defaultBillingAddressId");
    let default_shipping = text(&customer, "defaultShippingAddressId");
    let salutation_id = text(&customer, "salutationId");
    let group_id = text(&customer, "groupId").unwrap_or_default();
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
    customer["salutation"] = load_salutations(conn, &ctx.languages)?
        .into_iter()
        .find(|s| {
            salutation_id
                .as_ref()
                .is_some_and(|id| s["id"] == json!(id))
        })
        .unwrap_or(Value::Null);
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
    customer["group"] = json!({ "id": group_id, "name": group_name["name"], "displayGross": display_gross, "translated": group_name, "apiAlias": "customer_group" });
    // The customer's payment preference, else the sales channel's default.
    let channel_payment: Option<String> = conn
        .query_row(
            "SELECT payment_method_id FROM sales_channel WHERE id = ?1",
            [&ctx.sales_channel.id],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    let payment_id = text(&customer, "defaultPaymentMethodId").or(channel_payment);
    let payment = match &payment_id {
        Some(id) => crate::checkout::methods::load_payment_methods(conn, &ctx.languages, Some(id))?
            .into_iter()
            .next(),
        None => None,
    };
    customer["defaultPaymentMethodId"] = json!(payment.as_ref().map(|p| &p["id"]));
    customer["defaultPaymentMethod"] = payment.unwrap_or(Value::Null);
    customer["apiAlias"] = json!("customer");
    Ok(Some(customer))
}

/// `GET|POST /store-api/account/customer`: the session's customer, 403 without one.
pub async fn current(user: LoggedIn, State(app): State<App>) -> ApiResult<Json<Value>> {
    let customer = app
        .db
        .call(move |conn| Ok(load(conn, &user.ctx, &user.customer_id)?))
        .await?;
    customer.map(Json).ok_or_else(not_logged_in)
}
