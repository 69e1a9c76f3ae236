//! The guards of the public origin (issue #29), below every domain:
//!
//! - **Who the client is** ([`ClientAddr`]): the peer's address; `X-Forwarded-For`
//!   (and `-Host`, `-Proto` for the request's origin, [`Security::request_origin`]) only when
//!   the peer is one of `TRUSTED_PROXIES`; whether a page's origin is the shop's
//!   ([`Security::is_shop_origin`], the configured origins parsed once).
//! - **Throttles with growing waits** ([`Security::throttle`]): Shopware's
//!   `time_backoff` rate limiter (`shopware.api.rate_limiter`: login, oauth,
//!   reset_password, newsletter_form, contact_form), per key (account and client
//!   address, the address alone, a mail's recipient); with the login's waits also a
//!   customer's current password at a password change (per account) and a guest's
//!   order lookups (per client address and per order). An attempt counts when it is
//!   made (so concurrent ones are counted too); a successful login forgets its account's
//!   and gives back its address's. Kept in a bounded map of hashed keys.
//! - **Volume quotas** ([`Security::quota`]): guest joins and registrations per client
//!   address, a steady rate with a burst (`governor`'s keyed GCRA limiter).
//! - **Bounded password hashing** ([`Passwords`]): at most `PASSWORD_CHECKS` Argon2
//!   computations at once (each takes ~19 MiB), `PASSWORD_CHECK_QUEUE` waiting, the rest
//!   answered `429` at once; an unknown user is checked against a dummy hash, so that
//!   the answer takes as long as for a known one.
//! - **Bearer tokens are stored as hashes** ([`token_hash`]).

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use argon2::{Argon2, PasswordHash, PasswordVerifier};
use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use sha2::{Digest, Sha256};

use crate::config::{Config, Net, Origin};
use crate::error::ApiError;

/// Keys the throttles keep at most; past it the older half is forgotten.
pub const MAX_THROTTLE_KEYS: usize = 100_000;

/// A throttle with growing waits, Shopware's `time_backoff` policy: `free` attempts,
/// then each next one only `waits[i]` after the one before, the wait growing at
/// `free`, 1.5 × `free` and 2 × `free` attempts; forgotten after `reset` without one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Throttle {
    /// Customer logins (Store API), per account and client address.
    Login,
    /// Customer logins per account, from any address (rotating addresses).
    LoginAccount,
    /// Failed logins (customer and admin) per client address, any account (spraying).
    LoginAddress,
    /// Admin API password grants (`/api/oauth/token`), per user name and client address.
    OAuth,
    /// Admin API password grants per user name, from any address.
    OAuthAccount,
    /// Mails a client address asks for: password recovery, newsletter, contact form.
    Mail,
    /// Mails to one recipient, from any address.
    MailRecipient,
    /// A customer's current password at a password change, per account.
    PasswordChange,
    /// A guest's order lookups (deep link code with e-mail and postal code), per client
    /// address: codes and postal codes cannot be guessed.
    GuestOrder,
    /// The same per order (its deep link code), from any address.
    GuestOrderCode,
}

impl Throttle {
    /// The error code Shopware answers when this throttle refuses.
    fn code(self) -> &'static str {
        match self {
            Throttle::Login | Throttle::LoginAccount | Throttle::PasswordChange => {
                "CHECKOUT__CUSTOMER_AUTH_THROTTLED"
            }
            Throttle::OAuth | Throttle::OAuthAccount => "FRAMEWORK__AUTH_THROTTLED",
            Throttle::LoginAddress
            | Throttle::Mail
            | Throttle::MailRecipient
            | Throttle::GuestOrder
            | Throttle::GuestOrderCode => "FRAMEWORK__RATE_LIMIT_EXCEEDED",
        }
    }

    fn detail(self, seconds: u64) -> String {
        match self {
            Throttle::Login | Throttle::LoginAccount | Throttle::PasswordChange => {
                format!("Customer auth throttled for {seconds} seconds.")
            }
            Throttle::OAuth | Throttle::OAuthAccount => {
                format!("Auth throttled for {seconds} seconds.")
            }
            Throttle::LoginAddress
            | Throttle::Mail
            | Throttle::MailRecipient
            | Throttle::GuestOrder
            | Throttle::GuestOrderCode => {
                format!("Too many requests, try again in {seconds} seconds.")
            }
        }
    }

    /// The refusal in Shopware's shape, with the wait.
    pub fn refused(self, seconds: u64) -> ApiError {
        let seconds = seconds.max(1);
        ApiError::Throttled {
            code: self.code(),
            detail: self.detail(seconds),
            seconds,
        }
    }
}

