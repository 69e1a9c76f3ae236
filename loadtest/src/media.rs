//! Media load on the embedded sfu (issue 13, item 7): Rust bots, no browsers. One publisher
//! sends synthetic VP8-shaped video (30 frames a second, a key frame every two seconds and
//! when the sfu asks for one, at
//! `--video-kbps`) and Opus-shaped audio (50 packets a second) through the real `/rtc`
//! signalling and a str0m peer connection, as livekit-client would; N subscribers join the
//! same room and receive both.
//!
//! Every frame carries its sequence number and its send time (microseconds on this
//! process's monotonic clock), so a subscriber bot in the same process knows exactly which
//! frames it missed and how long each took. That delay is publisher bot → sfu → subscriber
//! bot: it includes both bots' str0m (packetizing, SRTP, depacketizing), the loopback
//! network and the bots' scheduling, not only the sfu — an upper bound of the sfu's own
//! forward delay. For video it is the time to the frame's *last* packet (a frame of ~6 KB
//! is five or six packets); audio frames are one packet each, so the audio delay is a
//! packet's.
//!
//! The sfu's own forward delay (packet in → packet out, inside the sfu) is read from its
//! `/metrics` (the `sfu_forward_delay_seconds` histogram) at the start and the end of the
//! measurement; p50/p99 come from the bucket counts of the window, interpolated within a
//! bucket as Prometheus' `histogram_quantile` does.
//!
//! Subscribers join in waves (`--wave`, 20 by default): a wave starts once every bot of the
//! one before has its first video frame (so its ICE and DTLS are done), because a few
//! hundred DTLS handshakes at once on the same cores as the sfu time out.
//!
//! The sfu's CPU time (utime + stime) and memory (RSS) are read from `/proc/<pid>` when
//! `--sfu-pid` is given; the bots' own CPU from `/proc/self`, since they share the machine.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use livekit_protocol as proto;
use prost::Message as _;
use proto::signal_request::Message as Request;
use proto::signal_response::Message as Response;
use serde::Serialize;
use serde_json::json;
use str0m::change::{SdpAnswer, SdpOffer};
use str0m::format::Codec;
use str0m::media::{Direction, MediaKind, MediaTime, Mid};
use str0m::net::{Protocol, Receive};
use str0m::{Candidate, Event, Input, Output, Rtc};
use tokio::net::UdpSocket;
use tokio_tungstenite::tungstenite::Message;

use crate::report::Percentiles;

#[derive(Debug, Clone, clap::Parser)]
#[command(
    name = "loadtest-media",
    about = "Media load on the embedded sfu: one publisher, N subscribers"
)]
pub struct MediaOptions {
    /// The sfu's signalling URL.
    #[arg(long, default_value = "ws://127.0.0.1:7880")]
    pub url: String,
    /// API key and secret the bots sign their tokens with (the sfu's).
    #[arg(long, env = "LIVEKIT_API_KEY")]
    pub api_key: String,
    #[arg(long, env = "LIVEKIT_API_SECRET", hide_env_values = true)]
    pub api_secret: String,
    /// Subscriber bots.
    #[arg(long, default_value_t = 50)]
    pub subscribers: usize,
    /// Video bitrate of the publisher.
    #[arg(long, default_value_t = 1500)]
    pub video_kbps: u64,
    /// Seconds between every subscriber receiving video and the measurement.
    #[arg(long, default_value_t = 5)]
    pub warmup_secs: u64,
    /// Seconds measured.
    #[arg(long, default_value_t = 20)]
    pub measure_secs: u64,
    /// The sfu's process id, for its CPU time and memory.
    #[arg(long)]
    pub sfu_pid: Option<u32>,
    /// Subscribers that join at once; the next wave starts when these all get video.
    #[arg(long, default_value_t = 20)]
    pub wave: usize,
    /// The room the bots meet in.
    #[arg(long, default_value = "bench")]
    pub room: String,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Video frames a second, and a key frame every this many.
const FPS: u64 = 30;
const KEYFRAME_EVERY: u64 = 60;
/// A key frame is this many times the size of a delta frame, as with a real encoder.
const KEYFRAME_WEIGHT: u64 = 5;
/// The publisher answers a key frame request (PLI/FIR from the sfu, for a subscriber that
/// starts or resumes) with its next frame, as a browser's encoder does, but sends such
/// extra key frames at most this often.
const KEYFRAME_REQUEST_GAP: Duration = Duration::from_millis(250);
/// Opus: a 20 ms frame of this many bytes (32 kbit/s).
const AUDIO_FRAME_BYTES: usize = 80;
const AUDIO_INTERVAL: Duration = Duration::from_millis(20);
/// Bytes of a frame before the bots' stamp: a VP8 frame tag and a key frame's start code and size.
const VP8_HEADER: usize = 10;
/// The stamp: sequence number (4 bytes) and send time (8 bytes, µs on [`clock`]).
const STAMP: usize = 12;
/// How long one wave of subscribers may take to join and get its first video frame.
const WAVE_TIMEOUT: Duration = Duration::from_secs(60);
/// The sfu closes a signalling connection that stays silent for 15 s.
const PING_EVERY: Duration = Duration::from_secs(5);

/// Microseconds since the first call: the clock publisher and subscribers share.
fn clock() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_micros() as u64
}

