//! Counters for `GET /metrics` (Prometheus text format), the same shape as the hub's: plain
//! atomics, written by the media engine's task, read by the HTTP handler.
//!
//! The forward delay is the "packet in → packet out", measured inside the sfu:
//! from the moment the engine reads a media datagram off its socket (the `Instant` it hands
//! to str0m with the packet, which str0m's RTP mode gives back with the decrypted packet) to
//! the moment the engine has handed that packet's copy to one subscriber's socket (`sendto`
//! returned, at the end of that subscriber's `poll_output` round after the write). One
//! observation per forwarded packet and subscriber, for audio and video alike (the sfu
//! forwards packet by packet, see `engine/rtp.rs`). It includes str0m's SRTP decryption,
//! the fan-out loop (a subscriber late in the room's list waits for the writes of those
//! before it), SRTP encryption per subscriber, and the engine's own scheduling between the
//! two. It does not include time the datagram waited in the kernel's receive buffer before
//! the engine read it.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

use listener::metrics::{cpu_seconds, render_header, resident_memory_bytes, Buckets};
use str0m::media::MediaKind;

/// Upper bounds of the forward delay buckets, in seconds: fine below the 5 ms aim.
#[derive(Debug)]
pub struct DelayBuckets;

impl Buckets for DelayBuckets {
    const SECONDS: &'static [f64] = &[
        0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.003, 0.004, 0.005, 0.0075, 0.01, 0.025, 0.05, 0.1,
        0.25, 1.0,
    ];
}

/// A forward delay histogram (the rendering is shared with the hub's, in `listener`).
pub type Histogram = listener::metrics::Histogram<DelayBuckets>;

#[derive(Debug, Default)]
pub struct Metrics {
    /// Participants joined (a gauge the engine sets after every command).
    pub participants: AtomicU64,
    /// RTP packets written to a subscriber's peer connection.
    pub forwarded_packets: AtomicU64,
    /// Datagrams the engine read off its UDP socket.
    pub datagrams_in: AtomicU64,
    /// Datagrams the engine sent (UDP and ICE over TCP).
    pub datagrams_out: AtomicU64,
    /// Engine passes whose sending was split over two threads (`SFU_PARALLEL_SENDS`).
    pub parallel_sends: AtomicU64,
    /// The media socket's receive buffer as the kernel sized it (bytes).
    pub udp_receive_buffer: AtomicU64,
    /// Packet in → packet out, per forwarded packet and subscriber (see the module's notes).
    pub forward_delay_audio: Histogram,
    pub forward_delay_video: Histogram,
}

impl Metrics {
    pub fn forward_delay(&self, kind: MediaKind) -> &Histogram {
        match kind {
            MediaKind::Audio => &self.forward_delay_audio,
            MediaKind::Video => &self.forward_delay_video,
        }
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let mut line = |name: &str, kind: &str, help: &str, value: String| {
            let _ = write!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}\n"
            );
        };
        line(
            "sfu_participants",
            "gauge",
            "Participants joined to a room of this sfu.",
            get(&self.participants).to_string(),
        );
        line(
            "sfu_forwarded_packets_total",
            "counter",
            "RTP packets written to a subscriber's peer connection.",
            get(&self.forwarded_packets).to_string(),
        );
        line(
            "sfu_datagrams_in_total",
            "counter",
            "Datagrams read off the media UDP socket.",
            get(&self.datagrams_in).to_string(),
        );
        line(
            "sfu_datagrams_out_total",
            "counter",
            "Datagrams sent to peers (UDP and ICE over TCP).",
            get(&self.datagrams_out).to_string(),
        );
        line(
            "sfu_udp_receive_buffer_bytes",
            "gauge",
            "The media socket's receive buffer as the kernel sized it.",
            get(&self.udp_receive_buffer).to_string(),
        );
        line(
            "sfu_parallel_sends_total",
            "counter",
            "Engine passes whose sending was split over two threads.",
            get(&self.parallel_sends).to_string(),
        );
        if let Some(bytes) = resident_memory_bytes() {
            line(
                "process_resident_memory_bytes",
                "gauge",
                "Resident memory of the sfu process.",
                bytes.to_string(),
            );
        }
        if let Some(seconds) = cpu_seconds() {
            line(
                "process_cpu_seconds_total",
                "counter",
                "User and system CPU time of the sfu process.",
                seconds.to_string(),
            );
        }
        let name = "sfu_forward_delay_seconds";
        render_header(
            &mut out,
            name,
            "From a media packet read off the socket to that packet sent to one subscriber.",
        );
        self.forward_delay_audio
            .render_series(&mut out, name, "kind=\"audio\"");
        self.forward_delay_video
            .render_series(&mut out, name, "kind=\"video\"");
        out
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_delay_lands_in_its_bucket_and_the_buckets_are_cumulative() {
        let metrics = Metrics::default();
        metrics
            .forward_delay(MediaKind::Audio)
            .observe(Duration::from_micros(700));
        metrics
            .forward_delay(MediaKind::Audio)
            .observe(Duration::from_millis(4));
        let text = metrics.render();
        assert!(
            text.contains("sfu_forward_delay_seconds_bucket{kind=\"audio\",le=\"0.0005\"} 0\n"),
            "{text}"
        );
        assert!(
            text.contains("sfu_forward_delay_seconds_bucket{kind=\"audio\",le=\"0.001\"} 1\n"),
            "{text}"
        );
        assert!(
            text.contains("sfu_forward_delay_seconds_bucket{kind=\"audio\",le=\"0.004\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("sfu_forward_delay_seconds_bucket{kind=\"audio\",le=\"+Inf\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("sfu_forward_delay_seconds_count{kind=\"video\"} 0\n"),
            "{text}"
        );
    }
}
