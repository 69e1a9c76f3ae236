//! What one client may cost the Store API (issue #29, item 8), a layer around every
//! `/store-api` route (`app.rs`), outermost, so that even the access key's lookup
//! counts:
//!
//! - **Rate** per client address ([`ClientAddr`](crate::security::ClientAddr)'s,
//!   `TRUSTED_PROXIES` honoured): `STORE_API_REQUESTS_PER_SECOND` with a burst of
//!   `STORE_API_REQUEST_BURST` (`governor`'s keyed GCRA limiter); past it `429`
//!   `FRAMEWORK__RATE_LIMIT_EXCEEDED` with the wait, as Shopware's rate limiter answers.
//! - **Concurrency** per client address: `STORE_API_CLIENT_CONCURRENCY` requests served
//!   at once, `STORE_API_CLIENT_QUEUE` more waiting, the rest answered `429` at once, so
//!   one client cannot take every database reader.
//! - **A time budget for each database read** (`STORE_API_QUERY_BUDGET_MS`,
//!   `storage::budget`): a read over it is stopped by SQLite and answered `503`
//!   `SALESROOM__QUERY_TOO_EXPENSIVE`.
//! - **Few stopped reads per client**: `STORE_API_STOPPED_READS_PER_MINUTE` (a burst of
//!   as many, then evenly); a client past them is answered `429` until its next one is
//!   due, whatever it asks for. A shopper never meets this (a listing takes ~1 % of the
//!   budget); a client that keeps sending queries over the budget holds a database
//!   reader for one budget every few seconds instead of all the time.
//!
//! The last two stop the expensive anonymous query (a `contains` that every one of
//! 100,000 names matches, with an exact total and a name sorting: 0.4–3.3 s). A trigram
//! index for `contains` was tried and dropped (migration 0101): the cost is in sorting and
//! counting every match, which no index of the text saves.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::config::Config;
use crate::error::ApiError;
use crate::security::{Security, MAX_THROTTLE_KEYS};
use crate::storage;

// The defaults (`config.rs`): 100 requests a second with a burst of 1,000 (well above a
// shopper's pages, about ten requests each, and test suites on one address that walk
// every route at once);
// 8 at once (more than the six connections a browser opens to one host), 64 waiting;
// 1,000 ms a read (ten times a category listing over 100,000 products on a busy
// machine); 3 stopped reads a minute.

/// The code of a refusal by rate or concurrency (Shopware's rate limiter's).
pub const RATE_LIMIT_EXCEEDED: &str = "FRAMEWORK__RATE_LIMIT_EXCEEDED";

/// The limits' shared state: the layer's state (`app.rs`).
pub struct StoreApiBudget {
    security: Arc<Security>,
    rate: Option<DefaultKeyedRateLimiter<IpAddr>>,
    slots: Option<Slots>,
    query_budget: Option<Duration>,
    /// Reads stopped at the budget, per client.
    stopped: Option<DefaultKeyedRateLimiter<IpAddr>>,
    /// Clients refused until then (they went past their stopped reads).
    benched: Mutex<HashMap<IpAddr, Instant>>,
}

/// Each active client's slots; a client leaves the map with its last request.
struct Slots {
    running: usize,
    queue: usize,
    clients: Mutex<HashMap<IpAddr, Arc<ClientSlots>>>,
}

struct ClientSlots {
    running: Arc<Semaphore>,
    /// Running and waiting.
    admitted: Arc<Semaphore>,
}

/// A request's slot: given back (and an idle client forgotten) when dropped.
struct Slot {
    budget: Arc<StoreApiBudget>,
    client: IpAddr,
    slots: Option<Arc<ClientSlots>>,
    permits: Option<(OwnedSemaphorePermit, OwnedSemaphorePermit)>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.permits.take();
        let (Some(slots), Some(limits)) = (self.slots.take(), self.budget.slots.as_ref()) else {
            return;
        };
        let mut clients = limits.clients.lock().unwrap_or_else(|p| p.into_inner());
        // Held by the map and this slot only: no other request of the client is left.
        if clients
            .get(&self.client)
            .is_some_and(|held| Arc::ptr_eq(held, &slots) && Arc::strong_count(held) == 2)
        {
            clients.remove(&self.client);
        }
    }
}