fn stamp(frame: &mut [u8], at: usize, seq: u32) {
    frame[at..at + 4].copy_from_slice(&seq.to_be_bytes());
    frame[at + 4..at + STAMP].copy_from_slice(&clock().to_be_bytes());
}

fn read_stamp(frame: &[u8], at: usize) -> Option<(u32, u64)> {
    let bytes = frame.get(at..at + STAMP)?;
    Some((
        u32::from_be_bytes(bytes[..4].try_into().ok()?),
        u64::from_be_bytes(bytes[4..].try_into().ok()?),
    ))
}

/// A VP8-shaped frame: a key frame's tag has the low bit clear and is followed by the start
/// code and a size (640x480), which is what the sfu's key frame detection looks at.
fn video_frame(key: bool, kbps: u64) -> Vec<u8> {
    let bytes_per_gop = kbps * 1000 / 8 * KEYFRAME_EVERY / FPS;
    let delta = (bytes_per_gop / (KEYFRAME_EVERY - 1 + KEYFRAME_WEIGHT)) as usize;
    let size = if key {
        delta * KEYFRAME_WEIGHT as usize
    } else {
        delta
    }
    .max(VP8_HEADER + STAMP);
    let mut frame = vec![0u8; size];
    frame[0] = if key { 0x10 } else { 0x11 };
    frame[3..6].copy_from_slice(&[0x9d, 0x01, 0x2a]);
    frame[6..8].copy_from_slice(&640u16.to_le_bytes());
    frame[8..10].copy_from_slice(&480u16.to_le_bytes());
    // Not all zeros, so that nothing along the way could compress it.
    for (i, byte) in frame.iter_mut().enumerate().skip(VP8_HEADER + STAMP) {
        *byte = (i as u8).wrapping_mul(31);
    }
    frame
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn token(options: &MediaOptions, identity: &str, publish: bool) -> anyhow::Result<String> {
    let now = SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs();
    let claims = json!({ "iss": options.api_key, "sub": identity, "nbf": now - 1, "exp": now + 3600,
                         "video": { "room": options.room, "roomJoin": true, "canPublish": publish, "canSubscribe": !publish } });
    Ok(encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &EncodingKey::from_secret(options.api_secret.as_bytes()),
    )?)
}

async fn send(ws: &mut Socket, message: Request) -> anyhow::Result<()> {
    ws.send(Message::Binary(
        proto::SignalRequest {
            message: Some(message),
        }
        .encode_to_vec()
        .into(),
    ))
    .await?;
    Ok(())
}

fn decode(frame: &Message) -> Option<Response> {
    match frame {
        Message::Binary(bytes) => proto::SignalResponse::decode(bytes.as_ref()).ok()?.message,
        _ => None,
    }
}

async fn next_response(ws: &mut Socket) -> anyhow::Result<Response> {
    loop {
        let frame = ws.next().await.context("signalling closed")??;
        if let Some(response) = decode(&frame) {
            return Ok(response);
        }
    }
}

async fn join(options: &MediaOptions, identity: &str, publish: bool) -> anyhow::Result<Socket> {
    let url = format!(
        "{}/rtc?access_token={}&auto_subscribe=1&protocol=15",
        options.url,
        token(options, identity, publish)?
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .with_context(|| format!("{identity}: join"))?;
    match next_response(&mut ws).await? {
        Response::Join(_) => Ok(ws),
        other => bail!("{identity}: expected a join response, got {other:?}"),
    }
}

/// A bot's peer connection over its own UDP socket.
struct Peer {
    rtc: Rtc,
    socket: UdpSocket,
    local: std::net::SocketAddr,
    buf: Vec<u8>,
}

impl Peer {
    async fn new(stats: bool) -> anyhow::Result<Peer> {
        let socket = UdpSocket::bind("127.0.0.1:0").await?;
        let local = socket.local_addr()?;
        let mut builder = Rtc::builder();
        if stats {
            builder = builder.set_stats_interval(Some(Duration::from_secs(1)));
        }
        let mut rtc = builder.build(Instant::now());
        rtc.add_local_candidate(Candidate::host(local, "udp")?);
        Ok(Peer {
            rtc,
            socket,
            local,
            buf: vec![0u8; 2048],
        })
    }

    /// Sends what the `Rtc` wants sent and returns its events and when it wants a timeout.
    fn poll(&mut self, events: &mut Vec<Event>) -> anyhow::Result<Instant> {
        loop {
            match self.rtc.poll_output()? {
                Output::Timeout(at) => return Ok(at),
                Output::Transmit(t) => {
                    let _ = self.socket.try_send_to(&t.contents, t.destination);
                }
                Output::Event(event) => events.push(event),
            }
        }
    }

    fn receive(&mut self, n: usize, source: std::net::SocketAddr) -> anyhow::Result<()> {
        if let Ok(contents) = self.buf[..n].try_into() {
            let receive = Receive {
                proto: Protocol::Udp,
                source,
                destination: self.local,
                contents,
            };
            self.rtc
                .handle_input(Input::Receive(Instant::now(), receive))?;
        }
        Ok(())
    }
}

/// Offers the publisher connection (with `tracks`: kind and `MediaStreamTrack` id) and
/// applies the answer, as livekit-client does right after joining.
async fn negotiate_publisher(
    ws: &mut Socket,
    peer: &mut Peer,
    tracks: &[(MediaKind, &str)],
) -> anyhow::Result<Vec<Mid>> {
    let mut change = peer.rtc.sdp_api();
    let mids = tracks
        .iter()
        .map(|(kind, cid)| {
            change.add_media(
                *kind,
                Direction::SendOnly,
                Some("bench".into()),
                Some((*cid).into()),
                None,
            )
        })
        .collect();
    change.add_channel("_reliable".into());
    let (offer, pending) = change.apply().context("nothing to offer")?;
    let description = proto::SessionDescription {
        r#type: "offer".into(),
        sdp: offer.to_sdp_string(),
        id: 1,
        ..Default::default()
    };
    send(ws, Request::Offer(description)).await?;
    loop {
        if let Response::Answer(answer) = next_response(ws).await? {
            peer.rtc
                .sdp_api()
                .accept_answer(pending, SdpAnswer::from_sdp_string(&answer.sdp)?)?;
            return Ok(mids);
        }
    }
}

fn ping() -> Request {
    Request::Ping(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64),
    )
}

