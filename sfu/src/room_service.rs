//! LiveKit's server API as far as the hub uses it: `POST /twirp/livekit.RoomService/<Method>`
//! (`ListParticipants`, `MutePublishedTrack`, `RemoveParticipant` with a room admin token,
//! `DeleteRoom` with a `roomCreate` token, as LiveKit asks), JSON (protojson) or protobuf bodies, Twirp errors.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use livekit_protocol as proto;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::auth::{verify_admin, verify_room_create};
use crate::engine::{AdminAction, AdminReply};
use crate::error::Error;
use crate::state::AppState;

/// Largest request body accepted (the calls served carry a room, an identity and a sid).
pub const MAX_BODY: usize = 64 * 1024;

/// A request body in the encoding the client chose, and the same encoding for the answer.
#[derive(Clone, Copy)]
enum Encoding {
    Json,
    Protobuf,
}

impl Encoding {
    fn of(headers: &HeaderMap) -> Encoding {
        match headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
        {
            Some(t) if t.starts_with("application/protobuf") => Encoding::Protobuf,
            _ => Encoding::Json,
        }
    }

    fn decode<T: DeserializeOwned + prost::Message + Default>(
        self,
        body: &[u8],
    ) -> Result<T, Error> {
        match self {
            Encoding::Json => serde_json::from_slice(body)
                .map_err(|e| Error::BadSignal(format!("request body: {e}"))),
            Encoding::Protobuf => {
                T::decode(body).map_err(|e| Error::BadSignal(format!("request body: {e}")))
            }
        }
    }

    fn encode<T: Serialize + prost::Message>(self, value: &T) -> Response {
        match self {
            Encoding::Json => match serde_json::to_vec(value) {
                Ok(json) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
                Err(e) => twirp_error(&Error::Config(format!("encoding a reply: {e}"))),
            },
            Encoding::Protobuf => (
                [(header::CONTENT_TYPE, "application/protobuf")],
                value.encode_to_vec(),
            )
                .into_response(),
        }
    }
}

/// A Twirp error: `{"code": …, "msg": …}` with the matching HTTP status.
fn twirp_error(error: &Error) -> Response {
    let status = error.status();
    let msg = if status.is_server_error() {
        tracing::error!(%error, "server API call failed");
        "internal error".to_owned()
    } else {
        error.to_string()
    };
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        serde_json::json!({ "code": error.twirp_code(), "msg": msg }).to_string(),
    )
        .into_response()
}

fn bearer(headers: &HeaderMap) -> &str {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .unwrap_or_default()
}

/// `POST /twirp/livekit.RoomService/{method}`.
pub async fn call(
    State(state): State<AppState>,
    Path(method): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let encoding = Encoding::of(&headers);
    match serve(&state, &method, &headers, &body, encoding).await {
        Ok(response) => response,
        Err(error) => twirp_error(&error),
    }
}

async fn serve(
    state: &AppState,
    method: &str,
    headers: &HeaderMap,
    body: &[u8],
    encoding: Encoding,
) -> Result<Response, Error> {
    if body.len() > MAX_BODY {
        return Err(Error::BadSignal("request body too large".into()));
    }
    let admin = |room: &str| verify_admin(&state.credentials, bearer(headers), room);
    match method {
        "ListParticipants" => {
            let request: proto::ListParticipantsRequest = encoding.decode(body)?;
            admin(&request.room)?;
            let participants = match state
                .engine
                .admin(request.room, AdminAction::ListParticipants)
                .await
            {
                Ok(AdminReply::Participants(participants)) => participants,
                // An empty room does not exist here until someone joins it.
                Err(Error::RoomNotFound) | Ok(_) => Vec::new(),
                Err(e) => return Err(e),
            };
            Ok(encoding.encode(&proto::ListParticipantsResponse { participants }))
        }
        "MutePublishedTrack" => {
            let request: proto::MuteRoomTrackRequest = encoding.decode(body)?;
            admin(&request.room)?;
            if !request.muted {
                // As LiveKit without `enable_remote_unmute`: a participant unmutes itself.
                return Err(Error::PermissionDenied);
            }
            let action = AdminAction::MuteTrack {
                identity: request.identity,
                track_sid: request.track_sid,
            };
            let track = match state.engine.admin(request.room, action).await? {
                AdminReply::Track(track) => Some(*track),
                _ => None,
            };
            Ok(encoding.encode(&proto::MuteRoomTrackResponse { track }))
        }
        "RemoveParticipant" => {
            let request: proto::RoomParticipantIdentity = encoding.decode(body)?;
            admin(&request.room)?;
            state
                .engine
                .admin(
                    request.room,
                    AdminAction::RemoveParticipant {
                        identity: request.identity,
                    },
                )
                .await?;
            Ok(encoding.encode(&proto::RemoveParticipantResponse {}))
        }
        "DeleteRoom" => {
            let request: proto::DeleteRoomRequest = encoding.decode(body)?;
            verify_room_create(&state.credentials, bearer(headers))?;
            match state
                .engine
                .admin(request.room, AdminAction::DeleteRoom)
                .await
            {
                // As LiveKit: deleting a room nobody is in (here: that does not exist) is fine.
                Ok(_) | Err(Error::RoomNotFound) => {
                    Ok(encoding.encode(&proto::DeleteRoomResponse {}))
                }
                Err(e) => Err(e),
            }
        }
        _ => Ok((
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "application/json")],
            r#"{"code":"bad_route","msg":"no such method"}"#,
        )
            .into_response()),
    }
}
