//! WebSocket frames. Every frame is an object with a `type` discriminator.
//!
//! A session goes: the client connects to `/ws` offering the subprotocol
//! `salesroom.v1.json` or `salesroom.v1.msgpack` and its hub token as one more,
//! `bearer.<token>` ([`TOKEN_SUBPROTOCOL_PREFIX`]; never in the URL, which gets logged),
//! sends [`ClientFrame::Hello`] (with the last sequence number it applied, when
//! resuming), and the hub answers [`ServerFrame::Welcome`]. From then on state changes
//! arrive as [`ServerFrame::Event`] with strictly increasing `seq`, without gaps.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::action::{Action, Interaction};
use crate::engagement::polls::Poll;
use crate::engagement::questions::{Question, QuestionStatus};
use crate::engagement::{ChatMessage, ChatSettings, ReactionCounts};
use crate::session::SessionSample;
use crate::state::{
    AppointmentMode, AttendeeRestrictionType, AttendeeSummary, DynamicPage, Id, Snapshot,
    VideoAudioSettings, ViewMode,
};
use crate::status::{CartPermission, Role};

/// The WebSocket subprotocol for JSON text frames.
pub const SUBPROTOCOL_JSON: &str = "salesroom.v1.json";
/// The WebSocket subprotocol for MessagePack binary frames.
pub const SUBPROTOCOL_MSGPACK: &str = "salesroom.v1.msgpack";
/// A browser offers its hub token as one more subprotocol, `bearer.<token>` (a JWT's
/// characters are all allowed there), so that the token never sits in a URL that a proxy
/// or server logs. The hub answers with the codec's subprotocol, never this one.
pub const TOKEN_SUBPROTOCOL_PREFIX: &str = "bearer.";

/// The hub token a client offered among its subprotocols (`Sec-WebSocket-Protocol`).
pub fn token_of_subprotocols(offered: &str) -> Option<&str> {
    offered
        .split(',')
        .map(str::trim)
        .find_map(|protocol| protocol.strip_prefix(TOKEN_SUBPROTOCOL_PREFIX))
        .filter(|t| !t.is_empty())
}

/// The largest message (and frame) a participant may send, to the hub and through
/// storefront-proxy's `/ws` relay alike: the largest real frame (an action with
/// [`crate::action::MAX_LISTING_PRODUCTS`] ids) is about 20 KiB. A larger one closes
/// the connection with [`close_code::MESSAGE_TOO_BIG`] (1009) and a close frame.
pub const MAX_MESSAGE_SIZE: usize = 64 * 1024;

/// Close codes the hub uses (4000-4999 is the application range).
pub mod close_code {
    /// The first frame was not a valid `hello`, or it did not come in time.
    pub const NO_HELLO: u16 = 4000;
    /// The peer stopped answering pings.
    pub const HEARTBEAT_TIMEOUT: u16 = 4001;
    /// The client did not read its frames fast enough; reconnect and resume.
    pub const SLOW_CONSUMER: u16 = 4008;
    /// The same attendee connected again elsewhere.
    pub const REPLACED: u16 = 4009;
    /// The attendee was removed from the appointment; also the answer to the `hello` of
    /// a removed attendee's token (do not reconnect).
    pub const REMOVED: u16 = 4010;
    /// The answer to the `hello` of an attendee who had not joined before the guide
    /// locked the appointment (do not reconnect until it is unlocked; a new join over
    /// REST says so).
    pub const LOCKED: u16 = 4011;
    /// The appointment's history was replaced (Redis lost it and the hub wrote it back
    /// as a new epoch); reconnect and resume: the welcome brings a snapshot.
    pub const RESYNC: u16 = 4012;
    /// The hub is draining (it was told to stop: a rolling restart, a scale-in); it
    /// accepts no new connection. Reconnect at once and resume: the load balancer sends
    /// the new connection to another replica, which replays what was missed.
    pub const DRAINING: u16 = 4013;
    /// The hub is shutting down; reconnect and resume.
    pub const GOING_AWAY: u16 = 1001;
    /// A message was over the hub's size limit (RFC 6455 "message too big").
    pub const MESSAGE_TOO_BIG: u16 = 1009;
}

