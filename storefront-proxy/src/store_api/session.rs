//! Store sessions behind `sw-context-token` (issue #29, items 4, 5 and 10).
//!
//! - **Only hashes are stored.** A session's row (`store_context.token`) and everything
//!   keyed by it (carts, attendees) hold the SHA-256 of the token ([`token_key`], "the
//!   key"); the token itself only goes to the client. [`Session`] carries both: the key
//!   for the database, the token for the answer's header and body.
//! - **A lifetime.** A session not written to for the store context lifetime
//!   (`STORE_CONTEXT_LIFETIME`, Shopware's `shopware.api.store.context_lifetime`, default
//!   `P1D`) is expired: [`resolve_session`] drops its token, so the request is anonymous
//!   and a write gets a new token, as Shopware does.
//! - **Only sessions with state are stored.** Reads (`GET /context`, `GET /checkout/cart`,
//!   the catalogue) answer a token but store nothing ([`peek_session`]); the first write
//!   ([`ensure_session`]) stores it. An unknown token of the client's is taken as it is
//!   (Shopware does the same); a login always answers a new one.
//! - **Clean-up.** [`spawn_cleaner`] deletes expired sessions every
//!   `STORE_CONTEXT_CLEANUP_INTERVAL_SECS`, in batches ([`CLEANUP_BATCH`], at most
//!   [`CLEANUP_MAX_BATCHES`] a pass); sessions of attendees stay (the room's records name
//!   them), and a customer's session with a cart stays [`CUSTOMER_CART_RETENTION`] (their
//!   cart comes back at the next login).

use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rusqlite::{params, Connection, OptionalExtension};

use super::CONTEXT_TOKEN_HEADER;
use crate::error::ApiError;
use crate::state::App;
use crate::storage::{new_id, Db};

/// Store context lifetime when `STORE_CONTEXT_LIFETIME` is unset: Shopware's `P1D`.
pub const DEFAULT_LIFETIME: Duration = Duration::from_secs(24 * 3600);
/// How long a customer's expired session with a cart is kept for their next login
/// (Shopware's `shopware.cart.expire_days`, 120).
pub const CUSTOMER_CART_RETENTION: Duration = Duration::from_secs(120 * 24 * 3600);
/// Sessions deleted by one statement of the clean-up.
pub const CLEANUP_BATCH: usize = 1_000;
/// Statements one clean-up pass runs at most (the rest waits for the next pass).
pub const CLEANUP_MAX_BATCHES: usize = 100;
/// Longest token of a client's that is taken as a new session's (Shopware's are 32).
const MAX_ADOPTED_TOKEN: usize = 128;
/// Shortest such token: a guessable token is no session.
const MIN_ADOPTED_TOKEN: usize = 32;

/// A session: `key` names its rows, `token` is what the client holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub key: String,
    pub token: String,
}

/// The key of a token: its SHA-256, lowercase hex. Only keys are stored.
pub fn token_key(token: &str) -> String {
    crate::storage::sha256_hex(token)
}

/// A new random token (64 hex characters).
pub fn new_token() -> String {
    new_id() + &new_id()
}

/// A new session's token and key (not stored).
pub fn new_session() -> Session {
    let token = new_token();
    Session {
        key: token_key(&token),
        token,
    }
}

/// What [`resolve_session`] (or the live room's delegation guard before it) found for
/// the request's `sw-context-token`: the key to read and write with and the token to
/// answer. Both `None`: no token, or an expired one.
#[derive(Debug, Clone, Default)]
pub struct ResolvedSession {
    pub key: Option<String>,
    pub token: Option<String>,
    /// A guide's token for an attendee's cart (`dsr::delegation`), not the owner's.
    pub delegated: bool,
}

impl ResolvedSession {
    /// The session of a raw header value, without looking anything up.
    pub fn of_token(token: Option<String>) -> ResolvedSession {
        ResolvedSession {
            key: token.as_deref().map(token_key),
            token,
            delegated: false,
        }
    }
}

