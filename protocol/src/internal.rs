//! The hub's internal HTTP API for storefront-proxy (`POST /internal/publish`,
//! authenticated with the shared secret).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::frame::Event;
use crate::state::Id;

/// Who may see an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "to", content = "attendeeId", rename_all = "camelCase")]
pub enum Audience {
    Everyone,
    Guides,
    /// One attendee, and the guides.
    Attendee(Id),
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
