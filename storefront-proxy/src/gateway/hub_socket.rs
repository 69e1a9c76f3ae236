//! Forwards `/ws` to the hub, so that browsers need only the one public origin.
//!
//! The hub is dialled before the browser's upgrade is accepted: a refused token is
//! answered with the hub's own status and body.

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use protocol::frame::{SUBPROTOCOL_JSON, SUBPROTOCOL_MSGPACK};
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
    upgrade.read_buffer_size(4 * 1024).write_buffer_size(4 * 1024).on_upgrade(move |browser| pump(browser, hub))
}

/// Copies frames both ways until either side closes.
async fn pump(browser: WebSocket, hub: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>) {
    let (mut browser_tx, mut browser_rx) = browser.split();
    let (mut hub_tx, mut hub_rx) = hub.split();
    let upstream = async {
        while let Some(Ok(message)) = browser_rx.next().await {
            let message = match message {
                Message::Text(text) => ts::Message::text(text.as_str()),
                Message::Binary(bytes) => ts::Message::Binary(bytes),
                Message::Ping(bytes) => ts::Message::Ping(bytes),
                Message::Pong(bytes) => ts::Message::Pong(bytes),
                Message::Close(frame) => {
                    let frame = frame.map(|f| ts::protocol::CloseFrame { code: CloseCode::from(f.code), reason: f.reason.as_str().into() });
                    let _ = hub_tx.send(ts::Message::Close(frame)).await;
                    break;
                }
            };
            if hub_tx.send(message).await.is_err() {
                break;
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
    tokio::select! { _ = upstream => {}, _ = downstream => {} }
}