/// What the publisher sent, and the frame numbers the measurement spans.
#[derive(Default)]
struct Shared {
    /// Set while measuring: subscribers count only frames sent in the window.
    measuring: AtomicBool,
    /// Video and audio frame numbers at the start and the end of the window.
    video_window: Mutex<(u32, u32)>,
    audio_window: Mutex<(u32, u32)>,
    /// Subscribers that got their first video frame.
    receiving: AtomicU32,
    /// Key frames the publisher sent because the sfu asked (PLI/FIR), over the whole run.
    keyframes_on_request: AtomicU32,
    stop: AtomicBool,
}

/// One subscriber's frames (number, delay µs) of the whole run.
#[derive(Default)]
struct Received {
    video: Vec<(u32, u32)>,
    audio: Vec<(u32, u32)>,
    /// RTP packets received (str0m's ingress stats, summed over the tracks).
    packets: u64,
    nacks: u64,
}

async fn publisher(
    options: MediaOptions,
    shared: Arc<Shared>,
    ready: tokio::sync::oneshot::Sender<anyhow::Result<()>>,
) {
    let result = publish(&options, &shared, Some(ready)).await;
    if let Err(e) = result {
        eprintln!("publisher: {e:#}");
        shared.stop.store(true, Ordering::SeqCst);
    }
}

async fn publish(
    options: &MediaOptions,
    shared: &Shared,
    mut ready: Option<tokio::sync::oneshot::Sender<anyhow::Result<()>>>,
) -> anyhow::Result<()> {
    let mut ws = join(options, "bench-publisher", true).await?;
    for (cid, kind) in [
        ("bench-camera", proto::TrackType::Video),
        ("bench-microphone", proto::TrackType::Audio),
    ] {
        let source = if kind == proto::TrackType::Video {
            proto::TrackSource::Camera
        } else {
            proto::TrackSource::Microphone
        };
        let request = proto::AddTrackRequest {
            cid: cid.into(),
            r#type: kind as i32,
            source: source as i32,
            width: 640,
            height: 480,
            ..Default::default()
        };
        send(&mut ws, Request::AddTrack(request)).await?;
        loop {
            if let Response::TrackPublished(_) = next_response(&mut ws).await? {
                break;
            }
        }
    }
    let mut peer = Peer::new(false).await?;
    let mids = negotiate_publisher(
        &mut ws,
        &mut peer,
        &[
            (MediaKind::Video, "bench-camera"),
            (MediaKind::Audio, "bench-microphone"),
        ],
    )
    .await?;
    let (video_mid, audio_mid) = (mids[0], mids[1]);
    let mut connected = false;
    let start = Instant::now();
    let (mut video_sent, mut audio_sent) = (0u64, 0u64);
    let frame_interval = Duration::from_micros(1_000_000 / FPS);
    let mut next_ping = Instant::now() + PING_EVERY;
    let mut events = Vec::new();
    let (mut key_requested, mut last_key) = (false, start);
    while !shared.stop.load(Ordering::Relaxed) {
        let now = Instant::now();
        if connected {
            let elapsed = now.duration_since(start);
            if elapsed >= frame_interval * video_sent as u32 {
                let key = video_sent.is_multiple_of(KEYFRAME_EVERY)
                    || (key_requested && now.duration_since(last_key) >= KEYFRAME_REQUEST_GAP);
                if key {
                    if key_requested {
                        shared.keyframes_on_request.fetch_add(1, Ordering::Relaxed);
                    }
                    (key_requested, last_key) = (false, now);
                }
                let mut frame = video_frame(key, options.video_kbps);
                stamp(&mut frame, VP8_HEADER, video_sent as u32);
                let writer = peer.rtc.writer(video_mid).context("no video writer")?;
                let pt = writer
                    .payload_params()
                    .find(|p| p.spec().codec == Codec::Vp8)
                    .context("no VP8")?
                    .pt();
                writer.write(
                    pt,
                    now,
                    MediaTime::from_90khz(video_sent * 90_000 / FPS),
                    frame,
                )?;
                video_sent += 1;
                update_window(shared, &shared.video_window, video_sent as u32);
            }
            if elapsed >= AUDIO_INTERVAL * audio_sent as u32 {
                let mut frame = vec![0x5a; AUDIO_FRAME_BYTES];
                stamp(&mut frame, 0, audio_sent as u32);
                let writer = peer.rtc.writer(audio_mid).context("no audio writer")?;
                let pt = writer
                    .payload_params()
                    .find(|p| p.spec().codec == Codec::Opus)
                    .context("no Opus")?
                    .pt();
                // Speech level, as a browser writes it (the sfu's speaker detection reads it).
                let writer = writer.audio_level(-20, true);
                writer.write(
                    pt,
                    now,
                    MediaTime::new(audio_sent * 960, str0m::media::Frequency::FORTY_EIGHT_KHZ),
                    frame,
                )?;
                audio_sent += 1;
                update_window(shared, &shared.audio_window, audio_sent as u32);
            }
        }
        if now >= next_ping {
            send(&mut ws, ping()).await?;
            next_ping = now + PING_EVERY;
        }
        let wake = peer.poll(&mut events)?;
        for event in events.drain(..) {
            match event {
                Event::Connected => {
                    connected = true;
                    if let Some(ready) = ready.take() {
                        let _ = ready.send(Ok(()));
                    }
                }
                Event::KeyframeRequest(request) if request.mid == video_mid => key_requested = true,
                _ => {}
            }
        }
        let next_video = start + frame_interval * video_sent as u32;
        let next_audio = start + AUDIO_INTERVAL * audio_sent as u32;
        let wake = wake.min(next_video).min(next_audio).min(next_ping);
        tokio::select! {
            received = peer.socket.recv_from(&mut peer.buf) => {
                let (n, source) = received?;
                peer.receive(n, source)?;
            }
            message = ws.next() => match message {
                Some(Ok(_)) => {}
                _ => bail!("publisher's signalling closed"),
            },
            () = tokio::time::sleep_until(wake.into()) => {
                peer.rtc.handle_input(Input::Timeout(Instant::now()))?;
            }
        }
    }
    Ok(())
}

