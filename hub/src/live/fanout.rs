//! Fan-out without a wake-up per delivery (issue #18).
//!
//! Before, the room put every event into every subscriber's queue and each connection's
//! task was woken to write it: at a human pace (a slide change every 100 ms) each delivery
//! cost a task wake-up, a poll of the connection's `select!`, and a write, ~9–13 µs of hub
//! CPU. Now the room, while it walks its subscribers (under its lock, where it queued
//! before), writes the shared encoded frame **directly on each socket** without waiting:
//!
//! - a socket whose connection has nothing queued and whose sink is free takes the frame
//!   at once: one `write` syscall, no task woken;
//! - a socket that would block keeps the frame in its WebSocket buffer and is sent a
//!   [`Queued::Flush`] marker: its connection task wakes once and finishes the write;
//! - a connection with frames still queued (it is behind), busy (its task holds the
//!   sink), not yet welcomed, or closing gets the frame queued as before, so the bounded
//!   queue, the slow-consumer close (4008) and the order of its frames are unchanged.
//!
//! Order: frames are queued only under the room lock, and a connection takes frames out
//! of its queue only while holding its sink lock ([`SocketWriter::write_queued`]), handing
//! each to the sink at once. The room writes directly only when the queue is empty and it
//! holds the sink lock ([`Mutex::try_lock`], never waiting), so a direct frame can never
//! overtake a queued one.
//!
//! The room side is [`Outlet`] (a subscriber's queue and, optionally, its socket); the
//! connection side is [`SocketWriter`] (the socket's sink behind a lock, with the
//! [`DirectWrite`] the room calls) and [`SharedSink`] (the same sink for the connection's
//! own writes: welcome, replies, pings, close).

use std::future::poll_fn;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use axum::extract::ws::Message;
use futures_util::{Sink, SinkExt};
use protocol::codec::{Codec, Encoded};
use protocol::Role;

use super::effects;
use super::queue::{self, TrySendError};
use super::room::{Outbound, Queued};
use crate::metrics::Metrics;
use crate::video::LiveKit;

/// Frames handed to the socket with one flush at most; a longer backlog is written in
/// several.
pub const MAX_BATCH: usize = 64;

/// A socket written directly is not written directly again for a frame queued less than
/// this after the last one: in a burst (events 10 ms apart) the frames that follow go
/// through the queue, where the connection writes them several per `write`, instead of
/// one `write` per event and connection.
pub const DIRECT_QUIET: Duration = Duration::from_millis(50);

/// Nanoseconds since the first call, as a number an atomic can hold.
fn nanos(at: Instant) -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    let start = *START.get_or_init(Instant::now);
    at.saturating_duration_since(start).as_nanos() as u64
}

/// What became of a frame the room tried to write directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// On the socket (or dropped with a socket that failed: its connection ends).
    Sent,
    /// Taken into the socket's buffer, which could not be written out yet: the
    /// connection task must finish the write.
    Buffered,
    /// Not taken: queue it.
    No,
}

/// The socket of a connection, as the room may write it without waiting.
pub trait DirectWrite: Send + Sync {
    /// Writes `outbound` if that can be done now, without waiting for anything. Called
    /// only under the room lock and only when nothing is queued for the connection.
    fn try_write(&self, outbound: &Outbound) -> Written;
}

/// How a room reaches one subscriber: its bounded queue, and its socket when the
/// connection offers direct writes.
pub struct Outlet {
    tx: queue::Sender<Outbound>,
    direct: Option<Arc<dyn DirectWrite>>,
}

/// A queue alone: every frame is queued (tests, and any connection without a socket).
impl From<queue::Sender<Outbound>> for Outlet {
    fn from(tx: queue::Sender<Outbound>) -> Outlet {
        Outlet { tx, direct: None }
    }
}

impl Outlet {
    pub fn new(tx: queue::Sender<Outbound>, direct: Arc<dyn DirectWrite>) -> Outlet {
        Outlet { tx, direct: Some(direct) }
    }

