//! How an event reaches the sockets (issue #18): writer tasks, one per runtime worker.
//!
//! Before, the room put every event into every subscriber's queue and each connection's
//! task was woken to write it: at a human pace (a slide change every 100 ms) each delivery
//! cost a task wake-up, a poll of the connection's `select!`, the queue's `Notify` and a
//! write. Now the room, under its lock, only appends the event (one `SharedEvent`,
//! encoded once per codec and `prev`) to each subscriber's bounded queue *without waking
//! it*, and marks the connection due in its [`Writers`] shard (one per runtime worker,
//! chosen by connection id). The shard's writer task, outside the room lock, takes each
//! due connection in turn and writes **everything queued for it since its last pass with
//! one flush** (one `write` of the WebSocket buffer): one frame per write at a human pace,
//! many in a burst or when the writer runs late, with no task woken per connection.
//!
//! The writer never waits on a socket. It hands the connection to the connection's own
//! task (`SocketWriter::hand_over`: a [`Queued::Flush`] marker and a wake-up) when
//! - the socket would block (the frames stay in its buffer; the task's own poll registers
//!   writable interest and finishes the write),
//! - the connection's task holds the sink (writing its welcome, a reply, a ping),
//! - the next frame is an event that changes the client's video grant (the task mints
//!   the token that follows it),
//!
//! and the task, once its queue is empty again, gives it back ([`SocketWriter::set_writable`]).
//! Until the welcome (and replay) went out, and once the connection is closing, it is
//! the task's alone.
//!
//! Unchanged: the bounded queue and the slow-consumer close (4008) when it is full, each
//! subscriber's `prev`, the order of a connection's frames. Frames are queued only under
//! the room lock and leave the queue only under the connection's sink lock, straight into
//! the sink, whoever (writer or task) takes them; the connection's own frames (welcome,
//! replies, pings, close) go through the same lock ([`SharedSink`]).

use std::future::poll_fn;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::task::{Context, Poll, Waker};

use axum::extract::ws::Message;
use futures_util::{Sink, SinkExt};
use protocol::codec::{Codec, Encoded};
use protocol::Role;
use tokio::sync::Notify;

use crate::live::effects;
use crate::live::outbound::{Outbound, Queued, Scheduled};
use crate::live::queue::{self, Next};
use crate::metrics::Metrics;
use crate::video::LiveKit;

/// Frames a connection's own task hands to the socket with one flush at most; a longer
/// backlog is written in several.
pub const MAX_BATCH: usize = 64;

/// Connections a writer task writes before it lets other tasks of its worker run.
const WRITER_TURN: usize = 256;

/// Connections in one writer turn from which the turn is a large room's fan-out (a slide
/// change to a room of a thousand and more): while one is written, attendees' frames wait
/// for it ([`super::gate::after_fan_out`]).
pub const LARGE_FAN_OUT: usize = 1_000;

/// A connection as its writer task sees it.
pub trait Writable: Send + Sync {
    /// Writes what is queued for the connection, without waiting for anything.
    fn write_pending(&self);
}

/// The writer tasks of a hub, one per runtime worker, each with its share of the
/// connections.
pub struct Writers {
    shards: Vec<Arc<Shard>>,
    fan_outs: Arc<FanOuts>,
}

/// The large fan-outs the writer tasks are writing (see [`LARGE_FAN_OUT`]); the gate
/// waits for them ([`super::gate::after_fan_out`]).
#[derive(Default)]
pub struct FanOuts {
    under_way: AtomicUsize,
    ended: Notify,
}

impl FanOuts {
    /// A writer task starts a large fan-out.
    pub fn begin(&self) {
        self.under_way.fetch_add(1, Ordering::SeqCst);
    }

