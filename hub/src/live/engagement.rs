//! A room's engagement between two of its ticks: what the next tick sends (the chat
//! messages taken, the polls and questions voted in, the reaction taps) and by when each
//! subscriber's tick frames must be written. [`Engagement`] is the part of the room's
//! state under its lock (one field of `Inner`); [`Taps`] the reaction counts kept without
//! the lock. The tick that sends it all is [`super::tick`].
//!
//! Why batches and ticks (#19 item 8): one ordered event per chat message to every
//! attendee was 500,000 deliveries a second at 10,000 attendees and 50 messages a second,
//! and a frame per vote or tap as many again. A room's tick posts the chat taken since the
//! last one as one `chatMessagesPosted` and sends the sums, one write per subscriber and
//! tick. A message after a quiet spell still goes out at once, alone.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;

use protocol::engagement::{
    engagement_base_ticks, engagement_tick_ms, ChatMessage, Reaction, ReactionCounts,
    MAX_CHAT_BATCH,
};
use protocol::frame::{Event, VolatileEvent};
use protocol::live_state::LiveState;
use protocol::state::Id;
use protocol::Role;

/// Tick batches ([`Engagement::tick_batches`]) a room remembers until Redis hands them back.
const MAX_TICK_BATCHES: usize = 16;

/// What a room's next engagement tick sends, and where its ticks are (under the room lock).
#[derive(Default)]
pub struct Engagement {
    /// Polls voted in since the last counts were sent.
    polls_counted: BTreeSet<Id>,
    /// Questions up-voted since the last counts were sent.
    questions_counted: BTreeSet<Id>,
    /// Chat messages taken since the last batch was posted.
    chat: ChatBatch,
    /// Base ticks since the room's last tick.
    base_ticks: u64,
    /// Tick passes run.
    passes: u64,
    /// A tick is between its chat batch and its pass.
    in_tick: bool,
    /// A subscriber may be owed a schedule (frames queued for a later pass).
    pub(super) owed: bool,
    /// The first message ids of this replica's tick batches not yet applied (fanned out
    /// as the tick's frames when they are).
    tick_batches: VecDeque<Id>,
}

/// By which tick pass a frame queued now must be scheduled, for a guide and for an
/// attendee (`None`: at once, as any event).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TickDue {
    guide: Option<u64>,
    attendee: Option<u64>,
}

impl TickDue {
    pub const NOW: TickDue = TickDue {
        guide: None,
        attendee: None,
    };

    pub fn of(self, role: Role) -> Option<u64> {
        match role {
            Role::Guide => self.guide,
            Role::Client => self.attendee,
        }
    }
}

/// The chat messages a room took and has not posted yet.
#[derive(Default)]
struct ChatBatch {
    /// In the order they were taken (the order they are posted in).
    messages: Vec<ChatMessage>,
    /// When the room last posted chat (unix milliseconds): a message within one tick
    /// ([`engagement_tick_ms`]) of it waits for the next batch; a later one goes out at once.
    last_posted_ms: u64,
}

/// What a tick's pass sends: its volatile frames, by when each subscriber must be
/// scheduled, and the pass's number.
pub struct TickPass {
    pub frames: Vec<VolatileEvent>,
    pub due: TickDue,
    pub pass: u64,
}

impl Engagement {
    /// Notes what an applied event leaves for the next tick (a poll or question vote).
    pub fn applied(&mut self, event: &Event) {
        match event {
            Event::PollVoted { poll_id, .. } => {
                self.polls_counted.insert(poll_id.clone());
            }
            Event::QuestionVoted { question_id, .. } => {
                self.questions_counted.insert(question_id.clone());
            }
            _ => {}
        }
    }

    /// By which tick pass the subscribers must be sent an applied event: a chat batch
    /// of this replica's tick goes out as one of the tick's frames
    /// ([`Engagement::tick_batch_due`]), any other event at once. Notes that a
    /// subscriber may be owed a schedule.
    pub fn due_of(&mut self, event: &Event, subscribers: usize) -> TickDue {
        let due = match event {
            Event::ChatMessagesPosted { messages } => self.tick_batch_due(messages, subscribers),
            _ => TickDue::NOW,
        };
        self.owed |= due != TickDue::NOW;
        due
    }

    /// Takes a chat message the policy let through (its sender's rate is counted by the
    /// caller): either returned as an event of its own to post now — nothing of the chat
    /// went out for one of the room's ticks ([`engagement_tick_ms`] of `subscribers`), so a
    /// quiet chat is as quick as it was — or kept for the next tick's batch.
    pub fn take_chat(&mut self, message: ChatMessage, subscribers: usize) -> Option<Event> {
        let tick_ms = engagement_tick_ms(subscribers);
        let batch = &mut self.chat;
        if batch.messages.is_empty()
            && message.sent_at >= batch.last_posted_ms.saturating_add(tick_ms)
        {
            batch.last_posted_ms = message.sent_at;
            return Some(Event::ChatMessagesPosted {
                messages: vec![message],
            });
        }
        batch.messages.push(message);
        None
    }

    /// Whether chat messages wait for a batch.
    pub fn has_chat(&self) -> bool {
        !self.chat.messages.is_empty()
    }

