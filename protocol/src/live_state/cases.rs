//! Golden cases of the live-state reducer, for the web app's reducer to replay.
//!
//! Each case is defined here as the events that make the state before it (with their
//! audiences) and the events under test; [`Case::render`] runs them through [`LiveState`] and
//! keeps, for a client's case, only the events that client is sent. `make protocol-ts`
//! writes the result to [`CASES_PATH`]; `cargo test -p protocol` fails when the committed
//! file is stale, and the hub's tests replay the same cases through a real room.

use serde::Serialize;

use super::{LiveState, Viewer};
use crate::action::Action;
use crate::engagement::polls::{NewPoll, Poll, PollSlide};
use crate::engagement::questions::{Question, QuestionStatus};
use crate::engagement::{ChatMessage, ChatSettings};
use crate::frame::{AppointmentSettings, Collection, Event};
use crate::internal::Audience;
use crate::state::{
    AppointmentMode, AttendeeRestrictionType, AttendeeSummary, DynamicPage, Snapshot,
    VideoAudioSettings, ViewMode,
};
use crate::status::{AttendeeStatus, CartPermission, ConnectionState, Role};

/// Where the generated file lives, relative to the workspace root.
pub const CASES_PATH: &str = "web/src/protocol/live-state-cases.json";

/// The guide every guide's case is seen by.
pub const GUIDE: &str = "9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a";
/// The client every client's case is seen by.
pub const ADA: &str = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1";
/// Another client.
pub const BOB: &str = "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2";

const PAGE: &str = "c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3";
const SECTION: &str = "d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4";
const OTHER_SECTION: &str = "d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5";
const PRODUCT: &str = "e6e6e6e6e6e6e6e6e6e6e6e6e6e6e6e6";
const OTHER_PAGE: &str = "f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7";

/// Who a case is seen by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// By [`GUIDE`].
    ByGuide,
    /// By [`ADA`].
    ByClient,
}

impl Seen {
    pub fn role(self) -> Role {
        match self {
            Seen::ByGuide => Role::Guide,
            Seen::ByClient => Role::Client,
        }
    }

    pub fn attendee_id(self) -> &'static str {
        match self {
            Seen::ByGuide => GUIDE,
            Seen::ByClient => ADA,
        }
    }

    fn viewer(self) -> Viewer<'static> {
        match self {
            Seen::ByGuide => Viewer::Guide(GUIDE),
            Seen::ByClient => Viewer::Client(ADA),
        }
    }
}

/// A case as defined: events with their audiences.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: &'static str,
    pub seen: Seen,
    /// What happened before: makes the `before` state.
    pub setup: Vec<(Audience, Event)>,
    /// The events under test, in order.
    pub events: Vec<(Audience, Event)>,
}

/// A case as the web replays it: the state the viewer had, the events it was sent, and
/// the state it must have after them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rendered {
    pub name: &'static str,
    pub before: Snapshot,
    pub events: Vec<Event>,
    pub after: Snapshot,
}

/// The generated file.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CasesFile {
    cart_actions: [&'static str; 4],
    cases: Vec<Rendered>,
}

impl Case {
    /// Runs the case through the reducer.
    pub fn render(&self) -> Rendered {
        let mut state = LiveState::default();
        for (_, event) in &self.setup {
            state.apply(event);
        }
        let before = state.view(self.seen.viewer());
        let mut sent = Vec::new();
        for (audience, event) in &self.events {
            state.apply(event);
            if audience.includes(self.seen.role(), self.seen.attendee_id()) {
                sent.push(event.clone());
            }
        }
        Rendered {
            name: self.name,
            before,
            events: sent,
            after: state.view(self.seen.viewer()),
        }
    }
}

/// The whole generated JSON file.
pub fn cases_json() -> String {
    let file = CasesFile {
        cart_actions: Action::CART_ACTION_KEYS,
        cases: all().iter().map(Case::render).collect(),
    };
    // Serialising plain data with string keys cannot fail.
    let mut json = serde_json::to_string_pretty(&file).unwrap_or_default();
    json.push('\n');
    json
}

