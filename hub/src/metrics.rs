//! Counters for `GET /metrics` (Prometheus text format).

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Default)]
pub struct Metrics {
    pub connections_opened: AtomicU64,
    pub connections_closed: AtomicU64,
    pub refused_tokens: AtomicU64,
    pub bad_frames: AtomicU64,
    pub forbidden: AtomicU64,
    pub slow_consumers: AtomicU64,
}

impl Metrics {
    pub fn render(&self, rooms: usize, connections: usize) -> String {
        let mut out = String::new();
        let mut line = |name: &str, kind: &str, help: &str, value: u64| {
            let _ = write!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}\n");
        };
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        line("hub_rooms", "gauge", "Live appointments held by this hub.", rooms as u64);
        line("hub_connections", "gauge", "Attached WebSocket connections.", connections as u64);
        line("hub_connections_opened_total", "counter", "Connections attached.", get(&self.connections_opened));
        line("hub_connections_closed_total", "counter", "Connections ended.", get(&self.connections_closed));
        line("hub_refused_tokens_total", "counter", "Upgrades refused for a bad token.", get(&self.refused_tokens));
        line("hub_bad_frames_total", "counter", "Frames that could not be decoded.", get(&self.bad_frames));
        line("hub_forbidden_total", "counter", "Actions refused for the sender's role.", get(&self.forbidden));
        line("hub_slow_consumers_total", "counter", "Connections closed for a full send queue.", get(&self.slow_consumers));
        out
    }
}