/// Frames a participant sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ClientFrame {
    /// First frame of a connection. `lastSeq` is the sequence number of the last event
    /// the client applied; set it when resuming.
    Hello {
        #[serde(default)]
        last_seq: Option<u64>,
        /// The `epoch` of the welcome that `lastSeq` belongs to. Sequence numbers are
        /// only comparable within one epoch.
        #[serde(default)]
        epoch: Option<String>,
    },
    /// An action of spec section 3. `ref` is echoed in the `ack` or `error`.
    Action {
        #[serde(default)]
        r#ref: Option<u32>,
        action: Action,
    },
    /// An interaction of the DSR reference.
    Interaction {
        #[serde(default)]
        r#ref: Option<u32>,
        interaction: Interaction,
    },
    Ping {
        nonce: u64,
    },
    Pong {
        nonce: u64,
    },
}

/// How a `welcome` relates to what the client had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Resume {
    /// No `lastSeq` was given: `snapshot` holds the current state.
    Fresh,
    /// The missed events follow as `event` frames, from `lastSeq + 1` on.
    Replayed,
    /// The missed events are no longer retained: `snapshot` replaces the client's state.
    Snapshot,
}

/// A change of live state. Every event has a place in its appointment's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Event {
    /// The appointment's settings, published by storefront-proxy when they are set or
    /// changed.
    AppointmentConfigured {
        settings: AppointmentSettings,
    },
    SlideSwitched {
        page_id: Id,
        section_id: Id,
        slide_alias: u32,
    },
    PresentationStarted {
        started_at: String,
    },
    PresentationEnded {
        ended_at: String,
    },
    LockChanged {
        locked: bool,
    },
    GuideProductChanged {
        product_id: Option<Id>,
    },
    DynamicPageOpened {
        page: DynamicPage,
    },
    DynamicPageClosed {
        page_id: Option<Id>,
        all: bool,
    },
    BroadcastModeChanged {
        active: bool,
    },
    ViewModeChanged {
        mode: ViewMode,
    },
    ScreenSharingChanged {
        active: bool,
    },
    MuteAllChanged {
        muted: bool,
    },
    /// Guides only: a participant joined, left, or changed connection state.
    AttendeeChanged {
        attendee: AttendeeSummary,
    },
    /// Guides only.
    AttendeeRemoved {
        attendee_id: Id,
    },
    /// The attendee concerned and guides.
    CartPermissionChanged {
        attendee_id: Id,
        permission: CartPermission,
    },
    /// The attendee concerned and guides: a product was added to or removed from one of
    /// the attendee's collections (published by storefront-proxy).
    AttendeeCollectionChanged {
        attendee_id: Id,
        collection: Collection,
        product_id: Id,
        added: bool,
    },
    /// The attendee concerned and guides: the attendee's cart changed (published by
    /// storefront-proxy; the cart itself is read from the shop).
    AttendeeCartChanged {
        attendee_id: Id,
        line_item_count: u32,
        total_price: f64,
    },
    /// Guides: the hub's sample of a running session for its report (reaction taps since
    /// the last sample, the attendees' cart values), see [`crate::session`].
    SessionSampled {
        sample: SessionSample,
    },
    /// Guides only: the appointment's saved products changed (a guide saved, moved,
    /// noted or removed one; published by storefront-proxy). Every guide's cockpit loads
    /// the list again from the shop, so guides sharing an appointment see each other's
    /// changes live.
    SavedProductsChanged {},
    /// Ask clients to reload something the guide changed (spec section 3 action keys).
    Reload {
        action: Action,
    },
    /// Everyone: a chat message was posted. The hub now posts messages in batches
    /// ([`Event::ChatMessagesPosted`]); logs written before hold this one.
    ChatMessagePosted {
        message: ChatMessage,
    },
    /// Everyone: chat messages were posted, oldest first: what the hub took within one of
    /// the room's ticks ([`crate::engagement::engagement_tick_ms`]: 250 ms in a small room,
    /// up to 1 s in a large one; at most [`crate::engagement::MAX_CHAT_BATCH`]).
    /// Applying it is applying a `chatMessagePosted` for each message in turn.
    ChatMessagesPosted {
        messages: Vec<ChatMessage>,
    },
    /// Everyone: the guide deleted a chat message.
    ChatMessageDeleted {
        message_id: Id,
    },
    /// Everyone: the guide pinned a message (`null`: unpinned).
    ChatMessagePinned {
        message_id: Option<Id>,
    },
    /// Everyone: the chat's settings changed.
    ChatSettingsChanged {
        settings: ChatSettings,
    },
    /// Guides only: the blocked words changed.
    ChatBlockedWordsChanged {
        words: Vec<String>,
    },
    /// The attendee concerned and guides: a time-out (until, unix milliseconds) or ban
    /// was given or lifted.
    ChatAttendeeModerated {
        attendee_id: Id,
        muted_until: Option<u64>,
        banned: bool,
    },
    /// Everyone: the guide created a poll (a draft).
    PollCreated {
        poll: Poll,
    },
    /// Everyone: a poll opened.
    PollOpened {
        poll_id: Id,
    },
    /// Everyone: a poll closed, with its final counts.
    PollClosed {
        poll_id: Id,
        counts: Vec<u32>,
        voters: u32,
    },
    /// Everyone: attendees are shown a poll's counts, or not.
    PollResultsShown {
        poll_id: Id,
        shown: bool,
    },
    /// The voter and guides: an attendee voted (`previousAnswerIds`: its vote before,
    /// empty for a first vote), so whoever is sent it can recount.
    PollVoted {
        poll_id: Id,
        attendee_id: Id,
        answer_ids: Vec<Id>,
        previous_answer_ids: Vec<Id>,
    },
    /// Everyone: an attendee asked a question.
    QuestionAsked {
        question: Question,
    },
    /// The voter and guides: an attendee up-voted a question (`voted`), or withdrew the
    /// up-vote. Everyone else is sent the counts as `questionVotes`.
    QuestionVoted {
        question_id: Id,
        attendee_id: Id,
        voted: bool,
    },
    /// Everyone: the guide marked a question. `answering` takes the mark from any other
    /// question being answered (it goes back to `open`).
    QuestionMarked {
        question_id: Id,
        status: QuestionStatus,
    },
    /// Everyone: the guide dismissed a question; it goes.
    QuestionDismissed {
        question_id: Id,
    },
}

