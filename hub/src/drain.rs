//! Graceful drain: what a hub does when it is told to stop (SIGTERM or Ctrl-C) — during a
//! rolling restart or when a cluster is scaled in.
//!
//! 1. The server stops accepting (the listener is closed, so the load balancer's next
//!    attempt goes to another replica; `/healthz` is no longer answered).
//! 2. Every connection is closed with [`close_code::DRAINING`] (4013) after the frames
//!    already queued for it: clients reconnect at once with their last `seq`, land on
//!    another replica and are replayed what they missed (cluster mode), or come back to
//!    the restarted hub (single mode).
//! 3. The hub waits until every connection has ended or `HUB_DRAIN_SECS` have passed,
//!    and returns; the process exits.
//!
//! Kept apart from the server so that what happens at the end of a hub's life is in one
//! place.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use protocol::frame::close_code;

use crate::app::Hub;

/// How often the drain looks again: connections that were mid-upgrade when the listener
/// closed attach late and are closed on the next look.
const POLL: Duration = Duration::from_millis(50);

/// What a drain did, for the log and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Drained {
    /// Connections told to resume elsewhere.
    pub closed: usize,
    /// Connections still open when the time was up (0 when everyone left in time).
    pub left_open: u64,
}

/// Sessions that attached and have not ended yet.
fn open_sessions(hub: &Hub) -> u64 {
    let opened = hub.metrics.connections_opened.load(Ordering::Relaxed);
    let closed = hub.metrics.connections_closed.load(Ordering::Relaxed);
    opened.saturating_sub(closed)
}

/// Closes every connection with [`close_code::DRAINING`] and waits up to `within` for all
/// of them to end. Call it once the server stopped accepting.
pub async fn drain(hub: &Hub, within: Duration) -> Drained {
    let started = Instant::now();
    let mut closed = 0;
    loop {
        closed += hub
            .rooms
            .all()
            .iter()
            .map(|room| room.close_all(close_code::DRAINING))
            .sum::<usize>();
        let open = open_sessions(hub);
        if open == 0 || started.elapsed() >= within {
            // The chat messages taken since the last batch are posted before the hub goes:
            // each was acknowledged, so it must be in the log.
            for room in hub.rooms.all() {
                if let Err(error) = room.flush_chat().await {
                    tracing::warn!(%error, appointment_id = %room.appointment_id, "could not post the chat's last batch");
                }
            }
            let drained = Drained {
                closed,
                left_open: open,
            };
            tracing::info!(
                closed,
                left_open = open,
                seconds = started.elapsed().as_secs_f64(),
                "drained"
            );
            return drained;
        }
        tokio::time::sleep(POLL.min(within.saturating_sub(started.elapsed()))).await;
    }
}
