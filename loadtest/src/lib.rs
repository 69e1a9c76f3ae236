//! Joins one guide and many attendees through the real REST join and WebSocket paths,
//! lets the guide switch slides (and highlight products) at a set rate, and measures
//! join rate, how long each change takes to reach each attendee, deliveries per second,
//! errors, and the hub's memory per connection.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use protocol::action::Action;
use protocol::frame::{ClientFrame, ServerFrame};
use serde::Serialize;
use serde_json::{json, Value};
use tokio::net::TcpSocket;
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

pub mod shop;

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
    /// The hubs' `/metrics` (comma-separated), to read their memory per connection.
    #[arg(long, value_delimiter = ',')]
    pub hub_metrics: Vec<String>,
    #[arg(long, default_value = "SWSCSALESROOMDEMO000000000")]
    pub access_key: String,
    #[arg(long, default_value = "demo")]
    pub presentation_path: String,
    /// Simulated attendees.
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
    /// Seconds to hold the idle connections before the slide changes (memory reading).
    #[arg(long, default_value_t = 2)]
    pub hold_secs: u64,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
pub struct Percentiles {
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub clients: usize,
    pub slides: u32,
    pub joins_per_second: f64,
    pub join_seconds: f64,
    pub deliveries: u64,
    pub expected_deliveries: u64,
    pub deliveries_per_second: f64,
    pub latency: Percentiles,
    pub errors: u64,
    /// Growth of the hub's resident memory per attendee connection, if readable.
    pub hub_bytes_per_connection: Option<f64>,
    #[serde(skip)]
    pub latencies_us: Vec<u32>,
}

impl Report {
    pub fn percentile(&self, p: f64) -> Duration {
        percentile(&self.latencies_us, p)
    }
}

fn percentile(sorted_us: &[u32], p: f64) -> Duration {
    if sorted_us.is_empty() {
        return Duration::ZERO;
    }
    let index = ((p / 100.0) * (sorted_us.len() - 1) as f64).round() as usize;
    Duration::from_micros(sorted_us[index.min(sorted_us.len() - 1)] as u64)
}

fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e5).round() / 1e2
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "attendees {}  slide changes {}  errors {}", self.clients, self.slides, self.errors)?;
        writeln!(f, "joins {:.0}/s ({:.2} s for all)", self.joins_per_second, self.join_seconds)?;
        writeln!(
            f,
            "fan-out latency p50 {} ms  p95 {} ms  p99 {} ms  max {} ms",
            self.latency.p50_ms, self.latency.p95_ms, self.latency.p99_ms, self.latency.max_ms
        )?;
        write!(f, "deliveries {}/{}  {:.0}/s", self.deliveries, self.expected_deliveries, self.deliveries_per_second)?;
        if let Some(bytes) = self.hub_bytes_per_connection {
            write!(f, "\nhub memory per connection {:.0} bytes ({:.1} KiB)", bytes, bytes / 1024.0)?;
        }
        Ok(())
    }
}

async fn post(http: &reqwest::Client, url: String, headers: &[(&str, &str)], body: Value) -> anyhow::Result<Value> {
    let mut request = http.post(&url).json(&body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.with_context(|| format!("POST {url}"))?;
    let status = response.status();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        bail!("POST {url}: {status} {body}");
    }
    Ok(body)
}

type Socket = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// How long an attendee waits for its next frame before giving up.
const RECEIVE_TIMEOUT: Duration = Duration::from_secs(30);

/// Small socket buffers: tungstenite's defaults (128 KiB to read) times ten thousand
/// attendees would be over a gigabyte, and cold memory on every read.
fn socket_config() -> WebSocketConfig {
    WebSocketConfig::default().read_buffer_size(4 * 1024).write_buffer_size(0)
}

