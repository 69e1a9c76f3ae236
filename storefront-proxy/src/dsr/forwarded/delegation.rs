//! The guide's token for an attendee's cart in upstream mode (issue #29, item 5), as
//! `crate::dsr::delegation` is in embedded mode.
//!
//! `GET /api/_action/dsr/appointment/attendee/{id}/sw-context-token` asks the upstream
//! (with the guide's credentials: it decides whether the guide may) for the attendee's
//! upstream session token, which for a logged-in customer is their account, and answers
//! the guide a **delegated token** of this proxy's instead (`dsr-cart-…`). Stored
//! (`forwarded_delegation`): the delegated token's SHA-256, and the upstream token
//! sealed (ChaCha20-Poly1305) with a key derived from the delegated token, so that only
//! its holder can open it: the database alone holds no upstream session.
//!
//! [`guard`], a layer of upstream mode's router, takes a delegated token on
//! `/store-api` only on [`delegated_route`]s (cart routes, wishlist reads, catalogue
//! reads; anything else `403` `DIGITAL_SALES_ROOMS__DELEGATED_TOKEN_SCOPE`), and only
//! while the delegation holds ([`resolve`]: the attendee not removed and still in the
//! session it was made for, the token younger than [`DELEGATION_LIFETIME`], the cart
//! permission granted and the appointment not ended, both from the hub's live state);
//! then the call goes upstream with the attendee's upstream token, and its answer names
//! the delegated token instead.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use protocol::CartPermission;
use rusqlite::{params, OptionalExtension};
use sha2::{Digest, Sha256};

use crate::dsr::attendee::{permission_missing, Attendee};
use crate::dsr::delegation::{
    delegated_route, is_delegated, out_of_scope, DELEGATION_LIFETIME, MAX_DELEGATIONS_PER_ATTENDEE,
    TOKEN_PREFIX,
};
use crate::error::{ApiError, ApiResult};
use crate::hub_client::hub_unavailable;
use crate::state::App;
use crate::storage::now_rfc3339;
use crate::store_api::session::{header_token, new_token, token_key};
use crate::upstream::MAX_ANSWER;

const CONTEXT_TOKEN_HEADER: &str = "sw-context-token";

/// The key that seals the upstream token of `delegated`: SHA-256 of a label and the
/// delegated token (256 random bits). Each key seals one token once, so the nonce is
/// constant.
fn cipher(delegated: &str) -> ChaCha20Poly1305 {
    let key: Key = Sha256::new()
        .chain_update(b"salesroom forwarded delegation v1\0")
        .chain_update(delegated.as_bytes())
        .finalize();
    ChaCha20Poly1305::new(&key)
}

/// The nonce: all zeros (each key is used once).
fn nonce() -> Nonce {
    Nonce::default()
}

/// `upstream_token` sealed for the holder of `delegated`.
fn seal(delegated: &str, upstream_token: &str) -> anyhow::Result<Vec<u8>> {
    cipher(delegated)
        .encrypt(&nonce(), upstream_token.as_bytes())
        .map_err(|_| anyhow::anyhow!("sealing a delegated token failed"))
}

/// The upstream token sealed for `delegated` (none: sealed for another token).
fn open(delegated: &str, sealed: &[u8]) -> Option<String> {
    let plain = cipher(delegated).decrypt(&nonce(), sealed).ok()?;
    String::from_utf8(plain).ok()
}

/// A new delegated token for `attendee` (a client who joined through this proxy; the
/// caller checked the permission), acting with `upstream_token` upstream.
pub async fn mint(app: &App, attendee: &Attendee, upstream_token: &str) -> ApiResult<String> {
    let token = format!("{TOKEN_PREFIX}{}", new_token());
    let sealed = seal(&token, upstream_token)?;
    let (hash, attendee_id, context_key) = (
        token_key(&token),
        attendee.id.clone(),
        attendee.context_token.clone(),
    );
    let expires_at = (time::OffsetDateTime::now_utc() + DELEGATION_LIFETIME)
        .format(&time::format_description::well_known::Rfc3339)
        .map_err(anyhow::Error::from)?;
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "INSERT INTO forwarded_delegation (token_hash, attendee_id, context_key, sealed_token, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![hash, attendee_id, context_key, sealed, now_rfc3339(), expires_at],
            )?;
            // Expired ones and the oldest beyond the limit go.
            tx.execute(
                "DELETE FROM forwarded_delegation WHERE attendee_id = ?1 AND (expires_at < ?2 OR token_hash NOT IN (
                    SELECT token_hash FROM forwarded_delegation WHERE attendee_id = ?1 ORDER BY created_at DESC, rowid DESC LIMIT ?3))",
                params![attendee_id, now_rfc3339(), MAX_DELEGATIONS_PER_ATTENDEE as i64],
            )?;
            tx.commit()?;
            Ok(())
        })
        .await?;
    Ok(token)
}

/// A delegation that holds: whose cart, and the upstream token to act with.
pub struct Delegated {
    pub attendee: Attendee,
    pub upstream_token: String,
}

/// A stored delegation as [`check`] checks it.
pub struct Found {
    attendee: Attendee,
    /// The attendee's session when it was made (they may have joined again since).
    context_key: String,
    sealed: Vec<u8>,
    expired: bool,
}

