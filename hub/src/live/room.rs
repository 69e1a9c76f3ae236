//! One appointment's live state, its ordered event log and its subscribers.
//!
//! Every state change goes through the room's [`Order`]: the change is decided under the
//! room lock, then given the next sequence number. In single mode ([`super::local`])
//! that happens under the same lock: the event is written to the store, applied to the
//! state, appended to the log and put in every subscriber's bounded queue, which a
//! writer task empties into the socket outside the lock ([`super::fanout`]). Doing all
//! of that under one lock is what makes every subscriber see one order, and makes
//! [`Room::attach`] (snapshot or replay, then subscribe) free of gaps and duplicates. In
//! cluster mode ([`super::replicated`]) Redis gives the order, and the room applies the
//! event when Redis hands it back, the same way under its lock.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Instant;

use super::fanout::Outlet;
use super::policy::{self, Decision, TurnedAway};
use super::queue::TrySendError;
use axum::body::Bytes;
use axum::extract::ws::{Message, Utf8Bytes};
use futures_util::future::BoxFuture;
use protocol::codec::{Codec, Encoded};
use protocol::engagement::polls::PollVotes;
use protocol::engagement::questions::QuestionBook;
use protocol::engagement::{
    engagement_base_ticks, engagement_tick_ms, ChatMessage, ChatModeration, Reaction, ReactionCounts, MAX_CHAT_BATCH,
};
use protocol::frame::{close_code, ErrorCode, Event, EventFrame, Resume, ServerFrame, VolatileEvent, VolatileFrame};
pub use protocol::internal::Audience;
use protocol::live_state::{file_participants, LiveState};
use protocol::session::{SessionRecord, SessionSample};
use protocol::state::{AttendeeSummary, Id, Snapshot, StateForAll, StateForClients};
use protocol::{AttendeeStatus, CartPermission, ConnectionState, HubClaims, Role};

use crate::metrics::Metrics;
use crate::store::{self, RoomState, StoreError, StoredEvent, StoredRoom};

/// Events between two snapshots in the store, at least. A room with more participants
/// than that waits for as many events as it has participants: a snapshot holds every
/// participant, and writing one every 256 events would make the joins of a large room
/// cost the square of its size (10,000 joins: 40 snapshots of up to 2.5 MB each).
pub const SNAPSHOT_EVERY: u64 = 256;

/// Events between two snapshots of a room with `participants` participants.
pub fn snapshot_interval(participants: usize) -> u64 {
    SNAPSHOT_EVERY.max(participants as u64)
}

/// Participants in a guide's welcome, and in each `participants` frame after it: a room
/// of thousands is sent in pages rather than in one frame of megabytes.
pub const PARTICIPANTS_PER_FRAME: usize = 500;

/// Frames a guide's queue holds per participant of the room, at least (on top of the
/// hub's `HUB_SEND_QUEUE`). Every join and leave of a room is an event for its guides: a
/// join storm of 10,000 attendees is 10,000 presence events (20,000 and more with
/// reconnects) within seconds, and a guide's cockpit that applies them more slowly than
/// they come — it copies its participant map per event — would fill a fixed queue of 512
/// and be closed as a slow consumer (4008), as the load generator's guide was (#19 item 8).
/// So a guide's queue grows with the room; an attendee's stays at `HUB_SEND_QUEUE` (it
/// is sent no presence). Memory is taken only by what is queued.
pub const GUIDE_QUEUE_PER_PARTICIPANT: usize = 3;

/// A change decided under the room lock: the event to publish with its audience, or
/// nothing to publish.
pub type Change<'a> = Box<dyn FnOnce(&mut Inner) -> Option<(Audience, Event)> + Send + 'a>;

/// Where a room's events get their order and its history is kept: [`super::local`]
/// (single mode, SQLite) or [`super::replicated`] (cluster mode, Redis). The room never
/// asks which one it has.
pub trait Order: Send + Sync {
    /// Opens an appointment's room from its history (created when there is none).
    fn open(self: Arc<Self>, appointment_id: String, settings: RoomSettings) -> BoxFuture<'static, Result<Room, StoreError>>;

    /// Once the room can be found by others: brings it up to date with events ordered
    /// while it was opening (nothing to do where this hub orders them itself).
    fn catch_up<'a>(&'a self, room: &'a Room) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Runs `change` under the room lock and gives the event it decides the next place in
    /// the order. Returns that sequence number, or `None` when nothing was decided. On a
    /// storage error nothing changed and nobody was sent anything.
    fn commit<'a>(&'a self, room: &'a Room, change: Change<'a>) -> BoxFuture<'a, Result<Option<u64>, StoreError>>;

    /// The reaction sums to send this tick, given the taps this replica counted since the
    /// last one. Single mode: this replica's taps are all there are. Cluster mode merges
    /// every replica's (see [`super::replicated`]).
    fn merge_reactions<'a>(&'a self, _room: &'a Room, local: ReactionCounts) -> BoxFuture<'a, Result<ReactionCounts, StoreError>> {
        Box::pin(async move { Ok(local) })
    }
}

/// What became of a submitted change.
#[derive(Debug, Clone, PartialEq)]
pub enum Submitted {
    /// The event got this sequence number (in cluster mode it is applied when Redis
    /// hands it back).
    Published { seq: u64, event: Event },
    /// A volatile event went out.
    Sent,
    /// Nothing to publish; the request is acknowledged.
    Nothing,
    /// Taken for the room's next tick: a reaction counted (it goes out with the room's
    /// next sum), or a chat message taken into the room's next batch (it goes out as part
    /// of one ordered `chatMessagesPosted` within [`CHAT_BATCH_MS`]). Acknowledged without
    /// a sequence number.
    Counted,
    /// Refused by the policy.
    Refused { code: ErrorCode, message: String },
}

/// What a connection task receives from its room. Small on purpose: every connection's
/// queue allocates a block of these up front.
pub struct Outbound {
    pub item: Queued,
    /// When the room queued it, for the fan-out latency metric; `None` for the frames of an
    /// engagement tick ([`Room::engagement_tick`]), queued without scheduling a write: in a
    /// large room they ride a later write, up to a tick and more by design, which is not
    /// the hub running late and would set off `HubFanOutSlow`.
    pub queued_at: Option<Instant>,
}

/// A queued frame; the event itself is shared by all subscribers.
pub enum Queued {
    Event {
        seq: u64,
        prev: u64,
        event: Arc<SharedEvent>,
    },
    Volatile(Arc<SharedVolatile>),
    /// No frame: a writer task handed the connection to its task (see
    /// [`super::fanout`]), which must finish writing what is in the socket's buffer.
    Flush,
}

impl Queued {
    /// The WebSocket message to write; `None` for [`Queued::Flush`] (or a frame that
    /// could not be encoded).
    pub fn message(&self, codec: Codec) -> Option<Message> {
        match self {
            Queued::Event { seq, prev, event } => event.message(codec, *seq, *prev),
            Queued::Volatile(event) => event.message(codec),
            Queued::Flush => None,
        }
    }
}

/// An event on its way to many subscribers, encoded once per codec and `prev`.
/// Subscribers of one audience mostly share `prev`, so most of them reuse those bytes
/// instead of encoding the same frame again. Not all: while attendees vote, each voter's
/// `prev` is its own `pollVoted`, and the guides' the latest vote. The first encoding is
/// kept without a lock; every other `prev`'s in a map — before, only the first was kept,
/// and when a guide's write came first every attendee encoded the frame again (a second's
/// chat batch 10,000 times, #19 item 8).
pub struct SharedEvent {
    pub event: Event,
    json: PerPrev<Utf8Bytes>,
    msgpack: PerPrev<Bytes>,
}

/// One codec's encodings of an event, by `prev`: the first without a lock, the others in a map.
struct PerPrev<T> {
    first: OnceLock<Option<(u64, T)>>,
    others: Mutex<HashMap<u64, T>>,
}

impl<T: Clone> PerPrev<T> {
    fn new() -> PerPrev<T> {
        PerPrev { first: OnceLock::new(), others: Mutex::default() }
    }

    /// The bytes for `prev`, encoded by `encode` the first time they are asked for.
    fn get(&self, prev: u64, encode: impl Fn() -> Option<T>) -> Option<T> {
        match self.first.get_or_init(|| encode().map(|bytes| (prev, bytes))) {
            Some((first_prev, bytes)) if *first_prev == prev => Some(bytes.clone()),
            _ => {
                let mut others = self.others.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                if let Some(bytes) = others.get(&prev) {
                    return Some(bytes.clone());
                }
                let bytes = encode()?;
                others.insert(prev, bytes.clone());
                Some(bytes)
            }
        }
    }
}