/// Moves the measurement window's bounds along: its start while not yet measuring, its end
/// while measuring.
fn update_window(shared: &Shared, window: &Mutex<(u32, u32)>, sent: u32) {
    let mut window = window.lock().unwrap_or_else(|e| e.into_inner());
    if shared.measuring.load(Ordering::SeqCst) {
        window.1 = sent;
    } else if window.1 == 0 {
        window.0 = sent;
    }
}

async fn subscriber(
    options: MediaOptions,
    number: usize,
    shared: Arc<Shared>,
) -> anyhow::Result<Received> {
    let identity = format!("bench-subscriber-{number}");
    let mut ws = join(&options, &identity, false).await?;
    // livekit-client negotiates its (empty) publisher connection first; the sfu offers the
    // room's tracks once it has.
    // That connection is kept and driven as the browser does: the sfu drops a participant
    // one of whose peer connections fails (ICE or DTLS timing out).
    let mut unused = Peer::new(false).await?;
    negotiate_publisher(&mut ws, &mut unused, &[]).await?;
    let mut unused_events = Vec::new();
    let mut peer = Peer::new(true).await?;
    let mut received = Received::default();
    let mut video_mid = None;
    let mut first_video = true;
    let mut next_ping = Instant::now() + PING_EVERY;
    let mut events = Vec::new();
    let mut packets = std::collections::HashMap::new();
    while !shared.stop.load(Ordering::Relaxed) {
        let unused_wake = unused.poll(&mut unused_events)?;
        unused_events.clear();
        let wake = peer.poll(&mut events)?.min(unused_wake);
        for event in events.drain(..) {
            match event {
                Event::MediaAdded(added) if added.kind == MediaKind::Video => {
                    video_mid = Some(added.mid)
                }
                Event::MediaData(data) => {
                    let now = clock();
                    let video = Some(data.mid) == video_mid;
                    let Some((seq, sent)) =
                        read_stamp(&data.data, if video { VP8_HEADER } else { 0 })
                    else {
                        continue;
                    };
                    let delay = now.saturating_sub(sent).min(u64::from(u32::MAX)) as u32;
                    if video {
                        if first_video {
                            first_video = false;
                            shared.receiving.fetch_add(1, Ordering::SeqCst);
                        }
                        received.video.push((seq, delay));
                    } else {
                        received.audio.push((seq, delay));
                    }
                }
                Event::MediaIngressStats(stats) => {
                    // Totals per stream since the start; the last one of each is kept.
                    packets.insert((stats.mid, stats.rid), (stats.packets, stats.nacks));
                }
                _ => {}
            }
        }
        if Instant::now() >= next_ping {
            send(&mut ws, ping()).await?;
            next_ping = Instant::now() + PING_EVERY;
        }
        let wake = wake.min(next_ping);
        tokio::select! {
            result = peer.socket.recv_from(&mut peer.buf) => {
                let (n, source) = result?;
                peer.receive(n, source)?;
                // Take what else is waiting before polling again.
                while let Ok((n, source)) = peer.socket.try_recv_from(&mut peer.buf) {
                    peer.receive(n, source)?;
                }
            }
            message = ws.next() => match message {
                Some(Ok(frame)) => {
                    if let Some(Response::Offer(offer)) = decode(&frame) {
                        let answer = peer.rtc.sdp_api().accept_offer(SdpOffer::from_sdp_string(&offer.sdp)?)?;
                        let answer = proto::SessionDescription { r#type: "answer".into(), sdp: answer.to_sdp_string(), id: offer.id, ..Default::default() };
                        send(&mut ws, Request::Answer(answer)).await?;
                    }
                }
                _ => bail!("{identity}: signalling closed"),
            },
            result = unused.socket.recv_from(&mut unused.buf) => {
                let (n, source) = result?;
                unused.receive(n, source)?;
            }
            () = tokio::time::sleep_until(wake.into()) => {
                let now = Instant::now();
                peer.rtc.handle_input(Input::Timeout(now))?;
                unused.rtc.handle_input(Input::Timeout(now))?;
            }
        }
    }
    received.packets = packets.values().map(|(p, _)| p).sum();
    received.nacks = packets.values().map(|(_, n)| n).sum();
    Ok(received)
}

/// CPU time (clock ticks, utime + stime) and resident memory (bytes) of a process.
fn process_usage(pid: u32) -> anyhow::Result<(u64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let after = stat
        .rsplit_once(')')
        .context("unexpected /proc/pid/stat")?
        .1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 here (0-based: 11, 12).
    let ticks = fields.get(11).context("utime")?.parse::<u64>()?
        + fields.get(12).context("stime")?.parse::<u64>()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let rss_kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .context("VmRSS")?
        .parse::<u64>()?;
    Ok((ticks, rss_kb * 1024))
}

/// Clock ticks per second of `/proc/<pid>/stat` (USER_HZ): 100 on every Linux we build for.
const TICKS_PER_SECOND: f64 = 100.0;

#[derive(Debug, Serialize)]
pub struct MediaReport {
    pub subscribers: usize,
    pub video_kbps: u64,
    pub measure_secs: f64,
    /// Video and audio streams the sfu forwarded during the measurement (subscribers × 2).
    pub forwarded_streams: usize,
    /// The sfu's CPU over the measurement, in cores (1.0 = one core busy).
    pub sfu_cores: Option<f64>,
    /// … per forwarded stream, in per cent of one core.
    pub sfu_core_percent_per_stream: Option<f64>,
    /// The bots' own CPU (this process: publisher and subscribers) over the measurement, in cores.
    pub bots_cores: f64,
    /// The sfu's resident memory before the subscribers joined and after the measurement.
    pub sfu_rss_before_mib: Option<f64>,
    pub sfu_rss_after_mib: Option<f64>,
    pub sfu_rss_per_subscriber_kib: Option<f64>,
    /// Frames sent during the measurement, and frames lost (sent in the window, never
    /// received), summed over all subscribers.
    pub video_frames_sent: u32,
    pub video_frames_lost: u64,
    pub audio_frames_sent: u32,
    pub audio_frames_lost: u64,
    /// Subscribers that lost at least one frame.
    pub subscribers_with_loss: usize,
    /// Inside the sfu, from its `/metrics` over the window: packet in → packet out per
    /// subscriber (see `sfu::metrics`). `None` when the sfu's /metrics could not be read.
    pub sfu_forward_delay_audio: Option<BucketPercentiles>,
    pub sfu_forward_delay_video: Option<BucketPercentiles>,
    /// Publisher bot → sfu → subscriber bot, same clock (see the module's notes).
    pub video_frame_delay: Percentiles,
    pub audio_packet_delay: Percentiles,
    /// RTP packets the subscribers received over the whole run (str0m's stats), and NACKs
    /// they sent.
    pub subscriber_packets: u64,
    pub subscriber_nacks: u64,
    /// Subscribers that failed (error), if any.
    pub failed_subscribers: usize,
    /// Key frames the publisher sent because the sfu asked for one (a subscriber starting
    /// or resuming), over the whole run.
    pub keyframes_on_request: u32,
}

impl std::fmt::Display for MediaReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "subscribers {}  video {} kbit/s  measured {:.1} s",
            self.subscribers, self.video_kbps, self.measure_secs
        )?;
        match (self.sfu_cores, self.sfu_core_percent_per_stream) {
            (Some(cores), Some(per)) => writeln!(
                f,
                "sfu cpu {cores:.3} cores, {per:.3} % of a core per forwarded stream ({} streams)",
                self.forwarded_streams
            )?,
            _ => writeln!(f, "sfu cpu: no --sfu-pid")?,
        }
        writeln!(
            f,
            "bots cpu {:.3} cores (publisher and {} subscribers, this process)",
            self.bots_cores, self.subscribers
        )?;
        if let (Some(before), Some(after), Some(per)) = (
            self.sfu_rss_before_mib,
            self.sfu_rss_after_mib,
            self.sfu_rss_per_subscriber_kib,
        ) {
            writeln!(
                f,
                "sfu rss {before:.1} MiB → {after:.1} MiB, {per:.0} KiB per subscriber"
            )?;
        }
        writeln!(
            f,
            "video frames sent {} lost {} (of {} expected)  audio frames sent {} lost {}  subscribers with loss {}",
            self.video_frames_sent,
            self.video_frames_lost,
            u64::from(self.video_frames_sent) * self.subscribers as u64,
            self.audio_frames_sent,
            self.audio_frames_lost,
            self.subscribers_with_loss
        )?;
        for (kind, delay) in [
            ("audio", &self.sfu_forward_delay_audio),
            ("video", &self.sfu_forward_delay_video),
        ] {
            match delay {
                Some(delay) => writeln!(
                    f,
                    "sfu forward delay {kind} (in the sfu, packet in → out): {delay}"
                )?,
                None => writeln!(f, "sfu forward delay {kind}: /metrics not read")?,
            }
        }
        writeln!(
            f,
            "video frame delay (bot to bot): {}",
            self.video_frame_delay
        )?;
        writeln!(
            f,
            "audio packet delay (bot to bot): {}",
            self.audio_packet_delay
        )?;
        write!(
            f,
            "rtp packets received {}  nacks sent {}  failed subscribers {}  key frames on request {}",
            self.subscriber_packets, self.subscriber_nacks, self.failed_subscribers, self.keyframes_on_request
        )
    }
}