/// The steps of a [`Throttle`]: attempts free, then the waits from 1×, 1.5× and 2× that
/// many attempts.
#[derive(Debug, Clone, Copy)]
struct Policy {
    free: u32,
    waits: [Duration; 3],
    reset: Duration,
}

impl Policy {
    /// The wait before attempt number `attempt` (counted from 1) after the one before.
    fn wait_before(&self, attempt: u32) -> Duration {
        let free = self.free.max(1);
        if attempt <= free {
            Duration::ZERO
        } else if attempt <= free + free / 2 {
            self.waits[0]
        } else if attempt <= 2 * free {
            self.waits[1]
        } else {
            self.waits[2]
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    attempts: u32,
    last: Instant,
}

/// Attempts per hashed key (throttle and subject), bounded.
struct Backoff {
    hasher: std::collections::hash_map::RandomState,
    entries: Mutex<HashMap<u64, Entry>>,
    max_keys: usize,
}

impl Backoff {
    fn key(&self, throttle: Throttle, subject: &str) -> u64 {
        self.hasher.hash_one((throttle as u8, subject))
    }

    /// How long `key` must still wait before its next attempt (none: it may go).
    fn wait_in(
        entries: &HashMap<u64, Entry>,
        key: u64,
        policy: &Policy,
        now: Instant,
    ) -> Option<Duration> {
        let entry = entries.get(&key)?;
        let since = now.saturating_duration_since(entry.last);
        if since >= policy.reset {
            return None;
        }
        let wait = policy.wait_before(entry.attempts.saturating_add(1));
        (since < wait).then(|| wait - since)
    }

    fn record_in(
        &self,
        entries: &mut HashMap<u64, Entry>,
        key: u64,
        policy: &Policy,
        now: Instant,
    ) {
        if entries.len() >= self.max_keys && !entries.contains_key(&key) {
            Self::evict(entries, now, policy.reset, self.max_keys);
        }
        let entry = entries.entry(key).or_insert(Entry {
            attempts: 0,
            last: now,
        });
        if now.saturating_duration_since(entry.last) >= policy.reset {
            entry.attempts = 0;
        }
        entry.attempts = entry.attempts.saturating_add(1);
        entry.last = now;
    }

    /// Under one lock: the longest wait of `keys` (by index), or, when none must wait,
    /// an attempt counted for each. Requests at the same moment cannot all slip through
    /// before the first of them is counted.
    fn attempt(&self, keys: &[(u64, Policy)], now: Instant) -> Result<(), (usize, Duration)> {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let longest = keys
            .iter()
            .enumerate()
            .filter_map(|(i, (key, policy))| Some((i, Self::wait_in(&entries, *key, policy, now)?)))
            .max_by_key(|(_, wait)| *wait);
        if let Some(refused) = longest {
            return Err(refused);
        }
        for (key, policy) in keys {
            self.record_in(&mut entries, *key, policy, now);
        }
        Ok(())
    }

    /// Takes back one attempt of `key` (a login that succeeded does not count for its
    /// address).
    fn release(&self, key: u64) {
        if let Some(entry) = self
            .entries
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_mut(&key)
        {
            entry.attempts = entry.attempts.saturating_sub(1);
        }
    }

    fn forget(&self, key: u64) {
        self.entries
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&key);
    }

    /// Drops the keys quiet for `reset`, and if that is not enough, the older half.
    fn evict(entries: &mut HashMap<u64, Entry>, now: Instant, reset: Duration, max_keys: usize) {
        entries.retain(|_, e| now.saturating_duration_since(e.last) < reset);
        if entries.len() >= max_keys {
            let mut times: Vec<Instant> = entries.values().map(|e| e.last).collect();
            let middle = times.len() / 2;
            let (_, cut, _) = times.select_nth_unstable(middle);
            let cut = *cut;
            entries.retain(|_, e| e.last > cut);
        }
    }

    fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

/// A volume quota per client address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Volume {
    /// Guest joins of live appointments (`JOINS_PER_MINUTE`).
    Join,
    /// Customer registrations (`REGISTRATIONS_PER_MINUTE`).
    Registration,
}

/// The guards' shared state (in [`crate::state::App`]).
pub struct Security {
    trusted: Vec<Net>,
    /// `Config::shop_origins` of the environment, parsed once.
    shop_origins: Vec<Origin>,
    /// The merchant's domains, read as they change (`Config::merchant_domains`).
    merchant_domains: crate::config::MerchantDomains,
    backoff: Backoff,
    login: Policy,
    mail: Policy,
    joins: Option<DefaultKeyedRateLimiter<IpAddr>>,
    registrations: Option<DefaultKeyedRateLimiter<IpAddr>>,
    pub passwords: Passwords,
}

/// Shopware's waits for logins and admin logins (10 s, 30 s, 60 s) and for mails
/// (30 s, 60 s, 90 s); both forget after 24 hours of quiet.
const LOGIN_WAITS: [Duration; 3] = [
    Duration::from_secs(10),
    Duration::from_secs(30),
    Duration::from_secs(60),
];
const MAIL_WAITS: [Duration; 3] = [
    Duration::from_secs(30),
    Duration::from_secs(60),
    Duration::from_secs(90),
];
const RESET: Duration = Duration::from_secs(24 * 3600);

fn per_minute(rate: u32) -> Option<DefaultKeyedRateLimiter<IpAddr>> {
    let rate = NonZeroU32::new(rate)?;
    Some(RateLimiter::keyed(Quota::per_minute(rate)))
}

impl Security {
    pub fn new(config: &Config) -> Security {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2);
        Security {
            trusted: config.trusted_proxies.clone(),
            shop_origins: config.shop_origin_set(),
            merchant_domains: config.merchant_domains.clone(),
            backoff: Backoff {
                hasher: Default::default(),
                entries: Mutex::new(HashMap::new()),
                max_keys: MAX_THROTTLE_KEYS,
            },
            login: Policy {
                free: config.login_free_attempts.max(1),
                waits: LOGIN_WAITS,
                reset: RESET,
            },
            mail: Policy {
                free: config.mail_free_requests.max(1),
                waits: MAIL_WAITS,
                reset: RESET,
            },
            joins: per_minute(config.joins_per_minute),
            registrations: per_minute(config.registrations_per_minute),
            passwords: Passwords::new(
                config.password_checks.unwrap_or(cores).max(1),
                config.password_check_queue,
            ),
        }
    }

