//! A room's subscribers: one [`Subscriber`] per attached connection, kept by
//! `Subscribers` with the guides apart and attendees' connections found by attendee id.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Arc;
use std::time::Instant;

use protocol::frame::close_code;
use protocol::internal::Audience;
use protocol::Role;

use super::engagement::TickDue;
use super::outbound::{Outbound, Outlet, Queued, SharedEvent, SharedVolatile};
use super::queue::TrySendError;

/// A connection's handle in a room.
pub struct Subscriber {
    pub connection_id: u64,
    pub attendee_id: String,
    pub role: Role,
    /// Its queue, and the writer task that empties it.
    pub(super) outlet: Outlet,
    /// The `seq` of the last event queued for this subscriber (the next one's `prev`).
    pub(super) last_sent: u64,
    /// Set before the room drops the sender, so the connection knows why its queue ended.
    pub(super) close_reason: Arc<AtomicU16>,
    /// Engagement frames were queued for it without scheduling its writer: the number of
    /// the tick pass that schedules it at the latest, unless another frame's write takes
    /// them first (0: nothing owed). See [`super::Room::engagement_tick`].
    pub(super) due_by: u64,
}

impl Subscriber {
    /// Queues a frame: scheduled at once (`None`), or an engagement frame of a tick left
    /// for the next write to the connection, whatever it carries, or else for the tick
    /// pass numbered `due` (see [`super::Room::engagement_tick`]).
    pub(super) fn queue(
        &mut self,
        outbound: Outbound,
        due: Option<u64>,
    ) -> Result<(), TrySendError<Outbound>> {
        match due {
            None => {
                // Whatever a tick left queued goes out with this frame's write.
                self.due_by = 0;
                self.outlet.send(outbound)
            }
            Some(due) => {
                let outbound = Outbound {
                    queued_at: None,
                    ..outbound
                };
                if self.outlet.send_unscheduled(outbound)?
                    && (self.due_by == 0 || self.due_by > due)
                {
                    self.due_by = due;
                }
                Ok(())
            }
        }
    }
}

/// A room's connections, guides apart: most events that are not for everyone are for
/// the guides only (every join and leave), and should not look at every attendee. Events
/// for one attendee and the guides (a vote's `pollVoted`, 1,000 a second in a 10,000-vote
/// poll) find the attendee's connections by its id instead of comparing it with every
/// attendee's (#19 item 8: that scan of the whole room, under its lock, per vote, was a
/// tenth of the hub's core at 10,000 attendees).
#[derive(Default)]
pub(super) struct Subscribers {
    pub(super) guides: Vec<Subscriber>,
    pub(super) clients: Vec<Subscriber>,
    /// Where each attendee's connections are in `clients`.
    client_at: HashMap<Arc<str>, Vec<usize>>,
}

impl Subscribers {
    pub(super) fn len(&self) -> usize {
        self.guides.len() + self.clients.len()
    }

    pub(super) fn push(&mut self, subscriber: Subscriber) {
        match subscriber.role {
            Role::Guide => self.guides.push(subscriber),
            Role::Client => {
                self.client_at
                    .entry(Arc::from(subscriber.attendee_id.as_str()))
                    .or_default()
                    .push(self.clients.len());
                self.clients.push(subscriber);
            }
        }
    }

