//! Who may do what in a live room, and what it makes: one pure function, [`decide`],
//! from the caller, the room's live state and the request to an event with its audience,
//! a volatile event, nothing, or a refusal. Transport (WebSocket frames, HTTP) and side
//! effects (LiveKit, disconnects: see [`super::effects`]) live elsewhere.
//!
//! The room calls [`decide`] under its lock, so the state a decision reads is the state
//! its event is ordered after (a guide-only action cannot slip in after the end).
//!
//! A new action or interaction is one match arm here and a unit test below.

use std::time::{SystemTime, UNIX_EPOCH};

use protocol::action::{Action, Interaction};
use protocol::engagement::polls::{check_vote, NewPoll, PollStatus, VoteProblem, MAX_POLLS};
use protocol::engagement::questions::{
    clean_question_text, Question, QuestionStatus, MAX_QUESTIONS, MAX_QUESTION_CHARS, QUESTION_INTERVAL_MS,
};
use protocol::engagement::{clean_chat_text, ChatMessage, Reaction, TextProblem, CHAT_BURST, CHAT_BURST_WINDOW_MS};
use protocol::frame::{close_code, ErrorCode, Event, VolatileEvent};
use protocol::internal::Audience;
use protocol::live_state::LiveState;
use protocol::state::{AttendeeSummary, Id};
use protocol::{CartPermission, HubClaims, Role};

/// Who asks.
#[derive(Debug, Clone, Copy)]
pub enum Caller<'a> {
    /// A participant over its WebSocket, with the claims of its hub token.
    Participant(&'a HubClaims),
    /// storefront-proxy over the internal API (it holds the shared secret).
    Shop,
}

/// What is asked.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// An action of spec section 3 (participants).
    Action(Action),
    /// An interaction of the DSR reference (participants).
    Interaction(Interaction),
    /// A state event the shop decided (`POST /internal/publish`).
    Publish { audience: Audience, event: Event },
    /// A new name or video user id for an attendee (`POST /internal/attendee-profile`);
    /// `None` leaves a field as it is, `Some(None)` clears the video user id.
    Profile { attendee_id: Id, attendee_name: Option<String>, video_user_id: Option<Option<String>> },
}

/// What the room is to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Give the event the next sequence number and send it to `audience`.
    Publish { audience: Audience, event: Event },
    /// Send the event now to `audience`; it has no place in the order and may be dropped.
    Volatile { audience: Audience, event: VolatileEvent },
    /// A reaction tap: the room counts it and sends the sum with the others of its tick.
    React(Reaction),
    /// A chat message: the room posts it with the others of its tick's batch
    /// ([`protocol::engagement::engagement_tick_ms`]; one ordered `chatMessagesPosted` to
    /// everyone), or at once, alone, after a quiet spell.
    Chat(ChatMessage),
    /// Nothing changes; the request is acknowledged.
    Nothing,
    /// The request is refused with this error.
    Refuse { code: ErrorCode, message: String },
}

fn publish(audience: Audience, event: Event) -> Decision {
    Decision::Publish { audience, event }
}

fn refuse(code: ErrorCode, message: impl Into<String>) -> Decision {
    Decision::Refuse { code, message: message.into() }
}

/// A connection turned away at its `hello`: it is closed with this code and reason,
/// before any welcome (so nobody sees it connect).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnedAway {
    pub close_code: u16,
    pub reason: &'static str,
}

/// Whether a participant may attach to the room. The room asks at `hello`, under its
/// lock, so a removal or a lock is ordered either before the attach (and refuses it) or
/// after it (and closes or keeps the connection like any other).
///
/// A hub token stays valid until it expires (hours), whatever happened since it was
/// minted, so the room's state decides, not the token:
/// - an attendee the guide removed is refused for good ([`close_code::REMOVED`]);
/// - while the appointment is locked, a client that never connected (is not in the live
///   participant list) is refused ([`close_code::LOCKED`]): those who had joined before
///   the lock may come back, new ones may not. Guides always may.
pub fn admit(claims: &HubClaims, state: &LiveState) -> Result<(), TurnedAway> {
    if state.is_removed(&claims.sub) {
        return Err(TurnedAway { close_code: close_code::REMOVED, reason: "removed from the appointment" });
    }
    let joined_before = state.participants.contains_key(&claims.sub);
    if claims.role == Role::Client && state.state_for_all.locked && !joined_before {
        return Err(TurnedAway { close_code: close_code::LOCKED, reason: "the appointment is locked" });
    }
    Ok(())
}

/// Whose connections an applied event ends, and with which close code: a removed
/// attendee's (the counterpart of [`admit`] for those already attached). The room asks
/// for every event it applies, on every replica.
pub fn ends_connections(event: &Event) -> Option<(&str, u16)> {
    match event {
        Event::AttendeeRemoved { attendee_id } => Some((attendee_id, close_code::REMOVED)),
        _ => None,
    }
}

/// Whether a participant of `role` is held to the request rate of [`super::rate`]: clients
/// are; guides are not (they steer the room, and their browser is one per appointment).
pub fn is_rate_limited(role: Role) -> bool {
    role == Role::Client
}

/// Whether a participant's `action`, sent again unchanged a moment after it was
/// published, may be answered with the earlier event instead of a new one: a client's
/// reload hints, which only ask the client's own views to reload (the same hint twice
/// asks nothing more).
pub fn coalesces(role: Role, action: &Action) -> bool {
    role == Role::Client
        && matches!(
            action,
            Action::LoadCart { .. }
                | Action::AddToCart { .. }
                | Action::RemoveFromCart { .. }
                | Action::UpdateProductQuantity { .. }
                | Action::LoadLikeList { .. }
                | Action::RemoveFromLikeList { .. }
                | Action::LoadLastSeen { .. }
        )
}

/// Decides a request at `now` (unix milliseconds; the caller reads the clock, so this is
/// a pure function of its arguments, up to the random ids of new polls and questions).
pub fn decide(caller: Caller<'_>, state: &LiveState, request: Request, now: u64) -> Decision {
    match (caller, request) {
        (Caller::Participant(claims), Request::Action(action)) => act(claims, state, action, now),
        (Caller::Participant(claims), Request::Interaction(interaction)) => interact(claims, interaction),
        (Caller::Shop, Request::Publish { audience, event }) => publish(audience, event),
        (Caller::Shop, Request::Profile { attendee_id, attendee_name, video_user_id }) => {
            profile(state, &attendee_id, attendee_name, video_user_id)
        }
        (Caller::Shop, Request::Action(_) | Request::Interaction(_)) => {
            refuse(ErrorCode::Forbidden, "actions and interactions come from participants")
        }
        (Caller::Participant(_), Request::Publish { .. } | Request::Profile { .. }) => {
            refuse(ErrorCode::Forbidden, "only the shop publishes events directly")
        }
    }
}

