//! The hub's internal HTTP API for storefront-proxy (`POST /internal/publish`,
//! authenticated with the shared secret).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::frame::Event;
use crate::state::Id;
use crate::status::Role;

/// Who may see an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "to", content = "attendeeId", rename_all = "camelCase")]
pub enum Audience {
    Everyone,
    Guides,
    /// One attendee, and the guides.
    Attendee(Id),
}

impl Audience {
    /// Whether a participant of `role` with `attendee_id` sees an event for this audience.
    pub fn includes(&self, role: Role, attendee_id: &str) -> bool {
        match self {
            Audience::Everyone => true,
            Audience::Guides => role == Role::Guide,
            Audience::Attendee(id) => role == Role::Guide || id == attendee_id,
        }
    }
}

/// Publishes a state event to an appointment's participants.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PublishRequest {
    pub appointment_id: Id,
    pub audience: Audience,
    pub event: Event,
}

/// The sequence number the event got.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublishResponse {
    pub seq: u64,
}

/// Changes an attendee's name or video user id in the live participant list
/// (`POST /internal/attendee-profile`). The hub merges it into the entry it holds and
/// publishes the result to the guides, so a presence or cart-permission change that
/// happened meanwhile is kept (publishing a whole `attendeeChanged` read earlier would
/// undo it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttendeeProfileRequest {
    pub appointment_id: Id,
    pub attendee_id: Id,
    /// Absent: unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attendee_name: Option<String>,
    /// Absent: unchanged; `null`: cleared.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub video_user_id: Option<Option<String>>,
}

/// Tells a field that is present (even as `null`) from one that is absent.
fn present<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

/// The sequence number of the published change; `null` when nothing was published
/// (the attendee has not connected yet, so is not in the live list, or nothing changed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttendeeProfileResponse {
    pub seq: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::AttendeeProfileRequest;

    #[test]
    fn an_absent_video_user_id_differs_from_a_null_one() {
        let id = "0".repeat(32);
        let absent: AttendeeProfileRequest =
            serde_json::from_value(serde_json::json!({"appointmentId": id, "attendeeId": id}))
                .unwrap();
        assert_eq!(absent.video_user_id, None);
        let null: AttendeeProfileRequest = serde_json::from_value(
            serde_json::json!({"appointmentId": id, "attendeeId": id, "videoUserId": null}),
        )
        .unwrap();
        assert_eq!(null.video_user_id, Some(None));
        let set: AttendeeProfileRequest = serde_json::from_value(
            serde_json::json!({"appointmentId": id, "attendeeId": id, "videoUserId": "v"}),
        )
        .unwrap();
        assert_eq!(set.video_user_id, Some(Some("v".into())));
        // What the client sends for "clear" survives the round trip.
        let round: AttendeeProfileRequest =
            serde_json::from_value(serde_json::to_value(&null).unwrap()).unwrap();
        assert_eq!(round.video_user_id, Some(None));
    }
}
