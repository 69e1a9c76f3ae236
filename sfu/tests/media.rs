//! Media through the real server with a Rust WebRTC client (str0m, as the server uses):
//! one participant publishes a video track, another receives its frames. The signalling
//! is what livekit-client does: join, publisher offer, add-track, answer the subscriber offer.

use std::net::SocketAddr;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use livekit_protocol as proto;
use prost::Message as _;
use proto::signal_request::Message as Request;
use proto::signal_response::Message as Response;
use serde_json::json;
use sfu::engine::AdminAction;
use sfu::Config;
use str0m::change::{SdpAnswer, SdpOffer};
use str0m::format::Codec;
use str0m::media::{Direction, MediaKind, MediaTime, Rid, Simulcast, SimulcastLayer};
use str0m::net::{Protocol, Receive, TcpType};
use str0m::{Candidate, Event, Input, Output, Rtc};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpStream, UdpSocket};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

const KEY: &str = "APImedia";
const SECRET: &str = "a-media-test-secret-long-enough-for-hs256";

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn token(identity: &str, publish: bool) -> String {
    token_with(identity, publish, true)
}

fn token_with(identity: &str, publish: bool, subscribe: bool) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let claims = json!({ "iss": KEY, "sub": identity, "nbf": now - 1, "exp": now + 600,
                         "video": { "room": "media", "roomJoin": true, "canPublish": publish, "canSubscribe": subscribe } });
    encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &EncodingKey::from_secret(SECRET.as_bytes()),
    )
    .unwrap()
}

async fn send(ws: &mut Socket, message: Request) {
    ws.send(Message::Binary(
        proto::SignalRequest {
            message: Some(message),
        }
        .encode_to_vec()
        .into(),
    ))
    .await
    .unwrap();
}

fn decode(frame: Message) -> Option<Response> {
    match frame {
        Message::Binary(bytes) => proto::SignalResponse::decode(bytes.as_ref()).ok()?.message,
        _ => None,
    }
}

/// How a test peer connection reaches the server.
enum Transport {
    Udp(UdpSocket),
    /// ICE over TCP: frames in from a reader task, out through a writer task.
    Tcp {
        incoming: mpsc::Receiver<Vec<u8>>,
        outgoing: mpsc::Sender<Vec<u8>>,
        remote: SocketAddr,
    },
}

/// A peer connection of the test client: an `Rtc` and its transport.
struct Peer {
    rtc: Rtc,
    transport: Transport,
    local: SocketAddr,
}

impl Peer {
    /// Over its own UDP socket.
    async fn new() -> Peer {
        let socket = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let local = socket.local_addr().unwrap();
        let mut rtc = Rtc::builder().build(Instant::now());
        rtc.add_local_candidate(Candidate::host(local, "udp").unwrap());
        Peer {
            rtc,
            transport: Transport::Udp(socket),
            local,
        }
    }

    /// Over TCP only, as a browser whose UDP is blocked: one connection to the server's
    /// passive candidate, RFC 4571 framing.
    async fn tcp(server: SocketAddr) -> Peer {
        let stream = TcpStream::connect(server).await.unwrap();
        let local = stream.local_addr().unwrap();
        let (mut reader, mut writer) = stream.into_split();
        let (to_test, incoming) = mpsc::channel(1024);
        let (outgoing, mut to_server) = mpsc::channel::<Vec<u8>>(1024);
        tokio::spawn(async move {
            let mut len = [0u8; 2];
            while reader.read_exact(&mut len).await.is_ok() {
                let mut frame = vec![0u8; usize::from(u16::from_be_bytes(len))];
                if reader.read_exact(&mut frame).await.is_err()
                    || to_test.send(frame).await.is_err()
                {
                    break;
                }
            }
        });
        tokio::spawn(async move {
            while let Some(frame) = to_server.recv().await {
                let len = u16::try_from(frame.len()).unwrap().to_be_bytes();
                if writer.write_all(&len).await.is_err() || writer.write_all(&frame).await.is_err()
                {
                    break;
                }
            }
        });
        let mut rtc = Rtc::builder().build(Instant::now());
        rtc.add_local_candidate(
            Candidate::builder()
                .tcp()
                .host(local)
                .tcptype(TcpType::Active)
                .build()
                .unwrap(),
        );
        Peer {
            rtc,
            transport: Transport::Tcp {
                incoming,
                outgoing,
                remote: server,
            },
            local,
        }
    }

