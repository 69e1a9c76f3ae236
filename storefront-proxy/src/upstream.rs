//! Upstream mode (`UPSTREAM_URL`): `/store-api` and `/api` go to a real Shopware 6
//! instead of the embedded shop. Method, path, query, headers and body pass through;
//! hop-by-hop headers do not.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderName, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The largest request body forwarded.
const MAX_BODY: usize = 32 * 1024 * 1024;

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
        Upstream { base: base.trim_end_matches('/').to_owned(), http }
    }

    /// Sends `request` to the upstream shop and answers what it answered (a Shopware
    /// error when it cannot be reached).
    pub async fn forward(&self, request: Request) -> Response {
        let upstream = self;
        let (parts, body) = request.into_parts();
        let path_and_query = parts.uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
        let body: Bytes = match axum::body::to_bytes(body, MAX_BODY).await {
            Ok(bytes) => bytes,
            Err(_) => {
                return ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "FRAMEWORK__REQUEST_TOO_LARGE", "The request body is too large.")
                    .into_response()
            }
        };
        let mut headers = HeaderMap::new();
        copy_headers(&parts.headers, &mut headers);
        let sent =
            upstream.http.request(parts.method, format!("{}{path_and_query}", upstream.base)).headers(headers).body(body).send().await;
        let answer = match sent {
            Ok(answer) => answer,
            Err(error) => {
                tracing::warn!(%error, "the upstream shop did not answer");
                let (status, code) = if error.is_timeout() {
                    (StatusCode::GATEWAY_TIMEOUT, "SALESROOM__UPSTREAM_TIMEOUT")
                } else {
                    (StatusCode::BAD_GATEWAY, "SALESROOM__UPSTREAM_UNREACHABLE")
                };
                return ApiError::new(status, code, "The shop is not reachable.").into_response();
            }
        };
        let status = answer.status();
        let mut response_headers = HeaderMap::new();
        copy_headers(answer.headers(), &mut response_headers);
        match answer.bytes().await {
            Ok(bytes) => {
                let mut response = Response::new(Body::from(bytes));
                *response.status_mut() = status;
                *response.headers_mut() = response_headers;
                response
            }
            Err(error) => {
                tracing::warn!(%error, "the upstream shop's answer broke off");
                ApiError::new(StatusCode::BAD_GATEWAY, "SALESROOM__UPSTREAM_UNREACHABLE", "The shop's answer broke off.").into_response()
            }
        }
    }
}