impl SharedEvent {
    pub fn new(event: Event) -> SharedEvent {
        SharedEvent { event, json: PerPrev::new(), msgpack: PerPrev::new() }
    }

    /// The WebSocket message of this event for a subscriber whose previous event was
    /// `prev`.
    pub fn message(&self, codec: Codec, seq: u64, prev: u64) -> Option<Message> {
        let frame = EventFrame { seq, prev, event: &self.event };
        match codec {
            Codec::Json => self
                .json
                .get(prev, || match codec.encode(&frame) {
                    Ok(Encoded::Text(text)) => Some(Utf8Bytes::from(text)),
                    _ => None,
                })
                .map(Message::Text),
            Codec::MsgPack => self
                .msgpack
                .get(prev, || match codec.encode(&frame) {
                    Ok(Encoded::Binary(bytes)) => Some(Bytes::from(bytes)),
                    _ => None,
                })
                .map(Message::Binary),
        }
    }
}

/// A volatile event on its way to many subscribers, encoded once per codec.
pub struct SharedVolatile {
    pub event: VolatileEvent,
    json: OnceLock<Option<Utf8Bytes>>,
    msgpack: OnceLock<Option<Bytes>>,
}

impl SharedVolatile {
    pub fn new(event: VolatileEvent) -> SharedVolatile {
        SharedVolatile { event, json: OnceLock::new(), msgpack: OnceLock::new() }
    }

    pub fn message(&self, codec: Codec) -> Option<Message> {
        let frame = VolatileFrame { event: &self.event };
        match codec {
            Codec::Json => self
                .json
                .get_or_init(|| match codec.encode(&frame) {
                    Ok(Encoded::Text(text)) => Some(Utf8Bytes::from(text)),
                    _ => None,
                })
                .clone()
                .map(Message::Text),
            Codec::MsgPack => self
                .msgpack
                .get_or_init(|| match codec.encode(&frame) {
                    Ok(Encoded::Binary(bytes)) => Some(Bytes::from(bytes)),
                    _ => None,
                })
                .clone()
                .map(Message::Binary),
        }
    }
}

/// What every room of a hub shares.
#[derive(Clone)]
pub struct RoomSettings {
    /// State events kept for resuming clients.
    pub retained_events: usize,
    pub metrics: Arc<Metrics>,
}

/// A connection's handle in a room.
pub struct Subscriber {
    pub connection_id: u64,
    pub attendee_id: String,
    pub role: Role,
    /// Its queue, and the writer task that empties it.
    outlet: Outlet,
    /// The `seq` of the last event queued for this subscriber (the next one's `prev`).
    last_sent: u64,
    /// Set before the room drops the sender, so the connection knows why its queue ended.
    close_reason: Arc<AtomicU16>,
    /// Engagement frames were queued for it without scheduling its writer: the number of
    /// the tick pass that schedules it at the latest, unless another frame's write takes
    /// them first (0: nothing owed). See [`Room::engagement_tick`].
    due_by: u64,
}

impl Subscriber {
    /// Queues a frame: scheduled at once (`None`), or an engagement frame of a tick left
    /// for the next write to the connection, whatever it carries, or else for the tick
    /// pass numbered `due` (see [`Room::engagement_tick`]).
    fn queue(&mut self, outbound: Outbound, due: Option<u64>) -> Result<(), TrySendError<Outbound>> {
        match due {
            None => {
                // Whatever a tick left queued goes out with this frame's write.
                self.due_by = 0;
                self.outlet.send(outbound)
            }
            Some(due) => {
                let outbound = Outbound { queued_at: None, ..outbound };
                if self.outlet.send_unscheduled(outbound)? && (self.due_by == 0 || self.due_by > due) {
                    self.due_by = due;
                }
                Ok(())
            }
        }
    }
}

/// The result of attaching a connection: what to send before anything from the queue.
pub struct Attached {
    pub welcome: ServerFrame,
    /// `participants` frames with the rest of a large room (after the welcome).
    pub pages: Vec<ServerFrame>,
    pub replay: Vec<ServerFrame>,
}

/// Keeps the first [`PARTICIPANTS_PER_FRAME`] participants of a guide's snapshot (guides
/// first) and returns the others in `participants` frames.
fn page_participants(snapshot: &mut Snapshot) -> Vec<ServerFrame> {
    let Some(guides) = snapshot.state_for_guides.as_mut() else { return Vec::new() };
    let total = guides.guides.len() + guides.clients.len() + guides.inactive_clients.len();
    if total <= PARTICIPANTS_PER_FRAME {
        return Vec::new();
    }
    let mut kept = 0;
    let mut rest = Vec::with_capacity(total - PARTICIPANTS_PER_FRAME);
    for map in [&mut guides.guides, &mut guides.clients, &mut guides.inactive_clients] {
        let keep = PARTICIPANTS_PER_FRAME.saturating_sub(kept);
        if let Some(first_sent_later) = map.keys().nth(keep).cloned() {
            rest.extend(map.split_off(&first_sent_later).into_values());
        }
        kept += map.len();
    }
    let pages = rest.len().div_ceil(PARTICIPANTS_PER_FRAME) as u32;
    let mut frames = Vec::with_capacity(pages as usize);
    let mut rest = rest.into_iter();
    for page in 1..=pages {
        let participants: Vec<AttendeeSummary> = rest.by_ref().take(PARTICIPANTS_PER_FRAME).collect();
        frames.push(ServerFrame::Participants { page, pages, participants });
    }
    frames
}

/// A room's connections, guides apart: most events that are not for everyone are for
/// the guides only (every join and leave), and should not look at every attendee. Events
/// for one attendee and the guides (a vote's `pollVoted`, 1,000 a second in a 10,000-vote
/// poll) find the attendee's connections by its id instead of comparing it with every
/// attendee's (#19 item 8: that scan of the whole room, under its lock, per vote, was a
/// tenth of the hub's core at 10,000 attendees).
#[derive(Default)]
struct Subscribers {
    guides: Vec<Subscriber>,
    clients: Vec<Subscriber>,
    /// Where each attendee's connections are in `clients`.
    client_at: HashMap<Arc<str>, Vec<usize>>,
}

impl Subscribers {
    fn len(&self) -> usize {
        self.guides.len() + self.clients.len()
    }

    fn push(&mut self, subscriber: Subscriber) {
        match subscriber.role {
            Role::Guide => self.guides.push(subscriber),
            Role::Client => {
                self.client_at.entry(Arc::from(subscriber.attendee_id.as_str())).or_default().push(self.clients.len());
                self.clients.push(subscriber);
            }
        }
    }

    /// Removes one connection without moving the others (their order does not matter):
    /// when a large room empties, every connection leaves, and shifting the rest each
    /// time would cost the square of the room's size.
    fn remove(&mut self, connection_id: u64) -> bool {
        if let Some(at) = self.guides.iter().position(|s| s.connection_id == connection_id) {
            self.guides.swap_remove(at);
            return true;
        }
        let Some(at) = self.clients.iter().position(|s| s.connection_id == connection_id) else { return false };
        let removed = self.clients.swap_remove(at);
        if let Some(positions) = self.client_at.get_mut(removed.attendee_id.as_str()) {
            positions.retain(|&p| p != at);
            if positions.is_empty() {
                self.client_at.remove(removed.attendee_id.as_str());
            }
        }
        // The last one took its place.
        let moved_from = self.clients.len();
        if let Some(moved) = self.clients.get(at) {
            if let Some(positions) = self.client_at.get_mut(moved.attendee_id.as_str()) {
                for p in positions.iter_mut().filter(|p| **p == moved_from) {
                    *p = at;
                }
            }
        }
        true
    }

    fn retain(&mut self, mut keep: impl FnMut(&Subscriber) -> bool) {
        self.guides.retain(&mut keep);
        let before = self.clients.len();
        self.clients.retain(keep);
        if self.clients.len() != before {
            self.client_at.clear();
            for (at, sub) in self.clients.iter().enumerate() {
                self.client_at.entry(Arc::from(sub.attendee_id.as_str())).or_default().push(at);
            }
        }
    }

    /// The subscribers an event for `audience` goes to: the guides, then the attendees.
    fn of<'a>(&'a mut self, audience: &'a Audience) -> Box<dyn Iterator<Item = &'a mut Subscriber> + 'a> {
        let guides = self.guides.iter_mut();
        match audience {
            Audience::Guides => Box::new(guides),
            Audience::Everyone => Box::new(guides.chain(self.clients.iter_mut())),
            Audience::Attendee(id) => {
                let mut positions = self.client_at.get(id.as_str()).cloned().unwrap_or_default();
                positions.sort_unstable();
                // Disjoint mutable borrows of those places, in order.
                let mut chosen = Vec::with_capacity(positions.len());
                let mut rest: &mut [Subscriber] = &mut self.clients;
                let mut offset = 0;
                for at in positions {
                    let Some(tail) = rest.get_mut(at - offset..) else { break };
                    let Some((sub, after)) = tail.split_first_mut() else { break };
                    chosen.push(sub);
                    rest = after;
                    offset = at + 1;
                }
                Box::new(guides.chain(chosen))
            }
        }
    }
}