fn attendee(
    id: &str,
    role: Role,
    connection: ConnectionState,
    cart_permission: CartPermission,
) -> AttendeeSummary {
    AttendeeSummary {
        attendee_id: id.to_owned(),
        role,
        attendee_name: Some(format!("{role:?} {}", &id[..2])),
        video_user_id: None,
        has_joined: true,
        status: AttendeeStatus::Joined,
        connection,
        cart_permission,
        last_active_at: Some("2026-01-05T10:00:00Z".to_owned()),
    }
}

fn joined(id: &str, role: Role) -> (Audience, Event) {
    (
        Audience::Guides,
        Event::AttendeeChanged {
            attendee: attendee(
                id,
                role,
                ConnectionState::Connected,
                CartPermission::Missing,
            ),
        },
    )
}

fn everyone(event: Event) -> (Audience, Event) {
    (Audience::Everyone, event)
}

fn slide(section_id: &str, slide_alias: u32) -> Event {
    Event::SlideSwitched {
        page_id: PAGE.to_owned(),
        section_id: section_id.to_owned(),
        slide_alias,
    }
}

fn permission(attendee_id: &str, permission: CartPermission) -> (Audience, Event) {
    (
        Audience::Attendee(attendee_id.to_owned()),
        Event::CartPermissionChanged {
            attendee_id: attendee_id.to_owned(),
            permission,
        },
    )
}

fn dynamic_page(page_id: &str) -> DynamicPage {
    DynamicPage {
        page_id: page_id.to_owned(),
        page_type: "product".to_owned(),
        opened: true,
        position: Some(2),
        product_id: Some(PRODUCT.to_owned()),
    }
}

/// A room with a guide, Ada (connected) and Bob (lost), on a running presentation.
fn busy_room() -> Vec<(Audience, Event)> {
    vec![
        joined(GUIDE, Role::Guide),
        joined(ADA, Role::Client),
        (
            Audience::Guides,
            Event::AttendeeChanged {
                attendee: attendee(
                    BOB,
                    Role::Client,
                    ConnectionState::Lost,
                    CartPermission::Missing,
                ),
            },
        ),
        everyone(Event::PresentationStarted {
            started_at: "2026-01-05T10:00:00Z".to_owned(),
        }),
        everyone(slide(SECTION, 1)),
    ]
}

