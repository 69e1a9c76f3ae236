//! The shop mode: the catalogue benchmark of issue 3. Sends one fixed request
//! (a category listing with two filters, a sorting and the listing's aggregations, or
//! a search with a term) from N concurrent clients over keep-alive HTTP for a set time,
//! after a warm-up, and reports latency percentiles and requests per second.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use serde::Serialize;
use serde_json::{json, Value};

use crate::Percentiles;

#[derive(Debug, Clone, clap::Parser)]
#[command(
    name = "loadtest-shop",
    about = "Salesroom catalogue benchmark (store API listing and search)"
)]
pub struct ShopOptions {
    /// The public origin (storefront-proxy).
    #[arg(long, default_value = "http://127.0.0.1:8000")]
    pub base_url: String,
    #[arg(long, default_value = "SWSCSALESROOMDEMO000000000")]
    pub access_key: String,
    /// What to measure: `listing`, `search` or both, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "listing,search")]
    pub scenario: Vec<String>,
    /// Concurrent clients; one run per value, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,32")]
    pub concurrency: Vec<usize>,
    /// Seconds each measured run lasts.
    #[arg(long, default_value_t = 10)]
    pub seconds: u64,
    /// Seconds of warm-up (not measured) before each scenario.
    #[arg(long, default_value_t = 3)]
    pub warmup_seconds: u64,
    /// The category to list; the sales channel's navigation root (every product) if unset.
    #[arg(long)]
    pub category: Option<String>,
    /// The search term.
    #[arg(long, default_value = "classic")]
    pub term: String,
    /// Products per page (a storefront's page size).
    #[arg(long, default_value_t = 24)]
    pub limit: u32,
    /// Print the reports as JSON.
    #[arg(long)]
    pub json: bool,
}

/// One measured run.
#[derive(Debug, Serialize)]
pub struct ShopReport {
    pub scenario: String,
    pub concurrency: usize,
    pub requests: u64,
    pub errors: u64,
    pub seconds: f64,
    pub requests_per_second: f64,
    pub latency: Percentiles,
    /// The `total` of the answer (how many products matched).
    pub total: u64,
}

impl std::fmt::Display for ShopReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:<8} c={:<3} {:>6} requests ({} errors) in {:.1} s  {:>7.1} req/s  p50 {} ms  p95 {} ms  p99 {} ms  max {} ms  (total {})",
            self.scenario,
            self.concurrency,
            self.requests,
            self.errors,
            self.seconds,
            self.requests_per_second,
            self.latency.p50_ms,
            self.latency.p95_ms,
            self.latency.p99_ms,
            self.latency.max_ms,
            self.total
        )
    }
}

/// A request of a scenario: where and what to post.
#[derive(Debug, Clone)]
pub struct ShopRequest {
    pub url: String,
    pub body: Value,
}

async fn store_api(
    http: &reqwest::Client,
    key: &str,
    request: &ShopRequest,
) -> anyhow::Result<Value> {
    let response = http
        .post(&request.url)
        .header("sw-access-key", key)
        .json(&request.body)
        .send()
        .await?;
    let status = response.status();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        bail!("POST {}: {status} {body}", request.url);
    }
    Ok(body)
}

/// The listing request: the category, filtered by its first manufacturer and its first
/// property option (from the unfiltered listing's aggregations), sorted by price, with
/// aggregations.
pub async fn listing_request(
    http: &reqwest::Client,
    options: &ShopOptions,
) -> anyhow::Result<ShopRequest> {
    let base = options.base_url.trim_end_matches('/');
    let category = match &options.category {
        Some(id) => id.clone(),
        None => {
            let response = http
                .get(format!("{base}/store-api/context"))
                .header("sw-access-key", &options.access_key)
                .send()
                .await?;
            let context: Value = response.error_for_status()?.json().await?;
            context["salesChannel"]["navigationCategoryId"]
                .as_str()
                .context("navigationCategoryId in the context")?
                .to_owned()
        }
    };
    let url = format!("{base}/store-api/product-listing/{category}");
    let probe = store_api(
        http,
        &options.access_key,
        &ShopRequest {
            url: url.clone(),
            body: json!({ "limit": 1 }),
        },
    )
    .await?;
    let aggregations = &probe["aggregations"];
    let manufacturer = aggregations["manufacturer"]["entities"][0]["id"]
        .as_str()
        .context("a manufacturer in the aggregations")?;
    let option = aggregations["properties"]["entities"]
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|group| group["options"][0]["id"].as_str())
        .context("a property option in the aggregations")?;
    Ok(ShopRequest {
        url,
        body: json!({
            "manufacturer": manufacturer,
            "properties": option,
            "order": "price-asc",
            "limit": options.limit,
            "p": 1,
        }),
    })
}

