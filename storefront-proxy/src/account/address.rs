//! Customer addresses: the `customer_address` entity, validation shared with
//! registration, and the address calls of the account.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Map, Value};

use super::logged_in::LoggedIn;
use crate::catalog::criteria;
use crate::error::{ApiError, ApiResult, Violation};
use crate::settings::{load_countries, load_salutations};
use crate::state::App;
use crate::storage::translation::{self, LanguageChain};
use crate::storage::{is_id, json_ids, new_id, now_rfc3339};
use crate::store_api::ShopContext;
use crate::store_api::{search_result, RequestParams};

const MAX_LENGTH: usize = 255;

/// A validated address.
#[derive(Debug, Clone, Default)]
pub struct AddressInput {
    pub salutation_id: Option<String>,
    pub title: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub company: Option<String>,
    pub department: Option<String>,
    pub street: String,
    pub zipcode: Option<String>,
    pub city: String,
    pub country_id: String,
    pub country_state_id: Option<String>,
    pub phone_number: Option<String>,
    pub additional_address_line1: Option<String>,
    pub additional_address_line2: Option<String>,
}

/// A text field: trimmed, `None` when absent or empty; too long is a violation.
pub fn text(
    body: &Map<String, Value>,
    key: &str,
    pointer: &str,
    violations: &mut Vec<Violation>,
) -> Option<String> {
    let value = match body.get(key) {
        Some(Value::String(s)) => s.trim().to_owned(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Null) | None => return None,
        Some(_) => {
            violations.push(Violation::new(
                "VIOLATION::INVALID_TYPE_ERROR",
                format!("{pointer}/{key}"),
                "This value should be of type string.",
            ));
            return None;
        }
    };
    if value.chars().count() > MAX_LENGTH {
        violations.push(Violation::new(
            "VIOLATION::TOO_LONG_ERROR",
            format!("{pointer}/{key}"),
            format!("This value is too long. It should have {MAX_LENGTH} characters or less."),
        ));
    }
    (!value.is_empty()).then_some(value)
}

/// A required text field.
pub fn required(
    body: &Map<String, Value>,
    key: &str,
    pointer: &str,
    violations: &mut Vec<Violation>,
) -> String {
    text(body, key, pointer, violations).unwrap_or_else(|| {
        violations.push(Violation::blank(format!("{pointer}/{key}")));
        String::new()
    })
}

/// Validates an address body; `fallback` supplies the names (registration reuses the
/// customer's). Violations point below `pointer` (e.g. `/billingAddress`).
pub fn validate(
    conn: &Connection,
    body: &Map<String, Value>,
    pointer: &str,
    fallback: Option<(&str, &str, Option<&str>)>,
    violations: &mut Vec<Violation>,
) -> rusqlite::Result<AddressInput> {
    let mut named = |key: &str, default: Option<&str>| match text(body, key, pointer, violations)
        .or(default.map(str::to_owned))
    {
        Some(value) => value,
        None => {
            violations.push(Violation::blank(format!("{pointer}/{key}")));
            String::new()
        }
    };
    let first_name = named("firstName", fallback.map(|f| f.0));
    let last_name = named("lastName", fallback.map(|f| f.1));
    let street = required(body, "street", pointer, violations);
    let city = required(body, "city", pointer, violations);
    let zipcode = text(body, "zipcode", pointer, violations);
    let country_id = required(body, "countryId", pointer, violations).to_lowercase();
    let mut input = AddressInput {
        salutation_id: text(body, "salutationId", pointer, violations)
            .map(|s| s.to_lowercase())
            .or(fallback.and_then(|f| f.2.map(str::to_owned))),
        title: text(body, "title", pointer, violations),
        first_name,
        last_name,
        company: text(body, "company", pointer, violations),
        department: text(body, "department", pointer, violations),
        street,
        zipcode,
        city,
        country_id,
        country_state_id: text(body, "countryStateId", pointer, violations)
            .map(|s| s.to_lowercase()),
        phone_number: text(body, "phoneNumber", pointer, violations),
        additional_address_line1: text(body, "additionalAddressLine1", pointer, violations),
        additional_address_line2: text(body, "additionalAddressLine2", pointer, violations),
    };
    check_choices(conn, &mut input, pointer, violations)?;
    Ok(input)
}