/// The state to snapshot, taken under the room's lock (the participants shared, not
/// copied) and written once the lock is released.
pub struct DueSnapshot {
    seq: u64,
    state_for_all: StateForAll,
    state_for_clients: StateForClients,
    participants: Vec<Arc<AttendeeSummary>>,
    removed: BTreeSet<Id>,
    chat_moderation: ChatModeration,
    poll_votes: PollVotes,
    session: SessionRecord,
    question_book: QuestionBook,
}

impl DueSnapshot {
    /// The sequence number and the state to store, built once the room lock is released.
    pub fn into_state(self) -> (u64, RoomState) {
        let participants = self.participants.iter().map(|p| AttendeeSummary::clone(p)).collect();
        let state = RoomState {
            state_for_all: self.state_for_all,
            state_for_clients: self.state_for_clients,
            participants,
            removed: self.removed,
            chat_moderation: self.chat_moderation,
            poll_votes: self.poll_votes,
            session: self.session,
            question_book: self.question_book,
        };
        (self.seq, state)
    }
}

/// What a participant's snapshot is made of, taken under the room's lock; the guides'
/// participant maps are built from it after the lock is released.
struct SnapshotParts {
    state_for_all: StateForAll,
    state_for_clients: StateForClients,
    /// For guides: every participant, and the chat's moderation.
    participants: Option<(Vec<Arc<AttendeeSummary>>, ChatModeration)>,
}

impl SnapshotParts {
    fn into_snapshot(self) -> Snapshot {
        let state_for_guides = self.participants.map(|(participants, chat_moderation)| {
            let mut guides = file_participants(participants);
            guides.chat_moderation = chat_moderation;
            guides
        });
        Snapshot { state_for_all: self.state_for_all, state_for_clients: self.state_for_clients, state_for_guides }
    }
}

/// What the room lock guards.
pub struct Inner {
    epoch: String,
    pub(super) seq: u64,
    /// The sequence number of the latest snapshot (written or being written).
    snapshot_seq: u64,
    /// The state, changed only by its reducer ([`LiveState::apply`]).
    pub(super) live: LiveState,
    /// Open connections per attendee; not part of the durable state.
    connections: HashMap<String, usize>,
    log: VecDeque<StoredEvent>,
    subscribers: Subscribers,
    /// Polls voted in since the last counts were sent (see [`Room::send_poll_counts`]).
    polls_counted: BTreeSet<Id>,
    /// Questions up-voted since the last counts were sent (see [`Room::send_question_votes`]).
    questions_counted: BTreeSet<Id>,
    /// Chat messages taken since the last batch was posted (see [`Room::flush_chat`]).
    chat_batch: ChatBatch,
    /// The engagement tick ([`Room::engagement_tick`]): base ticks since the room's last
    /// tick, tick passes run, whether a tick is between its chat batch and its pass,
    /// whether a subscriber may be owed a schedule, and the first message ids of this
    /// replica's tick batches not yet applied (fanned out as the tick's frames).
    base_ticks: u64,
    passes: u64,
    in_tick: bool,
    owed: bool,
    tick_batches: VecDeque<Id>,
}

/// Tick batches ([`Inner::tick_batches`]) a room remembers until Redis hands them back.
const MAX_TICK_BATCHES: usize = 16;

/// By which tick pass a frame queued now must be scheduled, for a guide and for an
/// attendee (`None`: at once, as any event).
#[derive(Clone, Copy, PartialEq, Eq)]
struct TickDue {
    guide: Option<u64>,
    attendee: Option<u64>,
}

impl TickDue {
    const NOW: TickDue = TickDue { guide: None, attendee: None };

