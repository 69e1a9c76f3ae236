//! One participant's signalling connection: LiveKit's `/rtc` WebSocket.
//!
//! The join is decided before the upgrade, so a refusal is an HTTP answer livekit-client
//! can read (it fetches `/rtc/validate` for the reason). After the upgrade the first
//! message is the JoinResponse; then binary protobuf `SignalRequest`s come in and
//! `SignalResponse`s go out. Pings are answered here; everything else goes to the engine.

use std::collections::HashMap;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use livekit_protocol as proto;
use prost::Message as _;
use proto::signal_request::Message as Request;
use proto::signal_response::Message as Reply;
use tokio::sync::mpsc;
use tracing::{debug, info, warn};

use crate::auth::{verify_join, JoinGrant};
use crate::engine::{ConnId, EngineHandle, PING_TIMEOUT_SECS, SIGNAL_QUEUE};
use crate::error::Error;
use crate::state::AppState;

/// Largest signalling message accepted. SDP offers are the big ones: a few KiB each, tens
/// of KiB with many transceivers.
pub const MAX_SIGNAL_MESSAGE: usize = 128 * 1024;
/// Frames that could not be decoded before the connection is closed: a client this broken
/// is not going to recover, and every bad frame costs a log line.
const MAX_BAD_FRAMES: u32 = 8;

/// The token from `?access_token=` or an `Authorization: Bearer` header (LiveKit reads both).
fn token<'a>(params: &'a HashMap<String, String>, headers: &'a HeaderMap) -> &'a str {
    if let Some(header) = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
    {
        if let Some(token) = header.strip_prefix("Bearer ") {
            return token;
        }
    }
    params
        .get("access_token")
        .map(String::as_str)
        .unwrap_or_default()
}

fn verify(
    state: &AppState,
    params: &HashMap<String, String>,
    headers: &HeaderMap,
) -> Result<JoinGrant, Error> {
    verify_join(
        &state.credentials,
        token(params, headers),
        params.get("room").map(String::as_str),
    )
}

fn flag(params: &HashMap<String, String>, name: &str, default: bool) -> bool {
    params
        .get(name)
        .map_or(default, |v| v == "1" || v == "true")
}

/// `GET /rtc/validate`: the answer a join with these parameters would get, as text.
pub async fn validate(
    State(state): State<AppState>,
    Query(params): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    match verify(&state, &params, &headers) {
        Ok(_) => "success".into_response(),
        Err(e) => e.into_response(),
    }
}

/// `GET /rtc`: verifies the token, admits the participant and upgrades to the WebSocket.
pub async fn rtc(
    State(state): State<AppState>,
    Query(params): Query<HashMap<String, String>>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, Error> {
    let grant = verify(&state, &params, &headers)?;
    // LiveKit answers plain requests to /rtc with 404.
    let upgrade = upgrade.map_err(|_| Error::NotFound)?;
    if flag(&params, "reconnect", false) {
        // No session resume (the JoinResponse says so, but a client may still try): tell it to
        // join afresh, as LiveKit does for a session it no longer has. A refusal here would
        // read as "not allowed" and make livekit-client give up.
        return Ok(upgrade.max_message_size(MAX_SIGNAL_MESSAGE).on_upgrade(
            |mut socket: WebSocket| async move {
                let leave = proto::LeaveRequest {
                    reason: proto::DisconnectReason::StateMismatch as i32,
                    action: proto::leave_request::Action::Reconnect as i32,
                    ..Default::default()
                };
                let _ = socket.send(encode(Reply::Leave(leave))).await;
                let _ = socket.close().await;
            },
        ));
    }
    let (signal, replies) = mpsc::channel(SIGNAL_QUEUE);
    let joined = state
        .engine
        .join(grant, flag(&params, "auto_subscribe", true), signal)
        .await?;
    let engine = state.engine.clone();
    let conn = joined.conn;
    let first = Reply::Join(joined.response);
    Ok(upgrade
        .max_message_size(MAX_SIGNAL_MESSAGE)
        .max_frame_size(MAX_SIGNAL_MESSAGE)
        .on_failed_upgrade({
            let engine = engine.clone();
            move |e| {
                warn!(conn, error = %e, "websocket upgrade failed");
                tokio::spawn(async move { engine.leave(conn).await });
            }
        })
        .on_upgrade(move |socket: WebSocket| async move {
            let (sink, stream) = socket.split();
            session(conn, first, sink, stream, replies, &engine).await;
            engine.leave(conn).await;
        }))
}

/// Why a session ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    /// The client said leave, or closed the socket.
    ClientLeft,
    /// The engine dropped the participant (replaced, removed, or too slow).
    EngineDropped,
    /// Nothing heard from the client within the ping timeout.
    Silent,
    /// The client kept sending frames that are not signal requests.
    BadFrames,
    /// The socket failed.
    SocketError,
}