fn act(claims: &HubClaims, state: &LiveState, action: Action, now: u64) -> Decision {
    let guide = claims.role == Role::Guide;
    if action.is_guide_only() {
        if !guide {
            return refuse(ErrorCode::Forbidden, format!("only a guide may send {}", action.key()));
        }
        if state.state_for_all.ended {
            return refuse(ErrorCode::PresentationEnded, "the presentation has ended");
        }
    }
    // Whoever sends it: nothing unchecked is stored or sent on.
    if let Err(invalid) = action.validate() {
        return refuse(ErrorCode::InvalidPayload, invalid);
    }
    match action {
        Action::SwitchSlide { page_id, section_id, slide_alias } => {
            publish(Audience::Everyone, Event::SlideSwitched { page_id, section_id, slide_alias })
        }
        Action::LoadSlide { .. }
        | Action::LoadProductList {}
        | Action::LoadListingProducts { .. }
        | Action::UpdateListingProducts { .. } => publish(Audience::Everyone, Event::Reload { action }),
        // Cart, likes and last-seen live in storefront-proxy; a guide's request goes to
        // the attendee concerned (or a client's to itself) as a reload hint.
        Action::LoadCart { ref attendee_id }
        | Action::AddToCart { ref attendee_id, .. }
        | Action::RemoveFromCart { ref attendee_id, .. }
        | Action::UpdateProductQuantity { ref attendee_id, .. }
        | Action::LoadLikeList { ref attendee_id }
        | Action::RemoveFromLikeList { ref attendee_id, .. }
        | Action::LoadLastSeen { ref attendee_id } => {
            let target = match (guide, attendee_id) {
                (true, Some(id)) => id.clone(),
                _ => claims.sub.clone(),
            };
            publish(Audience::Attendee(target), Event::Reload { action })
        }
        Action::LoadProductReviews { .. } => Decision::Nothing,
        Action::RequestCartPermission { attendee_id } => {
            let event = Event::CartPermissionChanged { attendee_id: attendee_id.clone(), permission: CartPermission::Requested };
            publish(Audience::Attendee(attendee_id), event)
        }
        Action::SetCartPermission { granted } => {
            // A no (to a request, or taking a grant back) is kept apart from never asked.
            let permission = if granted { CartPermission::Granted } else { CartPermission::Refused };
            let attendee_id = claims.sub.clone();
            publish(Audience::Attendee(attendee_id.clone()), Event::CartPermissionChanged { attendee_id, permission })
        }
        Action::SetLocked { locked } => publish(Audience::Everyone, Event::LockChanged { locked }),
        Action::MuteAll { muted } => publish(Audience::Everyone, Event::MuteAllChanged { muted }),
        Action::SendChatMessage { text } => chat(claims, state, &text, now),
        Action::DeleteChatMessage { message_id } => publish(Audience::Everyone, Event::ChatMessageDeleted { message_id }),
        Action::PinChatMessage { message_id } => publish(Audience::Everyone, Event::ChatMessagePinned { message_id }),
        Action::SetChatSettings { settings } => publish(Audience::Everyone, Event::ChatSettingsChanged { settings }),
        Action::SetChatBlockedWords { words } => {
            let words = words.into_iter().map(|w| w.trim().to_owned()).collect();
            publish(Audience::Guides, Event::ChatBlockedWordsChanged { words })
        }
        Action::ModerateChatAttendee { attendee_id, timeout_minutes, banned } => {
            let muted_until = timeout_minutes.map(|minutes| now + u64::from(minutes) * 60_000);
            publish(Audience::Attendee(attendee_id.clone()), Event::ChatAttendeeModerated { attendee_id, muted_until, banned })
        }
        Action::SendReaction { reaction } => Decision::React(reaction),
        Action::CreatePoll { poll } => create_poll(state, poll),
        Action::OpenPoll { poll_id } => match find_poll(state, &poll_id) {
            Err(refused) => *refused,
            Ok(PollStatus::Open) => Decision::Nothing,
            Ok(_) => publish(Audience::Everyone, Event::PollOpened { poll_id }),
        },
        Action::ClosePoll { poll_id } => match find_poll(state, &poll_id) {
            Err(refused) => *refused,
            Ok(PollStatus::Closed) => Decision::Nothing,
            Ok(_) => {
                let poll = state.state_for_all.polls.iter().find(|p| p.poll_id == poll_id);
                let (counts, voters) = poll.map(|p| (p.counts.clone(), p.voters)).unwrap_or_default();
                publish(Audience::Everyone, Event::PollClosed { poll_id, counts, voters })
            }
        },
        Action::ShowPollResults { poll_id, shown } => match find_poll(state, &poll_id) {
            Err(refused) => *refused,
            Ok(_) => publish(Audience::Everyone, Event::PollResultsShown { poll_id, shown }),
        },
        Action::VotePoll { poll_id, answer_ids } => vote(claims, state, poll_id, &answer_ids),
        Action::AskQuestion { text } => ask(claims, state, &text, now),
        Action::VoteQuestion { question_id, voted } => vote_question(claims, state, question_id, voted),
        Action::MarkQuestion { question_id, status } => match find_question(state, &question_id) {
            Err(refused) => *refused,
            Ok(question) if question.status == status => Decision::Nothing,
            Ok(_) => publish(Audience::Everyone, Event::QuestionMarked { question_id, status }),
        },
        Action::DismissQuestion { question_id } => match find_question(state, &question_id) {
            Err(refused) => *refused,
            Ok(_) => publish(Audience::Everyone, Event::QuestionDismissed { question_id }),
        },
    }
}

fn find_question<'a>(state: &'a LiveState, question_id: &str) -> Result<&'a Question, Box<Decision>> {
    state
        .state_for_all
        .questions
        .iter()
        .find(|q| q.question_id == question_id)
        .ok_or_else(|| Box::new(refuse(ErrorCode::QuestionNotFound, "no question with that id")))
}

/// Whether a question may be asked, and the question. Everyone is held to the text's
/// length and emptiness, the end of the presentation, the rate (one per
/// [`QUESTION_INTERVAL_MS`]) and the appointment's bound; a chat ban holds attendees
/// back from asking too. `now` is unix milliseconds.
pub fn ask(claims: &HubClaims, state: &LiveState, text: &str, now: u64) -> Decision {
    if state.state_for_all.ended {
        return refuse(ErrorCode::PresentationEnded, "the presentation has ended");
    }
    let text = match clean_question_text(text) {
        Ok(text) => text,
        Err(TextProblem::Empty) => return refuse(ErrorCode::QuestionEmpty, "the question is empty"),
        Err(TextProblem::TooLong) => {
            return refuse(ErrorCode::QuestionTooLong, format!("the question is over {MAX_QUESTION_CHARS} characters"))
        }
    };
    let asker = &claims.sub;
    if claims.role == Role::Client && state.chat_moderation.banned.contains(asker) {
        return refuse(ErrorCode::QuestionBanned, "the guide banned you from the chat and its questions");
    }
    if let Some(last) = state.question_book.last_asked.get(asker).filter(|last| now < **last + QUESTION_INTERVAL_MS) {
        return refuse(
            ErrorCode::QuestionRateLimited,
            format!("one question per {} seconds: wait until {}", QUESTION_INTERVAL_MS / 1000, last + QUESTION_INTERVAL_MS),
        );
    }
    if state.state_for_all.questions.len() >= MAX_QUESTIONS {
        return refuse(ErrorCode::QuestionLimit, format!("an appointment holds at most {MAX_QUESTIONS} questions"));
    }
    let attendee_name = state.participants.get(asker).and_then(|p| p.attendee_name.clone()).or_else(|| claims.name.clone());
    let question = Question {
        question_id: new_id(),
        attendee_id: asker.clone(),
        attendee_name,
        role: claims.role,
        text,
        asked_at: now,
        status: QuestionStatus::Open,
        votes: 0,
    };
    publish(Audience::Everyone, Event::QuestionAsked { question })
}

/// An up-vote (or its withdrawal), or why not: the question must be there, not one's own,
/// the presentation not ended. The same vote again is published too, and the reducer's set
/// of voters makes it one: in cluster mode the state decided on may not yet hold the
/// voter's last step (a withdrawal followed at once by a new up-vote), and skipping a vote
/// that looks the same would lose it.
pub fn vote_question(claims: &HubClaims, state: &LiveState, question_id: Id, voted: bool) -> Decision {
    if state.state_for_all.ended {
        return refuse(ErrorCode::PresentationEnded, "the presentation has ended");
    }
    let question = match find_question(state, &question_id) {
        Ok(question) => question,
        Err(refused) => return *refused,
    };
    if question.attendee_id == claims.sub {
        return refuse(ErrorCode::QuestionOwnVote, "one's own question cannot be up-voted");
    }
    let attendee_id = claims.sub.clone();
    publish(Audience::Attendee(attendee_id.clone()), Event::QuestionVoted { question_id, attendee_id, voted })
}

fn find_poll(state: &LiveState, poll_id: &str) -> Result<PollStatus, Box<Decision>> {
    state
        .state_for_all
        .polls
        .iter()
        .find(|p| p.poll_id == poll_id)
        .map(|p| p.status)
        .ok_or_else(|| Box::new(refuse(ErrorCode::PollNotFound, "no poll with that id")))
}

fn new_id() -> Id {
    format!("{:032x}", rand::random::<u128>())
}

/// A guide's new poll, a draft with ids the hub gives (checked by `Action::validate`).
fn create_poll(state: &LiveState, poll: NewPoll) -> Decision {
    if state.state_for_all.polls.len() >= MAX_POLLS {
        return refuse(ErrorCode::PollLimit, format!("an appointment holds at most {MAX_POLLS} polls"));
    }
    let answer_ids: Vec<Id> = poll.answers.iter().map(|_| new_id()).collect();
    publish(Audience::Everyone, Event::PollCreated { poll: poll.into_poll(new_id(), answer_ids) })
}

/// A vote, or why not. A changed one names the previous answers so that whoever is sent
/// it recounts. The same vote again is published too (the reducer recounts it to no
/// change): in cluster mode this replica may not have applied the voter's latest vote
/// yet, so a vote that only looks repeated here may be a change back (Red, Blue, Red).
pub fn vote(claims: &HubClaims, state: &LiveState, poll_id: Id, answer_ids: &[Id]) -> Decision {
    let poll = state.state_for_all.polls.iter().find(|p| p.poll_id == poll_id);
    let answer_ids = match check_vote(poll, answer_ids) {
        Ok(ids) => ids,
        Err(VoteProblem::UnknownPoll) => return refuse(ErrorCode::PollNotFound, "no poll with that id"),
        Err(VoteProblem::NotOpen) => return refuse(ErrorCode::PollClosed, "the poll is not open"),
        Err(VoteProblem::UnknownAnswer) => return refuse(ErrorCode::PollUnknownAnswer, "the poll has no such answer"),
        Err(VoteProblem::SingleChoice) => return refuse(ErrorCode::PollSingleChoice, "the poll takes one answer"),
    };
    let previous = state.poll_votes.get(&poll_id).and_then(|votes| votes.get(&claims.sub)).cloned().unwrap_or_default();
    let attendee_id = claims.sub.clone();
    let event = Event::PollVoted { poll_id, attendee_id: attendee_id.clone(), answer_ids, previous_answer_ids: previous };
    publish(Audience::Attendee(attendee_id), event)
}

