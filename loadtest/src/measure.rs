//! What a run reads of the hubs and of itself: the hubs' `/metrics` (connections,
//! events, memory, CPU), the wait until the joins settled, this process's CPU time, and
//! the busy-polling workers of `--busy-poll`.

use std::time::{Duration, Instant};

/// How long the guide waits for the hubs to hold every attendee and fall quiet.
const SETTLE_TIMEOUT: Duration = Duration::from_secs(120);

/// The hubs' `/metrics` this run reads, summed over the hubs.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct HubMetrics {
    pub connections: u64,
    pub events: u64,
    pub memory: u64,
    pub cpu_seconds: f64,
}

/// The hubs' `/metrics` at `urls`, summed; `None` without URLs or when one cannot be read.
pub(crate) async fn hub_metrics(http: &reqwest::Client, urls: &[String]) -> Option<HubMetrics> {
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
pub(crate) async fn settle(http: &reqwest::Client, urls: &[String], connections: u64) {
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
pub(crate) fn own_cpu_seconds() -> f64 {
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

/// Tasks that keep every worker of the runtime busy (see [`crate::Options::busy_poll`]): a task
/// that yields is woken only after its worker polled the I/O driver without blocking, so
/// no worker parks in `epoll_wait`. Stopped when the returned guard is dropped.
pub(crate) fn spin_workers() -> Spinners {
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

pub(crate) struct Spinners(Vec<tokio::task::JoinHandle<()>>);

impl Drop for Spinners {
    fn drop(&mut self) {
        for task in &self.0 {
            task.abort();
        }
    }
}
