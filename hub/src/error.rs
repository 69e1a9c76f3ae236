//! The hub's HTTP errors, answered in the JSON:API shape storefront-proxy and browsers
//! read: `{"errors":[{"status","code","title","detail"}]}`. Internal failures are logged
//! here, and their text never leaves the hub.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error("no hub token")]
    TokenMissing,
    #[error("refused a hub token: {0}")]
    TokenInvalid(#[source] protocol::TokenError),
    #[error("the internal API was called without the shared secret")]
    Unauthorized,
    #[error("a browser page of another origin opened the socket: {0}")]
    OriginNotAllowed(String),
    /// The request body could not be read; the detail (a decoding error of the client's
    /// own input, or what is wrong with it) is sent back.
    #[error("invalid body: {0}")]
    InvalidBody(String),
    #[error("invalid id: {0}")]
    InvalidId(&'static str),
    /// More HTTP connections than `HUB_MAX_HTTP_CONNECTIONS` (answered by the accept
    /// loop, see `limits`).
    #[error("too many connections")]
    TooManyConnections,
    /// A request the router has no answer for: an unknown path, a method the path does
    /// not take, a path parameter that is not UTF-8, a body over the limit.
    #[error("{detail}")]
    Request {
        status: StatusCode,
        code: &'static str,
        detail: String,
    },
    #[error("could not open the room of {appointment_id}: {source}")]
    RoomUnavailable {
        appointment_id: String,
        source: StoreError,
    },
    #[error("could not store an event of {appointment_id}: {source}")]
    NotSaved {
        appointment_id: String,
        source: StoreError,
    },
    /// The video server (LiveKit or the embedded sfu) refused or could not be reached.
    #[error("the video server: {0}")]
    Video(#[source] crate::video::VideoError),
}

impl HubError {
    /// Status, code and the detail sent to the client.
    fn parts(&self) -> (StatusCode, &'static str, &str) {
        match self {
            HubError::TokenMissing => (
                StatusCode::UNAUTHORIZED,
                "HUB__TOKEN_MISSING",
                "A hub token is required.",
            ),
            HubError::TokenInvalid(_) => (
                StatusCode::UNAUTHORIZED,
                "HUB__TOKEN_INVALID",
                "The hub token is invalid or expired.",
            ),
            HubError::Unauthorized => (
                StatusCode::UNAUTHORIZED,
                "HUB__UNAUTHORIZED",
                "The internal API needs the shared secret.",
            ),
            HubError::OriginNotAllowed(_) => (
                StatusCode::FORBIDDEN,
                "HUB__ORIGIN_NOT_ALLOWED",
                "The live hub accepts sockets from the shop's own pages only.",
            ),
            HubError::InvalidBody(detail) => (StatusCode::BAD_REQUEST, "HUB__INVALID_BODY", detail),
            HubError::InvalidId(detail) => (StatusCode::BAD_REQUEST, "HUB__INVALID_ID", detail),
            HubError::TooManyConnections => (
                StatusCode::SERVICE_UNAVAILABLE,
                "HUB__TOO_MANY_CONNECTIONS",
                "The hub serves too many connections; try again.",
            ),
            HubError::Request {
                status,
                code,
                detail,
            } => (*status, code, detail),
            HubError::RoomUnavailable { .. } => (
                StatusCode::SERVICE_UNAVAILABLE,
                "HUB__STORAGE_UNAVAILABLE",
                "The live state is not available.",
            ),
            HubError::NotSaved { .. } => (
                StatusCode::SERVICE_UNAVAILABLE,
                "HUB__STORAGE_UNAVAILABLE",
                "The event could not be saved.",
            ),
            HubError::Video(_) => (
                StatusCode::BAD_GATEWAY,
                "HUB__VIDEO_UNAVAILABLE",
                "The video server did not take the call.",
            ),
        }
    }
}

impl IntoResponse for HubError {
    fn into_response(self) -> Response {
        match &self {
            HubError::RoomUnavailable { .. } | HubError::NotSaved { .. } | HubError::Video(_) => {
                tracing::error!(error = %self, "internal error")
            }
            HubError::TokenInvalid(_) | HubError::OriginNotAllowed(_) => {
                tracing::info!(error = %self, "refused")
            }
            _ => {}
        }
        let (status, body) = self.body();
        (status, Json(body)).into_response()
    }
}

/// Puts every error answered without the hub's shape into it: what axum answers itself
/// (`404` for an unknown route, `405` for a method a route does not take, `400` for a
/// path parameter that is not UTF-8 or a WebSocket upgrade without its headers, `413`
/// for a body over [`crate::config::MAX_REQUEST_BODY`]) comes as an empty or plain
/// text body. Answers already in JSON are left alone.
pub async fn answer_errors_in_shape(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    // axum's own texts are short (a rejection names the parameter and what is wrong).
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_owned();
    let (code, detail) = match status {
        StatusCode::NOT_FOUND => (
            "HUB__ROUTE_NOT_FOUND",
            "No route found for this path.".to_owned(),
        ),
        StatusCode::METHOD_NOT_ALLOWED => (
            "HUB__METHOD_NOT_ALLOWED",
            "This route does not take this request method.".to_owned(),
        ),
        StatusCode::PAYLOAD_TOO_LARGE => (
            "HUB__BODY_TOO_LARGE",
            format!(
                "The request body is larger than {} bytes.",
                crate::config::MAX_REQUEST_BODY
            ),
        ),
        StatusCode::BAD_REQUEST => (
            "HUB__INVALID_REQUEST",
            if text.is_empty() {
                "The request is invalid.".to_owned()
            } else {
                text
            },
        ),
        _ => (
            "HUB__HTTP_ERROR",
            if text.is_empty() {
                status.canonical_reason().unwrap_or("Error").to_owned()
            } else {
                text
            },
        ),
    };
    let mut shaped = HubError::Request {
        status,
        code,
        detail,
    }
    .into_response();
    // Keep what the original answer told the client besides its body (`allow` on a
    // 405, say).
    for (name, value) in parts.headers.iter() {
        if name != axum::http::header::CONTENT_TYPE && name != axum::http::header::CONTENT_LENGTH {
            shaped
                .headers_mut()
                .entry(name)
                .or_insert_with(|| value.clone());
        }
    }
    shaped
}

impl HubError {
    /// The status and the JSON body answered for this error.
    pub fn body(&self) -> (StatusCode, serde_json::Value) {
        let (status, code, detail) = self.parts();
        let body = serde_json::json!({"errors": [{
            "status": status.as_u16().to_string(), "code": code, "title": status.canonical_reason().unwrap_or(""), "detail": detail,
        }]});
        (status, body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body_of(error: HubError) -> (StatusCode, serde_json::Value) {
        let response = error.into_response();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 16)
            .await
            .unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn errors_keep_the_json_api_shape_and_internal_text_stays_inside() {
        let (status, body) = body_of(HubError::InvalidId(
            "The appointment id must be 32 lowercase hex characters",
        ))
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(
            body,
            serde_json::json!({"errors": [{"status": "400", "code": "HUB__INVALID_ID", "title": "Bad Request",
                "detail": "The appointment id must be 32 lowercase hex characters"}]})
        );
        let secret_text = "disk I/O error at /var/lib/hub.sqlite";
        let error = HubError::NotSaved {
            appointment_id: "0".repeat(32),
            source: StoreError::Corrupt(secret_text.into()),
        };
        let (status, body) = body_of(error).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(body["errors"][0]["code"], "HUB__STORAGE_UNAVAILABLE");
        assert_eq!(body["errors"][0]["detail"], "The event could not be saved.");
        assert!(!body.to_string().contains("disk I/O"));
    }
}
