//! What a room puts in its subscribers' queues and how: [`Outbound`] (a [`Queued`] frame
//! with the time it was queued), the events encoded once per codec and `prev` for every
//! subscriber ([`SharedEvent`], [`SharedVolatile`]), and [`Outlet`], a subscriber's queue
//! with the writer that empties it ([`Scheduled`], implemented by the socket side's
//! `SocketWriter`). The room and the writers both import this module; it imports
//! neither.
//!
//! A `SharedEvent` keeps its bytes for every `prev` it was encoded for: voters' and
//! guides' `prev` differ from the other attendees' while a poll runs, and keeping only the
//! first encoding made every attendee encode a frame again when a guide's write came first
//! (a second's chat batch 10,000 times, #19 item 8).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::ws::{Message, Utf8Bytes};
use protocol::codec::{Codec, Encoded};
use protocol::frame::{Event, EventFrame, VolatileEvent, VolatileFrame};

use super::queue::{self, TrySendError};

/// What a connection task receives from its room. Small on purpose: every connection's
/// queue allocates a block of these up front.
pub struct Outbound {
    pub item: Queued,
    /// When the room queued it, for the fan-out latency metric; `None` for the frames of an
    /// engagement tick ([`super::Room::engagement_tick`]), queued without scheduling a write: in a
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
    /// [`crate::ws::fanout`]), which must finish writing what is in the socket's buffer.
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
        PerPrev {
            first: OnceLock::new(),
            others: Mutex::default(),
        }
    }

    /// The bytes for `prev`, encoded by `encode` the first time they are asked for.
    fn get(&self, prev: u64, encode: impl Fn() -> Option<T>) -> Option<T> {
        match self
            .first
            .get_or_init(|| encode().map(|bytes| (prev, bytes)))
        {
            Some((first_prev, bytes)) if *first_prev == prev => Some(bytes.clone()),
            _ => {
                let mut others = self
                    .others
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
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
        SharedEvent {
            event,
            json: PerPrev::new(),
            msgpack: PerPrev::new(),
        }
    }

    /// The WebSocket message of this event for a subscriber whose previous event was
    /// `prev`.
    pub fn message(&self, codec: Codec, seq: u64, prev: u64) -> Option<Message> {
        let frame = EventFrame {
            seq,
            prev,
            event: &self.event,
        };
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
        SharedVolatile {
            event,
            json: OnceLock::new(),
            msgpack: OnceLock::new(),
        }
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

/// How a room reaches one subscriber: its bounded queue, and the writer that empties it
/// when the connection has one.
pub struct Outlet {
    tx: queue::Sender<Outbound>,
    writer: Option<Arc<dyn Scheduled>>,
}

/// A connection's side of [`Outlet`]: whether its writer task takes its frames now, and
/// how to put it on that task's list.
pub trait Scheduled: Send + Sync {
    fn writable(&self) -> bool;
    fn schedule(&self);
}

/// A queue alone: every frame wakes the receiver (tests, and any connection without a
/// writer).
impl From<queue::Sender<Outbound>> for Outlet {
    fn from(tx: queue::Sender<Outbound>) -> Outlet {
        Outlet { tx, writer: None }
    }
}

impl Outlet {
    pub fn new(tx: queue::Sender<Outbound>, writer: Arc<dyn Scheduled>) -> Outlet {
        Outlet {
            tx,
            writer: Some(writer),
        }
    }

    /// Queues one frame: for the writer task when the connection is its (no wake-up of
    /// the connection), for the connection's task otherwise. Errors are the queue's:
    /// full (a slow consumer) or closed (the connection is gone).
    pub fn send(&self, outbound: Outbound) -> Result<(), TrySendError<Outbound>> {
        match &self.writer {
            Some(writer) if writer.writable() => {
                self.tx.try_send_quietly(outbound)?;
                writer.schedule();
                Ok(())
            }
            _ => self.tx.try_send(outbound),
        }
    }

    /// Queues one frame without putting the connection on its writer's list (the room's
    /// engagement tick, `Room::engagement_tick`): it goes out with the next frame that is
    /// scheduled, or when the room calls [`Outlet::schedule`]. True when queued that way;
    /// false when the connection's task has it (then it is woken as by [`Outlet::send`]).
    pub fn send_unscheduled(&self, outbound: Outbound) -> Result<bool, TrySendError<Outbound>> {
        match &self.writer {
            Some(writer) if writer.writable() => self.tx.try_send_quietly(outbound).map(|()| true),
            _ => self.tx.try_send(outbound).map(|()| false),
        }
    }

    /// Puts the connection on its writer's list (for frames queued with
    /// [`Outlet::send_unscheduled`]). When its task has it, the task writes them anyway.
    pub fn schedule(&self) {
        if let Some(writer) = &self.writer {
            if writer.writable() {
                writer.schedule();
            }
        }
    }

    /// Nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.tx.is_empty()
    }

    /// See [`queue::Sender::raise_capacity`].
    pub fn raise_capacity(&self, capacity: usize) {
        self.tx.raise_capacity(capacity);
    }

    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

#[cfg(test)]
mod tests {
    use protocol::frame::ServerFrame;

    use super::*;

    fn slide(alias: u32) -> Event {
        Event::SlideSwitched {
            page_id: "a".repeat(32),
            section_id: "b".repeat(32),
            slide_alias: alias,
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
            let other_again = shared.message(codec, 9, 5).unwrap();
            for (a, b) in [(&first, &again), (&other, &other_again)] {
                let (a, b) = match (a, b) {
                    (Message::Text(a), Message::Text(b)) => {
                        (a.as_str().as_ptr(), b.as_str().as_ptr())
                    }
                    (Message::Binary(a), Message::Binary(b)) => (a.as_ptr(), b.as_ptr()),
                    _ => panic!("one kind of message per codec"),
                };
                assert_eq!(a, b, "the same bytes are reused, for every prev");
            }
            assert_eq!(
                decode(other_again.clone()),
                ServerFrame::Event {
                    seq: 9,
                    prev: 5,
                    event: slide(3)
                }
            );
            assert_eq!(
                decode(first),
                ServerFrame::Event {
                    seq: 9,
                    prev: 8,
                    event: slide(3)
                }
            );
            assert_eq!(
                decode(again),
                ServerFrame::Event {
                    seq: 9,
                    prev: 8,
                    event: slide(3)
                }
            );
            assert_eq!(
                decode(other),
                ServerFrame::Event {
                    seq: 9,
                    prev: 5,
                    event: slide(3)
                }
            );
        }
    }
}
