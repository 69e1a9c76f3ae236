//! What the servers' `GET /metrics` share (Prometheus text format): a latency histogram
//! over atomics and the process's own resident memory and CPU time from `/proc`.
//!
//! The hub and the sfu each keep their own counters and render their own page; this is
//! the part that was the same in both.

use std::fmt::Write;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The upper bounds of a histogram's buckets, in seconds, ascending (`+Inf` is implied).
pub trait Buckets {
    const SECONDS: &'static [f64];
}

/// A Prometheus histogram of durations, written with relaxed atomics from any thread.
pub struct Histogram<B: Buckets> {
    buckets: Box<[AtomicU64]>,
    count: AtomicU64,
    sum_micros: AtomicU64,
    bounds: PhantomData<B>,
}

impl<B: Buckets> Default for Histogram<B> {
    fn default() -> Self {
        Histogram {
            buckets: B::SECONDS.iter().map(|_| AtomicU64::new(0)).collect(),
            count: AtomicU64::new(0),
            sum_micros: AtomicU64::new(0),
            bounds: PhantomData,
        }
    }
}

impl<B: Buckets> std::fmt::Debug for Histogram<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Histogram")
            .field("count", &self.count())
            .finish_non_exhaustive()
    }
}

impl<B: Buckets> Histogram<B> {
    pub fn observe(&self, value: Duration) {
        let seconds = value.as_secs_f64();
        if let Some(i) = B::SECONDS.iter().position(|&bound| seconds <= bound) {
            self.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros
            .fetch_add(value.as_micros() as u64, Ordering::Relaxed);
    }

    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// `# HELP`, `# TYPE` and the series of a histogram without labels.
    pub fn render(&self, out: &mut String, name: &str, help: &str) {
        render_header(out, name, help);
        self.render_series(out, name, "");
    }

    /// The series lines (`_bucket`, `_sum`, `_count`) with `labels` (`key="value",…`, or
    /// empty) on each; the header is [`render_header`]'s, once for all series of a name.
    pub fn render_series(&self, out: &mut String, name: &str, labels: &str) {
        let (open, braced) = if labels.is_empty() {
            (String::new(), String::new())
        } else {
            (format!("{labels},"), format!("{{{labels}}}"))
        };
        let mut cumulative = 0;
        for (bound, bucket) in B::SECONDS.iter().zip(self.buckets.iter()) {
            cumulative += bucket.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{{open}le=\"{bound}\"}} {cumulative}");
        }
        let count = self.count();
        let _ = writeln!(out, "{name}_bucket{{{open}le=\"+Inf\"}} {count}");
        let _ = writeln!(
            out,
            "{name}_sum{braced} {}",
            self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6
        );
        let _ = writeln!(out, "{name}_count{braced} {count}");
    }
}

/// `# HELP` and `# TYPE … histogram` of a histogram name.
pub fn render_header(out: &mut String, name: &str, help: &str) {
    let _ = write!(out, "# HELP {name} {help}\n# TYPE {name} histogram\n");
}

/// The resident memory of this process, from /proc (Linux).
pub fn resident_memory_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// The CPU time (user and system) this process used, in seconds, from /proc (Linux).
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // After the command name in parentheses: state is field 3, utime 14, stime 15.
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(14 - 3);
    let (user, system): (u64, u64) = (fields.next()?.parse().ok()?, fields.next()?.parse().ok()?);
    // In USER_HZ, which Linux fixes at 100 per second for user space.
    Some((user + system) as f64 / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Three;
    impl Buckets for Three {
        const SECONDS: &'static [f64] = &[0.001, 0.01, 0.1];
    }

    #[test]
    fn buckets_are_cumulative_with_and_without_labels() {
        let histogram = Histogram::<Three>::default();
        histogram.observe(Duration::from_micros(500));
        histogram.observe(Duration::from_millis(5));
        histogram.observe(Duration::from_secs(1));
        let mut plain = String::new();
        histogram.render(&mut plain, "x_seconds", "Help.");
        assert_eq!(
            plain,
            "# HELP x_seconds Help.\n# TYPE x_seconds histogram\nx_seconds_bucket{le=\"0.001\"} 1\nx_seconds_bucket{le=\"0.01\"} 2\nx_seconds_bucket{le=\"0.1\"} 2\nx_seconds_bucket{le=\"+Inf\"} 3\nx_seconds_sum 1.0055\nx_seconds_count 3\n"
        );
        let mut labelled = String::new();
        histogram.render_series(&mut labelled, "x_seconds", "kind=\"a\"");
        assert!(
            labelled.starts_with("x_seconds_bucket{kind=\"a\",le=\"0.001\"} 1\n"),
            "{labelled}"
        );
        assert!(
            labelled.ends_with("x_seconds_sum{kind=\"a\"} 1.0055\nx_seconds_count{kind=\"a\"} 3\n"),
            "{labelled}"
        );
    }

    #[test]
    fn the_process_reads_its_own_memory_and_cpu() {
        assert!(resident_memory_bytes().is_some_and(|b| b > 0));
        assert!(cpu_seconds().is_some());
    }
}
