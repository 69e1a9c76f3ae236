//! From the digital sales room to the storefront (the document's "Customer account"
//! DSR calls, store API, the caller's own session):
//!
//! - `POST /store-api/dsr/customer/generate-login-token` (`storefrontUrl`, optional): a
//!   customer attending an appointment (their session is the attendee's) gets a login
//!   token, `{"apiAlias": "dsr.storefront-login.response", "token"}`. It works once, in
//!   the same sales channel, for `LOGIN_TOKEN_TTL`; only its SHA-256 is stored; a new
//!   one replaces the attendee's earlier unused one.
//! - `POST /store-api/dsr/customer/automatic-login` (`token`): the storefront's session
//!   becomes a new session of that customer (`ContextTokenResponse`, as a password
//!   login: the customer's last cart and this session's cart become one). Refused: a
//!   token that is unknown, used, of another sales channel (401 `…LOGIN_TOKEN_INVALID`),
//!   expired (401 `…LOGIN_TOKEN_EXPIRED`), or a session logged in as another customer
//!   (403 `…LOGIN_TOKEN_OTHER_CUSTOMER`, the token stays unused).
//! - `POST /store-api/dsr/customer/migrate-visitor-session` (`contextToken`): a guest
//!   attendee's room session (`contextToken`) hands its cart to the caller's session
//!   (quantities of the same product add up; the guest's cart is then empty); 204. Only
//!   a guest's session of the same sales channel moves (a customer logs in instead).
//!
//! Upstream mode passes all three to the upstream shop as they are.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use rusqlite::{params, OptionalExtension};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::account::logged_in::LoggedIn;
use crate::account::session::{customer_session, token_response};
use crate::error::{ApiError, ApiResult};
use crate::shop_event::ShopEvent;
use crate::state::App;
use crate::storage::{new_id, now_rfc3339};
use crate::store_api::{RequestParams, ShopContext};

/// How long a login token works.
pub const LOGIN_TOKEN_TTL: Duration = Duration::from_secs(5 * 60);
/// Longest `storefrontUrl` accepted.
pub const MAX_STOREFRONT_URL: usize = 2048;
/// Longest `token` / `contextToken` looked at (ours are 64 characters).
const MAX_TOKEN_LEN: usize = 256;

fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or_default()
}

fn hash(token: &str) -> String {
    format!("{:x}", Sha256::digest(token.as_bytes()))
}

fn invalid_token() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "DIGITAL_SALES_ROOMS__LOGIN_TOKEN_INVALID",
        "The login token is unknown or was used already.",
    )
}

fn expired_token() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "DIGITAL_SALES_ROOMS__LOGIN_TOKEN_EXPIRED",
        "The login token has expired.",
    )
}

fn other_customer() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "DIGITAL_SALES_ROOMS__LOGIN_TOKEN_OTHER_CUSTOMER",
        "This session is logged in as another customer; log out first.",
    )
}

fn invalid_visitor_session(detail: &str) -> ApiError {
    ApiError::bad_request("DIGITAL_SALES_ROOMS__VISITOR_SESSION_INVALID", detail)
        .at("/contextToken")
}

/// A string field of at most `max` characters, `None` when absent or empty.
fn text_field<'a>(
    body: &'a serde_json::Map<String, Value>,
    key: &str,
    max: usize,
) -> Result<Option<&'a str>, ()> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if text.is_empty() => Ok(None),
        Some(Value::String(text)) if text.len() <= max => Ok(Some(text)),
        Some(_) => Err(()),
    }
}

