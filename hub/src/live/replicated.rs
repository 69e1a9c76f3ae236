//! Cluster mode: Redis orders each room's events ([`Cluster`]) and hands them to every
//! replica subscribed to the appointment; each replica applies them in that order when
//! they come back ([`ClusterOrder::deliver`]), filling gaps from the stream.

use std::sync::Arc;

use std::sync::atomic::Ordering;

use futures_util::future::BoxFuture;
use protocol::engagement::{ReactionCounts, REACTION_TICK_MS};

use super::room::{snapshot_interval, Change, Order, Room, RoomSettings};
use super::Rooms;
use crate::cluster::{Cluster, Deliver};
use crate::store::{retained_events, StoreError, StoredEvent, StoredRoom};

/// The [`Order`] of cluster mode.
pub struct ClusterOrder {
    cluster: Arc<Cluster>,
}

impl ClusterOrder {
    pub fn new(cluster: Arc<Cluster>) -> Arc<ClusterOrder> {
        Arc::new(ClusterOrder { cluster })
    }

    /// What the cluster hands events to: this replica's rooms.
    pub fn delivery(self: &Arc<Self>, rooms: Rooms) -> Arc<dyn Deliver> {
        Arc::new(Delivery {
            rooms,
            order: self.clone(),
        })
    }

    /// The events Redis keeps in a room's stream: the retained window and at least every
    /// event since the latest snapshot.
    fn stream_length(room: &Room) -> usize {
        let participants = room.lock().live().participants.len();
        retained_events(room.retained_events, participants)
            + 2 * snapshot_interval(participants) as usize
    }

    /// Applies an event Redis delivered. An event of another epoch means the history was
    /// replaced (Redis forgot it and a replica wrote its state back): the room loads the
    /// new one and every connection resyncs. Older events are duplicates and dropped; a
    /// gap before it is filled from the stream first.
    pub async fn deliver(
        &self,
        room: &Room,
        epoch: Option<String>,
        event: StoredEvent,
    ) -> Result<(), StoreError> {
        if epoch.is_some_and(|epoch| epoch != room.epoch()) {
            // A late event of a history this replica already left (Redis holds ours), or
            // one from before a loss nobody has written back yet (Redis holds none: the
            // next publish will): nothing to load.
            let current = self.cluster.epoch(&room.appointment_id).await?;
            if current.is_none_or(|current| current == room.epoch()) {
                return Ok(());
            }
            let stored = self
                .cluster
                .load(&room.appointment_id, &new_epoch(), room.retained_events)
                .await?;
            tracing::error!(appointment_id = %room.appointment_id, "the appointment's history was replaced in Redis; resyncing");
            room.replace_history(stored);
            return Ok(());
        }
        let next = room.lock().seq + 1;
        if event.seq < next {
            return Ok(());
        }
        if event.seq > next {
            return self.catch_up_room(room).await;
        }
        self.apply_in_order(room, vec![event]).await
    }

    /// Applies whatever the stream holds beyond the room's state.
    pub async fn catch_up_room(&self, room: &Room) -> Result<(), StoreError> {
        let next = room.lock().seq + 1;
        let events = self.cluster.range(&room.appointment_id, next).await?;
        if let Some(first) = events.first() {
            if first.seq > next {
                // Trimmed past us: the stream no longer connects; reopen from a snapshot
                // is the only way. This needs a replica to have been cut off for longer
                // than the stream length, and is reported rather than hidden.
                return Err(StoreError::Corrupt(format!(
                    "events {next}..{} of {} are no longer in Redis",
                    first.seq, room.appointment_id
                )));
            }
        }
        self.apply_in_order(room, events).await
    }

    /// Redis no longer holds the history this replica applied (flushed, or restarted
    /// without its data): writes this replica's state back as a new epoch (unless another
    /// replica did first; then its history is loaded) and resyncs every connection. The
    /// other replicas learn of it from the epoch of the next event.
    async fn recover(&self, room: &Room) -> Result<(), StoreError> {
        let (old_epoch, seq, state) = room.current();
        let fresh = new_epoch();
        let epoch = self
            .cluster
            .restore(&room.appointment_id, &old_epoch, &fresh, seq, &state)
            .await?;
        tracing::error!(appointment_id = %room.appointment_id, seq, restored = epoch == fresh, "Redis lost the appointment's history; a new epoch starts from this replica's state");
        let stored = if epoch == fresh {
            StoredRoom {
                epoch,
                snapshot_seq: seq,
                snapshot: state,
                events: Vec::new(),
            }
        } else {
            self.cluster
                .load(&room.appointment_id, &fresh, room.retained_events)
                .await?
        };
        room.replace_history(stored);
        Ok(())
    }

    async fn apply_in_order(
        &self,
        room: &Room,
        events: Vec<StoredEvent>,
    ) -> Result<(), StoreError> {
        let mut snapshots = Vec::new();
        {
            let mut inner = room.lock();
            for event in events {
                if event.seq != inner.seq + 1 {
                    continue;
                }
                snapshots.extend(room.apply_and_fan_out(&mut inner, event));
            }
        }
        for due in snapshots {
            let (seq, state) = due.into_state();
            if let Err(error) = self
                .cluster
                .snapshot(&room.appointment_id, seq, &state)
                .await
            {
                tracing::warn!(%error, appointment_id = %room.appointment_id, "could not write a snapshot");
            }
        }
        Ok(())
    }
}

