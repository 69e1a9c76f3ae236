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
        Violation { code, detail: detail.into(), pointer: pointer.into() }
    }

    pub fn blank(pointer: impl Into<String>) -> Self {
        Violation::new("VIOLATION::IS_BLANK_ERROR", pointer, "This value should not be blank.")
    }
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, detail: impl Into<String>) -> Self {
        ApiError::Client { status, code, detail: detail.into(), pointer: None }
    }

    pub fn at(mut self, json_pointer: &str) -> Self {
        if let ApiError::Client { pointer, .. } = &mut self {
            *pointer = Some(json_pointer.to_owned());
        }
        self
    }

    pub fn invalid_access_key() -> Self {
        ApiError::new(StatusCode::UNAUTHORIZED, "FRAMEWORK__API_INVALID_ACCESS_KEY", "Access key is invalid and could not be identified.")
    }

    pub fn unauthorized() -> Self {
        ApiError::new(StatusCode::UNAUTHORIZED, "FRAMEWORK__UNAUTHORIZED", "The resource owner or authorization server denied the request.")
    }

    pub fn not_found(code: &'static str, detail: impl Into<String>) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, code, detail)
    }

    pub fn bad_request(code: &'static str, detail: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, code, detail)
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
        ApiError::new(rejection.status(), "FRAMEWORK__INVALID_REQUEST_BODY", rejection.body_text())
    }
}

/// A JSON request body whose rejections are answered in Shopware's error shape.
#[derive(Debug, axum::extract::FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Body<T>(pub T);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
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
                    })
                    .collect();
                return (StatusCode::BAD_REQUEST, Json(serde_json::json!({ "errors": entries }))).into_response();
            }
            ApiError::Client { status, code, detail, pointer } => (
                status,
                ErrorEntry {
                    status: status.as_u16().to_string(),
                    code: code.to_owned(),
                    title: status.canonical_reason().unwrap_or("Error").to_owned(),
                    detail,
                    source: pointer.map(|pointer| ErrorSource { pointer }),
                },
            ),
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
                    },
                )
            }
        };
        (status, Json(serde_json::json!({ "errors": [entry] }))).into_response()
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
