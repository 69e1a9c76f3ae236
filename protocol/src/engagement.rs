//! Live engagement (issue #19): chat with moderation, and reactions; polls and questions
//! in their own modules.
//!
//! Chat messages and every moderation step are ordered events of the appointment's log
//! (see [`crate::frame::Event`]), so a reconnecting participant gets what it missed through
//! the normal resume and a late joiner finds the last [`CHAT_HISTORY`] messages in its
//! snapshot ([`crate::state::StateForAll::chat`]). Messages are posted in batches
//! ([`crate::frame::Event::ChatMessagesPosted`]): the hub gathers what is posted within
//! a room's tick ([`engagement_tick_ms`]: 250 ms in a small room, up to 1 s in a large
//! one) into one ordered event, so a busy chat costs a room at most a few events a second,
//! whatever the number of messages. Reactions are volatile: the hub sums them per room and
//! sends the sums once per tick, at most every [`REACTION_TICK_MS`].

pub mod polls;
pub mod questions;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::state::{Id, Invalid};
use crate::status::Role;

/// Longest chat message, in characters (Unicode scalar values).
pub const MAX_CHAT_MESSAGE_CHARS: usize = 500;
/// Messages a snapshot keeps (what a late joiner is sent).
pub const CHAT_HISTORY: usize = 100;
/// Messages an attendee may post in [`CHAT_BURST_WINDOW_MS`] (without slow mode); the
/// next is refused with `CHAT_RATE_LIMITED`. Guides are not held to it.
pub const CHAT_BURST: usize = 5;
pub const CHAT_BURST_WINDOW_MS: u64 = 10_000;
/// Longest slow-mode interval a guide may set.
pub const MAX_SLOW_MODE_SECONDS: u32 = 3_600;
/// Longest time-out a guide may give, in minutes (a day; longer is a ban).
pub const MAX_TIMEOUT_MINUTES: u32 = 1_440;
/// Blocked words of one appointment, and the longest of them in characters.
pub const MAX_BLOCKED_WORDS: usize = 200;
pub const MAX_BLOCKED_WORD_CHARS: usize = 40;
/// The hub's base engagement tick, and a small room's whole tick: the hub sends reaction
/// sums at most this often. A larger room ticks less often ([`engagement_tick_ms`]).
pub const REACTION_TICK_MS: u64 = 250;
/// Chat messages posted within a tick go out as one ordered event
/// ([`crate::frame::Event::ChatMessagesPosted`]); in a small room the tick is this long.
/// A message after a quiet spell (nothing of the chat went out for a tick) goes out at
/// once, alone; the next ones wait for the room's tick, so a busy chat is at most about
/// one event per tick per room, and a quiet one is as quick as before.
pub const CHAT_BATCH_MS: u64 = REACTION_TICK_MS;
/// The longest engagement tick, reached by rooms of [`ENGAGEMENT_TICK_MAX_FROM`]
/// subscribers (connections on one hub) and more.
pub const ENGAGEMENT_TICK_MAX_MS: u64 = 1_000;
/// Subscribers from which a room ticks every [`ENGAGEMENT_TICK_MAX_MS`].
pub const ENGAGEMENT_TICK_MAX_FROM: usize = 5_000;

/// How many base ticks ([`REACTION_TICK_MS`]) one engagement tick of a room with
/// `subscribers` connections lasts: 1 up to 1,666 subscribers, then growing linearly
/// with the room to [`ENGAGEMENT_TICK_MAX_MS`] / [`REACTION_TICK_MS`] (4) at
/// [`ENGAGEMENT_TICK_MAX_FROM`] (2 from 1,667, 3 from 3,334).
///
/// Why it grows (#19 item 8): each tick costs every subscriber a socket write (its chat
/// batch, reaction sums, poll counts and question votes, written together). At 10,000
/// attendees four such writes a second were as many writes as 40 % of the slide changes'
/// (10 a second); one a second is 10 %, and the writes of a large room's tick usually ride
/// a slide change's write anyway (see the hub's `Room::engagement_tick`). The issue asks
/// for "at most every 250 ms": slower is allowed.
pub fn engagement_base_ticks(subscribers: usize) -> u64 {
    let steps = ENGAGEMENT_TICK_MAX_MS / REACTION_TICK_MS;
    (1 + subscribers as u64 * (steps - 1) / ENGAGEMENT_TICK_MAX_FROM as u64).min(steps)
}