/// The appointment fields of `stateForAll` that storefront-proxy owns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppointmentSettings {
    pub appointment_mode: AppointmentMode,
    pub video_audio_settings: VideoAudioSettings,
    pub attendee_restriction_type: Option<AttendeeRestrictionType>,
    pub accessible_from: Option<String>,
    pub accessible_to: Option<String>,
    pub product_detail_default_page_id: Option<Id>,
    pub quickview_page_id: Option<Id>,
    pub product_listing_default_page_id: Option<Id>,
}

/// An attendee's product collections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Collection {
    Liked,
    Disliked,
    LastSeen,
    Wishlist,
}

/// Events that may be coalesced or dropped under load; they carry no sequence number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum VolatileEvent {
    GuideHovered {
        hovered_element_id: Option<Id>,
    },
    /// The reaction taps of the whole room since the previous sum (at most one every
    /// [`crate::engagement::REACTION_TICK_MS`]).
    Reactions {
        counts: ReactionCounts,
    },
    /// A poll's counts, at most one every
    /// [`crate::engagement::polls::POLL_COUNTS_TICK_MS`] per poll while votes come in.
    PollCounts {
        poll_id: Id,
        counts: Vec<u32>,
        voters: u32,
    },
    /// Up-vote counts of the questions voted on since the last ones, by question id; at
    /// most one every [`crate::engagement::questions::QUESTION_VOTES_TICK_MS`].
    QuestionVotes {
        votes: BTreeMap<Id, u32>,
    },
}

