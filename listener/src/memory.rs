//! Giving freed memory back to the system after a burst.
//!
//! Both servers allocate with mimalloc (v3). Memory a burst freed (4,000 half-sent
//! requests, say) goes back to mimalloc's arenas, which hand it to the system later, on
//! a delay, as a side effect of later allocations; a process that goes quiet after the
//! burst kept it resident (BENCHMARKS.md, "Hostile clients": 160–200 MB after a storm
//! against 17–30 MB before). Two things make it leave:
//!
//! - [`collect_when_idle`], for tokio's `on_thread_park`: a worker that runs out of work
//!   collects its own heap (the pages mimalloc keeps per thread for reuse), at most once
//!   per [`COLLECT_INTERVAL`];
//! - [`spawn_purger`]: a small thread that purges the arenas (process wide) every
//!   [`PURGE_INTERVAL`], also when no worker runs at all.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// A worker collects its heap at most this often.
pub const COLLECT_INTERVAL: Duration = Duration::from_secs(1);

/// How often the purger thread hands freed arena memory back.
pub const PURGE_INTERVAL: Duration = Duration::from_secs(2);

thread_local! {
    static LAST_COLLECT: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Returns the calling thread's freed pages, unless it did so within
/// [`COLLECT_INTERVAL`]. Cheap when not due (a clock read).
pub fn collect_when_idle() {
    let now = Instant::now();
    let due = LAST_COLLECT.with(|last| match last.get() {
        Some(at) if now.duration_since(at) < COLLECT_INTERVAL => false,
        _ => {
            last.set(Some(now));
            true
        }
    });
    if due {
        collect();
    }
}

fn collect() {
    // SAFETY: mi_collect works on the calling thread's own heap and on the process's
    // arenas under mimalloc's own locks; it has no preconditions.
    unsafe { libmimalloc_sys::mi_collect(true) };
}

/// Starts the purger thread (it lives as long as the process).
pub fn spawn_purger() -> std::io::Result<()> {
    std::thread::Builder::new().name("memory-purger".into()).spawn(|| loop {
        std::thread::sleep(PURGE_INTERVAL);
        collect();
    })?;
    Ok(())
}

/// A multi-threaded tokio runtime (what `#[tokio::main]` builds) whose idle workers give
/// memory back, with the purger running.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    spawn_purger()?;
    tokio::runtime::Builder::new_multi_thread().enable_all().on_thread_park(collect_when_idle).build()
}
