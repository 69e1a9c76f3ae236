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
//!   per [`COLLECT_INTERVAL`]. A worker that parks within that interval of its last
//!   collection *owes* one;
//! - [`spawn_purger`]: a small thread that purges the arenas (process wide) every
//!   [`PURGE_INTERVAL`], also when no worker runs at all, and, while a worker owes a
//!   collection, wakes the runtime's workers with a few empty tasks: mimalloc (v3) frees a
//!   thread's pages only from that thread, and a parked worker runs no code. Without the
//!   wake-up a process that went quiet right after a burst kept it (150–180 MB after a
//!   storm of 4,000 half-sent requests against 17–30 MB before).
//!
//! Giving memory back and taking it again is cheap only in small pages: mimalloc asks for
//! transparent huge pages on its arenas (`madvise(MADV_HUGEPAGE)`), so after a collection
//! the next allocation there faults in and zeroes a whole 2 MiB page, however little of it
//! is used. In the hub at 10 slide changes a second that was 11 % of its CPU
//! (`clear_page_erms` under `mi_page_free_list_extend`; BENCHMARKS.md, #18), so
//! [`runtime`] turns transparent huge pages off for the process
//! ([`disable_transparent_huge_pages`]).

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A worker collects its heap at most this often.
pub const COLLECT_INTERVAL: Duration = Duration::from_secs(1);

/// How often the purger thread hands freed arena memory back.
pub const PURGE_INTERVAL: Duration = Duration::from_secs(2);

thread_local! {
    static LAST_COLLECT: Cell<Option<Instant>> = const { Cell::new(None) };
    /// This thread parked after work without collecting (it was not due).
    static OWES: Cell<bool> = const { Cell::new(false) };
}

/// Threads that owe a collection ([`collect_when_idle`] was not due when they parked).
static OWING: AtomicUsize = AtomicUsize::new(0);

/// Returns the calling thread's freed pages, unless it did so within
/// [`COLLECT_INTERVAL`]; then it owes one, which the purger's wake-up settles. Cheap
/// when not due (a clock read).
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
        if OWES.replace(false) {
            OWING.fetch_sub(1, Ordering::Relaxed);
        }
    } else if !OWES.replace(true) {
        OWING.fetch_add(1, Ordering::Relaxed);
    }
}

/// Threads that currently owe a collection (for tests and the purger).
pub fn owing() -> usize {
    OWING.load(Ordering::Relaxed)
}

fn collect() {
    // SAFETY: mi_collect works on the calling thread's own heap and on the process's
    // arenas under mimalloc's own locks; it has no preconditions.
    unsafe { libmimalloc_sys::mi_collect(true) };
}

/// Starts the purger thread (it lives as long as the process). With a runtime's handle
/// it also wakes that runtime's workers while one owes a collection.
pub fn spawn_purger(runtime: Option<tokio::runtime::Handle>) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("memory-purger".into())
        .spawn(move || loop {
            std::thread::sleep(PURGE_INTERVAL);
            collect();
            if let Some(handle) = &runtime {
                if owing() > 0 {
                    wake_workers(handle);
                }
            }
        })?;
    Ok(())
}

/// Tasks from outside the runtime go to its shared queue; the worker that takes the first
/// wakes another while more wait, so every parked worker runs and parks again (and
/// collects, being due by then). Each task holds its worker for a moment (2 ms, only while
/// a collection is owed, at most every [`PURGE_INTERVAL`]): with empty tasks one worker
/// could take them all before another woke, and on a loaded machine the one that owed
/// stayed parked round after round.
fn wake_workers(handle: &tokio::runtime::Handle) {
    for _ in 0..handle.metrics().num_workers() * 2 {
        drop(handle.spawn(async { std::thread::sleep(Duration::from_millis(2)) }));
    }
}

/// A multi-threaded tokio runtime (what `#[tokio::main]` builds) whose idle workers give
/// memory back, with the purger running.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    disable_transparent_huge_pages();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_park(collect_when_idle)
        .build()?;
    spawn_purger(Some(runtime.handle().clone()))?;
    Ok(runtime)
}

/// Turns transparent huge pages off for this process (`PR_SET_THP_DISABLE`; checked by
/// the kernel at each page fault, so mimalloc's arenas mapped before are covered too).
/// Nothing happens where the kernel has no such switch.
pub fn disable_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and only sets a flag of this
    // process's memory map; an error (an old kernel) leaves everything as it was.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn transparent_huge_pages_are_turned_off() {
        let thp_enabled = || {
            let status = std::fs::read_to_string("/proc/self/status").unwrap();
            status
                .lines()
                .find_map(|line| line.strip_prefix("THP_enabled:"))
                .map(|value| value.trim().to_owned())
        };
        let Some(before) = thp_enabled() else { return }; // a kernel without the field
                                                          // (What `runtime` calls; a second runtime in this test process would leave workers
                                                          // owing a collection that the other test counts.)
        disable_transparent_huge_pages();
        assert_eq!(
            thp_enabled().as_deref(),
            Some("0"),
            "THP_enabled was {before}"
        );
    }

    #[test]
    fn a_worker_that_parks_owing_a_collection_is_woken_to_pay_it() {
        let runtime = runtime().unwrap();
        // Bursts 20 ms apart: a worker parks after each, the second time within
        // COLLECT_INTERVAL of its collection, so it owes one.
        runtime.block_on(async {
            for _ in 0..10 {
                tokio::spawn(async { drop(std::hint::black_box(vec![1u8; 1 << 20])) })
                    .await
                    .unwrap();
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        });
        assert!(
            owing() > 0,
            "a worker parked within the interval of its last collection"
        );
        // Nothing runs any more; only the purger's wake-up can settle the debt.
        let deadline = Instant::now() + PURGE_INTERVAL * 10;
        while owing() > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(owing(), 0, "every worker was woken and collected");
    }
}