/// The country (and whether it needs a zipcode), state and salutation of `input` must
/// exist; an unknown salutation is dropped.
fn check_choices(
    conn: &Connection,
    input: &mut AddressInput,
    pointer: &str,
    violations: &mut Vec<Violation>,
) -> rusqlite::Result<()> {
    if !input.country_id.is_empty() {
        let country: Option<bool> = conn
            .query_row(
                "SELECT postal_code_required FROM country WHERE id = ?1 AND active = 1",
                [&input.country_id],
                |r| r.get(0),
            )
            .optional()?;
        match country {
            None => violations.push(Violation::new(
                "VIOLATION::NO_SUCH_CHOICE_ERROR",
                format!("{pointer}/countryId"),
                "The selected country does not exist.",
            )),
            Some(true) if input.zipcode.is_none() => {
                violations.push(Violation::blank(format!("{pointer}/zipcode")))
            }
            Some(_) => {}
        }
        if let Some(state) = &input.country_state_id {
            let fits: bool = conn.query_row(
                "SELECT EXISTS(SELECT 1 FROM country_state WHERE id = ?1 AND country_id = ?2 AND active = 1)",
                [state, &input.country_id],
                |r| r.get(0),
            )?;
            if !fits {
                violations.push(Violation::new(
                    "VIOLATION::NO_SUCH_CHOICE_ERROR",
                    format!("{pointer}/countryStateId"),
                    "The selected state does not belong to the country.",
                ));
            }
        }
    }
    if let Some(salutation) = &input.salutation_id {
        let exists: bool = conn.query_row(
            "SELECT EXISTS(SELECT 1 FROM salutation WHERE id = ?1)",
            [salutation],
            |r| r.get(0),
        )?;
        if !exists {
            violations.push(Violation::new(
                "VIOLATION::NO_SUCH_CHOICE_ERROR",
                format!("{pointer}/salutationId"),
                "The selected salutation does not exist.",
            ));
            input.salutation_id = None;
        }
    }
    Ok(())
}

/// Writes a new address of `customer_id`.
pub fn insert(
    conn: &Connection,
    customer_id: &str,
    input: &AddressInput,
) -> rusqlite::Result<String> {
    let id = new_id();
    conn.execute(
        "INSERT INTO customer_address (id, customer_id, salutation_id, title, first_name, last_name, company, department, street, zipcode,
            city, country_id, country_state_id, phone_number, additional_address_line1, additional_address_line2, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
        params![
            id,
            customer_id,
            input.salutation_id,
            input.title,
            input.first_name,
            input.last_name,
            input.company,
            input.department,
            input.street,
            input.zipcode,
            input.city,
            input.country_id,
            input.country_state_id,
            input.phone_number,
            input.additional_address_line1,
            input.additional_address_line2,
            now_rfc3339()
        ],
    )?;
    Ok(id)
}