/// `POST /store-api/dsr/customer/generate-login-token`.
pub async fn generate(
    user: LoggedIn,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let storefront_url = text_field(&body, "storefrontUrl", MAX_STOREFRONT_URL)
        .ok()
        .and_then(|url| match url {
            None => Some(None),
            Some(url) => (url.starts_with("https://") || url.starts_with("http://")).then(|| Some(url.to_owned())),
        })
        .ok_or_else(|| {
            ApiError::bad_request(
                "DIGITAL_SALES_ROOMS__INVALID_STOREFRONT_URL",
                format!("storefrontUrl must be an http(s) address of at most {MAX_STOREFRONT_URL} characters."),
            )
            .at("/storefrontUrl")
        })?;
    // The storefront gets the link: one of the sales channel's domains, as for the
    // recovery mail's link (issue #29), never another site.
    if let Some(url) = &storefront_url {
        if !crate::mail::is_shop_url(url.trim_end_matches('/'), &app.config.shop_origins()) {
            return Err(ApiError::Violations(vec![crate::error::Violation::new(
                "VIOLATION::NO_SUCH_CHOICE_ERROR",
                "/storefrontUrl",
                "The value you selected is not a valid choice: the storefront URL is not a domain of this sales channel.",
            )]));
        }
    }
    let token = new_id() + &new_id();
    let token_hash = hash(&token);
    let expires_at = unix_now() + LOGIN_TOKEN_TTL.as_secs() as i64;
    let stored = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let attendee: Option<String> = tx
                .query_row(
                    "SELECT id FROM attendee WHERE context_token = ?1 AND customer_id = ?2 AND type = 'CLIENT' AND removed_at IS NULL
                     ORDER BY joined_at DESC LIMIT 1",
                    params![user.token, user.customer_id],
                    |r| r.get(0),
                )
                .optional()?;
            let Some(attendee) = attendee else { return Ok(false) };
            // One live token per attendee; used and expired ones are of no further use.
            tx.execute(
                "DELETE FROM dsr_login_token WHERE attendee_id = ?1 OR (customer_id = ?2 AND (used_at IS NOT NULL OR expires_at <= ?3))",
                params![attendee, user.customer_id, unix_now()],
            )?;
            tx.execute(
                "INSERT INTO dsr_login_token (token_hash, customer_id, sales_channel_id, attendee_id, storefront_url, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![token_hash, user.customer_id, user.ctx.sales_channel.id, attendee, storefront_url, now_rfc3339(), expires_at],
            )?;
            tx.commit()?;
            Ok(true)
        })
        .await?;
    if !stored {
        return Err(super::attendee::not_found());
    }
    Ok(Json(
        json!({ "apiAlias": "dsr.storefront-login.response", "token": token }),
    ))
}

/// Why a login token was not taken.
enum Refused {
    Invalid,
    Expired,
    OtherCustomer,
    Inactive,
}

/// `POST /store-api/dsr/customer/automatic-login`.
pub async fn automatic_login(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let token = match text_field(&body, "token", MAX_TOKEN_LEN) {
        Ok(Some(token)) => token.to_owned(),
        _ => {
            return Err(ApiError::bad_request(
                "DIGITAL_SALES_ROOMS__LOGIN_TOKEN_INVALID",
                "The login token is missing.",
            )
            .at("/token"))
        }
    };
    let token_hash = hash(&token);
    let outcome = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let found: Option<(String, String, i64, Option<String>)> = tx
                .query_row(
                    "SELECT customer_id, sales_channel_id, expires_at, used_at FROM dsr_login_token WHERE token_hash = ?1",
                    [&token_hash],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .optional()?;
            let customer_id = match found {
                Some((customer_id, channel, expires_at, None)) if channel == ctx.sales_channel.id => {
                    if expires_at <= unix_now() {
                        return Ok(Err(Refused::Expired));
                    }
                    customer_id
                }
                _ => return Ok(Err(Refused::Invalid)),
            };
            let session_customer: Option<String> = match &ctx.token {
                Some(token) => {
                    tx.query_row("SELECT customer_id FROM store_context WHERE token = ?1", [token], |r| r.get(0)).optional()?.flatten()
                }
                None => None,
            };
            if session_customer.as_deref().is_some_and(|other| other != customer_id) {
                return Ok(Err(Refused::OtherCustomer));
            }
            let active: bool =
                tx.query_row("SELECT active FROM customer WHERE id = ?1", [&customer_id], |r| r.get(0)).optional()?.unwrap_or(false);
            if !active {
                return Ok(Err(Refused::Inactive));
            }
            // One use: the row is taken here, inside the transaction, before the session.
            if tx.execute(
                "UPDATE dsr_login_token SET used_at = ?2 WHERE token_hash = ?1 AND used_at IS NULL",
                params![token_hash, now_rfc3339()],
            )? != 1
            {
                return Ok(Err(Refused::Invalid));
            }
            let session = customer_session(&tx, &ctx, &customer_id)?;
            tx.commit()?;
            Ok(Ok(session))
        })
        .await?;
    match outcome {
        Ok(session) => Ok(token_response(&session.token)),
        Err(Refused::Invalid) => Err(invalid_token()),
        Err(Refused::Expired) => Err(expired_token()),
        Err(Refused::OtherCustomer) => Err(other_customer()),
        Err(Refused::Inactive) => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "CHECKOUT__CUSTOMER_IS_INACTIVE",
            "The customer account is inactive.",
        )),
    }
}

