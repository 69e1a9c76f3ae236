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
    clean_question_text, Question, QuestionStatus, MAX_QUESTIONS, MAX_QUESTION_CHARS,
    QUESTION_INTERVAL_MS,
};
use protocol::engagement::{
    clean_chat_text, ChatMessage, Reaction, TextProblem, CHAT_BURST, CHAT_BURST_WINDOW_MS,
};
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
    Profile {
        attendee_id: Id,
        attendee_name: Option<String>,
        video_user_id: Option<Option<String>>,
    },
}

/// What the room is to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Give the event the next sequence number and send it to `audience`.
    Publish { audience: Audience, event: Event },
    /// Send the event now to `audience`; it has no place in the order and may be dropped.
    Volatile {
        audience: Audience,
        event: VolatileEvent,
    },
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
    Decision::Refuse {
        code,
        message: message.into(),
    }
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
        return Err(TurnedAway {
            close_code: close_code::REMOVED,
            reason: "removed from the appointment",
        });
    }
    let joined_before = state.participants.contains_key(&claims.sub);
    if claims.role == Role::Client && state.state_for_all.locked && !joined_before {
        return Err(TurnedAway {
            close_code: close_code::LOCKED,
            reason: "the appointment is locked",
        });
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

/// Whether a participant of `role` is held to the request rate of [`crate::ws::rate`]: clients
/// are; guides are not (they steer the room, and their browser is one per appointment).
pub fn is_rate_limited(role: Role) -> bool {
    role == Role::Client
}

/// Whether a participant's `action`, sent again unchanged a moment after it was
/// published, may be answered with the earlier event instead of a new one: a client's
/// reload hints, which only ask the client's own views to reload (the same hint twice
/// asks nothing more).
pub fn coalesces(role: Role, action: &Action) -> bool {
    role == Role::Client && action.reload_hint_for().is_some()
}

/// Decides a request at `now` (unix milliseconds; the caller reads the clock, so this is
/// a pure function of its arguments, up to the random ids of new polls and questions).
pub fn decide(caller: Caller<'_>, state: &LiveState, request: Request, now: u64) -> Decision {
    match (caller, request) {
        (Caller::Participant(claims), Request::Action(action)) => act(claims, state, action, now),
        (Caller::Participant(claims), Request::Interaction(interaction)) => {
            interact(claims, interaction)
        }
        (Caller::Shop, Request::Publish { audience, event }) => publish(audience, event),
        (
            Caller::Shop,
            Request::Profile {
                attendee_id,
                attendee_name,
                video_user_id,
            },
        ) => profile(state, &attendee_id, attendee_name, video_user_id),
        (Caller::Shop, Request::Action(_) | Request::Interaction(_)) => refuse(
            ErrorCode::Forbidden,
            "actions and interactions come from participants",
        ),
        (Caller::Participant(_), Request::Publish { .. } | Request::Profile { .. }) => refuse(
            ErrorCode::Forbidden,
            "only the shop publishes events directly",
        ),
    }
}

/// The refusal of an action its sender may not send now, or whose payload is invalid.
fn refusal(claims: &HubClaims, state: &LiveState, action: &Action) -> Option<Decision> {
    if action.is_guide_only() {
        if claims.role != Role::Guide {
            return Some(refuse(
                ErrorCode::Forbidden,
                format!("only a guide may send {}", action.key()),
            ));
        }
        if state.state_for_all.ended {
            return Some(refuse(
                ErrorCode::PresentationEnded,
                "the presentation has ended",
            ));
        }
    }
    // Whoever sends it: nothing unchecked is stored or sent on.
    let invalid = action.validate().err()?;
    Some(refuse(ErrorCode::InvalidPayload, invalid))
}

fn act(claims: &HubClaims, state: &LiveState, action: Action, now: u64) -> Decision {
    if let Some(refused) = refusal(claims, state, &action) {
        return refused;
    }
    match action {
        Action::SwitchSlide {
            page_id,
            section_id,
            slide_alias,
        } => switch_slide(page_id, section_id, slide_alias),
        Action::LoadSlide { .. }
        | Action::LoadProductList {}
        | Action::LoadListingProducts { .. }
        | Action::UpdateListingProducts { .. } => {
            publish(Audience::Everyone, Event::Reload { action })
        }
        Action::LoadCart { .. }
        | Action::AddToCart { .. }
        | Action::RemoveFromCart { .. }
        | Action::UpdateProductQuantity { .. }
        | Action::LoadLikeList { .. }
        | Action::RemoveFromLikeList { .. }
        | Action::LoadLastSeen { .. } => reload_hint(claims, action),
        Action::LoadProductReviews { .. } => Decision::Nothing,
        Action::RequestCartPermission { attendee_id } => {
            let event = Event::CartPermissionChanged {
                attendee_id: attendee_id.clone(),
                permission: CartPermission::Requested,
            };
            publish(Audience::Attendee(attendee_id), event)
        }
        Action::SetCartPermission { granted } => set_cart_permission(claims, granted),
        Action::SetLocked { locked } => publish(Audience::Everyone, Event::LockChanged { locked }),
        Action::MuteAll { muted } => publish(Audience::Everyone, Event::MuteAllChanged { muted }),
        Action::SendChatMessage { text } => chat(claims, state, &text, now),
        Action::DeleteChatMessage { message_id } => {
            publish(Audience::Everyone, Event::ChatMessageDeleted { message_id })
        }
        Action::PinChatMessage { message_id } => {
            publish(Audience::Everyone, Event::ChatMessagePinned { message_id })
        }
        Action::SetChatSettings { settings } => {
            publish(Audience::Everyone, Event::ChatSettingsChanged { settings })
        }
        Action::SetChatBlockedWords { words } => {
            let words = words.into_iter().map(|w| w.trim().to_owned()).collect();
            publish(Audience::Guides, Event::ChatBlockedWordsChanged { words })
        }
        Action::ModerateChatAttendee {
            attendee_id,
            timeout_minutes,
            banned,
        } => {
            let muted_until = timeout_minutes.map(|minutes| now + u64::from(minutes) * 60_000);
            moderate(attendee_id, muted_until, banned)
        }
        Action::SendReaction { reaction } => Decision::React(reaction),
        Action::CreatePoll { poll } => create_poll(state, poll),
        Action::OpenPoll { poll_id } => open_poll(state, poll_id),
        Action::ClosePoll { poll_id } => close_poll(state, poll_id),
        Action::ShowPollResults { poll_id, shown } => show_poll_results(state, poll_id, shown),
        Action::VotePoll {
            poll_id,
            answer_ids,
        } => vote(claims, state, poll_id, &answer_ids),
        Action::AskQuestion { text } => ask(claims, state, &text, now),
        Action::VoteQuestion { question_id, voted } => {
            vote_question(claims, state, question_id, voted)
        }
        Action::MarkQuestion {
            question_id,
            status,
        } => mark_question(state, question_id, status),
        Action::DismissQuestion { question_id } => dismiss_question(state, question_id),
    }
}

fn switch_slide(page_id: Id, section_id: Id, slide_alias: u32) -> Decision {
    let event = Event::SlideSwitched {
        page_id,
        section_id,
        slide_alias,
    };
    publish(Audience::Everyone, event)
}

/// Cart, likes and last-seen live in storefront-proxy: an action on them goes as a
/// reload hint to the attendee a guide names, or to the client itself.
fn reload_hint(claims: &HubClaims, action: Action) -> Decision {
    let target = match (claims.role, action.reload_hint_for().flatten()) {
        (Role::Guide, Some(id)) => id.clone(),
        _ => claims.sub.clone(),
    };
    publish(Audience::Attendee(target), Event::Reload { action })
}

fn set_cart_permission(claims: &HubClaims, granted: bool) -> Decision {
    // A no (to a request, or taking a grant back) is kept apart from never asked.
    let permission = if granted {
        CartPermission::Granted
    } else {
        CartPermission::Refused
    };
    let attendee_id = claims.sub.clone();
    publish(
        Audience::Attendee(attendee_id.clone()),
        Event::CartPermissionChanged {
            attendee_id,
            permission,
        },
    )
}

fn moderate(attendee_id: Id, muted_until: Option<u64>, banned: bool) -> Decision {
    publish(
        Audience::Attendee(attendee_id.clone()),
        Event::ChatAttendeeModerated {
            attendee_id,
            muted_until,
            banned,
        },
    )
}

fn open_poll(state: &LiveState, poll_id: Id) -> Decision {
    match find_poll(state, &poll_id) {
        Err(refused) => *refused,
        Ok(PollStatus::Open) => Decision::Nothing,
        Ok(_) => publish(Audience::Everyone, Event::PollOpened { poll_id }),
    }
}

fn show_poll_results(state: &LiveState, poll_id: Id, shown: bool) -> Decision {
    match find_poll(state, &poll_id) {
        Err(refused) => *refused,
        Ok(_) => publish(
            Audience::Everyone,
            Event::PollResultsShown { poll_id, shown },
        ),
    }
}

/// Closes a poll with its final counts.
fn close_poll(state: &LiveState, poll_id: Id) -> Decision {
    match find_poll(state, &poll_id) {
        Err(refused) => *refused,
        Ok(PollStatus::Closed) => Decision::Nothing,
        Ok(_) => {
            let poll = state
                .state_for_all
                .polls
                .iter()
                .find(|p| p.poll_id == poll_id);
            let (counts, voters) = poll
                .map(|p| (p.counts.clone(), p.voters))
                .unwrap_or_default();
            publish(
                Audience::Everyone,
                Event::PollClosed {
                    poll_id,
                    counts,
                    voters,
                },
            )
        }
    }
}

fn mark_question(state: &LiveState, question_id: Id, status: QuestionStatus) -> Decision {
    match find_question(state, &question_id) {
        Err(refused) => *refused,
        Ok(question) if question.status == status => Decision::Nothing,
        Ok(_) => publish(
            Audience::Everyone,
            Event::QuestionMarked {
                question_id,
                status,
            },
        ),
    }
}

fn dismiss_question(state: &LiveState, question_id: Id) -> Decision {
    match find_question(state, &question_id) {
        Err(refused) => *refused,
        Ok(_) => publish(Audience::Everyone, Event::QuestionDismissed { question_id }),
    }
}

fn find_question<'a>(
    state: &'a LiveState,
    question_id: &str,
) -> Result<&'a Question, Box<Decision>> {
    state
        .state_for_all
        .questions
        .iter()
        .find(|q| q.question_id == question_id)
        .ok_or_else(|| {
            Box::new(refuse(
                ErrorCode::QuestionNotFound,
                "no question with that id",
            ))
        })
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
        Err(TextProblem::Empty) => {
            return refuse(ErrorCode::QuestionEmpty, "the question is empty")
        }
        Err(TextProblem::TooLong) => {
            return refuse(
                ErrorCode::QuestionTooLong,
                format!("the question is over {MAX_QUESTION_CHARS} characters"),
            )
        }
    };
    let asker = &claims.sub;
    if claims.role == Role::Client && state.chat_moderation.banned.contains(asker) {
        return refuse(
            ErrorCode::QuestionBanned,
            "the guide banned you from the chat and its questions",
        );
    }
    if let Some(last) = state
        .question_book
        .last_asked
        .get(asker)
        .filter(|last| now < **last + QUESTION_INTERVAL_MS)
    {
        return refuse(
            ErrorCode::QuestionRateLimited,
            format!(
                "one question per {} seconds: wait until {}",
                QUESTION_INTERVAL_MS / 1000,
                last + QUESTION_INTERVAL_MS
            ),
        );
    }
    if state.state_for_all.questions.len() >= MAX_QUESTIONS {
        return refuse(
            ErrorCode::QuestionLimit,
            format!("an appointment holds at most {MAX_QUESTIONS} questions"),
        );
    }
    let attendee_name = state
        .participants
        .get(asker)
        .and_then(|p| p.attendee_name.clone())
        .or_else(|| claims.name.clone());
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
pub fn vote_question(
    claims: &HubClaims,
    state: &LiveState,
    question_id: Id,
    voted: bool,
) -> Decision {
    if state.state_for_all.ended {
        return refuse(ErrorCode::PresentationEnded, "the presentation has ended");
    }
    let question = match find_question(state, &question_id) {
        Ok(question) => question,
        Err(refused) => return *refused,
    };
    if question.attendee_id == claims.sub {
        return refuse(
            ErrorCode::QuestionOwnVote,
            "one's own question cannot be up-voted",
        );
    }
    let attendee_id = claims.sub.clone();
    publish(
        Audience::Attendee(attendee_id.clone()),
        Event::QuestionVoted {
            question_id,
            attendee_id,
            voted,
        },
    )
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
        return refuse(
            ErrorCode::PollLimit,
            format!("an appointment holds at most {MAX_POLLS} polls"),
        );
    }
    let answer_ids: Vec<Id> = poll.answers.iter().map(|_| new_id()).collect();
    publish(
        Audience::Everyone,
        Event::PollCreated {
            poll: poll.into_poll(new_id(), answer_ids),
        },
    )
}

