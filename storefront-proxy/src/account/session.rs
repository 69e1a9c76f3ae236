//! `POST /store-api/account/register`, `/login`, `/logout`: every change of who is
//! logged in gets a new context token (header `sw-context-token` and body).

use axum::extract::State;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde_json::{json, Map, Value};

use super::address::{self, required, text};
use super::customer;
use super::logged_in::LoggedIn;
use crate::catalog::criteria;
use crate::error::{ApiError, ApiResult, Violation};
use crate::security::{ClientAddr, Throttle, Volume};
use crate::state::App;
use crate::storage::{json_ids, new_id, now_rfc3339};
use crate::store_api::{RequestParams, CONTEXT_TOKEN_HEADER};
use crate::store_api::{Session, ShopContext};

pub const MIN_PASSWORD_LENGTH: usize = 8;
const MAX_PASSWORD_LENGTH: usize = 1024;

/// A plausible email address: one `@`, something before it, a dot after it, no spaces.
pub fn is_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains('@')
        && !email.chars().any(char::is_whitespace)
}

fn with_token(token: &str, body: Value) -> Response {
    let mut response = Json(body).into_response();
    if let Ok(value) = HeaderValue::from_str(token) {
        response.headers_mut().insert(CONTEXT_TOKEN_HEADER, value);
    }
    response
}

pub fn token_response(token: &str) -> Response {
    with_token(
        token,
        json!({ "contextToken": token, "redirectUrl": null, "apiAlias": "array_struct" }),
    )
}

/// A new session of `customer_id` (or anonymous), keeping the language, currency
/// and country chosen in the previous one. Only its key is stored; the token is answered.
fn new_session(
    tx: &Transaction,
    ctx: &ShopContext,
    customer_id: Option<&str>,
) -> rusqlite::Result<Session> {
    let session = crate::store_api::session::new_session();
    let token = session.key.clone();
    let now = now_rfc3339();
    let previous: Option<(Option<String>, Option<String>, Option<String>)> = match &ctx.token {
        Some(old) => tx
            .query_row(
                "SELECT language_id, currency_id, country_id FROM store_context WHERE token = ?1 AND sales_channel_id = ?2",
                [old, &ctx.sales_channel.id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?,
        None => None,
    };
    let (language, currency, country) = previous.unwrap_or((None, None, None));
    tx.execute(
        "INSERT INTO store_context (token, sales_channel_id, customer_id, language_id, currency_id, country_id, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
        params![token, ctx.sales_channel.id, customer_id, language, currency, country, now],
    )?;
    if let Some(old) = &ctx.token {
        follows(tx, old, &token, customer_id, &now)?;
    }
    Ok(session)
}

/// Remembers that the session `successor` followed `token` (a login, registration or
/// logout answered a new token), when `token` is a live-room attendee's or followed one:
/// the session report counts what the attendee's later sessions and their customer (a
/// guest's checkout registers one) carted and ordered
/// (`storage/0150_store_context_successor.sql`).
fn follows(
    tx: &Transaction,
    token: &str,
    successor: &str,
    customer_id: Option<&str>,
    now: &str,
) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT OR IGNORE INTO store_context_successor (token, successor, customer_id, created_at)
         SELECT ?1, ?2, ?3, ?4
         WHERE EXISTS (SELECT 1 FROM attendee WHERE context_token = ?1)
            OR EXISTS (SELECT 1 FROM store_context_successor WHERE successor = ?1)",
    )?
    .execute(params![token, successor, customer_id, now])?;
    Ok(())
}

fn password_violations(password: Option<&str>, violations: &mut Vec<Violation>) {
    new_password_violations(password, "/password", violations)
}

/// A new password's rules (registration, change, recovery), reported at `pointer`.
pub fn new_password_violations(
    password: Option<&str>,
    pointer: &str,
    violations: &mut Vec<Violation>,
) {
    match password {
        None | Some("") => violations.push(Violation::blank(pointer)),
        Some(p) if p.chars().count() < MIN_PASSWORD_LENGTH => violations.push(Violation::new(
            "VIOLATION::TOO_SHORT_ERROR",
            pointer,
            format!(
                "This value is too short. It should have {MIN_PASSWORD_LENGTH} characters or more."
            ),
        )),
        Some(p) if p.len() > MAX_PASSWORD_LENGTH => violations.push(Violation::new(
            "VIOLATION::TOO_LONG_ERROR",
            pointer,
            format!(
                "This value is too long. It should have {MAX_PASSWORD_LENGTH} characters or less."
            ),
        )),
        Some(_) => {}
    }
}