/// Opens a socket from `source` and says hello; returns after the welcome.
async fn connect(url: &str, token: &str, source: IpAddr) -> anyhow::Result<Socket> {
    let request = format!("{url}?token={token}").into_client_request()?;
    let host = request.uri().host().context("hub host")?.to_owned();
    let port = request.uri().port_u16().unwrap_or(80);
    let target: SocketAddr = tokio::net::lookup_host((host.as_str(), port)).await?.next().context("hub address")?;
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(source, 0))?;
    let stream = socket.connect(target).await?;
    stream.set_nodelay(true)?;
    let mut request = request;
    request.headers_mut().insert("sec-websocket-protocol", protocol::frame::SUBPROTOCOL_JSON.parse()?);
    let (mut ws, _) = tokio_tungstenite::client_async_with_config(request, stream, Some(socket_config())).await?;
    ws.send(Message::text(serde_json::to_string(&ClientFrame::Hello { last_seq: None, epoch: None })?)).await?;
    loop {
        let message = ws.next().await.context("closed before welcome")??;
        if let Some(ServerFrame::Welcome { .. }) = decode(&message) {
            return Ok(ws);
        }
    }
}

/// What an attendee task needs of a frame, found without parsing it: the load generator
/// shares the machine's two cores with the hub, so every microsecond it spends per
/// frame is taken from the hub. JSON frames of the hub start with their `type`.
#[derive(Debug, PartialEq, Eq)]
enum Peek {
    /// An event frame and the slide alias in it, if it is a slide change.
    Event(Option<u32>),
    Ping(u64),
    Other,
}

/// The unsigned number right after `"key":` in `text`.
fn number_after(text: &str, key: &str) -> Option<u64> {
    let start = text.find(key)? + key.len();
    let digits = text[start..].bytes().take_while(u8::is_ascii_digit).count();
    text[start..start + digits].parse().ok()
}

