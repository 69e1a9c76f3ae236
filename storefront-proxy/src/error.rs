//! Errors in Shopware's shape: `{"errors":[{"status","code","title","detail","source"}]}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct ErrorSource {
    pub pointer: String,
}

#[derive(Debug, Serialize)]
pub struct ErrorEntry {
    pub status: String,
    pub code: String,
    pub title: String,
    pub detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<ErrorSource>,
    /// The message's parameters (`{"parameters": {"seconds": 10}}`), as Shopware's
    /// `ShopwareHttpException` answers them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<serde_json::Value>,
}

/// An error answered to the client. Internal failures are logged and answered without
/// their text.
#[derive(Debug)]
pub enum ApiError {
    Client {
        status: StatusCode,
        code: &'static str,
        detail: String,
        pointer: Option<String>,
    },
    /// Several validation failures of one request (400), each with its pointer.
    Violations(Vec<Violation>),
    /// Too many attempts (429): try again in `seconds` (`meta.parameters.seconds` and
    /// the `Retry-After` header), as Shopware's rate limiter answers.
    Throttled {
        code: &'static str,
        detail: String,
        seconds: u64,
    },
    Internal(anyhow::Error),
}

/// One failed constraint of a request body (`VIOLATION::…`).
#[derive(Debug, Clone)]
pub struct Violation {
    pub code: &'static str,
    pub detail: String,
    pub pointer: String,
}

impl Violation {
    pub fn new(code: &'static str, pointer: impl Into<String>, detail: impl Into<String>) -> Self {
        Violation {
            code,
            detail: detail.into(),
            pointer: pointer.into(),
        }
    }

    pub fn blank(pointer: impl Into<String>) -> Self {
        Violation::new(
            "VIOLATION::IS_BLANK_ERROR",
            pointer,
            "This value should not be blank.",
        )
    }
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, detail: impl Into<String>) -> Self {
        ApiError::Client {
            status,
            code,
            detail: detail.into(),
            pointer: None,
        }
    }

    pub fn at(mut self, json_pointer: &str) -> Self {
        if let ApiError::Client { pointer, .. } = &mut self {
            *pointer = Some(json_pointer.to_owned());
        }
        self
    }

    pub fn invalid_access_key() -> Self {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "FRAMEWORK__API_INVALID_ACCESS_KEY",
            "Access key is invalid and could not be identified.",
        )
    }

    pub fn unauthorized() -> Self {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "FRAMEWORK__UNAUTHORIZED",
            "The resource owner or authorization server denied the request.",
        )
    }

    pub fn not_found(code: &'static str, detail: impl Into<String>) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, code, detail)
    }

    pub fn bad_request(code: &'static str, detail: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, code, detail)
    }

    /// A request body over [`MAX_REQUEST_BODY`].
    pub fn body_too_large() -> Self {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "FRAMEWORK__REQUEST_BODY_TOO_LARGE",
            format!(
                "The request body is larger than {} bytes.",
                MAX_REQUEST_BODY
            ),
        )
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(error: anyhow::Error) -> Self {
        ApiError::Internal(error)
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(error: rusqlite::Error) -> Self {
        ApiError::Internal(error.into())
    }
}

impl From<axum::extract::rejection::JsonRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::JsonRejection) -> Self {
        match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => ApiError::body_too_large(),
            status => ApiError::new(
                status,
                "FRAMEWORK__INVALID_REQUEST_BODY",
                rejection.body_text(),
            ),
        }
    }
}

impl From<axum::extract::rejection::BytesRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::BytesRejection) -> Self {
        match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => ApiError::body_too_large(),
            status => ApiError::new(
                status,
                "FRAMEWORK__INVALID_REQUEST_BODY",
                rejection.body_text(),
            ),
        }
    }
}

/// The error code of a database read stopped at the request's time budget
/// (`storage::budget`), answered `503`.
pub const QUERY_TOO_EXPENSIVE: &str = "SALESROOM__QUERY_TOO_EXPENSIVE";

/// Whether `error` (or what caused it) is an SQLite statement interrupted: only a read
/// over the request's time budget is (`storage::budget`).
pub fn stopped_at_budget(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<rusqlite::Error>()
            .and_then(rusqlite::Error::sqlite_error_code)
            == Some(rusqlite::ErrorCode::OperationInterrupted)
    })
}

/// Request bodies larger than this are refused with `413`
/// (`FRAMEWORK__REQUEST_BODY_TOO_LARGE`), on every route.
pub const MAX_REQUEST_BODY: usize = 2 * 1024 * 1024;
/// The largest media file uploaded (`POST /api/_action/media/{id}/upload`), embedded or forwarded.
pub const MAX_MEDIA_FILE: usize = 5 * 1024 * 1024;