/// Every case, in the order of the file.
pub fn all() -> Vec<Case> {
    let settings = AppointmentSettings {
        appointment_mode: AppointmentMode::SelfGuided,
        video_audio_settings: VideoAudioSettings::AudioOnly,
        attendee_restriction_type: Some(AttendeeRestrictionType::Customer),
        accessible_from: Some("2026-01-05T09:00:00Z".to_owned()),
        accessible_to: Some("2026-01-05T18:00:00Z".to_owned()),
        product_detail_default_page_id: Some(OTHER_PAGE.to_owned()),
        quickview_page_id: None,
        product_listing_default_page_id: Some(PAGE.to_owned()),
    };
    vec![
        Case {
            name: "appointmentConfigured sets the appointment's settings in stateForAll",
            seen: Seen::ByClient,
            setup: vec![joined(ADA, Role::Client)],
            events: vec![everyone(Event::AppointmentConfigured { settings })],
        },
        Case {
            name: "slideSwitched moves to the slide and remembers its section as the guide's last",
            seen: Seen::ByClient,
            setup: busy_room(),
            events: vec![everyone(slide(OTHER_SECTION, 4))],
        },
        Case {
            name: "presentationStarted starts and runs; presentationEnded stops and ends",
            seen: Seen::ByClient,
            setup: vec![joined(ADA, Role::Client)],
            events: vec![
                everyone(Event::PresentationStarted { started_at: "2026-01-05T10:00:00Z".to_owned() }),
                everyone(Event::PresentationEnded { ended_at: "2026-01-05T11:00:00Z".to_owned() }),
            ],
        },
        Case {
            name: "lockChanged, broadcastModeChanged, viewModeChanged, screenSharingChanged and muteAllChanged set their flags",
            seen: Seen::ByClient,
            setup: busy_room(),
            events: vec![
                everyone(Event::LockChanged { locked: true }),
                everyone(Event::BroadcastModeChanged { active: true }),
                everyone(Event::ViewModeChanged { mode: ViewMode::VideoGrid }),
                everyone(Event::ScreenSharingChanged { active: true }),
                everyone(Event::MuteAllChanged { muted: true }),
                everyone(Event::LockChanged { locked: false }),
            ],
        },
        Case {
            name: "guideProductChanged shows a product, and null takes it away",
            seen: Seen::ByClient,
            setup: busy_room(),
            events: vec![
                everyone(Event::GuideProductChanged { product_id: Some(PRODUCT.to_owned()) }),
                everyone(Event::GuideProductChanged { product_id: None }),
                everyone(Event::GuideProductChanged { product_id: Some(PRODUCT.to_owned()) }),
            ],
        },
        Case {
            name: "dynamicPageClosed closes the open page by its id, and not for another id",
            seen: Seen::ByClient,
            setup: busy_room(),
            events: vec![
                everyone(Event::DynamicPageOpened { page: dynamic_page(OTHER_PAGE) }),
                everyone(Event::DynamicPageClosed { page_id: Some(PAGE.to_owned()), all: false }),
                everyone(Event::DynamicPageClosed { page_id: None, all: false }),
            ],
        },
        Case {
            name: "dynamicPageClosed closes the open page by its id",
            seen: Seen::ByGuide,
            setup: {
                let mut setup = busy_room();
                setup.push(everyone(Event::DynamicPageOpened { page: dynamic_page(OTHER_PAGE) }));
                setup
            },
            events: vec![everyone(Event::DynamicPageClosed { page_id: Some(OTHER_PAGE.to_owned()), all: false })],
        },
        Case {
            name: "dynamicPageClosed with all closes whatever is open, and closing nothing changes nothing",
            seen: Seen::ByClient,
            setup: {
                let mut setup = busy_room();
                setup.push(everyone(Event::DynamicPageOpened { page: dynamic_page(PAGE) }));
                setup
            },
            events: vec![
                everyone(Event::DynamicPageClosed { page_id: None, all: true }),
                everyone(Event::DynamicPageClosed { page_id: None, all: true }),
            ],
        },
        Case {
            name: "attendeeChanged files a client under clients, moves it to inactiveClients once lost and back on reconnect",
            seen: Seen::ByGuide,
            setup: vec![joined(GUIDE, Role::Guide)],
            events: vec![
                (
                    Audience::Guides,
                    Event::AttendeeChanged { attendee: attendee(ADA, Role::Client, ConnectionState::Connecting, CartPermission::Missing) },
                ),
                (
                    Audience::Guides,
                    Event::AttendeeChanged { attendee: attendee(BOB, Role::Client, ConnectionState::Connected, CartPermission::Missing) },
                ),
                (
                    Audience::Guides,
                    Event::AttendeeChanged { attendee: attendee(ADA, Role::Client, ConnectionState::Lost, CartPermission::Missing) },
                ),
                (
                    Audience::Guides,
                    Event::AttendeeChanged { attendee: attendee(BOB, Role::Client, ConnectionState::Lost, CartPermission::Missing) },
                ),
                (
                    Audience::Guides,
                    Event::AttendeeChanged { attendee: attendee(BOB, Role::Client, ConnectionState::Reconnected, CartPermission::Missing) },
                ),
            ],
        },
        Case {
            name: "attendeeChanged files a guide under guides, connected or lost",
            seen: Seen::ByGuide,
            setup: vec![joined(GUIDE, Role::Guide)],
            events: vec![
                (
                    Audience::Guides,
                    Event::AttendeeChanged { attendee: attendee(GUIDE, Role::Guide, ConnectionState::Lost, CartPermission::Missing) },
                ),
                joined("9b9b9b9b9b9b9b9b9b9b9b9b9b9b9b9b", Role::Guide),
            ],
        },
        Case {
            name: "attendeeRemoved takes a participant out of clients, inactiveClients or guides",
            seen: Seen::ByGuide,
            setup: {
                let mut setup = busy_room();
                setup.push(joined("9b9b9b9b9b9b9b9b9b9b9b9b9b9b9b9b", Role::Guide));
                setup
            },
            events: vec![
                (Audience::Guides, Event::AttendeeRemoved { attendee_id: ADA.to_owned() }),
                (Audience::Guides, Event::AttendeeRemoved { attendee_id: BOB.to_owned() }),
                (Audience::Guides, Event::AttendeeRemoved { attendee_id: "9b9b9b9b9b9b9b9b9b9b9b9b9b9b9b9b".to_owned() }),
                (Audience::Guides, Event::AttendeeRemoved { attendee_id: "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f".to_owned() }),
            ],
        },
        Case {
            name: "cartPermissionChanged changes the permission in a client's entry, active or inactive, and ignores unknown attendees",
            seen: Seen::ByGuide,
            setup: busy_room(),
            events: vec![
                permission(ADA, CartPermission::Requested),
                permission(ADA, CartPermission::Granted),
                permission(BOB, CartPermission::Requested),
                permission("0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f", CartPermission::Requested),
            ],
        },
        Case {
            // Every participant's entry has a cart permission, a guide's too: the hub's
            // state changes whoever the event names (a guide may name another guide).
            name: "cartPermissionChanged changes the entry of whoever it names, a guide's too",
            seen: Seen::ByGuide,
            setup: {
                let mut setup = busy_room();
                setup.push(joined("9b9b9b9b9b9b9b9b9b9b9b9b9b9b9b9b", Role::Guide));
                setup
            },
            events: vec![permission("9b9b9b9b9b9b9b9b9b9b9b9b9b9b9b9b", CartPermission::Requested)],
        },
        Case {
            name: "cartPermissionChanged reaches a client for its own permission only: requested, then refused",
            seen: Seen::ByClient,
            setup: busy_room(),
            events: vec![
                permission(ADA, CartPermission::Requested),
                permission(BOB, CartPermission::Granted),
                permission(ADA, CartPermission::Refused),
            ],
        },
        Case {
            name: "reload, attendeeCartChanged, attendeeCollectionChanged, sessionSampled and savedProductsChanged leave a guide's state as it is",
            seen: Seen::ByGuide,
            setup: busy_room(),
            events: vec![
                (Audience::Attendee(ADA.to_owned()), Event::Reload { action: Action::LoadCart { attendee_id: Some(ADA.to_owned()) } }),
                (Audience::Everyone, Event::Reload { action: Action::LoadProductList {} }),
                (
                    Audience::Attendee(ADA.to_owned()),
                    Event::AttendeeCartChanged { attendee_id: ADA.to_owned(), line_item_count: 3, total_price: 59.9 },
                ),
                (
                    Audience::Guides,
                    Event::SessionSampled {
                        sample: crate::session::SessionSample {
                            at: "2026-01-05T10:00:30Z".into(),
                            bucket: 59_073_121,
                            reactions: crate::engagement::ReactionCounts { heart: 3, ..Default::default() },
                            cart_value: 59.9,
                        },
                    },
                ),
                (
                    Audience::Attendee(BOB.to_owned()),
                    Event::AttendeeCollectionChanged {
                        attendee_id: BOB.to_owned(),
                        collection: Collection::Liked,
                        product_id: PRODUCT.to_owned(),
                        added: true,
                    },
                ),
                (Audience::Guides, Event::SavedProductsChanged {}),
            ],
        },
        Case {
            name: "reload, attendeeCartChanged and attendeeCollectionChanged leave a client's state as it is",
            seen: Seen::ByClient,
            setup: busy_room(),
            events: vec![
                (
                    Audience::Attendee(ADA.to_owned()),
                    Event::Reload { action: Action::AddToCart { attendee_id: None, product_id: PRODUCT.to_owned(), quantity: 2 } },
                ),
                (
                    Audience::Attendee(ADA.to_owned()),
                    Event::AttendeeCartChanged { attendee_id: ADA.to_owned(), line_item_count: 0, total_price: 0.0 },
                ),
                (
                    Audience::Attendee(ADA.to_owned()),
                    Event::AttendeeCollectionChanged {
                        attendee_id: ADA.to_owned(),
                        collection: Collection::Wishlist,
                        product_id: PRODUCT.to_owned(),
                        added: false,
                    },
                ),
            ],
        },
        Case {
            name: "chat: messages are posted, pinned, deleted (the pin with it), settings, blocked words and a time-out change for a guide",
            seen: Seen::ByGuide,
            setup: busy_room(),
            events: vec![
                everyone(Event::ChatMessagePosted { message: chat(1, ADA, "Hallo <b>zusammen</b>") }),
                everyone(Event::ChatMessagePosted { message: chat(2, GUIDE, "Welcome!") }),
                everyone(Event::ChatMessagePinned { message_id: Some(chat_id(1)) }),
                everyone(Event::ChatMessageDeleted { message_id: chat_id(1) }),
                everyone(Event::ChatSettingsChanged {
                    settings: ChatSettings { closed: false, slow_mode_seconds: 10, links_allowed: true },
                }),
                (Audience::Guides, Event::ChatBlockedWordsChanged { words: vec!["spam".to_owned()] }),
                (
                    Audience::Attendee(BOB.to_owned()),
                    Event::ChatAttendeeModerated { attendee_id: BOB.to_owned(), muted_until: Some(1_767_607_200_000), banned: false },
                ),
                (
                    Audience::Attendee(ADA.to_owned()),
                    Event::ChatAttendeeModerated { attendee_id: ADA.to_owned(), muted_until: None, banned: true },
                ),
            ],
        },
        Case {
            name: "chat: a client sees messages, the closed chat and its own time-out only",
            seen: Seen::ByClient,
            setup: busy_room(),
            events: vec![
                everyone(Event::ChatMessagePosted { message: chat(1, BOB, "\u{202e}olleh") }),
                everyone(Event::ChatSettingsChanged {
                    settings: ChatSettings { closed: true, slow_mode_seconds: 0, links_allowed: false },
                }),
                (Audience::Guides, Event::ChatBlockedWordsChanged { words: vec!["spam".to_owned()] }),
                (
                    Audience::Attendee(BOB.to_owned()),
                    Event::ChatAttendeeModerated { attendee_id: BOB.to_owned(), muted_until: None, banned: true },
                ),
                (
                    Audience::Attendee(ADA.to_owned()),
                    Event::ChatAttendeeModerated { attendee_id: ADA.to_owned(), muted_until: Some(1_767_607_200_000), banned: false },
                ),
                everyone(Event::ChatMessagePinned { message_id: Some(chat_id(1)) }),
            ],
        },
        Case {
            name: "chat: batches of messages are posted in order, one deleted and one pinned inside a batch, the history keeps the last 100",
            seen: Seen::ByClient,
            setup: busy_room(),
            events: vec![
                everyone(Event::ChatMessagePosted { message: chat(1, ADA, "before the batches") }),
                everyone(Event::ChatMessagesPosted { messages: (2..=60).map(|n| chat(n, if n % 2 == 0 { BOB } else { ADA }, &format!("m{n}"))).collect() }),
                everyone(Event::ChatMessageDeleted { message_id: chat_id(30) }),
                everyone(Event::ChatMessagePinned { message_id: Some(chat_id(59)) }),
                everyone(Event::ChatMessagesPosted { messages: Vec::new() }),
                everyone(Event::ChatMessagesPosted { messages: (61..=110).map(|n| chat(n, GUIDE, &format!("m{n}"))).collect() }),
            ],
        },
        Case {
            name: "polls: a poll opens with its slide, votes are recounted (a changed vote too), results shown, closed, for a guide",
            seen: Seen::ByGuide,
            setup: busy_room(),
            events: vec![
                everyone(Event::PollCreated { poll: poll(1, Some(PollSlide { section_id: OTHER_SECTION.to_owned(), slide_alias: 2 })) }),
                everyone(Event::PollCreated { poll: poll(2, None) }),
                everyone(Event::SlideSwitched { page_id: PAGE.to_owned(), section_id: OTHER_SECTION.to_owned(), slide_alias: 2 }),
                vote(1, ADA, &[0], &[]),
                vote(1, BOB, &[1], &[]),
                vote(1, BOB, &[2], &[1]),
                everyone(Event::PollResultsShown { poll_id: chat_id(1), shown: true }),
                everyone(Event::PollOpened { poll_id: chat_id(2) }),
                everyone(Event::PollClosed { poll_id: chat_id(1), counts: vec![1, 0, 1], voters: 2 }),
            ],
        },
        Case {
            name: "polls: a client sees the poll open, its own vote change and the final counts of everyone's votes",
            seen: Seen::ByClient,
            setup: busy_room(),
            events: vec![
                everyone(Event::PollCreated { poll: poll(1, None) }),
                everyone(Event::PollOpened { poll_id: chat_id(1) }),
                vote(1, ADA, &[0], &[]),
                vote(1, ADA, &[1], &[0]),
                vote(1, BOB, &[1], &[]),
                everyone(Event::PollClosed { poll_id: chat_id(1), counts: vec![0, 2, 0], voters: 2 }),
                everyone(Event::PollResultsShown { poll_id: chat_id(1), shown: true }),
            ],
        },
        Case {
            name: "questions: asked, up-voted and withdrawn, one answering at a time, answered, dismissed, for a guide",
            seen: Seen::ByGuide,
            setup: busy_room(),
            events: vec![
                everyone(Event::QuestionAsked { question: question(1, ADA, "Does it <b>fit</b>?") }),
                everyone(Event::QuestionAsked { question: question(2, BOB, "\u{202e}?ecirp") }),
                everyone(Event::QuestionAsked { question: question(3, BOB, "Colours?") }),
                question_vote(1, BOB, true),
                question_vote(2, ADA, true),
                question_vote(2, ADA, false),
                question_vote(3, ADA, true),
                everyone(Event::QuestionMarked { question_id: chat_id(1), status: QuestionStatus::Answering }),
                everyone(Event::QuestionMarked { question_id: chat_id(3), status: QuestionStatus::Answering }),
                everyone(Event::QuestionMarked { question_id: chat_id(3), status: QuestionStatus::Answered }),
                everyone(Event::QuestionDismissed { question_id: chat_id(2) }),
            ],
        },
        Case {
            name: "questions: a client sees questions, its own up-votes and the one being answered",
            seen: Seen::ByClient,
            setup: busy_room(),
            events: vec![
                everyone(Event::QuestionAsked { question: question(1, BOB, "When does it ship?") }),
                everyone(Event::QuestionAsked { question: question(2, BOB, "<script>alert(1)</script>") }),
                question_vote(2, ADA, true),
                question_vote(1, ADA, true),
                question_vote(2, ADA, false),
                everyone(Event::QuestionMarked { question_id: chat_id(1), status: QuestionStatus::Answering }),
                everyone(Event::QuestionDismissed { question_id: chat_id(2) }),
            ],
        },
    ]
}