    /// The next batch to post (at most [`MAX_CHAT_BATCH`] messages), at `now_ms`; `of_tick`:
    /// it is one of the tick's frames ([`Engagement::tick_batch_due`]). `None` when no
    /// message waits.
    pub fn next_chat_batch(&mut self, of_tick: bool, now_ms: u64) -> Option<Vec<ChatMessage>> {
        let batch = &mut self.chat;
        if batch.messages.is_empty() {
            return None;
        }
        let rest = batch
            .messages
            .split_off(batch.messages.len().min(MAX_CHAT_BATCH));
        let messages = std::mem::replace(&mut batch.messages, rest);
        batch.last_posted_ms = now_ms;
        if of_tick {
            self.tick_batches.push_back(messages[0].message_id.clone());
            while self.tick_batches.len() > MAX_TICK_BATCHES {
                self.tick_batches.pop_front();
            }
        }
        Some(messages)
    }

    /// Puts back a batch that could not be posted, in front of the messages taken since.
    pub fn chat_not_posted(&mut self, messages: Vec<ChatMessage>) {
        let Some(first) = messages.first() else {
            return;
        };
        let first = first.message_id.clone();
        self.tick_batches.retain(|id| *id != first);
        let later = std::mem::replace(&mut self.chat.messages, messages);
        self.chat.messages.extend(later);
    }

    /// Counts a base tick; true when the room's tick is due (every
    /// [`engagement_base_ticks`] of `subscribers`): the tick is then under way until its
    /// pass ([`Engagement::end_tick`]).
    pub fn start_tick(&mut self, subscribers: usize) -> bool {
        self.base_ticks += 1;
        if self.base_ticks < engagement_base_ticks(subscribers) {
            return false;
        }
        self.base_ticks = 0;
        self.in_tick = true;
        true
    }

    /// Ends the tick under way: its volatile frames (the counts of each poll voted in, the
    /// question up-votes, the reaction sums, in that order) and its pass.
    pub fn end_tick(
        &mut self,
        live: &LiveState,
        reactions: ReactionCounts,
        subscribers: usize,
    ) -> TickPass {
        let mut frames = Vec::new();
        for poll_id in std::mem::take(&mut self.polls_counted) {
            let Some(poll) = live
                .state_for_all
                .polls
                .iter()
                .find(|p| p.poll_id == poll_id)
            else {
                continue;
            };
            frames.push(VolatileEvent::PollCounts {
                poll_id,
                counts: poll.counts.clone(),
                voters: poll.voters,
            });
        }
        let voted = std::mem::take(&mut self.questions_counted);
        let votes: BTreeMap<Id, u32> = live
            .state_for_all
            .questions
            .iter()
            .filter(|q| voted.contains(&q.question_id))
            .map(|q| (q.question_id.clone(), q.votes))
            .collect();
        if !votes.is_empty() {
            frames.push(VolatileEvent::QuestionVotes { votes });
        }
        if !reactions.is_empty() {
            frames.push(VolatileEvent::Reactions { counts: reactions });
        }
        let due = self.tick_due(subscribers);
        self.passes += 1;
        self.in_tick = false;
        TickPass {
            frames,
            due,
            pass: self.passes,
        }
    }

    /// When the frames of the tick under way are scheduled: a guide's by this tick's pass,
    /// an attendee's by the next tick's in a room whose tick is longer than the base tick
    /// (until then they ride any other write).
    fn tick_due(&self, subscribers: usize) -> TickDue {
        let pass = self.passes + 1;
        let piggyback = engagement_base_ticks(subscribers) > 1;
        TickDue {
            guide: Some(pass),
            attendee: Some(if piggyback { pass + 1 } else { pass }),
        }
    }

    /// When a chat batch is scheduled: one of this replica's tick batches is a frame of
    /// its tick (`Engagement::tick_due`; in cluster mode it may come back from Redis
    /// after the tick's pass: then a guide's goes out at once, an attendee's of a large
    /// room by the next pass). Any other batch (a lone message, one posted before a
    /// moderation, another replica's) is written at once.
    pub fn tick_batch_due(&mut self, messages: &[ChatMessage], subscribers: usize) -> TickDue {
        let Some(first) = messages.first() else {
            return TickDue::NOW;
        };
        let Some(at) = self
            .tick_batches
            .iter()
            .position(|id| *id == first.message_id)
        else {
            return TickDue::NOW;
        };
        self.tick_batches.remove(at);
        if self.in_tick {
            return self.tick_due(subscribers);
        }
        let piggyback = engagement_base_ticks(subscribers) > 1;
        TickDue {
            guide: None,
            attendee: piggyback.then_some(self.passes + 1),
        }
    }
}

/// A room's reaction taps, counted without its lock.
#[derive(Default)]
pub struct Taps {
    /// Taps since the last tick, per [`Reaction::index`].
    counts: [AtomicU32; 5],
    /// Cluster mode: the newest reaction bucket this replica has read and sent.
    pub read: AtomicU64,
    /// Reaction sums sent since the last session sample.
    sent: Mutex<ReactionCounts>,
}

impl Taps {
    pub fn count(&self, reaction: Reaction) {
        self.counts[reaction.index()].fetch_add(1, Ordering::Relaxed);
    }

    /// The taps counted since the last call, and the count back to zero.
    pub fn take(&self) -> ReactionCounts {
        ReactionCounts::from_array(std::array::from_fn(|i| {
            self.counts[i].swap(0, Ordering::Relaxed)
        }))
    }

    /// Adds sums a tick sent, for the next session sample.
    pub fn sent(&self, counts: ReactionCounts) {
        if !counts.is_empty() {
            self.sent
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .add(counts);
        }
    }

    /// The sums sent since the last sample, and those back to none.
    pub fn take_sent(&self) -> ReactionCounts {
        std::mem::take(
            &mut *self
                .sent
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        )
    }
}