/// A refusal in Shopware's rate limiter's shape, with the wait.
pub fn refused(seconds: u64) -> ApiError {
    let seconds = seconds.max(1);
    ApiError::Throttled {
        code: RATE_LIMIT_EXCEEDED,
        detail: format!("Too many requests, try again in {seconds} seconds."),
        seconds,
    }
}

impl StoreApiBudget {
    pub fn new(config: &Config, security: Arc<Security>) -> StoreApiBudget {
        let rate = NonZeroU32::new(config.store_api_requests_per_second).map(|rate| {
            let burst = NonZeroU32::new(config.store_api_request_burst).unwrap_or(rate);
            RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst))
        });
        let slots = (config.store_api_client_concurrency > 0).then(|| Slots {
            running: config.store_api_client_concurrency,
            queue: config.store_api_client_queue,
            clients: Mutex::new(HashMap::new()),
        });
        let query_budget = (config.store_api_query_budget_ms > 0)
            .then(|| Duration::from_millis(config.store_api_query_budget_ms));
        let stopped = NonZeroU32::new(config.store_api_stopped_reads_per_minute)
            .map(|n| RateLimiter::keyed(Quota::per_minute(n)));
        StoreApiBudget {
            security,
            rate,
            slots,
            query_budget,
            stopped,
            benched: Mutex::new(HashMap::new()),
        }
    }

    /// Refuses a client that went past its stopped reads, until its next one is due.
    fn check_benched(&self, client: IpAddr) -> Result<(), ApiError> {
        let benched = self.benched.lock().unwrap_or_else(|p| p.into_inner());
        match benched
            .get(&client)
            .map(|until| until.saturating_duration_since(Instant::now()))
        {
            Some(wait) if !wait.is_zero() => Err(refused(wait.as_secs_f64().ceil() as u64)),
            _ => Ok(()),
        }
    }

    /// Counts a read of `client` stopped at the budget; past its allowance the client
    /// is refused until the next one is due.
    fn stopped_read(&self, client: IpAddr) {
        let Some(limiter) = &self.stopped else { return };
        if limiter.len() >= MAX_THROTTLE_KEYS {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        if let Err(not_until) = limiter.check_key(&client) {
            let wait = not_until.wait_time_from(governor::clock::Clock::now(limiter.clock()));
            let now = Instant::now();
            let mut benched = self.benched.lock().unwrap_or_else(|p| p.into_inner());
            if benched.len() >= MAX_THROTTLE_KEYS {
                benched.retain(|_, until| *until > now);
            }
            benched.insert(client, now + wait);
        }
    }

    /// Takes one of `client`'s requests from its rate, or refuses with the wait.
    fn check_rate(&self, client: IpAddr) -> Result<(), ApiError> {
        let Some(limiter) = &self.rate else {
            return Ok(());
        };
        // Keys whose quota is full again are as good as new: drop them now and then.
        if limiter.len() >= MAX_THROTTLE_KEYS {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        limiter.check_key(&client).map_err(|not_until| {
            let wait = not_until.wait_time_from(governor::clock::Clock::now(limiter.clock()));
            refused(wait.as_secs_f64().ceil() as u64)
        })
    }

    /// Waits for one of `client`'s slots; refuses at once when its queue is full.
    async fn slot(self: &Arc<Self>, client: IpAddr) -> Result<Slot, ApiError> {
        let mut slot = Slot {
            budget: self.clone(),
            client,
            slots: None,
            permits: None,
        };
        let Some(limits) = &self.slots else {
            return Ok(slot);
        };
        let slots = {
            let mut clients = limits.clients.lock().unwrap_or_else(|p| p.into_inner());
            clients
                .entry(client)
                .or_insert_with(|| {
                    Arc::new(ClientSlots {
                        running: Arc::new(Semaphore::new(limits.running)),
                        admitted: Arc::new(Semaphore::new(limits.running + limits.queue)),
                    })
                })
                .clone()
        };
        slot.slots = Some(slots.clone());
        let admitted = slots
            .admitted
            .clone()
            .try_acquire_owned()
            .map_err(|_| refused(1))?;
        let running = slots
            .running
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| ApiError::Internal(e.into()))?;
        slot.permits = Some((admitted, running));
        Ok(slot)
    }

    /// Clients with a request running or waiting (bounded by the requests in flight).
    pub fn active_clients(&self) -> usize {
        self.slots
            .as_ref()
            .map(|s| s.clients.lock().unwrap_or_else(|p| p.into_inner()).len())
            .unwrap_or(0)
    }
}