/// A room's engagement tick in milliseconds, given its subscribers: 250 ms in a small
/// room, 1 s from 5,000 subscribers (see [`engagement_base_ticks`]).
pub fn engagement_tick_ms(subscribers: usize) -> u64 {
    engagement_base_ticks(subscribers) * REACTION_TICK_MS
}
/// Most messages in one batch event (a frame of at most about 60 KiB); a tick with more
/// sends several, in order.
pub const MAX_CHAT_BATCH: usize = 100;

/// One chat message as everyone sees it. Plain text: clients render it as text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatMessage {
    pub message_id: Id,
    pub attendee_id: Id,
    /// The sender's name at the time (a guest's join name); `None` for a nameless one.
    pub attendee_name: Option<String>,
    pub role: Role,
    pub text: String,
    /// Unix milliseconds, as the hub received it.
    pub sent_at: u64,
}

/// What the guide switches for the whole chat.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct ChatSettings {
    /// Closed: only guides may post.
    pub closed: bool,
    /// One message per this many seconds per attendee; 0 is off.
    pub slow_mode_seconds: u32,
    /// Whether attendees' clients make links clickable (guides' always do).
    pub links_allowed: bool,
}

/// The chat every participant sees (in `stateForAll`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct ChatState {
    /// The last [`CHAT_HISTORY`] messages, oldest first.
    pub messages: Vec<ChatMessage>,
    pub pinned: Option<ChatMessage>,
    pub settings: ChatSettings,
}

/// What guides see of the moderation (in `stateForGuides`), and what the hub decides by.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct ChatModeration {
    pub blocked_words: Vec<String>,
    /// Timed-out attendees: until when (unix milliseconds).
    pub muted_until: BTreeMap<Id, u64>,
    pub banned: BTreeSet<Id>,
    /// The times (and message ids) of each attendee's last [`CHAT_BURST`] messages, for
    /// the rate and slow mode. The hub's own: nobody is sent it, and it is rebuilt from the
    /// log. The hub also records a message here when it takes it into the room's next
    /// batch, before the batch is ordered, so a burst within one batch is refused as
    /// before; applying the batch then records it again, which changes nothing.
    #[serde(skip)]
    #[ts(skip)]
    pub recent_posts: BTreeMap<Id, VecDeque<(u64, Id)>>,
}

impl ChatState {
    pub fn post(&mut self, message: ChatMessage) {
        self.messages.push(message);
        if self.messages.len() > CHAT_HISTORY {
            let over = self.messages.len() - CHAT_HISTORY;
            self.messages.drain(..over);
        }
    }

    pub fn delete(&mut self, message_id: &str) {
        self.messages.retain(|m| m.message_id != message_id);
        if self
            .pinned
            .as_ref()
            .is_some_and(|m| m.message_id == message_id)
        {
            self.pinned = None;
        }
    }

    /// Pins a message still in the history (or unpins with `None`).
    pub fn pin(&mut self, message_id: Option<&str>) {
        self.pinned =
            message_id.and_then(|id| self.messages.iter().find(|m| m.message_id == id).cloned());
    }
}

impl ChatModeration {
    /// What guides are shown: everything but the hub's own post times.
    pub fn for_guides(&self) -> ChatModeration {
        ChatModeration {
            blocked_words: self.blocked_words.clone(),
            muted_until: self.muted_until.clone(),
            banned: self.banned.clone(),
            recent_posts: BTreeMap::new(),
        }
    }

    /// Records a message for the rate and slow mode; a message already recorded (by its
    /// id) is not counted twice.
    pub fn record_post(&mut self, message: &ChatMessage) {
        let posts = self
            .recent_posts
            .entry(message.attendee_id.clone())
            .or_default();
        if posts.iter().any(|(_, id)| *id == message.message_id) {
            return;
        }
        posts.push_back((message.sent_at, message.message_id.clone()));
        while posts.len() > CHAT_BURST {
            posts.pop_front();
        }
    }

