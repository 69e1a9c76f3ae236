//! A participant's socket to a hub: opened from a chosen local address, the hub token
//! offered as the subprotocol `bearer.<token>` (never in the URL), `hello` said and the
//! welcome read ([`connect`]); reopened and resumed after it closed ([`Rejoin`]).

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use futures_util::{SinkExt, StreamExt};
use protocol::frame::{ClientFrame, Resume, ServerFrame};
use tokio::net::TcpSocket;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

use crate::peek::decode;

pub(crate) type Socket = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// Small socket buffers: tungstenite's defaults (128 KiB to read) times ten thousand
/// attendees would be over a gigabyte, and cold memory on every read.
fn socket_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
}

/// What a welcome says about where the client stands.
#[derive(Debug, Clone)]
pub(crate) struct Welcomed {
    pub seq: u64,
    pub epoch: String,
    pub resume: Resume,
    /// The current slide, when the welcome brought a snapshot.
    pub slide: Option<u32>,
}

/// Opens a socket from `source` and says hello (resuming after `last`: seq and epoch);
/// returns after the welcome.
pub(crate) async fn connect(
    url: &str,
    token: &str,
    source: IpAddr,
    last: Option<(u64, String)>,
) -> anyhow::Result<(Socket, Welcomed)> {
    let request = url.into_client_request()?;
    let host = request.uri().host().context("hub host")?.to_owned();
    let port = request.uri().port_u16().unwrap_or(80);
    let target: SocketAddr = tokio::net::lookup_host((host.as_str(), port))
        .await?
        .next()
        .context("hub address")?;
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(source, 0))?;
    let stream = socket.connect(target).await?;
    stream.set_nodelay(true)?;
    let mut request = request;
    // The token as a browser sends it (never in the URL, which gets logged).
    let offered = format!(
        "{}, {}{token}",
        protocol::frame::SUBPROTOCOL_JSON,
        protocol::frame::TOKEN_SUBPROTOCOL_PREFIX
    );
    request
        .headers_mut()
        .insert("sec-websocket-protocol", offered.parse()?);
    let (mut ws, _) =
        tokio_tungstenite::client_async_with_config(request, stream, Some(socket_config())).await?;
    let (last_seq, epoch) = last.map_or((None, None), |(seq, epoch)| (Some(seq), Some(epoch)));
    ws.send(Message::text(serde_json::to_string(&ClientFrame::Hello {
        last_seq,
        epoch,
    })?))
    .await?;
    loop {
        let message = ws.next().await.context("closed before welcome")??;
        if let Some(ServerFrame::Welcome {
            seq,
            epoch,
            resume,
            snapshot,
            ..
        }) = decode(&message)
        {
            let slide = snapshot.map(|s| s.state_for_all.current_slide_alias);
            return Ok((
                ws,
                Welcomed {
                    seq,
                    epoch,
                    resume,
                    slide,
                },
            ));
        }
    }
}

/// The answer to the hub's ping `nonce`.
pub(crate) fn pong(nonce: u64) -> Message {
    Message::text(format!(r#"{{"type":"pong","nonce":{nonce}}}"#))
}

/// How an attendee gets back in after its socket closed (`--resume`).
#[derive(Clone)]
pub(crate) struct Rejoin {
    pub url: String,
    pub token: String,
    pub source: IpAddr,
}

/// How long an attendee keeps trying to get back in.
pub(crate) const REJOIN_TIMEOUT: Duration = Duration::from_secs(60);

impl Rejoin {
    /// Reconnects, resuming after `last_seq` of `epoch`, until a hub takes it.
    pub(crate) async fn resume(&self, last_seq: u64, epoch: &str) -> Option<(Socket, Welcomed)> {
        let started = Instant::now();
        let mut pause = Duration::from_millis(50);
        while started.elapsed() < REJOIN_TIMEOUT {
            match connect(
                &self.url,
                &self.token,
                self.source,
                Some((last_seq, epoch.to_owned())),
            )
            .await
            {
                Ok(connected) => return Some(connected),
                Err(_) => {
                    // Jittered, so that a replica's attendees do not come back in step.
                    tokio::time::sleep(pause.mul_f64(0.5 + rand_unit() / 2.0)).await;
                    pause = (pause * 2).min(Duration::from_secs(1));
                }
            }
        }
        None
    }
}

/// A number in [0, 1) from the clock (jitter needs no better randomness).
fn rand_unit() -> f64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    (nanos % 1000) as f64 / 1000.0
}