    /// Sends what the `Rtc` wants sent and returns its events, until it wants to wait.
    fn poll(&mut self) -> (Vec<Event>, Instant) {
        let mut events = Vec::new();
        loop {
            match self.rtc.poll_output().unwrap() {
                Output::Timeout(at) => return (events, at),
                Output::Transmit(t) => match &self.transport {
                    Transport::Udp(socket) => {
                        let _ = socket.try_send_to(&t.contents, t.destination);
                    }
                    Transport::Tcp { outgoing, .. } => {
                        assert_eq!(t.proto, Protocol::Tcp, "a TCP-only peer sends over TCP");
                        let _ = outgoing.try_send(t.contents.to_vec());
                    }
                },
                Output::Event(event) => events.push(event),
            }
        }
    }

    /// Feeds a packet or a timeout, whichever comes first before `deadline`.
    async fn wait(&mut self, deadline: Instant) {
        let mut buf = vec![0u8; 2048];
        let (proto, source, len) = match &mut self.transport {
            Transport::Udp(socket) => {
                match tokio::time::timeout_at(deadline.into(), socket.recv_from(&mut buf)).await {
                    Ok(Ok((n, source))) => (Protocol::Udp, source, n),
                    _ => {
                        return self
                            .rtc
                            .handle_input(Input::Timeout(Instant::now()))
                            .unwrap()
                    }
                }
            }
            Transport::Tcp {
                incoming, remote, ..
            } => match tokio::time::timeout_at(deadline.into(), incoming.recv()).await {
                Ok(Some(frame)) => {
                    buf[..frame.len()].copy_from_slice(&frame);
                    (Protocol::Tcp, *remote, frame.len())
                }
                _ => {
                    return self
                        .rtc
                        .handle_input(Input::Timeout(Instant::now()))
                        .unwrap()
                }
            },
        };
        if let Ok(contents) = buf[..len].try_into() {
            let receive = Receive {
                proto,
                source,
                destination: self.local,
                contents,
            };
            self.rtc
                .handle_input(Input::Receive(Instant::now(), receive))
                .unwrap();
        }
    }
}

