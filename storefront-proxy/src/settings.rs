//! `GET|POST /store-api/language`, `/currency`, `/country` (with `states`),
//! `/salutation`: small, translated lists, and their loaders, which the account, cart,
//! order and contact domains use too.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use rusqlite::Connection;
use serde_json::{json, Value};

use crate::error::ApiResult;
use crate::state::App;
use crate::storage::translation::{self, LanguageChain};
use crate::store_api::{search_result, RequestParams, ShopContext};

pub fn routes() -> Router<App> {
    Router::new()
        .route("/language", get(languages).post(languages))
        .route("/currency", get(currencies).post(currencies))
        .route("/country", get(countries).post(countries))
        .route("/salutation", get(salutations).post(salutations))
}

fn locale_json(id: &str, code: &str, name: &str, territory: &str) -> Value {
    json!({
        "id": id, "code": code, "name": name, "territory": territory,
        "translated": { "name": name, "territory": territory },
        "apiAlias": "locale",
    })
}

/// The languages of a sales channel.
pub fn load_languages(conn: &Connection, sales_channel_id: &str) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn.prepare_cached(
        "SELECT l.id, l.parent_id, l.name, lo.id, lo.code, lo.name, lo.territory
         FROM language l JOIN sales_channel_language scl ON scl.language_id = l.id
         JOIN locale lo ON lo.id = l.locale_id
         WHERE scl.sales_channel_id = ?1 ORDER BY l.name",
    )?;
    let rows = statement.query_map([sales_channel_id], |r| {
        let locale_id: String = r.get(3)?;
        let locale = locale_json(
            &locale_id,
            &r.get::<_, String>(4)?,
            &r.get::<_, String>(5)?,
            &r.get::<_, String>(6)?,
        );
        Ok(json!({
            "id": r.get::<_, String>(0)?,
            "parentId": r.get::<_, Option<String>>(1)?,
            "localeId": locale_id,
            "translationCodeId": locale_id,
            "name": r.get::<_, String>(2)?,
            "active": true,
            "locale": locale,
            "translationCode": locale,
            "apiAlias": "language",
        }))
    })?;
    rows.collect()
}

/// `GET|POST /store-api/language`
pub async fn languages(ctx: ShopContext, State(app): State<App>) -> ApiResult<Json<Value>> {
    let channel = ctx.sales_channel.id.clone();
    let languages = app
        .db
        .call(move |conn| Ok(load_languages(conn, &channel)?))
        .await?;
    let total = languages.len();
    Ok(Json(search_result("language", languages, total, 1, None)))
}

const CURRENCY_FIELDS: &[(&str, &str)] = &[("short_name", "shortName"), ("name", "name")];