    fn policy(&self, throttle: Throttle) -> Policy {
        let scaled = |policy: Policy, factor: u32| Policy {
            free: policy.free.saturating_mul(factor),
            ..policy
        };
        match throttle {
            Throttle::Login
            | Throttle::OAuth
            | Throttle::PasswordChange
            | Throttle::GuestOrder
            | Throttle::GuestOrderCode => self.login,
            Throttle::LoginAccount | Throttle::OAuthAccount => scaled(self.login, 2),
            Throttle::LoginAddress => scaled(self.login, 5),
            Throttle::Mail => self.mail,
            Throttle::MailRecipient => Policy {
                free: (self.mail.free / 2).max(1),
                ..self.mail
            },
        }
    }

    /// Refuses (429, the longest wait) when any of `keys` must still wait, else counts
    /// an attempt for each, at once (one lock): a mail asked for, or a login before its
    /// password is checked (a success then [`Security::forget`]s or
    /// [`Security::release`]s it), so that concurrent attempts are counted too.
    pub fn throttle(&self, keys: &[(Throttle, &str)]) -> Result<(), ApiError> {
        let hashed: Vec<(u64, Policy)> = keys
            .iter()
            .map(|(throttle, subject)| {
                (self.backoff.key(*throttle, subject), self.policy(*throttle))
            })
            .collect();
        self.backoff
            .attempt(&hashed, Instant::now())
            .map_err(|(i, wait)| keys[i].0.refused(wait.as_secs_f64().ceil() as u64))
    }