async fn join(http: SocketAddr, identity: &str, publish: bool) -> Socket {
    let url = format!(
        "ws://{http}/rtc?access_token={}&auto_subscribe=1&protocol=15",
        token(identity, publish)
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    assert!(matches!(
        decode(ws.next().await.unwrap().unwrap()),
        Some(Response::Join(_))
    ));
    ws
}

/// The simulcast layers a simulcast publisher here sends, smallest first (livekit-client's rids).
const LAYERS: [&str; 3] = ["q", "h", "f"];

/// Sends a publisher offer and applies the answer, as livekit-client does right after joining.
async fn negotiate_publisher(
    ws: &mut Socket,
    peer: &mut Peer,
    video_cid: Option<&str>,
) -> Option<str0m::media::Mid> {
    negotiate_publisher_with(ws, peer, video_cid, false).await
}

/// [`negotiate_publisher`], the video in three simulcast layers ([`LAYERS`]) when `simulcast`.
async fn negotiate_publisher_with(
    ws: &mut Socket,
    peer: &mut Peer,
    video_cid: Option<&str>,
    simulcast: bool,
) -> Option<str0m::media::Mid> {
    let mut change = peer.rtc.sdp_api();
    let layers = simulcast.then(|| {
        let mut layers = Simulcast::new();
        for rid in LAYERS {
            layers.add_send_layer(SimulcastLayer::new(rid));
        }
        layers
    });
    let mid = video_cid.map(|cid| {
        change.add_media(
            MediaKind::Video,
            Direction::SendOnly,
            Some("stream".into()),
            Some(cid.into()),
            layers,
        )
    });
    change.add_channel("_reliable".into());
    let (offer, pending) = change.apply().unwrap();
    send(
        ws,
        Request::Offer(proto::SessionDescription {
            r#type: "offer".into(),
            sdp: offer.to_sdp_string(),
            id: 1,
            ..Default::default()
        }),
    )
    .await;
    loop {
        if let Some(Response::Answer(answer)) = decode(ws.next().await.unwrap().unwrap()) {
            peer.rtc
                .sdp_api()
                .accept_answer(pending, SdpAnswer::from_sdp_string(&answer.sdp).unwrap())
                .unwrap();
            return mid;
        }
    }
}

/// A publisher sending frames and a subscriber answering the server's offers.
struct Call {
    publisher: Peer,
    subscriber: Peer,
    subscriber_ws: Socket,
    /// Kept open: the publisher is in the room for as long as its signalling lasts.
    _publisher_ws: Socket,
    mid: str0m::media::Mid,
    connected: bool,
    sent: u32,
    next_frame: Instant,
    /// The stream id of the subscriber's m-line.
    stream_id: String,
    /// Key frame requests (PLI/FIR) the publisher got; each makes its next frame a key frame.
    keyframe_requests: u32,
    key_requested: bool,
    /// Frames the subscriber's str0m found not to follow the one before (a sequence gap).
    discontinuous: u32,
    /// Simulcast: the layers sent (else one stream), and the layer (index into [`LAYERS`])
    /// of each frame the subscriber got, in order.
    simulcast: bool,
    layers_received: Vec<u8>,
    /// The RTP time (90 kHz) of each frame the subscriber got, and whether it was a key
    /// frame, in order.
    times_received: Vec<u64>,
    keys_received: Vec<bool>,
}

impl Call {
    /// Sends 30 frames a second and counts the frames the subscriber gets, until `until` or
    /// `enough` frames.
    async fn run(&mut self, until: Instant, enough: u32) -> u32 {
        let mut received = 0;
        while received < enough && Instant::now() < until {
            // Signalling of the subscriber: the server offers, we answer.
            while let Ok(Some(Ok(frame))) =
                tokio::time::timeout(Duration::from_millis(1), self.subscriber_ws.next()).await
            {
                if let Some(Response::Offer(offer)) = decode(frame) {
                    let parsed = SdpOffer::from_sdp_string(&offer.sdp)
                        .unwrap_or_else(|e| panic!("{e}:\n{}", offer.sdp));
                    let answer = self
                        .subscriber
                        .rtc
                        .sdp_api()
                        .accept_offer(parsed)
                        .unwrap_or_else(|e| panic!("{e}:\n{}", offer.sdp));
                    let sdp = answer.to_sdp_string();
                    let answer = proto::SessionDescription {
                        r#type: "answer".into(),
                        sdp,
                        id: offer.id,
                        ..Default::default()
                    };
                    send(&mut self.subscriber_ws, Request::Answer(answer)).await;
                }
            }
            let (events, publisher_wait) = self.publisher.poll();
            self.connected |= events.iter().any(|e| matches!(e, Event::Connected));
            let requests = events
                .iter()
                .filter(|e| matches!(e, Event::KeyframeRequest(_)))
                .count() as u32;
            self.keyframe_requests += requests;
            self.key_requested |= requests > 0;
            if self.connected && Instant::now() >= self.next_frame {
                // A VP8 frame: the first byte's low bit clear marks a key frame.
                let key = self.sent.is_multiple_of(30) || std::mem::take(&mut self.key_requested);
                let mut frame = vec![0u8; 1200];
                frame[0] = if key { 0x10 } else { 0x11 };
                let layers: &[&str] = if self.simulcast { &LAYERS } else { &[""] };
                for (index, rid) in layers.iter().enumerate() {
                    // Which layer it is, for the subscriber to tell.
                    frame[1] = index as u8;
                    let writer = self.publisher.rtc.writer(self.mid).unwrap();
                    let pt = writer
                        .payload_params()
                        .find(|p| p.spec().codec == Codec::Vp8)
                        .unwrap()
                        .pt();
                    let writer = if self.simulcast {
                        writer.rid(Rid::from(*rid))
                    } else {
                        writer
                    };
                    // Each layer on its own time base, as a browser's encoders.
                    let time = u64::from(self.sent) * 3000 + index as u64 * 1_000_000;
                    writer
                        .write(
                            pt,
                            Instant::now(),
                            MediaTime::from_90khz(time),
                            frame.clone(),
                        )
                        .unwrap();
                }
                self.sent += 1;
                self.next_frame = Instant::now() + Duration::from_millis(33);
            }
            let (events, subscriber_wait) = self.subscriber.poll();
            for event in events {
                match event {
                    Event::MediaAdded(added) => {
                        self.stream_id = self
                            .subscriber
                            .rtc
                            .media(added.mid)
                            .map(|m| m.stream_id().to_owned())
                            .unwrap_or_default();
                    }
                    Event::MediaData(data) => {
                        received += 1;
                        self.discontinuous += u32::from(!data.contiguous);
                        self.layers_received
                            .push(data.data.get(1).copied().unwrap_or_default());
                        self.times_received.push(
                            data.time
                                .rebase(str0m::media::Frequency::NINETY_KHZ)
                                .numer(),
                        );
                        self.keys_received
                            .push(data.data.first().is_some_and(|tag| tag & 1 == 0));
                    }
                    _ => {}
                }
            }
            let wait = publisher_wait
                .min(subscriber_wait)
                .min(self.next_frame)
                .min(Instant::now() + Duration::from_millis(10));
            tokio::join!(self.publisher.wait(wait), self.subscriber.wait(wait));
        }
        received
    }

    /// Runs until frames already on their way have arrived: until 300 ms pass without a
    /// frame (at most 5 s). On a loaded machine they can trail a change by more than that.
    /// Runs until the publisher has sent `frames` more frames (at most 20 s: a loaded
    /// machine sends slower, the check is about frames, not time); answers how many
    /// frames the subscriber got meanwhile.
    async fn run_while_sending(&mut self, frames: u32) -> u32 {
        let (target, until) = (self.sent + frames, Instant::now() + Duration::from_secs(20));
        let mut received = 0;
        while self.sent < target && Instant::now() < until {
            received += self
                .run(Instant::now() + Duration::from_millis(100), u32::MAX)
                .await;
        }
        assert!(
            self.sent >= target,
            "the publisher sent only {} of {frames} frames in 20 s",
            frames - (target - self.sent)
        );
        received
    }

    async fn settle(&mut self) {
        let until = Instant::now() + Duration::from_secs(5);
        while Instant::now() < until
            && self
                .run(Instant::now() + Duration::from_millis(300), u32::MAX)
                .await
                > 0
        {}
    }
}

/// A running server, a publisher (over TCP when `publisher_tcp`) of a camera and a subscriber.
async fn call(publisher_tcp: bool) -> (sfu::server::Running, Call, String, tempfile::TempDir) {
    call_with(publisher_tcp, sfu::engine::PARALLEL_MIN).await
}

/// [`call`] with the engine sending from two threads from `parallel_sends` busy peer
/// connections on (`SFU_PARALLEL_SENDS`).
async fn call_with(
    publisher_tcp: bool,
    parallel_sends: usize,
) -> (sfu::server::Running, Call, String, tempfile::TempDir) {
    call_full(publisher_tcp, parallel_sends, false).await
}

/// [`call_with`], the camera sent in three simulcast layers when `simulcast`.
async fn call_full(
    publisher_tcp: bool,
    parallel_sends: usize,
    simulcast: bool,
) -> (sfu::server::Running, Call, String, tempfile::TempDir) {
    // RUST_LOG=sfu=debug shows the server's side.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_test_writer()
        .try_init();
    let data = tempfile::tempdir().unwrap();
    let config = Config {
        sfu_parallel_sends: parallel_sends,
        ..Config::loopback(data.path().to_owned(), KEY, SECRET)
    };
    let running = sfu::server::start(&config, config.credentials().unwrap())
        .await
        .unwrap();
    let http = running.http_addr;

    // The publisher announces its camera, then offers it.
    let mut publisher_ws = join(http, "guide", true).await;
    send(
        &mut publisher_ws,
        Request::AddTrack(proto::AddTrackRequest {
            cid: "camera-cid".into(),
            r#type: proto::TrackType::Video as i32,
            source: proto::TrackSource::Camera as i32,
            width: 640,
            height: 480,
            layers: if simulcast {
                LAYERS
                    .iter()
                    .enumerate()
                    .map(|(i, rid)| proto::VideoLayer {
                        quality: i as i32,
                        width: 160 << i,
                        height: 120 << i,
                        rid: (*rid).into(),
                        ..Default::default()
                    })
                    .collect()
            } else {
                Vec::new()
            },
            ..Default::default()
        }),
    )
    .await;
    let track_sid = loop {
        if let Some(Response::TrackPublished(published)) =
            decode(publisher_ws.next().await.unwrap().unwrap())
        {
            break published.track.unwrap().sid;
        }
    };
    let mut publisher = match (publisher_tcp, running.engine.media_tcp_addr) {
        (true, Some(tcp)) => Peer::tcp(tcp).await,
        (true, None) => panic!("the server has no ICE over TCP"),
        (false, _) => Peer::new().await,
    };
    let mid = negotiate_publisher_with(
        &mut publisher_ws,
        &mut publisher,
        Some("camera-cid"),
        simulcast,
    )
    .await
    .unwrap();

    // The subscriber's browser would negotiate its (empty) publisher connection first.
    let mut subscriber_ws = join(http, "attendee", false).await;
    let mut unused_publisher = Peer::new().await;
    negotiate_publisher(&mut subscriber_ws, &mut unused_publisher, None).await;
    let subscriber = Peer::new().await;

    let call = Call {
        publisher,
        subscriber,
        subscriber_ws,
        _publisher_ws: publisher_ws,
        mid,
        connected: false,
        sent: 0,
        next_frame: Instant::now(),
        stream_id: String::new(),
        keyframe_requests: 0,
        key_requested: false,
        discontinuous: 0,
        simulcast,
        layers_received: Vec::new(),
        times_received: Vec::new(),
        keys_received: Vec::new(),
    };
    (running, call, track_sid, data)
}

#[tokio::test]
async fn a_published_video_reaches_a_subscriber_and_a_muted_one_does_not() {
    let (running, mut call, track_sid, _data) = call(false).await;
    let received = call.run(Instant::now() + Duration::from_secs(20), 20).await;
    assert!(
        received >= 20,
        "only {received} frames arrived ({} sent)",
        call.sent
    );

    // Muted by the server API: the client here ignores the mute and keeps sending, and the
    // server keeps it to itself.
    running
        .engine
        .admin(
            "media".into(),
            AdminAction::MuteTrack {
                identity: "guide".into(),
                track_sid: track_sid.clone(),
            },
        )
        .await
        .unwrap();
    call.settle().await;
    let received = call.run_while_sending(30).await;
    assert_eq!(received, 0, "frames of a muted track were forwarded");
    let stream_id = call.stream_id;
    // livekit-client finds the publication from `<participant sid>|<track sid>`.
    let (participant, track) = stream_id
        .split_once('|')
        .expect("stream id names participant and track");
    assert!(
        participant.starts_with("PA_") && track.starts_with("TR_"),
        "{stream_id}"
    );
}

#[tokio::test]
async fn a_deleted_room_stops_the_media_and_tells_the_subscriber() {
    let (running, mut call, _track_sid, _data) = call(false).await;
    let received = call.run(Instant::now() + Duration::from_secs(20), 20).await;
    assert!(
        received >= 20,
        "only {received} frames arrived ({} sent)",
        call.sent
    );

    running
        .engine
        .admin("media".into(), AdminAction::DeleteRoom)
        .await
        .unwrap();
    let left = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Some(Response::Leave(leave)) =
                decode(call.subscriber_ws.next().await.unwrap().unwrap())
            {
                break leave;
            }
        }
    })
    .await
    .expect("the subscriber is told to leave");
    assert_eq!(left.reason, proto::DisconnectReason::RoomDeleted as i32);
    call.settle().await;
    let received = call.run_while_sending(30).await;
    assert_eq!(
        received, 0,
        "frames were forwarded after the room was deleted"
    );
    let listed = running
        .engine
        .admin("media".into(), AdminAction::ListParticipants)
        .await;
    assert!(
        matches!(listed, Err(sfu::error::Error::RoomNotFound)),
        "the room is gone"
    );
}