/// A vote, or why not. A changed one names the previous answers so that whoever is sent
/// it recounts. The same vote again is published too (the reducer recounts it to no
/// change): in cluster mode this replica may not have applied the voter's latest vote
/// yet, so a vote that only looks repeated here may be a change back (Red, Blue, Red).
pub fn vote(claims: &HubClaims, state: &LiveState, poll_id: Id, answer_ids: &[Id]) -> Decision {
    let poll = state
        .state_for_all
        .polls
        .iter()
        .find(|p| p.poll_id == poll_id);
    let answer_ids = match check_vote(poll, answer_ids) {
        Ok(ids) => ids,
        Err(VoteProblem::UnknownPoll) => {
            return refuse(ErrorCode::PollNotFound, "no poll with that id")
        }
        Err(VoteProblem::NotOpen) => return refuse(ErrorCode::PollClosed, "the poll is not open"),
        Err(VoteProblem::UnknownAnswer) => {
            return refuse(ErrorCode::PollUnknownAnswer, "the poll has no such answer")
        }
        Err(VoteProblem::SingleChoice) => {
            return refuse(ErrorCode::PollSingleChoice, "the poll takes one answer")
        }
    };
    let previous = state
        .poll_votes
        .get(&poll_id)
        .and_then(|votes| votes.get(&claims.sub))
        .cloned()
        .unwrap_or_default();
    let attendee_id = claims.sub.clone();
    let event = Event::PollVoted {
        poll_id,
        attendee_id: attendee_id.clone(),
        answer_ids,
        previous_answer_ids: previous,
    };
    publish(Audience::Attendee(attendee_id), event)
}