    fn of(self, role: Role) -> Option<u64> {
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

pub struct Room {
    pub appointment_id: String,
    pub(super) retained_events: usize,
    metrics: Arc<Metrics>,
    order: Arc<dyn Order>,
    // A std Mutex: it is never held across an `.await` (queues are fed with try_send,
    // and in single mode the store is a local SQLite file written with one short
    // statement; in cluster mode Redis is called after the lock is released).
    inner: Mutex<Inner>,
    /// Reaction taps since the last tick, per [`Reaction::index`]: counted without the lock.
    reactions: [AtomicU32; 5],
    /// Cluster mode: the newest reaction bucket this replica has read and sent.
    pub(super) reactions_read: AtomicU64,
    /// Reaction sums sent since the last session sample ([`Room::sample_session`]).
    sample_reactions: Mutex<ReactionCounts>,
    /// Held while the chat's batch is posted ([`Room::flush_chat`]): two batches of one
    /// room are never ordered at once (in cluster mode they could overtake each other).
    chat_flush: tokio::sync::Mutex<()>,
}

fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

impl Room {
    /// A room from its stored history: the latest snapshot with the events after it
    /// applied. Its events are ordered by `order`.
    pub fn from_stored(appointment_id: String, settings: &RoomSettings, order: Arc<dyn Order>, stored: StoredRoom) -> Room {
        let retained_events = settings.retained_events;
        let live = LiveState {
            state_for_all: stored.snapshot.state_for_all,
            state_for_clients: stored.snapshot.state_for_clients,
            participants: stored.snapshot.participants.into_iter().map(|p| (p.attendee_id.clone(), Arc::new(p))).collect(),
            removed: stored.snapshot.removed,
            chat_moderation: stored.snapshot.chat_moderation,
            poll_votes: stored.snapshot.poll_votes,
            session: stored.snapshot.session,
            question_book: stored.snapshot.question_book,
        };
        let mut inner = Inner {
            epoch: stored.epoch,
            seq: stored.snapshot_seq,
            snapshot_seq: stored.snapshot_seq,
            live,
            connections: HashMap::new(),
            log: VecDeque::new(),
            subscribers: Subscribers::default(),
            polls_counted: BTreeSet::new(),
            questions_counted: BTreeSet::new(),
            chat_batch: ChatBatch::default(),
            base_ticks: 0,
            passes: 0,
            in_tick: false,
            owed: false,
            tick_batches: VecDeque::new(),
        };
        for event in stored.events {
            if event.seq == inner.seq + 1 {
                inner.live.apply(&event.event);
                inner.seq = event.seq;
            }
            if event.seq <= inner.seq {
                inner.log.push_back(event);
            }
        }
        let retained = store::retained_events(retained_events, inner.live.participants.len());
        while inner.log.len() > retained {
            inner.log.pop_front();
        }
        Room {
            appointment_id,
            retained_events,
            metrics: settings.metrics.clone(),
            order,
            inner: Mutex::new(inner),
            reactions: Default::default(),
            reactions_read: AtomicU64::new(0),
            sample_reactions: Mutex::default(),
            chat_flush: tokio::sync::Mutex::new(()),
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave the state half-changed (changes are
        // applied only after the store accepted them), so recover the guard.
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn subscriber_count(&self) -> usize {
        self.lock().subscribers.len()
    }

    /// The state as a participant of `role` sees it (a client's own cart permission
    /// when `attendee_id` is given).
    pub fn snapshot(&self, role: Role, attendee_id: Option<&str>) -> Snapshot {
        let parts = self.lock().snapshot_parts(role, attendee_id.unwrap_or_default());
        parts.into_snapshot()
    }

    pub fn state_for_all(&self) -> StateForAll {
        self.lock().live.state_for_all.clone()
    }

    /// The epoch of the room's history.
    pub fn epoch(&self) -> String {
        self.lock().epoch.clone()
    }

    /// The room's epoch, sequence number and state, to write back where the history was
    /// lost.
    pub(super) fn current(&self) -> (String, u64, RoomState) {
        let inner = self.lock();
        let state = RoomState {
            state_for_all: inner.live.state_for_all.clone(),
            state_for_clients: inner.live.state_for_clients.clone(),
            participants: inner.live.participants.values().map(|p| AttendeeSummary::clone(p)).collect(),
            removed: inner.live.removed.clone(),
            chat_moderation: inner.live.chat_moderation.clone(),
            poll_votes: inner.live.poll_votes.clone(),
            session: inner.live.session.clone(),
            question_book: inner.live.question_book.clone(),
        };
        (inner.epoch.clone(), inner.seq, state)
    }

    /// Replaces the room's history with `stored` (a new epoch) and closes every connection
    /// with [`close_code::RESYNC`]: each reconnects, resumes with the old epoch, and is
    /// sent a snapshot of the new history.
    pub(super) fn replace_history(&self, stored: StoredRoom) {
        let settings = RoomSettings { retained_events: self.retained_events, metrics: self.metrics.clone() };
        let fresh = Room::from_stored(self.appointment_id.clone(), &settings, self.order.clone(), stored);
        let fresh = fresh.inner.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut inner = self.lock();
        inner.epoch = fresh.epoch;
        inner.seq = fresh.seq;
        inner.snapshot_seq = fresh.snapshot_seq;
        inner.live = fresh.live;
        inner.log = fresh.log;
        inner.subscribers.retain(|s| {
            s.close_reason.store(close_code::RESYNC, Ordering::Relaxed);
            false
        });
        self.metrics.history_resets.fetch_add(1, Ordering::Relaxed);
    }

    /// Ends every connection of the room with `reason` (a close code): each connection
    /// writes what is already queued for it, then closes with that code. Used by the
    /// drain ([`crate::drain`]) to send every client elsewhere.
    pub fn close_all(&self, reason: u16) -> usize {
        let mut inner = self.lock();
        let closed = inner.subscribers.len();
        inner.subscribers.retain(|s| {
            s.close_reason.store(reason, Ordering::Relaxed);
            false
        });
        closed
    }

    /// Registers a connection and tells it how to catch up. `last_seq`/`epoch` come from
    /// the client's `hello`. Refused, with nothing registered, when the policy turns the
    /// participant away ([`policy::admit`], asked under the room lock).
    #[allow(clippy::too_many_arguments)]
    pub fn attach(
        &self,
        connection_id: u64,
        claims: &HubClaims,
        last_seq: Option<u64>,
        epoch: Option<&str>,
        outlet: impl Into<Outlet>,
        close_reason: Arc<AtomicU16>,
        heartbeat_ms: u64,
    ) -> Result<Attached, TurnedAway> {
        let outlet = outlet.into();
        let mut inner = self.lock();
        policy::admit(claims, &inner.live)?;
        let role = claims.role;
        let attendee_id = claims.sub.clone();
        let oldest_retained = inner.log.front().map_or(inner.seq + 1, |e| e.seq);
        let replayable = match (last_seq, epoch) {
            (Some(last), Some(epoch)) => epoch == inner.epoch && last <= inner.seq && last + 1 >= oldest_retained,
            _ => false,
        };
        let (resume, snapshot, replay, last_sent) = if replayable {
            let last = last_seq.unwrap_or_default();
            let mut prev = last;
            let mut replay = Vec::new();
            for logged in inner.log.iter().filter(|e| e.seq > last) {
                if logged.audience.includes(role, &attendee_id) {
                    replay.push(ServerFrame::Event { seq: logged.seq, prev, event: logged.event.clone() });
                    prev = logged.seq;
                }
            }
            (Resume::Replayed, None, replay, prev)
        } else {
            let resume = if last_seq.is_some() { Resume::Snapshot } else { Resume::Fresh };
            (resume, Some(inner.snapshot_parts(role, &attendee_id)), Vec::new(), inner.seq)
        };
        let (seq, epoch) = (inner.seq, inner.epoch.clone());
        if role == Role::Guide {
            outlet.raise_capacity(GUIDE_QUEUE_PER_PARTICIPANT * inner.live.participants.len());
        }
        inner.subscribers.push(Subscriber {
            connection_id,
            attendee_id: attendee_id.clone(),
            role,
            outlet,
            last_sent,
            close_reason,
            due_by: 0,
        });
        drop(inner);
        // Outside the lock: the snapshot and its pages are built from what was taken
        // under it, and go out before anything queued after it.
        let mut snapshot = snapshot.map(|parts| Box::new(parts.into_snapshot()));
        let pages = snapshot.as_deref_mut().map(page_participants).unwrap_or_default();
        let welcome = ServerFrame::Welcome {
            appointment_id: self.appointment_id.clone(),
            attendee_id,
            role,
            seq,
            epoch,
            resume,
            snapshot,
            heartbeat_ms,
            participant_pages: (!pages.is_empty()).then_some(pages.len() as u32),
        };
        Ok(Attached { welcome, pages, replay })
    }

    /// The attendee ids of the guides.
    pub fn guide_ids(&self) -> Vec<String> {
        self.lock().live.participants.values().filter(|p| p.role == Role::Guide).map(|p| p.attendee_id.clone()).collect()
    }

    /// Removes a connection; returns whether it was still attached.
    pub fn detach(&self, connection_id: u64) -> bool {
        self.lock().subscribers.remove(connection_id)
    }

    /// Decides a change with `decide` (the policy) under the room lock and carries it
    /// out: a state event gets its place in the order, a volatile one goes out at once.
    pub async fn submit(&self, decide: impl FnOnce(&LiveState) -> Decision + Send) -> Result<Submitted, StoreError> {
        let mut outcome = Submitted::Nothing;
        let change: Change<'_> = Box::new(|inner: &mut Inner| match decide(&inner.live) {
            Decision::Publish { audience, event } => {
                outcome = Submitted::Published { seq: 0, event: event.clone() };
                Some((audience, event))
            }
            Decision::Volatile { audience, event } => {
                self.fan_out_volatile(inner, &audience, event);
                outcome = Submitted::Sent;
                None
            }
            Decision::React(reaction) => {
                self.count_reaction(reaction);
                outcome = Submitted::Counted;
                None
            }
            Decision::Chat(message) => match inner.take_chat(message) {
                Some(event) => {
                    outcome = Submitted::Published { seq: 0, event: event.clone() };
                    Some((Audience::Everyone, event))
                }
                None => {
                    outcome = Submitted::Counted;
                    None
                }
            },
            Decision::Nothing => None,
            Decision::Refuse { code, message } => {
                outcome = Submitted::Refused { code, message };
                None
            }
        });
        let seq = self.order.commit(self, change).await?;
        if let (Submitted::Published { seq: published, .. }, Some(seq)) = (&mut outcome, seq) {
            *published = seq;
        }
        Ok(outcome)
    }

    /// Publishes a state event as it is, without asking the policy (tests only: every
    /// other change goes through [`Room::submit`]). Returns its sequence number.
    #[cfg(test)]
    pub(crate) async fn publish(&self, audience: Audience, event: Event) -> Result<u64, StoreError> {
        let seq = self.order.commit(self, Box::new(|_: &mut Inner| Some((audience, event)))).await?;
        seq.ok_or_else(|| StoreError::Corrupt("a published event got no sequence number".into()))
    }

    /// Applies the next event in order and queues it for its audience. Returns the state
    /// to snapshot when one is due.
    pub(super) fn apply_and_fan_out(&self, inner: &mut Inner, stored: StoredEvent) -> Option<DueSnapshot> {
        let seq = stored.seq;
        inner.seq = seq;
        inner.live.apply(&stored.event);
        match &stored.event {
            Event::PollVoted { poll_id, .. } => {
                inner.polls_counted.insert(poll_id.clone());
            }
            Event::QuestionVoted { question_id, .. } => {
                inner.questions_counted.insert(question_id.clone());
            }
            Event::AttendeeChanged { .. } => {
                let capacity = GUIDE_QUEUE_PER_PARTICIPANT * inner.live.participants.len();
                for guide in &inner.subscribers.guides {
                    guide.outlet.raise_capacity(capacity);
                }
            }
            _ => {}
        }
        self.metrics.events.fetch_add(1, Ordering::Relaxed);
        let queued_at = Instant::now();
        // A chat batch of this replica's engagement tick goes out as one of the tick's
        // frames (see [`Room::engagement_tick`]); any other event is written at once.
        let due = match &stored.event {
            Event::ChatMessagesPosted { messages } => inner.tick_batch_due(messages),
            _ => TickDue::NOW,
        };
        inner.owed |= due != TickDue::NOW;
        let event = Arc::new(SharedEvent::new(stored.event.clone()));
        let mut gone = false;
        for sub in inner.subscribers.of(&stored.audience) {
            let item = Queued::Event { seq, prev: sub.last_sent, event: event.clone() };
            match sub.queue(Outbound { item, queued_at: Some(queued_at) }, due.of(sub.role)) {
                Ok(()) => sub.last_sent = seq,
                Err(TrySendError::Full(_)) => {
                    sub.close_reason.store(close_code::SLOW_CONSUMER, Ordering::Relaxed);
                    gone = true;
                }
                Err(TrySendError::Closed(_)) => gone = true,
            }
        }
        // Dropping a subscriber drops its sender; its connection task then sees the queue
        // end after the frames already in it and closes with `close_reason`. One pass
        // over the subscribers when nobody left, two when someone did.
        if gone {
            inner.subscribers.retain(|s| !s.outlet.is_closed() && s.close_reason.load(Ordering::Relaxed) == 0);
        }
        // On every replica that applies the event (not only the one that published it),
        // and right after queueing it: the attendee is sent the event, then closed.
        if let Some((attendee_id, reason)) = policy::ends_connections(&stored.event) {
            inner.subscribers.retain(|s| {
                if s.attendee_id == attendee_id {
                    s.close_reason.store(reason, Ordering::Relaxed);
                    false
                } else {
                    true
                }
            });
        }
        inner.log.push_back(stored);
        let retained = store::retained_events(self.retained_events, inner.live.participants.len());
        while inner.log.len() > retained {
            inner.log.pop_front();
        }
        if seq < inner.snapshot_seq + snapshot_interval(inner.live.participants.len()) {
            return None;
        }
        inner.snapshot_seq = seq;
        Some(DueSnapshot {
            seq,
            state_for_all: inner.live.state_for_all.clone(),
            state_for_clients: inner.live.state_for_clients.clone(),
            participants: inner.live.participants.values().cloned().collect(),
            removed: inner.live.removed.clone(),
            chat_moderation: inner.live.chat_moderation.clone(),
            poll_votes: inner.live.poll_votes.clone(),
            session: inner.live.session.clone(),
            question_book: inner.live.question_book.clone(),
        })
    }

    /// Posts the chat messages taken since the last batch: one ordered
    /// `chatMessagesPosted` to everyone per [`MAX_CHAT_BATCH`] messages (usually one),
    /// written at once. Called before a guide's chat moderation ([`super::submit`]) and by
    /// the drain before the hub goes; the room's tick posts its batch with
    /// [`Room::engagement_tick`]. In cluster mode each replica posts the messages its own
    /// connections sent: a room gets at most one batch per replica and tick, each ordered
    /// by Redis like any other event. When the order fails, nothing was posted: the
    /// messages go back in front of any taken meanwhile, for the next tick.
    pub async fn flush_chat(&self) -> Result<(), StoreError> {
        self.post_chat(false).await
    }

    /// In a room whose attendees' tick frames ride other writes (1,667 subscribers and
    /// more, see [`Room::engagement_tick`]): posts the chat taken since the last batch as
    /// one of the tick's frames, so it rides the write of the event that follows — a
    /// guide's slide change ([`super::submit`]). The chat then goes out in slices, each
    /// slide change carrying what was said since the one before, instead of one slide
    /// change a tick carrying the whole tick's chat to every attendee (at 10,000
    /// attendees and 50 messages a second that one fan-out wrote ~8 KiB more to each
    /// socket). Does nothing in a smaller room (its tick is the base tick) or when no
    /// message waits.
    pub async fn flush_chat_to_next_write(&self) -> Result<(), StoreError> {
        {
            let inner = self.lock();
            if inner.chat_batch.messages.is_empty() || engagement_base_ticks(inner.subscribers.len()) <= 1 {
                return Ok(());
            }
        }
        self.post_chat(true).await
    }

    /// [`Room::flush_chat`]; `of_tick`: the batch is one of the tick's frames (see
    /// [`Room::engagement_tick`]).
    async fn post_chat(&self, of_tick: bool) -> Result<(), StoreError> {
        let _one_at_a_time = self.chat_flush.lock().await;
        loop {
            let mut taken: Option<Vec<ChatMessage>> = None;
            let change: Change<'_> = Box::new(|inner: &mut Inner| {
                let batch = &mut inner.chat_batch;
                if batch.messages.is_empty() {
                    return None;
                }
                let rest = batch.messages.split_off(batch.messages.len().min(MAX_CHAT_BATCH));
                let messages = std::mem::replace(&mut batch.messages, rest);
                batch.last_posted_ms = policy::now_ms();
                if of_tick {
                    inner.tick_batches.push_back(messages[0].message_id.clone());
                    while inner.tick_batches.len() > MAX_TICK_BATCHES {
                        inner.tick_batches.pop_front();
                    }
                }
                taken = Some(messages.clone());
                Some((Audience::Everyone, Event::ChatMessagesPosted { messages }))
            });
            match self.order.commit(self, change).await {
                Ok(Some(_)) => {}
                Ok(None) => return Ok(()),
                Err(error) => {
                    if let Some(messages) = taken {
                        let mut inner = self.lock();
                        inner.tick_batches.retain(|id| *id != messages[0].message_id);
                        let later = std::mem::replace(&mut inner.chat_batch.messages, messages);
                        inner.chat_batch.messages.extend(later);
                    }
                    return Err(error);
                }
            }
        }
    }

    fn count_reaction(&self, reaction: Reaction) {
        self.reactions[reaction.index()].fetch_add(1, Ordering::Relaxed);
    }

    /// The taps counted since the last call, and the count back to zero.
    pub fn take_reactions(&self) -> ReactionCounts {
        ReactionCounts::from_array(std::array::from_fn(|i| self.reactions[i].swap(0, Ordering::Relaxed)))
    }

    /// Called every [`protocol::engagement::REACTION_TICK_MS`] (the base tick,
    /// [`super::Rooms::spawn_reaction_ticker`]): runs the room's engagement tick when it is
    /// due. A room ticks every [`engagement_tick_ms`] of its subscribers: 250 ms in a
    /// small room, growing with the room to 1 s at 5,000 subscribers and more. One tick:
    ///
    /// 1. the chat messages taken since the last tick are posted as one ordered
    ///    `chatMessagesPosted` ([`Room::flush_chat`]), queued to every subscriber without
    ///    scheduling its writer (in cluster mode when Redis hands the batch back);
    /// 2. this replica's reaction taps are merged by the order (cluster mode: the Redis
    ///    buckets);
    /// 3. one pass over the subscribers queues the tick's volatile frames (reaction sums,
    ///    the counts of each poll voted in, the question up-votes) behind the chat batch
    ///    and schedules each connection once: **one write per subscriber and tick**,
    ///    frames in that order.
    ///
    /// In a room whose tick is longer than the base tick (1,667 subscribers and more) an
    /// attendee's connection is not scheduled by its own tick (guides' always are): the
    /// frames ride the next write to that connection — a slide change, any event — and
    /// the next tick's pass schedules whoever had none, so nothing waits longer than one
    /// tick more. While the guide changes slides the engagement costs no write of its own.
    /// Order is untouched: every frame is queued under the room lock, in order, with its
    /// `prev`; only when the writer is asked to write changes.
    pub async fn engagement_tick(&self) -> Result<(), StoreError> {
        {
            let mut inner = self.lock();
            inner.base_ticks += 1;
            if inner.base_ticks < engagement_base_ticks(inner.subscribers.len()) {
                return Ok(());
            }
            inner.base_ticks = 0;
            inner.in_tick = true;
        }
        let chat = self.post_chat(true).await;
        let merged = self.order.merge_reactions(self, self.take_reactions()).await;
        let counts = merged.as_ref().copied().unwrap_or_default();
        if !counts.is_empty() {
            self.sample_reactions.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).add(counts);
        }
        self.tick_pass(counts);
        chat.and(merged.map(|_| ()))
    }

