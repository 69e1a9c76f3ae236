//! One participant's WebSocket session: hello, welcome (snapshot or replay), then
//! actions in and events out, with heartbeats and a bounded send queue. What an action
//! does is decided elsewhere ([`crate::live::policy`], through [`crate::live::submit`]);
//! this module only speaks the protocol.

use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use protocol::codec::{Codec, Encoded};
use protocol::frame::{close_code, ClientFrame, ErrorCode, ServerFrame};
use protocol::HubClaims;
use tokio::time::{interval_at, timeout, Instant, MissedTickBehavior};
use tracing::{debug, info, warn};

use super::fanout::{self, SharedSink, SocketWriter, Writers};
use super::gate::Gate;
use super::rate::Verdict;
use crate::live::outbound::{Outlet, Scheduled};
use crate::live::{effects, queue, Caller, Outbound, Request, Room, Submitted};
use crate::metrics::Metrics;
use crate::video::LiveKit;

static NEXT_CONNECTION_ID: AtomicU64 = AtomicU64::new(1);

/// How long a new connection may take to send `hello`.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a connection closed by the hub for a protocol reason (a message too big) is
/// still read, so the peer gets the close frame rather than a reset of a socket whose
/// unread bytes the kernel would otherwise answer with RST.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// What the session needs to know of a socket's read error.
pub trait ReadError: std::fmt::Display {
    /// The peer sent a message or frame over the size limit.
    fn is_too_big(&self) -> bool;
}

impl ReadError for axum::Error {
    fn is_too_big(&self) -> bool {
        // axum wraps tungstenite's error; its source is that error.
        std::error::Error::source(self)
            .and_then(|source| source.downcast_ref::<tungstenite::Error>())
            .is_some_and(|error| matches!(error, tungstenite::Error::Capacity(_)))
    }
}

/// A delay between half and all of `period`, chosen at random.
fn jittered(period: Duration) -> Duration {
    period / 2 + period.mul_f64(rand::random::<f64>() / 2.0)
}

/// What the opening of a session leaves for its loop.
struct Opened {
    rx: queue::Receiver<Outbound>,
    close_reason: Arc<AtomicU16>,
    /// False when the welcome could not be sent.
    ok: bool,
}

pub struct Session {
    pub claims: HubClaims,
    pub codec: Codec,
    pub room: Arc<Room>,
    pub heartbeat: Duration,
    pub send_queue: usize,
    /// The hub's writer tasks; one of them writes this connection's events (`ws::fanout`).
    pub writers: Option<Arc<Writers>>,
    pub metrics: Arc<Metrics>,
    /// Set when a LiveKit server is configured.
    /// Shared by every connection (its keys and HTTP client are the hub's).
    pub video: Option<Arc<LiveKit>>,
}

fn encode<T: serde::Serialize>(codec: Codec, frame: &T) -> Option<Message> {
    match codec.encode(frame) {
        Ok(Encoded::Text(text)) => Some(Message::Text(text.into())),
        Ok(Encoded::Binary(bytes)) => Some(Message::Binary(bytes.into())),
        Err(error) => {
            warn!(%error, "could not encode a frame");
            None
        }
    }
}

fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }))
}

/// Decodes a data message; `Ok(None)` for control messages.
fn decode(codec: Codec, message: &Message) -> Result<Option<ClientFrame>, String> {
    match message {
        Message::Text(text) => codec
            .decode_text(text.as_str())
            .map(Some)
            .map_err(|e| e.to_string()),
        Message::Binary(bytes) => codec
            .decode_binary(bytes)
            .map(Some)
            .map_err(|e| e.to_string()),
        _ => Ok(None),
    }
}

/// Closes with 1009 "message too big", then reads on (discarding) until the peer
/// answers the close or [`CLOSE_GRACE`] ends, so that the close frame is not lost to a
/// reset of a socket with unread bytes.
async fn close_too_big<Si, St, E>(sink: &mut Si, stream: &mut St)
where
    Si: Sink<Message, Error = E> + Unpin,
    St: Stream<Item = Result<Message, E>> + Unpin,
{
    let _ = sink
        .send(close(close_code::MESSAGE_TOO_BIG, "message too big"))
        .await;
    let _ = timeout(CLOSE_GRACE, async {
        while let Some(Ok(_)) = stream.next().await {}
    })
    .await;
}