/// Runs one signalling connection until it ends. Generic over the socket halves so tests
/// can drive it with channels.
pub async fn session<S, R>(
    conn: ConnId,
    first: Reply,
    mut sink: S,
    mut stream: R,
    mut replies: mpsc::Receiver<Reply>,
    engine: &EngineHandle,
) -> Ended
where
    S: Sink<Message> + Unpin,
    R: Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    if sink.send(encode(first)).await.is_err() {
        return Ended::SocketError;
    }
    let silence = Duration::from_secs(PING_TIMEOUT_SECS as u64);
    let mut bad_frames = 0;
    let ended = loop {
        let incoming = tokio::select! {
            incoming = tokio::time::timeout(silence, stream.next()) => incoming,
            reply = replies.recv() => {
                let Some(reply) = reply else { break Ended::EngineDropped };
                let leaving = matches!(reply, Reply::Leave(_));
                if sink.send(encode(reply)).await.is_err() {
                    break Ended::SocketError;
                }
                if leaving {
                    break Ended::EngineDropped;
                }
                continue;
            }
        };
        let bytes = match incoming {
            Err(_) => break Ended::Silent,
            Ok(None) | Ok(Some(Ok(Message::Close(_)))) => break Ended::ClientLeft,
            Ok(Some(Err(e))) => {
                // Also where a frame over MAX_SIGNAL_MESSAGE ends up.
                debug!(conn, error = %e, "signal socket failed");
                break Ended::SocketError;
            }
            Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => continue,
            Ok(Some(Ok(Message::Binary(bytes)))) => bytes,
            Ok(Some(Ok(Message::Text(_)))) => {
                // livekit-client speaks JSON only when told to; this server speaks protobuf.
                bad_frames += 1;
                if bad_frames >= MAX_BAD_FRAMES {
                    break Ended::BadFrames;
                }
                continue;
            }
        };
        let request = match proto::SignalRequest::decode(bytes.as_ref()) {
            Ok(proto::SignalRequest {
                message: Some(message),
            }) => message,
            Ok(proto::SignalRequest { message: None }) | Err(_) => {
                debug!(conn, len = bytes.len(), "undecodable signal frame");
                bad_frames += 1;
                if bad_frames >= MAX_BAD_FRAMES {
                    break Ended::BadFrames;
                }
                continue;
            }
        };
        let answer = match request {
            Request::Ping(at) => Some(Reply::Pong(now_millis().max(at))),
            Request::PingReq(ping) => Some(Reply::PongResp(proto::Pong {
                last_ping_timestamp: ping.timestamp,
                timestamp: now_millis(),
            })),
            Request::Leave(_) => break Ended::ClientLeft,
            other => {
                if engine.request(conn, other).await.is_err() {
                    break Ended::EngineDropped;
                }
                None
            }
        };
        if let Some(answer) = answer {
            if sink.send(encode(answer)).await.is_err() {
                break Ended::SocketError;
            }
        }
    };
    info!(conn, ?ended, "signal connection ended");
    let _ = sink.close().await;
    ended
}

fn encode(reply: Reply) -> Message {
    Message::Binary(
        proto::SignalResponse {
            message: Some(reply),
        }
        .encode_to_vec()
        .into(),
    )
}

fn now_millis() -> i64 {
    crate::engine::unix_millis()
}
