//! One appointment's live state, its ordered event log and its subscribers.
//!
//! Every state change goes through [`Room::publish`], which under one lock assigns the
//! next sequence number, writes the event to the [`Store`], applies it to the state,
//! appends it to the log and hands it to every subscriber's bounded queue. Doing all of
//! that under the same lock is what makes every subscriber see one order, and makes
//! [`Room::attach`] (snapshot or replay, then subscribe) free of gaps and duplicates.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Instant;

use super::queue::{self, TrySendError};
use axum::body::Bytes;
use axum::extract::ws::{Message, Utf8Bytes};
use protocol::codec::{Codec, Encoded};
use protocol::frame::{close_code, Event, EventFrame, Resume, ServerFrame, VolatileEvent, VolatileFrame};
pub use protocol::internal::Audience;
use protocol::state::{AttendeeSummary, Snapshot, StateForAll, StateForClients, StateForGuides};
use protocol::{AttendeeStatus, CartPermission, ConnectionState, HubClaims, Role};

use crate::cluster::Cluster;
use crate::metrics::Metrics;
use crate::store::{RoomState, Store, StoreError, StoredEvent, StoredRoom};

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

/// Where a room's order is decided and its history kept.
#[derive(Clone)]
pub enum Backend {
    /// Single mode: this hub orders the events and writes them to SQLite.
    Local(Arc<Store>),
    /// Cluster mode: Redis orders the events and carries them to every replica.
    Cluster(Arc<Cluster>),
}

fn includes(audience: &Audience, role: Role, attendee_id: &str) -> bool {
    match audience {
        Audience::Everyone => true,
        Audience::Guides => role == Role::Guide,
        Audience::Attendee(id) => role == Role::Guide || id == attendee_id,
    }
}

/// What a connection task receives from its room. Small on purpose: every connection's
/// queue allocates a block of these up front.
pub struct Outbound {
    pub item: Queued,
    /// When the room queued it, for the fan-out latency metric.
    pub queued_at: Instant,
}

/// A queued frame; the event itself is shared by all subscribers.
pub enum Queued {
    Event { seq: u64, prev: u64, event: Arc<SharedEvent> },
    Volatile(Arc<SharedVolatile>),
}

/// An event on its way to many subscribers, with the encoding the first of them made.
/// Subscribers of one audience share `prev`, so most of them reuse those bytes instead
/// of encoding the same frame again.
pub struct SharedEvent {
    pub event: Event,
    json: OnceLock<Option<(u64, Utf8Bytes)>>,
    msgpack: OnceLock<Option<(u64, Bytes)>>,
}

impl SharedEvent {
    pub fn new(event: Event) -> SharedEvent {
        SharedEvent { event, json: OnceLock::new(), msgpack: OnceLock::new() }
    }