/// Unix milliseconds now.
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// Whether a chat message may be posted, and the message. Length and emptiness apply to
/// everyone; the moderation (ban, time-out, closed chat, slow mode, rate, blocked words)
/// to attendees only: guides moderate. `now` is unix milliseconds.
pub fn chat(claims: &HubClaims, state: &LiveState, text: &str, now: u64) -> Decision {
    let text = match clean_chat_text(text) {
        Ok(text) => text,
        Err(TextProblem::Empty) => return refuse(ErrorCode::ChatEmpty, "the message is empty"),
        Err(TextProblem::TooLong) => return refuse(ErrorCode::ChatTooLong, "the message is over 500 characters"),
    };
    let sender = &claims.sub;
    if claims.role == Role::Client {
        let moderation = &state.chat_moderation;
        let settings = &state.state_for_all.chat.settings;
        if moderation.banned.contains(sender) {
            return refuse(ErrorCode::ChatBanned, "the guide banned you from the chat");
        }
        if let Some(until) = moderation.muted_until.get(sender).filter(|until| **until > now) {
            return refuse(ErrorCode::ChatMuted, format!("the guide timed you out of the chat until {until}"));
        }
        if settings.closed {
            return refuse(ErrorCode::ChatClosed, "the chat is closed");
        }
        let recent: Vec<u64> = moderation.post_times(sender).collect();
        let last = recent.last().copied();
        let slow_ms = u64::from(settings.slow_mode_seconds) * 1000;
        if let Some(last) = last.filter(|last| slow_ms > 0 && now < last + slow_ms) {
            return refuse(ErrorCode::ChatSlowMode, format!("slow mode: wait until {}", last + slow_ms));
        }
        let burst_start = (recent.len() >= CHAT_BURST).then(|| recent.first().copied()).flatten();
        if burst_start.is_some_and(|first| now < first + CHAT_BURST_WINDOW_MS) {
            return refuse(ErrorCode::ChatRateLimited, "too many messages; slow down");
        }
        if moderation.blocked_word_in(&text).is_some() {
            return refuse(ErrorCode::ChatBlockedWord, "the message holds a word the guide blocked");
        }
    }
    let attendee_name = state.participants.get(sender).and_then(|p| p.attendee_name.clone()).or_else(|| claims.name.clone());
    let message = ChatMessage {
        message_id: format!("{:032x}", rand::random::<u128>()),
        attendee_id: sender.clone(),
        attendee_name,
        role: claims.role,
        text,
        sent_at: now,
    };
    Decision::Chat(message)
}

fn interact(claims: &HubClaims, interaction: Interaction) -> Decision {
    let guide = claims.role == Role::Guide;
    if interaction.is_guide_only() && !guide {
        return refuse(ErrorCode::Forbidden, format!("only a guide may send {:?}", interaction.name()));
    }
    if let Err(invalid) = interaction.validate() {
        return refuse(ErrorCode::InvalidPayload, invalid);
    }
    match interaction {
        Interaction::GuideHovered(payload) => Decision::Volatile {
            audience: Audience::Everyone,
            event: VolatileEvent::GuideHovered { hovered_element_id: payload.hovered_element_id },
        },
        // The product a guide looks at is the one everyone is shown.
        Interaction::ProductViewed(p) if guide => {
            publish(Audience::Everyone, Event::GuideProductChanged { product_id: Some(p.product_id) })
        }
        Interaction::DynamicPageOpened(page) | Interaction::DynamicProductPageOpened(page) => {
            publish(Audience::Everyone, Event::DynamicPageOpened { page })
        }
        Interaction::DynamicPageClosed(p) => publish(Audience::Everyone, Event::DynamicPageClosed { page_id: p.page_id, all: p.all }),
        Interaction::BroadcastModeToggled(p) => publish(Audience::Everyone, Event::BroadcastModeChanged { active: p.active }),
        Interaction::ViewModeChanged(p) => publish(Audience::Everyone, Event::ViewModeChanged { mode: p.mode }),
        Interaction::ScreenSharingToggled(p) => publish(Audience::Everyone, Event::ScreenSharingChanged { active: p.active }),
        // Recorded by storefront-proxy's dsr/interaction endpoint; nothing live changes.
        Interaction::ProductViewed(_)
        | Interaction::KeepAlive(_)
        | Interaction::QuickviewOpened(_)
        | Interaction::QuickviewClosed(_)
        | Interaction::AttendeeLeave(_)
        | Interaction::RemoteCheckoutAccepted(_)
        | Interaction::RemoteCheckoutDenied(_)
        | Interaction::ProductLiked(_)
        | Interaction::ProductDisliked(_)
        | Interaction::ProductRemovedFromCollection(_)
        | Interaction::PageViewed(_) => Decision::Nothing,
    }
}

/// Merges a new name or video user id into the attendee's live entry, so that presence
/// and cart permission stay as they are now; nothing when the attendee is not in the
/// live list (never connected) or nothing changes.
fn profile(state: &LiveState, attendee_id: &str, attendee_name: Option<String>, video_user_id: Option<Option<String>>) -> Decision {
    let Some(current) = state.participants.get(attendee_id) else { return Decision::Nothing };
    let mut attendee = AttendeeSummary::clone(current);
    if let Some(name) = attendee_name {
        attendee.attendee_name = Some(name);
    }
    if let Some(video) = video_user_id {
        attendee.video_user_id = video;
    }
    if attendee == **current {
        return Decision::Nothing;
    }
    publish(Audience::Guides, Event::AttendeeChanged { attendee })
}

#[cfg(test)]
mod tests {
    use protocol::action::MAX_LISTING_PRODUCTS;
    use protocol::action::{
        DynamicPageClosedPayload, Empty, GuideHoveredPayload, PageViewedPayload, ProductPayload, TogglePayload, ViewModePayload,
    };
    use protocol::engagement::{ChatSettings, MAX_CHAT_MESSAGE_CHARS};
    use protocol::state::{DynamicPage, ViewMode};
    use protocol::{AttendeeStatus, ConnectionState};

    use super::*;

    /// The clock of these tests (unix milliseconds).
    const NOW: u64 = 1_800_000_000_000;

    const GUIDE: &str = "99999999999999999999999999999999";
    const ADA: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    const BOB: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
    const ID: &str = "0123456789abcdef0123456789abcdef";

    fn claims(sub: &str, role: Role) -> HubClaims {
        HubClaims { sub: sub.into(), apt: ID.into(), role, name: None, exp: u64::MAX }
    }

    /// An open poll, its one answer being [`ID`], in [`running`] (a draft poll [`ID`] is too).
    const OPEN_POLL: &str = "0000000000000000000000000000000f";

    fn running() -> LiveState {
        let mut state = LiveState::default();
        state.apply(&Event::PresentationStarted { started_at: "2026-01-05T10:00:00Z".into() });
        let new = || NewPoll { question: "Which?".into(), answers: vec!["A".into(), "B".into()], multiple: false, slide: None };
        state.apply(&Event::PollCreated { poll: new().into_poll(ID.into(), [BOB.into(), ADA.into()]) });
        state.apply(&Event::PollCreated { poll: new().into_poll(OPEN_POLL.into(), [ID.into(), BOB.into()]) });
        state.apply(&Event::PollOpened { poll_id: OPEN_POLL.into() });
        state.apply(&Event::QuestionAsked { question: bobs_question() });
        state
    }

    /// Bob's question [`QUESTION`] in [`running`].
    const QUESTION: &str = "000000000000000000000000000000e1";

    fn bobs_question() -> Question {
        Question {
            question_id: QUESTION.into(),
            attendee_id: BOB.into(),
            attendee_name: Some("Bob".into()),
            role: Role::Client,
            text: "Why?".into(),
            asked_at: 1,
            status: QuestionStatus::Open,
            votes: 0,
        }
    }

    fn ended() -> LiveState {
        let mut state = running();
        state.apply(&Event::PresentationEnded { ended_at: "2026-01-05T11:00:00Z".into() });
        state
    }

    fn as_guide(state: &LiveState, action: Action) -> Decision {
        decide(Caller::Participant(&claims(GUIDE, Role::Guide)), state, Request::Action(action), NOW)
    }

    fn as_client(state: &LiveState, action: Action) -> Decision {
        decide(Caller::Participant(&claims(ADA, Role::Client)), state, Request::Action(action), NOW)
    }