pub async fn run(options: &MediaOptions) -> anyhow::Result<MediaReport> {
    clock();
    let shared = Arc::new(Shared::default());
    let (ready, publisher_ready) = tokio::sync::oneshot::channel();
    let publisher_task = tokio::spawn(publisher(options.clone(), shared.clone(), ready));
    publisher_ready.await.context("publisher failed")??;
    let usage = |pid: Option<u32>| pid.map(process_usage).transpose();
    let before = usage(options.sfu_pid)?;

    let mut subscribers = Vec::new();
    let wave = options.wave.max(1);
    let joins_started = Instant::now();
    while subscribers.len() < options.subscribers {
        let wave_end = (subscribers.len() + wave).min(options.subscribers);
        for number in subscribers.len()..wave_end {
            subscribers.push(tokio::spawn(subscriber(
                options.clone(),
                number,
                shared.clone(),
            )));
            // A join is a few signalling round trips; spreading them keeps the sfu's answers prompt.
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let deadline = Instant::now() + WAVE_TIMEOUT;
        while (shared.receiving.load(Ordering::SeqCst) as usize) < wave_end {
            if Instant::now() > deadline || shared.stop.load(Ordering::SeqCst) {
                shared.stop.store(true, Ordering::SeqCst);
                bail!(
                    "only {} of the first {wave_end} subscribers got video within {WAVE_TIMEOUT:?} of their wave's start",
                    shared.receiving.load(Ordering::SeqCst),
                );
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    eprintln!(
        "{} subscribers receive video after {:.1} s (waves of {wave})",
        options.subscribers,
        joins_started.elapsed().as_secs_f64()
    );
    tokio::time::sleep(Duration::from_secs(options.warmup_secs)).await;

    let metrics_url = metrics_url(&options.url);
    let delays_start = scrape_forward_delay(&metrics_url).await;
    let cpu_start = usage(options.sfu_pid)?;
    let bots_start = process_usage(std::process::id())?;
    let started = Instant::now();
    shared.measuring.store(true, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_secs(options.measure_secs)).await;
    shared.measuring.store(false, Ordering::SeqCst);
    let measured = started.elapsed();
    let cpu_end = usage(options.sfu_pid)?;
    let bots_end = process_usage(std::process::id())?;
    let delays_end = scrape_forward_delay(&metrics_url).await;
    let window_delay = |kind: &str| match (&delays_start, &delays_end) {
        (Ok(a), Ok(b)) => BucketCounts::window(a.get(kind)?, b.get(kind)?)?.percentiles(),
        _ => None,
    };
    if let Err(e) = &delays_end {
        eprintln!("the sfu's /metrics ({metrics_url}): {e:#}");
    }
    // Frames sent at the very end of the window are still on their way.
    tokio::time::sleep(Duration::from_secs(2)).await;
    shared.stop.store(true, Ordering::SeqCst);
    let _ = publisher_task.await;

    let video_window = *shared
        .video_window
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let audio_window = *shared
        .audio_window
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let in_window = |window: (u32, u32), seq: u32| seq >= window.0 && seq < window.1;
    let (mut video_delays, mut audio_delays) = (Vec::new(), Vec::new());
    let (mut video_lost, mut audio_lost, mut with_loss, mut failed) = (0u64, 0u64, 0usize, 0usize);
    let (mut packets, mut nacks) = (0, 0);
    for task in subscribers {
        let received = match task.await {
            Ok(Ok(received)) => received,
            Ok(Err(e)) => {
                eprintln!("{e:#}");
                failed += 1;
                continue;
            }
            Err(e) => {
                eprintln!("subscriber task: {e}");
                failed += 1;
                continue;
            }
        };
        let mut seen_video = std::collections::HashSet::new();
        for &(seq, delay) in received
            .video
            .iter()
            .filter(|(seq, _)| in_window(video_window, *seq))
        {
            if seen_video.insert(seq) {
                video_delays.push(delay);
            }
        }
        let mut seen_audio = std::collections::HashSet::new();
        for &(seq, delay) in received
            .audio
            .iter()
            .filter(|(seq, _)| in_window(audio_window, *seq))
        {
            if seen_audio.insert(seq) {
                audio_delays.push(delay);
            }
        }
        let lost_video = u64::from(video_window.1 - video_window.0) - seen_video.len() as u64;
        let lost_audio = u64::from(audio_window.1 - audio_window.0) - seen_audio.len() as u64;
        if lost_video + lost_audio > 0 {
            with_loss += 1;
        }
        video_lost += lost_video;
        audio_lost += lost_audio;
        packets += received.packets;
        nacks += received.nacks;
    }
    video_delays.sort_unstable();
    audio_delays.sort_unstable();
    let streams = options.subscribers * 2;
    let cores = match (cpu_start, cpu_end) {
        (Some((a, _)), Some((b, _))) => {
            Some((b - a) as f64 / TICKS_PER_SECOND / measured.as_secs_f64())
        }
        _ => None,
    };
    let mib = |bytes: u64| bytes as f64 / 1024.0 / 1024.0;
    Ok(MediaReport {
        subscribers: options.subscribers,
        video_kbps: options.video_kbps,
        measure_secs: measured.as_secs_f64(),
        forwarded_streams: streams,
        sfu_cores: cores,
        sfu_core_percent_per_stream: cores.map(|c| c * 100.0 / streams.max(1) as f64),
        bots_cores: (bots_end.0 - bots_start.0) as f64 / TICKS_PER_SECOND / measured.as_secs_f64(),
        sfu_rss_before_mib: before.map(|(_, rss)| mib(rss)),
        sfu_rss_after_mib: cpu_end.map(|(_, rss)| mib(rss)),
        sfu_rss_per_subscriber_kib: match (before, cpu_end) {
            (Some((_, a)), Some((_, b))) => {
                Some((b.saturating_sub(a)) as f64 / 1024.0 / options.subscribers.max(1) as f64)
            }
            _ => None,
        },
        video_frames_sent: video_window.1 - video_window.0,
        video_frames_lost: video_lost,
        audio_frames_sent: audio_window.1 - audio_window.0,
        audio_frames_lost: audio_lost,
        subscribers_with_loss: with_loss,
        sfu_forward_delay_audio: window_delay("audio"),
        sfu_forward_delay_video: window_delay("video"),
        video_frame_delay: Percentiles::of(&video_delays),
        audio_packet_delay: Percentiles::of(&audio_delays),
        subscriber_packets: packets,
        subscriber_nacks: nacks,
        failed_subscribers: failed,
        keyframes_on_request: shared.keyframes_on_request.load(Ordering::Relaxed),
    })
}

/// `/metrics` of the sfu whose signalling is at `url` (`ws://host:port` → `http://host:port/metrics`).
fn metrics_url(url: &str) -> String {
    let base = url.trim_end_matches('/');
    let base = base
        .strip_prefix("ws://")
        .map(|rest| format!("http://{rest}"))
        .unwrap_or_else(|| {
            base.strip_prefix("wss://")
                .map(|rest| format!("https://{rest}"))
                .unwrap_or_else(|| base.to_owned())
        });
    format!("{base}/metrics")
}

/// The `sfu_forward_delay_seconds` histogram of one `kind` label: cumulative counts per
/// upper bound (seconds, `+Inf` last), and the sum of the observations.
#[derive(Debug, Clone, PartialEq)]
struct BucketCounts {
    buckets: Vec<(f64, u64)>,
    sum: f64,
}

/// p50/p99 from a Prometheus histogram's buckets (linear within a bucket, as
/// `histogram_quantile`), and the mean from its sum.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BucketPercentiles {
    pub count: u64,
    pub mean_ms: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    /// Observations over 5 ms (the aim's p99 bound), per cent.
    pub over_5ms_percent: f64,
}

impl std::fmt::Display for BucketPercentiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "p50 {:.2} ms  p99 {:.2} ms  mean {:.2} ms  over 5 ms {:.3} %  ({} forwards)",
            self.p50_ms, self.p99_ms, self.mean_ms, self.over_5ms_percent, self.count
        )
    }
}

