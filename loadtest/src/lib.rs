//! Joins one guide and many attendees through the real REST join and WebSocket paths,
//! lets the guide switch slides (and highlight products) at a set rate, and measures
//! join rate, how long each change takes to reach each attendee, deliveries per second,
//! errors, the hubs' memory per connection and the CPU time hub and generator spend.
//!
//! A run can be split over several processes (`--shard I/N`): each joins its share of
//! the attendees, shard 0 is also the guide, and `--merge` makes one report of their
//! `--out` files. Every slide change carries its send time (Unix microseconds) in its
//! section id, so any process on the machine can time it.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use protocol::action::Action;
use protocol::frame::{ClientFrame, Resume, ServerFrame};
use serde_json::{json, Value};
use tokio::net::TcpSocket;
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

pub mod engagement;
pub mod media;
pub mod report;
pub mod shop;

use engagement::{EngagementReport, Plan, PollCount, SeenPoll, POLL_REF};
use report::unix_us;
pub use report::{Continuity, Percentiles, Report, Times};

/// This process's part of a run split over several load generators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `I/N`, e.g. `0/3`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (index, count) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?}: expected I/N, e.g. 0/3"))?;
        let index: usize = index
            .trim()
            .parse()
            .map_err(|_| format!("{s:?}: I is not a number"))?;
        let count: usize = count
            .trim()
            .parse()
            .map_err(|_| format!("{s:?}: N is not a number"))?;
        if index >= count {
            return Err(format!("{s:?}: I must be below N"));
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Shard 0 joins the guide and switches the slides.
    pub fn is_guide(&self) -> bool {
        self.index == 0
    }

    /// The numbers (of all `clients`) of the attendees this shard joins.
    pub fn attendees(&self, clients: usize) -> impl Iterator<Item = usize> {
        (self.index..clients).step_by(self.count)
    }
}

#[derive(Debug, Clone, clap::Parser)]
#[command(name = "loadtest", about = "Salesroom load test")]
pub struct Options {
    /// The public origin (storefront-proxy), for the REST joins.
    #[arg(long, default_value = "http://127.0.0.1:8000")]
    pub base_url: String,
    /// Connect the sockets here instead of the join response's `hubUrl` (e.g. straight
    /// to a hub, `ws://127.0.0.1:8100/ws`). Several, comma-separated, are used in turn.
    #[arg(long, value_delimiter = ',')]
    pub hub_url: Vec<String>,
    /// The hubs' `/metrics` (comma-separated): memory per connection, CPU time, and
    /// when the joins have settled.
    #[arg(long, value_delimiter = ',')]
    pub hub_metrics: Vec<String>,
    #[arg(long, default_value = "SWSCSALESROOMDEMO000000000")]
    pub access_key: String,
    #[arg(long, default_value = "demo")]
    pub presentation_path: String,
    /// Simulated attendees (of all shards).
    #[arg(long, default_value_t = 50)]
    pub clients: usize,
    /// Local addresses 127.0.0.1 … 127.0.0.N to spread connections over (each has its
    /// own ~28,000 ephemeral ports).
    #[arg(long, default_value_t = 1)]
    pub source_addresses: u8,
    /// Joins in flight at once.
    #[arg(long, default_value_t = 64)]
    pub join_concurrency: usize,
    /// Slide changes the guide makes.
    #[arg(long, default_value_t = 50)]
    pub slides: u32,
    /// Pause between slide changes.
    #[arg(long, default_value_t = 100)]
    pub interval_ms: u64,
    /// Highlight a product after every this many slide changes (0: never).
    #[arg(long, default_value_t = 5)]
    pub highlight_every: u32,
    /// Seconds to hold the idle connections, once the joins settled, before the slide
    /// changes (memory reading).
    #[arg(long, default_value_t = 2)]
    pub hold_secs: u64,
    /// The first this many slide changes are reported apart ("right after the joins");
    /// the rest is the steady state.
    #[arg(long, default_value_t = 5)]
    pub first_slides: u32,
    /// `I/N`: join the attendees whose number modulo N is I; shard 0 is the guide and
    /// starts the slide changes once the hubs hold every shard's attendees.
    #[arg(long, default_value = "0/1")]
    pub shard: Shard,
    /// Also write the report with every latency to this file, for `--merge`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Instead of a run: one report of these `--out` files (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub merge: Vec<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Survive the hubs going away (drains, crashes, a Redis restart): attendees
    /// reconnect and resume from their last `seq` when their socket closes, and the guide
    /// retries each slide change until it is acknowledged. Every attendee's events are
    /// checked for continuity either way (`continuity` in the report).
    #[arg(long)]
    pub resume: bool,
    /// Exit with a failure unless every attendee joined, received every event exactly
    /// once and in order, and ended on the last slide.
    #[arg(long)]
    pub strict: bool,
    /// Engagement (issue #19): chat messages per second the attendees send while the
    /// guide changes slides (see [`engagement`]).
    #[arg(long, default_value_t = 0.0)]
    pub chat_per_sec: f64,
    /// Engagement: reaction taps per second the attendees send.
    #[arg(long, default_value_t = 0.0)]
    pub reactions_per_sec: f64,
    /// Engagement: the guide opens a poll with the first slide change and this many
    /// attendees (of all shards) vote once each within the window.
    #[arg(long, default_value_t = 0)]
    pub poll_votes: usize,
    /// Engagement: the seconds the votes, chats and reactions are spread over, from the
    /// poll's opening (let the slide changes last as long).
    #[arg(long, default_value_t = 10.0)]
    pub poll_window_secs: f64,
    /// The hubs' shared secret: with engagement, the poll as the hub stored it is read
    /// through `GET /internal/appointments/{id}/state` next to the `--hub-metrics` URL.
    #[arg(long, env = "HUB_SECRET", hide_env_values = true)]
    pub hub_secret: Option<String>,
    /// Keep the generator's runtime from ever sleeping (a task per worker that yields in
    /// a loop), so that the hub's loopback writes do not pay for waking it: on loopback
    /// the kernel wakes the receiving process in the sender's system call, a cost a real
    /// room's browsers, on other machines, never put on the hub. Burns the generator's
    /// cores: use it only with the generator pinned to cores of its own
    /// (`LOADTEST_CPUS`).
    #[arg(long)]
    pub busy_poll: bool,
}

/// Tasks that keep every worker of the runtime busy (see [`Options::busy_poll`]): a task
/// that yields is woken only after its worker polled the I/O driver without blocking, so
/// no worker parks in `epoll_wait`. Stopped when the returned guard is dropped.
fn spin_workers() -> Spinners {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    Spinners(
        (0..workers)
            .map(|_| {
                tokio::spawn(async {
                    loop {
                        tokio::task::yield_now().await;
                    }
                })
            })
            .collect(),
    )
}

