//! What the public origin serves besides the APIs: health, the web app's runtime
//! config, `/ws` forwarded to the hub, and in upstream mode the shop APIs forwarded to
//! the real Shopware 6.

pub mod hub_socket;
pub mod security_headers;

use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::state::App;
use crate::upstream;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/runtime-config.json", get(runtime_config))
        .route("/ws", get(hub_socket::forward))
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

/// Upstream mode: `/store-api` and `/api` go to the real Shopware 6 (see `upstream`);
/// a cart or wishlist change it took is a shop event here, as in embedded mode.
pub async fn forward_upstream(State(app): State<App>, request: Request) -> Response {
    let Some(upstream) = &app.upstream else {
        return ApiError::not_found(
            "FRAMEWORK__ROUTE_NOT_FOUND",
            "No route found for this path.",
        )
        .into_response();
    };
    let (parts, body) = request.into_parts();
    let body = match upstream::read_body(parts.uri.path(), body).await {
        Ok(body) => body,
        Err(error) => return error.into_response(),
    };
    let answer = match upstream
        .send(
            &parts.method,
            upstream::path_and_query(&parts.uri),
            &parts.headers,
            body.clone(),
        )
        .await
    {
        Ok(answer) => answer,
        Err(error) => return error.into_response(),
    };
    for event in upstream::shop_events::of_forwarded_call(
        &parts.method,
        parts.uri.path(),
        &parts.headers,
        &body,
        &answer,
    ) {
        app.events.emit(event).await;
    }
    answer.into_response()
}