/// The fan-out of a big room is sent from two threads; here every pass is (from one busy
/// peer connection on), so the frames and the key-frame path go through it.
#[tokio::test]
async fn frames_sent_from_two_threads_reach_the_subscriber() {
    let (running, mut call, _track_sid, _data) = call_with(false, 1).await;
    let received = call.run(Instant::now() + Duration::from_secs(20), 20).await;
    assert!(
        received >= 20,
        "only {received} frames arrived ({} sent)",
        call.sent
    );
    let parallel = running
        .engine
        .metrics
        .parallel_sends
        .load(std::sync::atomic::Ordering::Relaxed);
    assert!(parallel > 0, "no pass was sent from two threads");
    // The second thread is started once and kept, not spawned per pass: between passes
    // (the engine is idle while the test reads) it is still there.
    assert!(drive_threads() >= 1, "no long-lived drive thread");
}

/// Threads of this process named `sfu-drive` (every engine of the test binary has one).
fn drive_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .filter(|name| name.trim() == "sfu-drive")
        .count()
}

#[tokio::test]
async fn a_paused_subscription_gets_nothing_and_resuming_asks_for_a_key_frame() {
    let (_running, mut call, track_sid, _data) = call(false).await;
    assert!(
        call.run(Instant::now() + Duration::from_secs(20), 20).await >= 20,
        "the video flows"
    );

    // The subscriber's client takes the video off screen (adaptive stream).
    let paused = proto::UpdateTrackSettings {
        track_sids: vec![track_sid.clone()],
        disabled: true,
        ..Default::default()
    };
    send(&mut call.subscriber_ws, Request::TrackSetting(paused)).await;
    call.settle().await;
    let received = call
        .run(Instant::now() + Duration::from_secs(1), u32::MAX)
        .await;
    assert_eq!(received, 0, "a paused subscription was forwarded");

    // Back on screen: the publisher is asked for a key frame at once (its regular ones come
    // only every 30 frames), and the video flows again.
    let (requests_before, gaps_before) = (call.keyframe_requests, call.discontinuous);
    let resumed = proto::UpdateTrackSettings {
        track_sids: vec![track_sid],
        disabled: false,
        width: 320,
        height: 240,
        ..Default::default()
    };
    send(&mut call.subscriber_ws, Request::TrackSetting(resumed)).await;
    let received = call.run(Instant::now() + Duration::from_secs(5), 5).await;
    assert!(received >= 5, "only {received} frames after resuming");
    assert!(
        call.keyframe_requests > requests_before,
        "resuming asked for no key frame"
    );
    // The packets not forwarded while paused leave no gap in the subscriber's sequence
    // numbers: it does not ask for them, and its frames follow on.
    assert_eq!(
        call.discontinuous, gaps_before,
        "the resumed stream has a sequence gap"
    );
}