impl Order for ClusterOrder {
    /// Subscribes first, then loads the snapshot and the stream, so nothing published
    /// meanwhile is missed (see [`Order::catch_up`]).
    fn open(
        self: Arc<Self>,
        appointment_id: String,
        settings: RoomSettings,
    ) -> BoxFuture<'static, Result<Room, StoreError>> {
        Box::pin(async move {
            self.cluster.subscribe(&appointment_id).await?;
            let stored = self
                .cluster
                .load(&appointment_id, &new_epoch(), settings.retained_events)
                .await?;
            Ok(Room::from_stored(appointment_id, &settings, self, stored))
        })
    }

    /// Events published while the room was loading were not delivered to it.
    fn catch_up<'a>(&'a self, room: &'a Room) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.catch_up_room(room))
    }

    /// Decides under the room lock, then publishes to Redis with the lock released; the
    /// room applies the event when Redis hands it back. When Redis forgot the history,
    /// nothing was published: the history is written back (`ClusterOrder::recover`)
    /// and the event published once more, so an ack always stands for a delivery.
    /// Every replica adds its taps to the hash of the current 250 ms bucket of wall time
    /// (`HINCRBY`) and sends the sums of the buckets two base ticks old, to which every
    /// replica has written by then: all replicas send every tap once, one event per room
    /// tick, at the cost of up to 750 ms of delay and one Redis round trip per room and
    /// tick. A room's tick grows with its subscribers on the replica
    /// ([`protocol::engagement::engagement_tick_ms`]): a replica with a large share of the
    /// room reads the buckets of up to four base ticks at once, so two replicas may group
    /// the same taps into different sums.
    /// Chosen over publishing partial counts on the event channel because that would make
    /// each replica's clients get one event per replica per tick, or need a second merge
    /// step; the buckets need no coordination beyond the replicas' clocks (NTP).
    fn merge_reactions<'a>(
        &'a self,
        room: &'a Room,
        local: ReactionCounts,
    ) -> BoxFuture<'a, Result<ReactionCounts, StoreError>> {
        Box::pin(async move {
            let now = super::policy::now_ms() / REACTION_TICK_MS;
            let newest_ready = now.saturating_sub(2);
            let last_read = room.taps.read.load(Ordering::Relaxed);
            // A room new to this replica starts with the newest ready bucket; one that
            // missed ticks catches up on at most eight.
            let first = if last_read == 0 {
                newest_ready
            } else {
                (last_read + 1).max(newest_ready.saturating_sub(7))
            };
            let read = first..=newest_ready;
            if first <= newest_ready {
                room.taps.read.store(newest_ready, Ordering::Relaxed);
            }
            match self
                .cluster
                .exchange_reactions(&room.appointment_id, now, local, read)
                .await
            {
                Ok(sum) => Ok(sum),
                Err(error) => {
                    room.taps.read.store(last_read, Ordering::Relaxed);
                    Err(error)
                }
            }
        })
    }

    fn commit<'a>(
        &'a self,
        room: &'a Room,
        change: Change<'a>,
    ) -> BoxFuture<'a, Result<Option<u64>, StoreError>> {
        Box::pin(async move {
            let (decided, epoch, seen) = {
                let mut inner = room.lock();
                let decided = change(&mut inner);
                (decided, inner.epoch().to_owned(), inner.seq)
            };
            let Some((audience, event)) = decided else {
                return Ok(None);
            };
            let keep = Self::stream_length(room);
            match self
                .cluster
                .publish(
                    &room.appointment_id,
                    (&epoch, seen),
                    audience.clone(),
                    event.clone(),
                    keep,
                )
                .await
            {
                Err(StoreError::Forgotten) => {
                    self.recover(room).await?;
                    let (epoch, seen) = (room.epoch(), room.lock().seq);
                    self.cluster
                        .publish(&room.appointment_id, (&epoch, seen), audience, event, keep)
                        .await
                        .map(Some)
                }
                published => published.map(Some),
            }
        })
    }
}

/// Routes what Redis hands this replica to its open rooms.
struct Delivery {
    rooms: Rooms,
    order: Arc<ClusterOrder>,
}

impl Deliver for Delivery {
    fn deliver<'a>(
        &'a self,
        appointment_id: &'a str,
        epoch: Option<String>,
        event: StoredEvent,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            // Not open here: nobody on this replica needs it; opening loads the stream.
            let Some(room) = self.rooms.get(appointment_id) else {
                return Ok(());
            };
            self.order.deliver(&room, epoch, event).await
        })
    }

    fn catch_up_all(&self) -> BoxFuture<'_, bool> {
        Box::pin(async move {
            let mut caught_up = true;
            for room in self.rooms.all() {
                if let Err(error) = self.order.catch_up_room(&room).await {
                    tracing::warn!(%error, appointment_id = %room.appointment_id, "catch-up failed");
                    caught_up = false;
                }
            }
            caught_up
        })
    }
}

/// A fresh epoch: random, so histories that were lost are never mistaken for each other.
fn new_epoch() -> String {
    format!("{:016x}", rand::random::<u64>())
}