impl BucketCounts {
    /// What was observed between two scrapes.
    fn window(start: &BucketCounts, end: &BucketCounts) -> Option<BucketCounts> {
        if start.buckets.len() != end.buckets.len() {
            return None;
        }
        let buckets = start
            .buckets
            .iter()
            .zip(&end.buckets)
            .map(|(&(_, a), &(bound, b))| (bound, b.saturating_sub(a)))
            .collect();
        Some(BucketCounts {
            buckets,
            sum: end.sum - start.sum,
        })
    }

    fn count(&self) -> u64 {
        self.buckets.last().map_or(0, |&(_, n)| n)
    }

    fn quantile(&self, q: f64) -> f64 {
        let rank = q * self.count() as f64;
        let mut lower = (0.0, 0u64);
        for &(bound, cumulative) in &self.buckets {
            if cumulative as f64 >= rank {
                if bound.is_infinite() {
                    // Beyond the last bound: all that can be said is "more than it".
                    return lower.0;
                }
                let in_bucket = (cumulative - lower.1) as f64;
                let fraction = if in_bucket > 0.0 {
                    (rank - lower.1 as f64) / in_bucket
                } else {
                    1.0
                };
                return lower.0 + (bound - lower.0) * fraction;
            }
            lower = (bound, cumulative);
        }
        lower.0
    }

