//! Forwards `/ws` to the hub, so that browsers need only the one public origin.
//!
//! The relay works below WebSocket, the way a reverse proxy does: the browser's upgrade
//! request goes to the hub with the headers the handshake needs (key, version,
//! subprotocol, authorization); the hub's answer comes back as it is (a refused token
//! with the hub's own status and body, an accepted one as `101` with the hub's
//! `Sec-WebSocket-Accept`); then the two connections are joined and bytes are copied
//! both ways as they arrive.
//!
//! So nothing is buffered beyond the copy buffers ([`COPY_BUFFER`] per direction): a
//! browser sending a 60 MB message streams it into the hub, which refuses it at its
//! frame header with a close frame 1009 "message too big" (the hub's limit,
//! `protocol::frame::MAX_MESSAGE_SIZE`) that reaches the browser through the relay;
//! a guide's welcome of megabytes streams the other way. Backpressure is TCP's: a slow
//! browser slows the copy, and the hub sees its own socket fill (and closes a slow
//! consumer with 4008 as it does for direct connections).

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use hyper_util::rt::TokioIo;
use std::time::Duration;

use crate::error::ApiError;
use crate::state::App;

/// Bytes copied at a time, per direction and relayed socket.
pub const COPY_BUFFER: usize = 8 * 1024;

/// How long the hub may take to answer the upgrade.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The request headers the hub's handshake reads; nothing else is passed on.
const FORWARDED: [header::HeaderName; 4] = [
    header::SEC_WEBSOCKET_KEY,
    header::SEC_WEBSOCKET_VERSION,
    header::SEC_WEBSOCKET_PROTOCOL,
    header::AUTHORIZATION,
];

/// The answer headers of the hub's `101` the browser needs.
const ANSWERED: [header::HeaderName; 4] = [
    header::UPGRADE,
    header::CONNECTION,
    header::SEC_WEBSOCKET_ACCEPT,
    header::SEC_WEBSOCKET_PROTOCOL,
];

fn header_has(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|v| v.trim().eq_ignore_ascii_case(token))
}

/// Whether `request` asks for a WebSocket (RFC 6455, 4.1).
fn is_websocket_upgrade(request: &Request) -> bool {
    let headers = request.headers();
    request.method() == Method::GET
        && header_has(headers, header::CONNECTION, "upgrade")
        && header_has(headers, header::UPGRADE, "websocket")
        && headers.contains_key(header::SEC_WEBSOCKET_KEY)
}

fn unreachable() -> Response {
    ApiError::new(
        StatusCode::BAD_GATEWAY,
        "SALESROOM__HUB_UNREACHABLE",
        "The live hub is not reachable.",
    )
    .into_response()
}

/// The hub's `/ws` URL over HTTP(S), with the browser's query as it is (the hub token is
/// not in it: it comes as a subprotocol or `Authorization`, which [`FORWARDED`] passes on).
fn hub_url(app: &App, request: &Request) -> String {
    let base = app.config.hub_http_url();
    match request.uri().query() {
        Some(query) => format!("{base}/ws?{query}"),
        None => format!("{base}/ws"),
    }
}

/// Whether a browser page of `origin` may open the hub's socket: one of the shop's
/// origins (`Config::shop_origins`: `SHOP_ENDPOINT`, `SHOP_DOMAINS`, parsed once at
/// start), never another site (cross-site WebSocket hijacking). Compared as
/// `config::Origin`s: scheme, host and port, normalised.
fn origin_allowed(app: &App, origin: &HeaderValue) -> bool {
    origin
        .to_str()
        .is_ok_and(|origin| app.security.is_shop_origin(origin))
}

pub async fn forward(State(app): State<App>, mut request: Request) -> Response {
    // Browsers always send `Origin` on a WebSocket upgrade; other clients need a token alone.
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        if !origin_allowed(&app, origin) {
            tracing::info!(origin = ?origin, "refused a socket from a foreign origin");
            return ApiError::new(
                StatusCode::FORBIDDEN,
                "SALESROOM__ORIGIN_NOT_ALLOWED",
                "The live hub accepts sockets from the shop's own pages only.",
            )
            .into_response();
        }
    }
    if !is_websocket_upgrade(&request) {
        return ApiError::bad_request(
            "FRAMEWORK__INVALID_REQUEST",
            "This is the live hub's WebSocket: open it with a WebSocket upgrade.",
        )
        .into_response();
    }
    let mut dial = app
        .hub_socket
        .get(hub_url(&app, &request))
        .header(header::CONNECTION, "upgrade")
        .header(header::UPGRADE, "websocket");
    for name in FORWARDED {
        for value in request.headers().get_all(&name) {
            dial = dial.header(&name, value);
        }
    }
    let answer = match tokio::time::timeout(HANDSHAKE_TIMEOUT, dial.send()).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(error)) => {
            tracing::warn!(%error, "the hub is unreachable");
            return unreachable();
        }
        Err(_) => {
            tracing::warn!("the hub did not answer the upgrade in time");
            return unreachable();
        }
    };
    if answer.status() != reqwest::StatusCode::SWITCHING_PROTOCOLS {
        // A refusal (a bad token, a removed attendee, a draining hub): the hub's own answer.
        let status =
            StatusCode::from_u16(answer.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
        let content_type = answer.headers().get(reqwest::header::CONTENT_TYPE).cloned();
        let body = answer.bytes().await.unwrap_or_default();
        let mut refused = (status, body).into_response();
        if let Some(content_type) =
            content_type.and_then(|v| HeaderValue::from_bytes(v.as_bytes()).ok())
        {
            refused
                .headers_mut()
                .insert(header::CONTENT_TYPE, content_type);
        }
        return refused;
    }
    let mut switching = Response::builder().status(StatusCode::SWITCHING_PROTOCOLS);
    for name in ANSWERED {
        if let Some(value) = answer
            .headers()
            .get(name.as_str())
            .and_then(|v| HeaderValue::from_bytes(v.as_bytes()).ok())
        {
            switching = switching.header(name, value);
        }
    }
    let browser = hyper::upgrade::on(&mut request);
    tokio::spawn(async move {
        let (hub, browser) = match tokio::join!(answer.upgrade(), browser) {
            (Ok(hub), Ok(browser)) => (hub, browser),
            (hub, browser) => {
                tracing::debug!(
                    hub = hub.is_ok(),
                    browser = browser.is_ok(),
                    "a relayed socket ended during the upgrade"
                );
                return;
            }
        };
        let mut browser = TokioIo::new(browser);
        let mut hub = hub;
        // Ends when either side closes; dropping both closes the other.
        let _ = tokio::io::copy_bidirectional_with_sizes(
            &mut browser,
            &mut hub,
            COPY_BUFFER,
            COPY_BUFFER,
        )
        .await;
    });
    switching
        .body(Body::empty())
        .unwrap_or_else(|_| unreachable())
}
