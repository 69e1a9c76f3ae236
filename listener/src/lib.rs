//! The accept loop of the hub and of storefront-proxy, in place of `axum::serve`, which
//! has neither a header read timeout nor a connection cap (a client that sends half a
//! request header would hold its connection, and its buffers, for ever).
//!
//! - **Header read timeout** ([`Limits::header_read_timeout`]): hyper's own, for every
//!   request head on a connection; a connection whose head is not complete in time is
//!   closed.
//! - **Head size** ([`MAX_HEAD_BYTES`]): hyper's read buffer limit.
//! - **Connection cap** ([`Limits::max_connections`]): at most that many HTTP connections
//!   are served at once. A WebSocket leaves the count when it is upgraded (its socket is
//!   then the server's own business, with its own limits). A connection over the cap is
//!   answered at once, without reading its request, with `503` and the server's error
//!   body ([`Limits::full_answer`]), then closed; at most as many such answers are in
//!   flight as the cap, further connections are closed unanswered.
//! - **Graceful shutdown**: when `shutdown` resolves, no new connection is accepted,
//!   idle HTTP connections close, requests in flight finish.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Semaphore};
use tower::ServiceExt;

/// How long a request head (request line and headers) may take to arrive, by default.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The most a request head (request line and headers) may take; a larger one is
/// answered `431` by hyper and the connection closed. Also the largest read buffer of a
/// connection (hyper's default is about 400 KiB, which a half-sent head of junk headers
/// can make it hold for as long as the header read timeout).
pub const MAX_HEAD_BYTES: usize = 32 * 1024;

/// HTTP connections served at once, by default.
pub const MAX_CONNECTIONS: usize = 4096;

/// How long an over-cap connection's client has to read the `503` before it is
/// dropped.
const FULL_LINGER: Duration = Duration::from_secs(1);

/// The limits of one server, and what it answers when it is full.
#[derive(Clone, Debug)]
pub struct Limits {
    pub header_read_timeout: Duration,
    pub max_connections: usize,
    /// The JSON body of the `503` answered over the cap (the server's error shape).
    pub full_answer: String,
}

impl Limits {
    /// The `503` written to a connection over the cap, whole, as it goes on the wire.
    fn full_response(&self) -> Vec<u8> {
        let body = &self.full_answer;
        format!(
            "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    }
}

/// Serves `router` on `listener` within `limits` until `shutdown` resolves; then waits
/// for the requests in flight.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let served = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let answering_full = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let full_response: Arc<[u8]> = limits.full_response().into();
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors, say: wait a little instead of spinning.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Frames are small and latency matters: no Nagle delay.
        let _ = tcp.set_nodelay(true);
        match served.clone().try_acquire_owned() {
            Ok(permit) => {
                let router = router.clone();
                let stop = stop_rx.clone();
                let header_read_timeout = limits.header_read_timeout;
                tokio::spawn(async move {
                    serve_connection(tcp, peer, router, header_read_timeout, stop).await;
                    drop(permit);
                });
            }
            Err(_) => match answering_full.clone().try_acquire_owned() {
                Ok(permit) => {
                    let response = full_response.clone();
                    tokio::spawn(async move {
                        answer_full(tcp, &response).await;
                        drop(permit);
                    });
                }
                Err(_) => drop(tcp),
            },
        }
    }
    drop(listener);
    let _ = stop_tx.send(true);
    // Every connection task holds a permit: all of them back means all are done.
    let _ = served
        .acquire_many(limits.max_connections.max(1) as u32)
        .await;
    Ok(())
}

/// Serves one connection; every request carries the peer's address as axum's
/// `ConnectInfo<SocketAddr>` (as `into_make_service_with_connect_info` would).
async fn serve_connection(
    tcp: TcpStream,
    peer: std::net::SocketAddr,
    router: Router,
    header_read_timeout: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let service = TowerToHyperService::new(router.map_request(
        move |request: hyper::Request<Incoming>| {
            let mut request = request.map(axum::body::Body::new);
            request
                .extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
            request
        },
    ));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_read_timeout)
        .max_buf_size(MAX_HEAD_BYTES);
    let connection = builder
        .serve_connection(TokioIo::new(tcp), service)
        .with_upgrades();
    let mut connection = std::pin::pin!(connection);
    tokio::select! {
        result = connection.as_mut() => {
            if let Err(error) = result {
                tracing::debug!(%error, "connection ended with an error");
            }
            return;
        }
        _ = stop.wait_for(|stop| *stop) => {}
    }
    connection.as_mut().graceful_shutdown();
    if let Err(error) = connection.await {
        tracing::debug!(%error, "connection ended with an error");
    }
}

/// Writes the `503`, closes the sending side and reads (and discards) what the client
/// still sends for a moment, so that closing does not reset the connection before the
/// client has read the answer.
async fn answer_full(mut tcp: TcpStream, response: &[u8]) {
    let linger = async {
        tcp.write_all(response).await?;
        tcp.shutdown().await?;
        let mut sink = [0u8; 512];
        while tcp.read(&mut sink).await? > 0 {}
        Ok::<(), std::io::Error>(())
    };
    let _ = tokio::time::timeout(FULL_LINGER, linger).await;
}

pub mod data_dir;
pub mod memory;
pub mod metrics;

#[cfg(feature = "testing")]
pub mod testing;
