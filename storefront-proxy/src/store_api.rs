//! What every `/store-api` request carries: the sales channel (`sw-access-key`), the
//! session (`sw-context-token`) and with them the shop context (`context`), and the
//! shapes every call reads and answers. Below every shop domain.

pub mod budget;
mod context;
pub mod session;

pub use context::{
    language_available, language_not_available, ShopContext, INCLUDE_SEO_URLS_HEADER,
    LANGUAGE_HEADER, LIVE_VERSION_ID,
};
pub use session::{
    ensure_session, peek_session, resolve_session, token_key, ResolvedSession, Session,
};

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rusqlite::OptionalExtension;

use crate::error::ApiError;
use crate::state::App;

pub const ACCESS_KEY_HEADER: &str = "sw-access-key";
pub const CONTEXT_TOKEN_HEADER: &str = "sw-context-token";

/// The sales channel a request's access key belongs to.
#[derive(Debug, Clone)]
pub struct SalesChannel {
    pub id: String,
    pub name: String,
    /// The default language: texts missing in the request's language come from it.
    pub language_id: String,
}

/// Refuses `/store-api` requests without a known `sw-access-key` (Shopware's 401), and
/// hands the sales channel to the handlers.
pub async fn require_access_key(
    State(app): State<App>,
    mut request: Request,
    next: Next,
) -> Response {
    let key = request
        .headers()
        .get(ACCESS_KEY_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let Some(key) = key else {
        return ApiError::invalid_access_key().into_response();
    };
    let found = app
        .db
        .read(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT id, name, language_id FROM sales_channel WHERE access_key = ?1",
                    [&key],
                    |r| {
                        Ok(SalesChannel {
                            id: r.get(0)?,
                            name: r.get(1)?,
                            language_id: r.get(2)?,
                        })
                    },
                )
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
        parts
            .extensions
            .get::<SalesChannel>()
            .cloned()
            .ok_or_else(ApiError::invalid_access_key)
    }
}

/// The session key of the request's `sw-context-token` (the SHA-256 that names its
/// rows, [`session::token_key`]), if one was sent and has not expired.
#[derive(Debug, Clone)]
pub struct ContextToken(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for ContextToken {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ContextToken(resolved(parts).key))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ResolvedSession {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(resolved(parts))
    }
}

/// The request's session as [`session::resolve_session`] found it (outside `/store-api`:
/// the header's token, unchecked).
pub fn resolved(parts: &Parts) -> ResolvedSession {
    match parts.extensions.get::<ResolvedSession>() {
        Some(resolved) => resolved.clone(),
        None => ResolvedSession::of_token(session::header_token(&parts.headers)),
    }
}

/// The parameters of a store API call: the JSON body (optional; empty means `{}`)
/// with the query string's parameters added where the body lacks them, as Shopware
/// reads criteria from both.
#[derive(Debug, Clone)]
pub struct RequestParams(pub serde_json::Map<String, serde_json::Value>);

impl<S: Send + Sync> axum::extract::FromRequest<S> for RequestParams {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let query: Vec<(String, String)> = axum::extract::Query::try_from_uri(request.uri())
            .map(|q| q.0)
            .unwrap_or_default();
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(ApiError::from)?;
        let mut params = if bytes.iter().all(u8::is_ascii_whitespace) {
            serde_json::Map::new()
        } else {
            match serde_json::from_slice::<serde_json::Value>(&bytes) {
                Ok(serde_json::Value::Object(map)) => map,
                Ok(_) => {
                    return Err(ApiError::bad_request(
                        "FRAMEWORK__INVALID_REQUEST_BODY",
                        "The request body must be a JSON object.",
                    ))
                }
                Err(e) => {
                    return Err(ApiError::bad_request(
                        "FRAMEWORK__INVALID_REQUEST_BODY",
                        format!("The request body is not valid JSON: {e}"),
                    ))
                }
            }
        };
        for (key, value) in query {
            params
                .entry(key)
                .or_insert(serde_json::Value::String(value));
        }
        Ok(RequestParams(params))
    }
}

/// An entity search result (`EntitySearchResult`) of already rendered elements.
pub fn search_result(
    entity: &str,
    elements: Vec<serde_json::Value>,
    total: usize,
    page: i64,
    limit: Option<i64>,
) -> serde_json::Value {
    serde_json::json!({
        "entity": entity,
        "total": total,
        "aggregations": [],
        "page": page,
        "limit": limit,
        "elements": elements,
        "apiAlias": "dal_entity_search_result",
    })
}