/// The layer: rate, then a slot, then the handler with the read budget.
pub async fn guard(
    State(budget): State<Arc<StoreApiBudget>>,
    request: Request,
    next: Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip());
    let client = budget.security.client_ip(peer, request.headers());
    if let Err(refusal) = budget
        .check_benched(client)
        .and_then(|()| budget.check_rate(client))
    {
        return refusal.into_response();
    }
    let _slot = match budget.slot(client).await {
        Ok(slot) => slot,
        Err(refusal) => return refusal.into_response(),
    };
    let (response, stopped) = storage::budget::scope(budget.query_budget, next.run(request)).await;
    if stopped {
        budget.stopped_read(client);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(edit: impl FnOnce(Config) -> Config) -> Arc<StoreApiBudget> {
        let config = edit(Config::for_data_dir("/tmp/unused"));
        Arc::new(StoreApiBudget::new(
            &config,
            Arc::new(Security::new(&config)),
        ))
    }

    #[test]
    fn the_rate_is_per_client_with_its_burst() {
        let budget = budget(|c| Config {
            store_api_requests_per_second: 1,
            store_api_request_burst: 3,
            ..c
        });
        let (a, b): (IpAddr, IpAddr) = (
            "203.0.113.1".parse().unwrap(),
            "203.0.113.2".parse().unwrap(),
        );
        for _ in 0..3 {
            budget.check_rate(a).unwrap();
        }
        let Err(ApiError::Throttled { code, seconds, .. }) = budget.check_rate(a) else {
            panic!("not refused")
        };
        assert_eq!((code, seconds), (RATE_LIMIT_EXCEEDED, 1));
        budget.check_rate(b).unwrap();
    }

    #[test]
    fn a_client_past_its_stopped_reads_is_benched_until_the_next_is_due() {
        let budget = budget(|c| Config {
            store_api_stopped_reads_per_minute: 2,
            ..c
        });
        let (a, b): (IpAddr, IpAddr) = (
            "203.0.113.1".parse().unwrap(),
            "203.0.113.2".parse().unwrap(),
        );
        budget.stopped_read(a);
        budget.stopped_read(a);
        budget.check_benched(a).unwrap();
        budget.stopped_read(a);
        let Err(ApiError::Throttled { code, seconds, .. }) = budget.check_benched(a) else {
            panic!("not refused")
        };
        assert_eq!(code, RATE_LIMIT_EXCEEDED);
        assert!((1..=30).contains(&seconds), "{seconds}");
        budget.check_benched(b).unwrap();
    }

    #[tokio::test]
    async fn a_client_past_its_slots_and_queue_is_refused_and_forgotten_when_idle() {
        let budget = budget(|c| Config {
            store_api_client_concurrency: 1,
            store_api_client_queue: 1,
            ..c
        });
        let a: IpAddr = "203.0.113.1".parse().unwrap();
        let first = budget.slot(a).await.unwrap();
        // The second waits (queued) for the first's slot; the third is refused.
        let second = tokio::spawn({
            let budget = budget.clone();
            async move { budget.slot(a).await.map(drop).is_ok() }
        });
        tokio::task::yield_now().await;
        while budget.slots.as_ref().unwrap().clients.lock().unwrap()[&a]
            .admitted
            .available_permits()
            > 0
        {
            tokio::task::yield_now().await;
        }
        assert!(matches!(
            budget.slot(a).await,
            Err(ApiError::Throttled { .. })
        ));
        budget.slot("203.0.113.2".parse().unwrap()).await.unwrap();
        drop(first);
        assert!(second.await.unwrap());
        assert_eq!(budget.active_clients(), 0);
    }
}
