//! The room with real writers on recorded sockets: the engagement tick's writes and order,
//! fan-out to one attendee, a guide's growing queue, shared encodings.

use super::*;
use crate::live::local::LocalOrder;
use crate::live::outbound::{Outbound, Queued, Scheduled};
use crate::live::queue;
use crate::live::{Caller, Request};
use crate::store::Store;
use crate::ws::fanout::{SocketWriter, Writers};
use axum::extract::ws::Message;
use futures_util::Sink;
use protocol::codec::Codec;
use protocol::engagement::{engagement_base_ticks, Reaction};
use std::pin::Pin;
use std::task::{Context, Poll};

/// What a recorded socket got: its frames and where each flush fell.
#[derive(Default)]
struct Recorded {
    written: Vec<Message>,
    /// `written.len()` at each flush that followed a frame.
    flushes: Vec<usize>,
}

/// A socket that records into a [`Recorded`] the test keeps.
#[derive(Default, Clone)]
struct Recorder(Arc<Mutex<Recorded>>);

impl Sink<Message> for Recorder {
    type Error = std::convert::Infallible;
    fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }
    fn start_send(self: Pin<&mut Self>, item: Message) -> Result<(), Self::Error> {
        self.0.lock().unwrap().written.push(item);
        Ok(())
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        let mut recorded = self.0.lock().unwrap();
        let len = recorded.written.len();
        if recorded.flushes.last() != Some(&len) && len > 0 {
            recorded.flushes.push(len);
        }
        Poll::Ready(Ok(()))
    }
    fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }
}

fn open_room() -> Room {
    let settings = RoomSettings {
        retained_events: 16,
        metrics: Arc::default(),
    };
    LocalOrder::new(Arc::new(Store::in_memory().unwrap()))
        .open_room("0".repeat(32), &settings)
        .unwrap()
}

fn claims(n: usize, role: Role) -> HubClaims {
    HubClaims {
        sub: format!("{n:032x}"),
        apt: "0".repeat(32),
        role,
        name: None,
        exp: u64::MAX,
    }
}

/// Attaches a connection with a writer task's socket (a [`Recorder`]); its queue is
/// kept alive by the returned receiver.
fn attach_socket(
    room: &Room,
    writers: &Writers,
    n: usize,
    role: Role,
) -> (
    Recorder,
    (Arc<SocketWriter<Recorder>>, queue::Receiver<Outbound>),
) {
    let recorder = Recorder::default();
    let writer = SocketWriter::new(
        recorder.clone(),
        Codec::Json,
        role,
        Arc::default(),
        Some(writers.shard(n as u64)),
    );
    let (tx, rx) = queue::channel(512);
    let scheduled: Arc<dyn Scheduled> = writer.clone();
    room.attach(
        n as u64,
        &claims(n, role),
        None,
        None,
        Outlet::new(tx, scheduled),
        Arc::default(),
        1000,
    )
    .expect("admitted");
    writer.set_queue(&rx);
    writer.set_writable(true);
    (recorder, (writer, rx))
}

/// What a recorded socket got, frame by frame: an event's kind (with its seq and
/// prev), or a volatile event's kind.
fn frames(recorder: &Recorder) -> (Vec<String>, Vec<usize>) {
    let sink = recorder.0.lock().unwrap();
    let frames = sink
        .written
        .iter()
        .map(|m| {
            match Codec::Json
                .decode_text::<ServerFrame>(m.to_text().unwrap())
                .unwrap()
            {
                ServerFrame::Event { seq, prev, event } => format!(
                    "{}#{seq}<{prev}",
                    kind(&serde_json::to_value(&event).unwrap())
                ),
                ServerFrame::Volatile { event } => kind(&serde_json::to_value(&event).unwrap()),
                other => panic!("unexpected {other:?}"),
            }
        })
        .collect();
    (frames, sink.flushes.clone())
}

fn kind(value: &serde_json::Value) -> String {
    value["kind"].as_str().unwrap().to_string()
}

fn chat(room: &Room, n: usize, text: &str) -> Decision {
    let message = ChatMessage {
        message_id: format!("{n:032x}"),
        attendee_id: format!("{:032x}", 1),
        attendee_name: None,
        role: Role::Client,
        text: text.into(),
        sent_at: policy::now_ms(),
    };
    let _ = room;
    Decision::Chat(message)
}

/// Lets the writer tasks (of a current-thread runtime) run.
async fn let_writers_run() {
    for _ in 0..8 {
        tokio::task::yield_now().await;
    }
}

