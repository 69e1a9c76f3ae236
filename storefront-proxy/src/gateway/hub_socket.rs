//! Forwards `/ws` to the hub, so that browsers need only the one public origin.
//!
//! The hub is dialled before the browser's upgrade is accepted: a refused token is
//! answered with the hub's own status and body.
//!
//! A browser's messages are limited exactly like the hub limits them
//! ([`MAX_MESSAGE_SIZE`], one constant in `protocol`): a larger message or frame is
//! answered with a close frame 1009 "message too big", never read further and never
//! forwarded. Each message is forwarded as soon as it is complete, so a connection holds
//! at most one message of at most that size per direction. (tungstenite hands over whole
//! messages, not frames; with the limit that bounds what a relayed socket can hold.) The
//! hub's own messages are not limited: a guide's welcome can be megabytes.

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use protocol::frame::{close_code, MAX_MESSAGE_SIZE, SUBPROTOCOL_JSON, SUBPROTOCOL_MSGPACK};
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{self as ts, Error as WsError};

use crate::error::ApiError;
use crate::state::App;

pub async fn forward(State(app): State<App>, RawQuery(query): RawQuery, headers: HeaderMap, upgrade: WebSocketUpgrade) -> Response {
    let mut url = app.config.hub_ws_url();
    if let Some(query) = query {
        url = format!("{url}?{query}");
    }
    let Ok(mut request) = url.into_client_request() else {
        return ApiError::Internal(anyhow::anyhow!("invalid hub URL")).into_response();
    };
    for name in ["sec-websocket-protocol", "authorization"] {
        if let Some(value) = headers.get(name) {
            request.headers_mut().insert(name, value.clone());
        }
    }
    let (hub, response) = match tokio_tungstenite::connect_async_with_config(request, None, true).await {
        Ok(connected) => connected,
        Err(WsError::Http(refused)) => {
            let status = StatusCode::from_u16(refused.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
            let body = refused.into_body().unwrap_or_default();
            return (status, [("content-type", HeaderValue::from_static("application/json"))], body).into_response();
        }
        Err(error) => {
            tracing::warn!(%error, "the hub is unreachable");
            return ApiError::new(StatusCode::BAD_GATEWAY, "SALESROOM__HUB_UNREACHABLE", "The live hub is not reachable.").into_response();
        }
    };
    let protocol = response.headers().get("sec-websocket-protocol").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let upgrade = match protocol.as_deref() {
        Some(SUBPROTOCOL_MSGPACK) => upgrade.protocols([SUBPROTOCOL_MSGPACK]),
        Some(SUBPROTOCOL_JSON) => upgrade.protocols([SUBPROTOCOL_JSON]),
        _ => upgrade,
    };
    upgrade
        .read_buffer_size(4 * 1024)
        .write_buffer_size(4 * 1024)
        .max_message_size(MAX_MESSAGE_SIZE)
        .max_frame_size(MAX_MESSAGE_SIZE)
        .on_upgrade(move |browser| pump(browser, hub))
}

/// How long a browser closed for a too-big message has to answer the close frame
/// before the connection is dropped (the hub waits as long).
const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// True when a browser's read failed because a message or frame was over the limit.
fn is_too_big(error: &axum::Error) -> bool {
    // axum wraps tungstenite's error; its source is that error.
    std::error::Error::source(error)
        .and_then(|source| source.downcast_ref::<WsError>())
        .is_some_and(|error| matches!(error, WsError::Capacity(_)))
}

/// Copies frames both ways until either side closes.
async fn pump(browser: WebSocket, hub: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>) {
    let (mut browser_tx, mut browser_rx) = browser.split();
    let (mut hub_tx, mut hub_rx) = hub.split();
    let upstream = async {
        loop {
            let message = match browser_rx.next().await {
                Some(Ok(message)) => message,
                Some(Err(error)) if is_too_big(&error) => {
                    tracing::info!("closed a relayed socket: message too big");
                    let close = CloseFrame { code: close_code::MESSAGE_TOO_BIG, reason: "message too big".into() };
                    let _ = hub_tx.send(ts::Message::Close(None)).await;
                    return Some(close);
                }
                Some(Err(_)) | None => return None,
            };
            let message = match message {
                Message::Text(text) => ts::Message::text(text.as_str()),
                Message::Binary(bytes) => ts::Message::Binary(bytes),
                Message::Ping(bytes) => ts::Message::Ping(bytes),
                Message::Pong(bytes) => ts::Message::Pong(bytes),
                Message::Close(frame) => {
                    let frame = frame.map(|f| ts::protocol::CloseFrame { code: CloseCode::from(f.code), reason: f.reason.as_str().into() });
                    let _ = hub_tx.send(ts::Message::Close(frame)).await;
                    return None;
                }
            };
            if hub_tx.send(message).await.is_err() {
                return None;
            }
        }
    };
    let downstream = async {
        while let Some(Ok(message)) = hub_rx.next().await {
            let message = match message {
                ts::Message::Text(text) => Message::Text(text.as_str().into()),
                ts::Message::Binary(bytes) => Message::Binary(bytes),
                ts::Message::Ping(bytes) => Message::Ping(bytes),
                ts::Message::Pong(bytes) => Message::Pong(bytes),
                ts::Message::Close(frame) => {
                    let frame = frame.map(|f| CloseFrame { code: f.code.into(), reason: f.reason.as_str().into() });
                    let _ = browser_tx.send(Message::Close(frame)).await;
                    break;
                }
                ts::Message::Frame(_) => continue,
            };
            if browser_tx.send(message).await.is_err() {
                break;
            }
        }
    };
    // When one direction ends, the other is dropped, which closes both sockets.
    let close_browser = tokio::select! { close = upstream => close, _ = downstream => None };
    if let Some(close) = close_browser {
        // Close frame first, then read on (discarding) until the browser answers it or
        // the grace ends, so that the close frame is not lost to a reset connection.
        if browser_tx.send(Message::Close(Some(close))).await.is_ok() {
            let _ = tokio::time::timeout(CLOSE_GRACE, async { while let Some(Ok(_)) = browser_rx.next().await {} }).await;
        }
    }
}
