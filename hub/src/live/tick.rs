//! The engagement tick: a background task ([`run`], started by [`spawn`]) that every base
//! tick ([`REACTION_TICK_MS`]) runs each open room's tick when it is due
//! ([`Room::engagement_tick`]), and the chat batches a room posts between ticks
//! ([`Room::flush_chat`], [`Room::flush_chat_to_next_write`]). What a tick sends is kept
//! in the room's [`super::engagement::Engagement`].
//!
//! One tick, one write per subscriber (#19 item 8, BENCHMARKS.md "Engagement under
//! load"): the chat batch is queued without scheduling the writers, then one pass queues
//! the tick's volatile frames behind it and schedules each connection once. In a room whose
//! tick is longer than the base tick, attendees' frames ride the next write to their
//! connection (a slide change), and the next pass schedules whoever had none.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use protocol::engagement::{engagement_base_ticks, ChatMessage, ReactionCounts, REACTION_TICK_MS};
use protocol::frame::Event;
use protocol::internal::Audience;

use super::outbound::{Outbound, Queued, SharedVolatile};
use super::queue::TrySendError;
use super::room::{Change, Inner, Room};
use super::{policy, Rooms};
use crate::store::StoreError;

/// Starts [`run`] on the current runtime; it ends with the runtime.
pub fn spawn(rooms: Rooms) {
    tokio::spawn(run(rooms));
}

/// Every [`REACTION_TICK_MS`] (the base tick) until the hub goes, runs each open room's
/// engagement tick when it is due ([`Room::engagement_tick`]: every 250 ms in a small
/// room, up to every second in a large one).
pub async fn run(rooms: Rooms) {
    let mut tick = tokio::time::interval(Duration::from_millis(REACTION_TICK_MS));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        for room in rooms.all() {
            if let Err(error) = room.engagement_tick().await {
                tracing::warn!(%error, appointment_id = %room.appointment_id, "engagement tick: could not post the chat's batch or merge reactions");
            }
        }
    }
}

impl Room {
    /// Posts the chat messages taken since the last batch: one ordered
    /// `chatMessagesPosted` to everyone per [`protocol::engagement::MAX_CHAT_BATCH`]
    /// messages (usually one), written at once. Called before a guide's chat moderation
    /// ([`super::submit`]) and by the drain before the hub goes; the room's tick posts its
    /// batch with [`Room::engagement_tick`]. In cluster mode each replica posts the
    /// messages its own connections sent: a room gets at most one batch per replica and
    /// tick, each ordered by Redis like any other event. When the order fails, nothing was
    /// posted: the messages go back in front of any taken meanwhile, for the next tick.
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
            if !inner.engagement.has_chat() || engagement_base_ticks(inner.subscribers.len()) <= 1 {
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
                let messages = inner
                    .engagement
                    .next_chat_batch(of_tick, policy::now_ms())?;
                taken = Some(messages.clone());
                Some((Audience::Everyone, Event::ChatMessagesPosted { messages }))
            });
            match self.order.commit(self, change).await {
                Ok(Some(_)) => {}
                Ok(None) => return Ok(()),
                Err(error) => {
                    if let Some(messages) = taken {
                        self.lock().engagement.chat_not_posted(messages);
                    }
                    return Err(error);
                }
            }
        }
    }

    /// Called every [`REACTION_TICK_MS`] (the base tick, by [`run`]): runs the room's
    /// engagement tick when it is due. A room ticks every
    /// [`protocol::engagement::engagement_tick_ms`] of its subscribers: 250 ms in a small
    /// room, growing with the room to 1 s at 5,000 subscribers and more. One tick:
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
            let subscribers = inner.subscribers.len();
            if !inner.engagement.start_tick(subscribers) {
                return Ok(());
            }
        }
        let chat = self.post_chat(true).await;
        let merged = self.order.merge_reactions(self, self.taps.take()).await;
        let counts = merged.as_ref().copied().unwrap_or_default();
        self.taps.sent(counts);
        self.tick_pass(counts);
        chat.and(merged.map(|_| ()))
    }

    /// The tick's pass (see [`Room::engagement_tick`]): its volatile frames queued to
    /// everyone, and every connection whose tick frames are due scheduled, in one pass.
    fn tick_pass(&self, reactions: ReactionCounts) {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let pass = inner
            .engagement
            .end_tick(&inner.live, reactions, inner.subscribers.len());
        if pass.frames.is_empty() && !inner.engagement.owed {
            return;
        }
        let frames: Vec<Arc<SharedVolatile>> = pass
            .frames
            .into_iter()
            .map(|event| Arc::new(SharedVolatile::new(event)))
            .collect();
        let queued_at = Instant::now();
        let mut owed = false;
        for sub in inner.subscribers.of(&Audience::Everyone) {
            for frame in &frames {
                let item = Queued::Volatile(frame.clone());
                if let Err(TrySendError::Full(_)) = sub.queue(
                    Outbound {
                        item,
                        queued_at: Some(queued_at),
                    },
                    pass.due.of(sub.role),
                ) {
                    self.metrics.queue_drops.fetch_add(1, Ordering::Relaxed);
                }
            }
            if sub.due_by != 0 && sub.due_by <= pass.pass {
                sub.due_by = 0;
                // Written already with another frame's write: nothing left to schedule.
                if !sub.outlet.is_empty() {
                    sub.outlet.schedule();
                }
            }
            owed |= sub.due_by != 0;
        }
        inner.engagement.owed = owed;
    }
}
