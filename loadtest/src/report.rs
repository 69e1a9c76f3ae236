//! What a live run measured: a readable summary, JSON, and the merge of the reports of
//! one run split over several load generator processes (`--shard`, `--merge`).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Percentiles {
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl Percentiles {
    /// Of latencies in microseconds, sorted ascending.
    pub fn of(sorted_us: &[u32]) -> Percentiles {
        Percentiles {
            p50_ms: ms(percentile(sorted_us, 50.0)),
            p95_ms: ms(percentile(sorted_us, 95.0)),
            p99_ms: ms(percentile(sorted_us, 99.0)),
            max_ms: ms(percentile(sorted_us, 100.0)),
        }
    }
}

impl std::fmt::Display for Percentiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "p50 {} ms  p95 {} ms  p99 {} ms  max {} ms",
            self.p50_ms, self.p95_ms, self.p99_ms, self.max_ms
        )
    }
}

pub(crate) fn percentile(sorted_us: &[u32], p: f64) -> Duration {
    if sorted_us.is_empty() {
        return Duration::ZERO;
    }
    let index = ((p / 100.0) * (sorted_us.len() - 1) as f64).round() as usize;
    Duration::from_micros(sorted_us[index.min(sorted_us.len() - 1)] as u64)
}

pub(crate) fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e5).round() / 1e2
}

/// Microseconds since the Unix epoch: the clock every load generator process on the
/// machine shares, so a slide change sent by one is timed by the others.
pub fn unix_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

/// Moments of a run (Unix microseconds), kept to merge the reports of several processes.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct Times {
    pub joins_started_us: u64,
    pub joins_ended_us: u64,
    /// The guide's send time of the first slide change received.
    pub first_sent_us: u64,
    /// When the last slide change arrived.
    pub last_received_us: u64,
}

/// Whether every attendee saw every event exactly once, in order (summed over attendees).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Continuity {
    /// Reconnections after a socket closed (`--resume`).
    pub resumes: u64,
    /// Resumes answered with a snapshot instead of the missed events.
    pub snapshot_resumes: u64,
    /// Events whose `prev` was not the last event the attendee had: something was lost.
    pub gaps: u64,
    /// Events received again (a `seq` not after the last one): would be applied twice.
    pub duplicates: u64,
    /// Attendees who did not end on the last slide.
    pub not_on_last_slide: u64,
    /// Of those, the ones that stopped waiting: no slide change for `RECEIVE_TIMEOUT`.
    #[serde(default)]
    pub timed_out: u64,
    /// Of those, the ones whose socket closed and was not resumed.
    #[serde(default)]
    pub closed: u64,
}

impl Continuity {
    pub fn add(&mut self, other: &Continuity) {
        self.resumes += other.resumes;
        self.snapshot_resumes += other.snapshot_resumes;
        self.gaps += other.gaps;
        self.duplicates += other.duplicates;
        self.not_on_last_slide += other.not_on_last_slide;
        self.timed_out += other.timed_out;
        self.closed += other.closed;
    }

    /// Nothing lost, nothing twice, everyone on the last slide.
    pub fn is_clean(&self) -> bool {
        self.snapshot_resumes == 0
            && self.gaps == 0
            && self.duplicates == 0
            && self.not_on_last_slide == 0
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    /// Attendees (of all load generators, once merged).
    pub clients: usize,
    /// Load generator processes the run was split over.
    pub shards: usize,
    pub slides: u32,
    /// Slide changes counted as "right after the joins" (the rest: steady state).
    pub first_slides: u32,
    pub joins_per_second: f64,
    pub join_seconds: f64,
    pub deliveries: u64,
    pub expected_deliveries: u64,
    pub deliveries_per_second: f64,
    pub latency: Percentiles,
    /// The first `first_slides` slide changes, once the joins settled.
    pub latency_after_joins: Percentiles,
    /// The slide changes after those.
    pub latency_steady: Percentiles,
    pub errors: u64,
    /// Growth of the hubs' resident memory per attendee connection, if readable.
    pub hub_bytes_per_connection: Option<f64>,
    /// CPU time the hubs spent during the slide changes (their `process_cpu_seconds_total`).
    pub hub_cpu_seconds: Option<f64>,
    /// CPU time of the load generator(s) from the end of the joins to the last delivery.
    pub generator_cpu_seconds: f64,
    pub times: Times,
    /// Every latency of the first slide changes, in microseconds (sorted); written with
    /// `--out`, for `--merge`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after_joins_us: Vec<u32>,
    /// Every latency of the later slide changes (sorted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steady_us: Vec<u32>,
    #[serde(default)]
    pub continuity: Continuity,
    /// What the engagement mode sent and checked (`None` for a plain run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engagement: Option<crate::engagement::EngagementReport>,
}

impl Report {
    /// Every attendee joined and saw every event exactly once, in order, to the last slide.
    pub fn is_clean(&self) -> bool {
        self.errors == 0
            && self.continuity.is_clean()
            && self.engagement.as_ref().is_none_or(|e| e.is_clean())
    }