/// The raw `sw-context-token` of a request.
pub fn header_token(headers: &axum::http::HeaderMap) -> Option<String> {
    headers
        .get(CONTEXT_TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
}

/// RFC 3339 time `age` ago, comparable with the stored `updated_at`.
fn before(age: Duration) -> String {
    let at = time::OffsetDateTime::now_utc() - age;
    at.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

/// Layer of `/store-api`: resolves the request's token into [`ResolvedSession`] (its
/// key; nothing when it names an expired session). Leaves one found before (a
/// delegated token) as it is.
pub async fn resolve_session(State(app): State<App>, mut request: Request, next: Next) -> Response {
    if request.extensions().get::<ResolvedSession>().is_none() {
        let resolved = match header_token(request.headers()) {
            None => ResolvedSession::default(),
            Some(token) => {
                let key = token_key(&token);
                let cutoff = before(app.config.store_context_lifetime());
                let lookup = key.clone();
                let expired = app
                    .db
                    .read(move |conn| {
                        Ok(conn
                            .prepare_cached(
                                "SELECT updated_at < ?2 FROM store_context WHERE token = ?1",
                            )?
                            .query_row(params![lookup, cutoff], |r| r.get::<_, bool>(0))
                            .optional()?
                            .unwrap_or(false))
                    })
                    .await;
                match expired {
                    Ok(true) => ResolvedSession::default(),
                    Ok(false) => ResolvedSession {
                        key: Some(key),
                        token: Some(token),
                        delegated: false,
                    },
                    Err(error) => return ApiError::Internal(error).into_response(),
                }
            }
        };
        request.extensions_mut().insert(resolved);
    }
    next.run(request).await
}

/// The session of a request that only reads: the client's (stored or not), else a new
/// token that is **not stored** (nothing to keep yet). A session known by its key only
/// (a guide's call on an attendee's cart through the Admin API) answers no token (`""`).
pub fn peek_session(key: Option<&str>, token: Option<&str>) -> Session {
    match (key, token) {
        (Some(key), token) => Session {
            key: key.to_owned(),
            token: token.unwrap_or_default().to_owned(),
        },
        (None, _) => new_session(),
    }
}

/// Whether a client's token may become a new session's as it is.
fn adoptable(key: &str, token: &str) -> bool {
    (MIN_ADOPTED_TOKEN..=MAX_ADOPTED_TOKEN).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && token_key(token) == key
}

/// The stored session of the request (`key`, `token`: its resolved session) in this
/// sales channel, stored now when it was not: the request is about to give it state.
/// Its `updated_at` moves (the lifetime counts from the last write).
pub fn ensure_session(
    conn: &Connection,
    sales_channel_id: &str,
    key: Option<&str>,
    token: Option<&str>,
) -> rusqlite::Result<Session> {
    let now = crate::storage::now_rfc3339();
    if let Some(key) = key {
        let touched = conn.execute(
            "UPDATE store_context SET updated_at = ?3 WHERE token = ?1 AND sales_channel_id = ?2",
            params![key, sales_channel_id, now],
        )?;
        if touched > 0 {
            return Ok(Session {
                key: key.to_owned(),
                token: token.unwrap_or_default().to_owned(),
            });
        }
    }
    if let (Some(key), Some(token)) = (key, token) {
        let taken: bool = conn.query_row(
            "SELECT EXISTS(SELECT 1 FROM store_context WHERE token = ?1)",
            [key],
            |r| r.get(0),
        )?;
        if !taken && adoptable(key, token) {
            insert(conn, sales_channel_id, key, &now)?;
            return Ok(Session {
                key: key.to_owned(),
                token: token.to_owned(),
            });
        }
    }
    let session = new_session();
    insert(conn, sales_channel_id, &session.key, &now)?;
    Ok(session)
}

fn insert(conn: &Connection, sales_channel_id: &str, key: &str, now: &str) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO store_context (token, sales_channel_id, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)",
        params![key, sales_channel_id, now],
    )?;
    Ok(())
}

/// One clean-up pass: deletes sessions not written to for `lifetime` (their carts go
/// with them), except attendees' and, for [`CUSTOMER_CART_RETENTION`], customers' with
/// a cart. Answers how many went.
pub fn clean_up(conn: &Connection, lifetime: Duration) -> rusqlite::Result<usize> {
    let (expired, retained) = (
        before(lifetime),
        before(CUSTOMER_CART_RETENTION.max(lifetime)),
    );
    let mut statement = conn.prepare_cached(
        "DELETE FROM store_context WHERE token IN (
            SELECT s.token FROM store_context s
            WHERE s.updated_at < ?1
              AND NOT EXISTS (SELECT 1 FROM attendee a WHERE a.context_token = s.token)
              AND (s.customer_id IS NULL OR s.updated_at < ?2 OR NOT EXISTS (SELECT 1 FROM cart c WHERE c.token = s.token))
            LIMIT ?3)",
    )?;
    let mut deleted = 0;
    for _ in 0..CLEANUP_MAX_BATCHES {
        let batch = statement.execute(params![expired, retained, CLEANUP_BATCH as i64])?;
        deleted += batch;
        if batch < CLEANUP_BATCH {
            break;
        }
    }
    Ok(deleted)
}

/// Runs [`clean_up`] every `interval` until the process ends (the first pass after one
/// interval).
pub fn spawn_cleaner(db: Db, lifetime: Duration, interval: Duration) {
    let interval = interval.max(Duration::from_secs(1));
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + interval, interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match db.call(move |conn| Ok(clean_up(conn, lifetime)?)).await {
                Ok(0) => {}
                Ok(deleted) => tracing::info!(deleted, "expired store sessions deleted"),
                Err(error) => tracing::warn!(%error, "store session clean-up failed"),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_sha256_and_adoption_needs_a_long_token() {
        assert_eq!(
            token_key("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let token = "a".repeat(32);
        assert!(adoptable(&token_key(&token), &token));
        assert!(!adoptable(&token_key("short"), "short"));
        assert!(!adoptable("other", &token));
    }
}