    /// Forgets `keys` (a successful login forgets its account's failures).
    pub fn forget(&self, keys: &[(Throttle, &str)]) {
        for (throttle, subject) in keys {
            self.backoff.forget(self.backoff.key(*throttle, subject));
        }
    }

    /// Takes back one attempt of each of `keys`.
    pub fn release(&self, keys: &[(Throttle, &str)]) {
        for (throttle, subject) in keys {
            self.backoff.release(self.backoff.key(*throttle, subject));
        }
    }

    /// Keys the throttles hold (bounded by [`MAX_THROTTLE_KEYS`]).
    pub fn throttle_keys(&self) -> usize {
        self.backoff.len()
    }

    /// Takes one of the client address's `volume` quota, or refuses with the wait.
    pub fn quota(&self, volume: Volume, client: IpAddr) -> Result<(), ApiError> {
        let limiter = match volume {
            Volume::Join => &self.joins,
            Volume::Registration => &self.registrations,
        };
        let Some(limiter) = limiter else {
            return Ok(());
        };
        // Keys whose quota is full again are indistinguishable from new ones: drop them
        // now and then, so that the map holds only recently active addresses.
        if limiter.len() >= MAX_THROTTLE_KEYS {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        match limiter.check_key(&client) {
            Ok(()) => Ok(()),
            Err(not_until) => {
                let wait = not_until.wait_time_from(governor::clock::Clock::now(limiter.clock()));
                Err(Throttle::Mail.refused(wait.as_secs_f64().ceil() as u64))
            }
        }
    }

    /// Whether a browser page of `origin` (an `Origin` header's value) is one of the
    /// shop's (`Config::shop_origins`), compared as [`Origin`]s.
    pub fn is_shop_origin(&self, origin: &str) -> bool {
        let Some(origin) = Origin::parse(origin) else {
            return false;
        };
        self.shop_origins.contains(&origin)
            || self
                .merchant_domains
                .urls()
                .iter()
                .any(|url| Origin::parse(url).is_some_and(|domain| domain == origin))
    }

    /// Whether `peer` is one of the trusted proxies.
    pub fn is_trusted(&self, peer: IpAddr) -> bool {
        self.trusted.iter().any(|net| net.contains(peer))
    }

    /// The client's address: the peer's, or, from a trusted proxy, the last address in
    /// `X-Forwarded-For` that is not a trusted proxy's itself.
    pub fn client_ip(&self, peer: Option<IpAddr>, headers: &HeaderMap) -> IpAddr {
        let Some(peer) = peer else {
            return IpAddr::from([0, 0, 0, 0]);
        };
        if !self.is_trusted(peer) {
            return peer;
        }
        let mut client = peer;
        let hops = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .collect::<Vec<_>>();
        for hop in hops.iter().rev() {
            let Some(ip) = parse_hop(hop) else { break };
            client = ip;
            if !self.is_trusted(ip) {
                break;
            }
        }
        client
    }

    /// `scheme://host` of the request, for absolute URLs in answers (media): the
    /// `Host` header, or, from a trusted proxy, `X-Forwarded-Host` and `-Proto`. Never
    /// used for links in mails (see [`Config::shop_origins`]).
    pub fn request_origin(&self, peer: Option<IpAddr>, headers: &HeaderMap) -> String {
        let header = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::trim)
                .filter(|v| !v.is_empty())
        };
        let trusted = peer.is_some_and(|peer| self.is_trusted(peer));
        let forwarded = |name: &str| {
            if trusted {
                header(name)
                    .and_then(|v| v.split(',').next())
                    .map(str::trim)
            } else {
                None
            }
        };
        let scheme = match forwarded("x-forwarded-proto") {
            Some("https") => "https",
            _ => "http",
        };
        let host = forwarded("x-forwarded-host")
            .or_else(|| header("host"))
            .unwrap_or("127.0.0.1");
        // A host that makes no origin: the shop's own.
        Origin::parse(&format!("{scheme}://{host}"))
            .or_else(|| self.shop_origins.first().cloned())
            .map(|origin| origin.to_string())
            .unwrap_or_else(|| "http://127.0.0.1".to_owned())
    }
}

