//! Joins one guide and many attendees through the real REST join and WebSocket paths,
//! lets the guide switch slides, and measures how long each change takes to reach
//! each attendee.

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use protocol::action::Action;
use protocol::frame::{ClientFrame, Event, ServerFrame};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

#[derive(Debug, Clone, clap::Parser)]
#[command(name = "loadtest", about = "Salesroom load test")]
pub struct Options {
    /// The public origin (storefront-proxy).
    #[arg(long, default_value = "http://127.0.0.1:8000")]
    pub base_url: String,
    #[arg(long, default_value = "SWSCSALESROOMDEMO000000000")]
    pub access_key: String,
    #[arg(long, default_value = "demo")]
    pub presentation_path: String,
    /// Simulated attendees.
    #[arg(long, default_value_t = 50)]
    pub clients: usize,
    /// Slide changes the guide makes.
    #[arg(long, default_value_t = 50)]
    pub slides: u32,
    /// Pause between slide changes.
    #[arg(long, default_value_t = 100)]
    pub interval_ms: u64,
}

#[derive(Debug)]
pub struct Report {
    pub clients: usize,
    pub slides: u32,
    /// Guide send to attendee receive, over all attendees and slides.
    pub latencies: Vec<Duration>,
    pub elapsed: Duration,
}

impl Report {
    pub fn percentile(&self, p: f64) -> Duration {
        let mut sorted = self.latencies.clone();
        sorted.sort();
        if sorted.is_empty() {
            return Duration::ZERO;
        }
        let index = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
        sorted[index.min(sorted.len() - 1)]
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let deliveries = self.latencies.len();
        writeln!(f, "attendees {}  slide changes {}  deliveries {}", self.clients, self.slides, deliveries)?;
        writeln!(
            f,
            "latency p50 {:?}  p95 {:?}  p99 {:?}  max {:?}",
            self.percentile(50.0),
            self.percentile(95.0),
            self.percentile(99.0),
            self.percentile(100.0)
        )?;
        write!(f, "throughput {:.0} deliveries/s", deliveries as f64 / self.elapsed.as_secs_f64().max(1e-9))
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

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(join: &Value) -> anyhow::Result<Socket> {
    let url = format!("{}?token={}", join["hubUrl"].as_str().context("hubUrl")?, join["hubToken"].as_str().context("hubToken")?);
    let mut request = url.into_client_request()?;
    request.headers_mut().insert("sec-websocket-protocol", protocol::frame::SUBPROTOCOL_JSON.parse()?);
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await?;
    socket.send(Message::text(serde_json::to_string(&ClientFrame::Hello { last_seq: None, epoch: None })?)).await?;
    Ok(socket)
}

fn decode(message: Message) -> Option<ServerFrame> {
    match message {
        Message::Text(text) => serde_json::from_str(text.as_str()).ok(),
        _ => None,
    }
}

pub async fn run(options: &Options) -> anyhow::Result<Report> {
    let http = reqwest::Client::new();
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

    let (sent_tx, _) = tokio::sync::broadcast::channel::<(u32, Instant)>(1024);
    let mut attendees = Vec::new();
    for i in 0..options.clients {
        let join = post(
            &http,
            format!("{base}/store-api/dsr/appointment/{}/join-as-client", options.presentation_path),
            &[("sw-access-key", &options.access_key)],
            json!({"attendeeName": format!("Load {i}")}),
        )
        .await?;
        let mut socket = connect(&join).await?;
        // Wait for the welcome so that every attendee is attached before slides change.
        loop {
            let message = socket.next().await.context("closed before welcome")??;
            if let Some(ServerFrame::Welcome { .. }) = decode(message) {
                break;
            }
        }
        let mut sent = sent_tx.subscribe();
        let slides = options.slides;
        attendees.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(slides as usize);
            let mut send_times = std::collections::HashMap::new();
            while latencies.len() < slides as usize {
                tokio::select! {
                    Ok((alias, at)) = sent.recv() => { send_times.insert(alias, at); }
                    message = socket.next() => {
                        let Some(Ok(message)) = message else { break };
                        if let Some(ServerFrame::Event { event: Event::SlideSwitched { slide_alias, .. }, .. }) = decode(message) {
                            let received = Instant::now();
                            // The send time may arrive after the event on a busy machine.
                            while !send_times.contains_key(&slide_alias) {
                                match sent.recv().await { Ok((alias, at)) => { send_times.insert(alias, at); } Err(_) => break }
                            }
                            if let Some(at) = send_times.get(&slide_alias) {
                                latencies.push(received.duration_since(*at));
                            }
                        }
                    }
                }
            }
            latencies
        }));
    }

    let mut guide_socket = connect(&guide).await?;
    let started = Instant::now();
    for alias in 1..=options.slides {
        let action = ClientFrame::Action {
            r#ref: Some(alias),
            action: Action::SwitchSlide { page_id: "0".repeat(32), section_id: format!("{alias:032x}"), slide_alias: alias },
        };
        let _ = sent_tx.send((alias, Instant::now()));
        guide_socket.send(Message::text(serde_json::to_string(&action)?)).await?;
        tokio::time::sleep(Duration::from_millis(options.interval_ms)).await;
        // Drain what the guide received so its queue never fills.
        while let Ok(Some(Ok(_))) = tokio::time::timeout(Duration::ZERO, guide_socket.next()).await {}
    }
    let mut latencies = Vec::new();
    for attendee in attendees {
        latencies.extend(tokio::time::timeout(Duration::from_secs(30), attendee).await??);
    }
    Ok(Report { clients: options.clients, slides: options.slides, latencies, elapsed: started.elapsed() })
}
