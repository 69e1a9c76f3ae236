//! One appointment's live state, its ordered event log and its subscribers.
//!
//! Every state change goes through the room's [`Order`]: the change is decided under the
//! room lock, then given the next sequence number. In single mode ([`super::local`])
//! that happens under the same lock: the event is written to the store, applied to the
//! state, appended to the log and put in every subscriber's bounded queue, which a
//! writer task empties into the socket outside the lock ([`crate::ws::fanout`]). Doing all
//! of that under one lock is what makes every subscriber see one order, and makes
//! [`Room::attach`] (snapshot or replay, then subscribe) free of gaps and duplicates. In
//! cluster mode ([`super::replicated`]) Redis gives the order, and the room applies the
//! event when Redis hands it back, the same way under its lock.
//!
//! The shape is mini-redis's `db.rs`: [`super::Rooms`] is the cheap handle, a [`Room`] the
//! shared state (what is read without the lock: its order, reaction taps), and [`Inner`]
//! the state under the lock with named parts — `live` (the reducer's [`LiveState`]), `log`
//! (for resuming), `subscribers`, `engagement` (what the next tick sends). The background
//! tasks are free functions beside it ([`super::tick::run`]).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use futures_util::future::BoxFuture;
use protocol::engagement::{ChatMessage, ChatModeration, ReactionCounts};
use protocol::frame::{close_code, ErrorCode, Event, Resume, ServerFrame, VolatileEvent};
pub use protocol::internal::Audience;
use protocol::live_state::{file_participants, LiveState};
use protocol::session::{SessionRecord, SessionSample};
use protocol::state::{AttendeeSummary, Snapshot, StateForAll, StateForClients};
use protocol::{AttendeeStatus, CartPermission, ConnectionState, HubClaims, Role};

use super::engagement::{Engagement, Taps};
use super::outbound::{Outlet, SharedEvent, SharedVolatile};
use super::policy::{self, Decision, TurnedAway};
use super::subscribers::{Subscriber, Subscribers};
use crate::metrics::Metrics;
use crate::store::{self, StoreError, StoredEvent, StoredRoom};

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
    fn open(
        self: Arc<Self>,
        appointment_id: String,
        settings: RoomSettings,
    ) -> BoxFuture<'static, Result<Room, StoreError>>;

    /// Once the room can be found by others: brings it up to date with events ordered
    /// while it was opening (nothing to do where this hub orders them itself).
    fn catch_up<'a>(&'a self, room: &'a Room) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Runs `change` under the room lock and gives the event it decides the next place in
    /// the order. Returns that sequence number, or `None` when nothing was decided. On a
    /// storage error nothing changed and nobody was sent anything.
    fn commit<'a>(
        &'a self,
        room: &'a Room,
        change: Change<'a>,
    ) -> BoxFuture<'a, Result<Option<u64>, StoreError>>;

    /// The reaction sums to send this tick, given the taps this replica counted since the
    /// last one. Single mode: this replica's taps are all there are. Cluster mode merges
    /// every replica's (see [`super::replicated`]).
    fn merge_reactions<'a>(
        &'a self,
        _room: &'a Room,
        local: ReactionCounts,
    ) -> BoxFuture<'a, Result<ReactionCounts, StoreError>> {
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
    /// of one ordered `chatMessagesPosted` within [`protocol::engagement::CHAT_BATCH_MS`]). Acknowledged without
    /// a sequence number.
    Counted,
    /// Refused by the policy.
    Refused { code: ErrorCode, message: String },
}

/// What every room of a hub shares.
#[derive(Clone)]
pub struct RoomSettings {
    /// State events kept for resuming clients.
    pub retained_events: usize,
    pub metrics: Arc<Metrics>,
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
    let Some(guides) = snapshot.state_for_guides.as_mut() else {
        return Vec::new();
    };
    let total = guides.guides.len() + guides.clients.len() + guides.inactive_clients.len();
    if total <= PARTICIPANTS_PER_FRAME {
        return Vec::new();
    }
    let mut kept = 0;
    let mut rest = Vec::with_capacity(total - PARTICIPANTS_PER_FRAME);
    for map in [
        &mut guides.guides,
        &mut guides.clients,
        &mut guides.inactive_clients,
    ] {
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
        let participants: Vec<AttendeeSummary> =
            rest.by_ref().take(PARTICIPANTS_PER_FRAME).collect();
        frames.push(ServerFrame::Participants {
            page,
            pages,
            participants,
        });
    }
    frames
}

