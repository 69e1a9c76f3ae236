//! What the public origin serves besides the APIs: health, the web app's runtime
//! config, `/ws` forwarded to the hub, and in upstream mode the shop APIs forwarded to
//! the real Shopware 6.

pub mod hub_socket;

use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::state::App;

pub fn routes() -> Router<App> {
    Router::new().route("/healthz", get(healthz)).route("/runtime-config.json", get(runtime_config)).route("/ws", get(hub_socket::forward))
}

async fn healthz() -> &'static str {
    "ok"
}

/// The web app's configuration, read at its start (one build serves every deployment).
async fn runtime_config(State(app): State<App>) -> Json<Value> {
    let config = &app.config;
    Json(json!({
        "shopEndpoint": config.shop_endpoint,
        "shopAccessToken": config.shop_access_token,
        "hubUrl": config.public_hub_url(),
        "livekitUrl": config.livekit_url(),
    }))
}

/// Upstream mode: `/store-api` and `/api` go to the real Shopware 6 (see `upstream`).
pub async fn forward_upstream(State(app): State<App>, request: Request) -> Response {
    match &app.upstream {
        Some(upstream) => upstream.forward(request).await,
        None => ApiError::not_found("FRAMEWORK__ROUTE_NOT_FOUND", "No route found for this path.").into_response(),
    }
}
