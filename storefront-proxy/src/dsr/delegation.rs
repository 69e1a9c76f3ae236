//! A guide's access to an attendee's cart through the Store API (issue #29, item 5).
//!
//! `GET /api/_action/dsr/appointment/attendee/{id}/sw-context-token` answers, in the
//! reference's shape (`attendee-sw-context-token`), not the attendee's own session token
//! (for a logged-in customer that is their account) but a **delegated token**: random,
//! stored as its SHA-256 in `dsr_context_delegation`, bound to the attendee and their
//! session, scope `cart`. The Store API ([`guard`], a layer before the session is
//! resolved) takes it only
//! - on the cart routes (`/checkout/cart`, `/checkout/cart/line-item[/delete]`), what the
//!   spec lets a guide see of the attendee (their wishlist, read only), and read-only
//!   catalogue routes ([`delegated_route`]); anything else (account, addresses, orders,
//!   context, wishlist changes, checkout, the room's own calls) is refused `403`
//!   `DIGITAL_SALES_ROOMS__DELEGATED_TOKEN_SCOPE`;
//! - while the attendee grants cart access (the hub's live state, read on each call),
//!   has not been removed, the appointment has not ended and the token is younger than
//!   [`DELEGATION_LIFETIME`]; else `403` `DIGITAL_SALES_ROOMS__ATTENDEE_CART_PERMISSION_MISSING`.
//!
//! A request it takes acts on the attendee's session (their cart's key), and its answers
//! name the delegated token, never the attendee's.

use std::time::Duration;

use axum::extract::{Path, Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};

use super::attendee::{self, permission_missing, Attendee};
use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::now_rfc3339;
use crate::store_api::session::{header_token, new_token, token_key};
use crate::store_api::ResolvedSession;

/// How long a delegated token works at most (the guide's app asks again when it needs).
pub const DELEGATION_LIFETIME: Duration = Duration::from_secs(3600);
/// Delegated tokens kept per attendee; minting one more drops the oldest.
pub const MAX_DELEGATIONS_PER_ATTENDEE: usize = 16;
/// How a delegated token begins: only such tokens are looked up (no cost for the
/// others), and one that names no delegation (any more) is refused, never taken as a
/// new session (`store_api::session` takes no token with a `-` of its own).
pub const TOKEN_PREFIX: &str = "dsr-cart-";

/// Whether `token` is (shaped as) a delegated token.
pub fn is_delegated(token: &str) -> bool {
    token.starts_with(TOKEN_PREFIX)
}

/// Whether a delegated token may call `method path` (the path under `/store-api`).
pub fn delegated_route(method: &Method, path: &str) -> bool {
    let path = path.strip_prefix("/store-api").unwrap_or(path);
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let read = method == Method::GET || method == Method::POST;
    match segments.as_slice() {
        // The attendee's cart: read, change, empty.
        ["checkout", "cart"] => method == Method::GET || method == Method::DELETE,
        ["checkout", "cart", "line-item"] => {
            method == Method::POST || method == Method::PATCH || method == Method::DELETE
        }
        ["checkout", "cart", "line-item", "delete"] => method == Method::POST,
        // What the spec lets the guide see: the wishlist (read only).
        ["customer", "wishlist"] | ["dsr", "customer", "wishlist-product-ids"] => read,
        // The catalogue, read only (the products of the cart and the wishlist).
        ["product"]
        | ["product", _]
        | ["product", _, "cross-selling"]
        | ["product-listing", _]
        | ["search"]
        | ["search-suggest"]
        | ["category", _]
        | ["navigation", _, _] => read,
        _ => false,
    }
}

pub fn out_of_scope() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "DIGITAL_SALES_ROOMS__DELEGATED_TOKEN_SCOPE",
        "This token gives access to the attendee's cart only.",
    )
}

/// A stored delegation as the guard checks it.
struct Delegation {
    attendee: Attendee,
    /// The session the token was made for (the attendee may have moved on since).
    context_token: String,
    expired: bool,
    appointment_ended: bool,
}