/// The addresses of a customer (only those of `only`, when given), with country,
/// state and salutation.
pub fn load(
    conn: &Connection,
    ctx: &ShopContext,
    customer_id: &str,
    only: Option<&[String]>,
) -> rusqlite::Result<Vec<Value>> {
    let (defaults_billing, defaults_shipping): (Option<String>, Option<String>) = conn
        .query_row("SELECT default_billing_address_id, default_shipping_address_id FROM customer WHERE id = ?1", [customer_id], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?
        .unwrap_or((None, None));
    let mut statement = conn.prepare_cached(
        "SELECT id, customer_id, country_id, country_state_id, salutation_id, first_name, last_name, zipcode, city, company, street,
                department, title, phone_number, additional_address_line1, additional_address_line2, created_at, updated_at
         FROM customer_address WHERE customer_id = ?1 AND (?2 IS NULL OR id IN (SELECT value FROM json_each(?2)))
         ORDER BY created_at, id",
    )?;
    let rows = statement
        .query_map(params![customer_id, only.map(json_ids)], |r| {
            let id: String = r.get(0)?;
            Ok(json!({
                "id": id,
                "customerId": r.get::<_, String>(1)?,
                "countryId": r.get::<_, String>(2)?,
                "countryStateId": r.get::<_, Option<String>>(3)?,
                "salutationId": r.get::<_, Option<String>>(4)?,
                "firstName": r.get::<_, String>(5)?,
                "lastName": r.get::<_, String>(6)?,
                "zipcode": r.get::<_, Option<String>>(7)?,
                "city": r.get::<_, String>(8)?,
                "company": r.get::<_, Option<String>>(9)?,
                "street": r.get::<_, String>(10)?,
                "department": r.get::<_, Option<String>>(11)?,
                "title": r.get::<_, Option<String>>(12)?,
                "phoneNumber": r.get::<_, Option<String>>(13)?,
                "additionalAddressLine1": r.get::<_, Option<String>>(14)?,
                "additionalAddressLine2": r.get::<_, Option<String>>(15)?,
                "createdAt": r.get::<_, String>(16)?,
                "updatedAt": r.get::<_, Option<String>>(17)?,
                "isDefaultBillingAddress": defaults_billing.as_deref() == Some(id.as_str()),
                "isDefaultShippingAddress": defaults_shipping.as_deref() == Some(id.as_str()),
                "apiAlias": "customer_address",
            }))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    with_references(conn, &ctx.languages, rows)
}

/// Adds `country` (without its states), `countryState` and `salutation` to addresses
/// (customer or order addresses) that carry their ids.
pub fn with_references(
    conn: &Connection,
    languages: &LanguageChain,
    rows: Vec<Value>,
) -> rusqlite::Result<Vec<Value>> {
    if rows.is_empty() {
        return Ok(rows);
    }
    let countries = load_countries(conn, languages, None, true)?;
    let salutations = load_salutations(conn, languages)?;
    const NAME: &[(&str, &str)] = &[("name", "name")];
    let state_ids: Vec<String> = rows
        .iter()
        .filter_map(|r| r["countryStateId"].as_str().map(str::to_owned))
        .collect();
    let state_names = translation::load(
        conn,
        "country_state_translation",
        "country_state_id",
        NAME,
        &state_ids,
        languages,
    )?;
    Ok(rows
        .into_iter()
        .map(|mut address| {
            let mut country = countries
                .iter()
                .find(|c| c["id"] == address["countryId"])
                .cloned()
                .unwrap_or(Value::Null);
            let state = country["states"]
                .as_array()
                .and_then(|states| states.iter().find(|s| s["id"] == address["countryStateId"]))
                .cloned()
                .map(|mut state| {
                    state["name"] = translation::get(
                        &state_names,
                        state["id"].as_str().unwrap_or_default(),
                        NAME,
                    )["name"]
                        .clone();
                    state
                })
                .unwrap_or(Value::Null);
            if country.is_object() {
                country["states"] = Value::Null;
            }
            address["country"] = country;
            address["countryState"] = state;
            address["salutation"] = salutations
                .iter()
                .find(|s| s["id"] == address["salutationId"])
                .cloned()
                .unwrap_or(Value::Null);
            address
        })
        .collect())
}

fn address_not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "CHECKOUT__CUSTOMER_ADDRESS_NOT_FOUND",
        format!("Customer address with id \"{id}\" not found."),
    )
}

fn owns(conn: &Connection, customer_id: &str, address_id: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS(SELECT 1 FROM customer_address WHERE id = ?1 AND customer_id = ?2)",
        [address_id, customer_id],
        |r| r.get(0),
    )
}

/// `POST /store-api/account/list-address`
pub async fn list(
    user: LoggedIn,
    State(app): State<App>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut criteria = criteria::parse(&params, "customer_address", &|_| None)?;
    let includes = std::mem::take(&mut criteria.includes);
    let addresses = app
        .db
        .call(move |conn| {
            Ok(load(
                conn,
                &user.ctx,
                &user.customer_id,
                criteria.ids.as_deref(),
            )?)
        })
        .await?;
    let total = addresses.len();
    let mut body = search_result("customer_address", addresses, total, 1, None);
    criteria::apply_includes(&mut body, &includes);
    Ok(Json(body))
}