    /// A writer task ended one; the last to end wakes whoever waits.
    pub fn end(&self) {
        if self.under_way.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.ended.notify_waiters();
        }
    }

    /// Whether a writer task is in the middle of a large fan-out.
    pub fn under_way(&self) -> bool {
        self.under_way.load(Ordering::SeqCst) > 0
    }

    /// Returns once no large fan-out is under way, or at `deadline`.
    pub async fn ended_or(&self, deadline: tokio::time::Instant) {
        loop {
            let ended = self.ended.notified();
            tokio::pin!(ended);
            // Registered before the check: an end between the check and the wait wakes it.
            ended.as_mut().enable();
            if !self.under_way() || tokio::time::timeout_at(deadline, ended).await.is_err() {
                return;
            }
        }
    }
}

/// One writer task's due connections.
pub struct Shard {
    due: Mutex<Vec<Arc<dyn Writable>>>,
    notify: Notify,
    fan_outs: Arc<FanOuts>,
}

impl Shard {
    fn new(fan_outs: Arc<FanOuts>) -> Shard {
        Shard {
            due: Mutex::new(Vec::new()),
            notify: Notify::new(),
            fan_outs,
        }
    }

    fn due(&self) -> MutexGuard<'_, Vec<Arc<dyn Writable>>> {
        self.due
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Puts a connection on the writer's list, waking the writer when the list was empty.
    fn schedule(&self, connection: Arc<dyn Writable>) {
        let mut due = self.due();
        let wake = due.is_empty();
        due.push(connection);
        drop(due);
        if wake {
            self.notify.notify_one();
        }
    }

    /// One writer task: every due connection written in turn, until none is due.
    async fn run(self: Arc<Self>) {
        let mut turn = Vec::new();
        loop {
            std::mem::swap(&mut turn, &mut *self.due());
            if turn.is_empty() {
                // A connection scheduled after the swap stored a permit: no wake-up lost.
                self.notify.notified().await;
                continue;
            }
            let large = turn.len() >= LARGE_FAN_OUT;
            if large {
                self.fan_outs.begin();
            }
            for (written, connection) in turn.drain(..).enumerate() {
                connection.write_pending();
                if written % WRITER_TURN == WRITER_TURN - 1 {
                    tokio::task::yield_now().await;
                }
            }
            if large {
                self.fan_outs.end();
            }
            if turn.capacity() > 4096 {
                turn.shrink_to(64);
            }
        }
    }
}

impl Writers {
    /// Spawns `count` writer tasks (at least one) on the current runtime; they end with it.
    pub fn spawn(count: usize) -> Arc<Writers> {
        let fan_outs = Arc::new(FanOuts::default());
        let shards: Vec<Arc<Shard>> = (0..count.max(1))
            .map(|_| Arc::new(Shard::new(fan_outs.clone())))
            .collect();
        for shard in &shards {
            // Outside tokio's cooperative budget: a task may make 128 budgeted I/O calls
            // per poll, after which every socket answers "not ready" until the task yields.
            // The writer writes up to WRITER_TURN sockets per poll, and would hand half of
            // them to their connection tasks as blocked (at 10 slide changes a second,
            // 250,000 of 500,000 deliveries: a wake-up, a poll and a flush of a task each).
            // It yields on its own after each turn.
            tokio::spawn(tokio::task::unconstrained(shard.clone().run()));
        }
        Arc::new(Writers { shards, fan_outs })
    }

    /// The large fan-outs of these writers, for the connections' gates.
    pub fn fan_outs(&self) -> Arc<FanOuts> {
        self.fan_outs.clone()
    }

    /// One writer per worker of the current runtime.
    pub fn per_worker() -> Arc<Writers> {
        Writers::spawn(tokio::runtime::Handle::current().metrics().num_workers())
    }

    /// The shard of a connection.
    pub fn shard(&self, connection_id: u64) -> Arc<Shard> {
        self.shards[(connection_id % self.shards.len() as u64) as usize].clone()
    }
}

