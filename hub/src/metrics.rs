//! Counters for `GET /metrics` (Prometheus text format).

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

use listener::metrics::{cpu_seconds, resident_memory_bytes, Buckets, Histogram};

/// Upper bounds of the fan-out latency buckets, in seconds.
pub struct LatencyBuckets;

impl Buckets for LatencyBuckets {
    const SECONDS: &'static [f64] = &[
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    ];
}

#[derive(Default)]
pub struct Metrics {
    pub connections_opened: AtomicU64,
    pub connections_closed: AtomicU64,
    pub refused_tokens: AtomicU64,
    /// Connections closed at `hello` by the policy (removed attendees, locked out).
    pub turned_away: AtomicU64,
    pub frames_in: AtomicU64,
    pub frames_out: AtomicU64,
    /// Socket flushes that wrote at least one frame (several frames may share one);
    /// a connection's task finishing a flush its writer began is not counted again.
    pub batches_out: AtomicU64,
    /// Connections a writer task handed to their own task (`ws::fanout`), by reason:
    /// the socket would block (or failed), its task held the sink, a video grant.
    pub handovers_blocked: AtomicU64,
    pub handovers_busy: AtomicU64,
    pub handovers_video: AtomicU64,
    /// Times a connection's task was woken to write and found nothing to write.
    pub empty_wakeups: AtomicU64,
    /// Frames written by the writer tasks (`ws::fanout`), without waking the
    /// connection; the rest were written by the connection's own task.
    pub writer_out: AtomicU64,
    pub bad_frames: AtomicU64,
    /// Connections closed with 1009 for a message over the size limit.
    pub too_big: AtomicU64,
    pub forbidden: AtomicU64,
    /// Client actions and interactions refused for going over the rate.
    pub rate_limited: AtomicU64,
    /// Client reload hints answered with the identical one published a moment before.
    pub coalesced: AtomicU64,
    /// Attendees' actions and interactions that waited for a large room's fan-out before
    /// they were handled (`ws::gate::after_fan_out`).
    pub waited_for_fan_out: AtomicU64,
    pub slow_consumers: AtomicU64,
    /// Volatile events skipped because a queue was full.
    pub queue_drops: AtomicU64,
    pub events: AtomicU64,
    /// Rooms whose history was replaced after Redis forgot it (new epoch, every
    /// connection resynced).
    pub history_resets: AtomicU64,
    /// `sessionSampled` events the session sampler wrote (counted in `events` too).
    pub session_samples: AtomicU64,
    /// From an event's fan-out to its write on each socket.
    pub fan_out_latency: Histogram<LatencyBuckets>,
}

/// A counter of [`Metrics`] as `/metrics` shows it.
struct Counter {
    name: &'static str,
    help: &'static str,
    of: fn(&Metrics) -> &AtomicU64,
}

