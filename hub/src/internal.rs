//! The internal HTTP API for storefront-proxy, authenticated with the shared secret:
//! `POST /internal/publish` (start, end, instant listings, joins, removals, cart and
//! wishlist changes), `POST /internal/attendee-profile` (an attendee's new name or video
//! user id, merged into the live list) and `GET /internal/appointments/{id}/state`.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use protocol::internal::{AttendeeProfileRequest, AttendeeProfileResponse, PublishRequest, PublishResponse};
use protocol::state::is_id;
use protocol::Role;

use crate::live::room::Room;
use crate::server::{refuse, Hub};

pub fn routes() -> Router<Hub> {
    Router::new()
        .route("/internal/publish", post(publish))
        .route("/internal/attendee-profile", post(attendee_profile))
        .route("/internal/appointments/{id}/state", get(state))
}

/// Compares without stopping at the first difference, so timing tells nothing.
fn same_secret(given: &[u8], secret: &[u8]) -> bool {
    given.len() == secret.len() && given.iter().zip(secret).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

fn authorized(hub: &Hub, headers: &HeaderMap) -> Result<(), Box<Response>> {
    let given = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer ")).unwrap_or("");
    if same_secret(given.as_bytes(), hub.secret()) {
        Ok(())
    } else {
        Err(Box::new(refuse(StatusCode::UNAUTHORIZED, "HUB__UNAUTHORIZED", "The internal API needs the shared secret.")))
    }
}

async fn open_room(hub: &Hub, appointment_id: &str) -> Result<Arc<Room>, Box<Response>> {
    hub.rooms.get_or_open(appointment_id).await.map_err(|error| {
        tracing::error!(%error, "could not open a room");
        Box::new(refuse(StatusCode::SERVICE_UNAVAILABLE, "HUB__STORAGE_UNAVAILABLE", "The live state is not available."))
    })
}

async fn publish(State(hub): State<Hub>, headers: HeaderMap, body: axum::body::Bytes) -> Response {
    if let Err(refused) = authorized(&hub, &headers) {
        return *refused;
    }
    let request: PublishRequest = match serde_json::from_slice(&body) {
        Ok(request) => request,
        Err(error) => return refuse(StatusCode::BAD_REQUEST, "HUB__INVALID_BODY", &error.to_string()),
    };
    if !is_id(&request.appointment_id) {
        return refuse(StatusCode::BAD_REQUEST, "HUB__INVALID_BODY", "appointmentId must be 32 lowercase hex characters");
    }
    let room = match open_room(&hub, &request.appointment_id).await {
        Ok(room) => room,
        Err(refused) => return *refused,
    };
    match room.publish(request.audience, request.event.clone()).await {
        Ok(seq) => {
            crate::live::after_publish(&room, hub.video.as_ref(), &request.event);
            Json(PublishResponse { seq }).into_response()
        }
        Err(error) => {
            tracing::error!(%error, "could not store an event");
            refuse(StatusCode::SERVICE_UNAVAILABLE, "HUB__STORAGE_UNAVAILABLE", "The event could not be saved.")
        }
    }
}

async fn attendee_profile(State(hub): State<Hub>, headers: HeaderMap, body: axum::body::Bytes) -> Response {
    if let Err(refused) = authorized(&hub, &headers) {
        return *refused;
    }
    let request: AttendeeProfileRequest = match serde_json::from_slice(&body) {
        Ok(request) => request,
        Err(error) => return refuse(StatusCode::BAD_REQUEST, "HUB__INVALID_BODY", &error.to_string()),
    };
    if !is_id(&request.appointment_id) || !is_id(&request.attendee_id) {
        return refuse(StatusCode::BAD_REQUEST, "HUB__INVALID_BODY", "appointmentId and attendeeId must be 32 lowercase hex characters");
    }
    let room = match open_room(&hub, &request.appointment_id).await {
        Ok(room) => room,
        Err(refused) => return *refused,
    };
    match room.update_profile(&request.attendee_id, request.attendee_name, request.video_user_id).await {
        Ok(seq) => Json(AttendeeProfileResponse { seq }).into_response(),
        Err(error) => {
            tracing::error!(%error, "could not store an event");
            refuse(StatusCode::SERVICE_UNAVAILABLE, "HUB__STORAGE_UNAVAILABLE", "The event could not be saved.")
        }
    }
}

#[derive(serde::Deserialize)]
struct StateQuery {
    /// `CLIENT` leaves out `stateForGuides` (every participant: large in a big room).
    role: Option<Role>,
    /// With `role=CLIENT`: whose own cart permission `stateForClients` carries.
    #[serde(rename = "attendeeId")]
    attendee_id: Option<String>,
}

/// The live state as a guide sees it (`stateForAll`, `stateForClients`,
/// `stateForGuides`), or as a client does with `?role=CLIENT`.
async fn state(State(hub): State<Hub>, headers: HeaderMap, Path(id): Path<String>, Query(query): Query<StateQuery>) -> Response {
    if let Err(refused) = authorized(&hub, &headers) {
        return *refused;
    }
    if !is_id(&id) {
        return refuse(StatusCode::BAD_REQUEST, "HUB__INVALID_ID", "The appointment id must be 32 lowercase hex characters");
    }
    match open_room(&hub, &id).await {
        Ok(room) => Json(room.snapshot(query.role.unwrap_or(Role::Guide), query.attendee_id.as_deref())).into_response(),
        Err(refused) => *refused,
    }
}