/// `POST /store-api/account/address`
pub async fn create(
    user: LoggedIn,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let address = app
        .db
        .call(move |conn| {
            let mut violations = Vec::new();
            let input = validate(conn, &body, "", None, &mut violations)?;
            if !violations.is_empty() {
                return Ok(Err(ApiError::Violations(violations)));
            }
            let tx = conn.transaction()?;
            let id = insert(&tx, &user.customer_id, &input)?;
            tx.commit()?;
            Ok(Ok(load(conn, &user.ctx, &user.customer_id, Some(&[id]))?
                .into_iter()
                .next()
                .unwrap_or(Value::Null)))
        })
        .await??;
    Ok(Json(address))
}

/// `PATCH /store-api/account/address/{id}`: replaces the address's fields.
pub async fn update(
    user: LoggedIn,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let id = id.to_lowercase();
    let address = app
        .db
        .call(move |conn| {
            if !is_id(&id) || !owns(conn, &user.customer_id, &id)? {
                return Ok(Err(address_not_found(&id)));
            }
            let mut violations = Vec::new();
            let input = validate(conn, &body, "", None, &mut violations)?;
            if !violations.is_empty() {
                return Ok(Err(ApiError::Violations(violations)));
            }
            conn.execute(
                "UPDATE customer_address SET salutation_id = ?1, title = ?2, first_name = ?3, last_name = ?4, company = ?5, department = ?6,
                    street = ?7, zipcode = ?8, city = ?9, country_id = ?10, country_state_id = ?11, phone_number = ?12,
                    additional_address_line1 = ?13, additional_address_line2 = ?14, updated_at = ?15
                 WHERE id = ?16 AND customer_id = ?17",
                params![
                    input.salutation_id,
                    input.title,
                    input.first_name,
                    input.last_name,
                    input.company,
                    input.department,
                    input.street,
                    input.zipcode,
                    input.city,
                    input.country_id,
                    input.country_state_id,
                    input.phone_number,
                    input.additional_address_line1,
                    input.additional_address_line2,
                    now_rfc3339(),
                    id,
                    user.customer_id
                ],
            )?;
            Ok(Ok(load(conn, &user.ctx, &user.customer_id, Some(&[id]))?.into_iter().next().unwrap_or(Value::Null)))
        })
        .await??;
    Ok(Json(address))
}

/// `DELETE /store-api/account/address/{id}`: 204; a default address stays (400).
pub async fn delete(
    user: LoggedIn,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let id = id.to_lowercase();
    app.db
        .call(move |conn| {
            if !is_id(&id) || !owns(conn, &user.customer_id, &id)? {
                return Ok(Err(address_not_found(&id)));
            }
            let is_default: bool = conn.query_row(
                "SELECT EXISTS(SELECT 1 FROM customer WHERE id = ?1 AND (default_billing_address_id = ?2 OR default_shipping_address_id = ?2))",
                [&user.customer_id, &id],
                |r| r.get(0),
            )?;
            if is_default {
                return Ok(Err(ApiError::bad_request(
                    "CHECKOUT__CUSTOMER_ADDRESS_IS_DEFAULT",
                    format!("Customer address with id \"{id}\" is a default address and cannot be deleted."),
                )));
            }
            conn.execute("DELETE FROM customer_address WHERE id = ?1 AND customer_id = ?2", [&id, &user.customer_id])?;
            Ok(Ok(()))
        })
        .await??;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn set_default(
    user: LoggedIn,
    app: App,
    id: String,
    column: &'static str,
) -> ApiResult<Json<Value>> {
    let id = id.to_lowercase();
    let answer = id.clone();
    app.db
        .call(move |conn| {
            if !is_id(&id) || !owns(conn, &user.customer_id, &id)? {
                return Ok(Err(address_not_found(&id)));
            }
            conn.execute(
                &format!("UPDATE customer SET {column} = ?1, updated_at = ?2 WHERE id = ?3"),
                params![id, now_rfc3339(), user.customer_id],
            )?;
            Ok(Ok(()))
        })
        .await??;
    Ok(Json(Value::String(answer)))
}

/// `PATCH /store-api/account/address/default-billing/{id}`: answers the id.
pub async fn default_billing(
    user: LoggedIn,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    set_default(user, app, id, "default_billing_address_id").await
}

/// `PATCH /store-api/account/address/default-shipping/{id}`: answers the id.
pub async fn default_shipping(
    user: LoggedIn,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    set_default(user, app, id, "default_shipping_address_id").await
}
