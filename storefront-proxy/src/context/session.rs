//! `GET` and `PATCH /store-api/context` of the session (`sw-context-token`).

use axum::extract::State;
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use axum::Json;
use rusqlite::OptionalExtension;
use serde_json::{json, Value};

use crate::error::{ApiError, ApiResult};
use crate::settings::{load_countries, load_currencies, load_languages};
use crate::state::App;
use crate::storage::{is_id, now_rfc3339};
use crate::store_api::{
    language_available, RequestParams, ShopContext, CONTEXT_TOKEN_HEADER, LIVE_VERSION_ID,
};

/// `GET /store-api/context`: the `SalesChannelContext` of the request's session (a new
/// token when the request has none, in the header; stored only once the session gets
/// state, issue #29 item 10).
pub async fn get_context(ctx: ShopContext, State(app): State<App>) -> ApiResult<Response> {
    let context = app
        .db
        .call(move |conn| {
            let session = ctx.peek_session();
            let token = session.key.clone();
            let (navigation_category_id, depth, channel_currency, channel_country): (Option<String>, i64, Option<String>, Option<String>) =
                conn.query_row(
                    "SELECT navigation_category_id, navigation_category_depth, currency_id, country_id FROM sales_channel WHERE id = ?1",
                    [&ctx.sales_channel.id],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )?;
            let (session_currency, session_country): (Option<String>, Option<String>) = conn
                .query_row("SELECT currency_id, country_id FROM store_context WHERE token = ?1", [&token], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?
                .unwrap_or((None, None));
            let currency_id = session_currency.or(channel_currency);
            let country_id = session_country.or(channel_country);
            let currency = load_currencies(conn, &ctx.languages, currency_id.as_deref())?.into_iter().next().unwrap_or(Value::Null);
            let country = match &country_id {
                Some(id) => load_countries(conn, &ctx.languages, Some(id), false)?.into_iter().next().unwrap_or(Value::Null),
                None => Value::Null,
            };
            let languages = load_languages(conn, &ctx.sales_channel.id)?;
            let language = languages.iter().find(|l| l["id"] == json!(ctx.language_id())).cloned().unwrap_or(Value::Null);
            let mut tax_rules = Vec::new();
            let mut statement = conn.prepare_cached("SELECT tax_rate, name FROM tax ORDER BY position")?;
            for rule in statement.query_map([], |r| Ok(json!({ "taxRate": r.get::<_, f64>(0)?, "name": r.get::<_, String>(1)? })))? {
                tax_rules.push(rule?);
            }
            // One domain per storefront locale (CONTRACT.md: en-US bare, en-GB and de-DE prefixed).
            let mut domains = Vec::new();
            for language in &languages {
                let code = language["translationCode"]["code"].as_str().unwrap_or_default();
                let prefixes: &[&str] = if code == "en-GB" { &["", "/en-GB"] } else { &[""] };
                for prefix in prefixes {
                    let path = if prefix.is_empty() && code != "en-GB" { format!("/{code}") } else { (*prefix).to_owned() };
                    let url = format!("{}{path}", ctx.base_url);
                    domains.push(json!({
                        "id": crate::storage::stable_id(&format!("sales-channel-domain:{}:{path}", ctx.sales_channel.id)),
                        "url": url,
                        "snippetSetId": crate::storage::stable_id(&format!("snippet-set:{code}")),
                        "languageId": language["id"],
                        "currencyId": currency_id,
                        "salesChannelId": ctx.sales_channel.id,
                        "apiAlias": "sales_channel_domain",
                    }));
                }
            }
            let customer_id: Option<String> = conn.query_row(
                "SELECT s.customer_id FROM store_context s JOIN customer c ON c.id = s.customer_id WHERE s.token = ?1 AND c.active = 1",
                [&token],
                |r| r.get(0),
            ).optional()?;
            let stored = ShopContext { token: Some(token.clone()), ..ctx.clone() };
            let customer = match &customer_id {
                Some(id) => crate::account::customer::load(conn, &stored, id)?.unwrap_or(Value::Null),
                None => Value::Null,
            };
            let (group_id, group_name, display_gross): (Option<String>, Option<String>, bool) = conn
                .query_row(
                    "SELECT g.id, t.name, g.display_gross FROM sales_channel s JOIN customer_group g ON g.id = s.customer_group_id
                     LEFT JOIN customer_group_translation t ON t.customer_group_id = g.id AND t.language_id = ?2
                     WHERE s.id = ?1",
                    [&ctx.sales_channel.id, &ctx.sales_channel.language_id],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .optional()?
                .unwrap_or((None, None, true));
            let (payment_id, shipping_id) = crate::checkout::methods::chosen(conn, &ctx, Some(&token))?;
            let (channel_payment, channel_shipping) = crate::checkout::methods::chosen(conn, &ctx, None)?;
            let payment_method = match &payment_id {
                Some(id) => crate::checkout::methods::load_payment_methods(conn, &ctx.languages, Some(id))?.into_iter().next().unwrap_or(Value::Null),
                None => Value::Null,
            };
            let shipping_method = match &shipping_id {
                Some(id) => crate::checkout::methods::load_shipping_methods(conn, &ctx.languages, Some(id))?.into_iter().next().unwrap_or(Value::Null),
                None => Value::Null,
            };
            let rounding = currency["itemRounding"].clone();
            let customer_group = json!({ "id": group_id, "name": group_name, "displayGross": display_gross, "apiAlias": "customer_group" });
            let body = json!({
                "token": session.token,
                "currentCustomerGroup": customer_group,
                "fallbackCustomerGroup": customer_group,
                "currency": currency,
                "salesChannel": {
                    "id": ctx.sales_channel.id,
                    "name": ctx.sales_channel.name,
                    "languageId": ctx.sales_channel.language_id,
                    "customerGroupId": group_id,
                    "currencyId": currency_id,
                    "countryId": country_id,
                    "navigationCategoryId": navigation_category_id,
                    "navigationCategoryVersionId": LIVE_VERSION_ID,
                    "navigationCategoryDepth": depth,
                    "paymentMethodId": channel_payment,
                    "shippingMethodId": channel_shipping,
                    "taxCalculationType": "horizontal",
                    "active": true,
                    "maintenance": false,
                    "domains": domains,
                    "translated": { "name": ctx.sales_channel.name },
                    "apiAlias": "sales_channel",
                },
                "taxRules": tax_rules,
                "customer": customer,
                "paymentMethod": payment_method,
                "shippingMethod": shipping_method,
                "shippingLocation": {
                    "country": customer["activeShippingAddress"]["country"].as_object().map(|_| customer["activeShippingAddress"]["country"].clone()).unwrap_or(country),
                    "state": null,
                    "address": customer["activeShippingAddress"],
                    "apiAlias": "cart_delivery_shipping_location",
                },
                "context": {
                    "versionId": LIVE_VERSION_ID,
                    "currencyId": currency_id,
                    "currencyFactor": 1,
                    "currencyPrecision": 2,
                    "languageIdChain": ctx.languages.ids(),
                    "scope": "user",
                    "source": { "type": "sales-channel", "salesChannelId": ctx.sales_channel.id },
                    "taxState": "gross",
                    "useCache": true,
                    "apiAlias": "context",
                },
                "itemRounding": rounding,
                "totalRounding": rounding,
                "languageInfo": {
                    "name": language["name"],
                    "localeCode": language["translationCode"]["code"],
                },
                "apiAlias": "sales_channel_context",
            });
            Ok((session.token, body))
        })
        .await?;
    let (token, body) = context;
    let mut response = Json(body).into_response();
    if let Ok(value) = HeaderValue::from_str(&token) {
        response.headers_mut().insert(CONTEXT_TOKEN_HEADER, value);
    }
    Ok(response)
}

/// `PATCH /store-api/context`: switches language, currency, country (and state) or,
/// for a logged-in customer, the billing and shipping address of the session.
pub async fn patch_context(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let field = |key: &str| -> Result<Option<String>, ApiError> {
        match body.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(id)) if is_id(&id.to_lowercase()) => Ok(Some(id.to_lowercase())),
            Some(_) => Err(ApiError::bad_request(
                "FRAMEWORK__INVALID_UUID",
                format!("{key} must be an id."),
            )
            .at(&format!("/{key}"))),
        }
    };
    let language = field("languageId")?;
    let currency = field("currencyId")?;
    let country = field("countryId")?;
    let state = field("countryStateId")?;
    let billing = field("billingAddressId")?;
    let shipping = field("shippingAddressId")?;
    let payment = field("paymentMethodId")?;
    let shipping_method = field("shippingMethodId")?;
    let token = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let session = ctx.ensure_session(&tx)?;
            let token = session.key.clone();
            let exists = |sql: &str, params: &[&dyn rusqlite::ToSql]| -> rusqlite::Result<bool> { tx.query_row(sql, params, |r| r.get(0)) };
            let unknown = |key: &str, code: &'static str| {
                Err(ApiError::bad_request(code, format!("The {key} is not available.")).at(&format!("/{key}")))
            };
            if let Some(id) = &language {
                if !language_available(&tx, &ctx.sales_channel.id, id)? {
                    return Ok(unknown("languageId", "SYSTEM__SALES_CHANNEL_LANGUAGE_NOT_AVAILABLE_EXCEPTION"));
                }
            }
            if let Some(id) = &currency {
                if !exists("SELECT EXISTS(SELECT 1 FROM currency WHERE id = ?1)", &[id])? {
                    return Ok(unknown("currencyId", "CHECKOUT__CURRENCY_NOT_FOUND"));
                }
            }
            if let Some(id) = &country {
                if !exists("SELECT EXISTS(SELECT 1 FROM country WHERE id = ?1 AND active = 1)", &[id])? {
                    return Ok(unknown("countryId", "CHECKOUT__COUNTRY_NOT_FOUND"));
                }
            }
            if let Some(id) = &state {
                if !exists("SELECT EXISTS(SELECT 1 FROM country_state WHERE id = ?1 AND active = 1)", &[id])? {
                    return Ok(unknown("countryStateId", "CHECKOUT__COUNTRY_STATE_NOT_FOUND"));
                }
            }
            if let Some(id) = &payment {
                if !exists("SELECT EXISTS(SELECT 1 FROM payment_method WHERE id = ?1 AND active = 1)", &[id])? {
                    return Ok(unknown("paymentMethodId", "CHECKOUT__UNKNOWN_PAYMENT_METHOD"));
                }
            }
            if let Some(id) = &shipping_method {
                if !exists("SELECT EXISTS(SELECT 1 FROM shipping_method WHERE id = ?1 AND active = 1)", &[id])? {
                    return Ok(unknown("shippingMethodId", "CHECKOUT__SHIPPING_METHOD_NOT_FOUND"));
                }
            }
            if billing.is_some() || shipping.is_some() {
                let customer: Option<String> =
                    tx.query_row("SELECT customer_id FROM store_context WHERE token = ?1", [&token], |r| r.get(0))?;
                let Some(customer) = customer else { return Ok(Err(crate::account::logged_in::not_logged_in())) };
                for (key, id) in [("billingAddressId", &billing), ("shippingAddressId", &shipping)] {
                    if let Some(id) = id {
                        if !exists("SELECT EXISTS(SELECT 1 FROM customer_address WHERE id = ?1 AND customer_id = ?2)", &[id, &customer])? {
                            return Ok(unknown(key, "CHECKOUT__CUSTOMER_ADDRESS_NOT_FOUND"));
                        }
                    }
                }
            }
            tx.execute(
                "UPDATE store_context SET language_id = COALESCE(?1, language_id), currency_id = COALESCE(?2, currency_id),
                    country_id = COALESCE(?3, country_id), country_state_id = COALESCE(?4, country_state_id),
                    billing_address_id = COALESCE(?5, billing_address_id), shipping_address_id = COALESCE(?6, shipping_address_id),
                    payment_method_id = COALESCE(?7, payment_method_id), shipping_method_id = COALESCE(?8, shipping_method_id),
                    updated_at = ?9
                 WHERE token = ?10",
                rusqlite::params![language, currency, country, state, billing, shipping, payment, shipping_method, now_rfc3339(), token],
            )?;
            tx.commit()?;
            Ok(Ok(session.token))
        })
        .await??;
    let mut response =
        Json(json!({ "contextToken": token, "redirectUrl": null, "apiAlias": "array_struct" }))
            .into_response();
    if let Ok(value) = HeaderValue::from_str(&token) {
        response.headers_mut().insert(CONTEXT_TOKEN_HEADER, value);
    }
    Ok(response)
}
