//! Live presentation state. Field names follow `stateForAll`, `stateForClients` and
//! `stateForGuides` of the DSR reference schema, so existing DSR frontends read them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::engagement::polls::Poll;
use crate::engagement::questions::Question;
use crate::engagement::{ChatModeration, ChatState};
use crate::status::{AttendeeStatus, CartPermission, ConnectionState, Role};

/// A 32 lowercase hex character id, as in Shopware.
pub type Id = String;

/// Whether `s` is an [`Id`]: 32 lowercase hex characters.
pub fn is_id(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// `guided` (a guide leads) or `self` (attendees browse on their own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum AppointmentMode {
    #[default]
    Guided,
    #[serde(rename = "self")]
    SelfGuided,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum VideoAudioSettings {
    Both,
    #[default]
    None,
    AudioOnly,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum AttendeeRestrictionType {
    Open,
    Customer,
    Rules,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ViewMode {
    OnlyYou,
    #[default]
    Presentation,
    VideoGrid,
}

/// `DynamicPageOpenedPayload` (and the product variant of it) of the reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DynamicPage {
    pub page_id: Id,
    #[serde(rename = "type")]
    pub page_type: String,
    #[serde(default = "yes")]
    pub opened: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub position: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub product_id: Option<Id>,
}

fn yes() -> bool {
    true
}

/// Longest [`DynamicPage::page_type`]. The reference leaves the type an open string
/// (the web sends `productDetail`), so it is held to a short identifier rather than an
/// enum: anything longer is not a page type but a payload smuggled into every snapshot.
pub const MAX_PAGE_TYPE_LENGTH: usize = 64;

/// Highest [`DynamicPage::position`]: a place in a list of dynamic pages, far beyond any
/// real presentation's.
pub const MAX_PAGE_POSITION: i64 = 10_000;

/// A field that failed validation, as the message of an `INVALID_PAYLOAD` error
/// (`pageId must be 32 lowercase hex characters`).
pub type Invalid = String;

/// Checks an [`Id`] field; `field` is its wire name.
pub fn check_id(field: &str, value: &str) -> Result<(), Invalid> {
    if is_id(value) {
        Ok(())
    } else {
        Err(format!("{field} must be 32 lowercase hex characters"))
    }
}

/// Checks an optional [`Id`] field: absent is fine.
pub fn check_optional_id(field: &str, value: Option<&str>) -> Result<(), Invalid> {
    value.map_or(Ok(()), |value| check_id(field, value))
}

impl DynamicPage {
    /// Ids are ids, the type a short identifier (letters, digits, `-`, `_`, `.`, at most
    /// [`MAX_PAGE_TYPE_LENGTH`]), the position within `0..=`[`MAX_PAGE_POSITION`].
    pub fn validate(&self) -> Result<(), Invalid> {
        check_id("pageId", &self.page_id)?;
        check_optional_id("productId", self.product_id.as_deref())?;
        let identifier = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.');
        if self.page_type.is_empty()
            || self.page_type.len() > MAX_PAGE_TYPE_LENGTH
            || !self.page_type.bytes().all(identifier)
        {
            return Err(format!(
                "type must be 1 to {MAX_PAGE_TYPE_LENGTH} letters, digits, '-', '_' or '.'"
            ));
        }
        if self
            .position
            .is_some_and(|position| !(0..=MAX_PAGE_POSITION).contains(&position))
        {
            return Err(format!(
                "position must be between 0 and {MAX_PAGE_POSITION}"
            ));
        }
        Ok(())
    }
}

/// `DynamicProductListingPageOpenedPayload`: the page of a product listing slide.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct SlideData {
    pub page: i64,
}

/// What every participant of an appointment sees.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct StateForAll {
    pub current_guide_product_id: Option<Id>,
    pub last_active_guide_section: Option<Id>,
    pub current_page_id: Option<Id>,
    pub current_section_id: Option<Id>,
    pub current_slide_alias: u32,
    pub current_slide_data: Option<SlideData>,
    pub current_dynamic_page: Option<DynamicPage>,
    pub started: bool,
    pub running: bool,
    pub ended: bool,
    /// RFC 3339 timestamps.
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    pub accessible_from: Option<String>,
    pub accessible_to: Option<String>,
    pub appointment_mode: AppointmentMode,
    pub video_audio_settings: VideoAudioSettings,
    pub video_room_url: String,
    pub attendee_restriction_type: Option<AttendeeRestrictionType>,
    pub product_detail_default_page_id: Option<Id>,
    pub quickview_page_id: Option<Id>,
    pub product_listing_default_page_id: Option<Id>,
    pub broadcast_mode: bool,
    pub view_mode: ViewMode,
    pub allow_screen_sharing: bool,
    /// No one can join while the guide has locked the appointment.
    pub locked: bool,
    /// Set by the guide's mute-all; attendees' microphones are off while true.
    pub muted_all: bool,
    /// The chat: its last messages, the pinned one, and its settings (issue #19).
    pub chat: ChatState,
    /// The appointment's polls, oldest first (issue #19).
    pub polls: Vec<Poll>,
    /// The attendees' questions, oldest first (issue #19); dismissed ones are gone.
    pub questions: Vec<Question>,
    pub extensions: Vec<serde_json::Value>,
}

/// What attendees (clients) see in addition to [`StateForAll`].
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct StateForClients {
    pub video_client_token: Option<String>,
    pub hovered_element_id: Option<Id>,
    /// The attendee's own cart permission (each attendee sees only its own): `missing`
    /// while the guide never asked, `refused` after a no. Not in the reference schema.
    pub cart_permission: CartPermission,
    /// The attendee's own chat time-out (unix milliseconds), if the guide gave one.
    pub chat_muted_until: Option<u64>,
    /// Whether the guide banned the attendee from the chat.
    pub chat_banned: bool,
    /// The attendee's own vote per poll id.
    pub poll_votes: BTreeMap<Id, Vec<Id>>,
    /// The ids of the questions the attendee up-voted.
    pub question_votes: Vec<Id>,
    pub extensions: Vec<serde_json::Value>,
}

/// One participant as guides see them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AttendeeSummary {
    pub attendee_id: Id,
    pub role: Role,
    pub attendee_name: Option<String>,
    pub video_user_id: Option<String>,
    pub has_joined: bool,
    pub status: AttendeeStatus,
    pub connection: ConnectionState,
    pub cart_permission: CartPermission,
    /// RFC 3339 timestamp of the last frame received from this participant.
    pub last_active_at: Option<String>,
}

/// What guides see in addition to [`StateForAll`]. The participant maps are keyed by
/// attendee id, as in the reference example.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct StateForGuides {
    pub clients: BTreeMap<Id, AttendeeSummary>,
    pub inactive_clients: BTreeMap<Id, AttendeeSummary>,
    pub guides: BTreeMap<Id, AttendeeSummary>,
    pub video_guide_token: Option<String>,
    pub quick_view_state: Vec<Id>,
    /// Blocked words, time-outs and bans of the chat.
    pub chat_moderation: ChatModeration,
    pub extensions: Vec<serde_json::Value>,
}

/// The whole state a participant may see, sent in `welcome` when a fresh snapshot is due.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub state_for_all: StateForAll,
    pub state_for_clients: StateForClients,
    /// Present for guides only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub state_for_guides: Option<StateForGuides>,
}
