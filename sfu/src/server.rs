//! Router assembly and the running server.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tokio::net::TcpListener;

use crate::config::{Config, Credentials};
use crate::engine::{self, EngineHandle};
use crate::error::Error;
use crate::state::AppState;
use crate::{room_service, signal};

/// The signalling routes. The page that runs livekit-client is served from another origin,
/// and it reads `/rtc/validate` with `fetch`: LiveKit allows any origin there, the token is
/// the guard.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/rtc", get(signal::rtc))
        .route("/rtc/validate", get(signal::validate))
        // The single peer connection path of newer servers: absent, so the client falls back.
        .route("/rtc/v1", get(not_found))
        .route("/rtc/v1/validate", get(not_found))
        .route(
            "/twirp/livekit.RoomService/{method}",
            post(room_service::call),
        )
        .layer(axum::extract::DefaultBodyLimit::max(room_service::MAX_BODY))
        .route("/", get(|| async { "OK" }))
        .route("/metrics", get(metrics))
        .layer(axum::middleware::map_response(allow_any_origin))
        .with_state(state)
}

async fn allow_any_origin(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
}

/// Prometheus text: the engine's counters and the forward delay (see [`crate::metrics`]).
async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.engine.metrics.render(),
    )
}

async fn not_found() -> Error {
    Error::NotFound
}

/// A started server: where it listens, for tests and logs.
#[derive(Debug)]
pub struct Running {
    pub http_addr: SocketAddr,
    pub media_addr: SocketAddr,
    pub engine: EngineHandle,
    pub server: tokio::task::JoinHandle<std::io::Result<()>>,
}

/// Binds the signalling listener and the media socket and serves until the task is dropped.
pub async fn start(config: &Config, credentials: Credentials) -> Result<Running, Error> {
    let (engine, _media) = engine::spawn(
        config.udp_addr(),
        config.announced_ip(),
        config.sfu_bwe_kbps,
        config.sfu_parallel_sends,
    )
    .await?;
    let listener = TcpListener::bind(config.http_addr()).await?;
    let http_addr = listener.local_addr()?;
    let state = AppState {
        credentials: Arc::new(credentials),
        engine: engine.clone(),
    };
    let app = router(state);
    tracing::info!(%http_addr, "signalling listening");
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(Running {
        http_addr,
        media_addr: engine.media_addr,
        engine,
        server,
    })
}