/// The stored delegation of `token`, whatever its state (none: unknown, or gone with its
/// attendee).
pub async fn find(app: &App, token: &str) -> ApiResult<Option<Found>> {
    let hash = token_key(token);
    Ok(app
        .db
        .read(move |conn| {
            let row = conn
                .prepare_cached(
                    "SELECT attendee_id, context_key, sealed_token, expires_at < ?2 FROM forwarded_delegation WHERE token_hash = ?1",
                )?
                .query_row(params![hash, now_rfc3339()], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Vec<u8>>(2)?,
                        r.get::<_, bool>(3)?,
                    ))
                })
                .optional()?;
            let Some((attendee_id, context_key, sealed, expired)) = row else {
                return Ok(None);
            };
            Ok(super::attendees::by_id(conn, &attendee_id)?.map(|attendee| Found {
                attendee,
                context_key,
                sealed,
                expired,
            }))
        })
        .await?)
}

/// The delegation of `token` (`found`) if it still holds, else `403`: expired, the
/// attendee removed or in another session since, the cart permission withdrawn or the
/// appointment ended (the hub's live state).
pub async fn check(app: &App, token: &str, found: Found) -> ApiResult<Delegated> {
    let Found {
        attendee,
        context_key,
        sealed,
        expired,
    } = found;
    if expired
        || attendee.removed
        || attendee.kind != "CLIENT"
        || attendee.context_token != context_key
    {
        return Err(permission_missing());
    }
    let upstream_token = open(token, &sealed).ok_or_else(permission_missing)?;
    require_cart_permission(app, &attendee).await?;
    Ok(Delegated {
        attendee,
        upstream_token,
    })
}

/// [`find`] and [`check`]: the delegation of `token` if it holds, else `403`.
pub async fn resolve(app: &App, token: &str) -> ApiResult<Delegated> {
    let found = find(app, token).await?.ok_or_else(permission_missing)?;
    check(app, token, found).await
}

/// Refuses unless the attendee grants the guides cart access and the appointment has not
/// ended (upstream mode keeps no appointments: the hub's live state says both).
pub async fn require_cart_permission(app: &App, attendee: &Attendee) -> ApiResult<()> {
    let state = app
        .hub
        .attendee_state(&attendee.appointment_id, &attendee.id)
        .await
        .map_err(hub_unavailable)?;
    if state.state_for_all.ended
        || attendee.removed
        || state.state_for_clients.cart_permission != CartPermission::Granted
    {
        return Err(permission_missing());
    }
    Ok(())
}

/// Layer of upstream mode: a delegated token on `/store-api` works on
/// [`delegated_route`]s only, while its delegation holds, and goes upstream as the
/// attendee's upstream token; the answer names the delegated token. Any other call
/// passes untouched.
pub async fn guard(State(app): State<App>, mut request: Request, next: Next) -> Response {
    if !request.uri().path().starts_with("/store-api/") {
        return next.run(request).await;
    }
    let Some(token) = header_token(request.headers()).filter(|token| is_delegated(token)) else {
        return next.run(request).await;
    };
    // Gone (the attendee removed, cleaned up): refused, never a session of its own.
    let found = match find(&app, &token).await {
        Ok(Some(found)) => found,
        Ok(None) => return permission_missing().into_response(),
        Err(error) => return error.into_response(),
    };
    if !delegated_route(request.method(), request.uri().path()) {
        return out_of_scope().into_response();
    }
    let delegated = match check(&app, &token, found).await {
        Ok(delegated) => delegated,
        Err(refused) => return refused.into_response(),
    };
    let Ok(upstream_value) = HeaderValue::from_str(&delegated.upstream_token) else {
        return permission_missing().into_response();
    };
    request
        .headers_mut()
        .insert(CONTEXT_TOKEN_HEADER, upstream_value);
    let answer = next.run(request).await;
    renamed(answer, &delegated.upstream_token, &token).await
}

/// `answer` with every mention of the upstream token (the `sw-context-token` header, the
/// cart's `token`) replaced by the delegated one.
async fn renamed(answer: Response, upstream_token: &str, delegated: &str) -> Response {
    let (mut parts, body) = answer.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_ANSWER).await else {
        return ApiError::new(
            axum::http::StatusCode::BAD_GATEWAY,
            "SALESROOM__UPSTREAM_ANSWER_TOO_LARGE",
            "The shop's answer is too large.",
        )
        .into_response();
    };
    if parts.headers.contains_key(CONTEXT_TOKEN_HEADER) {
        if let Ok(value) = HeaderValue::from_str(delegated) {
            parts.headers.insert(CONTEXT_TOKEN_HEADER, value);
        }
    }
    let body = replace_all(&bytes, upstream_token.as_bytes(), delegated.as_bytes());
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(body))
}

/// `haystack` with every `from` replaced by `to`.
fn replace_all(haystack: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    if from.is_empty() {
        return haystack.to_vec();
    }
    let mut out = Vec::with_capacity(haystack.len());
    let mut rest = haystack;
    while let Some(at) = rest.windows(from.len()).position(|w| w == from) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(to);
        rest = &rest[at + from.len()..];
    }
    out.extend_from_slice(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_delegated_token_opens_what_it_sealed() {
        let (token, other) = ("dsr-cart-aaaa", "dsr-cart-bbbb");
        let sealed = seal(token, "upstream-session").unwrap();
        assert!(!sealed
            .windows(b"upstream-session".len())
            .any(|w| w == b"upstream-session"));
        assert_eq!(open(token, &sealed).as_deref(), Some("upstream-session"));
        assert_eq!(open(other, &sealed), None);
    }

    #[test]
    fn answers_name_the_delegated_token() {
        assert_eq!(
            replace_all(br#"{"token":"up","x":"up-up"}"#, b"up", b"dsr"),
            br#"{"token":"dsr","x":"dsr-dsr"}"#.to_vec()
        );
    }
}