fn peek(message: &Message) -> Peek {
    let Message::Text(text) = message else { return Peek::Other };
    let text = text.as_str();
    if text.starts_with(r#"{"type":"event""#) {
        Peek::Event(number_after(text, r#""slideAlias":"#).and_then(|n| u32::try_from(n).ok()))
    } else if text.starts_with(r#"{"type":"ping""#) {
        number_after(text, r#""nonce":"#).map_or(Peek::Other, Peek::Ping)
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

/// The resident memory of all the hubs, summed.
async fn hub_memory(http: &reqwest::Client, urls: &[String]) -> Option<u64> {
    let mut total = 0;
    for url in urls {
        let text = http.get(url).send().await.ok()?.text().await.ok()?;
        total += text.lines().find_map(|l| l.strip_prefix("process_resident_memory_bytes ")?.trim().parse::<u64>().ok())?;
    }
    (!urls.is_empty()).then_some(total)
}

pub async fn run(options: &Options) -> anyhow::Result<Report> {
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let http = reqwest::Client::builder().pool_max_idle_per_host(options.join_concurrency).build()?;
    let base = options.base_url.trim_end_matches('/');
    let token = post(&http, format!("{base}/api/oauth/token"), &[], json!({"grant_type": "password", "client_id": "administration", "username": "admin", "password": "shopware"})).await?;
    let bearer = format!("Bearer {}", token["access_token"].as_str().context("access_token")?);
    let found = post(
        &http,
        format!("{base}/api/search/dsr-appointment"),
        &[("authorization", &bearer)],
        json!({"filter": [{"type": "equals", "field": "presentationPath", "value": options.presentation_path}]}),
    )
    .await?;
    let appointment = found["data"][0]["id"].as_str().context("no such appointment")?.to_owned();
    let guide = post(&http, format!("{base}/api/_action/dsr/appointment/{appointment}/join-as-guide"), &[("authorization", &bearer)], json!({})).await?;
    let hub_url_of = |i: usize, join: &Value| -> anyhow::Result<String> {
        match options.hub_url.get(i % options.hub_url.len().max(1)) {
            Some(url) => Ok(url.clone()),
            None => Ok(join["hubUrl"].as_str().context("hubUrl")?.to_owned()),
        }
    };
    let memory_before = hub_memory(&http, &options.hub_metrics).await;

    // Joins: REST join, then socket, `join_concurrency` at a time.
    let errors = Arc::new(AtomicU64::new(0));
    let semaphore = Arc::new(Semaphore::new(options.join_concurrency.max(1)));
    let join_started = Instant::now();
    let mut joins = Vec::with_capacity(options.clients);
    for i in 0..options.clients {
        let permit = semaphore.clone().acquire_owned().await?;
        let http = http.clone();
        let url = format!("{base}/store-api/dsr/appointment/{}/join-as-client", options.presentation_path);
        let key = options.access_key.clone();
        let source = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1 + (i % options.source_addresses.max(1) as usize) as u8));
        let hub_url = options.hub_url.get(i % options.hub_url.len().max(1)).cloned();
        let errors = errors.clone();
        joins.push(tokio::spawn(async move {
            let _permit = permit;
            let result = async {
                let join = post(&http, url, &[("sw-access-key", &key)], json!({"attendeeName": format!("Load {i}")})).await?;
                let hub = match hub_url {
                    Some(url) => url,
                    None => join["hubUrl"].as_str().context("hubUrl")?.to_owned(),
                };
                connect(&hub, join["hubToken"].as_str().context("hubToken")?, source).await
            }
            .await;
            if result.is_err() {
                errors.fetch_add(1, Ordering::Relaxed);
            }
            result
        }));
    }
    let mut sockets = Vec::with_capacity(options.clients);
    let mut first_error = None;
    for join in joins {
        match join.await? {
            Ok(socket) => sockets.push(socket),
            Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    let join_seconds = join_started.elapsed().as_secs_f64();
    if sockets.is_empty() {
        return Err(first_error.unwrap_or_else(|| anyhow::anyhow!("no attendee joined")));
    }
    if let Some(error) = &first_error {
        eprintln!("first join error: {error:#}");
    }
    tokio::time::sleep(Duration::from_secs(options.hold_secs)).await;
    let memory_after = hub_memory(&http, &options.hub_metrics).await;

    // Slide changes: each attendee measures from the guide's send time of that slide.
    let started = Instant::now();
    let sent_at: Arc<Vec<AtomicU64>> = Arc::new((0..=options.slides).map(|_| AtomicU64::new(0)).collect());
    let slides = options.slides;
    let mut receivers = Vec::with_capacity(sockets.len());
    for mut socket in sockets {
        let sent_at = sent_at.clone();
        receivers.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(slides as usize);
            // One timer per attendee, re-armed only when it fires: a timeout around every
            // read would insert and cancel a timer per frame.
            let mut last_frame = Instant::now();
            let idle = tokio::time::sleep(RECEIVE_TIMEOUT);
            tokio::pin!(idle);
            while latencies.len() < slides as usize {
                let message = tokio::select! {
                    message = socket.next() => match message {
                        Some(Ok(message)) => message,
                        _ => break,
                    },
                    () = &mut idle => {
                        if last_frame.elapsed() >= RECEIVE_TIMEOUT { break }
                        idle.as_mut().reset((last_frame + RECEIVE_TIMEOUT).into());
                        continue;
                    }
                };
                last_frame = Instant::now();
                match peek(&message) {
                    Peek::Event(Some(slide_alias)) => {
                        let now = started.elapsed().as_micros() as u64;
                        let sent = sent_at.get(slide_alias as usize).map_or(0, |t| t.load(Ordering::Acquire));
                        latencies.push(now.saturating_sub(sent) as u32);
                    }
                    Peek::Ping(nonce) => {
                        let _ = socket.send(Message::text(format!(r#"{{"type":"pong","nonce":{nonce}}}"#))).await;
                    }
                    Peek::Event(None) | Peek::Other => {}
                }
            }
            (latencies, started.elapsed())
        }));
    }
    let guide_socket = connect(&hub_url_of(0, &guide)?, guide["hubToken"].as_str().context("hubToken")?, IpAddr::V4(Ipv4Addr::LOCALHOST)).await?;
    // The guide reads its own frames in the background so its queue never fills.
    let (mut guide_tx, mut guide_rx) = guide_socket.split();
    tokio::spawn(async move { while let Some(Ok(_)) = guide_rx.next().await {} });
    for alias in 1..=slides {
        sent_at[alias as usize].store(started.elapsed().as_micros() as u64, Ordering::Release);
        let action = ClientFrame::Action {
            r#ref: Some(alias),
            action: Action::SwitchSlide { page_id: "0".repeat(32), section_id: format!("{alias:032x}"), slide_alias: alias },
        };
        guide_tx.send(Message::text(serde_json::to_string(&action)?)).await?;
        if options.highlight_every > 0 && alias % options.highlight_every == 0 {
            let highlight = ClientFrame::Interaction {
                r#ref: None,
                interaction: protocol::action::Interaction::GuideHovered(protocol::action::GuideHoveredPayload {
                    hovered_element_id: Some(format!("{alias:032x}")),
                }),
            };
            guide_tx.send(Message::text(serde_json::to_string(&highlight)?)).await?;
        }
        tokio::time::sleep(Duration::from_millis(options.interval_ms)).await;
    }
    let mut latencies_us = Vec::new();
    let mut last_delivery = Duration::ZERO;
    for receiver in receivers {
        let (latencies, finished) = receiver.await?;
        if latencies.len() < slides as usize {
            errors.fetch_add(1, Ordering::Relaxed);
        }
        last_delivery = last_delivery.max(finished);
        latencies_us.extend(latencies);
    }
    latencies_us.sort_unstable();
    let deliveries = latencies_us.len() as u64;
    let connected = options.clients as u64 - errors.load(Ordering::Relaxed).min(options.clients as u64);
    let hub_bytes_per_connection = match (memory_before, memory_after) {
        (Some(before), Some(after)) if connected > 0 => Some(after.saturating_sub(before) as f64 / connected as f64),
        _ => None,
    };
    Ok(Report {
        clients: options.clients,
        slides,
        joins_per_second: options.clients as f64 / join_seconds.max(1e-9),
        join_seconds,
        deliveries,
        expected_deliveries: options.clients as u64 * slides as u64,
        deliveries_per_second: deliveries as f64 / last_delivery.as_secs_f64().max(1e-9),
        latency: Percentiles {
            p50_ms: ms(percentile(&latencies_us, 50.0)),
            p95_ms: ms(percentile(&latencies_us, 95.0)),
            p99_ms: ms(percentile(&latencies_us, 99.0)),
            max_ms: ms(percentile(&latencies_us, 100.0)),
        },
        errors: errors.load(Ordering::Relaxed),
        hub_bytes_per_connection,
        latencies_us,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::frame::{Event, ServerFrame};

    fn text(frame: &ServerFrame) -> Message {
        Message::text(serde_json::to_string(frame).unwrap())
    }

    #[test]
    fn peek_finds_the_slide_alias_and_the_ping_nonce_of_real_frames() {
        let slide = ServerFrame::Event {
            seq: 7,
            prev: 6,
            event: Event::SlideSwitched { page_id: "a".repeat(32), section_id: "b".repeat(32), slide_alias: 42 },
        };
        assert_eq!(peek(&text(&slide)), Peek::Event(Some(42)));
        let lock = ServerFrame::Event { seq: 8, prev: 7, event: Event::LockChanged { locked: true } };
        assert_eq!(peek(&text(&lock)), Peek::Event(None));
        assert_eq!(peek(&text(&ServerFrame::Ping { nonce: 123456789 })), Peek::Ping(123456789));
        assert_eq!(peek(&text(&ServerFrame::Pong { nonce: 1 })), Peek::Other);
        assert_eq!(peek(&Message::binary(vec![1, 2, 3])), Peek::Other);
        // What the attendee answers is a pong the hub accepts.
        let pong: ClientFrame = serde_json::from_str(r#"{"type":"pong","nonce":5}"#).unwrap();
        assert_eq!(pong, ClientFrame::Pong { nonce: 5 });
    }
}