struct Spinners(Vec<tokio::task::JoinHandle<()>>);

impl Drop for Spinners {
    fn drop(&mut self) {
        for task in &self.0 {
            task.abort();
        }
    }
}

async fn post(
    http: &reqwest::Client,
    url: String,
    headers: &[(&str, &str)],
    body: Value,
) -> anyhow::Result<Value> {
    let mut request = http.post(&url).json(&body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request
        .send()
        .await
        .with_context(|| format!("POST {url}"))?;
    let status = response.status();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        bail!("POST {url}: {status} {body}");
    }
    Ok(body)
}

type Socket = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// How long an attendee waits for the next slide change once they have started.
const RECEIVE_TIMEOUT: Duration = Duration::from_secs(30);
/// Why an attendee's receive loop ended (for the report's "not on the last slide").
enum Ended {
    Done,
    TimedOut,
    Closed,
}

/// How long an attendee waits for the first slide change (the other shards may still
/// be joining).
const FIRST_SLIDE_TIMEOUT: Duration = Duration::from_secs(600);
/// How long the guide waits for the hubs to hold every attendee and fall quiet.
const SETTLE_TIMEOUT: Duration = Duration::from_secs(120);

/// Small socket buffers: tungstenite's defaults (128 KiB to read) times ten thousand
/// attendees would be over a gigabyte, and cold memory on every read.
fn socket_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
}

/// What a welcome says about where the client stands.
#[derive(Debug, Clone)]
struct Welcomed {
    seq: u64,
    epoch: String,
    resume: Resume,
    /// The current slide, when the welcome brought a snapshot.
    slide: Option<u32>,
}

/// Opens a socket from `source` and says hello (resuming after `last`: seq and epoch);
/// returns after the welcome.
async fn connect(
    url: &str,
    token: &str,
    source: IpAddr,
    last: Option<(u64, String)>,
) -> anyhow::Result<(Socket, Welcomed)> {
    let request = format!("{url}?token={token}").into_client_request()?;
    let host = request.uri().host().context("hub host")?.to_owned();
    let port = request.uri().port_u16().unwrap_or(80);
    let target: SocketAddr = tokio::net::lookup_host((host.as_str(), port))
        .await?
        .next()
        .context("hub address")?;
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(source, 0))?;
    let stream = socket.connect(target).await?;
    stream.set_nodelay(true)?;
    let mut request = request;
    request.headers_mut().insert(
        "sec-websocket-protocol",
        protocol::frame::SUBPROTOCOL_JSON.parse()?,
    );
    let (mut ws, _) =
        tokio_tungstenite::client_async_with_config(request, stream, Some(socket_config())).await?;
    let (last_seq, epoch) = last.map_or((None, None), |(seq, epoch)| (Some(seq), Some(epoch)));
    ws.send(Message::text(serde_json::to_string(&ClientFrame::Hello {
        last_seq,
        epoch,
    })?))
    .await?;
    loop {
        let message = ws.next().await.context("closed before welcome")??;
        if let Some(ServerFrame::Welcome {
            seq,
            epoch,
            resume,
            snapshot,
            ..
        }) = decode(&message)
        {
            let slide = snapshot.map(|s| s.state_for_all.current_slide_alias);
            return Ok((
                ws,
                Welcomed {
                    seq,
                    epoch,
                    resume,
                    slide,
                },
            ));
        }
    }
}

/// The section id of slide change `alias` sent at `sent_us` (Unix microseconds).
fn section_id(alias: u32, sent_us: u64) -> String {
    format!("{alias:08x}{sent_us:024x}")
}

/// What an attendee task needs of a frame, found without parsing it: the load generator
/// shares the machine's two cores with the hub, so every microsecond it spends per
/// frame is taken from the hub. JSON frames of the hub start with their `type`, and an
/// event's `kind` comes first in it.
#[derive(Debug, PartialEq, Eq)]
enum Peek {
    /// A slide change: its alias and its send time, from its section id.
    Slide {
        alias: u32,
        sent_us: u64,
        seq: u64,
        prev: u64,
    },
    /// Any other state event.
    Event {
        seq: u64,
        prev: u64,
        kind: Kind,
    },
    Ping(u64),
    /// A room's reaction sums (volatile).
    Reactions,
    /// The `ack` of the request with this `ref`.
    Ack(u32),
    /// An `error` frame, with the `ref` of the request it refuses.
    Refused(Option<u32>),
    Other,
}

/// The kinds of state events the engagement mode looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Chat,
    PollCreated,
    PollOpened,
    PollClosed,
    Other,
}

/// The unsigned number right after `"key":` in `text`.
fn number_after(text: &str, key: &str) -> Option<u64> {
    let start = text.find(key)? + key.len();
    let digits = text[start..].bytes().take_while(u8::is_ascii_digit).count();
    text[start..start + digits].parse().ok()
}

/// The string right after `"key":"` in `text`, up to the next quote (for texts the
/// load generator wrote itself, which hold no quote).
fn string_after<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let start = text.find(key)? + key.len();
    let len = text[start..].find('"')?;
    Some(&text[start..start + len])
}

/// The texts of a chat event's messages in their order (one for `chatMessagePosted`,
/// each of a `chatMessagesPosted` batch): the strings after each `"text":"`, for texts
/// the load generator wrote itself (no quote, no `"text":` inside).
fn chat_texts(text: &str) -> impl Iterator<Item = &str> {
    const KEY: &str = r#""text":""#;
    text.match_indices(KEY)
        .filter_map(|(at, _)| string_after(&text[at..], KEY))
}