fn object<'a>(
    body: &'a Map<String, Value>,
    key: &str,
    violations: &mut Vec<Violation>,
) -> Option<&'a Map<String, Value>> {
    match body.get(key) {
        Some(Value::Object(map)) => Some(map),
        None | Some(Value::Null) => None,
        Some(_) => {
            violations.push(Violation::new(
                "VIOLATION::INVALID_TYPE_ERROR",
                format!("/{key}"),
                "This value should be an object.",
            ));
            None
        }
    }
}

/// Writes a customer from a registration body; violations leave nothing written.
fn create_customer(
    conn: &mut Connection,
    ctx: &ShopContext,
    body: &Map<String, Value>,
    guest: bool,
    password_hash: Option<String>,
) -> anyhow::Result<Result<(String, Session), ApiError>> {
    let mut violations = Vec::new();
    let first_name = required(body, "firstName", "", &mut violations);
    let last_name = required(body, "lastName", "", &mut violations);
    let email = required(body, "email", "", &mut violations).to_lowercase();
    let salutation_id = text(body, "salutationId", "", &mut violations).map(|s| s.to_lowercase());
    let title = text(body, "title", "", &mut violations);
    if !email.is_empty() && !is_email(&email) {
        violations.push(Violation::new(
            "VIOLATION::INVALID_EMAIL_FORMAT_ERROR",
            "/email",
            "This value is not a valid email address.",
        ));
    }
    if !guest && is_email(&email) {
        let taken: bool = conn.query_row(
            "SELECT EXISTS(SELECT 1 FROM customer WHERE lower(email) = ?1 AND guest = 0)",
            [&email],
            |r| r.get(0),
        )?;
        if taken {
            violations.push(Violation::new(
                "VIOLATION::CUSTOMER_EMAIL_NOT_UNIQUE",
                "/email",
                format!("The email address {email} is already in use"),
            ));
        }
    }
    if let Some(salutation) = &salutation_id {
        let exists: bool = conn.query_row(
            "SELECT EXISTS(SELECT 1 FROM salutation WHERE id = ?1)",
            [salutation],
            |r| r.get(0),
        )?;
        if !exists {
            violations.push(Violation::new(
                "VIOLATION::NO_SUCH_CHOICE_ERROR",
                "/salutationId",
                "The selected salutation does not exist.",
            ));
        }
    }
    let fallback = Some((
        first_name.as_str(),
        last_name.as_str(),
        salutation_id.as_deref(),
    ));
    let billing = match object(body, "billingAddress", &mut violations) {
        Some(billing) => Some(address::validate(
            conn,
            billing,
            "/billingAddress",
            fallback,
            &mut violations,
        )?),
        None => {
            violations.push(Violation::blank("/billingAddress"));
            None
        }
    };
    let shipping = match object(body, "shippingAddress", &mut violations) {
        Some(shipping) => Some(address::validate(
            conn,
            shipping,
            "/shippingAddress",
            fallback,
            &mut violations,
        )?),
        None => None,
    };
    if !violations.is_empty() {
        return Ok(Err(ApiError::Violations(violations)));
    }
    let Some(billing) = billing else {
        return Ok(Err(ApiError::Violations(vec![Violation::blank(
            "/billingAddress",
        )])));
    };
    let tx = conn.transaction()?;
    let group_id: Option<String> = tx.query_row(
        "SELECT customer_group_id FROM sales_channel WHERE id = ?1",
        [&ctx.sales_channel.id],
        |r| r.get(0),
    )?;
    let group_id =
        group_id.ok_or_else(|| anyhow::anyhow!("the sales channel has no customer group"))?;
    let number: i64 = tx.query_row(
        "SELECT COALESCE(MAX(CAST(customer_number AS INTEGER)), 10000) + 1 FROM customer",
        [],
        |r| r.get(0),
    )?;
    let customer_id = new_id();
    let now = now_rfc3339();
    tx.execute(
        "INSERT INTO customer (id, sales_channel_id, group_id, language_id, customer_number, salutation_id, title, first_name, last_name,
            email, password_hash, guest, first_login, last_login, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13, ?13)",
        params![
            customer_id,
            ctx.sales_channel.id,
            group_id,
            ctx.language_id(),
            number.to_string(),
            salutation_id,
            title,
            first_name,
            last_name,
            email,
            password_hash,
            guest,
            now
        ],
    )?;
    let billing_id = address::insert(&tx, &customer_id, &billing)?;
    let shipping_id = match &shipping {
        Some(shipping) => address::insert(&tx, &customer_id, shipping)?,
        None => billing_id.clone(),
    };
    tx.execute(
        "UPDATE customer SET default_billing_address_id = ?1, default_shipping_address_id = ?2 WHERE id = ?3",
        params![billing_id, shipping_id, customer_id],
    )?;
    let token = new_session(&tx, ctx, Some(&customer_id))?;
    // The visitor's cart comes along into the new customer's session.
    let previous: Vec<String> = ctx.token.iter().cloned().collect();
    crate::cart::calculate::merge(&tx, &previous, &token.key)?;
    tx.commit()?;
    Ok(Ok((customer_id, token)))
}

