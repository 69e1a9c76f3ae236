//! Upstream mode (`UPSTREAM_URL`): `/store-api` and `/api` go to a real Shopware 6
//! instead of the embedded shop. Method, path, query, headers and body pass through;
//! hop-by-hop headers do not.

pub mod shop_events;

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderName, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The largest request body forwarded: as in embedded mode, 2 MiB
/// ([`crate::error::MAX_REQUEST_BODY`]), and a media file's 5 MB on the upload route
/// ([`MAX_UPLOAD_BODY`]).
const MAX_BODY: usize = crate::error::MAX_REQUEST_BODY;
/// The largest body forwarded to `POST /api/_action/media/{id}/upload`.
pub const MAX_UPLOAD_BODY: usize = crate::error::MAX_MEDIA_FILE;
/// The largest answer read from the upstream shop; a longer one is a `502`.
pub const MAX_ANSWER: usize = 32 * 1024 * 1024;

fn hop_by_hop(name: &HeaderName) -> bool {
    matches!(
        name.as_str(),
        "connection"
            | "keep-alive"
            | "proxy-authenticate"
            | "proxy-authorization"
            | "te"
            | "trailer"
            | "transfer-encoding"
            | "upgrade"
            | "host"
            | "content-length"
    )
}

fn copy_headers(from: &HeaderMap, to: &mut HeaderMap) {
    for (name, value) in from {
        if !hop_by_hop(name) {
            to.append(name.clone(), value.clone());
        }
    }
}

/// A client for the upstream shop. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Upstream {
    base: String,
    http: reqwest::Client,
}

impl Upstream {
    pub fn new(base: &str) -> Upstream {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        Upstream {
            base: base.trim_end_matches('/').to_owned(),
            http,
        }
    }

    /// Sends `request` to the upstream shop and answers what it answered (a Shopware
    /// error when it cannot be reached).
    pub async fn forward(&self, request: Request) -> Response {
        let (parts, body) = request.into_parts();
        let body = match read_body(parts.uri.path(), body).await {
            Ok(bytes) => bytes,
            Err(error) => return error.into_response(),
        };
        match self
            .send(
                &parts.method,
                path_and_query(&parts.uri),
                &parts.headers,
                body,
            )
            .await
        {
            Ok(answer) => answer.into_response(),
            Err(error) => error.into_response(),
        }
    }

    /// Sends one call to the upstream shop (`path_and_query` from `/`, `headers` as the
    /// client sent them: hop-by-hop ones are left out) and reads its whole answer.
    pub async fn send(
        &self,
        method: &Method,
        path_and_query: &str,
        headers: &HeaderMap,
        body: Bytes,
    ) -> Result<Answer, ApiError> {
        let mut forwarded = HeaderMap::new();
        copy_headers(headers, &mut forwarded);
        let sent = self
            .http
            .request(method.clone(), format!("{}{path_and_query}", self.base))
            .headers(forwarded)
            .body(body)
            .send()
            .await;
        let answer = match sent {
            Ok(answer) => answer,
            Err(error) => {
                tracing::warn!(%error, "the upstream shop did not answer");
                let (status, code) = if error.is_timeout() {
                    (StatusCode::GATEWAY_TIMEOUT, "SALESROOM__UPSTREAM_TIMEOUT")
                } else {
                    (StatusCode::BAD_GATEWAY, "SALESROOM__UPSTREAM_UNREACHABLE")
                };
                return Err(ApiError::new(status, code, "The shop is not reachable."));
            }
        };
        let status = answer.status();
        let mut answer_headers = HeaderMap::new();
        copy_headers(answer.headers(), &mut answer_headers);
        let too_long = || {
            tracing::warn!(limit = MAX_ANSWER, "the upstream shop's answer is too long");
            ApiError::new(
                StatusCode::BAD_GATEWAY,
                "SALESROOM__UPSTREAM_ANSWER_TOO_LARGE",
                "The shop's answer is too large.",
            )
        };
        if answer
            .content_length()
            .is_some_and(|length| length > MAX_ANSWER as u64)
        {
            return Err(too_long());
        }
        let mut answer = answer;
        let mut body = Vec::new();
        loop {
            match answer.chunk().await {
                Ok(Some(chunk)) if body.len() + chunk.len() > MAX_ANSWER => return Err(too_long()),
                Ok(Some(chunk)) => body.extend_from_slice(&chunk),
                Ok(None) => {
                    return Ok(Answer {
                        status,
                        headers: answer_headers,
                        body: Bytes::from(body),
                    })
                }
                Err(error) => {
                    tracing::warn!(%error, "the upstream shop's answer broke off");
                    return Err(ApiError::new(
                        StatusCode::BAD_GATEWAY,
                        "SALESROOM__UPSTREAM_UNREACHABLE",
                        "The shop's answer broke off.",
                    ));
                }
            }
        }
    }
}

/// What the upstream shop answered, read whole.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: StatusCode,
    /// Without hop-by-hop headers (and without `content-length`: the body may change).
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Answer {
    /// The body as JSON, if it is JSON.
    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_slice(&self.body).ok()
    }

    /// This answer with `body` instead of the upstream's.
    pub fn with_json(mut self, body: &serde_json::Value) -> Answer {
        self.body = Bytes::from(body.to_string());
        self.headers.insert(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        );
        self
    }
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        let mut response = Response::new(Body::from(self.body));
        *response.status_mut() = self.status;
        *response.headers_mut() = self.headers;
        response
    }
}

/// The path and query of `uri`, `/` when it has none.
pub fn path_and_query(uri: &Uri) -> &str {
    uri.path_and_query().map(|p| p.as_str()).unwrap_or("/")
}

/// The answer to a request body over [`MAX_BODY`].
pub fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "FRAMEWORK__REQUEST_TOO_LARGE",
        "The request body is too large.",
    )
}

/// Reads the body of a request for `path` for the upstream shop: a media upload's up to
/// [`MAX_UPLOAD_BODY`], any other up to [`MAX_BODY`]; a longer one is [`too_large`].
pub async fn read_body(path: &str, body: Body) -> Result<Bytes, ApiError> {
    axum::body::to_bytes(body, body_limit(path))
        .await
        .map_err(|_| too_large())
}

fn body_limit(path: &str) -> usize {
    let upload = path
        .strip_prefix("/api/_action/media/")
        .is_some_and(|rest| rest.ends_with("/upload") && rest.matches('/').count() == 1);
    if upload {
        MAX_UPLOAD_BODY
    } else {
        MAX_BODY
    }
}