    fn percentiles(&self) -> Option<BucketPercentiles> {
        let count = self.count();
        if count == 0 {
            return None;
        }
        let within_5ms = self
            .buckets
            .iter()
            .find(|&&(bound, _)| (bound - 0.005).abs() < 1e-9)
            .map_or(0, |&(_, n)| n);
        Some(BucketPercentiles {
            count,
            mean_ms: self.sum * 1000.0 / count as f64,
            p50_ms: self.quantile(0.5) * 1000.0,
            p99_ms: self.quantile(0.99) * 1000.0,
            over_5ms_percent: (count - within_5ms) as f64 * 100.0 / count as f64,
        })
    }
}

/// The forward delay histograms in a `/metrics` text, by `kind` label.
fn parse_forward_delay(text: &str) -> std::collections::HashMap<String, BucketCounts> {
    let mut by_kind: std::collections::HashMap<String, BucketCounts> =
        std::collections::HashMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("sfu_forward_delay_seconds_") else {
            continue;
        };
        let Some((series, value)) = rest.rsplit_once(' ') else {
            continue;
        };
        let Some((name, labels)) = series.split_once('{') else {
            continue;
        };
        let label = |key: &str| {
            labels.split(',').find_map(|l| {
                l.strip_prefix(&format!("{key}=\""))
                    .map(|v| v.trim_end_matches(['"', '}']))
            })
        };
        let Some(kind) = label("kind") else { continue };
        let entry = by_kind.entry(kind.to_owned()).or_insert(BucketCounts {
            buckets: Vec::new(),
            sum: 0.0,
        });
        match name {
            "bucket" => {
                let bound = match label("le") {
                    Some("+Inf") => f64::INFINITY,
                    Some(bound) => bound.parse().unwrap_or(f64::NAN),
                    None => continue,
                };
                if let Ok(n) = value.parse() {
                    entry.buckets.push((bound, n));
                }
            }
            "sum" => entry.sum = value.parse().unwrap_or(0.0),
            _ => {}
        }
    }
    by_kind
}

