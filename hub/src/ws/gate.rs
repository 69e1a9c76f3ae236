//! The admission gate of one connection: what an inbound action or interaction passes
//! before its room sees it, in this order:
//!
//! 1. **Slide changes first.** While a writer task writes a large room's fan-out
//!    ([`LARGE_FAN_OUT`] connections in one turn), an attendee's request waits for it to
//!    end, at most [`MAX_FAN_OUT_WAIT`] ([`after_fan_out`]); a guide's never waits.
//! 2. **The rate limits** ([`super::rate::Limiter`]): a client's token bucket, and its
//!    repeated reload hints answered with the earlier event.
//!
//! Why the wait (#19 item 8, BENCHMARKS.md): at 10,000 attendees a fan-out takes ~100 ms
//! of a core, and the thousands of engagement frames a second that arrive meanwhile —
//! each a parse, a decision under the room lock, a store write and replies — stretched
//! it. They are handled in the gap after it instead, a fan-out's length later at most;
//! their order per connection is kept (the connection reads its next frame only after
//! this one).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use protocol::action::Action;
use protocol::Role;
use tokio::time::Instant;

use super::fanout::FanOuts;
#[cfg(doc)]
use super::fanout::LARGE_FAN_OUT;
use super::rate::{Limiter, Verdict};
use crate::live::Request;
use crate::metrics::Metrics;

/// The longest an attendee's frame waits for the fan-outs under way (see
/// [`after_fan_out`]): a hub that is never without one still takes every frame.
pub const MAX_FAN_OUT_WAIT: Duration = Duration::from_millis(250);

/// One connection's gate: its rate limits and its fan-out waits.
pub struct Gate {
    role: Role,
    limiter: Limiter,
    /// The hub's large fan-outs (none without writer tasks).
    fan_outs: Option<Arc<FanOuts>>,
    /// When this connection's last frame that waited for a fan-out was let through.
    last_wait: Option<Instant>,
    metrics: Arc<Metrics>,
}

impl Gate {
    pub fn new(role: Role, fan_outs: Option<Arc<FanOuts>>, metrics: Arc<Metrics>) -> Gate {
        Gate {
            role,
            limiter: Limiter::new(role, std::time::Instant::now()),
            fan_outs,
            last_wait: None,
            metrics,
        }
    }

    /// Waits for the fan-outs under way when the connection is an attendee's, then asks
    /// the rate limits; counts what it did in the hub's metrics.
    pub async fn admit(&mut self, request: &Request) -> Verdict {
        // A guide's never wait: they are what the room is waiting for.
        if self.role != Role::Guide {
            if let Some(fan_outs) = &self.fan_outs {
                if after_fan_out(fan_outs, &mut self.last_wait).await {
                    self.metrics
                        .waited_for_fan_out
                        .fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        let action = match request {
            Request::Action(action) => Some(action),
            _ => None,
        };
        let verdict = self
            .limiter
            .check(self.role, action, std::time::Instant::now());
        match verdict {
            Verdict::Go => {}
            Verdict::Limited => {
                self.metrics.rate_limited.fetch_add(1, Ordering::Relaxed);
            }
            Verdict::Coalesced(_) => {
                self.metrics.coalesced.fetch_add(1, Ordering::Relaxed);
            }
        }
        verdict
    }

    /// An admitted action was published with `seq` (a repeat of it may be coalesced).
    pub fn published(&mut self, action: &Action, seq: u64) {
        self.limiter
            .published(self.role, action, seq, std::time::Instant::now());
    }
}

/// Returns once no writer task is in the middle of a large room's fan-out, or after
/// [`MAX_FAN_OUT_WAIT`]. `last_wait` is when the connection's last wait ended: a
/// connection whose frame waited less than [`MAX_FAN_OUT_WAIT`] ago does not wait again,
/// so on a hub that is never without a fan-out a connection's frames are not held back
/// 250 ms each. Returns whether it waited.
pub async fn after_fan_out(fan_outs: &FanOuts, last_wait: &mut Option<Instant>) -> bool {
    if !fan_outs.under_way() {
        return false;
    }
    let now = Instant::now();
    if last_wait.is_some_and(|ended| now < ended + MAX_FAN_OUT_WAIT) {
        return false;
    }
    fan_outs.ended_or(now + MAX_FAN_OUT_WAIT).await;
    *last_wait = Some(Instant::now());
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_frame_waits_for_fan_outs_no_longer_than_the_limit_and_once_per_limit() {
        // A fan-out that does not end (as on a hub that always has one under way).
        let fan_outs = FanOuts::default();
        fan_outs.begin();
        let started = Instant::now();
        let mut last_wait = None;
        assert!(after_fan_out(&fan_outs, &mut last_wait).await);
        assert_eq!(started.elapsed(), MAX_FAN_OUT_WAIT);
        // The connection's next frames within the limit do not wait again; later ones do.
        tokio::time::advance(MAX_FAN_OUT_WAIT / 2).await;
        assert!(!after_fan_out(&fan_outs, &mut last_wait).await);
        assert_eq!(started.elapsed(), MAX_FAN_OUT_WAIT * 3 / 2);
        tokio::time::advance(MAX_FAN_OUT_WAIT / 2).await;
        assert!(after_fan_out(&fan_outs, &mut last_wait).await);
        assert_eq!(started.elapsed(), MAX_FAN_OUT_WAIT * 3);
    }

    #[tokio::test(start_paused = true)]
    async fn a_guides_request_never_waits_and_a_clients_over_the_rate_is_limited() {
        let fan_outs = Arc::new(FanOuts::default());
        fan_outs.begin();
        let metrics = Arc::<Metrics>::default();
        let load_cart = || Request::Action(Action::LoadCart { attendee_id: None });
        let mut guide = Gate::new(Role::Guide, Some(fan_outs.clone()), metrics.clone());
        let started = Instant::now();
        assert_eq!(guide.admit(&load_cart()).await, Verdict::Go);
        assert_eq!(started.elapsed(), Duration::ZERO, "a guide does not wait");
        let mut client = Gate::new(Role::Client, Some(fan_outs), metrics.clone());
        assert_eq!(client.admit(&load_cart()).await, Verdict::Go);
        assert_eq!(
            started.elapsed(),
            MAX_FAN_OUT_WAIT,
            "an attendee waits for the fan-out"
        );
        assert_eq!(metrics.waited_for_fan_out.load(Ordering::Relaxed), 1);
        client.published(&Action::LoadCart { attendee_id: None }, 7);
        assert_eq!(
            client.admit(&load_cart()).await,
            Verdict::Coalesced(7),
            "the same reload hint again"
        );
        assert_eq!(metrics.coalesced.load(Ordering::Relaxed), 1);
    }
}
