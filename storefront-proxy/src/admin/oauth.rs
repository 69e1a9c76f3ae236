//! OAuth password and refresh-token grants over the `admin_user` table, the logout
//! (`/api/oauth/revoke`), and the [`AdminUser`] extractor that every `/api` route takes.
//!
//! Tokens are stored as their SHA-256 only (`security::token_hash`); a new password
//! ends every token of the user (a trigger of migration 0080); password grants are
//! throttled per user name and client address with growing waits (Shopware's `oauth`
//! rate limiter: `FRAMEWORK__AUTH_THROTTLED`).

use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use rusqlite::{params, OptionalExtension};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::{ApiError, ApiResult, Body};
use crate::security::{token_hash, ClientAddr, Throttle};
use crate::state::App;
use crate::storage::new_id;

/// Seconds an access token lives (Shopware's default).
pub const ACCESS_TOKEN_TTL: i64 = 600;
pub const REFRESH_TOKEN_TTL: i64 = 7 * 24 * 3600;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/oauth/token", post(token))
        .route("/oauth/revoke", post(revoke))
}

#[derive(Deserialize)]
struct TokenRequest {
    grant_type: String,
    username: Option<String>,
    password: Option<String>,
    refresh_token: Option<String>,
}

fn now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

fn invalid_grant() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "6",
        "The user credentials were incorrect.",
    )
}

async fn token(
    client: ClientAddr,
    State(app): State<App>,
    Body(request): Body<TokenRequest>,
) -> ApiResult<Json<Value>> {
    let user_id = match request.grant_type.as_str() {
        "password" => {
            let (Some(username), Some(password)) = (request.username, request.password) else {
                return Err(ApiError::bad_request(
                    "2",
                    "The request is missing a required parameter (username, password).",
                ));
            };
            let address = client.key();
            let pair = format!("{username}\n{address}");
            let keys = [
                (Throttle::OAuth, pair.as_str()),
                (Throttle::OAuthAccount, username.as_str()),
                (Throttle::LoginAddress, address.as_str()),
            ];
            app.security.throttle(&keys)?;
            let lookup = username.clone();
            let row: Option<(String, String)> = app
                .db
                .call(move |conn| {
                    Ok(conn
                        .query_row("SELECT id, password_hash FROM admin_user WHERE username = ?1 AND active = 1", [&lookup], |r| {
                            Ok((r.get(0)?, r.get(1)?))
                        })
                        .optional()?)
                })
                .await?;
            // An unknown user is checked against a dummy hash: the answer takes as long.
            // No check made (the hashing queue is full): the attempt does not count.
            let verified = app
                .security
                .passwords
                .verify(row.as_ref().map(|(_, hash)| hash.clone()), password)
                .await
                .inspect_err(|_| app.security.release(&keys))?;
            let Some((user_id, _)) = row.filter(|_| verified) else {
                return Err(invalid_grant());
            };
            app.security.forget(&keys[..2]);
            app.security.release(&keys[2..]);
            user_id
        }
        "refresh_token" => {
            let Some(refresh) = request.refresh_token else {
                return Err(ApiError::bad_request(
                    "2",
                    "The request is missing a required parameter (refresh_token).",
                ));
            };
            let user: Option<String> = app
                .db
                .call(move |conn| {
                    // A refresh token is used once.
                    Ok(conn
                        .query_row(
                            "DELETE FROM admin_token WHERE token_hash = ?1 AND kind = 'refresh' AND expires_at > ?2 RETURNING user_id",
                            params![token_hash(&refresh), now()],
                            |r| r.get(0),
                        )
                        .optional()?)
                })
                .await?;
            user.ok_or_else(|| {
                ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "9",
                    "The refresh token is invalid.",
                )
            })?
        }
        other => {
            return Err(ApiError::bad_request(
                "2",
                format!("The authorization grant type \"{other}\" is not supported."),
            ))
        }
    };
    let access = new_id() + &new_id();
    let refresh = new_id() + &new_id();
    let (a, r, grant) = (token_hash(&access), token_hash(&refresh), new_id());
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            tx.execute("DELETE FROM admin_token WHERE expires_at <= ?1", [now()])?;
            tx.execute(
                "INSERT INTO admin_token (token_hash, kind, user_id, grant_id, expires_at) VALUES (?1, 'access', ?2, ?3, ?4)",
                params![a, user_id, grant, now() + ACCESS_TOKEN_TTL],
            )?;
            tx.execute(
                "INSERT INTO admin_token (token_hash, kind, user_id, grant_id, expires_at) VALUES (?1, 'refresh', ?2, ?3, ?4)",
                params![r, user_id, grant, now() + REFRESH_TOKEN_TTL],
            )?;
            tx.commit()?;
            Ok(())
        })
        .await?;
    Ok(Json(json!({
        "token_type": "Bearer",
        "expires_in": ACCESS_TOKEN_TTL,
        "access_token": access,
        "refresh_token": refresh,
    })))
}