#[tokio::test]
async fn a_small_rooms_tick_reaches_each_subscriber_in_one_write_in_order() {
    let room = open_room();
    let writers = Writers::spawn(1);
    let (attendee, _rx) = attach_socket(&room, &writers, 1, Role::Client);
    let (guide, _grx) = attach_socket(&room, &writers, 2, Role::Guide);
    // A lone message after a quiet spell goes out at once, alone; the next one waits
    // for the tick; taps are summed.
    for (n, text) in [(10, "first"), (11, "second"), (12, "third")] {
        let decision = chat(&room, n, text);
        room.submit(move |_| decision).await.unwrap();
    }
    room.taps.count(Reaction::Heart);
    room.taps.count(Reaction::Clap);
    let_writers_run().await;
    for socket in [&attendee, &guide] {
        assert_eq!(
            frames(socket),
            (vec!["chatMessagesPosted#1<0".to_string()], vec![1])
        );
    }
    room.engagement_tick().await.unwrap();
    let_writers_run().await;
    // The tick's chat batch and its reaction sums: one write, the batch first.
    for socket in [&attendee, &guide] {
        let (written, flushes) = frames(socket);
        assert_eq!(
            written,
            [
                "chatMessagesPosted#1<0",
                "chatMessagesPosted#2<1",
                "reactions"
            ]
        );
        assert_eq!(flushes, [1, 3], "one write for the tick");
    }
    let posted = room
        .lock()
        .log
        .iter()
        .filter(
            |e| matches!(&e.event, Event::ChatMessagesPosted { messages } if messages.len() == 2),
        )
        .count();
    assert_eq!(posted, 1, "the two messages in one batch");
}

#[tokio::test]
async fn a_large_rooms_tick_rides_the_next_write_or_goes_out_by_the_next_tick() {
    let room = open_room();
    let writers = Writers::spawn(1);
    let (attendee, _rx) = attach_socket(&room, &writers, 1, Role::Client);
    let (guide, _grx) = attach_socket(&room, &writers, 2, Role::Guide);
    // A room whose tick is 500 ms: the other subscribers are plain queues.
    let crowd = 1_667;
    let mut queues = Vec::new();
    for n in 3..3 + crowd {
        let (tx, rx) = queue::channel(64);
        room.attach(
            n as u64,
            &claims(n, Role::Client),
            None,
            None,
            tx,
            Arc::default(),
            1000,
        )
        .expect("admitted");
        queues.push(rx);
    }
    assert_eq!(engagement_base_ticks(room.subscriber_count()), 2);
    let tick = || async {
        // Base ticks: the room's tick is every second one.
        room.engagement_tick().await.unwrap();
        room.engagement_tick().await.unwrap();
        let_writers_run().await;
    };
    tick().await;
    for (n, text) in [(10, "first"), (11, "second")] {
        let decision = chat(&room, n, text);
        room.submit(move |_| decision).await.unwrap();
    }
    room.taps.count(Reaction::Wow);
    let_writers_run().await;
    tick().await;
    // The guide has the tick's frames in one write; the attendee has not: they wait
    // for its next write.
    assert_eq!(
        frames(&guide).0,
        [
            "chatMessagesPosted#1<0",
            "chatMessagesPosted#2<1",
            "reactions"
        ]
    );
    assert_eq!(frames(&guide).1, [1, 3]);
    assert_eq!(
        frames(&attendee),
        (vec!["chatMessagesPosted#1<0".to_string()], vec![1])
    );
    // A slide change: one write with the tick's frames before it, in order.
    room.publish(Audience::Everyone, slide(7)).await.unwrap();
    let_writers_run().await;
    assert_eq!(
        frames(&attendee).0,
        [
            "chatMessagesPosted#1<0",
            "chatMessagesPosted#2<1",
            "reactions",
            "slideSwitched#3<2"
        ]
    );
    assert_eq!(frames(&attendee).1, [1, 4]);
    // A tick with no slide change after it: its frames go out with the next tick's.
    room.taps.count(Reaction::Fire);
    tick().await;
    assert_eq!(frames(&attendee).1, [1, 4], "waits for another write");
    room.taps.count(Reaction::Laugh);
    tick().await;
    let (written, flushes) = frames(&attendee);
    assert_eq!(written[4..], ["reactions", "reactions"]);
    assert_eq!(
        flushes,
        [1, 4, 6],
        "both ticks' sums in one write, one tick late at most"
    );
    // A tick with nothing to send and nothing owed writes nothing.
    tick().await;
    assert_eq!(frames(&attendee).1, [1, 4, 6]);
    assert_eq!(frames(&guide).0.len(), 6);
    // The fan-out latency counts what was written as soon as it could be (the lone
    // message, the slide change), not the tick frames that waited for a write by design.
    assert_eq!(_rx.0.metrics.fan_out_latency.count(), 2);
    // Every plain queue got the same frames in the same order.
    for rx in &mut queues {
        let mut got = Vec::new();
        while let Some(outbound) = rx.try_recv() {
            got.push(match outbound.item {
                Queued::Event { seq, .. } => seq.to_string(),
                Queued::Volatile(_) => "v".into(),
                Queued::Flush => "flush".into(),
            });
        }
        assert_eq!(got, ["1", "2", "v", "3", "v", "v"]);
    }
}