/// The close code and reason of a connection the room dropped with `code` (its
/// `close_reason`); a slow consumer is counted.
fn dropped_with(code: u16, metrics: &Metrics) -> (u16, &'static str) {
    match code {
        close_code::SLOW_CONSUMER => {
            metrics.slow_consumers.fetch_add(1, Ordering::Relaxed);
            (code, "too slow; resume")
        }
        close_code::REMOVED => (code, "removed from the appointment"),
        close_code::RESYNC => (code, "history replaced; resume"),
        close_code::DRAINING => (code, "hub draining; resume elsewhere"),
        _ => (close_code::GOING_AWAY, "closing"),
    }
}

impl Session {
    /// Runs the session to its end. Generic over the socket so tests can drive it with
    /// channels; in production it is axum's `WebSocket`.
    ///
    /// Not an `async fn`: an async fn's arguments stay in its future for its whole life
    /// (and are moved into a second place at its start), so the socket (368 bytes for
    /// axum's) and the session would be held twice by every idle connection (issue #18,
    /// memory per connection). The socket is split and the session boxed here; the
    /// future holds only handles.
    pub fn run<S, E>(self, socket: S) -> impl std::future::Future<Output = ()>
    where
        S: Sink<Message, Error = E> + Stream<Item = Result<Message, E>> + Unpin + Send + 'static,
        E: ReadError,
    {
        let (sink, stream) = socket.split();
        // The sink is shared with a writer task, which writes the room's events on it
        // (`ws::fanout`); this task writes through the same lock.
        let connection_id = NEXT_CONNECTION_ID.fetch_add(1, Ordering::Relaxed);
        let shard = self
            .writers
            .as_ref()
            .map(|writers| writers.shard(connection_id));
        let writer = SocketWriter::new(
            sink,
            self.codec,
            self.claims.role,
            self.metrics.clone(),
            shard,
        );
        Box::new(self).serve(connection_id, writer, stream)
    }

    async fn serve<S, E>(
        self: Box<Self>,
        connection_id: u64,
        writer: Arc<SocketWriter<futures_util::stream::SplitSink<S, Message>>>,
        mut stream: futures_util::stream::SplitStream<S>,
    ) where
        S: Sink<Message, Error = E> + Stream<Item = Result<Message, E>> + Unpin + Send + 'static,
        E: ReadError,
    {
        let mut sink = SharedSink(writer.clone());
        // The opening runs boxed: its frames are large, and this future lives as long as
        // the connection, so it should hold only what the loop needs.
        let scheduled: Arc<dyn Scheduled> = writer.clone();
        let Some(Opened {
            mut rx,
            close_reason,
            ok,
        }) = Box::pin(self.open(connection_id, &mut sink, &mut stream, scheduled)).await
        else {
            return;
        };
        // Welcome and replay are out: from now on the writer may write, once this task
        // wrote what was queued meanwhile.
        writer.set_queue(&rx);
        if ok && rx.is_empty() {
            writer.set_writable(true);
        }
        if ok {
            Box::pin(effects::presence(&self.room, &self.claims, true)).await;
        }
        // A peer whose welcome could not be sent is done already.
        let close_with = if ok {
            self.exchange(&writer, &mut rx, &close_reason, &mut sink, &mut stream)
                .await
        } else {
            None
        };
        // Closing: the writer no longer writes on this socket.
        writer.set_writable(false);
        match close_with {
            Some((close_code::MESSAGE_TOO_BIG, _)) => close_too_big(&mut sink, &mut stream).await,
            Some((code, reason)) => {
                let _ = sink.send(close(code, reason)).await;
            }
            None => {}
        }
        self.end(connection_id, ok).await;
    }