    /// When `attendee_id` posted its last messages (oldest first), at most [`CHAT_BURST`].
    pub fn post_times(&self, attendee_id: &str) -> impl Iterator<Item = u64> + '_ {
        self.recent_posts
            .get(attendee_id)
            .into_iter()
            .flatten()
            .map(|(at, _)| *at)
    }

    pub fn moderate(&mut self, attendee_id: &str, muted_until: Option<u64>, banned: bool) {
        match muted_until {
            Some(until) => self.muted_until.insert(attendee_id.to_owned(), until),
            None => self.muted_until.remove(attendee_id),
        };
        if banned {
            self.banned.insert(attendee_id.to_owned());
        } else {
            self.banned.remove(attendee_id);
        }
    }

    /// The first blocked word `text` holds as a whole word (case-insensitive; a blocked
    /// phrase of several words matches the same way).
    pub fn blocked_word_in(&self, text: &str) -> Option<&str> {
        let text = text.to_lowercase();
        self.blocked_words
            .iter()
            .map(String::as_str)
            .find(|word| contains_word(&text, &word.to_lowercase()))
    }
}

fn contains_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Bidirectional embedding, override and isolate controls: a message could reorder the
/// text shown after it. They are removed, like other control characters but newline.
fn is_stripped(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}')
        || (c.is_control() && c != '\n')
}

/// Why a chat text is refused before anything else is looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextProblem {
    Empty,
    TooLong,
}

/// The text as it is stored: control and bidi-override characters removed, surrounding
/// white space trimmed; refused when nothing is left or it is over
/// [`MAX_CHAT_MESSAGE_CHARS`] characters.
pub fn clean_chat_text(text: &str) -> Result<String, TextProblem> {
    clean_text(text, MAX_CHAT_MESSAGE_CHARS)
}

/// A participant's plain text as it is stored (chat messages, questions): control and
/// bidi-override characters removed, surrounding white space trimmed; refused when
/// nothing is left or it is over `max` characters (counted before anything is removed).
pub fn clean_text(text: &str, max: usize) -> Result<String, TextProblem> {
    if text.chars().count() > max {
        return Err(TextProblem::TooLong);
    }
    let cleaned: String = text.chars().filter(|c| !is_stripped(*c)).collect();
    let cleaned = cleaned.trim();
    if cleaned.is_empty() {
        return Err(TextProblem::Empty);
    }
    Ok(cleaned.to_owned())
}

/// Checks a guide's blocked-word list.
pub fn check_blocked_words(words: &[String]) -> Result<(), Invalid> {
    if words.len() > MAX_BLOCKED_WORDS {
        return Err(format!(
            "words must hold at most {MAX_BLOCKED_WORDS} entries"
        ));
    }
    if words.iter().any(|w| {
        w.trim().is_empty()
            || w.chars().count() > MAX_BLOCKED_WORD_CHARS
            || w.chars().any(char::is_control)
    }) {
        return Err(format!(
            "each word must be 1 to {MAX_BLOCKED_WORD_CHARS} characters"
        ));
    }
    Ok(())
}

/// A reaction an attendee (or guide) taps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Reaction {
    Heart,
    Clap,
    Laugh,
    Wow,
    Fire,
}

impl Reaction {
    pub const ALL: [Reaction; 5] = [
        Reaction::Heart,
        Reaction::Clap,
        Reaction::Laugh,
        Reaction::Wow,
        Reaction::Fire,
    ];

    pub fn index(self) -> usize {
        self as usize
    }
}

/// Taps per reaction since the last sum a room sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct ReactionCounts {
    pub heart: u32,
    pub clap: u32,
    pub laugh: u32,
    pub wow: u32,
    pub fire: u32,
}

impl ReactionCounts {
    pub fn from_array(counts: [u32; 5]) -> Self {
        let [heart, clap, laugh, wow, fire] = counts;
        ReactionCounts {
            heart,
            clap,
            laugh,
            wow,
            fire,
        }
    }

    pub fn to_array(self) -> [u32; 5] {
        [self.heart, self.clap, self.laugh, self.wow, self.fire]
    }