#[tokio::test]
async fn a_large_rooms_chat_rides_each_slide_change_in_slices() {
    let room = Arc::new(open_room());
    let writers = Writers::spawn(1);
    let (attendee, _rx) = attach_socket(&room, &writers, 1, Role::Client);
    let (guide, _grx) = attach_socket(&room, &writers, 2, Role::Guide);
    let mut queues = Vec::new();
    for n in 3..3 + 1_667 {
        let (tx, rx) = queue::channel(64);
        room.attach(
            n as u64,
            &claims(n, Role::Client),
            None,
            None,
            tx,
            Arc::default(),
            1000,
        )
        .expect("admitted");
        queues.push(rx);
    }
    assert_eq!(
        engagement_base_ticks(room.subscriber_count()),
        2,
        "a room whose attendees' tick frames ride other writes"
    );
    let guide_claims = claims(2, Role::Guide);
    let switch = |alias: u32| {
        Request::Action(protocol::action::Action::SwitchSlide {
            page_id: "a".repeat(32),
            section_id: "b".repeat(32),
            slide_alias: alias,
        })
    };
    // A lone message goes out at once; the next ones wait for the tick — or, here,
    // for the guide's next slide change, whose write carries them.
    for (n, text) in [(10, "first"), (11, "second"), (12, "third")] {
        let decision = chat(&room, n, text);
        room.submit(move |_| decision).await.unwrap();
    }
    let_writers_run().await;
    assert_eq!(
        frames(&attendee),
        (vec!["chatMessagesPosted#1<0".to_string()], vec![1])
    );
    super::super::submit(&room, None, Caller::Participant(&guide_claims), switch(1))
        .await
        .unwrap();
    let_writers_run().await;
    assert_eq!(
        frames(&attendee).0,
        [
            "chatMessagesPosted#1<0",
            "chatMessagesPosted#2<1",
            "slideSwitched#3<2"
        ]
    );
    assert_eq!(
        frames(&attendee).1,
        [1, 3],
        "the chat since the last write and the slide change in one write"
    );
    assert_eq!(
        frames(&guide).0,
        frames(&attendee).0,
        "the guide reads the same order"
    );
    // The next slice: only what was said since.
    let decision = chat(&room, 13, "fourth");
    room.submit(move |_| decision).await.unwrap();
    super::super::submit(&room, None, Caller::Participant(&guide_claims), switch(2))
        .await
        .unwrap();
    // Nothing waiting: a slide change alone.
    super::super::submit(&room, None, Caller::Participant(&guide_claims), switch(3))
        .await
        .unwrap();
    let_writers_run().await;
    let (written, _) = frames(&attendee);
    assert_eq!(
        written[3..],
        [
            "chatMessagesPosted#4<3",
            "slideSwitched#5<4",
            "slideSwitched#6<5"
        ]
    );
    let batches: Vec<usize> = room
        .lock()
        .log
        .iter()
        .filter_map(|e| match &e.event {
            Event::ChatMessagesPosted { messages } => Some(messages.len()),
            _ => None,
        })
        .collect();
    assert_eq!(batches, [1, 2, 1], "each message posted once, in slices");
    // The tick has nothing of the chat left to post.
    room.engagement_tick().await.unwrap();
    room.engagement_tick().await.unwrap();
    assert_eq!(room.lock().log.len(), 6);
    for rx in &mut queues {
        let mut got = Vec::new();
        while let Some(outbound) = rx.try_recv() {
            if let Queued::Event { seq, .. } = outbound.item {
                got.push(seq);
            }
        }
        assert_eq!(got, [1, 2, 3, 4, 5, 6]);
    }
}

