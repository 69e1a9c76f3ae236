//! What a media run measured ([`MediaReport`]), and a process's CPU time and memory from
//! `/proc`.

use super::*;

/// CPU time (clock ticks, utime + stime) and resident memory (bytes) of a process.
pub(super) fn process_usage(pid: u32) -> anyhow::Result<(u64, u64)> {
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
pub(super) const TICKS_PER_SECOND: f64 = 100.0;

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