/// One `X-Forwarded-For` entry: an address, with or without a port (`[::1]:80`, `1.2.3.4:5`).
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    hop.parse::<IpAddr>()
        .ok()
        .or_else(|| hop.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

/// The client's address of a request (see [`Security::client_ip`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

impl ClientAddr {
    /// As a throttle's subject.
    pub fn key(&self) -> String {
        self.0.to_string()
    }
}

/// The peer's address of a request (set by `listener::serve`).
pub fn peer_of(parts: &Parts) -> Option<IpAddr> {
    parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip())
}

impl<S> FromRequestParts<S> for ClientAddr
where
    S: Send + Sync,
    Arc<Security>: FromRef<S>,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let security = Arc::<Security>::from_ref(state);
        Ok(ClientAddr(
            security.client_ip(peer_of(parts), &parts.headers),
        ))
    }
}

/// Bounded Argon2: `running` computations at once, `admitted` (running and waiting)
/// in all; past that a check is answered `429` at once instead of queueing without end.
pub struct Passwords {
    running: Arc<tokio::sync::Semaphore>,
    admitted: Arc<tokio::sync::Semaphore>,
}

/// The hash an unknown user's password is checked against (same parameters as every
/// stored hash, so the check takes as long).
static DUMMY_HASH: OnceLock<String> = OnceLock::new();

fn dummy_hash() -> &'static str {
    DUMMY_HASH.get_or_init(|| {
        use argon2::password_hash::{rand_core::OsRng, PasswordHasher, SaltString};
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(b"no user has this password", &salt)
            .map(|hash| hash.to_string())
            .unwrap_or_default()
    })
}

/// The answer when every slot and the queue are taken.
pub fn busy() -> ApiError {
    ApiError::Throttled {
        code: "FRAMEWORK__RATE_LIMIT_EXCEEDED",
        detail: "Too many requests, try again in 1 seconds.".into(),
        seconds: 1,
    }
}

impl Passwords {
    pub fn new(running: usize, queue: usize) -> Passwords {
        Passwords {
            running: Arc::new(tokio::sync::Semaphore::new(running.max(1))),
            admitted: Arc::new(tokio::sync::Semaphore::new(running.max(1) + queue)),
        }
    }

    /// Runs `work` (Argon2) on the blocking pool once a slot is free; `429` at once
    /// when the queue is full.
    async fn run<R: Send + 'static>(
        &self,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, ApiError> {
        let admitted = self
            .admitted
            .clone()
            .try_acquire_owned()
            .map_err(|_| busy())?;
        let running = self
            .running
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| ApiError::Internal(e.into()))?;
        // The permits live as long as the blocking task, even if the request is dropped.
        tokio::task::spawn_blocking(move || {
            let result = work();
            drop((running, admitted));
            result
        })
        .await
        .map_err(|e| ApiError::Internal(e.into()))
    }

    /// Whether `password` matches `hash`; with no hash (an unknown user) it is checked
    /// against a dummy hash and answers false, taking as long.
    pub async fn verify(&self, hash: Option<String>, password: String) -> Result<bool, ApiError> {
        self.run(move || {
            let known = hash.is_some();
            let hash = hash.unwrap_or_else(|| dummy_hash().to_owned());
            let matches = PasswordHash::new(&hash)
                .map(|parsed| {
                    Argon2::default()
                        .verify_password(password.as_bytes(), &parsed)
                        .is_ok()
                })
                .unwrap_or(false);
            known && matches
        })
        .await
    }

    /// The hash of a new password (`account::password::hash_password`), bounded the same way.
    pub async fn hash(
        &self,
        password: String,
        hash: fn(&str) -> anyhow::Result<String>,
    ) -> Result<String, ApiError> {
        Ok(self.run(move || hash(&password)).await??)
    }
}