fn question(n: u32, from: &str, text: &str) -> Question {
    Question {
        question_id: chat_id(n),
        attendee_id: from.to_owned(),
        attendee_name: Some(format!("Asker {n}")),
        role: Role::Client,
        text: text.to_owned(),
        asked_at: 1_767_603_700_000 + u64::from(n),
        status: QuestionStatus::Open,
        votes: 0,
    }
}

fn question_vote(question: u32, from: &str, voted: bool) -> (Audience, Event) {
    (
        Audience::Attendee(from.to_owned()),
        Event::QuestionVoted {
            question_id: chat_id(question),
            attendee_id: from.to_owned(),
            voted,
        },
    )
}

fn poll(n: u32, slide: Option<PollSlide>) -> Poll {
    let new = NewPoll {
        question: format!("Question {n}?"),
        answers: vec!["Red".into(), "Green".into(), "Blue".into()],
        multiple: n.is_multiple_of(2),
        slide,
    };
    new.into_poll(chat_id(n), (0..3).map(|a| answer_id(n, a)))
}

fn answer_id(poll: u32, answer: u32) -> String {
    format!("{:032x}", 0x1000 * poll + answer)
}

fn vote(poll: u32, from: &str, answers: &[u32], previous: &[u32]) -> (Audience, Event) {
    let ids = |list: &[u32]| list.iter().map(|a| answer_id(poll, *a)).collect();
    let event = Event::PollVoted {
        poll_id: chat_id(poll),
        attendee_id: from.to_owned(),
        answer_ids: ids(answers),
        previous_answer_ids: ids(previous),
    };
    (Audience::Attendee(from.to_owned()), event)
}

