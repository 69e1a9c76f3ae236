//! Payment and shipping methods: loading (translated), the session's choice (else the
//! sales channel's default), and the list calls.

use axum::extract::State;
use axum::Json;
use rusqlite::{Connection, OptionalExtension};
use serde_json::{json, Value};

use crate::error::ApiResult;
use crate::state::App;
use crate::storage::translation::{self, LanguageChain};
use crate::store_api::search_result;
use crate::store_api::ShopContext;

const FIELDS: &[(&str, &str)] = &[("name", "name"), ("description", "description")];
const NAME: &[(&str, &str)] = &[("name", "name")];

/// Active payment methods by position (or the one of `id`).
pub fn load_payment_methods(
    conn: &Connection,
    chain: &LanguageChain,
    id: Option<&str>,
) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn.prepare_cached(
        "SELECT id, technical_name, handler, position, after_order_enabled FROM payment_method
         WHERE active = 1 AND (?1 IS NULL OR id = ?1) ORDER BY position, technical_name",
    )?;
    let rows = statement
        .query_map([id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, bool>(4)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let ids: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let texts = translation::load(
        conn,
        "payment_method_translation",
        "payment_method_id",
        FIELDS,
        &ids,
        chain,
    )?;
    Ok(rows
        .into_iter()
        .map(|(id, technical_name, handler, position, after_order)| {
            let translated = translation::get(&texts, &id, FIELDS);
            json!({
                "id": id,
                "technicalName": technical_name,
                "name": translated["name"],
                "distinguishableName": translated["name"],
                "description": translated["description"],
                "shortName": handler,
                "position": position,
                "active": true,
                "afterOrderEnabled": after_order,
                "asynchronous": handler == "online",
                "mediaId": null,
                "media": null,
                "translated": translated,
                "apiAlias": "payment_method",
            })
        })
        .collect())
}

/// Active shipping methods by position (or the one of `id`), with delivery time and
/// price (`prices`: one price with the gross amount and the free-shipping limit).
pub fn load_shipping_methods(
    conn: &Connection,
    chain: &LanguageChain,
    id: Option<&str>,
) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn.prepare_cached(
        "SELECT s.id, s.technical_name, s.position, s.delivery_time_id, s.price_gross, s.free_from, d.min, d.max, d.unit,
                (SELECT id FROM currency ORDER BY is_system_default DESC, position LIMIT 1)
         FROM shipping_method s JOIN delivery_time d ON d.id = s.delivery_time_id
         WHERE s.active = 1 AND (?1 IS NULL OR s.id = ?1) ORDER BY s.position, s.technical_name",
    )?;
    let rows = statement
        .query_map([id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, f64>(4)?,
                r.get::<_, Option<f64>>(5)?,
                (
                    r.get::<_, i64>(6)?,
                    r.get::<_, i64>(7)?,
                    r.get::<_, String>(8)?,
                ),
                r.get::<_, Option<String>>(9)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let ids: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let texts = translation::load(
        conn,
        "shipping_method_translation",
        "shipping_method_id",
        FIELDS,
        &ids,
        chain,
    )?;
    let delivery_ids: Vec<String> = rows.iter().map(|r| r.3.clone()).collect();
    let delivery_texts = translation::load(
        conn,
        "delivery_time_translation",
        "delivery_time_id",
        NAME,
        &delivery_ids,
        chain,
    )?;
    Ok(rows
        .into_iter()
        .map(|(id, technical_name, position, delivery_time_id, gross, free_from, (min, max, unit), currency_id)| {
            let translated = translation::get(&texts, &id, FIELDS);
            let delivery = translation::get(&delivery_texts, &delivery_time_id, NAME);
            json!({
                "id": id,
                "technicalName": technical_name,
                "name": translated["name"],
                "description": translated["description"],
                "active": true,
                "position": position,
                "taxType": "auto",
                "deliveryTimeId": delivery_time_id,
                "deliveryTime": {
                    "id": delivery_time_id, "name": delivery["name"], "min": min, "max": max, "unit": unit,
                    "translated": delivery, "apiAlias": "delivery_time",
                },
                "prices": [{
                    "id": crate::storage::stable_id(&format!("shipping-method-price:{id}")),
                    "shippingMethodId": id,
                    "calculation": 1,
                    "quantityStart": 1,
                    "quantityEnd": null,
                    "currencyPrice": [{ "currencyId": currency_id, "gross": gross, "net": gross, "linked": false, "apiAlias": "price" }],
                    "freeFrom": free_from,
                    "apiAlias": "shipping_method_price",
                }],
                "media": null,
                "translated": translated,
                "apiAlias": "shipping_method",
            })
        })
        .collect())
}

/// The session's payment and shipping method ids, else the sales channel's defaults.
pub fn chosen(
    conn: &Connection,
    ctx: &ShopContext,
    token: Option<&str>,
) -> rusqlite::Result<(Option<String>, Option<String>)> {
    let session: (Option<String>, Option<String>) = match token {
        Some(token) => conn
            .query_row(
                "SELECT payment_method_id, shipping_method_id FROM store_context WHERE token = ?1",
                [token],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?
            .unwrap_or((None, None)),
        None => (None, None),
    };
    let channel: (Option<String>, Option<String>) = conn.query_row(
        "SELECT payment_method_id, shipping_method_id FROM sales_channel WHERE id = ?1",
        [&ctx.sales_channel.id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok((session.0.or(channel.0), session.1.or(channel.1)))
}

/// `GET|POST /store-api/payment-method`
pub async fn payment_methods(ctx: ShopContext, State(app): State<App>) -> ApiResult<Json<Value>> {
    let methods = app
        .db
        .call(move |conn| Ok(load_payment_methods(conn, &ctx.languages, None)?))
        .await?;
    let total = methods.len();
    Ok(Json(search_result(
        "payment_method",
        methods,
        total,
        1,
        None,
    )))
}

/// `GET|POST /store-api/shipping-method`: sorted by position.
pub async fn shipping_methods(ctx: ShopContext, State(app): State<App>) -> ApiResult<Json<Value>> {
    let methods = app
        .db
        .call(move |conn| Ok(load_shipping_methods(conn, &ctx.languages, None)?))
        .await?;
    let total = methods.len();
    Ok(Json(search_result(
        "shipping_method",
        methods,
        total,
        1,
        None,
    )))
}
