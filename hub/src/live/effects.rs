//! What follows a change outside the room's state, all in one place: after an event is
//! published (LiveKit told about removals and mute-all; a removed attendee's connections
//! are closed by the room itself, on every replica, see
//! [`super::policy::ends_connections`]), the video grant that follows broadcast mode and the
//! appointment's settings, and presence (a connection opening or closing).

use std::sync::Arc;

use protocol::frame::{Event, ServerFrame};
use protocol::state::VideoAudioSettings;
use protocol::{HubClaims, Role};

use super::room::Room;
use crate::video::LiveKit;

/// Runs what follows a published event outside the room.
pub fn after_publish(room: &Arc<Room>, video: Option<&LiveKit>, event: &Event) {
    match event {
        Event::AttendeeRemoved { attendee_id } => {
            if let Some(video) = video.cloned() {
                let (room_id, identity) = (room.appointment_id.clone(), attendee_id.clone());
                tokio::spawn(async move {
                    if let Err(error) = video.remove_participant(&room_id, &identity).await {
                        tracing::warn!(%error, appointment_id = %room_id, "LiveKit did not remove a participant");
                    }
                });
            }
        }
        Event::MuteAllChanged { muted: true } => {
            if let Some(video) = video.cloned() {
                let (room_id, guides) = (room.appointment_id.clone(), room.guide_ids());
                tokio::spawn(async move {
                    match video.mute_all(&room_id, &guides).await {
                        Ok(count) => {
                            tracing::info!(appointment_id = %room_id, count, "muted all attendees")
                        }
                        Err(error) => {
                            tracing::warn!(%error, appointment_id = %room_id, "LiveKit did not mute all")
                        }
                    }
                });
            }
        }
        _ => {}
    }
}

/// Whether a participant of `role` needs a new video token once it has been sent `event`:
/// what a client may publish follows broadcast mode and the appointment's settings.
pub fn regrants_video(event: &Event, role: Role) -> bool {
    role == Role::Client
        && matches!(
            event,
            Event::BroadcastModeChanged { .. } | Event::AppointmentConfigured { .. }
        )
}

/// A fresh LiveKit token for a participant, when video is configured. A guide always
/// publishes; a client when the appointment has audio or video and broadcast mode is off.
pub fn video_token(
    video: Option<&LiveKit>,
    room: &Room,
    claims: &HubClaims,
) -> Option<ServerFrame> {
    let video = video?;
    let can_publish = match claims.role {
        Role::Guide => true,
        Role::Client => {
            let all = room.state_for_all();
            all.video_audio_settings != VideoAudioSettings::None && !all.broadcast_mode
        }
    };
    match video.participant_token(
        &room.appointment_id,
        &claims.sub,
        claims.name.as_deref(),
        claims.role,
        can_publish,
    ) {
        Ok(token) => Some(ServerFrame::VideoToken {
            url: video.url.clone(),
            token,
            can_publish,
        }),
        Err(error) => {
            tracing::warn!(%error, "could not mint a video token");
            None
        }
    }
}

/// The video token sent after a participant's welcome, also written into the welcome's
/// snapshot (the reference fields, for clients that read the token from the state).
pub fn video_on_welcome(
    video: Option<&LiveKit>,
    room: &Room,
    claims: &HubClaims,
    welcome: &mut ServerFrame,
) -> Option<ServerFrame> {
    let frame = video_token(video, room, claims);
    if let (
        ServerFrame::Welcome {
            snapshot: Some(snapshot),
            ..
        },
        Some(ServerFrame::VideoToken { token, .. }),
    ) = (welcome, &frame)
    {
        match claims.role {
            Role::Guide => {
                if let Some(guides) = snapshot.state_for_guides.as_mut() {
                    guides.video_guide_token = Some(token.clone());
                }
            }
            Role::Client => snapshot.state_for_clients.video_client_token = Some(token.clone()),
        }
    }
    frame
}

/// Records that a participant's connection opened or closed (the guides are told).
/// A failure is logged: the connection goes on either way.
pub async fn presence(room: &Room, claims: &HubClaims, connected: bool) {
    if let Err(error) = room.set_presence(claims, connected).await {
        tracing::error!(%error, appointment_id = %room.appointment_id, "could not store presence");
    }
}