fn chat_id(n: u32) -> String {
    format!("{n:032x}")
}

fn chat(n: u32, from: &str, text: &str) -> ChatMessage {
    let role = if from == GUIDE {
        Role::Guide
    } else {
        Role::Client
    };
    ChatMessage {
        message_id: chat_id(n),
        attendee_id: from.to_owned(),
        attendee_name: Some(format!("{role:?} {n}")),
        role,
        text: text.to_owned(),
        sent_at: 1_767_603_600_000 + u64::from(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number of [`Event`] variants, and each one's place: adding a variant fails to
    /// compile here until it is counted, and then [`every_event_kind_has_a_case`] fails
    /// until a case covers it.
    const KINDS: usize = 36;

    fn kind(event: &Event) -> usize {
        match event {
            Event::AppointmentConfigured { .. } => 0,
            Event::SlideSwitched { .. } => 1,
            Event::PresentationStarted { .. } => 2,
            Event::PresentationEnded { .. } => 3,
            Event::LockChanged { .. } => 4,
            Event::GuideProductChanged { .. } => 5,
            Event::DynamicPageOpened { .. } => 6,
            Event::DynamicPageClosed { .. } => 7,
            Event::BroadcastModeChanged { .. } => 8,
            Event::ViewModeChanged { .. } => 9,
            Event::ScreenSharingChanged { .. } => 10,
            Event::MuteAllChanged { .. } => 11,
            Event::AttendeeChanged { .. } => 12,
            Event::AttendeeRemoved { .. } => 13,
            Event::CartPermissionChanged { .. } => 14,
            Event::AttendeeCollectionChanged { .. } => 15,
            Event::AttendeeCartChanged { .. } => 16,
            Event::Reload { .. } => 17,
            Event::ChatMessagePosted { .. } => 18,
            Event::ChatMessageDeleted { .. } => 19,
            Event::ChatMessagePinned { .. } => 20,
            Event::ChatSettingsChanged { .. } => 21,
            Event::ChatBlockedWordsChanged { .. } => 22,
            Event::ChatAttendeeModerated { .. } => 23,
            Event::PollCreated { .. } => 24,
            Event::PollOpened { .. } => 25,
            Event::PollClosed { .. } => 26,
            Event::PollResultsShown { .. } => 27,
            Event::PollVoted { .. } => 28,
            Event::SessionSampled { .. } => 33,
            Event::SavedProductsChanged {} => 34,
            Event::QuestionAsked { .. } => 29,
            Event::QuestionVoted { .. } => 30,
            Event::QuestionMarked { .. } => 31,
            Event::QuestionDismissed { .. } => 32,
            Event::ChatMessagesPosted { .. } => 35,
        }
    }

    #[test]
    fn every_event_kind_has_a_case() {
        let mut covered = [false; KINDS];
        for case in all() {
            for event in case.render().events {
                covered[kind(&event)] = true;
            }
        }
        let missing: Vec<usize> = (0..KINDS).filter(|&k| !covered[k]).collect();
        assert!(
            missing.is_empty(),
            "event kinds {missing:?} (see `kind`) are sent in no golden case"
        );
    }

    #[test]
    fn cases_have_distinct_names_and_change_what_they_say() {
        let rendered: Vec<Rendered> = all().iter().map(Case::render).collect();
        let mut names: Vec<&str> = rendered.iter().map(|r| r.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), rendered.len(), "case names are unique");
        for case in &rendered {
            assert!(
                !case.events.is_empty(),
                "{}: sends at least one event",
                case.name
            );
            let unchanged = case.before == case.after;
            let expected_unchanged = case.name.contains("as it is");
            assert_eq!(unchanged, expected_unchanged, "{}", case.name);
        }
    }

    #[test]
    fn a_client_case_holds_only_what_the_client_is_sent() {
        let case = all()
            .into_iter()
            .find(|c| c.name.starts_with("cartPermissionChanged reaches a client"))
            .expect("the case");
        let rendered = case.render();
        assert_eq!(rendered.events.len(), 2, "Bob's change is not sent to Ada");
        assert_eq!(
            rendered.after.state_for_clients.cart_permission,
            CartPermission::Refused
        );
        assert!(
            rendered.before.state_for_guides.is_none() && rendered.after.state_for_guides.is_none()
        );
    }
}