/// Unix milliseconds now.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Whether a chat message may be posted, and the message. Length and emptiness apply to
/// everyone; the moderation (ban, time-out, closed chat, slow mode, rate, blocked words)
/// to attendees only: guides moderate. `now` is unix milliseconds.
pub fn chat(claims: &HubClaims, state: &LiveState, text: &str, now: u64) -> Decision {
    let text = match clean_chat_text(text) {
        Ok(text) => text,
        Err(TextProblem::Empty) => return refuse(ErrorCode::ChatEmpty, "the message is empty"),
        Err(TextProblem::TooLong) => {
            return refuse(ErrorCode::ChatTooLong, "the message is over 500 characters")
        }
    };
    let sender = &claims.sub;
    if claims.role == Role::Client {
        let moderation = &state.chat_moderation;
        let settings = &state.state_for_all.chat.settings;
        if moderation.banned.contains(sender) {
            return refuse(ErrorCode::ChatBanned, "the guide banned you from the chat");
        }
        if let Some(until) = moderation
            .muted_until
            .get(sender)
            .filter(|until| **until > now)
        {
            return refuse(
                ErrorCode::ChatMuted,
                format!("the guide timed you out of the chat until {until}"),
            );
        }
        if settings.closed {
            return refuse(ErrorCode::ChatClosed, "the chat is closed");
        }
        let recent: Vec<u64> = moderation.post_times(sender).collect();
        let last = recent.last().copied();
        let slow_ms = u64::from(settings.slow_mode_seconds) * 1000;
        if let Some(last) = last.filter(|last| slow_ms > 0 && now < last + slow_ms) {
            return refuse(
                ErrorCode::ChatSlowMode,
                format!("slow mode: wait until {}", last + slow_ms),
            );
        }
        let burst_start = (recent.len() >= CHAT_BURST)
            .then(|| recent.first().copied())
            .flatten();
        if burst_start.is_some_and(|first| now < first + CHAT_BURST_WINDOW_MS) {
            return refuse(ErrorCode::ChatRateLimited, "too many messages; slow down");
        }
        if moderation.blocked_word_in(&text).is_some() {
            return refuse(
                ErrorCode::ChatBlockedWord,
                "the message holds a word the guide blocked",
            );
        }
    }
    let attendee_name = state
        .participants
        .get(sender)
        .and_then(|p| p.attendee_name.clone())
        .or_else(|| claims.name.clone());
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
        return refuse(
            ErrorCode::Forbidden,
            format!("only a guide may send {:?}", interaction.name()),
        );
    }
    if let Err(invalid) = interaction.validate() {
        return refuse(ErrorCode::InvalidPayload, invalid);
    }
    match interaction {
        Interaction::GuideHovered(payload) => Decision::Volatile {
            audience: Audience::Everyone,
            event: VolatileEvent::GuideHovered {
                hovered_element_id: payload.hovered_element_id,
            },
        },
        // The product a guide looks at is the one everyone is shown.
        Interaction::ProductViewed(p) if guide => publish(
            Audience::Everyone,
            Event::GuideProductChanged {
                product_id: Some(p.product_id),
            },
        ),
        Interaction::DynamicPageOpened(page) | Interaction::DynamicProductPageOpened(page) => {
            publish(Audience::Everyone, Event::DynamicPageOpened { page })
        }
        Interaction::DynamicPageClosed(p) => publish(
            Audience::Everyone,
            Event::DynamicPageClosed {
                page_id: p.page_id,
                all: p.all,
            },
        ),
        Interaction::BroadcastModeToggled(p) => publish(
            Audience::Everyone,
            Event::BroadcastModeChanged { active: p.active },
        ),
        Interaction::ViewModeChanged(p) => {
            publish(Audience::Everyone, Event::ViewModeChanged { mode: p.mode })
        }
        Interaction::ScreenSharingToggled(p) => publish(
            Audience::Everyone,
            Event::ScreenSharingChanged { active: p.active },
        ),
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
fn profile(
    state: &LiveState,
    attendee_id: &str,
    attendee_name: Option<String>,
    video_user_id: Option<Option<String>>,
) -> Decision {
    let Some(current) = state.participants.get(attendee_id) else {
        return Decision::Nothing;
    };
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
mod poll_tests;
#[cfg(test)]
mod question_tests;
#[cfg(test)]
mod tests;