/// Error codes of `error` frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// The frame could not be decoded.
    BadFrame,
    /// A frame other than `hello` came first, or `hello` came twice.
    UnexpectedFrame,
    /// The sender's role may not do this.
    Forbidden,
    /// The payload failed validation.
    InvalidPayload,
    /// The presentation has ended.
    PresentationEnded,
    /// Something failed on the hub; the action had no effect.
    Internal,
    /// Too many actions and interactions in a short time; this one had no effect. Slow
    /// down (a client may send 20 a second on average, 40 at once).
    RateLimited,
    /// Chat (issue #19): the message is empty.
    ChatEmpty,
    /// Chat: the message is over 500 characters.
    ChatTooLong,
    /// Chat: the guide timed the sender out; `message` says until when.
    ChatMuted,
    /// Chat: the guide banned the sender from the chat.
    ChatBanned,
    /// Chat: the guide closed the chat.
    ChatClosed,
    /// Chat: the message holds a word the guide blocked.
    ChatBlockedWord,
    /// Chat: slow mode is on and the sender posted too recently.
    ChatSlowMode,
    /// Chat: too many messages in a short time (5 in 10 seconds).
    ChatRateLimited,
    /// Polls: no poll with that id.
    PollNotFound,
    /// Polls: the poll is not open (a draft, or closed).
    PollClosed,
    /// Polls: an answer id the poll does not have (or none).
    PollUnknownAnswer,
    /// Polls: several answers on a single-choice poll.
    PollSingleChoice,
    /// Polls: the appointment holds the most polls it may.
    PollLimit,
    /// Questions: nothing left of the text.
    QuestionEmpty,
    /// Questions: over 300 characters.
    QuestionTooLong,
    /// Questions: one question per 30 seconds per attendee.
    QuestionRateLimited,
    /// Questions: the guide banned the attendee from the chat, and so from asking.
    QuestionBanned,
    /// Questions: no question with that id (never asked, or dismissed).
    QuestionNotFound,
    /// Questions: one's own question cannot be up-voted.
    QuestionOwnVote,
    /// Questions: the appointment holds the most questions it may.
    QuestionLimit,
}

/// Frames the hub sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ServerFrame {
    Welcome {
        appointment_id: Id,
        attendee_id: Id,
        role: Role,
        /// The sequence number of the newest event included in this welcome (directly or
        /// through the replay that follows it).
        seq: u64,
        /// Identifies the hub's event history of this appointment; it changes only when
        /// that history was lost, and then no resume across it is possible.
        epoch: String,
        resume: Resume,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        snapshot: Option<Box<Snapshot>>,
        /// Milliseconds between the hub's pings.
        heartbeat_ms: u64,
        /// In a large room a guide's snapshot holds only the first participants; this
        /// many `participants` frames with the others follow the welcome, before any
        /// event. Absent when nothing follows.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        participant_pages: Option<u32>,
    },
    /// A page of the participants of the snapshot in the `welcome` before it (guides
    /// only). Each participant goes where an `attendeeChanged` event would put it.
    Participants {
        page: u32,
        pages: u32,
        participants: Vec<AttendeeSummary>,
    },
    /// A state change. `prev` is the `seq` of the previous event this participant was
    /// sent (events for other audiences are skipped), so a client applies an event only
    /// when `prev` equals the last `seq` it applied, drops it when `seq` is not newer,
    /// and resumes otherwise.
    Event {
        seq: u64,
        prev: u64,
        event: Event,
    },
    Volatile {
        event: VolatileEvent,
    },
    /// The action with this `ref` was applied; `seq` is its event, if it made one.
    Ack {
        r#ref: u32,
        #[serde(default)]
        seq: Option<u64>,
    },
    Error {
        #[serde(default)]
        r#ref: Option<u32>,
        code: ErrorCode,
        message: String,
    },
    /// A LiveKit access token for this participant, sent after `welcome` when video is
    /// configured, and again whenever what the participant may publish changes.
    VideoToken {
        url: String,
        token: String,
        can_publish: bool,
    },
    Ping {
        nonce: u64,
    },
    Pong {
        nonce: u64,
    },
}

/// `ServerFrame::Event` borrowing its event, with the same wire shape: the hub encodes
/// one shared event for many subscribers without copying it.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename = "event")]
pub struct EventFrame<'a> {
    pub seq: u64,
    pub prev: u64,
    pub event: &'a Event,
}

/// `ServerFrame::Volatile` borrowing its event, with the same wire shape.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename = "volatile")]
pub struct VolatileFrame<'a> {
    pub event: &'a VolatileEvent,
}

impl ServerFrame {
    pub fn error(r#ref: Option<u32>, code: ErrorCode, message: impl Into<String>) -> Self {
        ServerFrame::Error {
            r#ref,
            code,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod token_subprotocol_tests {
    use super::token_of_subprotocols;

    #[test]
    fn the_token_is_the_offered_bearer_subprotocol() {
        assert_eq!(
            token_of_subprotocols("salesroom.v1.json, bearer.aa.bb-cc_dd"),
            Some("aa.bb-cc_dd")
        );
        assert_eq!(
            token_of_subprotocols("bearer.x,salesroom.v1.msgpack"),
            Some("x")
        );
        assert_eq!(token_of_subprotocols("salesroom.v1.json"), None);
        assert_eq!(token_of_subprotocols("salesroom.v1.json, bearer."), None);
    }
}