    /// Delivers one frame: written on the socket when nothing is queued before it and
    /// the socket takes it now, queued otherwise. Must be called under the room lock.
    /// Errors are the queue's: full (a slow consumer) or closed (the connection is gone).
    pub fn send(&self, outbound: Outbound) -> Result<(), TrySendError<Outbound>> {
        if let Some(direct) = &self.direct {
            if self.tx.is_empty() {
                match direct.try_write(&outbound) {
                    Written::Sent => return Ok(()),
                    // The queue is empty, so the marker always fits.
                    Written::Buffered => return self.tx.try_send(Outbound { item: Queued::Flush, queued_at: outbound.queued_at }),
                    Written::No => {}
                }
            }
        }
        self.tx.try_send(outbound)
    }

    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

/// A connection's socket sink, shared by its task and its room.
pub struct SocketWriter<Si> {
    sink: Mutex<Si>,
    codec: Codec,
    role: Role,
    metrics: Arc<Metrics>,
    /// Direct writes are allowed: off until the welcome (and replay) went out, and off
    /// again once the connection is closing.
    direct: AtomicBool,
    /// When the last direct write's frame was queued ([`nanos`]); 0: never.
    last_direct: AtomicU64,
}

impl<Si> SocketWriter<Si>
where
    Si: Sink<Message> + Unpin,
{
    pub fn new(sink: Si, codec: Codec, role: Role, metrics: Arc<Metrics>) -> SocketWriter<Si> {
        SocketWriter { sink: Mutex::new(sink), codec, role, metrics, direct: AtomicBool::new(false), last_direct: AtomicU64::new(0) }
    }

    fn lock(&self) -> MutexGuard<'_, Si> {
        self.sink.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Lets (or stops letting) the room write directly.
    pub fn set_direct(&self, on: bool) {
        self.direct.store(on, Ordering::Release);
    }

    /// Writes what is queued (up to [`MAX_BATCH`] frames) with one flush, in queue order,
    /// and finishes a write the room left in the buffer. Frames leave the queue only
    /// under the sink lock, straight into the sink. A client's video token follows the
    /// event that changes its grant. False when the socket failed.
    pub async fn write_queued(&self, rx: &mut queue::Receiver<Outbound>, video_token: impl Fn() -> Option<Message>) -> bool {
        let mut fed = 0;
        let mut token: Option<Message> = None;
        let mut written = 0u64;
        let result = poll_fn(|cx| {
            let mut sink = self.lock();
            loop {
                if token.is_some() || fed < MAX_BATCH {
                    match sink.poll_ready_unpin(cx) {
                        Poll::Ready(Ok(())) => {}
                        Poll::Ready(Err(_)) => return Poll::Ready(false),
                        Poll::Pending => return Poll::Pending,
                    }
                }
                let message = if let Some(message) = token.take() {
                    message
                } else if fed >= MAX_BATCH {
                    break;
                } else {
                    let Some(Outbound { item, queued_at }) = rx.try_recv() else { break };
                    fed += 1;
                    if matches!(&item, Queued::Event { event, .. } if effects::regrants_video(&event.event, self.role)) {
                        token = video_token();
                    }
                    let Some(message) = item.message(self.codec) else { continue };
                    written += 1;
                    self.metrics.fan_out_latency.observe(queued_at.elapsed());
                    message
                };
                if sink.start_send_unpin(message).is_err() {
                    return Poll::Ready(false);
                }
            }
            sink.poll_flush_unpin(cx).map(|flushed| flushed.is_ok())
        })
        .await;
        // Counted once per batch: these counters are shared by every connection.
        self.metrics.frames_out.fetch_add(written, Ordering::Relaxed);
        self.metrics.batches_out.fetch_add(1, Ordering::Relaxed);
        result
    }
}

impl<Si> DirectWrite for SocketWriter<Si>
where
    Si: Sink<Message> + Unpin + Send,
{
    fn try_write(&self, outbound: &Outbound) -> Written {
        if !self.direct.load(Ordering::Acquire) {
            return Written::No;
        }
        // The video token that follows such an event is minted by the connection task.
        if matches!(&outbound.item, Queued::Event { event, .. } if effects::regrants_video(&event.event, self.role)) {
            return Written::No;
        }
        // In a burst: let the connection batch what follows.
        let at = nanos(outbound.queued_at).max(1);
        let last = self.last_direct.load(Ordering::Relaxed);
        if last != 0 && at.saturating_sub(last) < DIRECT_QUIET.as_nanos() as u64 {
            return Written::No;
        }
        // Busy with its own write: never wait for it.
        let Ok(mut sink) = self.sink.try_lock() else { return Written::No };
        self.last_direct.store(at, Ordering::Relaxed);
        // Nobody waits on this context: whenever the socket is not ready, the frame (or a
        // flush marker) is queued, which wakes the connection task, and its own poll
        // registers its waker again.
        let mut cx = Context::from_waker(Waker::noop());
        match sink.poll_ready_unpin(&mut cx) {
            Poll::Ready(Ok(())) => {}
            Poll::Ready(Err(_)) | Poll::Pending => return Written::No,
        }
        let Some(message) = outbound.item.message(self.codec) else { return Written::Sent };
        self.metrics.fan_out_latency.observe(outbound.queued_at.elapsed());
        self.metrics.frames_out.fetch_add(1, Ordering::Relaxed);
        self.metrics.batches_out.fetch_add(1, Ordering::Relaxed);
        self.metrics.direct_out.fetch_add(1, Ordering::Relaxed);
        if sink.start_send_unpin(message).is_err() {
            // A failed socket: its connection task sees it and ends.
            return Written::Sent;
        }
        match sink.poll_flush_unpin(&mut cx) {
            Poll::Ready(_) => Written::Sent,
            Poll::Pending => Written::Buffered,
        }
    }
}

/// The connection's own handle on its sink: each poll takes the sink lock for just that
/// poll, so `send(..).await` works as on the bare sink.
pub struct SharedSink<Si>(pub Arc<SocketWriter<Si>>);

impl<Si> Sink<Message> for SharedSink<Si>
where
    Si: Sink<Message> + Unpin,
{
    type Error = Si::Error;

    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.lock().poll_ready_unpin(cx)
    }

