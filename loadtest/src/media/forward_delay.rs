//! The sfu's own forward delay: its `sfu_forward_delay_seconds` histogram read from
//! `/metrics` at the start and the end of the window, percentiles interpolated within a
//! bucket as Prometheus' `histogram_quantile` does.

use super::*;

/// `/metrics` of the sfu whose signalling is at `url` (`ws://host:port` → `http://host:port/metrics`).
pub(super) fn metrics_url(url: &str) -> String {
    let base = url.trim_end_matches('/');
    let base = base
        .strip_prefix("ws://")
        .map(|rest| format!("http://{rest}"))
        .unwrap_or_else(|| {
            base.strip_prefix("wss://")
                .map(|rest| format!("https://{rest}"))
                .unwrap_or_else(|| base.to_owned())
        });
    format!("{base}/metrics")
}

/// The `sfu_forward_delay_seconds` histogram of one `kind` label: cumulative counts per
/// upper bound (seconds, `+Inf` last), and the sum of the observations.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct BucketCounts {
    pub(super) buckets: Vec<(f64, u64)>,
    pub(super) sum: f64,
}

/// p50/p99 from a Prometheus histogram's buckets (linear within a bucket, as
/// `histogram_quantile`), and the mean from its sum.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BucketPercentiles {
    pub count: u64,
    pub mean_ms: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    /// Observations over 5 ms (the aim's p99 bound), per cent.
    pub over_5ms_percent: f64,
}

impl std::fmt::Display for BucketPercentiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "p50 {:.2} ms  p99 {:.2} ms  mean {:.2} ms  over 5 ms {:.3} %  ({} forwards)",
            self.p50_ms, self.p99_ms, self.mean_ms, self.over_5ms_percent, self.count
        )
    }
}

impl BucketCounts {
    /// What was observed between two scrapes.
    pub(super) fn window(start: &BucketCounts, end: &BucketCounts) -> Option<BucketCounts> {
        if start.buckets.len() != end.buckets.len() {
            return None;
        }
        let buckets = start
            .buckets
            .iter()
            .zip(&end.buckets)
            .map(|(&(_, a), &(bound, b))| (bound, b.saturating_sub(a)))
            .collect();
        Some(BucketCounts {
            buckets,
            sum: end.sum - start.sum,
        })
    }

    pub(super) fn count(&self) -> u64 {
        self.buckets.last().map_or(0, |&(_, n)| n)
    }

    pub(super) fn quantile(&self, q: f64) -> f64 {
        let rank = q * self.count() as f64;
        let mut lower = (0.0, 0u64);
        for &(bound, cumulative) in &self.buckets {
            if cumulative as f64 >= rank {
                if bound.is_infinite() {
                    // Beyond the last bound: all that can be said is "more than it".
                    return lower.0;
                }
                let in_bucket = (cumulative - lower.1) as f64;
                let fraction = if in_bucket > 0.0 {
                    (rank - lower.1 as f64) / in_bucket
                } else {
                    1.0
                };
                return lower.0 + (bound - lower.0) * fraction;
            }
            lower = (bound, cumulative);
        }
        lower.0
    }

    pub(super) fn percentiles(&self) -> Option<BucketPercentiles> {
        let count = self.count();
        if count == 0 {
            return None;
        }
        let within_5ms = self
            .buckets
            .iter()
            .find(|&&(bound, _)| (bound - 0.005).abs() < 1e-9)
            .map_or(0, |&(_, n)| n);
        Some(BucketPercentiles {
            count,
            mean_ms: self.sum * 1000.0 / count as f64,
            p50_ms: self.quantile(0.5) * 1000.0,
            p99_ms: self.quantile(0.99) * 1000.0,
            over_5ms_percent: (count - within_5ms) as f64 * 100.0 / count as f64,
        })
    }
}

/// The forward delay histograms in a `/metrics` text, by `kind` label.
pub(super) fn parse_forward_delay(text: &str) -> std::collections::HashMap<String, BucketCounts> {
    let mut by_kind: std::collections::HashMap<String, BucketCounts> =
        std::collections::HashMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("sfu_forward_delay_seconds_") else {
            continue;
        };
        let Some((series, value)) = rest.rsplit_once(' ') else {
            continue;
        };
        let Some((name, labels)) = series.split_once('{') else {
            continue;
        };
        let label = |key: &str| {
            labels.split(',').find_map(|l| {
                l.strip_prefix(&format!("{key}=\""))
                    .map(|v| v.trim_end_matches(['"', '}']))
            })
        };
        let Some(kind) = label("kind") else { continue };
        let entry = by_kind.entry(kind.to_owned()).or_insert(BucketCounts {
            buckets: Vec::new(),
            sum: 0.0,
        });
        match name {
            "bucket" => {
                let bound = match label("le") {
                    Some("+Inf") => f64::INFINITY,
                    Some(bound) => bound.parse().unwrap_or(f64::NAN),
                    None => continue,
                };
                if let Ok(n) = value.parse() {
                    entry.buckets.push((bound, n));
                }
            }
            "sum" => entry.sum = value.parse().unwrap_or(0.0),
            _ => {}
        }
    }
    by_kind
}

pub(super) async fn scrape_forward_delay(
    url: &str,
) -> anyhow::Result<std::collections::HashMap<String, BucketCounts>> {
    let text = reqwest::get(url).await?.error_for_status()?.text().await?;
    let parsed = parse_forward_delay(&text);
    if parsed.is_empty() {
        bail!("no sfu_forward_delay_seconds in {url}");
    }
    Ok(parsed)
}