async fn scrape_forward_delay(
    url: &str,
) -> anyhow::Result<std::collections::HashMap<String, BucketCounts>> {
    let text = reqwest::get(url).await?.error_for_status()?.text().await?;
    let parsed = parse_forward_delay(&text);
    if parsed.is_empty() {
        bail!("no sfu_forward_delay_seconds in {url}");
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_carry_their_stamp_and_add_up_to_the_bitrate() {
        let mut frame = video_frame(false, 1500);
        stamp(&mut frame, VP8_HEADER, 7);
        let (seq, sent) = read_stamp(&frame, VP8_HEADER).unwrap();
        assert_eq!(seq, 7);
        assert!(sent <= clock());
        assert_eq!(frame[0] & 1, 1, "a delta frame");
        assert_eq!(video_frame(true, 1500)[0] & 1, 0, "a key frame");
        let gop: usize = (0..KEYFRAME_EVERY)
            .map(|n| video_frame(n.is_multiple_of(KEYFRAME_EVERY), 1500).len())
            .sum();
        let kbps = gop as u64 * 8 * FPS / KEYFRAME_EVERY / 1000;
        assert!((1490..=1500).contains(&kbps), "{kbps} kbit/s");
    }

    #[test]
    fn the_sfu_forward_delay_is_read_from_its_histogram_over_the_window() {
        assert_eq!(
            metrics_url("ws://127.0.0.1:7880/"),
            "http://127.0.0.1:7880/metrics"
        );
        let scrape = |counts: [u64; 4], sum: f64| {
            let bounds = ["0.001", "0.002", "0.005", "+Inf"];
            let mut text = String::from("# TYPE sfu_forward_delay_seconds histogram\n");
            for (bound, n) in bounds.iter().zip(counts) {
                text += &format!(
                    "sfu_forward_delay_seconds_bucket{{kind=\"audio\",le=\"{bound}\"}} {n}\n"
                );
            }
            text += &format!(
                "sfu_forward_delay_seconds_sum{{kind=\"audio\"}} {sum}\nsfu_forward_delay_seconds_count{{kind=\"audio\"}} {}\n",
                counts[3]
            );
            parse_forward_delay(&text).remove("audio").unwrap()
        };
        let start = scrape([10, 10, 10, 10], 0.005);
        // In the window: 50 under 1 ms, 49 in (1, 2] ms, 1 in (2, 5] ms.
        let end = scrape([60, 109, 110, 110], 0.005 + 0.1);
        let window = BucketCounts::window(&start, &end)
            .unwrap()
            .percentiles()
            .unwrap();
        assert_eq!(window.count, 100);
        assert!((window.p50_ms - 1.0).abs() < 1e-9, "{window:?}");
        assert!((window.p99_ms - 2.0).abs() < 1e-9, "{window:?}");
        assert!((window.mean_ms - 1.0).abs() < 1e-9, "{window:?}");
        assert_eq!(window.over_5ms_percent, 0.0);
        let slow = BucketCounts::window(&start, &scrape([10, 10, 10, 20], 1.0))
            .unwrap()
            .percentiles()
            .unwrap();
        assert_eq!(slow.over_5ms_percent, 100.0);
        assert!(
            (slow.p99_ms - 5.0).abs() < 1e-9,
            "beyond the last bound only the bound is known: {slow:?}"
        );
    }

    #[test]
    fn cpu_and_memory_are_read_from_proc() {
        let (_, rss) = process_usage(std::process::id()).unwrap();
        assert!(rss > 1024 * 1024, "{rss}");
    }
}