/// All currencies, or the one with `id`.
pub fn load_currencies(
    conn: &Connection,
    chain: &LanguageChain,
    id: Option<&str>,
) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn.prepare_cached(
        "SELECT id, iso_code, symbol, factor, position, decimals, is_system_default FROM currency
         WHERE ?1 IS NULL OR id = ?1 ORDER BY position, iso_code",
    )?;
    let rows = statement
        .query_map([id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, f64>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, i64>(5)?,
                r.get::<_, bool>(6)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let ids: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let texts = translation::load(
        conn,
        "currency_translation",
        "currency_id",
        CURRENCY_FIELDS,
        &ids,
        chain,
    )?;
    Ok(rows
        .into_iter()
        .map(|(id, iso, symbol, factor, position, decimals, system_default)| {
            let translated = translation::get(&texts, &id, CURRENCY_FIELDS);
            let rounding = json!({
                "decimals": decimals,
                "interval": 0.01,
                "roundForNet": true,
                "apiAlias": "shopware_core_framework_data_abstraction_layer_pricing_cash_rounding_config",
            });
            json!({
                "id": id,
                "factor": factor,
                "symbol": symbol,
                "isoCode": iso,
                "shortName": translated["shortName"],
                "name": translated["name"],
                "position": position,
                "isSystemDefault": system_default,
                "taxFreeFrom": 0,
                "itemRounding": rounding,
                "totalRounding": rounding,
                "translated": translated,
                "apiAlias": "currency",
            })
        })
        .collect())
}

/// `GET|POST /store-api/currency`: a plain array, as in the schema.
pub async fn currencies(ctx: ShopContext, State(app): State<App>) -> ApiResult<Json<Value>> {
    let chain = ctx.languages.clone();
    let currencies = app
        .db
        .call(move |conn| Ok(load_currencies(conn, &chain, None)?))
        .await?;
    Ok(Json(Value::Array(currencies)))
}

const NAME: &[(&str, &str)] = &[("name", "name")];

/// Countries (all active ones, or those of `id`), with their states if asked.
pub fn load_countries(
    conn: &Connection,
    chain: &LanguageChain,
    id: Option<&str>,
    with_states: bool,
) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn.prepare_cached(
        "SELECT id, iso, iso3, position, active, shipping_available, display_state_in_registration,
                force_state_in_registration, postal_code_required, is_eu
         FROM country WHERE active = 1 AND (?1 IS NULL OR id = ?1)",
    )?;
    let rows = statement
        .query_map([id], |r| {
            Ok(json!({
                "id": r.get::<_, String>(0)?,
                "iso": r.get::<_, String>(1)?,
                "iso3": r.get::<_, String>(2)?,
                "position": r.get::<_, i64>(3)?,
                "active": r.get::<_, bool>(4)?,
                "shippingAvailable": r.get::<_, bool>(5)?,
                "displayStateInRegistration": r.get::<_, bool>(6)?,
                "forceStateInRegistration": r.get::<_, bool>(7)?,
                "postalCodeRequired": r.get::<_, bool>(8)?,
                "isEu": r.get::<_, bool>(9)?,
            }))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let ids: Vec<String> = rows
        .iter()
        .map(|r| r["id"].as_str().unwrap_or_default().to_owned())
        .collect();
    let names = translation::load(conn, "country_translation", "country_id", NAME, &ids, chain)?;
    let mut states_statement = conn.prepare_cached(
        "SELECT id, country_id, short_code, position, active FROM country_state
         WHERE country_id IN (SELECT value FROM json_each(?1)) ORDER BY position, short_code",
    )?;
    let states = if with_states {
        states_statement
            .query_map([crate::storage::json_ids(&ids)], |r| {
                Ok(json!({
                    "id": r.get::<_, String>(0)?,
                    "countryId": r.get::<_, String>(1)?,
                    "shortCode": r.get::<_, String>(2)?,
                    "position": r.get::<_, i64>(3)?,
                    "active": r.get::<_, bool>(4)?,
                    "apiAlias": "country_state",
                }))
            })?
            .collect::<Result<Vec<_>, _>>()?
    } else {
        Vec::new()
    };
    let state_ids: Vec<String> = states
        .iter()
        .map(|s| s["id"].as_str().unwrap_or_default().to_owned())
        .collect();
    let state_names = translation::load(
        conn,
        "country_state_translation",
        "country_state_id",
        NAME,
        &state_ids,
        chain,
    )?;
    let mut countries: Vec<Value> = rows
        .into_iter()
        .zip(ids.iter())
        .map(|(mut country, id)| {
            let translated = translation::get(&names, id, NAME);
            country["name"] = translated["name"].clone();
            country["translated"] = Value::Object(translated);
            country["checkVatIdPattern"] = json!(false);
            country["vatIdRequired"] = json!(false);
            country["checkPostalCodePattern"] = json!(false);
            country["checkAdvancedPostalCodePattern"] = json!(false);
            country["customerTax"] = json!({ "enabled": false, "currencyId": null, "amount": 0 });
            country["companyTax"] = json!({ "enabled": false, "currencyId": null, "amount": 0 });
            // Shopware's default address format (an array of lines, not the object the
            // schema says).
            country["addressFormat"] = json!([
                ["address/company", "symbol/dash", "address/department"],
                ["address/first_name", "address/last_name"],
                ["address/street"],
                ["address/zipcode", "address/city"],
                ["address/country"]
            ]);
            let country_states: Vec<Value> = states
                .iter()
                .filter(|s| s["countryId"] == json!(id))
                .map(|s| {
                    let mut state = s.clone();
                    let state_id = s["id"].as_str().unwrap_or_default();
                    let translated = translation::get(&state_names, state_id, NAME);
                    state["name"] = translated["name"].clone();
                    state["translated"] = Value::Object(translated);
                    state
                })
                .collect();
            country["states"] = if with_states {
                Value::Array(country_states)
            } else {
                Value::Null
            };
            country["apiAlias"] = json!("country");
            country
        })
        .collect();
    countries.sort_by(|a, b| {
        (a["position"].as_i64(), a["name"].as_str())
            .cmp(&(b["position"].as_i64(), b["name"].as_str()))
    });
    Ok(countries)
}

/// Whether the criteria ask for an association, in the body (`associations: {states: {}}`)
/// or the query string (`associations[states][]`).
pub fn wants_association(params: &serde_json::Map<String, Value>, name: &str) -> bool {
    params
        .get("associations")
        .and_then(|a| a.get(name))
        .is_some()
        || params
            .keys()
            .any(|key| key.starts_with(&format!("associations[{name}]")))
}

/// `GET|POST /store-api/country`
pub async fn countries(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let chain = ctx.languages.clone();
    let with_states = wants_association(&params, "states");
    let countries = app
        .db
        .call(move |conn| Ok(load_countries(conn, &chain, None, with_states)?))
        .await?;
    let total = countries.len();
    Ok(Json(search_result("country", countries, total, 1, None)))
}

const SALUTATION_FIELDS: &[(&str, &str)] = &[
    ("display_name", "displayName"),
    ("letter_name", "letterName"),
];

/// All salutations, by position.
pub fn load_salutations(conn: &Connection, chain: &LanguageChain) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn
        .prepare_cached("SELECT id, salutation_key, position FROM salutation ORDER BY position")?;
    let rows = statement
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let ids: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let texts = translation::load(
        conn,
        "salutation_translation",
        "salutation_id",
        SALUTATION_FIELDS,
        &ids,
        chain,
    )?;
    Ok(rows
        .into_iter()
        .map(|(id, key, position)| {
            let translated = translation::get(&texts, &id, SALUTATION_FIELDS);
            json!({
                "id": id,
                "salutationKey": key,
                "displayName": translated["displayName"],
                "letterName": translated["letterName"],
                "position": position,
                "translated": translated,
                "apiAlias": "salutation",
            })
        })
        .collect())
}

/// `GET|POST /store-api/salutation`
pub async fn salutations(ctx: ShopContext, State(app): State<App>) -> ApiResult<Json<Value>> {
    let chain = ctx.languages.clone();
    let salutations = app
        .db
        .call(move |conn| Ok(load_salutations(conn, &chain)?))
        .await?;
    let total = salutations.len();
    Ok(Json(search_result(
        "salutation",
        salutations,
        total,
        1,
        None,
    )))
}