/// The counters of `/metrics`, in their order there.
const COUNTERS: &[Counter] = &[
    Counter {
        name: "hub_connections_opened_total",
        help: "Connections attached.",
        of: |m| &m.connections_opened,
    },
    Counter {
        name: "hub_connections_closed_total",
        help: "Connections ended.",
        of: |m| &m.connections_closed,
    },
    Counter {
        name: "hub_refused_tokens_total",
        help: "Upgrades refused for a bad token.",
        of: |m| &m.refused_tokens,
    },
    Counter {
        name: "hub_turned_away_total",
        help: "Connections closed at hello: removed attendees, clients locked out.",
        of: |m| &m.turned_away,
    },
    Counter {
        name: "hub_frames_in_total",
        help: "Frames received from participants.",
        of: |m| &m.frames_in,
    },
    Counter {
        name: "hub_frames_out_total",
        help: "Frames sent to participants.",
        of: |m| &m.frames_out,
    },
    Counter {
        name: "hub_write_batches_total",
        help: "Flushes of queued frames to a socket that wrote at least one frame (frames out / batches = frames per write).",
        of: |m| &m.batches_out,
    },
    Counter {
        name: "hub_writer_handovers_blocked_total",
        help: "Connections a writer task handed to their own task: the socket would block.",
        of: |m| &m.handovers_blocked,
    },
    Counter {
        name: "hub_writer_handovers_busy_total",
        help: "Connections a writer task handed to their own task: the task held the socket.",
        of: |m| &m.handovers_busy,
    },
    Counter {
        name: "hub_writer_handovers_video_total",
        help: "Connections a writer task handed to their own task: a client's video token follows.",
        of: |m| &m.handovers_video,
    },
    Counter {
        name: "hub_empty_write_wakeups_total",
        help: "Connection tasks woken to write that found nothing to write.",
        of: |m| &m.empty_wakeups,
    },
    Counter {
        name: "hub_writer_frames_total",
        help: "Frames written by the writer tasks, without waking the connection.",
        of: |m| &m.writer_out,
    },
    Counter {
        name: "hub_bad_frames_total",
        help: "Frames that could not be decoded.",
        of: |m| &m.bad_frames,
    },
    Counter {
        name: "hub_messages_too_big_total",
        help: "Connections closed for a message over the size limit.",
        of: |m| &m.too_big,
    },
    Counter {
        name: "hub_forbidden_total",
        help: "Actions refused for the sender's role.",
        of: |m| &m.forbidden,
    },
    Counter {
        name: "hub_rate_limited_total",
        help: "Client actions and interactions refused for going over the rate.",
        of: |m| &m.rate_limited,
    },
    Counter {
        name: "hub_coalesced_total",
        help: "Client reload hints answered with the identical event published just before.",
        of: |m| &m.coalesced,
    },
    Counter {
        name: "hub_frames_waited_for_fan_out_total",
        help: "Attendees' actions and interactions handled after a large room's fan-out under way (slide changes first).",
        of: |m| &m.waited_for_fan_out,
    },
    Counter {
        name: "hub_history_resets_total",
        help: "Rooms whose history was written back to Redis as a new epoch after Redis lost it.",
        of: |m| &m.history_resets,
    },
    Counter {
        name: "hub_events_total",
        help: "State events applied.",
        of: |m| &m.events,
    },
    Counter {
        name: "hub_session_samples_total",
        help: "Session samples written for the report (also in hub_events_total).",
        of: |m| &m.session_samples,
    },
    Counter {
        name: "hub_queue_drops_total",
        help: "Volatile events dropped for a full queue.",
        of: |m| &m.queue_drops,
    },
    Counter {
        name: "hub_slow_consumers_total",
        help: "Connections closed for a full send queue.",
        of: |m| &m.slow_consumers,
    },
];

impl Metrics {
    /// `redis_up` is `None` in single mode.
    pub fn render(&self, rooms: usize, connections: usize, redis_up: Option<bool>) -> String {
        let mut out = String::new();
        let mut line = |name: &str, kind: &str, help: &str, value: u64| {
            let _ = write!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}\n"
            );
        };
        line(
            "hub_rooms",
            "gauge",
            "Live appointments held by this hub.",
            rooms as u64,
        );
        line(
            "hub_connections",
            "gauge",
            "Attached WebSocket connections.",
            connections as u64,
        );
        for counter in COUNTERS {
            let value = (counter.of)(self).load(Ordering::Relaxed);
            line(counter.name, "counter", counter.help, value);
        }
        if let Some(up) = redis_up {
            line(
                "hub_redis_up",
                "gauge",
                "1 while events flow through Redis.",
                up as u64,
            );
        }
        if let Some(bytes) = resident_memory_bytes() {
            line(
                "process_resident_memory_bytes",
                "gauge",
                "Resident memory of the hub process.",
                bytes,
            );
        }
        if let Some(seconds) = cpu_seconds() {
            let _ = write!(out, "# HELP process_cpu_seconds_total User and system CPU time of the hub process.\n# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total {seconds}\n");
        }
        self.fan_out_latency.render(&mut out, "hub_fan_out_latency_seconds", "From an event's fan-out to its write on a socket (an engagement tick's frames, which wait for a write by design, are not counted).");
        out
    }
}