    /// Sorts the latencies and computes what follows from them and from the times.
    pub fn finish(mut self) -> Report {
        self.after_joins_us.sort_unstable();
        self.steady_us.sort_unstable();
        let mut all = Vec::with_capacity(self.after_joins_us.len() + self.steady_us.len());
        all.extend_from_slice(&self.after_joins_us);
        all.extend_from_slice(&self.steady_us);
        all.sort_unstable();
        self.deliveries = all.len() as u64;
        self.latency = Percentiles::of(&all);
        self.latency_after_joins = Percentiles::of(&self.after_joins_us);
        self.latency_steady = Percentiles::of(&self.steady_us);
        let t = self.times;
        self.join_seconds = t.joins_ended_us.saturating_sub(t.joins_started_us) as f64 / 1e6;
        self.joins_per_second = self.clients as f64 / self.join_seconds.max(1e-9);
        let delivering = t.last_received_us.saturating_sub(t.first_sent_us) as f64 / 1e6;
        self.deliveries_per_second = self.deliveries as f64 / delivering.max(1e-9);
        self
    }

    /// One report of the reports of the parts of a run (each written with `--out`):
    /// percentiles over all their deliveries.
    pub fn merge(parts: Vec<Report>) -> anyhow::Result<Report> {
        let mut parts = parts.into_iter();
        let Some(mut merged) = parts.next() else {
            anyhow::bail!("no reports to merge")
        };
        for part in parts {
            if (part.slides, part.first_slides) != (merged.slides, merged.first_slides) {
                anyhow::bail!(
                    "the reports are of different runs (slide changes {} and {})",
                    merged.slides,
                    part.slides
                );
            }
            merged.clients += part.clients;
            merged.shards += part.shards;
            merged.expected_deliveries += part.expected_deliveries;
            merged.errors += part.errors;
            merged.continuity.add(&part.continuity);
            merged.hub_bytes_per_connection = merged
                .hub_bytes_per_connection
                .or(part.hub_bytes_per_connection);
            merged.hub_cpu_seconds = merged.hub_cpu_seconds.or(part.hub_cpu_seconds);
            merged.generator_cpu_seconds += part.generator_cpu_seconds;
            let (a, b) = (&mut merged.times, part.times);
            a.joins_started_us = a.joins_started_us.min(b.joins_started_us);
            a.joins_ended_us = a.joins_ended_us.max(b.joins_ended_us);
            a.first_sent_us = match (a.first_sent_us, b.first_sent_us) {
                (0, t) | (t, 0) => t,
                (x, y) => x.min(y),
            };
            a.last_received_us = a.last_received_us.max(b.last_received_us);
            merged.after_joins_us.extend(part.after_joins_us);
            merged.steady_us.extend(part.steady_us);
            match (&mut merged.engagement, part.engagement) {
                (Some(mine), Some(theirs)) => mine.merge(theirs),
                (None, None) => {}
                _ => anyhow::bail!(
                    "the reports are of different runs (one with engagement, one without)"
                ),
            }
        }
        Ok(merged.finish())
    }

