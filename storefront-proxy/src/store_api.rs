//! What every `/store-api` request carries: the sales channel (`sw-access-key`) and the
//! session (`sw-context-token`).

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rusqlite::OptionalExtension;

use crate::app::App;
use crate::error::ApiError;

pub const ACCESS_KEY_HEADER: &str = "sw-access-key";
pub const CONTEXT_TOKEN_HEADER: &str = "sw-context-token";

/// The sales channel a request's access key belongs to.
#[derive(Debug, Clone)]
pub struct SalesChannel {
    pub id: String,
    pub name: String,
}

/// Refuses `/store-api` requests without a known `sw-access-key` (Shopware's 401), and
/// hands the sales channel to the handlers.
pub async fn require_access_key(State(app): State<App>, mut request: Request, next: Next) -> Response {
    let key = request.headers().get(ACCESS_KEY_HEADER).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let Some(key) = key else { return ApiError::invalid_access_key().into_response() };
    let found = app
        .db
        .call(move |conn| {
            Ok(conn
                .query_row("SELECT id, name FROM sales_channel WHERE access_key = ?1", [&key], |r| {
                    Ok(SalesChannel { id: r.get(0)?, name: r.get(1)? })
                })
                .optional()?)
        })
        .await;
    match found {
        Ok(Some(channel)) => {
            request.extensions_mut().insert(channel);
            next.run(request).await
        }
        Ok(None) => ApiError::invalid_access_key().into_response(),
        Err(error) => ApiError::Internal(error).into_response(),
    }
}

impl<S: Send + Sync> FromRequestParts<S> for SalesChannel {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parts.extensions.get::<SalesChannel>().cloned().ok_or_else(ApiError::invalid_access_key)
    }
}

/// The `sw-context-token` header, if sent.
#[derive(Debug, Clone)]
pub struct ContextToken(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for ContextToken {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ContextToken(
            parts
                .headers
                .get(CONTEXT_TOKEN_HEADER)
                .and_then(|v| v.to_str().ok())
                .filter(|v| !v.is_empty())
                .map(str::to_owned),
        ))
    }
}