    fn code(decision: &Decision) -> Option<ErrorCode> {
        match decision {
            Decision::Refuse { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// One of each action, and each one's place: a new variant fails to compile in
    /// `index` until it is listed, and the coverage assertion fails until it is here.
    fn every_action() -> Vec<Action> {
        let id = || Some(BOB.to_owned());
        vec![
            Action::SwitchSlide { page_id: ID.into(), section_id: ID.into(), slide_alias: 2 },
            Action::LoadSlide { page_id: ID.into(), section_id: ID.into() },
            Action::LoadProductList {},
            Action::LoadListingProducts { page_id: ID.into(), section_id: ID.into() },
            Action::UpdateListingProducts { page_id: ID.into(), section_id: ID.into(), product_ids: vec![ID.into()] },
            Action::LoadCart { attendee_id: id() },
            Action::AddToCart { attendee_id: id(), product_id: ID.into(), quantity: 1 },
            Action::RemoveFromCart { attendee_id: id(), line_item_id: ID.into() },
            Action::UpdateProductQuantity { attendee_id: id(), line_item_id: ID.into(), quantity: 3 },
            Action::LoadLikeList { attendee_id: id() },
            Action::RemoveFromLikeList { attendee_id: id(), product_id: ID.into() },
            Action::LoadLastSeen { attendee_id: id() },
            Action::LoadProductReviews { product_id: ID.into() },
            Action::MuteAll { muted: true },
            Action::SetLocked { locked: true },
            Action::RequestCartPermission { attendee_id: BOB.into() },
            Action::SetCartPermission { granted: true },
            Action::SendChatMessage { text: "hello".into() },
            Action::DeleteChatMessage { message_id: ID.into() },
            Action::PinChatMessage { message_id: Some(ID.into()) },
            Action::SetChatSettings { settings: ChatSettings { closed: true, slow_mode_seconds: 5, links_allowed: false } },
            Action::SetChatBlockedWords { words: vec!["spam".into()] },
            Action::ModerateChatAttendee { attendee_id: BOB.into(), timeout_minutes: Some(5), banned: false },
            Action::SendReaction { reaction: Reaction::Heart },
            Action::CreatePoll {
                poll: NewPoll { question: "Q?".into(), answers: vec!["A".into(), "B".into()], multiple: true, slide: None },
            },
            Action::OpenPoll { poll_id: ID.into() },
            Action::ClosePoll { poll_id: ID.into() },
            Action::ShowPollResults { poll_id: ID.into(), shown: true },
            Action::VotePoll { poll_id: OPEN_POLL.into(), answer_ids: vec![ID.into()] },
            Action::AskQuestion { text: "hello?".into() },
            Action::VoteQuestion { question_id: QUESTION.into(), voted: true },
            Action::MarkQuestion { question_id: QUESTION.into(), status: QuestionStatus::Answering },
            Action::DismissQuestion { question_id: QUESTION.into() },
        ]
    }

    fn index(action: &Action) -> usize {
        match action {
            Action::SwitchSlide { .. } => 0,
            Action::LoadSlide { .. } => 1,
            Action::LoadProductList {} => 2,
            Action::LoadListingProducts { .. } => 3,
            Action::UpdateListingProducts { .. } => 4,
            Action::LoadCart { .. } => 5,
            Action::AddToCart { .. } => 6,
            Action::RemoveFromCart { .. } => 7,
            Action::UpdateProductQuantity { .. } => 8,
            Action::LoadLikeList { .. } => 9,
            Action::RemoveFromLikeList { .. } => 10,
            Action::LoadLastSeen { .. } => 11,
            Action::LoadProductReviews { .. } => 12,
            Action::MuteAll { .. } => 13,
            Action::SetLocked { .. } => 14,
            Action::RequestCartPermission { .. } => 15,
            Action::SetCartPermission { .. } => 16,
            Action::SendChatMessage { .. } => 17,
            Action::DeleteChatMessage { .. } => 18,
            Action::PinChatMessage { .. } => 19,
            Action::SetChatSettings { .. } => 20,
            Action::SetChatBlockedWords { .. } => 21,
            Action::ModerateChatAttendee { .. } => 22,
            Action::SendReaction { .. } => 23,
            Action::CreatePoll { .. } => 24,
            Action::OpenPoll { .. } => 25,
            Action::ClosePoll { .. } => 26,
            Action::ShowPollResults { .. } => 27,
            Action::VotePoll { .. } => 28,
            Action::AskQuestion { .. } => 29,
            Action::VoteQuestion { .. } => 30,
            Action::MarkQuestion { .. } => 31,
            Action::DismissQuestion { .. } => 32,
        }
    }

    fn joined(state: &mut LiveState, attendee_id: &str, role: Role) {
        let attendee = AttendeeSummary {
            attendee_id: attendee_id.into(),
            role,
            attendee_name: None,
            video_user_id: None,
            has_joined: true,
            status: AttendeeStatus::Joined,
            connection: ConnectionState::Lost,
            cart_permission: CartPermission::Missing,
            last_active_at: None,
        };
        state.apply(&Event::AttendeeChanged { attendee });
    }

    #[test]
    fn a_removed_attendee_is_turned_away_for_good() {
        let mut state = running();
        joined(&mut state, ADA, Role::Client);
        assert_eq!(admit(&claims(ADA, Role::Client), &state), Ok(()));
        state.apply(&Event::AttendeeRemoved { attendee_id: ADA.into() });
        let removed = Err(TurnedAway { close_code: close_code::REMOVED, reason: "removed from the appointment" });
        assert_eq!(admit(&claims(ADA, Role::Client), &state), removed);
        // Whatever comes after: an unlock, the end, another role in a forged-looking token.
        state.apply(&Event::LockChanged { locked: false });
        state.apply(&Event::PresentationEnded { ended_at: "2026-01-05T11:00:00Z".into() });
        assert_eq!(admit(&claims(ADA, Role::Client), &state), removed);
        assert_eq!(admit(&claims(ADA, Role::Guide), &state), removed);
        assert_eq!(admit(&claims(BOB, Role::Client), &state), Ok(()), "only Ada");
    }

    #[test]
    fn a_removal_ends_the_attendees_connections_and_nothing_else_does() {
        let removal = Event::AttendeeRemoved { attendee_id: ADA.into() };
        assert_eq!(ends_connections(&removal), Some((ADA, close_code::REMOVED)));
        assert_eq!(ends_connections(&Event::LockChanged { locked: true }), None, "a lock keeps who is in");
    }

    #[test]
    fn only_clients_are_rate_limited_and_only_their_reload_hints_coalesce() {
        assert!(is_rate_limited(Role::Client) && !is_rate_limited(Role::Guide));
        for action in every_action() {
            let hint = matches!(as_client(&running(), action.clone()), Decision::Publish { event: Event::Reload { .. }, .. });
            assert_eq!(coalesces(Role::Client, &action), hint, "{}", action.key());
            assert!(!coalesces(Role::Guide, &action), "{}", action.key());
        }
    }

    #[test]
    fn a_lock_keeps_out_clients_who_had_not_joined_before_it() {
        let mut state = running();
        joined(&mut state, ADA, Role::Client);
        state.apply(&Event::LockChanged { locked: true });
        let locked = Err(TurnedAway { close_code: close_code::LOCKED, reason: "the appointment is locked" });
        assert_eq!(admit(&claims(ADA, Role::Client), &state), Ok(()), "Ada had joined: she may come back");
        assert_eq!(admit(&claims(BOB, Role::Client), &state), locked, "Bob never connected");
        assert_eq!(admit(&claims(GUIDE, Role::Guide), &state), Ok(()), "guides always may");
        state.apply(&Event::LockChanged { locked: false });
        assert_eq!(admit(&claims(BOB, Role::Client), &state), Ok(()));
    }

    #[test]
    fn the_action_list_covers_every_action() {
        let mut seen: Vec<usize> = every_action().iter().map(index).collect();
        seen.sort();
        assert_eq!(seen, (0..33).collect::<Vec<_>>());
    }

    #[test]
    fn guide_only_actions_are_refused_to_clients_and_after_the_end() {
        for action in every_action().into_iter().filter(Action::is_guide_only) {
            let refused = as_client(&running(), action.clone());
            assert_eq!(code(&refused), Some(ErrorCode::Forbidden), "{}", action.key());
            assert_eq!(refused, refuse(ErrorCode::Forbidden, format!("only a guide may send {}", action.key())));
            assert_eq!(code(&as_guide(&ended(), action.clone())), Some(ErrorCode::PresentationEnded), "{}", action.key());
            assert!(matches!(as_guide(&running(), action.clone()), Decision::Publish { .. }), "{}", action.key());
            // A client is refused for its role even after the end.
            assert_eq!(code(&as_client(&ended(), action.clone())), Some(ErrorCode::Forbidden), "{}", action.key());
        }
    }

    #[test]
    fn attendee_actions_are_open_to_both_roles_even_after_the_end() {
        for action in every_action().into_iter().filter(|a| !a.is_guide_only()) {
            if matches!(action, Action::AskQuestion { .. } | Action::VoteQuestion { .. }) {
                // Questions are for the presentation: after its end they are refused.
                assert_eq!(code(&as_client(&running(), action.clone())), None, "{}", action.key());
                assert_eq!(code(&as_client(&ended(), action.clone())), Some(ErrorCode::PresentationEnded), "{}", action.key());
                assert_eq!(code(&as_guide(&ended(), action.clone())), Some(ErrorCode::PresentationEnded), "{}", action.key());
                continue;
            }
            for state in [running(), ended()] {
                assert_eq!(code(&as_guide(&state, action.clone())), None, "{}", action.key());
                assert_eq!(code(&as_client(&state, action.clone())), None, "{}", action.key());
            }
        }
    }

    #[test]
    fn room_wide_actions_go_to_everyone() {
        let state = running();
        let slide = as_guide(&state, Action::SwitchSlide { page_id: ID.into(), section_id: ID.into(), slide_alias: 2 });
        assert_eq!(slide, publish(Audience::Everyone, Event::SlideSwitched { page_id: ID.into(), section_id: ID.into(), slide_alias: 2 }));
        for action in &every_action()[1..5] {
            assert_eq!(as_guide(&state, action.clone()), publish(Audience::Everyone, Event::Reload { action: action.clone() }));
        }
        assert_eq!(as_guide(&state, Action::MuteAll { muted: true }), publish(Audience::Everyone, Event::MuteAllChanged { muted: true }));
        assert_eq!(
            as_guide(&state, Action::SetLocked { locked: false }),
            publish(Audience::Everyone, Event::LockChanged { locked: false })
        );
    }

    #[test]
    fn bad_ids_are_refused_as_invalid_payloads() {
        let state = running();
        let bad_slides = [
            Action::SwitchSlide { page_id: "nope".into(), section_id: ID.into(), slide_alias: 1 },
            Action::SwitchSlide { page_id: ID.into(), section_id: ID.to_uppercase(), slide_alias: 1 },
        ];
        for (action, field) in bad_slides.into_iter().zip(["pageId", "sectionId"]) {
            assert_eq!(as_guide(&state, action), refuse(ErrorCode::InvalidPayload, format!("{field} must be 32 lowercase hex characters")));
        }
        assert_eq!(
            as_guide(&state, Action::RequestCartPermission { attendee_id: "x".into() }),
            refuse(ErrorCode::InvalidPayload, "attendeeId must be 32 lowercase hex characters")
        );
    }

    #[test]
    fn a_guides_frames_are_validated_like_everyone_elses_and_nothing_is_published() {
        let state = running();
        let invalid = |decision: Decision| assert_eq!(code(&decision), Some(ErrorCode::InvalidPayload), "{decision:?}");
        let listing =
            |n: usize| Action::UpdateListingProducts { page_id: ID.into(), section_id: ID.into(), product_ids: vec![ID.into(); n] };
        assert!(matches!(as_guide(&state, listing(MAX_LISTING_PRODUCTS)), Decision::Publish { .. }));
        invalid(as_guide(&state, listing(MAX_LISTING_PRODUCTS + 1)));
        invalid(as_guide(&state, Action::LoadSlide { page_id: "../../etc".into(), section_id: ID.into() }));
        invalid(as_guide(&state, Action::LoadCart { attendee_id: Some("everyone".into()) }));
        invalid(as_client(&state, Action::AddToCart { attendee_id: None, product_id: "x".repeat(5000), quantity: 1 }));
        let by_guide =
            |interaction| decide(Caller::Participant(&claims(GUIDE, Role::Guide)), &state, Request::Interaction(interaction), NOW);
        let page = |page_type: &str| DynamicPage {
            page_id: ID.into(),
            page_type: page_type.into(),
            opened: true,
            position: None,
            product_id: None,
        };
        invalid(by_guide(Interaction::DynamicPageOpened(page(&"x".repeat(100_000)))));
        invalid(by_guide(Interaction::DynamicProductPageOpened(page("<img src=x onerror=alert(1)>"))));
        invalid(by_guide(Interaction::GuideHovered(GuideHoveredPayload { hovered_element_id: Some("#app".into()) })));
        invalid(by_guide(Interaction::ProductViewed(ProductPayload { product_id: "nope".into() })));
        // A client's bad frame is still refused for its role first.
        assert_eq!(code(&as_client(&state, listing(MAX_LISTING_PRODUCTS + 1))), Some(ErrorCode::Forbidden));
    }

    #[test]
    fn an_attendee_action_goes_to_the_attendee_a_guide_names_and_a_client_always_to_itself() {
        let state = running();
        for action in every_action().into_iter().filter(|a| !a.is_guide_only()) {
            let (as_guide, as_client) = (as_guide(&state, action.clone()), as_client(&state, action.clone()));
            match action {
                Action::LoadProductReviews { .. } => {
                    assert_eq!((as_guide, as_client), (Decision::Nothing, Decision::Nothing));
                }
                Action::SetCartPermission { .. } => {
                    // Always the sender's own permission.
                    let granted = |id: &str| {
                        publish(
                            Audience::Attendee(id.into()),
                            Event::CartPermissionChanged { attendee_id: id.into(), permission: CartPermission::Granted },
                        )
                    };
                    assert_eq!((as_guide, as_client), (granted(GUIDE), granted(ADA)));
                }
                Action::SendChatMessage { .. } => {
                    // Always the sender's own message, for the room's next batch (to everyone).
                    for (decision, sender) in [(as_guide, GUIDE), (as_client, ADA)] {
                        let Decision::Chat(message) = decision else { panic!("{decision:?}") };
                        assert_eq!((message.attendee_id.as_str(), message.text.as_str()), (sender, "hello"));
                    }
                }
                Action::SendReaction { reaction } => {
                    assert_eq!((as_guide, as_client), (Decision::React(reaction), Decision::React(reaction)));
                }
                Action::VotePoll { poll_id, answer_ids } => {
                    // Always the voter's own vote, to the voter (and the guides).
                    for (decision, voter) in [(as_guide, GUIDE), (as_client, ADA)] {
                        let event = Event::PollVoted {
                            poll_id: poll_id.clone(),
                            attendee_id: voter.into(),
                            answer_ids: answer_ids.clone(),
                            previous_answer_ids: vec![],
                        };
                        assert_eq!(decision, publish(Audience::Attendee(voter.into()), event));
                    }
                }
                Action::AskQuestion { .. } => {
                    // Always the asker's own question, to everyone.
                    for (decision, asker) in [(as_guide, GUIDE), (as_client, ADA)] {
                        let Decision::Publish { audience: Audience::Everyone, event: Event::QuestionAsked { question } } = decision else {
                            panic!("{decision:?}")
                        };
                        assert_eq!((question.attendee_id.as_str(), question.text.as_str(), question.votes), (asker, "hello?", 0));
                    }
                }
                Action::VoteQuestion { question_id, voted } => {
                    // Always the voter's own up-vote, to the voter (and the guides).
                    for (decision, voter) in [(as_guide, GUIDE), (as_client, ADA)] {
                        let event = Event::QuestionVoted { question_id: question_id.clone(), attendee_id: voter.into(), voted };
                        assert_eq!(decision, publish(Audience::Attendee(voter.into()), event));
                    }
                }
                _ => {
                    // The action names Bob: the guide's goes to Bob, Ada's to Ada.
                    assert_eq!(as_guide, publish(Audience::Attendee(BOB.into()), Event::Reload { action: action.clone() }));
                    assert_eq!(as_client, publish(Audience::Attendee(ADA.into()), Event::Reload { action: action.clone() }));
                }
            }
        }
        // A guide who names nobody acts for itself.
        let own = as_guide(&state, Action::LoadCart { attendee_id: None });
        assert_eq!(own, publish(Audience::Attendee(GUIDE.into()), Event::Reload { action: Action::LoadCart { attendee_id: None } }));
    }

    #[test]
    fn cart_permission_is_requested_of_the_attendee_and_a_no_is_refused_not_missing() {
        let state = running();
        let requested = as_guide(&state, Action::RequestCartPermission { attendee_id: BOB.into() });
        assert_eq!(
            requested,
            publish(
                Audience::Attendee(BOB.into()),
                Event::CartPermissionChanged { attendee_id: BOB.into(), permission: CartPermission::Requested }
            )
        );
        let no = as_client(&state, Action::SetCartPermission { granted: false });
        assert_eq!(
            no,
            publish(
                Audience::Attendee(ADA.into()),
                Event::CartPermissionChanged { attendee_id: ADA.into(), permission: CartPermission::Refused }
            )
        );
    }

    fn every_interaction() -> Vec<Interaction> {
        let product = || ProductPayload { product_id: ID.into() };
        let page = || DynamicPage { page_id: ID.into(), page_type: "product".into(), opened: true, position: None, product_id: None };
        vec![
            Interaction::KeepAlive(Empty {}),
            Interaction::QuickviewOpened(Empty {}),
            Interaction::QuickviewClosed(Empty {}),
            Interaction::AttendeeLeave(Empty {}),
            Interaction::RemoteCheckoutAccepted(Empty {}),
            Interaction::RemoteCheckoutDenied(Empty {}),
            Interaction::ProductViewed(product()),
            Interaction::ProductLiked(product()),
            Interaction::ProductDisliked(product()),
            Interaction::ProductRemovedFromCollection(product()),
            Interaction::DynamicPageOpened(page()),
            Interaction::DynamicPageClosed(DynamicPageClosedPayload { page_id: Some(ID.into()), all: false }),
            Interaction::DynamicProductPageOpened(page()),
            Interaction::PageViewed(PageViewedPayload { page_id: ID.into(), section_id: ID.into(), slide_alias: 1, page_number: None }),
            Interaction::GuideHovered(GuideHoveredPayload { hovered_element_id: Some(ID.into()) }),
            Interaction::BroadcastModeToggled(TogglePayload { active: true }),
            Interaction::ViewModeChanged(ViewModePayload { mode: ViewMode::VideoGrid }),
            Interaction::ScreenSharingToggled(TogglePayload { active: true }),
        ]
    }

    /// What a guide's interaction makes; a new interaction fails to compile here.
    fn expected_for_guide(interaction: &Interaction) -> Decision {
        let page = || DynamicPage { page_id: ID.into(), page_type: "product".into(), opened: true, position: None, product_id: None };
        match interaction {
            Interaction::KeepAlive(_)
            | Interaction::QuickviewOpened(_)
            | Interaction::QuickviewClosed(_)
            | Interaction::AttendeeLeave(_)
            | Interaction::RemoteCheckoutAccepted(_)
            | Interaction::RemoteCheckoutDenied(_)
            | Interaction::ProductLiked(_)
            | Interaction::ProductDisliked(_)
            | Interaction::ProductRemovedFromCollection(_)
            | Interaction::PageViewed(_) => Decision::Nothing,
            Interaction::ProductViewed(_) => publish(Audience::Everyone, Event::GuideProductChanged { product_id: Some(ID.into()) }),
            Interaction::DynamicPageOpened(_) | Interaction::DynamicProductPageOpened(_) => {
                publish(Audience::Everyone, Event::DynamicPageOpened { page: page() })
            }
            Interaction::DynamicPageClosed(_) => {
                publish(Audience::Everyone, Event::DynamicPageClosed { page_id: Some(ID.into()), all: false })
            }
            Interaction::GuideHovered(_) => Decision::Volatile {
                audience: Audience::Everyone,
                event: VolatileEvent::GuideHovered { hovered_element_id: Some(ID.into()) },
            },
            Interaction::BroadcastModeToggled(_) => publish(Audience::Everyone, Event::BroadcastModeChanged { active: true }),
            Interaction::ViewModeChanged(_) => publish(Audience::Everyone, Event::ViewModeChanged { mode: ViewMode::VideoGrid }),
            Interaction::ScreenSharingToggled(_) => publish(Audience::Everyone, Event::ScreenSharingChanged { active: true }),
        }
    }

    #[test]
    fn every_interaction_makes_what_it_should_for_a_guide_and_a_client() {
        let interactions = every_interaction();
        let mut names: Vec<String> = interactions.iter().map(|i| format!("{:?}", i.name())).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 18, "one of each interaction");
        let guide = claims(GUIDE, Role::Guide);
        let client = claims(ADA, Role::Client);
        for interaction in interactions {
            for state in [running(), ended()] {
                let by_guide = decide(Caller::Participant(&guide), &state, Request::Interaction(interaction.clone()), NOW);
                assert_eq!(by_guide, expected_for_guide(&interaction), "{:?}", interaction.name());
                let by_client = decide(Caller::Participant(&client), &state, Request::Interaction(interaction.clone()), NOW);
                let expected = if interaction.is_guide_only() {
                    refuse(ErrorCode::Forbidden, format!("only a guide may send {:?}", interaction.name()))
                } else {
                    // A client's product view is recorded by the shop, and moves nobody.
                    Decision::Nothing
                };
                assert_eq!(by_client, expected, "{:?}", interaction.name());
            }
        }
    }

    #[test]
    fn the_shop_publishes_as_asked_and_participants_cannot() {
        let state = running();
        let event = Event::AttendeeRemoved { attendee_id: BOB.into() };
        let request = Request::Publish { audience: Audience::Guides, event: event.clone() };
        assert_eq!(decide(Caller::Shop, &ended(), request.clone(), NOW), publish(Audience::Guides, event));
        let guide = claims(GUIDE, Role::Guide);
        assert_eq!(code(&decide(Caller::Participant(&guide), &state, request, NOW)), Some(ErrorCode::Forbidden));
        assert_eq!(
            code(&decide(Caller::Shop, &state, Request::Action(Action::SetLocked { locked: true }), NOW)),
            Some(ErrorCode::Forbidden)
        );
    }

    #[test]
    fn a_profile_change_merges_into_the_live_entry_and_skips_what_changes_nothing() {
        let mut state = running();
        let entry = AttendeeSummary {
            attendee_id: ADA.into(),
            role: Role::Client,
            attendee_name: Some("Ada".into()),
            video_user_id: Some("v1".into()),
            has_joined: true,
            status: AttendeeStatus::Joined,
            connection: ConnectionState::Connected,
            cart_permission: CartPermission::Granted,
            last_active_at: None,
        };
        state.apply(&Event::AttendeeChanged { attendee: entry.clone() });
        let profile = |attendee_id: &str, attendee_name: Option<&str>, video_user_id: Option<Option<&str>>| {
            let request = Request::Profile {
                attendee_id: attendee_id.into(),
                attendee_name: attendee_name.map(Into::into),
                video_user_id: video_user_id.map(|v| v.map(Into::into)),
            };
            decide(Caller::Shop, &state, request, NOW)
        };
        let renamed = AttendeeSummary { attendee_name: Some("Ada L.".into()), video_user_id: None, ..entry.clone() };
        assert_eq!(profile(ADA, Some("Ada L."), Some(None)), publish(Audience::Guides, Event::AttendeeChanged { attendee: renamed }));
        assert_eq!(profile(ADA, Some("Ada"), None), Decision::Nothing, "nothing changes");
        assert_eq!(profile(BOB, Some("Bob"), None), Decision::Nothing, "not in the live list");
    }

    fn chat_code(state: &LiveState, sender: &str, role: Role, text: &str, now: u64) -> Option<ErrorCode> {
        code(&chat(&claims(sender, role), state, text, now))
    }

    fn posted(state: &mut LiveState, sender: &str, role: Role, text: &str, now: u64) {
        match chat(&claims(sender, role), state, text, now) {
            Decision::Chat(message) => state.apply(&Event::ChatMessagesPosted { messages: vec![message] }),
            other => panic!("not posted: {other:?}"),
        }
    }

    fn moderated(state: &mut LiveState, action: Action) {
        match as_guide(state, action) {
            Decision::Publish { event, .. } => state.apply(&event),
            other => panic!("not published: {other:?}"),
        }
    }

    #[test]
    fn chat_text_is_refused_when_empty_or_too_long_for_everyone() {
        let state = running();
        for role in [Role::Client, Role::Guide] {
            assert_eq!(chat_code(&state, ADA, role, "   \n ", 0), Some(ErrorCode::ChatEmpty));
            assert_eq!(chat_code(&state, ADA, role, "\u{202e}", 0), Some(ErrorCode::ChatEmpty));
            assert_eq!(chat_code(&state, ADA, role, &"x".repeat(MAX_CHAT_MESSAGE_CHARS + 1), 0), Some(ErrorCode::ChatTooLong));
            assert_eq!(chat_code(&state, ADA, role, &"<".repeat(10 * 1024), 0), Some(ErrorCode::ChatTooLong));
            assert_eq!(chat_code(&state, ADA, role, &"x".repeat(MAX_CHAT_MESSAGE_CHARS), 0), None);
        }
    }

    #[test]
    fn a_ban_a_time_out_a_closed_chat_and_blocked_words_refuse_attendees_but_not_guides() {
        let now = 1_000_000;
        let mut state = running();
        moderated(&mut state, Action::ModerateChatAttendee { attendee_id: ADA.into(), timeout_minutes: Some(2), banned: false });
        let muted_until = state.chat_moderation.muted_until[ADA];
        assert_eq!(muted_until, NOW + 120_000);
        assert_eq!(chat_code(&state, ADA, Role::Client, "hi", muted_until - 1), Some(ErrorCode::ChatMuted));
        assert_eq!(chat_code(&state, ADA, Role::Client, "hi", muted_until), None, "the time-out ends");
        assert_eq!(chat_code(&state, BOB, Role::Client, "hi", now), None, "only Ada is timed out");
        moderated(&mut state, Action::ModerateChatAttendee { attendee_id: ADA.into(), timeout_minutes: None, banned: true });
        assert_eq!(chat_code(&state, ADA, Role::Client, "hi", now), Some(ErrorCode::ChatBanned));
        moderated(&mut state, Action::ModerateChatAttendee { attendee_id: ADA.into(), timeout_minutes: None, banned: false });
        assert_eq!(chat_code(&state, ADA, Role::Client, "hi", now), None, "the ban is lifted");

        moderated(&mut state, Action::SetChatBlockedWords { words: vec![" Spam ".into()] });
        assert_eq!(state.chat_moderation.blocked_words, vec!["Spam".to_owned()]);
        assert_eq!(chat_code(&state, ADA, Role::Client, "cheap SPAM here", now), Some(ErrorCode::ChatBlockedWord));
        assert_eq!(chat_code(&state, GUIDE, Role::Guide, "no spam please", now), None);

        let settings = ChatSettings { closed: true, slow_mode_seconds: 0, links_allowed: false };
        moderated(&mut state, Action::SetChatSettings { settings });
        assert_eq!(chat_code(&state, ADA, Role::Client, "hi", now), Some(ErrorCode::ChatClosed));
        assert_eq!(chat_code(&state, GUIDE, Role::Guide, "hi", now), None, "a guide speaks in a closed chat");
    }

    #[test]
    fn slow_mode_and_the_chat_rate_hold_each_attendee_apart() {
        let mut state = running();
        let t = 5_000_000;
        for i in 0..5 {
            posted(&mut state, ADA, Role::Client, "hi", t + i * 100);
        }
        assert_eq!(chat_code(&state, ADA, Role::Client, "hi", t + 500), Some(ErrorCode::ChatRateLimited));
        assert_eq!(chat_code(&state, ADA, Role::Client, "hi", t + 10_000), None, "the window has passed");
        assert_eq!(chat_code(&state, BOB, Role::Client, "hi", t + 500), None, "per attendee");
        for i in 0..10 {
            posted(&mut state, GUIDE, Role::Guide, "hi", t + i);
        }
        moderated(&mut state, Action::SetChatSettings { settings: ChatSettings { slow_mode_seconds: 30, ..Default::default() } });
        assert_eq!(chat_code(&state, ADA, Role::Client, "hi", t + 20_000), Some(ErrorCode::ChatSlowMode));
        assert_eq!(chat_code(&state, ADA, Role::Client, "hi", t + 400 + 30_000), None);
        posted(&mut state, BOB, Role::Client, "first", t + 40_000);
        assert_eq!(chat_code(&state, BOB, Role::Client, "second", t + 40_001), Some(ErrorCode::ChatSlowMode));
        assert_eq!(chat_code(&state, GUIDE, Role::Guide, "hi", t + 1), None, "guides are not slowed");
    }

    #[test]
    fn moderation_is_the_guides_only() {
        let state = running();
        let moderation = [
            Action::DeleteChatMessage { message_id: ID.into() },
            Action::PinChatMessage { message_id: None },
            Action::SetChatSettings { settings: ChatSettings::default() },
            Action::SetChatBlockedWords { words: vec![] },
            Action::ModerateChatAttendee { attendee_id: BOB.into(), timeout_minutes: None, banned: true },
        ];
        for action in moderation {
            assert!(action.is_guide_only(), "{}", action.key());
            assert_eq!(code(&as_client(&state, action.clone())), Some(ErrorCode::Forbidden), "{}", action.key());
        }
        let invalid = |action| code(&as_guide(&state, action));
        let timeout = |minutes| Action::ModerateChatAttendee { attendee_id: BOB.into(), timeout_minutes: Some(minutes), banned: false };
        assert_eq!(invalid(timeout(0)), Some(ErrorCode::InvalidPayload));
        assert_eq!(invalid(timeout(1441)), Some(ErrorCode::InvalidPayload));
        assert_eq!(invalid(Action::SetChatBlockedWords { words: vec!["x".repeat(41)] }), Some(ErrorCode::InvalidPayload));
        assert_eq!(invalid(Action::SetChatBlockedWords { words: vec!["w".into(); 201] }), Some(ErrorCode::InvalidPayload));
        let slow = Action::SetChatSettings { settings: ChatSettings { slow_mode_seconds: 3601, ..Default::default() } };
        assert_eq!(invalid(slow), Some(ErrorCode::InvalidPayload));
        // A time-out goes to the attendee concerned (and the guides); the words to guides only.
        assert!(matches!(as_guide(&state, timeout(3)), Decision::Publish { audience: Audience::Attendee(id), .. } if id == BOB));
        let words = as_guide(&state, Action::SetChatBlockedWords { words: vec!["x".into()] });
        assert!(matches!(words, Decision::Publish { audience: Audience::Guides, .. }));
    }

    #[test]
    fn a_message_carries_the_live_name_and_the_cleaned_text() {
        let mut state = running();
        joined(&mut state, ADA, Role::Client);
        let Decision::Chat(message) = chat(&claims(ADA, Role::Client), &state, " \u{202e}<b>hi</b> ", 42) else { panic!("not posted") };
        assert_eq!(message.text, "<b>hi</b>");
        assert_eq!(message.sent_at, 42);
        assert_eq!(message.attendee_name, state.participants[ADA].attendee_name);
        assert!(protocol::state::is_id(&message.message_id));
    }
}

#[cfg(test)]
mod poll_tests {
    use protocol::action::Action;
    use protocol::engagement::polls::{NewPoll, PollStatus, MAX_POLLS};
    use protocol::frame::{ErrorCode, Event};
    use protocol::internal::Audience;
    use protocol::live_state::LiveState;
    use protocol::{HubClaims, Role};

    use super::{decide, Caller, Decision, Request};

    /// The clock of these tests (unix milliseconds).
    const NOW: u64 = 1_800_000_000_000;

    const GUIDE: &str = "9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a";
    const ADA: &str = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1";

    fn claims(sub: &str, role: Role) -> HubClaims {
        HubClaims { sub: sub.into(), apt: "0123456789abcdef0123456789abcdef".into(), role, name: None, exp: u64::MAX }
    }

    fn run(state: &mut LiveState, sub: &str, role: Role, action: Action) -> Decision {
        let decision = decide(Caller::Participant(&claims(sub, role)), state, Request::Action(action), NOW);
        if let Decision::Publish { event, .. } = &decision {
            state.apply(event);
        }
        decision
    }

    fn code(decision: &Decision) -> Option<ErrorCode> {
        match decision {
            Decision::Refuse { code, .. } => Some(*code),
            _ => None,
        }
    }

    fn new_poll(multiple: bool) -> NewPoll {
        NewPoll { question: "Colour?".into(), answers: vec!["Red".into(), "Blue".into()], multiple, slide: None }
    }

    #[test]
    fn a_poll_is_the_guides_to_run_and_refuses_votes_it_cannot_take() {
        let mut state = LiveState::default();
        let by_client = run(&mut state, ADA, Role::Client, Action::CreatePoll { poll: new_poll(false) });
        assert_eq!(code(&by_client), Some(ErrorCode::Forbidden));
        let too_short = NewPoll { answers: vec!["Red".into()], ..new_poll(false) };
        assert_eq!(code(&run(&mut state, GUIDE, Role::Guide, Action::CreatePoll { poll: too_short })), Some(ErrorCode::InvalidPayload));
        run(&mut state, GUIDE, Role::Guide, Action::CreatePoll { poll: new_poll(false) });
        let poll = state.state_for_all.polls[0].clone();
        let (red, blue) = (poll.answers[0].answer_id.clone(), poll.answers[1].answer_id.clone());
        let vote = |ids: Vec<String>| Action::VotePoll { poll_id: poll.poll_id.clone(), answer_ids: ids };
        assert_eq!(code(&run(&mut state, ADA, Role::Client, vote(vec![red.clone()]))), Some(ErrorCode::PollClosed), "a draft");
        for action in [Action::OpenPoll { poll_id: poll.poll_id.clone() }, Action::ClosePoll { poll_id: poll.poll_id.clone() }] {
            assert_eq!(code(&run(&mut state, ADA, Role::Client, action)), Some(ErrorCode::Forbidden));
        }
        run(&mut state, GUIDE, Role::Guide, Action::OpenPoll { poll_id: poll.poll_id.clone() });
        assert_eq!(state.state_for_all.polls[0].status, PollStatus::Open);
        assert_eq!(code(&run(&mut state, ADA, Role::Client, vote(vec!["f".repeat(32)]))), Some(ErrorCode::PollUnknownAnswer));
        assert_eq!(code(&run(&mut state, ADA, Role::Client, vote(vec![red.clone(), blue.clone()]))), Some(ErrorCode::PollSingleChoice));
        let unknown = Action::VotePoll { poll_id: "e".repeat(32), answer_ids: vec![red.clone()] };
        assert_eq!(code(&run(&mut state, ADA, Role::Client, unknown)), Some(ErrorCode::PollNotFound));
        let first = run(&mut state, ADA, Role::Client, vote(vec![red.clone()]));
        assert!(matches!(first, Decision::Publish { audience: Audience::Attendee(ref id), .. } if id == ADA));
        let again = run(&mut state, ADA, Role::Client, vote(vec![red.clone()]));
        assert!(matches!(again, Decision::Publish { .. }), "the same vote again is ordered (a replica may be behind)");
        assert_eq!(state.state_for_all.polls[0].counts, vec![1, 0], "and changes no count");
        assert_eq!(state.state_for_all.polls[0].voters, 1);
        let changed = run(&mut state, ADA, Role::Client, vote(vec![blue.clone()]));
        assert!(
            matches!(changed, Decision::Publish { event: Event::PollVoted { ref previous_answer_ids, .. }, .. } if *previous_answer_ids == vec![red.clone()])
        );
        assert_eq!(state.state_for_all.polls[0].counts, vec![0, 1]);
        assert_eq!(state.state_for_clients_of(ADA).poll_votes[&poll.poll_id], vec![blue.clone()]);
        let closed = run(&mut state, GUIDE, Role::Guide, Action::ClosePoll { poll_id: poll.poll_id.clone() });
        assert!(
            matches!(closed, Decision::Publish { event: Event::PollClosed { ref counts, voters: 1, .. }, .. } if *counts == vec![0, 1])
        );
        assert_eq!(code(&run(&mut state, ADA, Role::Client, vote(vec![red.clone()]))), Some(ErrorCode::PollClosed));
        assert_eq!(code(&run(&mut state, GUIDE, Role::Guide, Action::OpenPoll { poll_id: "e".repeat(32) })), Some(ErrorCode::PollNotFound));
    }

    #[test]
    fn an_appointment_holds_a_bounded_number_of_polls() {
        let mut state = LiveState::default();
        for _ in 0..MAX_POLLS {
            run(&mut state, GUIDE, Role::Guide, Action::CreatePoll { poll: new_poll(true) });
        }
        assert_eq!(code(&run(&mut state, GUIDE, Role::Guide, Action::CreatePoll { poll: new_poll(true) })), Some(ErrorCode::PollLimit));
    }
}

#[cfg(test)]
mod question_tests {
    use protocol::action::Action;
    use protocol::engagement::questions::{QuestionStatus, MAX_QUESTIONS, QUESTION_INTERVAL_MS};
    use protocol::frame::{ErrorCode, Event};
    use protocol::internal::Audience;
    use protocol::live_state::LiveState;
    use protocol::{HubClaims, Role};

    use super::{ask, decide, Caller, Decision, Request};

    /// The clock of these tests (unix milliseconds).
    const NOW: u64 = 1_800_000_000_000;

    const GUIDE: &str = "9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a";
    const ADA: &str = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1";
    const BOB: &str = "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2";

    fn claims(sub: &str, role: Role) -> HubClaims {
        HubClaims { sub: sub.into(), apt: "0123456789abcdef0123456789abcdef".into(), role, name: Some(sub[..3].into()), exp: u64::MAX }
    }

    fn apply(state: &mut LiveState, decision: Decision) -> Decision {
        if let Decision::Publish { event, .. } = &decision {
            state.apply(event);
        }
        decision
    }

    fn run(state: &mut LiveState, sub: &str, role: Role, action: Action) -> Decision {
        let decision = decide(Caller::Participant(&claims(sub, role)), state, Request::Action(action), NOW);
        apply(state, decision)
    }

    fn ask_at(state: &mut LiveState, sub: &str, text: &str, now: u64) -> Decision {
        let decision = ask(&claims(sub, Role::Client), state, text, now);
        apply(state, decision)
    }

    fn code(decision: &Decision) -> Option<ErrorCode> {
        match decision {
            Decision::Refuse { code, .. } => Some(*code),
            _ => None,
        }
    }

    #[test]
    fn a_question_is_refused_for_its_text_the_rate_a_ban_and_the_end() {
        let mut state = LiveState::default();
        assert_eq!(code(&ask_at(&mut state, ADA, " \u{202E} \n", 1_000)), Some(ErrorCode::QuestionEmpty));
        assert_eq!(code(&ask_at(&mut state, ADA, &"x".repeat(301), 1_000)), Some(ErrorCode::QuestionTooLong));
        assert_eq!(code(&ask_at(&mut state, ADA, &"<b>".repeat(3_414), 1_000)), Some(ErrorCode::QuestionTooLong), "10 kB");
        let asked = ask_at(&mut state, ADA, " <script>alert(1)</script>\u{202E} ", 1_000);
        let Decision::Publish { audience: Audience::Everyone, event: Event::QuestionAsked { question } } = asked else {
            panic!("{asked:?}")
        };
        assert_eq!((question.text.as_str(), question.attendee_name.as_deref()), ("<script>alert(1)</script>", Some("a1a")));
        assert_eq!(code(&ask_at(&mut state, ADA, "again", 1_000 + QUESTION_INTERVAL_MS - 1)), Some(ErrorCode::QuestionRateLimited));
        assert_eq!(code(&ask_at(&mut state, BOB, "mine", 1_001)), None, "the rate is per attendee");
        assert_eq!(code(&ask_at(&mut state, ADA, "again", 1_000 + QUESTION_INTERVAL_MS)), None);
        state.apply(&Event::ChatAttendeeModerated { attendee_id: BOB.into(), muted_until: None, banned: true });
        assert_eq!(code(&ask_at(&mut state, BOB, "banned", 1_000_000)), Some(ErrorCode::QuestionBanned));
        state.apply(&Event::PresentationEnded { ended_at: "2026-01-05T11:00:00Z".into() });
        assert_eq!(code(&ask_at(&mut state, ADA, "late", 9_000_000)), Some(ErrorCode::PresentationEnded));
        assert_eq!(state.state_for_all.questions.len(), 3, "nothing refused was kept");
    }

    #[test]
    fn up_votes_are_once_each_never_ones_own_and_may_be_withdrawn() {
        let mut state = LiveState::default();
        ask_at(&mut state, ADA, "Does it fit?", 1);
        let id = state.state_for_all.questions[0].question_id.clone();
        let vote = |voted| Action::VoteQuestion { question_id: id.clone(), voted };
        assert_eq!(code(&run(&mut state, ADA, Role::Client, vote(true))), Some(ErrorCode::QuestionOwnVote));
        let unknown = Action::VoteQuestion { question_id: "e".repeat(32), voted: true };
        assert_eq!(code(&run(&mut state, BOB, Role::Client, unknown)), Some(ErrorCode::QuestionNotFound));
        let first = run(&mut state, BOB, Role::Client, vote(true));
        assert!(matches!(first, Decision::Publish { audience: Audience::Attendee(ref to), .. } if to == BOB));
        run(&mut state, BOB, Role::Client, vote(true));
        assert_eq!(state.state_for_all.questions[0].votes, 1, "once each");
        assert_eq!(state.state_for_clients_of(BOB).question_votes, vec![id.clone()]);
        assert!(state.state_for_clients_of(ADA).question_votes.is_empty());
        run(&mut state, BOB, Role::Client, vote(false));
        run(&mut state, BOB, Role::Client, vote(false));
        assert_eq!(state.state_for_all.questions[0].votes, 0);
        // A vote decided twice (two replicas) is still one.
        let twice = Event::QuestionVoted { question_id: id.clone(), attendee_id: GUIDE.into(), voted: true };
        state.apply(&twice);
        state.apply(&twice);
        assert_eq!(state.state_for_all.questions[0].votes, 1);
    }

    #[test]
    fn the_guide_marks_one_question_answering_at_a_time_answers_and_dismisses() {
        let mut state = LiveState::default();
        ask_at(&mut state, ADA, "one", 1);
        ask_at(&mut state, BOB, "two", 2);
        let ids: Vec<String> = state.state_for_all.questions.iter().map(|q| q.question_id.clone()).collect();
        let mark = |i: usize, status| Action::MarkQuestion { question_id: ids[i].clone(), status };
        for action in [mark(0, QuestionStatus::Answering), Action::DismissQuestion { question_id: ids[0].clone() }] {
            assert_eq!(code(&run(&mut state, ADA, Role::Client, action)), Some(ErrorCode::Forbidden), "non-guide moderating");
        }
        run(&mut state, GUIDE, Role::Guide, mark(0, QuestionStatus::Answering));
        assert_eq!(run(&mut state, GUIDE, Role::Guide, mark(0, QuestionStatus::Answering)), Decision::Nothing);
        run(&mut state, GUIDE, Role::Guide, mark(1, QuestionStatus::Answering));
        let statuses = |state: &LiveState| state.state_for_all.questions.iter().map(|q| q.status).collect::<Vec<_>>();
        assert_eq!(statuses(&state), [QuestionStatus::Open, QuestionStatus::Answering], "at most one at a time");
        run(&mut state, GUIDE, Role::Guide, mark(1, QuestionStatus::Answered));
        assert_eq!(statuses(&state), [QuestionStatus::Open, QuestionStatus::Answered]);
        run(&mut state, GUIDE, Role::Guide, Action::DismissQuestion { question_id: ids[0].clone() });
        assert_eq!(state.state_for_all.questions.len(), 1);
        for action in [mark(0, QuestionStatus::Answered), Action::DismissQuestion { question_id: ids[0].clone() }] {
            assert_eq!(code(&run(&mut state, GUIDE, Role::Guide, action)), Some(ErrorCode::QuestionNotFound));
        }
        let bad = Action::MarkQuestion { question_id: "not an id".into(), status: QuestionStatus::Open };
        assert_eq!(code(&run(&mut state, GUIDE, Role::Guide, bad)), Some(ErrorCode::InvalidPayload));
    }

    #[test]
    fn an_appointment_holds_a_bounded_number_of_questions() {
        let mut state = LiveState::default();
        for i in 0..MAX_QUESTIONS {
            let asker = format!("{i:032x}");
            assert_eq!(code(&ask_at(&mut state, &asker, "q", 1)), None);
        }
        assert_eq!(code(&ask_at(&mut state, ADA, "one more", 1)), Some(ErrorCode::QuestionLimit));
        let first = state.state_for_all.questions[0].question_id.clone();
        run(&mut state, GUIDE, Role::Guide, Action::DismissQuestion { question_id: first });
        assert_eq!(code(&ask_at(&mut state, ADA, "one more", 1)), None, "a dismissal makes room");
    }
}