pub fn search_request(options: &ShopOptions) -> ShopRequest {
    let base = options.base_url.trim_end_matches('/');
    ShopRequest {
        url: format!("{base}/store-api/search"),
        body: json!({ "search": options.term, "limit": options.limit, "p": 1 }),
    }
}

/// Sends `request` from `concurrency` clients for `duration`; latencies sorted, in µs.
async fn hammer(
    http: &reqwest::Client,
    key: &str,
    request: &ShopRequest,
    concurrency: usize,
    duration: Duration,
) -> (Vec<u32>, u64, u64, Duration) {
    let stop = Arc::new(AtomicBool::new(false));
    let errors = Arc::new(AtomicU64::new(0));
    let total = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut workers = Vec::with_capacity(concurrency);
    for _ in 0..concurrency.max(1) {
        let (http, key, request, stop, errors, total) = (
            http.clone(),
            key.to_owned(),
            request.clone(),
            stop.clone(),
            errors.clone(),
            total.clone(),
        );
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let sent = Instant::now();
                match store_api(&http, &key, &request).await {
                    Ok(body) => {
                        latencies.push(sent.elapsed().as_micros().min(u32::MAX as u128) as u32);
                        total.store(body["total"].as_u64().unwrap_or(0), Ordering::Relaxed);
                    }
                    Err(error) => {
                        if errors.fetch_add(1, Ordering::Relaxed) == 0 {
                            eprintln!("first error: {error:#}");
                        }
                    }
                }
            }
            latencies
        }));
    }
    tokio::time::sleep(duration).await;
    stop.store(true, Ordering::Relaxed);
    let mut latencies = Vec::new();
    for worker in workers {
        latencies.extend(worker.await.unwrap_or_default());
    }
    let elapsed = started.elapsed();
    latencies.sort_unstable();
    (
        latencies,
        errors.load(Ordering::Relaxed),
        total.load(Ordering::Relaxed),
        elapsed,
    )
}

/// Runs every scenario at every concurrency.
pub async fn run(options: &ShopOptions) -> anyhow::Result<Vec<ShopReport>> {
    let max = options.concurrency.iter().copied().max().unwrap_or(1);
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(max)
        .tcp_nodelay(true)
        .build()?;
    let mut reports = Vec::new();
    for scenario in &options.scenario {
        let request = match scenario.as_str() {
            "listing" => listing_request(&http, options).await?,
            "search" => search_request(options),
            other => bail!("unknown scenario {other:?} (listing, search)"),
        };
        let check = store_api(&http, &options.access_key, &request).await?;
        if check["total"].as_u64().unwrap_or(0) == 0 {
            bail!(
                "{scenario}: the request matches no products: {}",
                request.body
            );
        }
        eprintln!("{scenario}: POST {} {}", request.url, request.body);
        hammer(
            &http,
            &options.access_key,
            &request,
            max,
            Duration::from_secs(options.warmup_seconds),
        )
        .await;
        for &concurrency in &options.concurrency {
            let (latencies, errors, total, elapsed) = hammer(
                &http,
                &options.access_key,
                &request,
                concurrency,
                Duration::from_secs(options.seconds),
            )
            .await;
            let requests = latencies.len() as u64;
            reports.push(ShopReport {
                scenario: scenario.clone(),
                concurrency,
                requests,
                errors,
                seconds: elapsed.as_secs_f64(),
                requests_per_second: requests as f64 / elapsed.as_secs_f64().max(1e-9),
                latency: Percentiles::of(&latencies),
                total,
            });
        }
    }
    Ok(reports)
}
