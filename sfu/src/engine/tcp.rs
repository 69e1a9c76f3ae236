//! ICE over TCP, for browsers that cannot reach the UDP port: a passive TCP candidate on the
//! same port number (RFC 6544), packets framed by a 16-bit length (RFC 4571).
//!
//! Each connection has a reader task that hands whole packets to the engine and a writer
//! task that frames what the engine sends; the engine keeps only the writer's channel, so
//! its one task still owns every `Rtc`.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, Semaphore};
use tracing::debug;

use super::MAX_DATAGRAM;

/// TCP media connections open at once.
const MAX_CONNECTIONS: usize = 1024;
/// Packets queued for one connection before the engine drops more (as UDP would).
const WRITE_QUEUE: usize = 512;

/// What the TCP side tells the engine.
pub(super) enum TcpEvent {
    Open {
        remote: SocketAddr,
        writer: mpsc::Sender<Vec<u8>>,
    },
    Packet {
        remote: SocketAddr,
        bytes: Vec<u8>,
    },
    Closed {
        remote: SocketAddr,
    },
}

/// Accepts media connections until the engine is gone.
pub(super) async fn listen(listener: TcpListener, events: mpsc::Sender<TcpEvent>) {
    let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(permit) = permits.clone().acquire_owned().await else {
            return;
        };
        let (stream, remote) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                debug!(error = %e, "tcp accept failed");
                continue;
            }
        };
        if events.is_closed() {
            return;
        }
        let events = events.clone();
        tokio::spawn(async move {
            connection(stream, remote, events).await;
            drop(permit);
        });
    }
}

async fn connection(stream: TcpStream, remote: SocketAddr, events: mpsc::Sender<TcpEvent>) {
    let _ = stream.set_nodelay(true);
    let (mut reader, mut writer) = stream.into_split();
    let (tx, mut outgoing) = mpsc::channel::<Vec<u8>>(WRITE_QUEUE);
    if events
        .send(TcpEvent::Open { remote, writer: tx })
        .await
        .is_err()
    {
        return;
    }
    let write = async move {
        while let Some(packet) = outgoing.recv().await {
            let Ok(len) = u16::try_from(packet.len()) else {
                continue;
            };
            writer.write_all(&len.to_be_bytes()).await?;
            writer.write_all(&packet).await?;
        }
        Ok::<(), std::io::Error>(())
    };
    let read = async {
        let mut len = [0u8; 2];
        loop {
            reader.read_exact(&mut len).await?;
            let n = usize::from(u16::from_be_bytes(len));
            if n > MAX_DATAGRAM {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "frame larger than a datagram",
                ));
            }
            let mut bytes = vec![0u8; n];
            reader.read_exact(&mut bytes).await?;
            if events
                .send(TcpEvent::Packet { remote, bytes })
                .await
                .is_err()
            {
                return Ok(());
            }
        }
    };
    let ended = tokio::select! {
        result = write => result,
        result = read => result,
    };
    debug!(%remote, ?ended, "tcp media connection closed");
    let _ = events.send(TcpEvent::Closed { remote }).await;
}
