//! The hub's HTTP side, assembled: `/ws`, `/healthz`, `/metrics` and the internal API
//! ([`crate::internal`]) over the shared [`Hub`] state.

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use protocol::codec::Codec;
use protocol::frame::{SUBPROTOCOL_JSON, SUBPROTOCOL_MSGPACK};
use protocol::HubClaims;
use tokio::net::TcpListener;

use crate::app::Hub;
use crate::error::HubError;
use crate::ws::connection::Session;

/// Bytes of outbound frames gathered before a write. Small, because the buffer keeps
/// its capacity after a burst; large enough for a dozen slide events in one syscall.
const WRITE_BUFFER: usize = 4 * 1024;

/// Bytes of a socket's read buffer: what participants send is small (hello, pongs,
/// actions of a few hundred bytes), and every idle connection holds this buffer; it grows
/// for a larger frame (issue #18: memory per idle connection).
const READ_BUFFER: usize = 256;

/// The largest message (and frame) a participant may send; defined in `protocol`, so
/// that storefront-proxy's `/ws` relay applies the same limit.
pub use protocol::frame::MAX_MESSAGE_SIZE;

impl Hub {
    pub fn router(self) -> Router {
        Router::new()
            .route("/ws", get(ws))
            .route("/healthz", get(healthz))
            .route("/metrics", get(metrics))
            .merge(crate::internal::routes(self.clone()))
            .layer(axum::extract::DefaultBodyLimit::max(
                crate::limits::MAX_REQUEST_BODY,
            ))
            .layer(axum::middleware::map_response(
                crate::error::answer_errors_in_shape,
            ))
            .with_state(self)
    }

    /// Serves until the process ends or `shutdown` resolves.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        // Header read timeout, connection cap, no Nagle delay: see `limits`.
        let limits = crate::limits::of(&self.config);
        listener::serve(listener, self.router(), limits, shutdown).await
    }
}

/// 200 when events can flow; in cluster mode 503 while Redis or its subscriptions are
/// down.
async fn healthz(State(hub): State<Hub>) -> Response {
    match hub.cluster() {
        Some(cluster) if !cluster.is_healthy() => {
            (StatusCode::SERVICE_UNAVAILABLE, "redis unavailable").into_response()
        }
        _ => "ok".into_response(),
    }
}

async fn metrics(State(hub): State<Hub>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        hub.metrics.render(
            hub.rooms.len(),
            hub.rooms.connections(),
            hub.cluster().map(|c| c.is_healthy()),
        ),
    )
}

/// A browser's page may open the socket only from an origin of `HUB_ALLOWED_ORIGINS`;
/// a client without `Origin` (not a browser) needs its token alone.
fn check_origin(hub: &Hub, headers: &HeaderMap) -> Result<(), HubError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or_default().trim_end_matches('/');
    let allowed = hub.config.allowed_origins.iter().any(|allowed| {
        allowed
            .trim()
            .trim_end_matches('/')
            .eq_ignore_ascii_case(origin)
    });
    if allowed {
        Ok(())
    } else {
        Err(HubError::OriginNotAllowed(
            origin.chars().take(200).collect(),
        ))
    }
}

/// The hub token of an upgrade: the subprotocol `bearer.<token>` first, else
/// `Authorization: Bearer <token>`.
fn token_of(headers: &HeaderMap) -> Option<&str> {
    let offered = headers
        .get_all(header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(protocol::frame::token_of_subprotocols);
    let bearer = || {
        headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
    };
    offered.or_else(bearer)
}

/// Upgrades only with a valid hub token: offered as the subprotocol `bearer.<token>`
/// (browsers, `protocol::frame::TOKEN_SUBPROTOCOL_PREFIX`) or as `Authorization: Bearer`
/// (tools). Never from the URL's query: URLs get logged (by proxies, load balancers,
/// access logs), and a token there would let whoever reads the log into the room
/// (#29 item 13); a `?token=` alone is answered as no token.
async fn ws(
    State(hub): State<Hub>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, HubError> {
    check_origin(&hub, &headers)?;
    let verified = match token_of(&headers) {
        Some(token) => HubClaims::verify(token, hub.secret()).map_err(HubError::TokenInvalid),
        None => Err(HubError::TokenMissing),
    };
    let claims = verified.inspect_err(|_| {
        hub.metrics
            .refused_tokens
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    })?;
    let room =
        hub.rooms
            .get_or_open(&claims.apt)
            .await
            .map_err(|source| HubError::RoomUnavailable {
                appointment_id: claims.apt.clone(),
                source,
            })?;
    let config = hub.config.clone();
    let metrics = hub.metrics.clone();
    let video = hub.video.clone();
    let writers = hub.writers.clone();
    // Small buffers: most frames are a few hundred bytes, and tungstenite's defaults
    // (128 KiB read and write buffers) would cost far more than the state per
    // connection. Buffers grow for a larger frame. Frames queued together are written
    // together (see `ws::fanout`) up to WRITE_BUFFER bytes per write.
    Ok(upgrade
        .protocols([SUBPROTOCOL_JSON, SUBPROTOCOL_MSGPACK])
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        // A guide's welcome lists every participant: megabytes in a large room.
        .max_write_buffer_size(64 * 1024 * 1024)
        .max_message_size(MAX_MESSAGE_SIZE)
        .max_frame_size(MAX_MESSAGE_SIZE)
        .on_upgrade(move |socket| {
            // No subprotocol offered: JSON, the default.
            let codec = socket
                .protocol()
                .and_then(|p| p.to_str().ok())
                .and_then(Codec::from_subprotocol)
                .unwrap_or(Codec::Json);
            let session = Session {
                claims,
                codec,
                room,
                heartbeat: config.heartbeat(),
                send_queue: config.send_queue,
                writers: Some(writers),
                metrics,
                video,
            };
            session.run(socket)
        }))
}