/// `POST /store-api/dsr/customer/migrate-visitor-session`.
pub async fn migrate_visitor_session(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let visitor = match text_field(&body, "contextToken", MAX_TOKEN_LEN) {
        // Sessions are stored under their token's SHA-256 (store_api::session).
        Ok(Some(token)) => crate::store_api::token_key(token),
        _ => {
            return Err(invalid_visitor_session(
                "contextToken must be the context token of the guest's room session.",
            ))
        }
    };
    let Some(target) = ctx.token.clone() else {
        return Err(invalid_visitor_session(
            "The session to move the visitor's cart into is missing (sw-context-token).",
        ));
    };
    if visitor == target {
        return Err(invalid_visitor_session(
            "contextToken is this session itself.",
        ));
    }
    let channel = ctx.sales_channel.id.clone();
    let (visitor_token, target_token) = (visitor.clone(), target.clone());
    let moved: Result<Value, ApiError> = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let guest_attendee: Option<bool> = tx
                .query_row(
                    "SELECT s.customer_id IS NULL AND NOT EXISTS (SELECT 1 FROM attendee a WHERE a.context_token = s.token
                                                                  AND (a.customer_id IS NOT NULL OR a.type != 'CLIENT'))
                            AND EXISTS (SELECT 1 FROM attendee a WHERE a.context_token = s.token)
                     FROM store_context s WHERE s.token = ?1 AND s.sales_channel_id = ?2",
                    params![visitor, channel],
                    |r| r.get(0),
                )
                .optional()?;
            match guest_attendee {
                None => {
                    return Ok(Err(ApiError::not_found(
                        "DIGITAL_SALES_ROOMS__VISITOR_SESSION_NOT_FOUND",
                        "The visitor's session could not be found.",
                    )))
                }
                Some(false) => {
                    return Ok(Err(ApiError::new(
                        StatusCode::FORBIDDEN,
                        "DIGITAL_SALES_ROOMS__VISITOR_SESSION_NOT_A_GUEST",
                        "Only a guest attendee's session moves; a customer logs in instead.",
                    )))
                }
                Some(true) => {}
            }
            // The session receiving the goods is stored now if it was not yet.
            let target = ctx.ensure_session(&tx)?.key;
            crate::cart::calculate::ensure_cart(&tx, &target)?;
            crate::cart::calculate::merge(&tx, std::slice::from_ref(&visitor), &target)?;
            tx.commit()?;
            Ok(Ok(crate::cart::calculate::calculate(conn, &ctx, &target, Vec::new())?))
        })
        .await?;
    let cart = moved?;
    // The room hears of both carts: the guest's is empty now, the session's holds the goods.
    app.events
        .emit(ShopEvent::emptied_cart(visitor_token))
        .await;
    app.events
        .emit(ShopEvent::cart_changed(&target_token, &cart))
        .await;
    Ok(StatusCode::NO_CONTENT.into_response())
}