    pub fn is_empty(&self) -> bool {
        self.to_array().iter().all(|n| *n == 0)
    }

    pub fn add(&mut self, other: ReactionCounts) {
        let mut sum = self.to_array();
        for (s, o) in sum.iter_mut().zip(other.to_array()) {
            *s = s.saturating_add(o);
        }
        *self = ReactionCounts::from_array(sum);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tick_is_250_ms_in_a_small_room_and_grows_with_the_room_to_1_s_at_5000() {
        for (subscribers, ms) in [
            (0, 250),
            (1, 250),
            (1_666, 250),
            (1_667, 500),
            (3_333, 500),
            (3_334, 750),
            (4_999, 750),
            (5_000, 1_000),
            (10_000, 1_000),
            (1_000_000, 1_000),
        ] {
            assert_eq!(
                engagement_tick_ms(subscribers),
                ms,
                "{subscribers} subscribers"
            );
        }
        // Never shorter than the base tick, never longer than the longest, never shrinking.
        let mut last = REACTION_TICK_MS;
        for subscribers in (0..20_000).step_by(7) {
            let ms = engagement_tick_ms(subscribers);
            assert!(
                (REACTION_TICK_MS..=ENGAGEMENT_TICK_MAX_MS).contains(&ms)
                    && ms >= last
                    && ms.is_multiple_of(REACTION_TICK_MS)
            );
            last = ms;
        }
    }

    #[test]
    fn chat_text_is_trimmed_stripped_and_bounded() {
        assert_eq!(clean_chat_text("  hi  "), Ok("hi".into()));
        assert_eq!(clean_chat_text(" \u{202E} \n "), Err(TextProblem::Empty));
        assert_eq!(
            clean_chat_text("a\u{202E}b\u{0007}c\nd"),
            Ok("abc\nd".into())
        );
        assert_eq!(
            clean_chat_text(&"ü".repeat(MAX_CHAT_MESSAGE_CHARS)).map(|t| t.chars().count()),
            Ok(500)
        );
        assert_eq!(
            clean_chat_text(&"x".repeat(MAX_CHAT_MESSAGE_CHARS + 1)),
            Err(TextProblem::TooLong)
        );
        assert_eq!(
            clean_chat_text("<script>alert(1)</script>"),
            Ok("<script>alert(1)</script>".into())
        );
    }

    #[test]
    fn blocked_words_match_whole_words_in_any_case() {
        let moderation = ChatModeration {
            blocked_words: vec!["Spam".into(), "buy now".into()],
            ..Default::default()
        };
        assert_eq!(moderation.blocked_word_in("no SPAM please"), Some("Spam"));
        assert_eq!(moderation.blocked_word_in("spam!"), Some("Spam"));
        assert_eq!(moderation.blocked_word_in("spammer"), None);
        assert_eq!(
            moderation.blocked_word_in("Buy Now, cheap"),
            Some("buy now")
        );
        assert_eq!(moderation.blocked_word_in("hello"), None);
    }

    #[test]
    fn history_keeps_the_last_hundred_and_a_deleted_pin_goes() {
        let mut chat = ChatState::default();
        for i in 0..(CHAT_HISTORY + 5) {
            let id = format!("{i:032x}");
            chat.post(ChatMessage {
                message_id: id,
                attendee_id: "a".repeat(32),
                attendee_name: None,
                role: Role::Client,
                text: i.to_string(),
                sent_at: i as u64,
            });
        }
        assert_eq!(chat.messages.len(), CHAT_HISTORY);
        assert_eq!(chat.messages.first().unwrap().text, "5");
        let last = format!("{:032x}", CHAT_HISTORY + 4);
        chat.pin(Some(&last));
        assert_eq!(chat.pinned.as_ref().unwrap().message_id, last);
        chat.pin(Some(&format!("{:032x}", 0)));
        assert_eq!(
            chat.pinned, None,
            "a message no longer kept cannot be pinned"
        );
        chat.pin(Some(&last));
        chat.delete(&last);
        assert_eq!(chat.pinned, None);
        assert_eq!(chat.messages.len(), CHAT_HISTORY - 1);
    }
}
