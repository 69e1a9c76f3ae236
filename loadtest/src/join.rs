//! The attendees' joins: each attendee's REST join (`join-as-client`, as its own client
//! address for the proxy's join quota), then its socket, `--join-concurrency` at a time;
//! each attendee reads its socket from the first moment ([`crate::attendee::receive`]).

use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::{bail, Context};
use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;

use crate::attendee::{receive, Engaged, Received};
use crate::engagement::{self, Plan};
use crate::report::unix_us;
use crate::socket::{connect, Rejoin};
use crate::Options;

/// POSTs `body` as JSON with `headers`; the answer's JSON, or an error naming the URL
/// and the answer.
pub(crate) async fn post(
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

/// What this process's joins came to.
pub(crate) struct Joined {
    /// The attendees this shard joins.
    pub attendees: usize,
    /// Each joined attendee's reading of its socket.
    pub receivers: Vec<JoinHandle<Received>>,
    /// Joins that failed.
    pub errors: u64,
    /// Each attendee's frames to send (engagement), in the order of the joins.
    pub outboxes: Vec<UnboundedSender<Message>>,
    pub started_us: u64,
    pub ended_us: u64,
}

/// What every attendee's join shares.
#[derive(Clone)]
struct JoinAs {
    http: reqwest::Client,
    /// The REST join's URL.
    url: String,
    access_key: String,
    slides: u32,
    first_slides: u32,
    resume: bool,
}

/// Joins this shard's attendees, `--join-concurrency` at a time; fails only when none
/// joined (the first error is printed otherwise).
pub(crate) async fn join_attendees(
    http: &reqwest::Client,
    options: &Options,
    plan: Option<Plan>,
    shared: &Arc<engagement::Shared>,
) -> anyhow::Result<Joined> {
    let base = options.base_url.trim_end_matches('/');
    let join_as = JoinAs {
        http: http.clone(),
        url: format!(
            "{base}/store-api/dsr/appointment/{}/join-as-client",
            options.presentation_path
        ),
        access_key: options.access_key.clone(),
        slides: options.slides,
        first_slides: options.first_slides,
        resume: options.resume,
    };
    let errors = Arc::new(AtomicU64::new(0));
    let semaphore = Arc::new(Semaphore::new(options.join_concurrency.max(1)));
    let started_us = unix_us();
    let mine: Vec<usize> = options.shard.attendees(options.clients).collect();
    let mut joins = Vec::with_capacity(mine.len());
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
        let (join_as, errors) = (join_as.clone(), errors.clone());
        joins.push(tokio::spawn(async move {
            let _permit = permit;
            let result = join_attendee(join_as, i, source, hub_url, engaged).await;
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
    let ended_us = unix_us();
    if receivers.is_empty() && !mine.is_empty() {
        return Err(first_error.unwrap_or_else(|| anyhow::anyhow!("no attendee joined")));
    }
    if let Some(error) = &first_error {
        eprintln!("first join error: {error:#}");
    }
    Ok(Joined {
        attendees: mine.len(),
        receivers,
        errors: errors.load(Ordering::Relaxed),
        outboxes,
        started_us,
        ended_us,
    })
}

/// Joins attendee number `i` over REST, opens its socket from `source` (to `hub_url`,
/// else to the join's `hubUrl`) and starts reading it.
async fn join_attendee(
    join_as: JoinAs,
    i: usize,
    source: IpAddr,
    hub_url: Option<String>,
    engaged: Option<Engaged>,
) -> anyhow::Result<JoinHandle<Received>> {
    // Each simulated attendee is its own client for the proxy's per-address join
    // quota (JOINS_PER_MINUTE; loopback is a trusted proxy, #29).
    let client = format!("10.{}.{}.{}", (i >> 16) & 255, (i >> 8) & 255, i & 255);
    let headers = [
        ("sw-access-key", join_as.access_key.as_str()),
        ("x-forwarded-for", client.as_str()),
    ];
    let body = json!({"attendeeName": format!("Load {i}")});
    let join = post(&join_as.http, join_as.url.clone(), &headers, body).await?;
    let hub = match hub_url {
        Some(url) => url,
        None => join["hubUrl"].as_str().context("hubUrl")?.to_owned(),
    };
    let token = join["hubToken"].as_str().context("hubToken")?.to_owned();
    let (socket, welcomed) = connect(&hub, &token, source, None).await?;
    let rejoin = join_as.resume.then_some(Rejoin {
        url: hub,
        token,
        source,
    });
    // Read (and answer the hub's pings) from the first moment: a long join phase would
    // otherwise leave the first sockets silent past the hub's heartbeat timeout.
    Ok(tokio::spawn(receive(
        socket,
        welcomed,
        rejoin,
        join_as.slides,
        join_as.first_slides,
        engaged,
    )))
}