/// Puts every error answered without Shopware's shape into it: what axum answers
/// itself (`404` for an unknown route, `405` for a method a route does not take, `400`
/// for a path parameter that is not UTF-8, `413` for a body over
/// [`MAX_REQUEST_BODY`], a WebSocket upgrade without its headers) comes as an empty or
/// plain text body. Answers already in JSON are left alone.
pub async fn answer_errors_in_shape(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.starts_with("application/json") || v.starts_with("application/vnd.api+json")
        });
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    // axum's own texts are short (a rejection names the parameter and what is wrong).
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_owned();
    let error = match status {
        StatusCode::NOT_FOUND => ApiError::not_found(
            "FRAMEWORK__ROUTE_NOT_FOUND",
            "No route found for this path.",
        ),
        StatusCode::METHOD_NOT_ALLOWED => ApiError::new(
            status,
            "FRAMEWORK__METHOD_NOT_ALLOWED",
            "This route does not take this request method.",
        ),
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::body_too_large(),
        StatusCode::BAD_REQUEST if text.is_empty() => {
            ApiError::bad_request("FRAMEWORK__INVALID_REQUEST", "The request is invalid.")
        }
        StatusCode::BAD_REQUEST => ApiError::bad_request("FRAMEWORK__INVALID_REQUEST", text),
        _ if text.is_empty() => ApiError::new(
            status,
            "FRAMEWORK__HTTP_ERROR",
            status.canonical_reason().unwrap_or("Error"),
        ),
        _ => ApiError::new(status, "FRAMEWORK__HTTP_ERROR", text),
    };
    let mut shaped = error.into_response();
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
    *shaped.status_mut() = status;
    shaped
}

/// A JSON request body whose rejections are answered in Shopware's error shape.
#[derive(Debug, axum::extract::FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Body<T>(pub T);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let retry_after = match &self {
            ApiError::Throttled { seconds, .. } => Some(*seconds),
            _ => None,
        };
        let (status, body) = self.status_and_body();
        let mut response = (status, Json(body)).into_response();
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

impl ApiError {
    /// The JSON body answered for this error.
    pub fn body(self) -> serde_json::Value {
        self.status_and_body().1
    }

    fn status_and_body(self) -> (StatusCode, serde_json::Value) {
        let (status, entry) = match self {
            ApiError::Violations(violations) => {
                let entries: Vec<ErrorEntry> = violations
                    .into_iter()
                    .map(|v| ErrorEntry {
                        status: "400".into(),
                        code: v.code.to_owned(),
                        title: "Constraint violation error".into(),
                        detail: v.detail,
                        source: Some(ErrorSource { pointer: v.pointer }),
                        meta: None,
                    })
                    .collect();
                return (
                    StatusCode::BAD_REQUEST,
                    serde_json::json!({ "errors": entries }),
                );
            }
            ApiError::Client {
                status,
                code,
                detail,
                pointer,
            } => (
                status,
                ErrorEntry {
                    status: status.as_u16().to_string(),
                    code: code.to_owned(),
                    title: status.canonical_reason().unwrap_or("Error").to_owned(),
                    detail,
                    source: pointer.map(|pointer| ErrorSource { pointer }),
                    meta: None,
                },
            ),
            ApiError::Throttled {
                code,
                detail,
                seconds,
            } => (
                StatusCode::TOO_MANY_REQUESTS,
                ErrorEntry {
                    status: "429".into(),
                    code: code.to_owned(),
                    title: "Too Many Requests".into(),
                    detail,
                    source: None,
                    meta: Some(serde_json::json!({ "parameters": { "seconds": seconds } })),
                },
            ),
            // A read stopped at the request's time budget (`storage::budget`): 503.
            ApiError::Internal(error) if stopped_at_budget(&error) => {
                tracing::warn!(
                    error = format!("{error:#}"),
                    "a database read over its time budget was stopped"
                );
                let status = StatusCode::SERVICE_UNAVAILABLE;
                (
                    status,
                    ErrorEntry {
                        status: "503".into(),
                        code: QUERY_TOO_EXPENSIVE.into(),
                        title: "Service Unavailable".into(),
                        detail:
                            "The query took too long and was stopped; ask for less (fewer filters, no total count, a longer search text)."
                                .into(),
                        source: None,
                        meta: None,
                    },
                )
            }
            ApiError::Internal(error) => {
                tracing::error!(error = format!("{error:#}"), "internal error");
                let status = StatusCode::INTERNAL_SERVER_ERROR;
                (
                    status,
                    ErrorEntry {
                        status: "500".into(),
                        code: "FRAMEWORK__INTERNAL_ERROR".into(),
                        title: "Internal Server Error".into(),
                        detail: "Something didn't work as expected. Please try again.".into(),
                        source: None,
                        meta: None,
                    },
                )
            }
        };
        (status, serde_json::json!({ "errors": [entry] }))
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