    /// The tick's pass (see [`Room::engagement_tick`]): its volatile frames queued to
    /// everyone, and every connection whose tick frames are due scheduled, in one pass.
    fn tick_pass(&self, reactions: ReactionCounts) {
        let mut inner = self.lock();
        let mut frames = Vec::new();
        for poll_id in std::mem::take(&mut inner.polls_counted) {
            let Some(poll) = inner.live.state_for_all.polls.iter().find(|p| p.poll_id == poll_id) else { continue };
            frames.push(VolatileEvent::PollCounts { poll_id, counts: poll.counts.clone(), voters: poll.voters });
        }
        let voted = std::mem::take(&mut inner.questions_counted);
        let votes: BTreeMap<Id, u32> = inner
            .live
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
        let due = inner.tick_due();
        let pass = inner.passes + 1;
        inner.passes = pass;
        inner.in_tick = false;
        if frames.is_empty() && !inner.owed {
            return;
        }
        let frames: Vec<Arc<SharedVolatile>> = frames.into_iter().map(|event| Arc::new(SharedVolatile::new(event))).collect();
        let queued_at = Instant::now();
        let mut owed = false;
        for sub in inner.subscribers.of(&Audience::Everyone) {
            for frame in &frames {
                let item = Queued::Volatile(frame.clone());
                if let Err(TrySendError::Full(_)) = sub.queue(Outbound { item, queued_at: Some(queued_at) }, due.of(sub.role)) {
                    self.metrics.queue_drops.fetch_add(1, Ordering::Relaxed);
                }
            }
            if sub.due_by != 0 && sub.due_by <= pass {
                sub.due_by = 0;
                // Written already with another frame's write: nothing left to schedule.
                if !sub.outlet.is_empty() {
                    sub.outlet.schedule();
                }
            }
            owed |= sub.due_by != 0;
        }
        inner.owed = owed;
    }

