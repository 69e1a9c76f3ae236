//! What an idle connection holds in the hub after its welcome (issue #18: memory per idle
//! connection ≤ 6 KiB), counted by a global allocator that sees only the hub's threads:
//! a real hub on port 0 in its own runtime, real sockets, real tokio-tungstenite clients
//! in another runtime (whose allocations are not counted).
//!
//! The test fails when an idle connection grows past a generous bound (a regression of
//! kilobytes, e.g. a buffer kept at its default size), and prints the breakdown by
//! allocation size: `cargo test -p hub --test idle_memory -- --nocapture`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use hub::testing::{TestClient, TestHub};
use hub::Config;
use protocol::codec::Codec;
use protocol::Role;

/// Bytes held per idle connection (allocations live on the hub's threads) above which
/// the test fails. The process's resident memory per connection is larger (the
/// allocator's size classes and pages); see BENCHMARKS.md (#18) for both.
const BOUND: i64 = 6 * 1024;

/// Connections measured (after a warm-up that opens the room and grows its lists).
const CONNECTIONS: usize = 400;
const WARM_UP: usize = 100;

/// Allocation sizes up to this are counted one by one; larger ones in the last bucket.
const SIZES: usize = 16 * 1024;

struct Counting;

thread_local! {
    /// This thread is one of the hub's.
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

static LIVE: AtomicI64 = AtomicI64::new(0);
/// Live allocations by requested size (the last bucket: `SIZES` and more).
static BY_SIZE: [AtomicI64; SIZES + 1] = [const { AtomicI64::new(0) }; SIZES + 1];

fn counted() -> bool {
    COUNTED.try_with(Cell::get).unwrap_or(false)
}

fn count(size: usize, sign: i64) {
    LIVE.fetch_add(sign * size as i64, Ordering::Relaxed);
    BY_SIZE[size.min(SIZES)].fetch_add(sign, Ordering::Relaxed);
}

// SAFETY: every call is passed on to the system allocator unchanged; only counted.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if counted() {
            count(layout.size(), 1);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if counted() {
            count(layout.size(), -1);
        }
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if counted() {
            count(layout.size(), -1);
            count(new_size, 1);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn snapshot() -> (i64, Vec<i64>) {
    (
        LIVE.load(Ordering::SeqCst),
        BY_SIZE.iter().map(|n| n.load(Ordering::SeqCst)).collect(),
    )
}

/// A client that said hello and read its welcome (the client runs in a runtime whose
/// allocations are not counted).
async fn join(addr: &str, n: usize) -> TestClient {
    TestClient::join(
        addr,
        &format!("{n:032x}"),
        Role::Client,
        &format!("c{n}"),
        Codec::Json,
    )
    .await
    .0
}

/// Lets the hub finish what the joins started (presence events to everyone).
async fn settle() {
    tokio::time::sleep(Duration::from_millis(700)).await;
}

#[test]
fn an_idle_connection_holds_less_than_the_bound() {
    let hub_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .on_thread_start(|| COUNTED.with(|c| c.set(true)))
        .build()
        .unwrap();
    // The hub's tasks run on the counted runtime: it is started from there.
    let addr = hub_runtime
        .block_on(TestHub::start_with(|config| Config {
            heartbeat_secs: 60,
            ..config
        }))
        .addr;
    let clients = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    clients.block_on(async {
        let mut sockets = Vec::new();
        for n in 0..WARM_UP {
            sockets.push(join(&addr, n).await);
        }
        settle().await;
        let (before, sizes_before) = snapshot();
        for n in WARM_UP..WARM_UP + CONNECTIONS {
            sockets.push(join(&addr, n).await);
        }
        settle().await;
        let (after, sizes_after) = snapshot();
        let per_connection = (after - before) / CONNECTIONS as i64;
        // The breakdown: allocation sizes held by at least one connection in four.
        let mut breakdown = BTreeMap::new();
        for (size, (a, b)) in sizes_after.iter().zip(&sizes_before).enumerate() {
            let held = a - b;
            if held * 4 >= CONNECTIONS as i64 {
                breakdown.insert(size, held as f64 / CONNECTIONS as f64);
            }
        }
        println!("live bytes per idle connection: {per_connection}");
        let mut listed = 0.0;
        for (size, per) in &breakdown {
            let label = if *size == SIZES {
                format!("≥{SIZES}")
            } else {
                size.to_string()
            };
            println!(
                "  {label:>7} bytes × {per:.2} per connection = {:.0}",
                *size as f64 * per
            );
            listed += *size as f64 * per;
        }
        println!("  listed: {listed:.0} bytes; the rest in sizes held by fewer connections");
        assert!(
            per_connection > 0,
            "nothing counted: the hub's threads are not marked"
        );
        assert!(
            per_connection <= BOUND,
            "an idle connection holds {per_connection} bytes (bound {BOUND})"
        );
        drop(sockets);
    });
    drop(clients);
    hub_runtime.shutdown_timeout(Duration::from_secs(1));
}
