//! The internal HTTP API for storefront-proxy, behind one shared-secret layer:
//! `POST /internal/publish` (start, end, instant listings, joins, removals, cart and
//! wishlist changes; before the end, the session's last sample,
//! [`Room::sample_session_at_end`]), `POST /internal/attendee-profile` (an attendee's new
//! name or video user id, merged into the live list), `GET /internal/appointments/{id}/state` and
//! `GET /internal/appointments/{id}/session` (what the session report reads,
//! [`protocol::session::SessionRecord`]), `DELETE /internal/appointments/{id}/video-room`
//! (the guide deleted the appointment's video room: its LiveKit room goes, everyone in
//! it is disconnected).
//! Changes go through the same path as participants' ([`crate::live::submit`]).

use std::sync::Arc;

use axum::extract::{Path, Query, Request as HttpRequest, State};
use axum::http::header;
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use protocol::frame::Event;
use protocol::internal::{
    AttendeeProfileRequest, AttendeeProfileResponse, PublishRequest, PublishResponse,
};
use protocol::state::{is_id, Snapshot};
use protocol::Role;

use crate::app::Hub;
use crate::error::HubError;
use crate::live::{Caller, Request, Room, Submitted};

/// The internal routes; every one needs the shared secret (checked by `require_secret`
/// before anything else, the body included, is looked at).
pub fn routes(hub: Hub) -> Router<Hub> {
    Router::new()
        .route("/internal/publish", post(publish))
        .route("/internal/attendee-profile", post(attendee_profile))
        .route("/internal/appointments/{id}/state", get(state))
        .route("/internal/appointments/{id}/session", get(session))
        .route(
            "/internal/appointments/{id}/video-room",
            delete(delete_video_room),
        )
        .route_layer(middleware::from_fn_with_state(hub, require_secret))
}

/// Compares without stopping at the first difference, so timing tells nothing.
fn same_secret(given: &[u8], secret: &[u8]) -> bool {
    given.len() == secret.len()
        && given
            .iter()
            .zip(secret)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// Lets a request through only with `Authorization: Bearer <shared secret>`.
async fn require_secret(
    State(hub): State<Hub>,
    request: HttpRequest,
    next: Next,
) -> Result<Response, HubError> {
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if !same_secret(given.as_bytes(), hub.secret()) {
        return Err(HubError::Unauthorized);
    }
    Ok(next.run(request).await)
}

async fn open_room(hub: &Hub, appointment_id: &str) -> Result<Arc<Room>, HubError> {
    hub.rooms
        .get_or_open(appointment_id)
        .await
        .map_err(|source| HubError::RoomUnavailable {
            appointment_id: appointment_id.to_owned(),
            source,
        })
}

/// Reads a JSON body; its decoding error is the client's to see.
fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, HubError> {
    serde_json::from_slice(bytes).map_err(|error| HubError::InvalidBody(error.to_string()))
}

/// The shop's change, through the policy: `Some(seq)` when an event was published.
async fn submit(
    hub: &Hub,
    appointment_id: &str,
    request: Request,
) -> Result<Option<u64>, HubError> {
    let room = open_room(hub, appointment_id).await?;
    let submitted = crate::live::submit(&room, hub.video.as_deref(), Caller::Shop, request)
        .await
        .map_err(|source| HubError::NotSaved {
            appointment_id: appointment_id.to_owned(),
            source,
        })?;
    match submitted {
        Submitted::Published { seq, .. } => Ok(Some(seq)),
        Submitted::Sent | Submitted::Nothing | Submitted::Counted => Ok(None),
        Submitted::Refused { message, .. } => Err(HubError::InvalidBody(message)),
    }
}

async fn publish(
    State(hub): State<Hub>,
    bytes: axum::body::Bytes,
) -> Result<Json<PublishResponse>, HubError> {
    let request: PublishRequest = body(&bytes)?;
    if !is_id(&request.appointment_id) {
        return Err(HubError::InvalidBody(
            "appointmentId must be 32 lowercase hex characters".into(),
        ));
    }
    if matches!(request.event, Event::PresentationEnded { .. }) {
        // The session's last sample before its end, so the last seconds' reactions count.
        let room = open_room(&hub, &request.appointment_id).await?;
        let sampled = room
            .sample_session_at_end(
                hub.config
                    .session_sample_ms
                    .max(crate::live::MIN_SESSION_SAMPLE_MS),
                crate::live::policy::now_ms(),
            )
            .await;
        if let Err(error) = sampled {
            tracing::warn!(%error, appointment_id = %room.appointment_id, "could not write the session's last sample");
        }
    }
    let seq = submit(
        &hub,
        &request.appointment_id,
        Request::Publish {
            audience: request.audience,
            event: request.event,
        },
    )
    .await?;
    // The policy publishes every event of the shop.
    let seq = seq.ok_or_else(|| HubError::InvalidBody("the event was not published".into()))?;
    Ok(Json(PublishResponse { seq }))
}

async fn attendee_profile(
    State(hub): State<Hub>,
    bytes: axum::body::Bytes,
) -> Result<Json<AttendeeProfileResponse>, HubError> {
    let request: AttendeeProfileRequest = body(&bytes)?;
    if !is_id(&request.appointment_id) || !is_id(&request.attendee_id) {
        return Err(HubError::InvalidBody(
            "appointmentId and attendeeId must be 32 lowercase hex characters".into(),
        ));
    }
    let change = Request::Profile {
        attendee_id: request.attendee_id,
        attendee_name: request.attendee_name,
        video_user_id: request.video_user_id,
    };
    let seq = submit(&hub, &request.appointment_id, change).await?;
    Ok(Json(AttendeeProfileResponse { seq }))
}

#[derive(serde::Deserialize)]
struct StateQuery {
    /// `CLIENT` leaves out `stateForGuides` (every participant: large in a big room).
    role: Option<Role>,
    /// With `role=CLIENT`: whose own cart permission `stateForClients` carries.
    #[serde(rename = "attendeeId")]
    attendee_id: Option<String>,
}

/// Deletes the appointment's LiveKit room (named by the appointment id, as the video
/// tokens are): 204 when it is gone, also without a video server (nothing to delete).
async fn delete_video_room(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<StatusCode, HubError> {
    if !is_id(&id) {
        return Err(HubError::InvalidId(
            "The appointment id must be 32 lowercase hex characters",
        ));
    }
    if let Some(video) = hub.video.as_ref() {
        video.delete_room(&id).await.map_err(HubError::Video)?;
    }
    Ok(StatusCode::NO_CONTENT)
}

/// What the reducer kept of the session for its report.
async fn session(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<protocol::session::SessionRecord>, HubError> {
    if !is_id(&id) {
        return Err(HubError::InvalidId(
            "The appointment id must be 32 lowercase hex characters",
        ));
    }
    let room = open_room(&hub, &id).await?;
    Ok(Json(room.session_record()))
}

/// The live state as a guide sees it (`stateForAll`, `stateForClients`,
/// `stateForGuides`), or as a client does with `?role=CLIENT`.
async fn state(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    Query(query): Query<StateQuery>,
) -> Result<Json<Snapshot>, HubError> {
    if !is_id(&id) {
        return Err(HubError::InvalidId(
            "The appointment id must be 32 lowercase hex characters",
        ));
    }
    let room = open_room(&hub, &id).await?;
    Ok(Json(room.snapshot(
        query.role.unwrap_or(Role::Guide),
        query.attendee_id.as_deref(),
    )))
}