/// `POST /store-api/account/register`: a customer (or, with `guest: true`, a guest
/// without password) with billing and optional shipping address, logged in at once.
pub async fn register(
    ctx: ShopContext,
    client: ClientAddr,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    app.security.quota(Volume::Registration, client.0)?;
    let guest = body
        .get("guest")
        .and_then(criteria::boolean)
        .unwrap_or(false);
    let password = body
        .get("password")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let password_hash = if guest {
        None
    } else {
        let mut violations = Vec::new();
        password_violations(password.as_deref(), &mut violations);
        if !violations.is_empty() {
            // Report the other fields' problems too.
            let mut others = Vec::new();
            for key in ["firstName", "lastName", "email"] {
                required(&body, key, "", &mut others);
            }
            violations.extend(others);
            return Err(ApiError::Violations(violations));
        }
        let password = password.unwrap_or_default();
        Some(
            app.security
                .passwords
                .hash(password, super::password::hash_password)
                .await?,
        )
    };
    let created = app
        .db
        .call(move |conn| {
            let (customer_id, token) =
                match create_customer(conn, &ctx, &body, guest, password_hash)? {
                    Ok(created) => created,
                    Err(error) => return Ok(Err(error)),
                };
            let session = ShopContext {
                token: Some(token.key.clone()),
                client_token: Some(token.token.clone()),
                ..ctx
            };
            let customer = customer::load(conn, &session, &customer_id)?.unwrap_or(Value::Null);
            Ok(Ok((token, customer)))
        })
        .await??;
    let (token, customer) = created;
    Ok(with_token(&token.token, customer))
}

fn bad_credentials() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "CHECKOUT__CUSTOMER_AUTH_BAD_CREDENTIALS",
        "Invalid username and/or password.",
    )
}

/// `POST /store-api/account/login` with `username` (or `email`) and `password`.
/// Failed attempts are throttled with growing waits (`security::Throttle::Login`: per
/// account and client address, per account, per address); an unknown address takes
/// as long to refuse as a wrong password.
pub async fn login(
    ctx: ShopContext,
    client: ClientAddr,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let username = body
        .get("username")
        .or_else(|| body.get("email"))
        .and_then(Value::as_str)
        .map(|u| u.trim().to_lowercase())
        .unwrap_or_default();
    let password = body
        .get("password")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    if username.is_empty() || password.is_empty() {
        return Err(bad_credentials());
    }
    let address = client.key();
    let pair = format!("{username}\n{address}");
    let keys = [
        (Throttle::Login, pair.as_str()),
        (Throttle::LoginAccount, username.as_str()),
        (Throttle::LoginAddress, address.as_str()),
    ];
    app.security.throttle(&keys)?;
    let lookup = username.clone();
    let found: Option<(String, String, bool)> = app
        .db
        .call(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT id, password_hash, active FROM customer WHERE lower(email) = ?1 AND guest = 0 AND password_hash IS NOT NULL",
                    [&lookup],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .optional()?)
        })
        .await?;
    let hash = found.as_ref().map(|(_, hash, _)| hash.clone());
    // No check made (the hashing queue is full): the attempt does not count.
    let verified = app
        .security
        .passwords
        .verify(hash, password)
        .await
        .inspect_err(|_| app.security.release(&keys))?;
    let Some((customer_id, _, active)) = found.filter(|_| verified) else {
        return Err(bad_credentials());
    };
    app.security.forget(&keys[..2]);
    app.security.release(&keys[2..]);
    if !active {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "CHECKOUT__CUSTOMER_IS_INACTIVE",
            "The customer account is inactive.",
        ));
    }
    let token = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let token = customer_session(&tx, &ctx, &customer_id)?;
            tx.commit()?;
            Ok(token)
        })
        .await?;
    Ok(token_response(&token.token))
}