/// The state to snapshot, taken under the room's lock (the participants shared, not
/// copied) and written once the lock is released.
pub struct DueSnapshot {
    seq: u64,
    /// The state without its participants, which are in `participants`.
    state: LiveState,
    participants: Vec<Arc<AttendeeSummary>>,
}

impl DueSnapshot {
    /// Takes the state at `seq`: everything cloned but the participants, which are shared
    /// (a large room's map is rebuilt after the lock is released, not under it).
    fn take(seq: u64, live: &mut LiveState) -> DueSnapshot {
        let participants = std::mem::take(&mut live.participants);
        let state = live.clone();
        live.participants = participants;
        DueSnapshot {
            seq,
            state,
            participants: live.participants.values().cloned().collect(),
        }
    }

    /// The sequence number and the state to store, built once the room lock is released.
    pub fn into_state(self) -> (u64, LiveState) {
        let mut state = self.state;
        state.participants = self
            .participants
            .into_iter()
            .map(|p| (p.attendee_id.clone(), p))
            .collect();
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
        Snapshot {
            state_for_all: self.state_for_all,
            state_for_clients: self.state_for_clients,
            state_for_guides,
        }
    }
}

/// How a connection catches up: the events it missed, or a snapshot.
struct CatchUp {
    resume: Resume,
    /// For a snapshot: what it is made of.
    snapshot: Option<SnapshotParts>,
    /// The events it missed, each with its `prev`.
    replay: Vec<ServerFrame>,
    /// The `seq` of the last event it is sent (the next one's `prev`).
    last_sent: u64,
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
    pub(super) subscribers: Subscribers,
    /// What the room's next engagement tick sends ([`super::tick`]).
    pub(super) engagement: Engagement,
}

pub struct Room {
    pub appointment_id: String,
    pub(super) retained_events: usize,
    pub(super) metrics: Arc<Metrics>,
    pub(super) order: Arc<dyn Order>,
    // A std Mutex: it is never held across an `.await` (queues are fed with try_send,
    // and in single mode the store is a local SQLite file written with one short
    // statement; in cluster mode Redis is called after the lock is released).
    inner: Mutex<Inner>,
    /// Reaction taps, counted without the lock.
    pub(super) taps: Taps,
    /// Held while the chat's batch is posted ([`Room::flush_chat`]): two batches of one
    /// room are never ordered at once (in cluster mode they could overtake each other).
    pub(super) chat_flush: tokio::sync::Mutex<()>,
}

fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

