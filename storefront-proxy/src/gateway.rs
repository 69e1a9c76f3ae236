//! What the public origin serves besides the APIs: health, the web app's runtime
//! config, and `/ws` forwarded to the hub.

pub mod hub_client;
pub mod hub_socket;
pub mod upstream;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::app::App;

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
        "livekitUrl": config.livekit_url,
    }))
}