/// A new session of the customer after a login (password or a DSR login token): the
/// customer's last cart and the cart of the caller's session `ctx` become one, the
/// customer's payment preference becomes the session's. Answers the new session.
pub fn customer_session(
    tx: &Transaction,
    ctx: &ShopContext,
    customer_id: &str,
) -> rusqlite::Result<Session> {
    let session = new_session(tx, ctx, Some(customer_id))?;
    let token = session.key.clone();
    // The customer's last cart and the guest cart of this session become one.
    let mut previous: Vec<String> = tx
        .query_row(
            "SELECT s.token FROM store_context s JOIN cart c ON c.token = s.token
             WHERE s.customer_id = ?1 AND s.token != ?2 ORDER BY c.updated_at DESC LIMIT 1",
            params![customer_id, token],
            |r| r.get(0),
        )
        .optional()?
        .into_iter()
        .collect();
    previous.extend(ctx.token.clone());
    crate::cart::calculate::merge(tx, &previous, &token)?;
    tx.execute(
        "UPDATE customer SET last_login = ?1 WHERE id = ?2",
        params![now_rfc3339(), customer_id],
    )?;
    // The customer's payment preference becomes the session's.
    tx.execute(
        "UPDATE store_context SET payment_method_id = COALESCE(
            (SELECT c.default_payment_method_id FROM customer c JOIN payment_method p ON p.id = c.default_payment_method_id
             WHERE c.id = ?1 AND p.active = 1), payment_method_id)
         WHERE token = ?2",
        params![customer_id, token],
    )?;
    Ok(session)
}

/// `POST /store-api/account/logout`: the old token no longer belongs to the customer;
/// a fresh anonymous one is answered.
pub async fn logout(user: LoggedIn, State(app): State<App>) -> ApiResult<Response> {
    let token = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            end_sessions(&tx, &user.customer_id, std::slice::from_ref(&user.token))?;
            let token = new_session(&tx, &user.ctx, None)?;
            tx.commit()?;
            Ok(token)
        })
        .await?;
    Ok(token_response(&token.token))
}

/// Logs the customer's sessions `tokens` out: the tokens stay usable as anonymous
/// sessions, without the customer and their addresses. The most recently changed cart
/// among them stays with the customer for the next login, in a session of theirs whose
/// token is never handed out.
fn end_sessions(tx: &Transaction, customer_id: &str, tokens: &[String]) -> rusqlite::Result<()> {
    let mut latest_cart = tx.prepare_cached(
        "SELECT s.token, s.sales_channel_id FROM store_context s JOIN cart c ON c.token = s.token
         WHERE s.token IN (SELECT value FROM json_each(?1)) ORDER BY c.updated_at DESC LIMIT 1",
    )?;
    let latest: Option<(String, String)> = latest_cart
        .query_row([json_ids(tokens)], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let now = now_rfc3339();
    if let Some((token, sales_channel_id)) = latest {
        let parked = new_id() + &new_id();
        tx.execute(
            "INSERT INTO store_context (token, sales_channel_id, customer_id, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)",
            params![parked, sales_channel_id, customer_id, now],
        )?;
        crate::cart::calculate::merge(tx, &[token], &parked)?;
    }
    tx.execute(
        "UPDATE store_context SET customer_id = NULL, billing_address_id = NULL, shipping_address_id = NULL, updated_at = ?1
         WHERE token IN (SELECT value FROM json_each(?2))",
        params![now, json_ids(tokens)],
    )?;
    Ok(())
}

/// After a password change: every session of the customer except `keep` (the
/// caller's, if any) is logged out, as Shopware revokes the customer's other tokens.
pub fn end_other_sessions(
    tx: &Transaction,
    customer_id: &str,
    keep: Option<&str>,
) -> rusqlite::Result<()> {
    let mut statement = tx.prepare_cached(
        "SELECT token FROM store_context WHERE customer_id = ?1 AND token IS NOT ?2",
    )?;
    let others = statement
        .query_map(params![customer_id, keep], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    if others.is_empty() {
        return Ok(());
    }
    end_sessions(tx, customer_id, &others)
}
