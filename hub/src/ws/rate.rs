//! What one connection may ask of its room per second: a token bucket for a client's
//! actions and interactions, and the coalescing of a client's repeated reload hints.
//! Pure (the caller passes the time), so the rules are tested without a socket; the
//! session holds one [`Limiter`] and asks it before each request.
//!
//! Why: every action a client sends may become an event that is stored and fanned out
//! (a reload hint goes to the client and to every guide), so a client looping on
//! `loadCart` would otherwise make the hub write and send thousands of events a second.

use std::time::{Duration, Instant};

use protocol::action::Action;
use protocol::Role;

use crate::live::policy;

/// Actions and interactions a client may send per second, on average.
pub const CLIENT_REQUESTS_PER_SEC: f64 = 20.0;

/// Actions and interactions a client may send at once after a quiet spell: a page that
/// opens sends a handful (cart, likes, last seen, page viewed), a busy user a few more.
pub const CLIENT_REQUEST_BURST: f64 = 40.0;

/// A client's reload hint identical to one it had published less than this long ago is
/// not published again: the earlier event already asks for the same reload.
pub const COALESCE_WINDOW: Duration = Duration::from_secs(1);

/// A token bucket: `burst` tokens, refilled at `per_sec`.
#[derive(Debug, Clone)]
pub struct TokenBucket {
    burst: f64,
    per_sec: f64,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    pub fn new(burst: f64, per_sec: f64, now: Instant) -> TokenBucket {
        TokenBucket {
            burst,
            per_sec,
            tokens: burst,
            last: now,
        }
    }

    /// Takes a token if there is one.
    pub fn try_take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.per_sec).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// What the limiter says of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Submit it.
    Go,
    /// Over the rate: refuse with `RATE_LIMITED`, nothing submitted.
    Limited,
    /// The same reload hint was published as this event a moment ago: acknowledge with
    /// its sequence number, nothing submitted.
    Coalesced(u64),
}

/// One connection's limits.
#[derive(Debug, Clone)]
pub struct Limiter {
    /// `None` for a guide: the guide is not limited.
    bucket: Option<TokenBucket>,
    /// The last reload hint this connection published: the action, its event, when.
    /// Boxed: every connection's task holds a limiter, few ever publish a hint, and an
    /// `Action` inline would be most of the limiter (issue #18, memory per connection).
    last_hint: Option<Box<(Action, u64, Instant)>>,
}

impl Limiter {
    /// The limits of a participant of `role` ([`policy::is_rate_limited`]).
    pub fn new(role: Role, now: Instant) -> Limiter {
        let bucket = policy::is_rate_limited(role)
            .then(|| TokenBucket::new(CLIENT_REQUEST_BURST, CLIENT_REQUESTS_PER_SEC, now));
        Limiter {
            bucket,
            last_hint: None,
        }
    }

    /// Whether a request may go; `action` is `None` for an interaction.
    pub fn check(&mut self, role: Role, action: Option<&Action>, now: Instant) -> Verdict {
        if let Some(bucket) = self.bucket.as_mut() {
            if !bucket.try_take(now) {
                return Verdict::Limited;
            }
        }
        match (self.last_hint.as_deref(), action) {
            (Some((last, seq, at)), Some(action))
                if policy::coalesces(role, action)
                    && last == action
                    && now.saturating_duration_since(*at) < COALESCE_WINDOW =>
            {
                Verdict::Coalesced(*seq)
            }
            _ => Verdict::Go,
        }
    }

    /// Records that `action` was published as event `seq`.
    pub fn published(&mut self, role: Role, action: &Action, seq: u64, now: Instant) {
        if policy::coalesces(role, action) {
            self.last_hint = Some(Box::new((action.clone(), seq, now)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_cart() -> Action {
        Action::LoadCart { attendee_id: None }
    }

    #[test]
    fn a_bucket_lets_a_burst_through_then_its_rate() {
        let start = Instant::now();
        let mut bucket = TokenBucket::new(4.0, 2.0, start);
        assert_eq!(
            (0..6).filter(|_| bucket.try_take(start)).count(),
            4,
            "the burst"
        );
        let later = start + Duration::from_millis(500);
        assert!(
            bucket.try_take(later),
            "one token back after half a second at 2/s"
        );
        assert!(!bucket.try_take(later));
        // A long pause refills to the burst, not beyond.
        let much_later = later + Duration::from_secs(60);
        assert_eq!((0..10).filter(|_| bucket.try_take(much_later)).count(), 4);
    }

    #[test]
    fn a_client_is_limited_and_a_guide_is_not() {
        let now = Instant::now();
        let mut client = Limiter::new(Role::Client, now);
        let verdicts: Vec<Verdict> = (0..100)
            .map(|_| client.check(Role::Client, None, now))
            .collect();
        assert_eq!(
            verdicts.iter().filter(|v| **v == Verdict::Go).count(),
            CLIENT_REQUEST_BURST as usize
        );
        assert_eq!(verdicts.last(), Some(&Verdict::Limited));
        let mut guide = Limiter::new(Role::Guide, now);
        assert!((0..10_000).all(|_| guide.check(Role::Guide, None, now) == Verdict::Go));
    }

    #[test]
    fn a_clients_repeated_reload_hint_is_published_once_per_window() {
        let now = Instant::now();
        let mut client = Limiter::new(Role::Client, now);
        assert_eq!(
            client.check(Role::Client, Some(&load_cart()), now),
            Verdict::Go
        );
        client.published(Role::Client, &load_cart(), 7, now);
        let soon = now + COALESCE_WINDOW / 2;
        assert_eq!(
            client.check(Role::Client, Some(&load_cart()), soon),
            Verdict::Coalesced(7)
        );
        // Another hint, or the same one after the window, is published.
        assert_eq!(
            client.check(
                Role::Client,
                Some(&Action::LoadLikeList { attendee_id: None }),
                soon
            ),
            Verdict::Go
        );
        assert_eq!(
            client.check(Role::Client, Some(&load_cart()), now + COALESCE_WINDOW),
            Verdict::Go
        );
        // A guide's hints are never coalesced (each may name another attendee's cart).
        let mut guide = Limiter::new(Role::Guide, now);
        guide.published(Role::Guide, &load_cart(), 8, now);
        assert_eq!(
            guide.check(Role::Guide, Some(&load_cart()), now),
            Verdict::Go
        );
    }
}