/// Simulcast, packet by packet: the subscriber changes layers at a key frame of the new one,
/// and the layers' own sequence numbers and time bases show as one continuous stream.
#[tokio::test]
async fn a_simulcast_subscriber_changes_layers_at_a_key_frame_without_a_gap() {
    let (_running, mut call, track_sid, _data) =
        call_full(false, sfu::engine::PARALLEL_MIN, true).await;
    assert!(
        call.run(Instant::now() + Duration::from_secs(20), 20).await >= 20,
        "the video flows"
    );
    // Without a size, the best layer ("f").
    let until = Instant::now() + Duration::from_secs(10);
    while call.layers_received.last() != Some(&2) && Instant::now() < until {
        call.run(Instant::now() + Duration::from_millis(100), u32::MAX)
            .await;
    }
    assert_eq!(
        call.layers_received.last(),
        Some(&2),
        "the subscriber gets the best layer"
    );

    // Its client shows the video small: the smallest layer, from its next key frame on.
    let (from, gaps_before) = (call.layers_received.len(), call.discontinuous);
    let small = proto::UpdateTrackSettings {
        track_sids: vec![track_sid],
        width: 160,
        height: 120,
        ..Default::default()
    };
    send(&mut call.subscriber_ws, Request::TrackSetting(small)).await;
    let until = Instant::now() + Duration::from_secs(10);
    while call.layers_received.last() != Some(&0) && Instant::now() < until {
        call.run(Instant::now() + Duration::from_millis(100), u32::MAX)
            .await;
    }
    assert!(
        call.run(Instant::now() + Duration::from_secs(10), 10).await >= 10,
        "the video flows on"
    );
    let after: Vec<u8> = call.layers_received[from..].to_vec();
    let switched_at = after
        .iter()
        .position(|&layer| layer == 0)
        .expect("the subscriber gets the smallest layer");
    assert!(
        after[..switched_at].iter().all(|&layer| layer == 2)
            && after[switched_at..].iter().all(|&layer| layer == 0),
        "{after:?}"
    );
    assert_eq!(
        call.discontinuous, gaps_before,
        "the switch left a sequence gap"
    );
    // The layers' time bases are 1,000,000 ticks apart here; the subscriber's time goes on
    // by about the time between the two frames instead (a frame is 3,000 ticks).
    let (at, times) = (from + switched_at, &call.times_received);
    assert_eq!(
        call.layers_received[at - 1],
        2,
        "the frame before the switch is of the best layer"
    );
    assert!(
        call.keys_received[at],
        "the new layer starts at a key frame"
    );
    let step = times[at].wrapping_sub(times[at - 1]);
    assert!(
        step > 0 && step < 90_000,
        "the time moved by {step} ticks at the switch: {:?}",
        &times[from..]
    );
    assert!(
        times[at..].windows(2).all(|w| w[1] > w[0]),
        "{:?}",
        &times[from..]
    );
}