    /// The session after its welcome, until it ends: writes what was queued while this
    /// task had the connection, answers the participant's frames, sends pings. Returns
    /// the close to send (none when the peer closed or the socket failed).
    async fn exchange<S, E>(
        &self,
        writer: &SocketWriter<futures_util::stream::SplitSink<S, Message>>,
        rx: &mut queue::Receiver<Outbound>,
        close_reason: &AtomicU16,
        sink: &mut SharedSink<futures_util::stream::SplitSink<S, Message>>,
        stream: &mut futures_util::stream::SplitStream<S>,
    ) -> Option<(u16, &'static str)>
    where
        S: Sink<Message, Error = E> + Stream<Item = Result<Message, E>> + Unpin + Send + 'static,
        E: ReadError,
    {
        let codec = self.codec;
        let video_token =
            || fanout::video_token_message(self.video.as_deref(), &self.room, &self.claims, codec);
        // The first ping comes after a random part of the interval, so that the pings of
        // connections opened in one burst do not all fall due at the same instant.
        let mut ping = interval_at(Instant::now() + jittered(self.heartbeat), self.heartbeat);
        ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut last_heard = Instant::now();
        let mut nonce = 0u64;
        let mut gate = Gate::new(
            self.claims.role,
            self.writers.as_ref().map(|writers| writers.fan_outs()),
            self.metrics.clone(),
        );
        loop {
            tokio::select! {
                biased;
                queued = rx.ready() => match queued {
                    true => {
                        // Queued while this task had the connection (before the
                        // welcome, or handed over by the writer): everything queued by
                        // now goes out in one write, fed into the socket's buffer and
                        // flushed once. Then the writer takes over again.
                        if !writer.write_queued(rx, video_token).await {
                            return None;
                        }
                        if rx.is_empty() {
                            writer.set_writable(true);
                        }
                    }
                    false => {
                        // The room dropped us.
                        let code = close_reason.load(Ordering::Relaxed);
                        return Some(dropped_with(code, &self.metrics));
                    }
                },
                inbound = stream.next() => match inbound {
                    Some(Ok(message)) => {
                        last_heard = Instant::now();
                        self.metrics.frames_in.fetch_add(1, Ordering::Relaxed);
                        if matches!(message, Message::Close(_)) { return None; }
                        // Boxed: publishing (to Redis, say) is a large future, and
                        // inbound frames are rare next to outbound ones.
                        let reply = Box::pin(self.reply_to(&message, &mut gate)).await;
                        if let Some(m) = reply.and_then(|reply| encode(codec, &reply)) {
                            if sink.send(m).await.is_err() { return None; }
                        }
                    }
                    Some(Err(error)) if error.is_too_big() => {
                        self.metrics.too_big.fetch_add(1, Ordering::Relaxed);
                        return Some((close_code::MESSAGE_TOO_BIG, "message too big"));
                    }
                    Some(Err(error)) => { debug!(%error, "socket error"); return None; }
                    None => return None,
                },
                _ = ping.tick() => {
                    if last_heard.elapsed() > self.heartbeat * 2 {
                        return Some((close_code::HEARTBEAT_TIMEOUT, "heartbeat timeout"));
                    }
                    nonce += 1;
                    if let Some(m) = encode(codec, &ServerFrame::Ping { nonce }) {
                        if sink.send(m).await.is_err() { return None; }
                    }
                }
            }
        }
    }

    /// After the close: leaves the room, and tells the guides when the participant had
    /// been welcomed.
    async fn end(&self, connection_id: u64, welcomed: bool) {
        self.room.detach(connection_id);
        if welcomed {
            Box::pin(effects::presence(&self.room, &self.claims, false)).await;
        }
        self.metrics
            .connections_closed
            .fetch_add(1, Ordering::Relaxed);
        info!(appointment_id = %self.room.appointment_id, attendee_id = %self.claims.sub, "disconnected");
    }

    /// Waits for `hello`: its `last_seq` and `epoch`. `None` when the peer sent anything
    /// else first, or nothing in time (closed with [`close_code::NO_HELLO`]), or a message
    /// over the limit (closed with 1009).
    async fn hello<Si, St, E>(
        &self,
        sink: &mut Si,
        stream: &mut St,
    ) -> Option<(Option<u64>, Option<String>)>
    where
        Si: Sink<Message, Error = E> + Unpin,
        St: Stream<Item = Result<Message, E>> + Unpin,
        E: ReadError,
    {
        let codec = self.codec;
        let hello = loop {
            let message = match timeout(HELLO_TIMEOUT, stream.next()).await {
                Ok(Some(Ok(message))) => message,
                Ok(Some(Err(error))) if error.is_too_big() => {
                    // Over the limit before hello: the same close as later on.
                    self.metrics.too_big.fetch_add(1, Ordering::Relaxed);
                    close_too_big(sink, stream).await;
                    return None;
                }
                _ => break None,
            };
            self.metrics.frames_in.fetch_add(1, Ordering::Relaxed);
            let refusal = match decode(codec, &message) {
                Ok(None) => continue,
                Ok(Some(ClientFrame::Hello { last_seq, epoch })) => break Some((last_seq, epoch)),
                Ok(Some(_)) => ServerFrame::error(
                    None,
                    ErrorCode::UnexpectedFrame,
                    "the first frame must be hello",
                ),
                Err(detail) => ServerFrame::error(None, ErrorCode::BadFrame, detail),
            };
            if let Some(m) = encode(codec, &refusal) {
                let _ = sink.send(m).await;
            }
            break None;
        };
        if hello.is_none() {
            let _ = sink
                .send(close(close_code::NO_HELLO, "hello expected"))
                .await;
        }
        hello
    }

    /// Waits for `hello`, attaches to the room and sends the welcome (and replay, and the
    /// video token). `None` when the peer did not say hello or was turned away (closed
    /// with the policy's code: removed, or locked out).
    async fn open<Si, St, E>(
        &self,
        connection_id: u64,
        sink: &mut Si,
        stream: &mut St,
        scheduled: Arc<dyn Scheduled>,
    ) -> Option<Opened>
    where
        Si: Sink<Message, Error = E> + Unpin,
        St: Stream<Item = Result<Message, E>> + Unpin,
        E: ReadError,
    {
        let codec = self.codec;
        let (last_seq, epoch) = self.hello(sink, stream).await?;

        // Welcome and replay go out before anything queued after them.
        let (tx, rx) = queue::channel::<Outbound>(self.send_queue);
        let close_reason = Arc::new(AtomicU16::new(0));
        let heartbeat_ms = self.heartbeat.as_millis() as u64;
        let attached = match self.room.attach(
            connection_id,
            &self.claims,
            last_seq,
            epoch.as_deref(),
            Outlet::new(tx, scheduled),
            close_reason.clone(),
            heartbeat_ms,
        ) {
            Ok(attached) => attached,
            Err(turned_away) => {
                self.metrics.turned_away.fetch_add(1, Ordering::Relaxed);
                info!(appointment_id = %self.room.appointment_id, attendee_id = %self.claims.sub, reason = turned_away.reason, "turned away");
                let _ = sink
                    .send(close(turned_away.close_code, turned_away.reason))
                    .await;
                return None;
            }
        };
        self.metrics
            .connections_opened
            .fetch_add(1, Ordering::Relaxed);
        info!(appointment_id = %self.room.appointment_id, attendee_id = %self.claims.sub, role = ?self.claims.role, "connected");
        let mut ok = true;
        let mut welcome = attached.welcome;
        let video_token = effects::video_on_welcome(
            self.video.as_deref(),
            &self.room,
            &self.claims,
            &mut welcome,
        );
        let frames = std::iter::once(&welcome)
            .chain(&attached.pages)
            .chain(&attached.replay)
            .chain(video_token.iter());
        for frame in frames {
            if let Some(m) = encode(codec, frame) {
                ok &= sink.send(m).await.is_ok();
            }
        }
        Some(Opened {
            rx,
            close_reason,
            ok,
        })
    }

    /// Decodes and handles one message after `hello`; returns the direct reply, if any
    /// (a `badFrame` error for a message that is not a frame).
    async fn reply_to(&self, message: &Message, gate: &mut Gate) -> Option<ServerFrame> {
        match decode(self.codec, message) {
            Ok(Some(frame)) => self.handle(frame, gate).await,
            Ok(None) => None,
            Err(detail) => {
                self.metrics.bad_frames.fetch_add(1, Ordering::Relaxed);
                Some(ServerFrame::error(None, ErrorCode::BadFrame, detail))
            }
        }
    }

    /// Handles one frame after `hello`; returns the direct reply, if any.
    async fn handle(&self, frame: ClientFrame, gate: &mut Gate) -> Option<ServerFrame> {
        match frame {
            ClientFrame::Hello { .. } => Some(ServerFrame::error(
                None,
                ErrorCode::UnexpectedFrame,
                "hello was already received",
            )),
            ClientFrame::Ping { nonce } => Some(ServerFrame::Pong { nonce }),
            ClientFrame::Pong { .. } => None,
            ClientFrame::Action { r#ref, action } => {
                self.request(r#ref, Request::Action(action), gate).await
            }
            ClientFrame::Interaction { r#ref, interaction } => {
                self.request(r#ref, Request::Interaction(interaction), gate)
                    .await
            }
        }
    }

    /// Submits an action or interaction, within the connection's limits; the reply is its
    /// ack (when it has a `ref`) or its error. A change that could not be stored, or that
    /// was over the rate, had no effect.
    async fn request(
        &self,
        r#ref: Option<u32>,
        request: Request,
        gate: &mut Gate,
    ) -> Option<ServerFrame> {
        match gate.admit(&request).await {
            Verdict::Go => {}
            Verdict::Limited => {
                return Some(ServerFrame::error(
                    r#ref,
                    ErrorCode::RateLimited,
                    "too many actions; slow down",
                ))
            }
            Verdict::Coalesced(seq) => {
                return r#ref.map(|r#ref| ServerFrame::Ack {
                    r#ref,
                    seq: Some(seq),
                })
            }
        }
        let action = match &request {
            Request::Action(action) => Some(action.clone()),
            _ => None,
        };
        match crate::live::submit(
            &self.room,
            self.video.as_deref(),
            Caller::Participant(&self.claims),
            request,
        )
        .await
        {
            Ok(Submitted::Published { seq, .. }) => {
                if let Some(action) = &action {
                    gate.published(action, seq);
                }
                r#ref.map(|r#ref| ServerFrame::Ack {
                    r#ref,
                    seq: Some(seq),
                })
            }
            Ok(Submitted::Sent | Submitted::Nothing | Submitted::Counted) => {
                r#ref.map(|r#ref| ServerFrame::Ack { r#ref, seq: None })
            }
            Ok(Submitted::Refused { code, message }) => {
                if code == ErrorCode::Forbidden {
                    self.metrics.forbidden.fetch_add(1, Ordering::Relaxed);
                }
                Some(ServerFrame::error(r#ref, code, message))
            }
            Err(error) => {
                tracing::error!(%error, appointment_id = %self.room.appointment_id, "could not store an event");
                Some(ServerFrame::error(
                    r#ref,
                    ErrorCode::Internal,
                    "the change could not be saved; try again",
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heartbeats_start_between_half_and_all_of_the_interval() {
        let period = Duration::from_secs(10);
        let delays: Vec<Duration> = (0..200).map(|_| jittered(period)).collect();
        assert!(delays.iter().all(|d| *d >= period / 2 && *d <= period));
        // Spread out, not all the same instant.
        let (min, max) = (delays.iter().min().unwrap(), delays.iter().max().unwrap());
        assert!(*max - *min > period / 4, "{min:?}..{max:?}");
    }
}

#[cfg(test)]
mod sizes {
    use super::*;
    use axum::extract::ws::WebSocket;

    fn returned<A, B, R>(_: fn(A, B) -> R) -> usize {
        std::mem::size_of::<R>()
    }

    fn returned3<A, B, C, R>(_: fn(A, B, C) -> R) -> usize {
        std::mem::size_of::<R>()
    }

    /// What each idle connection holds in its own future (BENCHMARKS.md, #18; the whole
    /// connection is bounded by `tests/idle_memory.rs`): the session's future holds
    /// handles, not the socket or the session twice, and a frame's handling (the largest
    /// future, held only while a frame is handled) is boxed apart. The bounds are today's sizes with some room; a regression of hundreds of
    /// bytes (the socket held in the future again, a large local kept across the loop)
    /// fails here with the part that grew.
    #[test]
    fn the_parts_an_idle_connection_holds_stay_within_their_bounds() {
        let sizes = [
            (
                "Session::run future",
                returned(Session::run::<WebSocket, axum::Error>),
                1280,
            ),
            ("Session", std::mem::size_of::<Session>(), 256),
            ("Gate", std::mem::size_of::<Gate>(), 128),
            (
                "SocketWriter",
                std::mem::size_of::<
                    SocketWriter<futures_util::stream::SplitSink<WebSocket, Message>>,
                >(),
                192,
            ),
            (
                "Subscriber",
                std::mem::size_of::<crate::live::Subscriber>(),
                128,
            ),
            ("handle future", returned3(Session::handle), 2048),
        ];
        for (part, size, bound) in sizes {
            println!("{part}: {size} bytes (bound {bound})");
            assert!(
                size <= bound,
                "{part} takes {size} bytes, over its bound of {bound}"
            );
        }
    }
}