/// A connection's socket sink, shared by its task and its writer.
pub struct SocketWriter<Si> {
    sink: Mutex<Si>,
    codec: Codec,
    role: Role,
    pub(crate) metrics: Arc<Metrics>,
    /// The writer task takes this connection's frames: off until the welcome (and replay)
    /// went out, while the connection's task finishes a write, and once it is closing.
    writable: AtomicBool,
    /// On its writer's list already.
    scheduled: AtomicBool,
    /// The connection's queue, as the writer takes from it.
    queue: OnceLock<queue::Drain<Outbound>>,
    shard: Option<Arc<Shard>>,
    /// This writer itself, to put on the shard's list.
    this: std::sync::Weak<SocketWriter<Si>>,
}

impl<Si> SocketWriter<Si>
where
    Si: Sink<Message> + Unpin + Send + 'static,
{
    /// A connection's sink; with `shard`, that shard's writer task may write it.
    pub fn new(
        sink: Si,
        codec: Codec,
        role: Role,
        metrics: Arc<Metrics>,
        shard: Option<Arc<Shard>>,
    ) -> Arc<SocketWriter<Si>> {
        Arc::new_cyclic(|this| SocketWriter {
            sink: Mutex::new(sink),
            codec,
            role,
            metrics,
            writable: AtomicBool::new(false),
            scheduled: AtomicBool::new(false),
            queue: OnceLock::new(),
            shard,
            this: this.clone(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Si> {
        self.sink
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The queue the writer takes frames from (set once the connection is attached).
    pub fn set_queue(&self, rx: &queue::Receiver<Outbound>) {
        let _ = self.queue.set(rx.drain());
    }

    /// Gives the connection to its writer task (or takes it back). Only its own task
    /// gives it, with its queue empty.
    pub fn set_writable(&self, on: bool) {
        self.writable
            .store(on && self.shard.is_some(), Ordering::SeqCst);
    }

    /// The writer stops and the connection's task takes over: it is woken (a
    /// [`Queued::Flush`] marker makes sure it looks) and finishes whatever is queued or
    /// left in the socket's buffer with its own wake-ups.
    fn hand_over(&self, queue: &queue::Drain<Outbound>) {
        self.writable.store(false, Ordering::SeqCst);
        queue.wake_receiver(Outbound {
            item: Queued::Flush,
            queued_at: None,
        });
    }

    /// Writes what is queued (up to [`MAX_BATCH`] frames) with one flush, in queue order,
    /// and finishes a write the writer left in the buffer. Frames leave the queue only
    /// under the sink lock, straight into the sink. A client's video token follows the
    /// event that changes its grant. False when the socket failed.
    pub async fn write_queued(
        &self,
        rx: &mut queue::Receiver<Outbound>,
        video_token: impl Fn() -> Option<Message>,
    ) -> bool {
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
                    if let Some(queued_at) = queued_at {
                        self.metrics.fan_out_latency.observe(queued_at.elapsed());
                    }
                    message
                };
                if sink.start_send_unpin(message).is_err() {
                    return Poll::Ready(false);
                }
            }
            sink.poll_flush_unpin(cx).map(|flushed| flushed.is_ok())
        })
        .await;
        // Counted once per batch: these counters are shared by every connection. A flush
        // that wrote no frame of this task's (it finished one its writer began, which the
        // writer counted) is not a batch.
        if written > 0 {
            self.metrics
                .frames_out
                .fetch_add(written, Ordering::Relaxed);
            self.metrics.batches_out.fetch_add(1, Ordering::Relaxed);
        } else {
            self.metrics.empty_wakeups.fetch_add(1, Ordering::Relaxed);
        }
        result
    }
}

impl<Si> Scheduled for SocketWriter<Si>
where
    Si: Sink<Message> + Unpin + Send + 'static,
{
    fn writable(&self) -> bool {
        self.writable.load(Ordering::SeqCst)
    }

    fn schedule(&self) {
        let Some(shard) = &self.shard else { return };
        if self.scheduled.swap(true, Ordering::SeqCst) {
            return;
        }
        if let Some(this) = self.this.upgrade() {
            shard.schedule(this);
        }
    }
}

impl<Si> Writable for SocketWriter<Si>
where
    Si: Sink<Message> + Unpin + Send + 'static,
{
    fn write_pending(&self) {
        // Cleared first: a frame queued from now on puts the connection on the list again.
        self.scheduled.store(false, Ordering::SeqCst);
        if !self.writable.load(Ordering::SeqCst) {
            // Its task has it (and was woken when it took it).
            return;
        }
        let Some(queue) = self.queue.get() else {
            return;
        };
        // Busy with its own write: never wait for it.
        let Ok(mut sink) = self.sink.try_lock() else {
            self.metrics.handovers_busy.fetch_add(1, Ordering::Relaxed);
            return self.hand_over(queue);
        };
        // Nobody waits on this context: whenever the socket is not ready the connection's
        // task takes over, and its own poll registers its waker.
        let mut cx = Context::from_waker(Waker::noop());
        let mut written = 0u64;
        let mut stopped: Option<&AtomicU64> = None;
        let blocked = &self.metrics.handovers_blocked;
        loop {
            match sink.poll_ready_unpin(&mut cx) {
                Poll::Ready(Ok(())) => {}
                // A failed socket: its task sees it and ends.
                Poll::Ready(Err(_)) | Poll::Pending => {
                    stopped = Some(blocked);
                    break;
                }
            }
            let next =
                queue.try_recv_if(|o| !matches!(&o.item, Queued::Event { event, .. } if effects::regrants_video(&event.event, self.role)));
            let Outbound { item, queued_at } = match next {
                Next::Item(outbound) => outbound,
                Next::Empty => break,
                Next::Refused => {
                    stopped = Some(&self.metrics.handovers_video);
                    break;
                }
            };
            let Some(message) = item.message(self.codec) else {
                continue;
            };
            if let Some(queued_at) = queued_at {
                self.metrics.fan_out_latency.observe(queued_at.elapsed());
            }
            written += 1;
            if sink.start_send_unpin(message).is_err() {
                stopped = Some(blocked);
                break;
            }
        }
        if written > 0 {
            self.metrics
                .frames_out
                .fetch_add(written, Ordering::Relaxed);
            self.metrics
                .writer_out
                .fetch_add(written, Ordering::Relaxed);
            self.metrics.batches_out.fetch_add(1, Ordering::Relaxed);
            if !matches!(sink.poll_flush_unpin(&mut cx), Poll::Ready(_)) {
                stopped = Some(blocked);
            }
        }
        drop(sink);
        if let Some(reason) = stopped {
            reason.fetch_add(1, Ordering::Relaxed);
            self.hand_over(queue);
        }
    }
}

/// The connection's own handle on its sink: each poll takes the sink lock for just that
/// poll, so `send(..).await` works as on the bare sink.
pub struct SharedSink<Si>(pub Arc<SocketWriter<Si>>);

impl<Si> Sink<Message> for SharedSink<Si>
where
    Si: Sink<Message> + Unpin + Send + 'static,
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
pub fn video_token_message(
    video: Option<&LiveKit>,
    room: &crate::live::Room,
    claims: &protocol::HubClaims,
    codec: Codec,
) -> Option<Message> {
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
    use crate::live::outbound::Outlet;
    use crate::live::{Audience, Room, RoomSettings, SharedEvent};
    use crate::store::Store;
    use crate::ws::gate::{after_fan_out, MAX_FAN_OUT_WAIT};
    use protocol::frame::{Event, ServerFrame};
    use std::time::Duration;

    /// A sink that records what it was given and where each flush fell; while `blocked`
    /// its flush would block (a full socket).
    #[derive(Default)]
    struct Recorder {
        written: Vec<Message>,
        /// `written.len()` at each completed flush.
        flushes: Vec<usize>,
        blocked: bool,
        /// A copy of what was written, for a test that reads while writer tasks run: reading
        /// `written` takes the sink's lock, and a writer task that finds it taken hands the
        /// connection to its own task (which these tests do not run).
        copy: Option<Arc<std::sync::Mutex<Vec<Message>>>>,
    }

    impl Sink<Message> for Recorder {
        type Error = std::convert::Infallible;
        fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            // As a tokio socket does: each readiness check takes from the task's budget.
            let coop = std::task::ready!(tokio::task::coop::poll_proceed(cx));
            coop.made_progress();
            Poll::Ready(Ok(()))
        }
        fn start_send(mut self: Pin<&mut Self>, item: Message) -> Result<(), Self::Error> {
            if let Some(copy) = &self.copy {
                copy.lock().unwrap().push(item.clone());
            }
            self.written.push(item);
            Ok(())
        }
        fn poll_flush(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Result<(), Self::Error>> {
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

    /// A connection's sink in `shard` (no writer task runs it: the tests call
    /// `write_pending` themselves, as the task would).
    fn writer(shard: &Arc<Shard>) -> Arc<SocketWriter<Recorder>> {
        SocketWriter::new(
            Recorder::default(),
            Codec::Json,
            Role::Client,
            Arc::default(),
            Some(shard.clone()),
        )
    }

    fn room() -> Room {
        let settings = RoomSettings {
            retained_events: 16,
            metrics: Arc::default(),
        };
        LocalOrder::new(Arc::new(Store::in_memory().unwrap()))
            .open_room("0".repeat(32), &settings)
            .unwrap()
    }

    fn slide_event(alias: u32) -> Event {
        Event::SlideSwitched {
            page_id: "a".repeat(32),
            section_id: "b".repeat(32),
            slide_alias: alias,
        }
    }

    fn slide(seq: u64) -> Outbound {
        let item = Queued::Event {
            seq,
            prev: seq - 1,
            event: Arc::new(SharedEvent::new(slide_event(seq as u32))),
        };
        Outbound {
            item,
            queued_at: Some(std::time::Instant::now()),
        }
    }

    /// The (seq, prev) of every event frame written.
    fn written(writer: &SocketWriter<Recorder>) -> Vec<(u64, u64)> {
        event_ids(&writer.lock().written)
    }

    fn event_ids(messages: &[Message]) -> Vec<(u64, u64)> {
        messages
            .iter()
            .map(|m| {
                match Codec::Json
                    .decode_text::<ServerFrame>(m.to_text().unwrap())
                    .unwrap()
                {
                    ServerFrame::Event { seq, prev, .. } => (seq, prev),
                    other => panic!("unexpected {other:?}"),
                }
            })
            .collect()
    }

    /// Attaches a client whose socket is `writer` and returns its queue.
    fn attach(room: &Room, writer: &Arc<SocketWriter<Recorder>>) -> queue::Receiver<Outbound> {
        let (tx, rx) = queue::channel(512);
        let claims = protocol::HubClaims {
            sub: "c".repeat(32),
            apt: "0".repeat(32),
            role: Role::Client,
            name: None,
            exp: u64::MAX,
        };
        let scheduled: Arc<dyn Scheduled> = writer.clone();
        room.attach(
            1,
            &claims,
            None,
            None,
            Outlet::new(tx, scheduled),
            Arc::default(),
            1000,
        )
        .expect("admitted");
        writer.set_queue(&rx);
        rx
    }

    /// Runs one writer pass over the shard's due connections; how many there were.
    fn pass(shard: &Shard) -> usize {
        let due = std::mem::take(&mut *shard.due());
        for connection in &due {
            connection.write_pending();
        }
        due.len()
    }

    #[tokio::test]
    async fn a_backlog_goes_out_in_order_with_one_flush_per_batch_of_at_most_max_batch() {
        let writer = writer(&Arc::new(Shard::new(Arc::default())));
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
        assert_eq!(
            written(&writer),
            (1..=total).map(|seq| (seq, seq - 1)).collect::<Vec<_>>()
        );
        // Three flushes: two full batches and the rest.
        assert_eq!(
            writer.lock().flushes,
            [MAX_BATCH, 2 * MAX_BATCH, total as usize]
        );
        assert_eq!(writer.metrics.batches_out.load(Ordering::Relaxed), 3);
        assert_eq!(writer.metrics.frames_out.load(Ordering::Relaxed), total);
    }

    #[tokio::test]
    async fn the_writer_writes_everything_queued_since_its_last_pass_with_one_flush() {
        let room = room();
        let shard = Arc::new(Shard::new(Arc::default()));
        let writer = writer(&shard);
        let mut rx = attach(&room, &writer);
        // Before the welcome went out, the connection's task has it: nothing for the writer.
        room.publish(Audience::Everyone, slide_event(1))
            .await
            .unwrap();
        assert_eq!(pass(&shard), 0);
        assert!(writer.write_queued(&mut rx, || None).await);
        writer.set_writable(true);
        // One event per pass: one frame per write.
        room.publish(Audience::Everyone, slide_event(2))
            .await
            .unwrap();
        assert_eq!(pass(&shard), 1);
        // Three events before the next pass: the connection is due once, one write.
        for alias in 3..=5 {
            room.publish(Audience::Everyone, slide_event(alias))
                .await
                .unwrap();
        }
        assert_eq!(pass(&shard), 1);
        assert!(rx.is_empty(), "the writer took everything");
        assert_eq!(
            written(&writer),
            (1..=5).map(|seq| (seq, seq - 1)).collect::<Vec<_>>()
        );
        assert_eq!(writer.lock().flushes, [1, 2, 5]);
        assert_eq!(writer.metrics.frames_out.load(Ordering::Relaxed), 5);
        assert_eq!(writer.metrics.writer_out.load(Ordering::Relaxed), 4);
        assert_eq!(writer.metrics.batches_out.load(Ordering::Relaxed), 3);
    }

    #[tokio::test]
    async fn a_socket_that_would_block_is_handed_to_its_task_and_keeps_its_order() {
        let room = room();
        let shard = Arc::new(Shard::new(Arc::default()));
        let writer = writer(&shard);
        let mut rx = attach(&room, &writer);
        writer.set_writable(true);
        writer.lock().blocked = true;
        // Taken into the buffer; the flush is left to the connection (a marker queued).
        room.publish(Audience::Everyone, slide_event(1))
            .await
            .unwrap();
        assert_eq!(pass(&shard), 1);
        assert!(!writer.writable(), "handed over");
        // Queued for the task now, not for the writer.
        room.publish(Audience::Everyone, slide_event(2))
            .await
            .unwrap();
        assert_eq!(pass(&shard), 0);
        assert_eq!(written(&writer), [(1, 0)]);
        assert!(writer.lock().flushes.is_empty());
        writer.lock().blocked = false;
        assert!(rx.ready().await);
        assert!(writer.write_queued(&mut rx, || None).await);
        assert_eq!(written(&writer), [(1, 0), (2, 1)]);
        assert_eq!(writer.lock().flushes, [2]);
        // Caught up: the writer's again.
        assert!(rx.is_empty());
        writer.set_writable(true);
        room.publish(Audience::Everyone, slide_event(3))
            .await
            .unwrap();
        assert_eq!(pass(&shard), 1);
        assert_eq!(written(&writer), [(1, 0), (2, 1), (3, 2)]);
    }

    // The guard held across the publish and the pass: the connection task is "in" its sink.
    #[allow(clippy::await_holding_lock)]
    #[tokio::test]
    async fn a_flush_the_task_finishes_for_its_writer_is_counted_once_and_so_is_each_handover() {
        let room = room();
        let shard = Arc::new(Shard::new(Arc::default()));
        let writer = writer(&shard);
        let mut rx = attach(&room, &writer);
        writer.set_writable(true);
        writer.lock().blocked = true;
        room.publish(Audience::Everyone, slide_event(1))
            .await
            .unwrap();
        assert_eq!(pass(&shard), 1);
        let metrics = &writer.metrics;
        assert_eq!(metrics.handovers_blocked.load(Ordering::Relaxed), 1);
        assert_eq!(
            metrics.batches_out.load(Ordering::Relaxed),
            1,
            "the writer's batch"
        );
        // The task wakes for the marker alone and finishes the flush: no new batch.
        writer.lock().blocked = false;
        assert!(rx.ready().await);
        assert!(writer.write_queued(&mut rx, || None).await);
        assert_eq!(writer.lock().flushes, [1]);
        assert_eq!(metrics.batches_out.load(Ordering::Relaxed), 1);
        assert_eq!(metrics.frames_out.load(Ordering::Relaxed), 1);
        assert_eq!(metrics.empty_wakeups.load(Ordering::Relaxed), 1);
        // Its task holds the sink: a hand-over for that reason, nothing written by the writer.
        writer.set_writable(true);
        {
            let _busy = writer.lock();
            room.publish(Audience::Everyone, slide_event(2))
                .await
                .unwrap();
            assert_eq!(pass(&shard), 1);
        }
        assert_eq!(metrics.handovers_busy.load(Ordering::Relaxed), 1);
        assert!(rx.ready().await);
        assert!(writer.write_queued(&mut rx, || None).await);
        assert_eq!(metrics.batches_out.load(Ordering::Relaxed), 2);
        assert_eq!(metrics.frames_out.load(Ordering::Relaxed), 2);
        assert_eq!(written(&writer), [(1, 0), (2, 1)]);
    }

    // The guard held across the publish and the pass is the point: the connection task is
    // "in" its sink.
    #[allow(clippy::await_holding_lock)]
    #[tokio::test]
    async fn a_busy_socket_is_handed_to_its_task_and_a_closing_one_is_never_the_writers() {
        let room = room();
        let shard = Arc::new(Shard::new(Arc::default()));
        let writer = writer(&shard);
        let mut rx = attach(&room, &writer);
        writer.set_writable(true);
        {
            // The connection task holds its sink: the writer does not wait for it.
            let _busy = writer.lock();
            room.publish(Audience::Everyone, slide_event(1))
                .await
                .unwrap();
            assert_eq!(pass(&shard), 1);
        }
        assert!(!writer.writable());
        assert!(rx.ready().await);
        assert!(writer.write_queued(&mut rx, || None).await);
        writer.set_writable(false);
        room.publish(Audience::Everyone, slide_event(2))
            .await
            .unwrap();
        assert_eq!(pass(&shard), 0);
        assert!(writer.write_queued(&mut rx, || None).await);
        assert_eq!(written(&writer), [(1, 0), (2, 1)]);
    }

    #[tokio::test]
    async fn a_client_whose_video_grant_changes_gets_the_token_after_the_event() {
        let room = room();
        let shard = Arc::new(Shard::new(Arc::default()));
        let writer = writer(&shard);
        let mut rx = attach(&room, &writer);
        writer.set_writable(true);
        room.publish(Audience::Everyone, slide_event(1))
            .await
            .unwrap();
        room.publish(
            Audience::Everyone,
            Event::BroadcastModeChanged { active: true },
        )
        .await
        .unwrap();
        // The writer writes up to the event and hands over: the connection mints the token.
        assert_eq!(pass(&shard), 1);
        assert_eq!(writer.lock().written.len(), 1);
        assert!(!writer.writable());
        let token = || Some(Message::Text("token".into()));
        assert!(rx.ready().await);
        assert!(writer.write_queued(&mut rx, token).await);
        let texts: Vec<String> = writer
            .lock()
            .written
            .iter()
            .map(|m| m.to_text().unwrap().to_string())
            .collect();
        assert_eq!(texts.len(), 3);
        assert!(texts[1].contains("broadcastModeChanged"), "{texts:?}");
        assert_eq!(texts[2], "token");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn writer_tasks_deliver_to_every_connection_without_their_tasks() {
        let room = room();
        let writers = Writers::spawn(2);
        // More connections than one poll's budget of tokio I/O (128), all in each writer's turn.
        let connections: Vec<_> = (0..600u64)
            .map(|id| {
                let copy = Arc::<std::sync::Mutex<Vec<Message>>>::default();
                let recorder = Recorder {
                    copy: Some(copy.clone()),
                    ..Recorder::default()
                };
                let writer = SocketWriter::new(
                    recorder,
                    Codec::Json,
                    Role::Client,
                    Arc::default(),
                    Some(writers.shard(id)),
                );
                let (tx, rx) = queue::channel(512);
                let claims = protocol::HubClaims {
                    sub: format!("{id:032}"),
                    apt: "0".repeat(32),
                    role: Role::Client,
                    name: None,
                    exp: u64::MAX,
                };
                let scheduled: Arc<dyn Scheduled> = writer.clone();
                room.attach(
                    id,
                    &claims,
                    None,
                    None,
                    Outlet::new(tx, scheduled),
                    Arc::default(),
                    1000,
                )
                .expect("admitted");
                writer.set_queue(&rx);
                writer.set_writable(true);
                (writer, rx, copy)
            })
            .collect();
        for alias in 1..=20 {
            room.publish(Audience::Everyone, slide_event(alias))
                .await
                .unwrap();
        }
        let all = (1..=20).map(|seq| (seq, seq - 1)).collect::<Vec<_>>();
        // Read through the recorders' copies, never the sinks' locks: a writer task that
        // found a sink busy would hand the connection to a task this test does not run.
        let written = |copy: &std::sync::Mutex<Vec<Message>>| event_ids(&copy.lock().unwrap());
        for (writer, _rx, copy) in &connections {
            let deadline = std::time::Instant::now() + Duration::from_secs(5);
            while written(copy).len() < 20 && std::time::Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            assert_eq!(written(copy), all);
            assert_eq!(
                writer.metrics.handovers_busy.load(Ordering::Relaxed),
                0,
                "no writer found a sink busy"
            );
        }
    }

    /// A connection that counts its writes.
    struct Tally(Arc<AtomicUsize>);

    impl Writable for Tally {
        fn write_pending(&self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    // Paused time: the clock moves only when every task waits, so "woken by its end, not by
    // the time limit" below does not depend on how fast this machine writes.
    #[tokio::test(start_paused = true)]
    async fn an_attendees_frame_waits_for_a_large_fan_out_and_not_for_a_small_one() {
        let writers = Writers::spawn(1);
        let fan_outs = writers.fan_outs();
        let written = Arc::new(AtomicUsize::new(0));
        // Idle: nothing to wait for.
        let mut last_wait = None;
        assert!(
            !after_fan_out(&fan_outs, &mut last_wait).await,
            "no wait when idle"
        );
        // A small turn is not a fan-out to wait for: the frame is handled between writes.
        let schedule = |count: usize| {
            let shard = writers.shard(0);
            for _ in 0..count {
                shard.schedule(Arc::new(Tally(written.clone())));
            }
        };
        schedule(LARGE_FAN_OUT - 1);
        tokio::task::yield_now().await;
        assert!(
            !after_fan_out(&fan_outs, &mut last_wait).await,
            "no wait for a small turn"
        );
        assert!(
            written.load(Ordering::SeqCst) < LARGE_FAN_OUT - 1,
            "handled between the small turn's writes"
        );
        while written.load(Ordering::SeqCst) < LARGE_FAN_OUT - 1 {
            tokio::task::yield_now().await;
        }
        let small = written.load(Ordering::SeqCst);
        // A large one: the writer yields every WRITER_TURN connections, and a frame that
        // arrives meanwhile is handled only once all are written.
        schedule(3 * LARGE_FAN_OUT);
        let started = tokio::time::Instant::now();
        tokio::task::yield_now().await;
        assert!(
            written.load(Ordering::SeqCst) > small,
            "the writer started the fan-out"
        );
        assert!(after_fan_out(&fan_outs, &mut last_wait).await);
        assert_eq!(
            written.load(Ordering::SeqCst),
            LARGE_FAN_OUT - 1 + 3 * LARGE_FAN_OUT,
            "handled after the whole fan-out"
        );
        assert!(
            started.elapsed() < MAX_FAN_OUT_WAIT,
            "woken by its end, not by the time limit"
        );
    }
}