fn find(conn: &Connection, token_hash: &str) -> rusqlite::Result<Option<Delegation>> {
    let found: Option<(String, String, bool, bool)> = conn
        .prepare_cached(
            "SELECT d.attendee_id, d.context_token, d.expires_at < ?2, p.ended_at IS NOT NULL
             FROM dsr_context_delegation d JOIN attendee a ON a.id = d.attendee_id JOIN appointment p ON p.id = a.appointment_id
             WHERE d.token_hash = ?1",
        )?
        .query_row(params![token_hash, now_rfc3339()], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .optional()?;
    let Some((attendee_id, context_token, expired, appointment_ended)) = found else {
        return Ok(None);
    };
    let Some(attendee) = Attendee::by_id(conn, &attendee_id)? else {
        return Ok(None);
    };
    Ok(Some(Delegation {
        attendee,
        context_token,
        expired,
        appointment_ended,
    }))
}

/// The attendee a delegated token names, if `token` is one (whatever its state).
pub async fn attendee_of(app: &App, token: &str) -> ApiResult<Option<Attendee>> {
    if !is_delegated(token) {
        return Ok(None);
    }
    let hash = token_key(token);
    Ok(app
        .db
        .read(move |conn| Ok(find(conn, &hash)?.map(|d| d.attendee)))
        .await?)
}

/// Refuses unless the delegation still holds: the attendee in the appointment with the
/// session it was made for, the appointment running, the token young enough, the cart
/// permission granted (asked of the hub).
async fn check(app: &App, delegation: &Delegation) -> ApiResult<()> {
    let a = &delegation.attendee;
    if delegation.expired
        || delegation.appointment_ended
        || a.removed
        || a.kind != "CLIENT"
        || a.context_token != delegation.context_token
    {
        return Err(permission_missing());
    }
    attendee::require_cart_permission(app, a).await
}

/// Layer of `/store-api`: a delegated token works on [`delegated_route`]s only, and
/// only while the delegation holds; any other token passes untouched.
pub async fn guard(State(app): State<App>, mut request: Request, next: Next) -> Response {
    let Some(token) = header_token(request.headers()).filter(|token| is_delegated(token)) else {
        return next.run(request).await;
    };
    let hash = token_key(&token);
    let found = match app.db.read(move |conn| Ok(find(conn, &hash)?)).await {
        Ok(found) => found,
        Err(error) => return ApiError::Internal(error).into_response(),
    };
    // Gone (the attendee removed, cleaned up): refused, not taken for a new session.
    let Some(delegation) = found else {
        return permission_missing().into_response();
    };
    if !delegated_route(request.method(), request.uri().path()) {
        return out_of_scope().into_response();
    }
    if let Err(refused) = check(&app, &delegation).await {
        return refused.into_response();
    }
    request.extensions_mut().insert(ResolvedSession {
        key: Some(delegation.context_token),
        token: Some(token),
        delegated: true,
    });
    next.run(request).await
}

/// `GET /api/_action/dsr/appointment/attendee/{id}/sw-context-token`: a token for the
/// guide to view and edit the attendee's cart (and see their wishlist), only while they
/// granted it and the appointment runs: a delegated token, never the attendee's own
/// session, which for a customer is their account (issue #29, item 5).
pub async fn context_token(
    user: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let attendee = attendee::load(&app, id).await?;
    if attendee.kind != "CLIENT" {
        return Err(attendee::not_found());
    }
    attendee::require_cart_permission(&app, &attendee).await?;
    let token = mint(&app, &attendee, &user).await?;
    Ok(Json(json!({ "attendee-sw-context-token": token })))
}

/// A new delegated token for `attendee`'s cart, made by `user` (the caller checked the
/// permission). Answers the token; only its hash is stored.
pub async fn mint(app: &App, attendee: &Attendee, user: &AdminUser) -> ApiResult<String> {
    let token = format!("{TOKEN_PREFIX}{}", new_token());
    let (hash, attendee_id, context_token, user_id) = (
        token_key(&token),
        attendee.id.clone(),
        attendee.context_token.clone(),
        user.id.clone(),
    );
    let expires_at = (time::OffsetDateTime::now_utc() + DELEGATION_LIFETIME)
        .format(&time::format_description::well_known::Rfc3339)
        .map_err(anyhow::Error::from)?;
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "INSERT INTO dsr_context_delegation (token_hash, attendee_id, context_token, scope, admin_user_id, created_at, expires_at)
                 VALUES (?1, ?2, ?3, 'cart', ?4, ?5, ?6)",
                params![hash, attendee_id, context_token, user_id, now_rfc3339(), expires_at],
            )?;
            // Expired ones and the oldest beyond the limit go.
            tx.execute(
                "DELETE FROM dsr_context_delegation WHERE attendee_id = ?1 AND (expires_at < ?2 OR token_hash NOT IN (
                    SELECT token_hash FROM dsr_context_delegation WHERE attendee_id = ?1 ORDER BY created_at DESC, rowid DESC LIMIT ?3))",
                params![attendee_id, now_rfc3339(), MAX_DELEGATIONS_PER_ATTENDEE as i64],
            )?;
            tx.commit()?;
            Ok(())
        })
        .await?;
    Ok(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cart_and_reads_only() {
        let allowed = [
            (Method::GET, "/checkout/cart"),
            (Method::POST, "/checkout/cart/line-item"),
            (Method::PATCH, "/store-api/checkout/cart/line-item"),
            (Method::DELETE, "/checkout/cart/line-item"),
            (Method::POST, "/checkout/cart/line-item/delete"),
            (Method::POST, "/customer/wishlist"),
            (Method::POST, "/product/0190a5e3b6f07a5a8d4d8c0f1c2b3a4d"),
        ];
        for (method, path) in allowed {
            assert!(delegated_route(&method, path), "{method} {path}");
        }
        let refused = [
            (Method::GET, "/account/customer"),
            (Method::POST, "/account/customer"),
            (Method::GET, "/account/list-address"),
            (Method::POST, "/account/address"),
            (Method::POST, "/order"),
            (Method::GET, "/context"),
            (Method::PATCH, "/context"),
            (
                Method::POST,
                "/customer/wishlist/add/0190a5e3b6f07a5a8d4d8c0f1c2b3a4d",
            ),
            (Method::POST, "/customer/wishlist/merge"),
            (Method::POST, "/checkout/order"),
            (Method::POST, "/account/logout"),
            (Method::POST, "/dsr/appointment/abc/join-as-client"),
            (Method::GET, "/checkout/cart/../../account/customer"),
        ];
        for (method, path) in refused {
            assert!(!delegated_route(&method, path), "{method} {path}");
        }
    }
}
