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
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use hub::{Config, Hub};
use protocol::codec::{Codec, Encoded};
use protocol::frame::{ClientFrame, ServerFrame};
use protocol::{HubClaims, Role};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

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

const SECRET: &[u8] = b"test-secret";
const APPOINTMENT: &str = "0123456789abcdef0123456789abcdef";

fn snapshot() -> (i64, Vec<i64>) {
    (LIVE.load(Ordering::SeqCst), BY_SIZE.iter().map(|n| n.load(Ordering::SeqCst)).collect())
}

/// The last welcome's size (its frame adds a 4-byte header): what tungstenite's write
/// buffer keeps the capacity of.
static WELCOME_BYTES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A client that said hello and read its welcome.
async fn join(addr: &str, n: usize) -> Socket {
    let exp = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs() + 600;
    let token = HubClaims { sub: format!("{n:032x}"), apt: APPOINTMENT.into(), role: Role::Client, name: Some(format!("c{n}")), exp }
        .sign(SECRET)
        .unwrap();
    let mut request = format!("ws://{addr}/ws?token={token}").into_client_request().unwrap();
    request.headers_mut().insert("sec-websocket-protocol", Codec::Json.subprotocol().parse().unwrap());
    let config = WebSocketConfig::default().read_buffer_size(4096).write_buffer_size(0);
    let (mut socket, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), true).await.expect("upgrade");
    let Encoded::Text(hello) = Codec::Json.encode(&ClientFrame::Hello { last_seq: None, epoch: None }).unwrap() else { unreachable!() };
    socket.send(Message::text(hello)).await.unwrap();
    loop {
        let message = socket.next().await.expect("open").expect("no error");
        if let Message::Text(text) = message {
            if let ServerFrame::Welcome { .. } = Codec::Json.decode_text(text.as_str()).unwrap() {
                WELCOME_BYTES.store(text.len(), Ordering::Relaxed);
                return socket;
            }
        }
    }
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
    let dir = tempfile::tempdir().unwrap();
    let config = Config { heartbeat_secs: 60, send_queue: 512, retained_events: 1000, ..Config::for_data_dir(dir.path()) };
    let addr = hub_runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { Hub::open(config, SECRET.to_vec()).await.unwrap().serve(listener, std::future::pending()).await });
        addr.to_string()
    });
    let clients = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
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
        println!("live bytes per idle connection: {per_connection} (welcome: {} bytes)", WELCOME_BYTES.load(Ordering::Relaxed));
        let mut listed = 0.0;
        for (size, per) in &breakdown {
            let label = if *size == SIZES { format!("≥{SIZES}") } else { size.to_string() };
            println!("  {label:>7} bytes × {per:.2} per connection = {:.0}", *size as f64 * per);
            listed += *size as f64 * per;
        }
        println!("  listed: {listed:.0} bytes; the rest in sizes held by fewer connections");
        assert!(per_connection > 0, "nothing counted: the hub's threads are not marked");
        assert!(per_connection <= BOUND, "an idle connection holds {per_connection} bytes (bound {BOUND})");
        drop(sockets);
    });
    drop(clients);
    hub_runtime.shutdown_timeout(Duration::from_secs(1));
}