#[derive(Deserialize)]
struct RevokeRequest {
    token: Option<String>,
}

/// `POST /api/oauth/revoke` (`{"token": "..."}`, an access or refresh token, and/or the
/// `Authorization: Bearer` access token): the logout. Each token named ends, with the
/// other token of its grant (the access token with its refresh token). Answers `200`
/// whether or not a token was known, as RFC 7009 has it (Shopware has no such route).
async fn revoke(
    State(app): State<App>,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> ApiResult<Json<Value>> {
    let request: RevokeRequest = if body.iter().all(u8::is_ascii_whitespace) {
        RevokeRequest { token: None }
    } else {
        serde_json::from_slice(&body).map_err(|e| {
            ApiError::bad_request(
                "FRAMEWORK__INVALID_REQUEST_BODY",
                format!("The request body is not valid: {e}"),
            )
        })?
    };
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_owned);
    let hashes: Vec<String> = request
        .token
        .iter()
        .chain(bearer.iter())
        .map(|t| token_hash(t.trim()))
        .collect();
    if hashes.is_empty() {
        return Err(ApiError::bad_request(
            "2",
            "The request is missing a required parameter (token).",
        ));
    }
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            for hash in &hashes {
                tx.execute(
                    "DELETE FROM admin_token WHERE token_hash = ?1
                        OR grant_id = (SELECT grant_id FROM admin_token WHERE token_hash = ?1 AND grant_id IS NOT NULL)",
                    [hash],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
        .await?;
    Ok(Json(json!({ "success": true })))
}

/// The admin user of a request's `Authorization: Bearer` access token (an active
/// user's: deactivating a user ends its tokens).
#[derive(Debug, Clone)]
pub struct AdminUser {
    pub id: String,
    pub display_name: String,
    pub role: Role,
}

/// What an admin user may do: admins manage the shop and its users; guides run
/// appointments and read the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Admin,
    Guide,
}

impl Role {
    pub fn of(name: &str) -> Role {
        if name == "admin" {
            Role::Admin
        } else {
            Role::Guide
        }
    }
}

impl FromRequestParts<App> for AdminUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        let token = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::to_owned)
            .ok_or_else(ApiError::unauthorized)?;
        let user = app
            .db
            .call(move |conn| {
                Ok(conn
                    .query_row(
                        "SELECT u.id, u.first_name || ' ' || u.last_name, u.role FROM admin_token t
                         JOIN admin_user u ON u.id = t.user_id
                         WHERE t.token_hash = ?1 AND t.kind = 'access' AND t.expires_at > ?2 AND u.active = 1",
                        params![token_hash(&token), now()],
                        |r| Ok(AdminUser { id: r.get(0)?, display_name: r.get(1)?, role: Role::of(&r.get::<_, String>(2)?) }),
                    )
                    .optional()?)
            })
            .await?;
        user.ok_or_else(ApiError::unauthorized)
    }
}