#[tokio::test]
async fn a_publisher_whose_udp_is_blocked_sends_over_tcp() {
    let (_running, mut call, _, _data) = call(true).await;
    let received = call.run(Instant::now() + Duration::from_secs(20), 20).await;
    assert!(
        received >= 20,
        "only {received} frames arrived over TCP ({} sent)",
        call.sent
    );
}

#[tokio::test]
async fn a_participant_without_the_subscribe_grant_is_offered_nothing() {
    let (running, mut call, _, _data) = call(false).await;
    assert!(
        call.run(Instant::now() + Duration::from_secs(20), 5).await >= 5,
        "the publisher's video flows"
    );

    let url = format!(
        "ws://{}/rtc?access_token={}&auto_subscribe=1",
        running.http_addr,
        token_with("recorder", false, false)
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    assert!(matches!(
        decode(ws.next().await.unwrap().unwrap()),
        Some(Response::Join(_))
    ));
    let mut unused_publisher = Peer::new().await;
    negotiate_publisher(&mut ws, &mut unused_publisher, None).await;
    // Long enough for a subscriber offer to have come (the others get theirs at once).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(1);
    while let Ok(Some(Ok(frame))) = tokio::time::timeout_at(deadline, ws.next()).await {
        assert!(
            !matches!(decode(frame), Some(Response::Offer(_))),
            "a participant without canSubscribe got a subscriber offer"
        );
    }
}

/// A series' value in a Prometheus text scrape.
fn metric(text: &str, series: &str) -> f64 {
    let line = text
        .lines()
        .find(|l| l.starts_with(series) && l[series.len()..].starts_with(' '))
        .unwrap_or_else(|| panic!("no {series} in\n{text}"));
    line[series.len()..].trim().parse().unwrap()
}

#[tokio::test]
async fn the_forward_delay_is_measured_on_metrics_while_media_flows() {
    let (running, mut call, _track_sid, _data) = call(false).await;
    let url = format!("http://{}/metrics", running.http_addr);
    let scrape = || async {
        reqwest::get(&url)
            .await
            .unwrap()
            .error_for_status()
            .unwrap()
            .text()
            .await
            .unwrap()
    };
    let before = scrape().await;
    assert_eq!(
        metric(&before, "sfu_forward_delay_seconds_count{kind=\"video\"}"),
        0.0
    );
    assert_eq!(metric(&before, "sfu_participants"), 2.0);
    // The media socket's receive buffer is what the sfu asked for, or the system's cap:
    // never the system's default (212,992 bytes), which overflowed at 200 subscribers.
    let rmem_max: f64 = std::fs::read_to_string("/proc/sys/net/core/rmem_max")
        .map_or(0.0, |v| v.trim().parse().unwrap());
    let buffer = metric(&before, "sfu_udp_receive_buffer_bytes");
    assert!(
        buffer >= (sfu::engine::UDP_BUFFER_BYTES as f64).min(rmem_max),
        "receive buffer {buffer} bytes, rmem_max {rmem_max}"
    );

    let received = call.run(Instant::now() + Duration::from_secs(20), 20).await;
    assert!(
        received >= 20,
        "only {received} frames arrived ({} sent)",
        call.sent
    );
    let after = scrape().await;
    // One observation per frame sent to the subscriber: at least every frame it got.
    let count = metric(&after, "sfu_forward_delay_seconds_count{kind=\"video\"}");
    assert!(
        count >= f64::from(received),
        "{count} delays observed for {received} frames received"
    );
    assert_eq!(
        metric(
            &after,
            "sfu_forward_delay_seconds_bucket{kind=\"video\",le=\"+Inf\"}"
        ),
        count
    );
    assert!(metric(&after, "sfu_forward_delay_seconds_sum{kind=\"video\"}") > 0.0);
    assert!(metric(&after, "sfu_forwarded_packets_total") >= count);
    assert!(metric(&after, "sfu_datagrams_in_total") > f64::from(received));
    // Only video was published: the audio series stays empty.
    assert_eq!(
        metric(&after, "sfu_forward_delay_seconds_count{kind=\"audio\"}"),
        0.0
    );
    assert!(metric(&after, "process_cpu_seconds_total") > 0.0);
}