    /// What the reducer kept of the session for its report.
    pub fn session_record(&self) -> SessionRecord {
        self.lock().live.session.clone()
    }

    /// Writes a sample of the session into its log (`sessionSampled`, to the guides),
    /// once the presentation has started and when something changed since the last
    /// one: the reaction sums sent since then, the attendees' cart values now. One per
    /// interval of `sample_ms`: in cluster mode every replica samples, and the interval's
    /// first sample in the order wins (the reducer ignores the others; each replica
    /// sent the same merged sums). Before the start, taps are not kept.
    pub async fn sample_session(&self, sample_ms: u64, now_ms: u64) -> Result<(), StoreError> {
        let bucket = now_ms / sample_ms.max(1);
        let change: Change<'_> = Box::new(move |inner: &mut Inner| {
            let session = &inner.live.session;
            if bucket <= session.last_bucket() {
                return None;
            }
            let mut pending = self.sample_reactions.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let reactions = std::mem::take(&mut *pending);
            drop(pending);
            let cart_value = session.cart_value();
            let cart_changed = cart_value != session.samples.last().map_or(0.0, |s| s.cart_value);
            if !inner.live.state_for_all.started || (reactions.is_empty() && !cart_changed) {
                return None;
            }
            let at = time::OffsetDateTime::from_unix_timestamp((now_ms / 1000) as i64).unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
            let at = at.format(&time::format_description::well_known::Rfc3339).unwrap_or_default();
            let sample = SessionSample { at, bucket, reactions, cart_value };
            Some((Audience::Guides, Event::SessionSampled { sample }))
        });
        if self.order.commit(self, change).await?.is_some() {
            self.metrics.session_samples.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Sends an event that may be dropped: a full queue skips it instead of disconnecting.
    fn fan_out_volatile(&self, inner: &mut Inner, audience: &Audience, event: VolatileEvent) {
        let queued_at = Instant::now();
        let event = Arc::new(SharedVolatile::new(event));
        for sub in inner.subscribers.of(audience) {
            let item = Queued::Volatile(event.clone());
            if let Err(TrySendError::Full(_)) = sub.queue(Outbound { item, queued_at: Some(queued_at) }, None) {
                self.metrics.queue_drops.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Records that a participant connected or disconnected, and tells the guides.
    /// Decided under the room lock, so two connections of the same attendee cannot
    /// interleave.
    pub async fn set_presence(&self, claims: &HubClaims, connected: bool) -> Result<(), StoreError> {
        let change: Change<'_> = Box::new(move |inner: &mut Inner| {
            inner.presence_change(claims, connected).map(|attendee| (Audience::Guides, Event::AttendeeChanged { attendee }))
        });
        self.order.commit(self, change).await.map(|_| ())
    }
}

impl Inner {
    /// Takes a chat message the policy let through: counted for its sender's rate at once
    /// (so a burst within one batch is refused as before), and either returned as an event
    /// of its own to post now — nothing of the chat went out for one of the room's ticks
    /// ([`engagement_tick_ms`]), so a quiet chat is as quick as it was — or kept for the
    /// next tick's batch ([`Room::engagement_tick`]).
    fn take_chat(&mut self, message: ChatMessage) -> Option<Event> {
        self.live.chat_moderation.record_post(&message);
        let tick_ms = engagement_tick_ms(self.subscribers.len());
        let batch = &mut self.chat_batch;
        if batch.messages.is_empty() && message.sent_at >= batch.last_posted_ms.saturating_add(tick_ms) {
            batch.last_posted_ms = message.sent_at;
            return Some(Event::ChatMessagesPosted { messages: vec![message] });
        }
        batch.messages.push(message);
        None
    }

    /// When the frames of the tick under way are scheduled (see [`Room::engagement_tick`]):
    /// a guide's by this tick's pass, an attendee's by the next tick's in a room whose tick
    /// is longer than the base tick (until then they ride any other write).
    fn tick_due(&self) -> TickDue {
        let pass = self.passes + 1;
        let piggyback = engagement_base_ticks(self.subscribers.len()) > 1;
        TickDue { guide: Some(pass), attendee: Some(if piggyback { pass + 1 } else { pass }) }
    }

    /// When a chat batch is scheduled: one of this replica's tick batches is a frame of
    /// its tick ([`Inner::tick_due`]; in cluster mode it may come back from Redis after
    /// the tick's pass: then a guide's goes out at once, an attendee's of a large room by
    /// the next pass). Any other batch (a lone message, one posted before a moderation,
    /// another replica's) is written at once.
    fn tick_batch_due(&mut self, messages: &[ChatMessage]) -> TickDue {
        let Some(first) = messages.first() else { return TickDue::NOW };
        let Some(at) = self.tick_batches.iter().position(|id| *id == first.message_id) else { return TickDue::NOW };
        self.tick_batches.remove(at);
        if self.in_tick {
            return self.tick_due();
        }
        let piggyback = engagement_base_ticks(self.subscribers.len()) > 1;
        TickDue { guide: None, attendee: piggyback.then_some(self.passes + 1) }
    }

    /// The live state, for deciding a change.
    pub fn live(&self) -> &LiveState {
        &self.live
    }

    /// The epoch of the history the state belongs to.
    pub fn epoch(&self) -> &str {
        &self.epoch
    }

    /// Counts this replica's connections of an attendee and returns the attendee's new
    /// summary when their connection state changes.
    fn presence_change(&mut self, claims: &HubClaims, connected: bool) -> Option<AttendeeSummary> {
        let count = self.connections.entry(claims.sub.clone()).or_default();
        if connected {
            *count += 1;
        } else {
            *count = count.saturating_sub(1);
        }
        let count = *count;
        // A removed attendee's connections close after the removal; their leaving must
        // not put them back in the guides' list.
        if self.live.is_removed(&claims.sub) {
            return None;
        }
        let mut attendee = self.live.participants.get(&claims.sub).map(|p| AttendeeSummary::clone(p)).unwrap_or_else(|| AttendeeSummary {
            attendee_id: claims.sub.clone(),
            role: claims.role,
            attendee_name: claims.name.clone(),
            video_user_id: None,
            has_joined: true,
            status: AttendeeStatus::Joined,
            connection: ConnectionState::Connecting,
            cart_permission: CartPermission::Missing,
            last_active_at: None,
        });
        let previous = attendee.connection;
        attendee.connection = match (connected, count, previous) {
            (true, _, ConnectionState::Connecting) => ConnectionState::Connected,
            (true, 1, _) => ConnectionState::Reconnected,
            (true, _, state) => state,
            (false, 0, _) => ConnectionState::Lost,
            (false, _, state) => state,
        };
        attendee.last_active_at = Some(now_rfc3339());
        (attendee.connection != previous).then_some(attendee)
    }

    fn snapshot_parts(&self, role: Role, attendee_id: &str) -> SnapshotParts {
        SnapshotParts {
            state_for_all: self.live.state_for_all.clone(),
            state_for_clients: self.live.state_for_clients_of(attendee_id),
            participants: (role == Role::Guide)
                .then(|| (self.live.participants.values().cloned().collect(), self.live.chat_moderation.for_guides())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::fanout::{Scheduled, SocketWriter, Writers};
    use crate::live::local::LocalOrder;
    use crate::live::queue;
    use crate::live::{Caller, Request};
    use crate::store::Store;
    use futures_util::Sink;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    /// What a recorded socket got: its frames and where each flush fell.
    #[derive(Default)]
    struct Recorded {
        written: Vec<Message>,
        /// `written.len()` at each flush that followed a frame.
        flushes: Vec<usize>,
    }

    /// A socket that records into a [`Recorded`] the test keeps.
    #[derive(Default, Clone)]
    struct Recorder(Arc<Mutex<Recorded>>);

    impl Sink<Message> for Recorder {
        type Error = std::convert::Infallible;
        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
        fn start_send(self: Pin<&mut Self>, item: Message) -> Result<(), Self::Error> {
            self.0.lock().unwrap().written.push(item);
            Ok(())
        }
        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            let mut recorded = self.0.lock().unwrap();
            let len = recorded.written.len();
            if recorded.flushes.last() != Some(&len) && len > 0 {
                recorded.flushes.push(len);
            }
            Poll::Ready(Ok(()))
        }
        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
    }

    fn open_room() -> Room {
        let settings = RoomSettings { retained_events: 16, metrics: Arc::default() };
        LocalOrder::new(Arc::new(Store::in_memory().unwrap())).open_room("0".repeat(32), &settings).unwrap()
    }

    fn claims(n: usize, role: Role) -> HubClaims {
        HubClaims { sub: format!("{n:032x}"), apt: "0".repeat(32), role, name: None, exp: u64::MAX }
    }

    /// Attaches a connection with a writer task's socket (a [`Recorder`]); its queue is
    /// kept alive by the returned receiver.
    fn attach_socket(
        room: &Room,
        writers: &Writers,
        n: usize,
        role: Role,
    ) -> (Recorder, (Arc<SocketWriter<Recorder>>, queue::Receiver<Outbound>)) {
        let recorder = Recorder::default();
        let writer = SocketWriter::new(recorder.clone(), Codec::Json, role, Arc::default(), Some(writers.shard(n as u64)));
        let (tx, rx) = queue::channel(512);
        let scheduled: Arc<dyn Scheduled> = writer.clone();
        room.attach(n as u64, &claims(n, role), None, None, Outlet::new(tx, scheduled), Arc::default(), 1000).expect("admitted");
        writer.set_queue(&rx);
        writer.set_writable(true);
        (recorder, (writer, rx))
    }

    /// What a recorded socket got, frame by frame: an event's kind (with its seq and
    /// prev), or a volatile event's kind.
    fn frames(recorder: &Recorder) -> (Vec<String>, Vec<usize>) {
        let sink = recorder.0.lock().unwrap();
        let frames = sink
            .written
            .iter()
            .map(|m| match Codec::Json.decode_text::<ServerFrame>(m.to_text().unwrap()).unwrap() {
                ServerFrame::Event { seq, prev, event } => format!("{}#{seq}<{prev}", kind(&serde_json::to_value(&event).unwrap())),
                ServerFrame::Volatile { event } => kind(&serde_json::to_value(&event).unwrap()),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        (frames, sink.flushes.clone())
    }

    fn kind(value: &serde_json::Value) -> String {
        value["kind"].as_str().unwrap().to_string()
    }

    fn chat(room: &Room, n: usize, text: &str) -> Decision {
        let message = ChatMessage {
            message_id: format!("{n:032x}"),
            attendee_id: format!("{:032x}", 1),
            attendee_name: None,
            role: Role::Client,
            text: text.into(),
            sent_at: policy::now_ms(),
        };
        let _ = room;
        Decision::Chat(message)
    }

    /// Lets the writer tasks (of a current-thread runtime) run.
    async fn let_writers_run() {
        for _ in 0..8 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn a_small_rooms_tick_reaches_each_subscriber_in_one_write_in_order() {
        let room = open_room();
        let writers = Writers::spawn(1);
        let (attendee, _rx) = attach_socket(&room, &writers, 1, Role::Client);
        let (guide, _grx) = attach_socket(&room, &writers, 2, Role::Guide);
        // A lone message after a quiet spell goes out at once, alone; the next one waits
        // for the tick; taps are summed.
        for (n, text) in [(10, "first"), (11, "second"), (12, "third")] {
            let decision = chat(&room, n, text);
            room.submit(move |_| decision).await.unwrap();
        }
        room.count_reaction(Reaction::Heart);
        room.count_reaction(Reaction::Clap);
        let_writers_run().await;
        for socket in [&attendee, &guide] {
            assert_eq!(frames(socket), (vec!["chatMessagesPosted#1<0".to_string()], vec![1]));
        }
        room.engagement_tick().await.unwrap();
        let_writers_run().await;
        // The tick's chat batch and its reaction sums: one write, the batch first.
        for socket in [&attendee, &guide] {
            let (written, flushes) = frames(socket);
            assert_eq!(written, ["chatMessagesPosted#1<0", "chatMessagesPosted#2<1", "reactions"]);
            assert_eq!(flushes, [1, 3], "one write for the tick");
        }
        let posted =
            room.lock().log.iter().filter(|e| matches!(&e.event, Event::ChatMessagesPosted { messages } if messages.len() == 2)).count();
        assert_eq!(posted, 1, "the two messages in one batch");
    }

    #[tokio::test]
    async fn a_large_rooms_tick_rides_the_next_write_or_goes_out_by_the_next_tick() {
        let room = open_room();
        let writers = Writers::spawn(1);
        let (attendee, _rx) = attach_socket(&room, &writers, 1, Role::Client);
        let (guide, _grx) = attach_socket(&room, &writers, 2, Role::Guide);
        // A room whose tick is 500 ms: the other subscribers are plain queues.
        let crowd = 1_667;
        let mut queues = Vec::new();
        for n in 3..3 + crowd {
            let (tx, rx) = queue::channel(64);
            room.attach(n as u64, &claims(n, Role::Client), None, None, tx, Arc::default(), 1000).expect("admitted");
            queues.push(rx);
        }
        assert_eq!(engagement_base_ticks(room.subscriber_count()), 2);
        let tick = || async {
            // Base ticks: the room's tick is every second one.
            room.engagement_tick().await.unwrap();
            room.engagement_tick().await.unwrap();
            let_writers_run().await;
        };
        tick().await;
        for (n, text) in [(10, "first"), (11, "second")] {
            let decision = chat(&room, n, text);
            room.submit(move |_| decision).await.unwrap();
        }
        room.count_reaction(Reaction::Wow);
        let_writers_run().await;
        tick().await;
        // The guide has the tick's frames in one write; the attendee has not: they wait
        // for its next write.
        assert_eq!(frames(&guide).0, ["chatMessagesPosted#1<0", "chatMessagesPosted#2<1", "reactions"]);
        assert_eq!(frames(&guide).1, [1, 3]);
        assert_eq!(frames(&attendee), (vec!["chatMessagesPosted#1<0".to_string()], vec![1]));
        // A slide change: one write with the tick's frames before it, in order.
        room.publish(Audience::Everyone, slide(7)).await.unwrap();
        let_writers_run().await;
        assert_eq!(frames(&attendee).0, ["chatMessagesPosted#1<0", "chatMessagesPosted#2<1", "reactions", "slideSwitched#3<2"]);
        assert_eq!(frames(&attendee).1, [1, 4]);
        // A tick with no slide change after it: its frames go out with the next tick's.
        room.count_reaction(Reaction::Fire);
        tick().await;
        assert_eq!(frames(&attendee).1, [1, 4], "waits for another write");
        room.count_reaction(Reaction::Laugh);
        tick().await;
        let (written, flushes) = frames(&attendee);
        assert_eq!(written[4..], ["reactions", "reactions"]);
        assert_eq!(flushes, [1, 4, 6], "both ticks' sums in one write, one tick late at most");
        // A tick with nothing to send and nothing owed writes nothing.
        tick().await;
        assert_eq!(frames(&attendee).1, [1, 4, 6]);
        assert_eq!(frames(&guide).0.len(), 6);
        // The fan-out latency counts what was written as soon as it could be (the lone
        // message, the slide change), not the tick frames that waited for a write by design.
        assert_eq!(_rx.0.metrics.fan_out_latency.count(), 2);
        // Every plain queue got the same frames in the same order.
        for rx in &mut queues {
            let mut got = Vec::new();
            while let Some(outbound) = rx.try_recv() {
                got.push(match outbound.item {
                    Queued::Event { seq, .. } => seq.to_string(),
                    Queued::Volatile(_) => "v".into(),
                    Queued::Flush => "flush".into(),
                });
            }
            assert_eq!(got, ["1", "2", "v", "3", "v", "v"]);
        }
    }

    #[tokio::test]
    async fn a_large_rooms_chat_rides_each_slide_change_in_slices() {
        let room = Arc::new(open_room());
        let writers = Writers::spawn(1);
        let (attendee, _rx) = attach_socket(&room, &writers, 1, Role::Client);
        let (guide, _grx) = attach_socket(&room, &writers, 2, Role::Guide);
        let mut queues = Vec::new();
        for n in 3..3 + 1_667 {
            let (tx, rx) = queue::channel(64);
            room.attach(n as u64, &claims(n, Role::Client), None, None, tx, Arc::default(), 1000).expect("admitted");
            queues.push(rx);
        }
        assert_eq!(engagement_base_ticks(room.subscriber_count()), 2, "a room whose attendees' tick frames ride other writes");
        let guide_claims = claims(2, Role::Guide);
        let switch = |alias: u32| {
            Request::Action(protocol::action::Action::SwitchSlide {
                page_id: "a".repeat(32),
                section_id: "b".repeat(32),
                slide_alias: alias,
            })
        };
        // A lone message goes out at once; the next ones wait for the tick — or, here,
        // for the guide's next slide change, whose write carries them.
        for (n, text) in [(10, "first"), (11, "second"), (12, "third")] {
            let decision = chat(&room, n, text);
            room.submit(move |_| decision).await.unwrap();
        }
        let_writers_run().await;
        assert_eq!(frames(&attendee), (vec!["chatMessagesPosted#1<0".to_string()], vec![1]));
        super::super::submit(&room, None, Caller::Participant(&guide_claims), switch(1)).await.unwrap();
        let_writers_run().await;
        assert_eq!(frames(&attendee).0, ["chatMessagesPosted#1<0", "chatMessagesPosted#2<1", "slideSwitched#3<2"]);
        assert_eq!(frames(&attendee).1, [1, 3], "the chat since the last write and the slide change in one write");
        assert_eq!(frames(&guide).0, frames(&attendee).0, "the guide reads the same order");
        // The next slice: only what was said since.
        let decision = chat(&room, 13, "fourth");
        room.submit(move |_| decision).await.unwrap();
        super::super::submit(&room, None, Caller::Participant(&guide_claims), switch(2)).await.unwrap();
        // Nothing waiting: a slide change alone.
        super::super::submit(&room, None, Caller::Participant(&guide_claims), switch(3)).await.unwrap();
        let_writers_run().await;
        let (written, _) = frames(&attendee);
        assert_eq!(written[3..], ["chatMessagesPosted#4<3", "slideSwitched#5<4", "slideSwitched#6<5"]);
        let batches: Vec<usize> = room
            .lock()
            .log
            .iter()
            .filter_map(|e| match &e.event {
                Event::ChatMessagesPosted { messages } => Some(messages.len()),
                _ => None,
            })
            .collect();
        assert_eq!(batches, [1, 2, 1], "each message posted once, in slices");
        // The tick has nothing of the chat left to post.
        room.engagement_tick().await.unwrap();
        room.engagement_tick().await.unwrap();
        assert_eq!(room.lock().log.len(), 6);
        for rx in &mut queues {
            let mut got = Vec::new();
            while let Some(outbound) = rx.try_recv() {
                if let Queued::Event { seq, .. } = outbound.item {
                    got.push(seq);
                }
            }
            assert_eq!(got, [1, 2, 3, 4, 5, 6]);
        }
    }

    #[tokio::test]
    async fn a_small_rooms_chat_keeps_its_tick_when_the_guide_changes_slides() {
        let room = Arc::new(open_room());
        let writers = Writers::spawn(1);
        let (attendee, _rx) = attach_socket(&room, &writers, 1, Role::Client);
        let (_guide, _grx) = attach_socket(&room, &writers, 2, Role::Guide);
        for (n, text) in [(10, "first"), (11, "second")] {
            let decision = chat(&room, n, text);
            room.submit(move |_| decision).await.unwrap();
        }
        let action = protocol::action::Action::SwitchSlide { page_id: "a".repeat(32), section_id: "b".repeat(32), slide_alias: 1 };
        super::super::submit(&room, None, Caller::Participant(&claims(2, Role::Guide)), Request::Action(action)).await.unwrap();
        let_writers_run().await;
        // Its tick is every 250 ms and writes on its own: the message waits for it.
        assert_eq!(frames(&attendee).0, ["chatMessagesPosted#1<0", "slideSwitched#2<1"]);
        room.engagement_tick().await.unwrap();
        let_writers_run().await;
        assert_eq!(frames(&attendee).0[2..], ["chatMessagesPosted#3<2"]);
    }

    #[tokio::test]
    async fn an_event_for_one_attendee_reaches_its_connections_and_the_guides_after_others_left() {
        let room = open_room();
        let mut queues = HashMap::new();
        // Attendees 10..20 with two connections each (ids 100+n and 200+n), and a guide.
        for (connection, n, role) in
            (10..20).flat_map(|n| [(100 + n, n, Role::Client), (200 + n, n, Role::Client)]).chain([(1, 1, Role::Guide)])
        {
            let (tx, rx) = queue::channel(64);
            room.attach(connection as u64, &claims(n, role), None, None, tx, Arc::default(), 1000).expect("admitted");
            queues.insert(connection, rx);
        }
        // Some leave (each moves the last connection into its place), one is closed by a
        // full queue elsewhere (a retain).
        for connection in [110, 215, 119, 212] {
            assert!(room.detach(connection as u64));
            queues.remove(&connection);
        }
        for n in 10..20 {
            let attendee = format!("{n:032x}");
            let seq = room.publish(Audience::Attendee(attendee.clone()), slide(n as u32)).await.unwrap();
            let mut got: Vec<usize> = queues
                .iter_mut()
                .filter_map(|(&connection, rx)| {
                    let item = rx.try_recv()?;
                    assert!(matches!(item.item, Queued::Event { seq: s, .. } if s == seq));
                    assert!(rx.try_recv().is_none());
                    Some(connection)
                })
                .collect();
            got.sort();
            let mut expected: Vec<usize> = [1, 100 + n, 200 + n].into_iter().filter(|c| queues.contains_key(c)).collect();
            expected.sort();
            assert_eq!(got, expected, "attendee {n}");
        }
    }

    #[tokio::test]
    async fn a_guides_queue_grows_with_the_room_through_a_join_storm() {
        let room = open_room();
        // A guide and an attendee whose sockets take nothing; a queue bound of 8.
        let (guide_tx, guide_rx) = queue::channel(8);
        let guide_reason = Arc::new(AtomicU16::new(0));
        room.attach(1, &claims(1, Role::Guide), None, None, guide_tx, guide_reason.clone(), 1000).expect("admitted");
        let (attendee_tx, _attendee_rx) = queue::channel(8);
        room.attach(2, &claims(2, Role::Client), None, None, attendee_tx, Arc::default(), 1000).expect("admitted");
        // 100 attendees join: 100 presence events for the guide, more than its bound.
        for n in 100..200 {
            room.set_presence(&claims(n, Role::Client), true).await.unwrap();
        }
        assert_eq!(guide_reason.load(Ordering::Relaxed), 0, "the guide is not a slow consumer");
        assert_eq!(room.subscriber_count(), 2);
        let mut guide_rx = guide_rx;
        let mut presence = 0;
        while guide_rx.try_recv().is_some() {
            presence += 1;
        }
        assert_eq!(presence, 100);
        // An attendee is held to the bound: 9 slide changes it does not read close it.
        for alias in 1..=9 {
            room.publish(Audience::Everyone, slide(alias)).await.unwrap();
        }
        assert_eq!(room.subscriber_count(), 1);
    }

    fn slide(alias: u32) -> Event {
        Event::SlideSwitched { page_id: "a".repeat(32), section_id: "b".repeat(32), slide_alias: alias }
    }

    #[test]
    fn a_shared_event_is_encoded_once_per_prev_and_right_for_every_prev() {
        let shared = SharedEvent::new(slide(3));
        let decode = |m: Message| -> ServerFrame {
            match m {
                Message::Text(text) => Codec::Json.decode_text(text.as_str()).unwrap(),
                Message::Binary(bytes) => Codec::MsgPack.decode_binary(&bytes).unwrap(),
                _ => panic!("not a data message"),
            }
        };
        for codec in [Codec::Json, Codec::MsgPack] {
            let first = shared.message(codec, 9, 8).unwrap();
            let again = shared.message(codec, 9, 8).unwrap();
            let other = shared.message(codec, 9, 5).unwrap();
            let other_again = shared.message(codec, 9, 5).unwrap();
            for (a, b) in [(&first, &again), (&other, &other_again)] {
                let (a, b) = match (a, b) {
                    (Message::Text(a), Message::Text(b)) => (a.as_str().as_ptr(), b.as_str().as_ptr()),
                    (Message::Binary(a), Message::Binary(b)) => (a.as_ptr(), b.as_ptr()),
                    _ => panic!("one kind of message per codec"),
                };
                assert_eq!(a, b, "the same bytes are reused, for every prev");
            }
            assert_eq!(decode(other_again.clone()), ServerFrame::Event { seq: 9, prev: 5, event: slide(3) });
            assert_eq!(decode(first), ServerFrame::Event { seq: 9, prev: 8, event: slide(3) });
            assert_eq!(decode(again), ServerFrame::Event { seq: 9, prev: 8, event: slide(3) });
            assert_eq!(decode(other), ServerFrame::Event { seq: 9, prev: 5, event: slide(3) });
        }
    }
}
