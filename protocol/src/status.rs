//! The states of spec section 4.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Who is on the other end of a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Role {
    Guide,
    Client,
}

/// An attendee's status in an appointment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum AttendeeStatus {
    Joined,
    Invited,
    Inactive,
    WaitingList,
    RequestedToJoin,
    NotJoinedYet,
}

/// The state of an attendee's realtime connection, as the guide and the attendee see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ConnectionState {
    Connecting,
    Connected,
    Reconnecting,
    Reconnected,
    Lost,
}

/// Whether the guide may view and edit an attendee's cart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum CartPermission {
    /// Never asked (or asked of an attendee who has not answered yet and reconnected
    /// to a new history).
    #[default]
    Missing,
    /// The guide asked; the attendee has not answered.
    Requested,
    Granted,
    /// The attendee declined the guide's request, or took back a grant.
    Refused,
}

/// An attendee's answer to an invitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum InvitationAnswer {
    Accepted,
    Maybe,
    Declined,
}
