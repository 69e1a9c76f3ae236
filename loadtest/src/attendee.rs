//! A simulated attendee's reading of its socket ([`receive`]): each slide change timed
//! from the send time in its section id, every event checked to follow the one before
//! (`prev`) exactly once, the hub's pings answered, a closed socket resumed
//! (`--resume`), and what the engagement mode sends and looks at.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use protocol::frame::{Resume, ServerFrame};
use tokio_tungstenite::tungstenite::Message;

use crate::engagement::{self, SeenPoll};
use crate::peek::{chat_texts, decode, peek, Kind, Peek};
use crate::report::{unix_us, Continuity};
use crate::socket::{pong, Rejoin, Socket, Welcomed};

/// How long an attendee waits for the next slide change once they have started.
const RECEIVE_TIMEOUT: Duration = Duration::from_secs(30);

/// How long an attendee waits for the first slide change (the other shards may still
/// be joining).
const FIRST_SLIDE_TIMEOUT: Duration = Duration::from_secs(600);

/// Why an attendee's receive loop ended (for the report's "not on the last slide").
enum Ended {
    Done,
    TimedOut,
    Closed,
}

/// What one attendee measured.
#[derive(Default)]
pub(crate) struct Received {
    pub after_joins_us: Vec<u32>,
    pub steady_us: Vec<u32>,
    pub first_sent_us: u64,
    pub last_received_us: u64,
    pub complete: bool,
    pub continuity: Continuity,
    /// What the attendee saw of the engagement (empty without).
    pub seen: engagement::Seen,
}

/// An attendee's part in the engagement: the frames to send, and what the load
/// generator's attendees share.
pub(crate) struct Engaged {
    pub outbox: tokio::sync::mpsc::UnboundedReceiver<Message>,
    pub shared: Arc<engagement::Shared>,
}

/// Where an attendee's reading stands, and what it measured so far.
struct Reader {
    got: Received,
    last_seq: u64,
    epoch: String,
    /// The last slide change seen (not the welcome's slide: the appointment may still
    /// show the last run's last slide).
    slide: u32,
    first_slides: u32,
    /// With engagement: what the attendees share.
    shared: Option<Arc<engagement::Shared>>,
    /// When the attendee stops waiting for the next frame it expects.
    deadline: Instant,
}

impl Reader {
    fn new(welcomed: Welcomed, first_slides: u32, shared: Option<Arc<engagement::Shared>>) -> Self {
        Reader {
            got: Received {
                first_sent_us: u64::MAX,
                ..Received::default()
            },
            last_seq: welcomed.seq,
            epoch: welcomed.epoch,
            slide: 0,
            first_slides,
            shared,
            deadline: Instant::now() + FIRST_SLIDE_TIMEOUT,
        }
    }

    /// Whether the attendee reads on: until the last slide change, and with engagement
    /// until the poll closed.
    fn wants_more(&self, slides: u32) -> bool {
        self.slide < slides || (self.shared.is_some() && !self.got.seen.poll_closed)
    }

    /// Takes the welcome of a resumed connection.
    fn resumed(&mut self, welcomed: Welcomed) {
        self.got.continuity.resumes += 1;
        if welcomed.resume != Resume::Replayed {
            // A snapshot instead of the missed events: state is right, but the events in
            // between were never seen.
            self.got.continuity.snapshot_resumes += 1;
            self.last_seq = welcomed.seq;
            self.slide = welcomed.slide.unwrap_or(self.slide);
        }
        self.epoch = welcomed.epoch;
        self.deadline = Instant::now() + RECEIVE_TIMEOUT;
    }

