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

mod bots;
mod forward_delay;
mod report;
mod signal;

use bots::*;
pub use forward_delay::BucketPercentiles;
use forward_delay::*;
pub use report::MediaReport;
use report::*;
use signal::*;

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
