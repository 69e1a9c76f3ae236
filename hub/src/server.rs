//! The hub's HTTP side: `/ws`, `/healthz`, `/metrics`.

use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use protocol::codec::Codec;
use protocol::frame::{SUBPROTOCOL_JSON, SUBPROTOCOL_MSGPACK};
use protocol::HubClaims;
use serde::Deserialize;
use tokio::net::TcpListener;

use crate::cluster::Cluster;
use crate::config::Config;
use crate::connection::Session;
use crate::live::{Backend, RoomSettings, Rooms};
use crate::metrics::Metrics;
use crate::store::{Store, StoreError};
use crate::video::LiveKit;

/// Bytes of outbound frames gathered before a write. Small, because the buffer keeps
/// its capacity after a burst; large enough for a dozen slide events in one syscall.
const WRITE_BUFFER: usize = 4 * 1024;

/// Shared state of all handlers. Cheap to clone.
#[derive(Clone)]
pub struct Hub {
    pub config: Arc<Config>,
    secret: Arc<Vec<u8>>,
    pub rooms: Rooms,
    pub metrics: Arc<Metrics>,
    pub video: Option<LiveKit>,
    cluster: Option<Arc<Cluster>>,
}

impl Hub {
    /// Opens the room store: Redis when `REDIS_URL` is set (cluster mode), else SQLite
    /// under `DATA_DIR`.
    pub async fn open(config: Config, secret: Vec<u8>) -> Result<Self, StoreError> {
        let (backend, cluster) = match &config.redis_url {
            Some(url) => {
                let (cluster, pushes) = Cluster::connect(url, config.redis_pubsub()).await?;
                (Backend::Cluster(cluster.clone()), Some((cluster, pushes)))
            }
            None => (Backend::Local(Arc::new(Store::open(&config.data_dir.join("hub.sqlite"))?)), None),
        };
        let metrics = Arc::<Metrics>::default();
        let rooms = Rooms::new(backend, RoomSettings { retained_events: config.retained_events, metrics: metrics.clone() });
        let health_of = cluster.as_ref().map(|(cluster, _)| cluster.clone());
        if let Some((cluster, pushes)) = cluster {
            cluster.spawn_tasks(rooms.clone(), pushes);
        }
        let video = config.livekit();
        Ok(Hub { config: Arc::new(config), secret: Arc::new(secret), rooms, metrics, video, cluster: health_of })
    }

    pub(crate) fn secret(&self) -> &[u8] {
        &self.secret
    }

    pub fn router(self) -> Router {
        Router::new()
            .route("/ws", get(ws))
            .route("/healthz", get(healthz))
            .route("/metrics", get(metrics))
            .merge(crate::internal::routes())
            .with_state(self)
    }

    /// Serves until the process ends or `shutdown` resolves.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        use axum::serve::ListenerExt;
        // Frames are small and latency matters: no Nagle delay.
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, self.router()).with_graceful_shutdown(shutdown).await
    }
}

/// 200 when events can flow; in cluster mode 503 while Redis or its subscriptions are
/// down.
async fn healthz(State(hub): State<Hub>) -> Response {
    match &hub.cluster {
        Some(cluster) if !cluster.is_healthy() => (StatusCode::SERVICE_UNAVAILABLE, "redis unavailable").into_response(),
        _ => "ok".into_response(),
    }
}

async fn metrics(State(hub): State<Hub>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        hub.metrics.render(hub.rooms.len(), hub.rooms.connections(), hub.cluster.as_ref().map(|c| c.is_healthy())),
    )
}

#[derive(Deserialize)]
struct WsQuery {
    token: Option<String>,
}

pub(crate) fn refuse(status: StatusCode, code: &str, detail: &str) -> Response {
    let body = serde_json::json!({"errors": [{
        "status": status.as_u16().to_string(), "code": code, "title": status.canonical_reason().unwrap_or(""), "detail": detail,
    }]});
    (status, Json(body)).into_response()
}

/// Upgrades only with a valid hub token, from `?token=` (browsers cannot set headers on
/// a WebSocket) or `Authorization: Bearer`.
async fn ws(State(hub): State<Hub>, Query(query): Query<WsQuery>, headers: HeaderMap, upgrade: WebSocketUpgrade) -> Response {
    let bearer = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer "));
    let Some(token) = query.token.as_deref().or(bearer) else {
        hub.metrics.refused_tokens.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        return refuse(StatusCode::UNAUTHORIZED, "HUB__TOKEN_MISSING", "A hub token is required.");
    };
    let claims = match HubClaims::verify(token, &hub.secret) {
        Ok(claims) => claims,
        Err(error) => {
            hub.metrics.refused_tokens.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tracing::info!(%error, "refused a hub token");
            return refuse(StatusCode::UNAUTHORIZED, "HUB__TOKEN_INVALID", "The hub token is invalid or expired.");
        }
    };
    let room = match hub.rooms.get_or_open(&claims.apt).await {
        Ok(room) => room,
        Err(error) => {
            tracing::error!(%error, appointment_id = %claims.apt, "could not open a room");
            return refuse(StatusCode::SERVICE_UNAVAILABLE, "HUB__STORAGE_UNAVAILABLE", "The live state is not available.");
        }
    };
    let config = hub.config.clone();
    let metrics = hub.metrics.clone();
    let video = hub.video.clone();
    // Small buffers: most frames are a few hundred bytes, and tungstenite's defaults
    // (128 KiB read and write buffers) would cost far more than the state per
    // connection. Buffers grow for a larger frame. Frames queued together are written
    // together (see `Session::write_batch`) up to WRITE_BUFFER bytes per write.
    upgrade
        .protocols([SUBPROTOCOL_JSON, SUBPROTOCOL_MSGPACK])
        .read_buffer_size(1024)
        .write_buffer_size(WRITE_BUFFER)
        // A guide's welcome lists every participant: megabytes in a large room.
        .max_write_buffer_size(64 * 1024 * 1024)
        .max_message_size(64 * 1024)
        .max_frame_size(64 * 1024)
        .on_upgrade(move |socket| {
            // No subprotocol offered: JSON, the default.
            let codec = socket.protocol().and_then(|p| p.to_str().ok()).and_then(Codec::from_subprotocol).unwrap_or(Codec::Json);
            let session = Session { claims, codec, room, heartbeat: config.heartbeat(), send_queue: config.send_queue, metrics, video };
            session.run(socket)
        })
}