/// What is stored for a bearer or refresh token: its SHA-256, hex.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn security(edit: impl FnOnce(Config) -> Config) -> Security {
        Security::new(&edit(Config::for_data_dir("/tmp/unused")))
    }

    #[test]
    fn waits_grow_like_shopwares_time_backoff() {
        let login = Policy {
            free: 10,
            waits: LOGIN_WAITS,
            reset: RESET,
        };
        let waits: Vec<u64> = (1..=25).map(|n| login.wait_before(n).as_secs()).collect();
        assert_eq!(&waits[..10], &[0; 10]);
        assert_eq!(&waits[10..15], &[10; 5]);
        assert_eq!(&waits[15..20], &[30; 5]);
        assert_eq!(&waits[20..], &[60; 5]);
    }

    #[test]
    fn failures_past_the_free_ones_are_refused_with_the_wait_and_a_success_forgets_them() {
        let security = security(|c| c);
        let keys = [(Throttle::Login, "ada|203.0.113.1")];
        for _ in 0..10 {
            security.throttle(&keys).unwrap();
        }
        let Err(ApiError::Throttled { code, seconds, .. }) = security.throttle(&keys) else {
            panic!("not throttled")
        };
        assert_eq!((code, seconds), ("CHECKOUT__CUSTOMER_AUTH_THROTTLED", 10));
        security
            .throttle(&[(Throttle::Login, "ada|203.0.113.2")])
            .unwrap();
        security.forget(&keys);
        security.throttle(&keys).unwrap();
    }

    #[test]
    fn the_throttle_map_stays_bounded() {
        let backoff = Backoff {
            hasher: Default::default(),
            entries: Mutex::new(HashMap::new()),
            max_keys: 1000,
        };
        let policy = Policy {
            free: 10,
            waits: LOGIN_WAITS,
            reset: RESET,
        };
        let start = Instant::now();
        for i in 0..10_000u64 {
            backoff
                .attempt(&[(i, policy)], start + Duration::from_millis(i))
                .unwrap();
        }
        assert!(backoff.len() <= 1000, "{}", backoff.len());
        // The newest keys are kept.
        let entries = backoff.entries.lock().unwrap();
        let one_free = Policy { free: 1, ..policy };
        assert!(Backoff::wait_in(
            &entries,
            9_999,
            &one_free,
            start + Duration::from_millis(9_999)
        )
        .is_some());
    }

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let security = security(|c| Config {
            trusted_proxies: vec!["10.0.0.0/8".parse().unwrap()],
            ..c
        });
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            "198.51.100.7, 203.0.113.9, 10.0.0.2".parse().unwrap(),
        );
        headers.insert("x-forwarded-host", "evil.example".parse().unwrap());
        headers.insert("host", "shop.example".parse().unwrap());
        let outsider: IpAddr = "192.0.2.1".parse().unwrap();
        assert_eq!(security.client_ip(Some(outsider), &headers), outsider);
        assert_eq!(
            security.request_origin(Some(outsider), &headers),
            "http://shop.example"
        );
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        assert_eq!(
            security.client_ip(Some(proxy), &headers),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            security.request_origin(Some(proxy), &headers),
            "http://evil.example"
        );
    }

    #[test]
    fn token_hashes_are_sha256_hex() {
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