    /// The WebSocket message of this event for a subscriber whose previous event was
    /// `prev`.
    pub fn message(&self, codec: Codec, seq: u64, prev: u64) -> Option<Message> {
        let frame = EventFrame { seq, prev, event: &self.event };
        match codec {
            Codec::Json => {
                let encode = || match codec.encode(&frame) {
                    Ok(Encoded::Text(text)) => Some(Utf8Bytes::from(text)),
                    _ => None,
                };
                match self.json.get_or_init(|| encode().map(|text| (prev, text))) {
                    Some((cached_prev, text)) if *cached_prev == prev => Some(Message::Text(text.clone())),
                    _ => encode().map(Message::Text),
                }
            }
            Codec::MsgPack => {
                let encode = || match codec.encode(&frame) {
                    Ok(Encoded::Binary(bytes)) => Some(Bytes::from(bytes)),
                    _ => None,
                };
                match self.msgpack.get_or_init(|| encode().map(|bytes| (prev, bytes))) {
                    Some((cached_prev, bytes)) if *cached_prev == prev => Some(Message::Binary(bytes.clone())),
                    _ => encode().map(Message::Binary),
                }
            }
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
    tx: queue::Sender<Outbound>,
    /// The `seq` of the last event queued for this subscriber (the next one's `prev`).
    last_sent: u64,
    /// Set before the room drops the sender, so the connection knows why its queue ended.
    close_reason: Arc<AtomicU16>,
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
/// the guides only (every join and leave), and should not look at every attendee.
#[derive(Default)]
struct Subscribers {
    guides: Vec<Subscriber>,
    clients: Vec<Subscriber>,
}

impl Subscribers {
    fn len(&self) -> usize {
        self.guides.len() + self.clients.len()
    }

    fn push(&mut self, subscriber: Subscriber) {
        match subscriber.role {
            Role::Guide => self.guides.push(subscriber),
            Role::Client => self.clients.push(subscriber),
        }
    }

    /// Removes one connection without moving the others (their order does not matter):
    /// when a large room empties, every connection leaves, and shifting the rest each
    /// time would cost the square of the room's size.
    fn remove(&mut self, connection_id: u64) -> bool {
        for list in [&mut self.guides, &mut self.clients] {
            if let Some(at) = list.iter().position(|s| s.connection_id == connection_id) {
                list.swap_remove(at);
                return true;
            }
        }
        false
    }

    fn retain(&mut self, mut keep: impl FnMut(&Subscriber) -> bool) {
        self.guides.retain(&mut keep);
        self.clients.retain(keep);
    }

    /// The subscribers an event for `audience` goes to.
    fn of<'a>(&'a mut self, audience: &'a Audience) -> impl Iterator<Item = &'a mut Subscriber> {
        let clients: &mut [Subscriber] = match audience {
            Audience::Guides => &mut [],
            _ => &mut self.clients,
        };
        let clients = clients.iter_mut().filter(move |s| includes(audience, s.role, &s.attendee_id));
        self.guides.iter_mut().chain(clients)
    }
}

/// The state to snapshot, taken under the room's lock (the participants shared, not
/// copied) and written once the lock is released.
pub struct DueSnapshot {
    seq: u64,
    state_for_all: StateForAll,
    state_for_clients: StateForClients,
    participants: Vec<Arc<AttendeeSummary>>,
}

impl DueSnapshot {
    fn into_state(self) -> (u64, RoomState) {
        let participants = self.participants.iter().map(|p| AttendeeSummary::clone(p)).collect();
        (self.seq, RoomState { state_for_all: self.state_for_all, state_for_clients: self.state_for_clients, participants })
    }
}

/// What a participant's snapshot is made of, taken under the room's lock; the guides'
/// participant maps are built from it after the lock is released.
struct SnapshotParts {
    state_for_all: StateForAll,
    state_for_clients: StateForClients,
    /// For guides: every participant.
    participants: Option<Vec<Arc<AttendeeSummary>>>,
}

impl SnapshotParts {
    fn into_snapshot(self) -> Snapshot {
        let state_for_guides = self.participants.map(|participants| {
            let mut guides = StateForGuides::default();
            for p in participants {
                let map = match (p.role, p.connection) {
                    (Role::Guide, _) => &mut guides.guides,
                    (Role::Client, ConnectionState::Lost) => &mut guides.inactive_clients,
                    (Role::Client, _) => &mut guides.clients,
                };
                let p = Arc::unwrap_or_clone(p);
                map.insert(p.attendee_id.clone(), p);
            }
            guides
        });
        Snapshot { state_for_all: self.state_for_all, state_for_clients: self.state_for_clients, state_for_guides }
    }
}

struct Inner {
    epoch: String,
    seq: u64,
    /// The sequence number of the latest snapshot (written or being written).
    snapshot_seq: u64,
    state_for_all: StateForAll,
    state_for_clients: StateForClients,
    /// Shared with snapshots being written or sent: a change replaces the entry.
    participants: BTreeMap<String, Arc<AttendeeSummary>>,
    /// Open connections per attendee; not part of the durable state.
    connections: HashMap<String, usize>,
    log: VecDeque<StoredEvent>,
    subscribers: Subscribers,
}

pub struct Room {
    pub appointment_id: String,
    retained_events: usize,
    metrics: Arc<Metrics>,
    backend: Backend,
    // A std Mutex: it is never held across an `.await` (queues are fed with try_send,
    // and the store is a local SQLite file written with one short statement).
    inner: Mutex<Inner>,
}

fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

impl Room {
    /// Opens a room in single mode from SQLite: the latest snapshot with the events after
    /// it applied. Participants who were connected when the hub stopped are marked lost.
    pub fn open_local(appointment_id: String, settings: &RoomSettings, store: Arc<Store>) -> Result<Room, StoreError> {
        let new_epoch = format!("{:016x}", rand::random::<u64>());
        let stored = store.load_or_create(&appointment_id, &new_epoch, settings.retained_events)?;
        let room = Room::from_stored(appointment_id, settings, Backend::Local(store), stored);
        let stale: Vec<AttendeeSummary> = room
            .lock()
            .participants
            .values()
            .filter(|p| p.connection != ConnectionState::Lost)
            .map(|p| AttendeeSummary::clone(p))
            .collect();
        for mut attendee in stale {
            attendee.connection = ConnectionState::Lost;
            let due = room.commit_local(&mut room.lock(), Audience::Guides, Event::AttendeeChanged { attendee })?.1;
            room.write_local_snapshot(due);
        }
        Ok(room)
    }

    /// Opens a room in cluster mode: subscribes first, then loads the snapshot and the
    /// stream, so nothing published meanwhile is missed (see [`Room::catch_up`]).
    pub async fn open_cluster(appointment_id: String, settings: &RoomSettings, cluster: Arc<Cluster>) -> Result<Room, StoreError> {
        cluster.subscribe(&appointment_id).await?;
        let new_epoch = format!("{:016x}", rand::random::<u64>());
        let stored = cluster.load(&appointment_id, &new_epoch, settings.retained_events).await?;
        Ok(Room::from_stored(appointment_id, settings, Backend::Cluster(cluster), stored))
    }

    fn from_stored(appointment_id: String, settings: &RoomSettings, backend: Backend, stored: StoredRoom) -> Room {
        let retained_events = settings.retained_events;
        let mut inner = Inner {
            epoch: stored.epoch,
            seq: stored.snapshot_seq,
            snapshot_seq: stored.snapshot_seq,
            state_for_all: stored.snapshot.state_for_all,
            state_for_clients: stored.snapshot.state_for_clients,
            participants: stored.snapshot.participants.into_iter().map(|p| (p.attendee_id.clone(), Arc::new(p))).collect(),
            connections: HashMap::new(),
            log: VecDeque::new(),
            subscribers: Subscribers::default(),
        };
        for event in stored.events {
            if event.seq == inner.seq + 1 {
                inner.apply(&event.event);
                inner.seq = event.seq;
            }
            if event.seq <= inner.seq {
                inner.log.push_back(event);
            }
        }
        while inner.log.len() > retained_events {
            inner.log.pop_front();
        }
        Room { appointment_id, retained_events, metrics: settings.metrics.clone(), backend, inner: Mutex::new(inner) }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
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
        self.lock().state_for_all.clone()
    }

    /// Registers a connection and tells it how to catch up. `last_seq`/`epoch` come from
    /// the client's `hello`.
    #[allow(clippy::too_many_arguments)]
    pub fn attach(
        &self,
        connection_id: u64,
        claims: &HubClaims,
        last_seq: Option<u64>,
        epoch: Option<&str>,
        tx: queue::Sender<Outbound>,
        close_reason: Arc<AtomicU16>,
        heartbeat_ms: u64,
    ) -> Attached {
        let mut inner = self.lock();
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
                if includes(&logged.audience, role, &attendee_id) {
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
        inner.subscribers.push(Subscriber { connection_id, attendee_id: attendee_id.clone(), role, tx, last_sent, close_reason });
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
        Attached { welcome, pages, replay }
    }

    /// Closes every connection of an attendee with `reason` (a close code).
    pub fn disconnect_attendee(&self, attendee_id: &str, reason: u16) {
        let mut inner = self.lock();
        inner.subscribers.retain(|s| {
            if s.attendee_id == attendee_id {
                s.close_reason.store(reason, Ordering::Relaxed);
                false
            } else {
                true
            }
        });
    }

    /// The attendee ids of the guides.
    pub fn guide_ids(&self) -> Vec<String> {
        self.lock().participants.values().filter(|p| p.role == Role::Guide).map(|p| p.attendee_id.clone()).collect()
    }

    /// Removes a connection; returns whether it was still attached.
    pub fn detach(&self, connection_id: u64) -> bool {
        self.lock().subscribers.remove(connection_id)
    }

    /// Gives a state event the next sequence number, stores it, applies it and queues it
    /// for every subscriber in `audience`. Returns the sequence number; on a storage
    /// error nothing changed and nobody was sent anything. In cluster mode the event is
    /// applied when Redis hands it back ([`Room::deliver`]).
    pub async fn publish(&self, audience: Audience, event: Event) -> Result<u64, StoreError> {
        match &self.backend {
            Backend::Local(_) => {
                let (seq, due) = self.commit_local(&mut self.lock(), audience, event)?;
                self.write_local_snapshot(due);
                Ok(seq)
            }
            Backend::Cluster(cluster) => {
                let keep = self.stream_length();
                cluster.publish(&self.appointment_id, audience, event, keep).await
            }
        }
    }

    /// Cluster mode: the events Redis keeps in the room's stream: the retained window
    /// and at least every event since the latest snapshot.
    fn stream_length(&self) -> usize {
        self.retained_events + 2 * snapshot_interval(self.lock().participants.len()) as usize
    }

    /// Stores, applies and fans out the next event; returns its sequence number and the
    /// state to snapshot when one is due, for [`Room::write_local_snapshot`] to write
    /// once the caller has released the room lock (serialising the participants of a
    /// large room under it would hold up every other event and join).
    fn commit_local(&self, inner: &mut Inner, audience: Audience, event: Event) -> Result<(u64, Option<DueSnapshot>), StoreError> {
        let Backend::Local(store) = &self.backend else { unreachable!("commit_local is only called in single mode") };
        let stored = StoredEvent { seq: inner.seq + 1, audience, event };
        store.append(&self.appointment_id, &stored)?;
        let seq = stored.seq;
        let due = self.apply_and_fan_out(inner, stored);
        Ok((seq, due))
    }

    fn write_local_snapshot(&self, due: Option<DueSnapshot>) {
        let (Backend::Local(store), Some(due)) = (&self.backend, due) else { return };
        let (seq, state) = due.into_state();
        // The events are stored already; a failed snapshot only makes the next start
        // replay more of them.
        if let Err(error) = store.snapshot(&self.appointment_id, seq, &state, self.retained_events) {
            tracing::warn!(%error, appointment_id = %self.appointment_id, "could not write a snapshot");
        }
    }

    /// Applies the next event in order and queues it for its audience. Returns the state
    /// to snapshot when one is due.
    fn apply_and_fan_out(&self, inner: &mut Inner, stored: StoredEvent) -> Option<DueSnapshot> {
        let seq = stored.seq;
        inner.seq = seq;
        inner.apply(&stored.event);
        self.metrics.events.fetch_add(1, Ordering::Relaxed);
        let queued_at = Instant::now();
        let event = Arc::new(SharedEvent::new(stored.event.clone()));
        let mut gone = false;
        for sub in inner.subscribers.of(&stored.audience) {
            let item = Queued::Event { seq, prev: sub.last_sent, event: event.clone() };
            match sub.tx.try_send(Outbound { item, queued_at }) {
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
            inner.subscribers.retain(|s| !s.tx.is_closed() && s.close_reason.load(Ordering::Relaxed) == 0);
        }
        inner.log.push_back(stored);
        while inner.log.len() > self.retained_events {
            inner.log.pop_front();
        }
        if seq < inner.snapshot_seq + snapshot_interval(inner.participants.len()) {
            return None;
        }
        inner.snapshot_seq = seq;
        Some(DueSnapshot {
            seq,
            state_for_all: inner.state_for_all.clone(),
            state_for_clients: inner.state_for_clients.clone(),
            participants: inner.participants.values().cloned().collect(),
        })
    }

    /// Cluster mode: applies an event Redis delivered. Older events are duplicates and
    /// dropped; a gap before it is filled from the stream first.
    pub async fn deliver(&self, event: StoredEvent, cluster: &Cluster) -> Result<(), StoreError> {
        let next = self.lock().seq + 1;
        if event.seq < next {
            return Ok(());
        }
        if event.seq > next {
            return self.catch_up(cluster).await;
        }
        self.apply_in_order(vec![event], cluster).await
    }

    /// Cluster mode: applies whatever the stream holds beyond this room's state.
    pub async fn catch_up(&self, cluster: &Cluster) -> Result<(), StoreError> {
        let next = self.lock().seq + 1;
        let events = cluster.range(&self.appointment_id, next).await?;
        if let Some(first) = events.first() {
            if first.seq > next {
                // Trimmed past us: the stream no longer connects; reopen from a snapshot
                // is the only way. This needs a replica to have been cut off for longer
                // than the stream length, and is reported rather than hidden.
                return Err(StoreError::Corrupt(format!("events {next}..{} of {} are no longer in Redis", first.seq, self.appointment_id)));
            }
        }
        self.apply_in_order(events, cluster).await
    }

    async fn apply_in_order(&self, events: Vec<StoredEvent>, cluster: &Cluster) -> Result<(), StoreError> {
        let mut snapshots = Vec::new();
        {
            let mut inner = self.lock();
            for event in events {
                if event.seq != inner.seq + 1 {
                    continue;
                }
                snapshots.extend(self.apply_and_fan_out(&mut inner, event));
            }
        }
        for due in snapshots {
            let (seq, state) = due.into_state();
            if let Err(error) = cluster.snapshot(&self.appointment_id, seq, &state).await {
                tracing::warn!(%error, appointment_id = %self.appointment_id, "could not write a snapshot");
            }
        }
        Ok(())
    }

    /// Sends an event that may be dropped: a full queue skips it instead of disconnecting.
    pub fn publish_volatile(&self, audience: Audience, event: VolatileEvent) {
        let mut inner = self.lock();
        let queued_at = Instant::now();
        let event = Arc::new(SharedVolatile::new(event));
        for sub in inner.subscribers.of(&audience) {
            let item = Queued::Volatile(event.clone());
            if let Err(TrySendError::Full(_)) = sub.tx.try_send(Outbound { item, queued_at }) {
                self.metrics.queue_drops.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Records that a participant connected or disconnected, and tells the guides.
    pub async fn set_presence(&self, claims: &HubClaims, connected: bool) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Local(_) => {
                // Decided and published under one lock, so two connections of the same
                // attendee cannot interleave.
                let mut inner = self.lock();
                if let Some(attendee) = inner.presence_change(claims, connected) {
                    let due = self.commit_local(&mut inner, Audience::Guides, Event::AttendeeChanged { attendee })?.1;
                    drop(inner);
                    self.write_local_snapshot(due);
                }
                Ok(())
            }
            Backend::Cluster(cluster) => {
                let change = self.lock().presence_change(claims, connected);
                if let Some(attendee) = change {
                    let keep = self.stream_length();
                    cluster.publish(&self.appointment_id, Audience::Guides, Event::AttendeeChanged { attendee }, keep).await?;
                }
                Ok(())
            }
        }
    }

    /// Merges a new name or video user id into the participant's live entry and tells
    /// the guides; `None` when the attendee is not in the live list (never connected)
    /// or nothing changed. The entry is read and changed under the room lock, so
    /// presence and cart permission stay as they are now.
    pub async fn update_profile(
        &self,
        attendee_id: &str,
        name: Option<String>,
        video_user_id: Option<Option<String>>,
    ) -> Result<Option<u64>, StoreError> {
        match &self.backend {
            Backend::Local(_) => {
                let mut inner = self.lock();
                let Some(attendee) = inner.profile_change(attendee_id, name, video_user_id) else { return Ok(None) };
                let (seq, due) = self.commit_local(&mut inner, Audience::Guides, Event::AttendeeChanged { attendee })?;
                drop(inner);
                self.write_local_snapshot(due);
                Ok(Some(seq))
            }
            Backend::Cluster(cluster) => {
                let change = self.lock().profile_change(attendee_id, name, video_user_id);
                let Some(attendee) = change else { return Ok(None) };
                let keep = self.stream_length();
                Ok(Some(cluster.publish(&self.appointment_id, Audience::Guides, Event::AttendeeChanged { attendee }, keep).await?))
            }
        }
    }
}

impl Inner {
    /// Counts this replica's connections of an attendee and returns the attendee's new
    /// summary when their connection state changes.
    /// The participant's entry with a new name or video user id, when it exists and changes.
    fn profile_change(&self, attendee_id: &str, name: Option<String>, video_user_id: Option<Option<String>>) -> Option<AttendeeSummary> {
        let mut attendee = AttendeeSummary::clone(self.participants.get(attendee_id)?);
        if let Some(name) = name {
            attendee.attendee_name = Some(name);
        }
        if let Some(video) = video_user_id {
            attendee.video_user_id = video;
        }
        (attendee != **self.participants.get(attendee_id)?).then_some(attendee)
    }

    fn presence_change(&mut self, claims: &HubClaims, connected: bool) -> Option<AttendeeSummary> {
        let count = self.connections.entry(claims.sub.clone()).or_default();
        if connected {
            *count += 1;
        } else {
            *count = count.saturating_sub(1);
        }
        let count = *count;
        let mut attendee = self.participants.get(&claims.sub).map(|p| AttendeeSummary::clone(p)).unwrap_or_else(|| AttendeeSummary {
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

    fn apply(&mut self, event: &Event) {
        let all = &mut self.state_for_all;
        match event {
            Event::AppointmentConfigured { settings } => {
                all.appointment_mode = settings.appointment_mode;
                all.video_audio_settings = settings.video_audio_settings;
                all.attendee_restriction_type = settings.attendee_restriction_type;
                all.accessible_from = settings.accessible_from.clone();
                all.accessible_to = settings.accessible_to.clone();
                all.product_detail_default_page_id = settings.product_detail_default_page_id.clone();
                all.quickview_page_id = settings.quickview_page_id.clone();
                all.product_listing_default_page_id = settings.product_listing_default_page_id.clone();
            }
            Event::SlideSwitched { page_id, section_id, slide_alias } => {
                all.current_page_id = Some(page_id.clone());
                all.current_section_id = Some(section_id.clone());
                all.last_active_guide_section = Some(section_id.clone());
                all.current_slide_alias = *slide_alias;
                all.current_slide_data = None;
            }
            Event::PresentationStarted { started_at } => {
                all.started = true;
                all.running = true;
                all.started_at = Some(started_at.clone());
            }
            Event::PresentationEnded { ended_at } => {
                all.running = false;
                all.ended = true;
                all.ended_at = Some(ended_at.clone());
            }
            Event::LockChanged { locked } => all.locked = *locked,
            Event::GuideProductChanged { product_id } => all.current_guide_product_id = product_id.clone(),
            Event::DynamicPageOpened { page } => all.current_dynamic_page = Some(page.clone()),
            Event::DynamicPageClosed { page_id, all: close_all } => {
                let matches =
                    all.current_dynamic_page.as_ref().is_some_and(|open| *close_all || page_id.as_deref() == Some(open.page_id.as_str()));
                if matches {
                    all.current_dynamic_page = None;
                }
            }
            Event::BroadcastModeChanged { active } => all.broadcast_mode = *active,
            Event::ViewModeChanged { mode } => all.view_mode = *mode,
            Event::ScreenSharingChanged { active } => all.allow_screen_sharing = *active,
            Event::MuteAllChanged { muted } => all.muted_all = *muted,
            Event::AttendeeChanged { attendee } => {
                self.participants.insert(attendee.attendee_id.clone(), Arc::new(attendee.clone()));
            }
            Event::AttendeeRemoved { attendee_id } => {
                self.participants.remove(attendee_id);
            }
            Event::CartPermissionChanged { attendee_id, permission } => {
                if let Some(p) = self.participants.get_mut(attendee_id) {
                    Arc::make_mut(p).cart_permission = *permission;
                }
            }
            Event::AttendeeCollectionChanged { .. } | Event::AttendeeCartChanged { .. } | Event::Reload { .. } => {}
        }
    }

    fn snapshot_parts(&self, role: Role, attendee_id: &str) -> SnapshotParts {
        let mut state_for_clients = self.state_for_clients.clone();
        state_for_clients.cart_permission = self.participants.get(attendee_id).map(|p| p.cart_permission).unwrap_or_default();
        SnapshotParts {
            state_for_all: self.state_for_all.clone(),
            state_for_clients,
            participants: (role == Role::Guide).then(|| self.participants.values().cloned().collect()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(id: char, role: Role) -> HubClaims {
        HubClaims { sub: id.to_string().repeat(32), apt: "0".repeat(32), role, name: None, exp: u64::MAX }
    }

    fn slide(alias: u32) -> Event {
        Event::SlideSwitched { page_id: "a".repeat(32), section_id: "b".repeat(32), slide_alias: alias }
    }

    #[tokio::test]
    async fn a_full_queue_drops_the_slow_subscriber_and_spares_the_others() {
        let settings = RoomSettings { retained_events: 16, metrics: Arc::default() };
        let room = Room::open_local("0".repeat(32), &settings, Arc::new(Store::in_memory().unwrap())).unwrap();
        let (slow_tx, mut slow_rx) = queue::channel(2);
        let slow_reason = Arc::new(AtomicU16::new(0));
        room.attach(1, &claims('s', Role::Client), None, None, slow_tx, slow_reason.clone(), 1000);
        let (fast_tx, mut fast_rx) = queue::channel(64);
        room.attach(2, &claims('f', Role::Client), None, None, fast_tx, Arc::default(), 1000);

        for alias in 1..=5 {
            room.publish(Audience::Everyone, slide(alias)).await.unwrap();
        }
        assert_eq!(slow_reason.load(Ordering::Relaxed), close_code::SLOW_CONSUMER);
        assert_eq!(room.subscriber_count(), 1);
        // The slow one gets what fit in its queue, then the end of the queue.
        let mut slow = Vec::new();
        while let Some(outbound) = slow_rx.try_recv() {
            slow.push(outbound.item);
        }
        assert_eq!(slow.len(), 2);
        assert!(slow_rx.try_recv().is_none());
        // The fast one got all five, chained by prev.
        let mut prev = 0;
        for alias in 1..=5 {
            match fast_rx.try_recv().expect("an item").item {
                Queued::Event { seq, prev: p, event } => {
                    assert_eq!(p, prev);
                    assert_eq!(event.event, slide(alias));
                    prev = seq;
                }
                Queued::Volatile(_) => panic!("unexpected volatile event"),
            }
        }
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
            if let (Message::Text(a), Message::Text(b)) = (&first, &again) {
                assert_eq!(a.as_str().as_ptr(), b.as_str().as_ptr(), "the same bytes are reused");
            }
            assert_eq!(decode(first), ServerFrame::Event { seq: 9, prev: 8, event: slide(3) });
            assert_eq!(decode(again), ServerFrame::Event { seq: 9, prev: 8, event: slide(3) });
            assert_eq!(decode(other), ServerFrame::Event { seq: 9, prev: 5, event: slide(3) });
        }
    }

    #[tokio::test]
    async fn a_guide_gets_a_large_room_in_pages_that_add_up_to_the_snapshot() {
        let settings = RoomSettings { retained_events: 16, metrics: Arc::default() };
        let room = Room::open_local("0".repeat(32), &settings, Arc::new(Store::in_memory().unwrap())).unwrap();
        let total = 2 * PARTICIPANTS_PER_FRAME + 34;
        for i in 0..total {
            let claims = HubClaims { sub: format!("{i:032x}"), apt: "0".repeat(32), role: Role::Client, name: None, exp: u64::MAX };
            room.set_presence(&claims, true).await.unwrap();
            if i % 3 == 0 {
                room.set_presence(&claims, false).await.unwrap();
            }
        }
        let guide = claims('g', Role::Guide);
        room.set_presence(&guide, true).await.unwrap();

        let (tx, _rx) = queue::channel(8);
        let attached = room.attach(1, &guide, None, None, tx, Arc::default(), 1000);
        let ServerFrame::Welcome { snapshot: Some(snapshot), participant_pages, .. } = attached.welcome else {
            panic!("a welcome with a snapshot")
        };
        let guides = snapshot.state_for_guides.unwrap();
        assert_eq!(guides.guides.len() + guides.clients.len() + guides.inactive_clients.len(), PARTICIPANTS_PER_FRAME);
        assert!(guides.guides.contains_key(&"g".repeat(32)), "guides come first");
        // 1,035 participants: 500 in the welcome, then pages of 500 and 35.
        assert_eq!(participant_pages, Some(2));
        assert_eq!(attached.pages.len(), 2);
        let mut seen: Vec<String> =
            guides.guides.keys().chain(guides.clients.keys()).chain(guides.inactive_clients.keys()).cloned().collect();
        for (n, frame) in attached.pages.into_iter().enumerate() {
            let ServerFrame::Participants { page, pages, participants } = frame else { panic!("a page") };
            assert_eq!((page, pages), (n as u32 + 1, 2));
            assert!(participants.len() <= PARTICIPANTS_PER_FRAME);
            seen.extend(participants.into_iter().map(|p| p.attendee_id));
        }
        let before = seen.len();
        seen.sort();
        seen.dedup();
        assert_eq!((before, seen.len()), (total + 1, total + 1), "everyone once");
        // The full view is unchanged, and a client's welcome has no pages.
        let full = room.snapshot(Role::Guide, None).state_for_guides.unwrap();
        assert_eq!(full.clients.len() + full.inactive_clients.len() + full.guides.len(), total + 1);
        let (tx, _rx) = queue::channel(8);
        let client = room.attach(2, &claims('c', Role::Client), None, None, tx, Arc::default(), 1000);
        assert!(client.pages.is_empty());
        assert!(matches!(client.welcome, ServerFrame::Welcome { participant_pages: None, .. }));
    }

    #[tokio::test]
    async fn a_small_room_fits_the_welcome() {
        let settings = RoomSettings { retained_events: 16, metrics: Arc::default() };
        let room = Room::open_local("0".repeat(32), &settings, Arc::new(Store::in_memory().unwrap())).unwrap();
        room.set_presence(&claims('a', Role::Client), true).await.unwrap();
        let (tx, _rx) = queue::channel(8);
        let attached = room.attach(1, &claims('g', Role::Guide), None, None, tx, Arc::default(), 1000);
        assert!(attached.pages.is_empty());
        assert!(matches!(attached.welcome, ServerFrame::Welcome { participant_pages: None, .. }));
    }

    #[tokio::test]
    async fn a_client_sees_its_own_cart_permission_refused_apart_from_never_asked() {
        let settings = RoomSettings { retained_events: 16, metrics: Arc::default() };
        let room = Room::open_local("0".repeat(32), &settings, Arc::new(Store::in_memory().unwrap())).unwrap();
        let (ada, bob) = (claims('a', Role::Client), claims('b', Role::Client));
        room.set_presence(&ada, true).await.unwrap();
        room.set_presence(&bob, true).await.unwrap();
        let own = |who: &HubClaims| room.snapshot(Role::Client, Some(&who.sub)).state_for_clients.cart_permission;
        assert_eq!((own(&ada), own(&bob)), (CartPermission::Missing, CartPermission::Missing));
        let change = |permission| Event::CartPermissionChanged { attendee_id: ada.sub.clone(), permission };
        room.publish(Audience::Attendee(ada.sub.clone()), change(CartPermission::Requested)).await.unwrap();
        assert_eq!((own(&ada), own(&bob)), (CartPermission::Requested, CartPermission::Missing));
        room.publish(Audience::Attendee(ada.sub.clone()), change(CartPermission::Refused)).await.unwrap();
        assert_eq!((own(&ada), own(&bob)), (CartPermission::Refused, CartPermission::Missing));
        // And in the welcome of a new connection.
        let (tx, _rx) = queue::channel(8);
        let attached = room.attach(1, &ada, None, None, tx, Arc::default(), 1000);
        let ServerFrame::Welcome { snapshot: Some(snapshot), .. } = attached.welcome else { panic!("a snapshot") };
        assert_eq!(snapshot.state_for_clients.cart_permission, CartPermission::Refused);
    }

    #[tokio::test]
    async fn private_events_reach_only_their_attendee_and_guides() {
        let settings = RoomSettings { retained_events: 16, metrics: Arc::default() };
        let room = Room::open_local("0".repeat(32), &settings, Arc::new(Store::in_memory().unwrap())).unwrap();
        let mut receivers = Vec::new();
        for (n, (id, role)) in [('g', Role::Guide), ('a', Role::Client), ('b', Role::Client)].into_iter().enumerate() {
            let (tx, rx) = queue::channel(8);
            room.attach(n as u64, &claims(id, role), None, None, tx, Arc::default(), 1000);
            receivers.push(rx);
        }
        let action = protocol::action::Action::LoadCart { attendee_id: None };
        room.publish(Audience::Attendee("a".repeat(32)), Event::Reload { action }).await.unwrap();
        let got: Vec<bool> = receivers.iter_mut().map(|rx| rx.try_recv().is_some()).collect();
        assert_eq!(got, [true, true, false]);
        // A participant event is for the guides only.
        room.publish(Audience::Guides, Event::AttendeeRemoved { attendee_id: "c".repeat(32) }).await.unwrap();
        let got: Vec<bool> = receivers.iter_mut().map(|rx| rx.try_recv().is_some()).collect();
        assert_eq!(got, [true, false, false]);
        // And everyone gets the next slide, the guide's `prev` chaining over the private events.
        room.publish(Audience::Everyone, slide(1)).await.unwrap();
        let prevs: Vec<u64> = receivers
            .iter_mut()
            .map(|rx| match rx.try_recv().expect("the slide").item {
                Queued::Event { prev, .. } => prev,
                Queued::Volatile(_) => panic!("unexpected volatile event"),
            })
            .collect();
        assert_eq!(prevs, [2, 1, 0]);
    }

    #[tokio::test]
    async fn a_large_room_snapshots_after_as_many_events_as_it_has_participants() {
        let settings = RoomSettings { retained_events: 16, metrics: Arc::default() };
        let store = Arc::new(Store::in_memory().unwrap());
        let id = "0".repeat(32);
        let room = Room::open_local(id.clone(), &settings, store.clone()).unwrap();
        let snapshot_seq = || store.load_or_create(&id, "unused", 16).unwrap().snapshot_seq;
        // 600 joins: one snapshot after the first 256 events, then none while the room
        // grows as fast as its events (each would hold every participant).
        for i in 0..600 {
            let claims = HubClaims { sub: format!("{i:032x}"), apt: id.clone(), role: Role::Client, name: None, exp: u64::MAX };
            room.set_presence(&claims, true).await.unwrap();
        }
        assert_eq!(snapshot_seq(), SNAPSHOT_EVERY);
        // The next one after as many events as there are participants.
        for alias in 601..856 {
            room.publish(Audience::Everyone, slide(alias)).await.unwrap();
        }
        assert_eq!(snapshot_seq(), SNAPSHOT_EVERY);
        room.publish(Audience::Everyone, slide(856)).await.unwrap();
        assert_eq!(snapshot_seq(), SNAPSHOT_EVERY + 600);
        // What a restart loads: that snapshot and the events after it, the same state
        // (the participants then marked lost, as nobody is connected to a new hub).
        let reopened = Room::open_local(id.clone(), &settings, store.clone()).unwrap();
        assert_eq!(reopened.state_for_all(), room.state_for_all());
        assert_eq!(reopened.state_for_all().current_slide_alias, 856);
        let guides = reopened.snapshot(Role::Guide, None).state_for_guides.unwrap();
        assert_eq!((guides.clients.len(), guides.inactive_clients.len()), (0, 600));
    }
}