#[tokio::test]
async fn a_small_rooms_chat_keeps_its_tick_when_the_guide_changes_slides() {
    let room = Arc::new(open_room());
    let writers = Writers::spawn(1);
    let (attendee, _rx) = attach_socket(&room, &writers, 1, Role::Client);
    let (_guide, _grx) = attach_socket(&room, &writers, 2, Role::Guide);
    for (n, text) in [(10, "first"), (11, "second")] {
        let decision = chat(&room, n, text);
        room.submit(move |_| decision).await.unwrap();
    }
    let action = protocol::action::Action::SwitchSlide {
        page_id: "a".repeat(32),
        section_id: "b".repeat(32),
        slide_alias: 1,
    };
    super::super::submit(
        &room,
        None,
        Caller::Participant(&claims(2, Role::Guide)),
        Request::Action(action),
    )
    .await
    .unwrap();
    let_writers_run().await;
    // Its tick is every 250 ms and writes on its own: the message waits for it.
    assert_eq!(
        frames(&attendee).0,
        ["chatMessagesPosted#1<0", "slideSwitched#2<1"]
    );
    room.engagement_tick().await.unwrap();
    let_writers_run().await;
    assert_eq!(frames(&attendee).0[2..], ["chatMessagesPosted#3<2"]);
}

#[tokio::test]
async fn an_event_for_one_attendee_reaches_its_connections_and_the_guides_after_others_left() {
    let room = open_room();
    let mut queues = HashMap::new();
    // Attendees 10..20 with two connections each (ids 100+n and 200+n), and a guide.
    for (connection, n, role) in (10..20)
        .flat_map(|n| [(100 + n, n, Role::Client), (200 + n, n, Role::Client)])
        .chain([(1, 1, Role::Guide)])
    {
        let (tx, rx) = queue::channel(64);
        room.attach(
            connection as u64,
            &claims(n, role),
            None,
            None,
            tx,
            Arc::default(),
            1000,
        )
        .expect("admitted");
        queues.insert(connection, rx);
    }
    // Some leave (each moves the last connection into its place), one is closed by a
    // full queue elsewhere (a retain).
    for connection in [110, 215, 119, 212] {
        assert!(room.detach(connection as u64));
        queues.remove(&connection);
    }
    for n in 10..20 {
        let attendee = format!("{n:032x}");
        let seq = room
            .publish(Audience::Attendee(attendee.clone()), slide(n as u32))
            .await
            .unwrap();
        let mut got: Vec<usize> = queues
            .iter_mut()
            .filter_map(|(&connection, rx)| {
                let item = rx.try_recv()?;
                assert!(matches!(item.item, Queued::Event { seq: s, .. } if s == seq));
                assert!(rx.try_recv().is_none());
                Some(connection)
            })
            .collect();
        got.sort();
        let mut expected: Vec<usize> = [1, 100 + n, 200 + n]
            .into_iter()
            .filter(|c| queues.contains_key(c))
            .collect();
        expected.sort();
        assert_eq!(got, expected, "attendee {n}");
    }
}

#[tokio::test]
async fn a_guides_queue_grows_with_the_room_through_a_join_storm() {
    let room = open_room();
    // A guide and an attendee whose sockets take nothing; a queue bound of 8.
    let (guide_tx, guide_rx) = queue::channel(8);
    let guide_reason = Arc::new(AtomicU16::new(0));
    room.attach(
        1,
        &claims(1, Role::Guide),
        None,
        None,
        guide_tx,
        guide_reason.clone(),
        1000,
    )
    .expect("admitted");
    let (attendee_tx, _attendee_rx) = queue::channel(8);
    room.attach(
        2,
        &claims(2, Role::Client),
        None,
        None,
        attendee_tx,
        Arc::default(),
        1000,
    )
    .expect("admitted");
    // 100 attendees join: 100 presence events for the guide, more than its bound.
    for n in 100..200 {
        room.set_presence(&claims(n, Role::Client), true)
            .await
            .unwrap();
    }
    assert_eq!(
        guide_reason.load(Ordering::Relaxed),
        0,
        "the guide is not a slow consumer"
    );
    assert_eq!(room.subscriber_count(), 2);
    let mut guide_rx = guide_rx;
    let mut presence = 0;
    while guide_rx.try_recv().is_some() {
        presence += 1;
    }
    assert_eq!(presence, 100);
    // An attendee is held to the bound: 9 slide changes it does not read close it.
    for alias in 1..=9 {
        room.publish(Audience::Everyone, slide(alias))
            .await
            .unwrap();
    }
    assert_eq!(room.subscriber_count(), 1);
}

fn slide(alias: u32) -> Event {
    Event::SlideSwitched {
        page_id: "a".repeat(32),
        section_id: "b".repeat(32),
        slide_alias: alias,
    }
}