    /// Reads a frame other than a state event.
    fn other(&mut self, peeked: Peek) {
        match peeked {
            Peek::Reactions => self.got.seen.reaction_frame(Instant::now()),
            Peek::Ack(r#ref) => self.got.seen.acked(r#ref),
            Peek::Refused(r#ref) => self.got.seen.refused(r#ref),
            _ => {}
        }
    }

    /// Reads a state event: it must follow the last one exactly once; then a slide
    /// change is timed, an engagement event noted.
    fn event(&mut self, message: &Message, peeked: Peek) {
        let (Peek::Slide { seq, prev, .. } | Peek::Event { seq, prev, .. }) = peeked else {
            return;
        };
        if seq <= self.last_seq {
            self.got.continuity.duplicates += 1;
            return;
        }
        if prev != self.last_seq {
            self.got.continuity.gaps += 1;
        }
        self.last_seq = seq;
        match peeked {
            Peek::Slide { alias, sent_us, .. } => self.slide_changed(alias, sent_us),
            Peek::Event { kind, .. } if kind != Kind::Other => self.engagement(kind, message),
            _ => {}
        }
    }

    fn slide_changed(&mut self, alias: u32, sent_us: u64) {
        let now = unix_us();
        let latency = now.saturating_sub(sent_us).min(u32::MAX as u64) as u32;
        if alias <= self.first_slides {
            self.got.after_joins_us.push(latency)
        } else {
            self.got.steady_us.push(latency)
        }
        self.got.first_sent_us = self.got.first_sent_us.min(sent_us);
        self.got.last_received_us = now;
        self.slide = alias;
        self.deadline = Instant::now() + RECEIVE_TIMEOUT;
    }

    /// Notes an engagement event: the chat's texts (up to the poll's closing), the poll
    /// as created (for the votes), its opening (which starts the driver) and closing.
    fn engagement(&mut self, kind: Kind, message: &Message) {
        let Some(shared) = &self.shared else { return };
        let Message::Text(text) = message else {
            return;
        };
        match kind {
            Kind::Chat if !self.got.seen.poll_closed => {
                chat_texts(text.as_str()).for_each(|text| self.got.seen.chat(text))
            }
            Kind::PollCreated if shared.poll.get().is_none() => {
                if let Some(ServerFrame::Event {
                    event: protocol::frame::Event::PollCreated { poll },
                    ..
                }) = decode(message)
                {
                    let answer_ids = poll.answers.into_iter().map(|a| a.answer_id).collect();
                    let _ = shared.poll.set(SeenPoll {
                        poll_id: poll.poll_id,
                        answer_ids,
                    });
                }
            }
            Kind::PollOpened if !*shared.opened.borrow() => {
                shared
                    .opened
                    .send_if_modified(|opened| !std::mem::replace(opened, true));
            }
            Kind::PollClosed => self.got.seen.poll_closed = true,
            _ => {}
        }
        self.deadline = Instant::now() + RECEIVE_TIMEOUT;
    }

    /// What the attendee measured, once its loop `ended` (`slides`: the last one).
    fn finish(self, slides: u32, ended: Ended) -> Received {
        let mut got = self.got;
        got.complete = self.slide >= slides;
        if !got.complete {
            got.continuity.not_on_last_slide += 1;
            match ended {
                Ended::TimedOut => got.continuity.timed_out += 1,
                Ended::Closed => got.continuity.closed += 1,
                Ended::Done => {}
            }
        }
        got
    }
}

/// Reads an attendee's socket until the last slide change arrived, timing each, checks
/// that every event follows the one before (`prev`) exactly once, and answers the hub's
/// pings. With `rejoin`, a closed socket is reopened and resumed from the last event.
/// With `engaged`, it also sends what the engagement driver hands it, counts the chats,
/// reaction sums and answers to its requests, and reads on until the poll closed.
pub(crate) async fn receive(
    mut socket: Socket,
    welcomed: Welcomed,
    rejoin: Option<Rejoin>,
    slides: u32,
    first_slides: u32,
    engaged: Option<Engaged>,
) -> Received {
    let shared = engaged.as_ref().map(|e| e.shared.clone());
    let mut reader = Reader::new(welcomed, first_slides, shared);
    let mut outbox_open = engaged.is_some();
    let mut outbox = engaged.map_or_else(|| tokio::sync::mpsc::unbounded_channel().1, |e| e.outbox);
    // One timer per attendee, re-armed only when it fires: a timeout around every read
    // would insert and cancel a timer per frame.
    let mut ended = Ended::Done;
    let idle = tokio::time::sleep_until(reader.deadline.into());
    tokio::pin!(idle);
    while reader.wants_more(slides) {
        let message = tokio::select! {
            message = socket.next() => match message {
                Some(Ok(message)) => message,
                _ => {
                    let resumed = match &rejoin {
                        Some(rejoin) => rejoin.resume(reader.last_seq, &reader.epoch).await,
                        None => None,
                    };
                    let Some((resumed, welcomed)) = resumed else {
                        ended = Ended::Closed;
                        break;
                    };
                    socket = resumed;
                    reader.resumed(welcomed);
                    continue;
                }
            },
            frame = outbox.recv(), if outbox_open => {
                match frame {
                    Some(frame) => {
                        let _ = socket.send(frame).await;
                    }
                    None => outbox_open = false,
                }
                continue;
            }
            () = &mut idle => {
                if Instant::now() >= reader.deadline {
                    ended = Ended::TimedOut;
                    break;
                }
                idle.as_mut().reset(reader.deadline.into());
                continue;
            }
        };
        match peek(&message) {
            Peek::Ping(nonce) => {
                let _ = socket.send(pong(nonce)).await;
            }
            peeked @ (Peek::Slide { .. } | Peek::Event { .. }) => reader.event(&message, peeked),
            peeked => reader.other(peeked),
        }
    }
    reader.finish(slides, ended)
}