    /// The report without the raw latencies (for printing).
    pub fn summary(mut self) -> Report {
        self.after_joins_us = Vec::new();
        self.steady_us = Vec::new();
        self
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "attendees {}  load generators {}  slide changes {}  errors {}",
            self.clients, self.shards, self.slides, self.errors
        )?;
        writeln!(
            f,
            "joins {:.0}/s ({:.2} s for all)",
            self.joins_per_second, self.join_seconds
        )?;
        writeln!(f, "fan-out latency {}", self.latency)?;
        let first = self.first_slides.min(self.slides);
        writeln!(
            f,
            "  first {first} slide changes after the joins: {}",
            self.latency_after_joins
        )?;
        writeln!(
            f,
            "  the other {} (steady state): {}",
            self.slides - first,
            self.latency_steady
        )?;
        write!(
            f,
            "deliveries {}/{}  {:.0}/s",
            self.deliveries, self.expected_deliveries, self.deliveries_per_second
        )?;
        let c = &self.continuity;
        write!(
            f,
            "\ncontinuity: resumes {}  by snapshot {}  gaps {}  duplicates {}  not on the last slide {} (timed out {}, closed {})",
            c.resumes, c.snapshot_resumes, c.gaps, c.duplicates, c.not_on_last_slide, c.timed_out, c.closed
        )?;
        let per_delivery = |seconds: f64| seconds * 1e6 / self.deliveries.max(1) as f64;
        if let Some(hub) = self.hub_cpu_seconds {
            write!(
                f,
                "\nhub CPU during the slide changes {hub:.2} s ({:.2} µs per delivery)",
                per_delivery(hub)
            )?;
        }
        write!(
            f,
            "\nload generator CPU {:.2} s ({:.2} µs per delivery)",
            self.generator_cpu_seconds,
            per_delivery(self.generator_cpu_seconds)
        )?;
        if let Some(bytes) = self.hub_bytes_per_connection {
            write!(
                f,
                "\nhub memory per connection {:.0} bytes ({:.1} KiB)",
                bytes,
                bytes / 1024.0
            )?;
        }
        if let Some(engagement) = &self.engagement {
            write!(f, "\n{engagement}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(clients: usize, after_joins_us: Vec<u32>, steady_us: Vec<u32>, times: Times) -> Report {
        Report {
            clients,
            shards: 1,
            slides: 4,
            first_slides: 1,
            joins_per_second: 0.0,
            join_seconds: 0.0,
            deliveries: 0,
            expected_deliveries: clients as u64 * 4,
            deliveries_per_second: 0.0,
            latency: Percentiles::default(),
            latency_after_joins: Percentiles::default(),
            latency_steady: Percentiles::default(),
            errors: 0,
            hub_bytes_per_connection: None,
            hub_cpu_seconds: None,
            generator_cpu_seconds: 1.0,
            times,
            after_joins_us,
            steady_us,
            continuity: Continuity::default(),
            engagement: None,
        }
        .finish()
    }

    #[test]
    fn merged_reports_take_percentiles_over_all_deliveries_and_the_widest_times() {
        let a = part(
            2,
            vec![9_000, 1_000],
            vec![1_000; 6],
            Times {
                joins_started_us: 100,
                joins_ended_us: 2_000_100,
                first_sent_us: 3_000_000,
                last_received_us: 4_000_000,
            },
        );
        let mut b = part(
            2,
            vec![2_000, 3_000],
            (1..=6).map(|n| n * 10_000).collect(),
            Times {
                joins_started_us: 200,
                joins_ended_us: 4_000_100,
                first_sent_us: 0,
                last_received_us: 5_000_000,
            },
        );
        b.hub_cpu_seconds = Some(0.5);
        b.errors = 1;
        // Written and read back as the processes do.
        let read = |r: &Report| -> Report {
            serde_json::from_str(&serde_json::to_string(r).unwrap()).unwrap()
        };
        let merged = Report::merge(vec![read(&a), read(&b)]).unwrap();
        assert_eq!(
            (
                merged.clients,
                merged.shards,
                merged.deliveries,
                merged.expected_deliveries
            ),
            (4, 2, 16, 16)
        );
        assert_eq!(merged.errors, 1);
        assert_eq!(merged.hub_cpu_seconds, Some(0.5));
        assert_eq!(merged.generator_cpu_seconds, 2.0);
        assert_eq!(
            merged.latency_after_joins,
            Percentiles::of(&[1_000, 2_000, 3_000, 9_000])
        );
        assert_eq!(merged.latency.max_ms, 60.0);
        // The first part alone has a median of 1 ms; over all sixteen it is 3 ms.
        assert_eq!(a.latency.p50_ms, 1.0);
        assert_eq!(merged.latency.p50_ms, 3.0);
        // Joins: from the first start to the last end; deliveries: from the first send.
        assert_eq!(merged.join_seconds, 4.0);
        assert_eq!(merged.joins_per_second, 1.0);
        assert_eq!(merged.deliveries_per_second, 8.0);
        // The printed report has no raw latencies.
        let printed = serde_json::to_value(merged.summary()).unwrap();
        assert!(printed.get("steady_us").is_none() && printed.get("after_joins_us").is_none());
    }

    #[test]
    fn reports_of_different_runs_are_not_merged() {
        let a = part(1, vec![1], vec![1; 3], Times::default());
        let mut b = part(1, vec![1], vec![1; 3], Times::default());
        b.slides = 5;
        assert!(Report::merge(vec![a, b]).is_err());
        assert!(Report::merge(Vec::new()).is_err());
    }
}