impl Room {
    /// A room from its stored history: the latest snapshot with the events after it
    /// applied. Its events are ordered by `order`.
    pub fn from_stored(
        appointment_id: String,
        settings: &RoomSettings,
        order: Arc<dyn Order>,
        stored: StoredRoom,
    ) -> Room {
        let retained_events = settings.retained_events;
        let live = stored.snapshot;
        let mut inner = Inner {
            epoch: stored.epoch,
            seq: stored.snapshot_seq,
            snapshot_seq: stored.snapshot_seq,
            live,
            connections: HashMap::new(),
            log: VecDeque::new(),
            subscribers: Subscribers::default(),
            engagement: Engagement::default(),
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
            taps: Taps::default(),
            chat_flush: tokio::sync::Mutex::new(()),
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave the state half-changed (changes are
        // applied only after the store accepted them), so recover the guard.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn subscriber_count(&self) -> usize {
        self.lock().subscribers.len()
    }

    /// The state as a participant of `role` sees it (a client's own cart permission
    /// when `attendee_id` is given).
    pub fn snapshot(&self, role: Role, attendee_id: Option<&str>) -> Snapshot {
        let parts = self
            .lock()
            .snapshot_parts(role, attendee_id.unwrap_or_default());
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
    pub(super) fn current(&self) -> (String, u64, LiveState) {
        let inner = self.lock();
        (inner.epoch.clone(), inner.seq, inner.live.clone())
    }

    /// Replaces the room's history with `stored` (a new epoch) and closes every connection
    /// with [`close_code::RESYNC`]: each reconnects, resumes with the old epoch, and is
    /// sent a snapshot of the new history.
    pub(super) fn replace_history(&self, stored: StoredRoom) {
        let settings = RoomSettings {
            retained_events: self.retained_events,
            metrics: self.metrics.clone(),
        };
        let fresh = Room::from_stored(
            self.appointment_id.clone(),
            &settings,
            self.order.clone(),
            stored,
        );
        let fresh = fresh
            .inner
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut inner = self.lock();
        inner.epoch = fresh.epoch;
        inner.seq = fresh.seq;
        inner.snapshot_seq = fresh.snapshot_seq;
        inner.live = fresh.live;
        inner.log = fresh.log;
        inner.subscribers.close_all(close_code::RESYNC);
        self.metrics.history_resets.fetch_add(1, Ordering::Relaxed);
    }

    /// Ends every connection of the room with `reason` (a close code): each connection
    /// writes what is already queued for it, then closes with that code. Used by the
    /// drain ([`crate::drain`]) to send every client elsewhere.
    pub fn close_all(&self, reason: u16) -> usize {
        self.lock().subscribers.close_all(reason)
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
        let CatchUp {
            resume,
            snapshot,
            replay,
            last_sent,
        } = inner.catch_up(role, &attendee_id, last_seq, epoch);
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
        let pages = snapshot
            .as_deref_mut()
            .map(page_participants)
            .unwrap_or_default();
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
        Ok(Attached {
            welcome,
            pages,
            replay,
        })
    }

    /// The attendee ids of the guides.
    pub fn guide_ids(&self) -> Vec<String> {
        self.lock()
            .live
            .participants
            .values()
            .filter(|p| p.role == Role::Guide)
            .map(|p| p.attendee_id.clone())
            .collect()
    }

    /// Removes a connection; returns whether it was still attached.
    pub fn detach(&self, connection_id: u64) -> bool {
        self.lock().subscribers.remove(connection_id)
    }

    /// Decides a change with `decide` (the policy) under the room lock and carries it
    /// out: a state event gets its place in the order, a volatile one goes out at once.
    pub async fn submit(
        &self,
        decide: impl FnOnce(&LiveState) -> Decision + Send,
    ) -> Result<Submitted, StoreError> {
        let mut outcome = Submitted::Nothing;
        let change: Change<'_> = Box::new(|inner: &mut Inner| match decide(&inner.live) {
            Decision::Publish { audience, event } => {
                outcome = Submitted::Published {
                    seq: 0,
                    event: event.clone(),
                };
                Some((audience, event))
            }
            Decision::Volatile { audience, event } => {
                self.fan_out_volatile(inner, &audience, event);
                outcome = Submitted::Sent;
                None
            }
            Decision::React(reaction) => {
                self.taps.count(reaction);
                outcome = Submitted::Counted;
                None
            }
            Decision::Chat(message) => match inner.take_chat(message) {
                Some(event) => {
                    outcome = Submitted::Published {
                        seq: 0,
                        event: event.clone(),
                    };
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
    pub(crate) async fn publish(
        &self,
        audience: Audience,
        event: Event,
    ) -> Result<u64, StoreError> {
        let seq = self
            .order
            .commit(self, Box::new(|_: &mut Inner| Some((audience, event))))
            .await?;
        seq.ok_or_else(|| StoreError::Corrupt("a published event got no sequence number".into()))
    }

    /// Applies the next event in order and queues it for its audience. Returns the state
    /// to snapshot when one is due.
    pub(super) fn apply_and_fan_out(
        &self,
        inner: &mut Inner,
        stored: StoredEvent,
    ) -> Option<DueSnapshot> {
        inner.apply(&stored);
        self.metrics.events.fetch_add(1, Ordering::Relaxed);
        inner.queue_to_subscribers(&stored);
        // On every replica that applies the event (not only the one that published it),
        // and right after queueing it: the attendee is sent the event, then closed.
        if let Some((attendee_id, reason)) = policy::ends_connections(&stored.event) {
            inner.subscribers.close_attendee(attendee_id, reason);
        }
        inner.keep_in_log(stored, self.retained_events);
        inner.due_snapshot()
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
    /// sent the same merged sums). Before the start, taps are not kept; after the end
    /// ([`Room::sample_session_at_end`] took the last sample), nothing is sampled.
    pub async fn sample_session(&self, sample_ms: u64, now_ms: u64) -> Result<(), StoreError> {
        self.write_sample(sample_ms, now_ms, false).await
    }

    /// The session's last sample, taken just before its end is ordered (the shop's
    /// `presentationEnded`): the taps no tick has merged yet and those sent since the last
    /// sample, and the cart value at the end, so that the reactions of the last seconds
    /// count. It takes the interval after the last sample's even when this interval has
    /// one.
    pub async fn sample_session_at_end(
        &self,
        sample_ms: u64,
        now_ms: u64,
    ) -> Result<(), StoreError> {
        let merged = self.order.merge_reactions(self, self.taps.take()).await?;
        self.taps.sent(merged);
        self.write_sample(sample_ms, now_ms, true).await
    }

    /// [`Room::sample_session`]; `last`: [`Room::sample_session_at_end`].
    async fn write_sample(
        &self,
        sample_ms: u64,
        now_ms: u64,
        last: bool,
    ) -> Result<(), StoreError> {
        let bucket = now_ms / sample_ms.max(1);
        let change: Change<'_> = Box::new(move |inner: &mut Inner| {
            let session = &inner.live.session;
            let bucket = if last {
                bucket.max(session.last_bucket() + 1)
            } else {
                bucket
            };
            if bucket <= session.last_bucket() {
                return None;
            }
            let reactions = self.taps.take_sent();
            let cart_value = session.cart_value();
            let cart_changed = cart_value != session.samples.last().map_or(0.0, |s| s.cart_value);
            let all = &inner.live.state_for_all;
            if !all.started || all.ended || (reactions.is_empty() && !cart_changed) {
                return None;
            }
            let at = time::OffsetDateTime::from_unix_timestamp((now_ms / 1000) as i64)
                .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
            let at = at
                .format(&time::format_description::well_known::Rfc3339)
                .unwrap_or_default();
            let sample = SessionSample {
                at,
                bucket,
                reactions,
                cart_value,
            };
            Some((Audience::Guides, Event::SessionSampled { sample }))
        });
        if self.order.commit(self, change).await?.is_some() {
            self.metrics.session_samples.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Sends an event that may be dropped: a full queue skips it instead of disconnecting.
    fn fan_out_volatile(&self, inner: &mut Inner, audience: &Audience, event: VolatileEvent) {
        let event = Arc::new(SharedVolatile::new(event));
        let dropped = inner
            .subscribers
            .queue_volatile(audience, event, Instant::now());
        self.metrics
            .queue_drops
            .fetch_add(dropped, Ordering::Relaxed);
    }

    /// Records that a participant connected or disconnected, and tells the guides.
    /// Decided under the room lock, so two connections of the same attendee cannot
    /// interleave.
    pub async fn set_presence(
        &self,
        claims: &HubClaims,
        connected: bool,
    ) -> Result<(), StoreError> {
        let change: Change<'_> = Box::new(move |inner: &mut Inner| {
            inner
                .presence_change(claims, connected)
                .map(|attendee| (Audience::Guides, Event::AttendeeChanged { attendee }))
        });
        self.order.commit(self, change).await.map(|_| ())
    }
}

impl Inner {
    /// Applies the next event in order to the state and to what the next engagement tick
    /// sends.
    fn apply(&mut self, stored: &StoredEvent) {
        self.seq = stored.seq;
        self.live.apply(&stored.event);
        self.engagement.applied(&stored.event);
    }

    /// Queues an applied event to its audience, when the engagement tick says, after
    /// letting the guides' queues grow with the room when its participants changed.
    fn queue_to_subscribers(&mut self, stored: &StoredEvent) {
        if let Event::AttendeeChanged { .. } = &stored.event {
            let capacity = GUIDE_QUEUE_PER_PARTICIPANT * self.live.participants.len();
            self.subscribers.raise_guide_capacity(capacity);
        }
        let queued_at = Instant::now();
        let due = self
            .engagement
            .due_of(&stored.event, self.subscribers.len());
        let event = Arc::new(SharedEvent::new(stored.event.clone()));
        self.subscribers
            .queue_event(&stored.audience, stored.seq, event, due, queued_at);
    }

    /// Keeps an applied event for resuming clients: the last `retained_events` of them
    /// (more in a large room, see [`store::retained_events`]).
    fn keep_in_log(&mut self, stored: StoredEvent, retained_events: usize) {
        self.log.push_back(stored);
        let retained = store::retained_events(retained_events, self.live.participants.len());
        while self.log.len() > retained {
            self.log.pop_front();
        }
    }

    /// The state to snapshot when [`snapshot_interval`] events passed since the last
    /// snapshot.
    fn due_snapshot(&mut self) -> Option<DueSnapshot> {
        if self.seq < self.snapshot_seq + snapshot_interval(self.live.participants.len()) {
            return None;
        }
        self.snapshot_seq = self.seq;
        Some(DueSnapshot::take(self.seq, &mut self.live))
    }

    /// How a participant of `role` who saw up to `last_seq` of `epoch` (none: a fresh
    /// join) catches up: the events it missed, when they are all still in the log of
    /// the same epoch; a snapshot otherwise.
    fn catch_up(
        &self,
        role: Role,
        attendee_id: &str,
        last_seq: Option<u64>,
        epoch: Option<&str>,
    ) -> CatchUp {
        let oldest_retained = self.log.front().map_or(self.seq + 1, |e| e.seq);
        let replayable = match (last_seq, epoch) {
            (Some(last), Some(epoch)) => {
                epoch == self.epoch && last <= self.seq && last + 1 >= oldest_retained
            }
            _ => false,
        };
        if !replayable {
            let resume = if last_seq.is_some() {
                Resume::Snapshot
            } else {
                Resume::Fresh
            };
            return CatchUp {
                resume,
                snapshot: Some(self.snapshot_parts(role, attendee_id)),
                replay: Vec::new(),
                last_sent: self.seq,
            };
        }
        let last = last_seq.unwrap_or_default();
        let mut prev = last;
        let mut replay = Vec::new();
        for logged in self.log.iter().filter(|e| e.seq > last) {
            if logged.audience.includes(role, attendee_id) {
                replay.push(ServerFrame::Event {
                    seq: logged.seq,
                    prev,
                    event: logged.event.clone(),
                });
                prev = logged.seq;
            }
        }
        CatchUp {
            resume: Resume::Replayed,
            snapshot: None,
            replay,
            last_sent: prev,
        }
    }

    /// Takes a chat message the policy let through: counted for its sender's rate at once
    /// (so a burst within one batch is refused as before), then posted alone or kept for
    /// the next tick's batch ([`Engagement::take_chat`]).
    fn take_chat(&mut self, message: ChatMessage) -> Option<Event> {
        self.live.chat_moderation.record_post(&message);
        self.engagement.take_chat(message, self.subscribers.len())
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
        let mut attendee = self
            .live
            .participants
            .get(&claims.sub)
            .map(|p| AttendeeSummary::clone(p))
            .unwrap_or_else(|| AttendeeSummary {
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
            participants: (role == Role::Guide).then(|| {
                (
                    self.live.participants.values().cloned().collect(),
                    self.live.chat_moderation.for_guides(),
                )
            }),
        }
    }
}

#[cfg(test)]
mod tests;