    fn start_send(self: Pin<&mut Self>, item: Message) -> Result<(), Self::Error> {
        self.0.lock().start_send_unpin(item)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.lock().poll_flush_unpin(cx)
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.lock().poll_close_unpin(cx)
    }
}

/// A video token as a message, when video is configured (for [`SocketWriter::write_queued`]).
pub fn video_token_message(video: Option<&LiveKit>, room: &super::Room, claims: &protocol::HubClaims, codec: Codec) -> Option<Message> {
    let frame = effects::video_token(video, room, claims)?;
    match codec.encode(&frame) {
        Ok(Encoded::Text(text)) => Some(Message::Text(text.into())),
        Ok(Encoded::Binary(bytes)) => Some(Message::Binary(bytes.into())),
        Err(error) => {
            tracing::warn!(%error, "could not encode a video token");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::local::LocalOrder;
    use crate::live::{Audience, Room, RoomSettings, SharedEvent};
    use crate::store::Store;
    use protocol::frame::{Event, ServerFrame};

    /// A sink that records what it was given and where each flush fell; while `blocked`
    /// its flush would block (a full socket).
    #[derive(Default)]
    struct Recorder {
        written: Vec<Message>,
        /// `written.len()` at each completed flush.
        flushes: Vec<usize>,
        blocked: bool,
    }

    impl Sink<Message> for Recorder {
        type Error = std::convert::Infallible;
        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
        fn start_send(mut self: Pin<&mut Self>, item: Message) -> Result<(), Self::Error> {
            self.written.push(item);
            Ok(())
        }
        fn poll_flush(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            if self.blocked {
                return Poll::Pending;
            }
            let len = self.written.len();
            self.flushes.push(len);
            Poll::Ready(Ok(()))
        }
        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
    }

    fn writer() -> Arc<SocketWriter<Recorder>> {
        Arc::new(SocketWriter::new(Recorder::default(), Codec::Json, Role::Client, Arc::default()))
    }

    fn room() -> Room {
        let settings = RoomSettings { retained_events: 16, metrics: Arc::default() };
        LocalOrder::new(Arc::new(Store::in_memory().unwrap())).open_room("0".repeat(32), &settings).unwrap()
    }

    fn slide_event(alias: u32) -> Event {
        Event::SlideSwitched { page_id: "a".repeat(32), section_id: "b".repeat(32), slide_alias: alias }
    }

    fn slide(seq: u64) -> Outbound {
        let item = Queued::Event { seq, prev: seq - 1, event: Arc::new(SharedEvent::new(slide_event(seq as u32))) };
        Outbound { item, queued_at: std::time::Instant::now() }
    }

    /// The (seq, prev) of every event frame written.
    fn written(writer: &SocketWriter<Recorder>) -> Vec<(u64, u64)> {
        writer
            .lock()
            .written
            .iter()
            .map(|m| match Codec::Json.decode_text::<ServerFrame>(m.to_text().unwrap()).unwrap() {
                ServerFrame::Event { seq, prev, .. } => (seq, prev),
                other => panic!("unexpected {other:?}"),
            })
            .collect()
    }

    /// Attaches a client whose socket is `writer` and returns its queue.
    fn attach(room: &Room, writer: &Arc<SocketWriter<Recorder>>) -> queue::Receiver<Outbound> {
        let (tx, rx) = queue::channel(512);
        let claims = protocol::HubClaims { sub: "c".repeat(32), apt: "0".repeat(32), role: Role::Client, name: None, exp: u64::MAX };
        let direct: Arc<dyn DirectWrite> = writer.clone();
        room.attach(1, &claims, None, None, Outlet::new(tx, direct), Arc::default(), 1000).expect("admitted");
        rx
    }

    #[tokio::test]
    async fn a_backlog_goes_out_in_order_with_one_flush_per_batch_of_at_most_max_batch() {
        let writer = writer();
        let (tx, mut rx) = queue::channel(512);
        let total = 2 * MAX_BATCH as u64 + 5;
        for seq in 1..=total {
            tx.try_send(slide(seq)).unwrap_or_else(|_| panic!("queued"));
        }
        while rx.ready().await {
            assert!(writer.write_queued(&mut rx, || None).await);
            if tx.is_empty() {
                break;
            }
        }
        // Every frame, in queue order, chained by prev.
        assert_eq!(written(&writer), (1..=total).map(|seq| (seq, seq - 1)).collect::<Vec<_>>());
        // Three flushes: two full batches and the rest.
        assert_eq!(writer.lock().flushes, [MAX_BATCH, 2 * MAX_BATCH, total as usize]);
        assert_eq!(writer.metrics.batches_out.load(Ordering::Relaxed), 3);
        assert_eq!(writer.metrics.frames_out.load(Ordering::Relaxed), total);
    }

    #[tokio::test]
    async fn the_room_writes_on_a_free_socket_itself_and_queues_nothing() {
        let room = room();
        let writer = writer();
        let rx = attach(&room, &writer);
        // Before the welcome went out, nothing is written directly.
        room.publish(Audience::Everyone, slide_event(1)).await.unwrap();
        assert!(written(&writer).is_empty());
        assert!(!rx_is_empty(&rx));
        let mut rx = rx;
        assert!(writer.write_queued(&mut rx, || None).await);
        writer.set_direct(true);
        for alias in 2..=4 {
            room.publish(Audience::Everyone, slide_event(alias)).await.unwrap();
            tokio::time::sleep(DIRECT_QUIET + Duration::from_millis(5)).await;
        }
        assert!(rx_is_empty(&rx), "nothing was queued");
        assert_eq!(written(&writer), [(1, 0), (2, 1), (3, 2), (4, 3)]);
        // One flush per frame: the queued one, then each direct write.
        assert_eq!(writer.lock().flushes, [1, 2, 3, 4]);
        assert_eq!(writer.metrics.frames_out.load(Ordering::Relaxed), 4);
        assert_eq!(writer.metrics.direct_out.load(Ordering::Relaxed), 3);
    }

    #[tokio::test]
    async fn in_a_burst_only_the_first_frame_is_written_directly_and_the_rest_batched() {
        let room = room();
        let writer = writer();
        let mut rx = attach(&room, &writer);
        writer.set_direct(true);
        for alias in 1..=5 {
            room.publish(Audience::Everyone, slide_event(alias)).await.unwrap();
        }
        assert_eq!(written(&writer), [(1, 0)]);
        assert!(rx.ready().await);
        assert!(writer.write_queued(&mut rx, || None).await);
        assert_eq!(written(&writer), (1..=5).map(|seq| (seq, seq - 1)).collect::<Vec<_>>());
        // The first frame alone, then the other four with one flush.
        assert_eq!(writer.lock().flushes, [1, 5]);
    }

    #[tokio::test]
    async fn a_socket_that_would_block_gets_the_rest_queued_in_order() {
        let room = room();
        let writer = writer();
        let mut rx = attach(&room, &writer);
        writer.set_direct(true);
        writer.lock().blocked = true;
        // Taken into the buffer; the flush is left to the connection (a marker queued).
        room.publish(Audience::Everyone, slide_event(1)).await.unwrap();
        // Queued behind the marker, not written past it.
        room.publish(Audience::Everyone, slide_event(2)).await.unwrap();
        assert_eq!(written(&writer), [(1, 0)]);
        assert!(writer.lock().flushes.is_empty());
        writer.lock().blocked = false;
        assert!(rx.ready().await);
        assert!(writer.write_queued(&mut rx, || None).await);
        assert_eq!(written(&writer), [(1, 0), (2, 1)]);
        assert_eq!(writer.lock().flushes, [2]);
        // Caught up and quiet: direct again.
        tokio::time::sleep(DIRECT_QUIET + Duration::from_millis(5)).await;
        room.publish(Audience::Everyone, slide_event(3)).await.unwrap();
        assert!(rx_is_empty(&rx));
        assert_eq!(written(&writer), [(1, 0), (2, 1), (3, 2)]);
    }

    // The guard held across the publish is the point: the connection task is "in" its sink.
    #[allow(clippy::await_holding_lock)]
    #[tokio::test]
    async fn a_busy_or_closing_socket_gets_the_frame_queued() {
        let room = room();
        let writer = writer();
        let mut rx = attach(&room, &writer);
        writer.set_direct(true);
        {
            // The connection task holds its sink: the room does not wait for it.
            let _busy = writer.lock();
            room.publish(Audience::Everyone, slide_event(1)).await.unwrap();
        }
        assert!(!rx_is_empty(&rx));
        assert!(writer.write_queued(&mut rx, || None).await);
        writer.set_direct(false);
        room.publish(Audience::Everyone, slide_event(2)).await.unwrap();
        assert!(!rx_is_empty(&rx));
        assert!(writer.write_queued(&mut rx, || None).await);
        assert_eq!(written(&writer), [(1, 0), (2, 1)]);
    }

    #[tokio::test]
    async fn a_client_whose_video_grant_changes_gets_the_token_after_the_event() {
        let room = room();
        let writer = writer();
        let mut rx = attach(&room, &writer);
        writer.set_direct(true);
        // Never written directly: the connection mints the token.
        room.publish(Audience::Everyone, Event::BroadcastModeChanged { active: true }).await.unwrap();
        assert!(written(&writer).is_empty());
        let token = || Some(Message::Text("token".into()));
        assert!(writer.write_queued(&mut rx, token).await);
        let texts: Vec<String> = writer.lock().written.iter().map(|m| m.to_text().unwrap().to_string()).collect();
        assert_eq!(texts.len(), 2);
        assert!(texts[0].contains("broadcastModeChanged"), "{texts:?}");
        assert_eq!(texts[1], "token");
    }

    fn rx_is_empty(rx: &queue::Receiver<Outbound>) -> bool {
        rx.is_empty()
    }
}