    /// Removes one connection without moving the others (their order does not matter):
    /// when a large room empties, every connection leaves, and shifting the rest each
    /// time would cost the square of the room's size.
    pub(super) fn remove(&mut self, connection_id: u64) -> bool {
        if let Some(at) = self
            .guides
            .iter()
            .position(|s| s.connection_id == connection_id)
        {
            self.guides.swap_remove(at);
            return true;
        }
        let Some(at) = self
            .clients
            .iter()
            .position(|s| s.connection_id == connection_id)
        else {
            return false;
        };
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

    pub(super) fn retain(&mut self, mut keep: impl FnMut(&Subscriber) -> bool) {
        self.guides.retain(&mut keep);
        let before = self.clients.len();
        self.clients.retain(keep);
        if self.clients.len() != before {
            self.client_at.clear();
            for (at, sub) in self.clients.iter().enumerate() {
                self.client_at
                    .entry(Arc::from(sub.attendee_id.as_str()))
                    .or_default()
                    .push(at);
            }
        }
    }

    /// Queues the state event `seq` to each subscriber of `audience`, each with its own
    /// `prev`, scheduled by `due` (an engagement tick's frame, or at once). A subscriber
    /// whose queue is full is dropped with [`close_code::SLOW_CONSUMER`] (state events are
    /// never skipped: it resumes), one whose connection ended is dropped too. Dropping
    /// a subscriber drops its sender; its connection task then sees the queue end after
    /// the frames already in it and closes with `close_reason`. One pass over the
    /// subscribers when nobody left, two when someone did.
    pub(super) fn queue_event(
        &mut self,
        audience: &Audience,
        seq: u64,
        event: Arc<SharedEvent>,
        due: TickDue,
        queued_at: Instant,
    ) {
        let mut gone = false;
        for sub in self.of(audience) {
            let item = Queued::Event {
                seq,
                prev: sub.last_sent,
                event: event.clone(),
            };
            let outbound = Outbound {
                item,
                queued_at: Some(queued_at),
            };
            match sub.queue(outbound, due.of(sub.role)) {
                Ok(()) => sub.last_sent = seq,
                Err(TrySendError::Full(_)) => {
                    sub.close_reason
                        .store(close_code::SLOW_CONSUMER, Ordering::Relaxed);
                    gone = true;
                }
                Err(TrySendError::Closed(_)) => gone = true,
            }
        }
        if gone {
            self.retain(|s| !s.outlet.is_closed() && s.close_reason.load(Ordering::Relaxed) == 0);
        }
    }

    /// Queues a volatile event to each subscriber of `audience`, at once; a full queue
    /// skips it instead of disconnecting. Returns how many skipped it.
    pub(super) fn queue_volatile(
        &mut self,
        audience: &Audience,
        event: Arc<SharedVolatile>,
        queued_at: Instant,
    ) -> u64 {
        let mut dropped = 0;
        for sub in self.of(audience) {
            let outbound = Outbound {
                item: Queued::Volatile(event.clone()),
                queued_at: Some(queued_at),
            };
            if let Err(TrySendError::Full(_)) = sub.queue(outbound, None) {
                dropped += 1;
            }
        }
        dropped
    }

    /// Lets every guide's queue hold `capacity` frames (a guide's grows with the room).
    pub(super) fn raise_guide_capacity(&self, capacity: usize) {
        for guide in &self.guides {
            guide.outlet.raise_capacity(capacity);
        }
    }

    /// Ends the connections of `attendee_id` with `reason`, after what is queued for them.
    pub(super) fn close_attendee(&mut self, attendee_id: &str, reason: u16) {
        self.retain(|s| {
            if s.attendee_id == attendee_id {
                s.close_reason.store(reason, Ordering::Relaxed);
                false
            } else {
                true
            }
        });
    }

    /// Ends every connection with `reason`, after what is queued for each; how many.
    pub(super) fn close_all(&mut self, reason: u16) -> usize {
        let closed = self.len();
        self.retain(|s| {
            s.close_reason.store(reason, Ordering::Relaxed);
            false
        });
        closed
    }

    /// The subscribers an event for `audience` goes to: the guides, then the attendees.
    pub(super) fn of<'a>(
        &'a mut self,
        audience: &'a Audience,
    ) -> Box<dyn Iterator<Item = &'a mut Subscriber> + 'a> {
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
                    let Some(tail) = rest.get_mut(at - offset..) else {
                        break;
                    };
                    let Some((sub, after)) = tail.split_first_mut() else {
                        break;
                    };
                    chosen.push(sub);
                    rest = after;
                    offset = at + 1;
                }
                Box::new(guides.chain(chosen))
            }
        }
    }
}