fn peek(message: &Message) -> Peek {
    let Message::Text(text) = message else {
        return Peek::Other;
    };
    let text = text.as_str();
    if text.starts_with(r#"{"type":"event""#) {
        // The frame's own seq and prev come before its event.
        let (Some(seq), Some(prev)) = (
            number_after(text, r#""seq":"#),
            number_after(text, r#""prev":"#),
        ) else {
            return Peek::Other;
        };
        const KIND: &str = r#""kind":""#;
        let kind_at = text.find(KIND).map_or(text.len(), |at| at + KIND.len());
        let kind_name = &text[kind_at..];
        if kind_name.starts_with(r#"slideSwitched""#) {
            const KEY: &str = r#""sectionId":""#;
            let slide = text
                .find(KEY)
                .and_then(|at| text.get(at + KEY.len()..at + KEY.len() + 32))
                .and_then(|id| {
                    Some(Peek::Slide {
                        alias: u32::from_str_radix(&id[..8], 16).ok()?,
                        sent_us: u64::from_str_radix(&id[8..], 16).ok()?,
                        seq,
                        prev,
                    })
                });
            return slide.unwrap_or(Peek::Event {
                seq,
                prev,
                kind: Kind::Other,
            });
        }
        let kind = [
            (r#"chatMessagesPosted""#, Kind::Chat),
            (r#"chatMessagePosted""#, Kind::Chat),
            (r#"pollCreated""#, Kind::PollCreated),
            (r#"pollOpened""#, Kind::PollOpened),
            (r#"pollClosed""#, Kind::PollClosed),
        ]
        .into_iter()
        .find_map(|(name, kind)| kind_name.starts_with(name).then_some(kind))
        .unwrap_or(Kind::Other);
        Peek::Event { seq, prev, kind }
    } else if text.starts_with(r#"{"type":"ping""#) {
        number_after(text, r#""nonce":"#).map_or(Peek::Other, Peek::Ping)
    } else if text.starts_with(r#"{"type":"volatile","event":{"kind":"reactions""#) {
        Peek::Reactions
    } else if text.starts_with(r#"{"type":"ack""#) {
        number_after(text, r#""ref":"#).map_or(Peek::Other, |r| Peek::Ack(r as u32))
    } else if text.starts_with(r#"{"type":"error""#) {
        Peek::Refused(number_after(text, r#""ref":"#).map(|r| r as u32))
    } else {
        Peek::Other
    }
}

fn decode(message: &Message) -> Option<ServerFrame> {
    match message {
        Message::Text(text) => serde_json::from_str(text.as_str()).ok(),
        _ => None,
    }
}

/// The hubs' `/metrics` this run reads, summed over the hubs.
#[derive(Debug, Default, Clone, Copy)]
struct HubMetrics {
    connections: u64,
    events: u64,
    memory: u64,
    cpu_seconds: f64,
}

async fn hub_metrics(http: &reqwest::Client, urls: &[String]) -> Option<HubMetrics> {
    if urls.is_empty() {
        return None;
    }
    let mut total = HubMetrics::default();
    for url in urls {
        let text = http.get(url).send().await.ok()?.text().await.ok()?;
        let value = |name: &str| -> Option<f64> {
            text.lines().find_map(|l| {
                l.strip_prefix(name)?
                    .strip_prefix(' ')?
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
        };
        total.connections += value("hub_connections")? as u64;
        total.events += value("hub_events_total")? as u64;
        total.memory += value("process_resident_memory_bytes")? as u64;
        total.cpu_seconds += value("process_cpu_seconds_total").unwrap_or_default();
    }
    Some(total)
}

/// Waits until the hubs hold `connections` connections and have applied every event
/// of the joins (their event counter stands still). Gives up after [`SETTLE_TIMEOUT`]
/// (a join that failed in another shard never arrives) and says so.
async fn settle(http: &reqwest::Client, urls: &[String], connections: u64) {
    let started = Instant::now();
    let mut last_events = None;
    while let Some(now) = hub_metrics(http, urls).await {
        if now.connections >= connections && last_events == Some(now.events) {
            return;
        }
        if started.elapsed() > SETTLE_TIMEOUT {
            eprintln!(
                "the hubs hold {} of {connections} connections; starting anyway",
                now.connections
            );
            return;
        }
        last_events = Some(now.events);
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// CPU time of this process (user and system), from /proc.
fn own_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // After the command name in parentheses: state is field 3, utime 14, stime 15.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| {
        fields
            .get(i - 3)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or_default()
    };
    // Linux reports these in USER_HZ, 100 per second on every architecture it runs on.
    (ticks(14) + ticks(15)) / 100.0
}

/// What one attendee measured.
#[derive(Default)]
struct Received {
    after_joins_us: Vec<u32>,
    steady_us: Vec<u32>,
    first_sent_us: u64,
    last_received_us: u64,
    complete: bool,
    continuity: Continuity,
    /// What the attendee saw of the engagement (empty without).
    seen: engagement::Seen,
}

/// An attendee's part in the engagement: the frames to send, and what the load
/// generator's attendees share.
struct Engaged {
    outbox: tokio::sync::mpsc::UnboundedReceiver<Message>,
    shared: Arc<engagement::Shared>,
}

/// How an attendee gets back in after its socket closed (`--resume`).
#[derive(Clone)]
struct Rejoin {
    url: String,
    token: String,
    source: IpAddr,
}

/// How long an attendee keeps trying to get back in.
const REJOIN_TIMEOUT: Duration = Duration::from_secs(60);

impl Rejoin {
    /// Reconnects, resuming after `last_seq` of `epoch`, until a hub takes it.
    async fn resume(&self, last_seq: u64, epoch: &str) -> Option<(Socket, Welcomed)> {
        let started = Instant::now();
        let mut pause = Duration::from_millis(50);
        while started.elapsed() < REJOIN_TIMEOUT {
            match connect(
                &self.url,
                &self.token,
                self.source,
                Some((last_seq, epoch.to_owned())),
            )
            .await
            {
                Ok(connected) => return Some(connected),
                Err(_) => {
                    // Jittered, so that a replica's attendees do not come back in step.
                    tokio::time::sleep(pause.mul_f64(0.5 + rand_unit() / 2.0)).await;
                    pause = (pause * 2).min(Duration::from_secs(1));
                }
            }
        }
        None
    }
}

/// A number in [0, 1) from the clock (jitter needs no better randomness).
fn rand_unit() -> f64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    (nanos % 1000) as f64 / 1000.0
}

/// Reads an attendee's socket until the last slide change arrived, timing each, checks
/// that every event follows the one before (`prev`) exactly once, and answers the hub's
/// pings. With `rejoin`, a closed socket is reopened and resumed from the last event.
/// With `engaged`, it also sends what the engagement driver hands it, counts the chats,
/// reaction sums and answers to its requests, and reads on until the poll closed.
async fn receive(
    mut socket: Socket,
    welcomed: Welcomed,
    rejoin: Option<Rejoin>,
    slides: u32,
    first_slides: u32,
    engaged: Option<Engaged>,
) -> Received {
    let mut got = Received {
        first_sent_us: u64::MAX,
        ..Received::default()
    };
    let (mut last_seq, mut epoch) = (welcomed.seq, welcomed.epoch);
    // Not the welcome's slide: the appointment may still show the last run's last slide.
    let mut slide = 0;
    let shared = engaged.as_ref().map(|e| e.shared.clone());
    let mut outbox_open = engaged.is_some();
    let mut outbox = engaged.map_or_else(|| tokio::sync::mpsc::unbounded_channel().1, |e| e.outbox);
    // One timer per attendee, re-armed only when it fires: a timeout around every read
    // would insert and cancel a timer per frame.
    let mut ended = Ended::Done;
    let mut deadline = Instant::now() + FIRST_SLIDE_TIMEOUT;
    let idle = tokio::time::sleep_until(deadline.into());
    tokio::pin!(idle);
    while slide < slides || (shared.is_some() && !got.seen.poll_closed) {
        let message = tokio::select! {
            message = socket.next() => match message {
                Some(Ok(message)) => message,
                _ => {
                    let resumed = match &rejoin {
                        Some(rejoin) => rejoin.resume(last_seq, &epoch).await,
                        None => None,
                    };
                    let Some((resumed, welcomed)) = resumed else {
                        ended = Ended::Closed;
                        break;
                    };
                    socket = resumed;
                    got.continuity.resumes += 1;
                    if welcomed.resume != Resume::Replayed {
                        // A snapshot instead of the missed events: state is right, but the
                        // events in between were never seen.
                        got.continuity.snapshot_resumes += 1;
                        last_seq = welcomed.seq;
                        slide = welcomed.slide.unwrap_or(slide);
                    }
                    epoch = welcomed.epoch;
                    deadline = Instant::now() + RECEIVE_TIMEOUT;
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
                if Instant::now() >= deadline {
                    ended = Ended::TimedOut;
                    break;
                }
                idle.as_mut().reset(deadline.into());
                continue;
            }
        };
        let peeked = peek(&message);
        let (seq, prev) = match peeked {
            Peek::Slide { seq, prev, .. } | Peek::Event { seq, prev, .. } => (seq, prev),
            Peek::Ping(nonce) => {
                let _ = socket
                    .send(Message::text(format!(
                        r#"{{"type":"pong","nonce":{nonce}}}"#
                    )))
                    .await;
                continue;
            }
            Peek::Reactions => {
                got.seen.reaction_frame(Instant::now());
                continue;
            }
            Peek::Ack(r#ref) => {
                got.seen.acked(r#ref);
                continue;
            }
            Peek::Refused(r#ref) => {
                got.seen.refused(r#ref);
                continue;
            }
            Peek::Other => continue,
        };
        if seq <= last_seq {
            got.continuity.duplicates += 1;
            continue;
        }
        if prev != last_seq {
            got.continuity.gaps += 1;
        }
        last_seq = seq;
        match peeked {
            Peek::Slide { alias, sent_us, .. } => {
                let now = unix_us();
                let latency = now.saturating_sub(sent_us).min(u32::MAX as u64) as u32;
                if alias <= first_slides {
                    got.after_joins_us.push(latency)
                } else {
                    got.steady_us.push(latency)
                }
                got.first_sent_us = got.first_sent_us.min(sent_us);
                got.last_received_us = now;
                slide = alias;
                deadline = Instant::now() + RECEIVE_TIMEOUT;
            }
            Peek::Event { kind, .. } if kind != Kind::Other => {
                let Some(shared) = &shared else { continue };
                let Message::Text(text) = &message else {
                    continue;
                };
                match kind {
                    Kind::Chat if !got.seen.poll_closed => {
                        chat_texts(text.as_str()).for_each(|text| got.seen.chat(text))
                    }
                    Kind::PollCreated if shared.poll.get().is_none() => {
                        if let Some(ServerFrame::Event {
                            event: protocol::frame::Event::PollCreated { poll },
                            ..
                        }) = decode(&message)
                        {
                            let answer_ids =
                                poll.answers.into_iter().map(|a| a.answer_id).collect();
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
                    Kind::PollClosed => got.seen.poll_closed = true,
                    _ => {}
                }
                deadline = Instant::now() + RECEIVE_TIMEOUT;
            }
            _ => {}
        }
    }
    got.complete = slide >= slides;
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

/// The guide of a `--resume` run: sends each slide change until the hub acknowledges it,
/// reconnecting (to whichever replica the load balancer picks) when the socket closes.
struct SteadyGuide {
    url: String,
    token: String,
    socket: Option<Socket>,
}

/// How long the guide waits for an acknowledgement before it asks again.
const ACK_TIMEOUT: Duration = Duration::from_secs(5);

impl SteadyGuide {
    async fn switch(&mut self, alias: u32) -> anyhow::Result<()> {
        let started = Instant::now();
        while started.elapsed() < REJOIN_TIMEOUT {
            if self.socket.is_none() {
                match connect(
                    &self.url,
                    &self.token,
                    IpAddr::V4(Ipv4Addr::LOCALHOST),
                    None,
                )
                .await
                {
                    Ok((socket, _)) => self.socket = Some(socket),
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                }
            }
            let Some(socket) = self.socket.as_mut() else {
                continue;
            };
            let action = Action::SwitchSlide {
                page_id: "0".repeat(32),
                section_id: section_id(alias, unix_us()),
                slide_alias: alias,
            };
            let frame = serde_json::to_string(&ClientFrame::Action {
                r#ref: Some(alias),
                action,
            })?;
            if socket.send(Message::text(frame)).await.is_err() {
                self.socket = None;
                continue;
            }
            loop {
                let message = match tokio::time::timeout(ACK_TIMEOUT, socket.next()).await {
                    Ok(Some(Ok(message))) => message,
                    _ => {
                        self.socket = None;
                        break;
                    }
                };
                if let Peek::Ping(nonce) = peek(&message) {
                    let _ = socket
                        .send(Message::text(format!(
                            r#"{{"type":"pong","nonce":{nonce}}}"#
                        )))
                        .await;
                    continue;
                }
                match decode(&message) {
                    Some(ServerFrame::Ack { r#ref, .. }) if r#ref == alias => return Ok(()),
                    Some(ServerFrame::Error {
                        r#ref: Some(r#ref), ..
                    }) if r#ref == alias => {
                        // Not stored (Redis away, say): nothing happened; ask again.
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        break;
                    }
                    _ => {}
                }
            }
        }
        bail!("slide change {alias} was not acknowledged within {REJOIN_TIMEOUT:?}")
    }
}

/// The guide's socket: the slide changes go out here, and a task reads what comes in
/// (the joins' participant events) and answers pings.
/// With `--resume`, the guide is a [`SteadyGuide`].
enum Guide {
    Plain {
        tx: Arc<tokio::sync::Mutex<futures_util::stream::SplitSink<Socket, Message>>>,
        seen: Arc<std::sync::Mutex<GuideSeen>>,
        appointment: String,
    },
    Steady(Box<tokio::sync::Mutex<SteadyGuide>>),
}

/// What the plain guide's reader saw of the engagement.
#[derive(Default)]
struct GuideSeen {
    /// The chats (up to the poll's closing).
    seen: engagement::Seen,
    /// The taps of the reaction sums (up to the poll's closing).
    taps: u64,
    poll: Option<SeenPoll>,
    closed: Option<PollCount>,
    /// Why the hub refused a poll action.
    refusal: Option<String>,
}

impl GuideSeen {
    /// The guide's reader: chats, reaction sums, and the poll's creation and closing.
    fn read(&mut self, message: &Message, peeked: &Peek) {
        match peeked {
            Peek::Event {
                kind: Kind::Chat, ..
            } if self.closed.is_none() => {
                if let Message::Text(text) = message {
                    chat_texts(text.as_str()).for_each(|text| self.seen.chat(text));
                }
            }
            Peek::Event {
                kind: Kind::PollCreated | Kind::PollClosed,
                ..
            } => match decode(message) {
                Some(ServerFrame::Event {
                    event: protocol::frame::Event::PollCreated { poll },
                    ..
                }) if self.poll.is_none() => {
                    let answer_ids = poll.answers.into_iter().map(|a| a.answer_id).collect();
                    self.poll = Some(SeenPoll {
                        poll_id: poll.poll_id,
                        answer_ids,
                    });
                }
                Some(ServerFrame::Event {
                    event:
                        protocol::frame::Event::PollClosed {
                            poll_id,
                            counts,
                            voters,
                        },
                    ..
                }) if self.poll.as_ref().is_some_and(|p| p.poll_id == poll_id) => {
                    self.closed = Some(PollCount { counts, voters });
                }
                _ => {}
            },
            Peek::Reactions if self.closed.is_none() => {
                if let Some(ServerFrame::Volatile {
                    event: protocol::frame::VolatileEvent::Reactions { counts },
                }) = decode(message)
                {
                    self.taps += counts.to_array().iter().map(|n| u64::from(*n)).sum::<u64>();
                    self.seen.reaction_frame(Instant::now());
                }
            }
            Peek::Refused(Some(POLL_REF)) => {
                if let Some(ServerFrame::Error { code, message, .. }) = decode(message) {
                    self.refusal = Some(format!("{code:?}: {message}"));
                }
            }
            _ => {}
        }
    }
}

/// How long the guide waits for its poll to be created, and closed.
const POLL_TIMEOUT: Duration = Duration::from_secs(60);

impl Guide {
    async fn join(http: &reqwest::Client, options: &Options) -> anyhow::Result<Guide> {
        let base = options.base_url.trim_end_matches('/');
        let body = json!({"grant_type": "password", "client_id": "administration", "username": "admin", "password": "shopware"});
        let token = post(http, format!("{base}/api/oauth/token"), &[], body).await?;
        let bearer = format!(
            "Bearer {}",
            token["access_token"].as_str().context("access_token")?
        );
        let filter = json!({"filter": [{"type": "equals", "field": "presentationPath", "value": options.presentation_path}]});
        let found = post(
            http,
            format!("{base}/api/search/dsr-appointment"),
            &[("authorization", &bearer)],
            filter,
        )
        .await?;
        let appointment = found["data"][0]["id"]
            .as_str()
            .context("no such appointment")?
            .to_owned();
        let url = format!("{base}/api/_action/dsr/appointment/{appointment}/join-as-guide");
        let join = post(http, url, &[("authorization", &bearer)], json!({})).await?;
        let hub = match options.hub_url.first() {
            Some(url) => url.clone(),
            None => join["hubUrl"].as_str().context("hubUrl")?.to_owned(),
        };
        let token = join["hubToken"].as_str().context("hubToken")?.to_owned();
        if options.resume {
            // Connected now: the attendees' joins are counted with the guide's socket.
            let (socket, _) = connect(&hub, &token, IpAddr::V4(Ipv4Addr::LOCALHOST), None).await?;
            return Ok(Guide::Steady(Box::new(tokio::sync::Mutex::new(
                SteadyGuide {
                    url: hub,
                    token,
                    socket: Some(socket),
                },
            ))));
        }
        let (socket, _) = connect(&hub, &token, IpAddr::V4(Ipv4Addr::LOCALHOST), None).await?;
        let (tx, mut rx) = socket.split();
        let tx = Arc::new(tokio::sync::Mutex::new(tx));
        let pong = tx.clone();
        let seen = Arc::new(std::sync::Mutex::new(GuideSeen::default()));
        let reader_seen = seen.clone();
        tokio::spawn(async move {
            while let Some(Ok(message)) = rx.next().await {
                match peek(&message) {
                    Peek::Ping(nonce) => {
                        let _ = pong
                            .lock()
                            .await
                            .send(Message::text(format!(
                                r#"{{"type":"pong","nonce":{nonce}}}"#
                            )))
                            .await;
                    }
                    Peek::Other
                    | Peek::Slide { .. }
                    | Peek::Ack(_)
                    | Peek::Event {
                        kind: Kind::Other | Kind::PollOpened,
                        ..
                    } => {}
                    peeked => reader_seen.lock().unwrap().read(&message, &peeked),
                }
            }
        });
        Ok(Guide::Plain {
            tx,
            seen,
            appointment,
        })
    }

    async fn send(&self, frame: &ClientFrame) -> anyhow::Result<()> {
        if let Guide::Plain { tx, .. } = self {
            tx.lock()
                .await
                .send(Message::text(serde_json::to_string(frame)?))
                .await?;
        }
        Ok(())
    }

    /// Waits until `found` finds something in what the reader saw, or the hub refused a
    /// poll action.
    async fn wait_for<T>(
        &self,
        what: &str,
        found: impl Fn(&GuideSeen) -> Option<T>,
    ) -> anyhow::Result<T> {
        let Guide::Plain { seen, .. } = self else {
            bail!("the engagement mode needs the plain guide (not --resume)")
        };
        let started = Instant::now();
        loop {
            {
                let seen = seen.lock().unwrap();
                if let Some(refusal) = &seen.refusal {
                    bail!("the hub refused the guide's poll action: {refusal}");
                }
                if let Some(value) = found(&seen) {
                    return Ok(value);
                }
            }
            if started.elapsed() > POLL_TIMEOUT {
                bail!("{what} did not arrive within {POLL_TIMEOUT:?}");
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Creates the run's poll (a draft); returns it as the hub made it.
    async fn create_poll(&self) -> anyhow::Result<SeenPoll> {
        let poll = protocol::engagement::polls::NewPoll {
            question: "Which one would you buy?".into(),
            answers: ["Red", "Green", "Blue", "Black"].map(String::from).to_vec(),
            multiple: false,
            slide: None,
        };
        self.send(&ClientFrame::Action {
            r#ref: Some(POLL_REF),
            action: Action::CreatePoll { poll },
        })
        .await?;
        self.wait_for("the pollCreated of the guide's poll", |seen| {
            seen.poll.clone()
        })
        .await
    }

    /// Closes the poll; returns its final counts as the guide received them.
    async fn close_poll(&self, poll: &SeenPoll) -> anyhow::Result<PollCount> {
        let action = Action::ClosePoll {
            poll_id: poll.poll_id.clone(),
        };
        self.send(&ClientFrame::Action {
            r#ref: Some(POLL_REF),
            action,
        })
        .await?;
        self.wait_for("the pollClosed of the guide's poll", |seen| {
            seen.closed.clone()
        })
        .await
    }

    /// Switches slides 1 … `slides` at the set rate, each with its send time in its
    /// section id.
    async fn present(&self, options: &Options) -> anyhow::Result<()> {
        for alias in 1..=options.slides {
            if let Guide::Steady(guide) = self {
                guide.lock().await.switch(alias).await?;
                tokio::time::sleep(Duration::from_millis(options.interval_ms)).await;
                continue;
            }
            let section_id = section_id(alias, unix_us());
            let action = Action::SwitchSlide {
                page_id: "0".repeat(32),
                section_id,
                slide_alias: alias,
            };
            self.send(&ClientFrame::Action {
                r#ref: Some(alias),
                action,
            })
            .await?;
            if options.highlight_every > 0 && alias % options.highlight_every == 0 {
                let interaction = protocol::action::Interaction::GuideHovered(
                    protocol::action::GuideHoveredPayload {
                        hovered_element_id: Some(format!("{alias:032x}")),
                    },
                );
                self.send(&ClientFrame::Interaction {
                    r#ref: None,
                    interaction,
                })
                .await?;
            }
            tokio::time::sleep(Duration::from_millis(options.interval_ms)).await;
        }
        Ok(())
    }
}

/// The poll as the hub stored it: `GET /internal/appointments/{id}/state` of the first
/// hub (next to its `--hub-metrics`), with `--hub-secret`. `None` when either is missing
/// or the read fails (said on stderr).
async fn stored_poll(
    http: &reqwest::Client,
    options: &Options,
    guide: &Guide,
    poll_id: &str,
) -> Option<PollCount> {
    let (Some(secret), Some(metrics), Guide::Plain { appointment, .. }) =
        (&options.hub_secret, options.hub_metrics.first(), guide)
    else {
        return None;
    };
    let url = format!(
        "{}/internal/appointments/{appointment}/state",
        metrics.trim_end_matches("/metrics")
    );
    let read = async {
        let response = http
            .get(&url)
            .bearer_auth(secret)
            .send()
            .await?
            .error_for_status()?;
        let state: Value = response.json().await?;
        let polls = state["stateForAll"]["polls"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let poll = polls
            .into_iter()
            .find(|p| p["pollId"] == poll_id)
            .context("the stored state has no such poll")?;
        anyhow::Ok(serde_json::from_value::<PollCount>(poll)?)
    };
    match read.await {
        Ok(count) => Some(count),
        Err(error) => {
            eprintln!("could not read the stored poll from {url}: {error:#}");
            None
        }
    }
}

pub async fn run(options: &Options) -> anyhow::Result<Report> {
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let _spinners = options.busy_poll.then(spin_workers);
    let shard = options.shard;
    let plan = Plan::of(options);
    if let Some(plan) = &plan {
        if options.resume {
            bail!("the engagement mode (--chat-per-sec, --reactions-per-sec, --poll-votes) does not go with --resume");
        }
        plan.check(options.clients)?;
    }
    let shared = Arc::new(engagement::Shared::default());
    let sent = Arc::new(engagement::Sent::default());
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(options.join_concurrency)
        .build()?;
    let base = options.base_url.trim_end_matches('/');
    // The guide is there before the attendees, as in a real session: it receives every
    // join as a participant event. The other shards wait for it, so that the memory
    // reading before the joins is not taken in the middle of theirs.
    let memory_before = if shard.is_guide() {
        hub_metrics(&http, &options.hub_metrics)
            .await
            .map(|m| m.memory)
    } else {
        None
    };
    let guide = if shard.is_guide() {
        Some(Guide::join(&http, options).await?)
    } else {
        while hub_metrics(&http, &options.hub_metrics)
            .await
            .is_some_and(|m| m.connections == 0)
        {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        None
    };

    // Joins: REST join, then socket, `join_concurrency` at a time.
    let errors = Arc::new(AtomicU64::new(0));
    let semaphore = Arc::new(Semaphore::new(options.join_concurrency.max(1)));
    let joins_started_us = unix_us();
    let mine: Vec<usize> = shard.attendees(options.clients).collect();
    let mut joins = Vec::with_capacity(mine.len());
    // Each attendee's frames to send (engagement): in the order of `mine`.
    let mut outboxes = Vec::with_capacity(if plan.is_some() { mine.len() } else { 0 });
    for &i in &mine {
        let engaged = plan.map(|_| {
            let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
            outboxes.push(tx);
            Engaged {
                outbox: rx,
                shared: shared.clone(),
            }
        });
        let permit = semaphore.clone().acquire_owned().await?;
        let http = http.clone();
        let url = format!(
            "{base}/store-api/dsr/appointment/{}/join-as-client",
            options.presentation_path
        );
        let key = options.access_key.clone();
        let source = IpAddr::V4(Ipv4Addr::new(
            127,
            0,
            0,
            1 + (i % options.source_addresses.max(1) as usize) as u8,
        ));
        let hub_url = options
            .hub_url
            .get(i % options.hub_url.len().max(1))
            .cloned();
        let errors = errors.clone();
        let (slides, first_slides, resume) = (options.slides, options.first_slides, options.resume);
        joins.push(tokio::spawn(async move {
            let _permit = permit;
            let result = async {
                // Each simulated attendee is its own client for the proxy's per-address join
                // quota (JOINS_PER_MINUTE; loopback is a trusted proxy, #29).
                let client = format!("10.{}.{}.{}", (i >> 16) & 255, (i >> 8) & 255, i & 255);
                let headers = [
                    ("sw-access-key", key.as_str()),
                    ("x-forwarded-for", client.as_str()),
                ];
                let join = post(
                    &http,
                    url,
                    &headers,
                    json!({"attendeeName": format!("Load {i}")}),
                )
                .await?;
                let hub = match hub_url {
                    Some(url) => url,
                    None => join["hubUrl"].as_str().context("hubUrl")?.to_owned(),
                };
                let token = join["hubToken"].as_str().context("hubToken")?.to_owned();
                let (socket, welcomed) = connect(&hub, &token, source, None).await?;
                let rejoin = resume.then_some(Rejoin {
                    url: hub,
                    token,
                    source,
                });
                // Read (and answer the hub's pings) from the first moment: a long join
                // phase would otherwise leave the first sockets silent past the hub's
                // heartbeat timeout.
                anyhow::Ok(tokio::spawn(receive(
                    socket,
                    welcomed,
                    rejoin,
                    slides,
                    first_slides,
                    engaged,
                )))
            }
            .await;
            if result.is_err() {
                errors.fetch_add(1, Ordering::Relaxed);
            }
            result
        }));
    }
    let mut receivers = Vec::with_capacity(mine.len());
    let mut first_error = None;
    for join in joins {
        match join.await? {
            Ok(receiver) => receivers.push(receiver),
            Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    let joins_ended_us = unix_us();
    if receivers.is_empty() && !mine.is_empty() {
        return Err(first_error.unwrap_or_else(|| anyhow::anyhow!("no attendee joined")));
    }
    if let Some(error) = &first_error {
        eprintln!("first join error: {error:#}");
    }
    let cpu_before = own_cpu_seconds();
    // Starts with the poll's opening (which the attendees see), for the window.
    let driver = plan.map(|plan| {
        let (shared, sent, clients) = (shared.clone(), sent.clone(), options.clients);
        tokio::spawn(async move {
            engagement::drive(plan, shard, clients, outboxes, &shared, &sent).await
        })
    });
    let mut poll_closed = None;
    let mut poll_stored = None;

    let mut hub_bytes_per_connection = None;
    let mut hub_cpu_before = None;
    if let Some(guide) = &guide {
        let joined =
            options.clients as u64 - errors.load(Ordering::Relaxed).min(options.clients as u64);
        // Every shard's attendees and the guide.
        settle(&http, &options.hub_metrics, joined + 1).await;
        tokio::time::sleep(Duration::from_secs(options.hold_secs)).await;
        let before_slides = hub_metrics(&http, &options.hub_metrics).await;
        hub_bytes_per_connection = match (memory_before, before_slides) {
            (Some(before), Some(after)) if joined > 0 => {
                Some(after.memory.saturating_sub(before) as f64 / joined as f64)
            }
            _ => None,
        };
        hub_cpu_before = before_slides.map(|m| m.cpu_seconds);
        let poll = match plan {
            Some(_) => Some(guide.create_poll().await?),
            None => None,
        };
        // scripts/chaos.sh starts its chaos on this line.
        eprintln!("loadtest: the slide changes start");
        if let (Some(plan), Some(poll)) = (plan, &poll) {
            // The poll opens with the first slide change; the attendees' chats, reactions
            // and votes follow it for the window, while the slides change.
            let action = Action::OpenPoll {
                poll_id: poll.poll_id.clone(),
            };
            guide
                .send(&ClientFrame::Action {
                    r#ref: Some(POLL_REF),
                    action,
                })
                .await?;
            let opened = Instant::now();
            guide.present(options).await?;
            tokio::time::sleep_until((opened + plan.window + engagement::CLOSE_GRACE).into()).await;
            poll_closed = Some(guide.close_poll(poll).await?);
            poll_stored = stored_poll(&http, options, guide, &poll.poll_id).await;
        } else {
            guide.present(options).await?;
        }
    }
    let mut report = Report {
        clients: mine.len(),
        shards: 1,
        slides: options.slides,
        first_slides: options.first_slides,
        joins_per_second: 0.0,
        join_seconds: 0.0,
        deliveries: 0,
        expected_deliveries: mine.len() as u64 * options.slides as u64,
        deliveries_per_second: 0.0,
        latency: Percentiles::default(),
        latency_after_joins: Percentiles::default(),
        latency_steady: Percentiles::default(),
        errors: 0,
        hub_bytes_per_connection,
        hub_cpu_seconds: None,
        generator_cpu_seconds: 0.0,
        times: Times {
            joins_started_us,
            joins_ended_us,
            first_sent_us: 0,
            last_received_us: 0,
        },
        after_joins_us: Vec::new(),
        steady_us: Vec::new(),
        continuity: Continuity::default(),
        engagement: plan.map(|plan| EngagementReport {
            window_secs: plan.window.as_secs_f64(),
            ..EngagementReport::default()
        }),
    };
    let mut first_sent_us = u64::MAX;
    for receiver in receivers {
        let got = receiver.await?;
        if !got.complete {
            errors.fetch_add(1, Ordering::Relaxed);
        }
        first_sent_us = first_sent_us.min(got.first_sent_us);
        report.times.last_received_us = report.times.last_received_us.max(got.last_received_us);
        report.continuity.add(&got.continuity);
        report.after_joins_us.extend(got.after_joins_us);
        report.steady_us.extend(got.steady_us);
        if let Some(engagement) = &mut report.engagement {
            engagement.add_attendee(&got.seen);
        }
    }
    if let Some(driver) = driver {
        // Over by now (the poll closed after the window); without a poll it never began.
        driver.abort();
        let _ = driver.await;
    }
    if let Some(engagement) = &mut report.engagement {
        engagement.chats_sent = sent.chats.load(Ordering::Relaxed);
        engagement.reactions_sent = sent.reactions.load(Ordering::Relaxed);
        engagement.votes_sent = sent.votes.load(Ordering::Relaxed);
        engagement.votes_per_answer = sent.per_answer.lock().unwrap().clone();
        engagement.poll_closed = poll_closed;
        engagement.poll_stored = poll_stored;
        if let Some(Guide::Plain { seen, .. }) = &guide {
            let seen = seen.lock().unwrap();
            engagement.guide_chats = Some(seen.seen.chats);
            engagement.guide_chat_digest = Some(seen.seen.chat_digest);
            engagement.reaction_taps_counted = Some(seen.taps);
        }
    }
    report.times.first_sent_us = if first_sent_us == u64::MAX {
        0
    } else {
        first_sent_us
    };
    report.generator_cpu_seconds = own_cpu_seconds() - cpu_before;
    if let Some(before) = hub_cpu_before {
        report.hub_cpu_seconds = hub_metrics(&http, &options.hub_metrics)
            .await
            .map(|m| m.cpu_seconds - before);
    }
    report.errors = errors.load(Ordering::Relaxed);
    Ok(report.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engagement::{CHAT_REF, VOTE_REF};
    use protocol::frame::{Event, ServerFrame};

    fn text(frame: &ServerFrame) -> Message {
        Message::text(serde_json::to_string(frame).unwrap())
    }

    #[test]
    fn peek_finds_the_slide_and_its_send_time_and_the_ping_nonce_of_real_frames() {
        let sent_us = 1_795_000_000_123_456;
        let slide = ServerFrame::Event {
            seq: 7,
            prev: 6,
            event: Event::SlideSwitched {
                page_id: "a".repeat(32),
                section_id: section_id(42, sent_us),
                slide_alias: 42,
            },
        };
        assert!(
            protocol::state::is_id(&section_id(42, sent_us)),
            "a section id the hub accepts"
        );
        assert_eq!(
            peek(&text(&slide)),
            Peek::Slide {
                alias: 42,
                sent_us,
                seq: 7,
                prev: 6
            }
        );
        let lock = ServerFrame::Event {
            seq: 8,
            prev: 7,
            event: Event::LockChanged { locked: true },
        };
        assert_eq!(
            peek(&text(&lock)),
            Peek::Event {
                seq: 8,
                prev: 7,
                kind: Kind::Other
            }
        );
        assert_eq!(
            peek(&text(&ServerFrame::Ping { nonce: 123456789 })),
            Peek::Ping(123456789)
        );
        assert_eq!(peek(&text(&ServerFrame::Pong { nonce: 1 })), Peek::Other);
        assert_eq!(peek(&Message::binary(vec![1, 2, 3])), Peek::Other);
        assert_eq!(
            peek(&text(&ServerFrame::Ack {
                r#ref: VOTE_REF,
                seq: Some(9)
            })),
            Peek::Ack(VOTE_REF)
        );
        assert_eq!(
            peek(&text(&ServerFrame::Ack {
                r#ref: CHAT_REF,
                seq: None
            })),
            Peek::Ack(CHAT_REF)
        );
        let refused = ServerFrame::error(
            Some(VOTE_REF),
            protocol::frame::ErrorCode::PollClosed,
            "the poll is not open",
        );
        assert_eq!(peek(&text(&refused)), Peek::Refused(Some(VOTE_REF)));
        let refused =
            ServerFrame::error(None, protocol::frame::ErrorCode::RateLimited, "slow down");
        assert_eq!(peek(&text(&refused)), Peek::Refused(None));
    }

    #[test]
    fn peek_finds_the_engagement_frames_and_the_chat_text() {
        use protocol::engagement::polls::{NewPoll, PollStatus};
        use protocol::engagement::{ChatMessage, ReactionCounts};
        use protocol::frame::VolatileEvent;
        let chat = ChatMessage {
            message_id: "a".repeat(32),
            attendee_id: "b".repeat(32),
            attendee_name: Some("Load 7 \"kind\":\"pollClosed\"".into()),
            role: protocol::Role::Client,
            text: engagement::chat_text(12),
            sent_at: 1,
        };
        let batch: Vec<ChatMessage> = (13..16)
            .map(|k| ChatMessage {
                text: engagement::chat_text(k),
                ..chat.clone()
            })
            .collect();
        let posted = text(&ServerFrame::Event {
            seq: 3,
            prev: 2,
            event: Event::ChatMessagePosted { message: chat },
        });
        assert_eq!(
            peek(&posted),
            Peek::Event {
                seq: 3,
                prev: 2,
                kind: Kind::Chat
            }
        );
        let Message::Text(posted) = &posted else {
            unreachable!()
        };
        assert_eq!(
            chat_texts(posted.as_str()).collect::<Vec<_>>(),
            ["load chat 12"]
        );
        let batch = text(&ServerFrame::Event {
            seq: 9,
            prev: 3,
            event: Event::ChatMessagesPosted { messages: batch },
        });
        assert_eq!(
            peek(&batch),
            Peek::Event {
                seq: 9,
                prev: 3,
                kind: Kind::Chat
            }
        );
        let Message::Text(batch) = &batch else {
            unreachable!()
        };
        assert_eq!(
            chat_texts(batch.as_str()).collect::<Vec<_>>(),
            ["load chat 13", "load chat 14", "load chat 15"]
        );
        let new = NewPoll {
            question: "Q?".into(),
            answers: vec!["A".into(), "B".into()],
            multiple: false,
            slide: None,
        };
        let poll = new.into_poll("c".repeat(32), ["d".repeat(32), "e".repeat(32)]);
        assert_eq!(poll.status, PollStatus::Draft);
        let id = poll.poll_id.clone();
        let kinds = [
            (Event::PollCreated { poll }, Kind::PollCreated),
            (
                Event::PollOpened {
                    poll_id: id.clone(),
                },
                Kind::PollOpened,
            ),
            (
                Event::PollClosed {
                    poll_id: id.clone(),
                    counts: vec![1, 2],
                    voters: 3,
                },
                Kind::PollClosed,
            ),
            (
                Event::ChatMessageDeleted {
                    message_id: id.clone(),
                },
                Kind::Other,
            ),
        ];
        for (event, kind) in kinds {
            assert_eq!(
                peek(&text(&ServerFrame::Event {
                    seq: 5,
                    prev: 4,
                    event
                })),
                Peek::Event {
                    seq: 5,
                    prev: 4,
                    kind
                }
            );
        }
        let sums = ServerFrame::Volatile {
            event: VolatileEvent::Reactions {
                counts: ReactionCounts {
                    heart: 3,
                    ..Default::default()
                },
            },
        };
        assert_eq!(peek(&text(&sums)), Peek::Reactions);
        let counts = ServerFrame::Volatile {
            event: VolatileEvent::PollCounts {
                poll_id: id,
                counts: vec![1],
                voters: 1,
            },
        };
        assert_eq!(peek(&text(&counts)), Peek::Other);
        // What the attendee answers is a pong the hub accepts.
        let pong: ClientFrame = serde_json::from_str(r#"{"type":"pong","nonce":5}"#).unwrap();
        assert_eq!(pong, ClientFrame::Pong { nonce: 5 });
    }

    #[test]
    fn shards_split_the_attendees_without_overlap() {
        let shards: Vec<Shard> = ["0/3", "1/3", "2/3"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let mut all: Vec<usize> = shards.iter().flat_map(|s| s.attendees(10)).collect();
        all.sort();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert!(shards[0].is_guide() && !shards[1].is_guide());
        assert_eq!("0/1".parse::<Shard>(), Ok(Shard::default()));
        for bad in ["3/3", "1", "a/2", "0/0", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
