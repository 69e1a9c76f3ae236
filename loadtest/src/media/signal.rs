//! A bot's LiveKit signalling over `/rtc` (its token, protobuf requests and responses,
//! the join, the publisher's offer) and its str0m peer connection over its own UDP socket.

use super::*;

pub(super) type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub(super) fn token(
    options: &MediaOptions,
    identity: &str,
    publish: bool,
) -> anyhow::Result<String> {
    let now = SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs();
    let claims = json!({ "iss": options.api_key, "sub": identity, "nbf": now - 1, "exp": now + 3600,
                         "video": { "room": options.room, "roomJoin": true, "canPublish": publish, "canSubscribe": !publish } });
    Ok(encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &EncodingKey::from_secret(options.api_secret.as_bytes()),
    )?)
}

pub(super) async fn send(ws: &mut Socket, message: Request) -> anyhow::Result<()> {
    ws.send(Message::Binary(
        proto::SignalRequest {
            message: Some(message),
        }
        .encode_to_vec()
        .into(),
    ))
    .await?;
    Ok(())
}

pub(super) fn decode(frame: &Message) -> Option<Response> {
    match frame {
        Message::Binary(bytes) => proto::SignalResponse::decode(bytes.as_ref()).ok()?.message,
        _ => None,
    }
}

pub(super) async fn next_response(ws: &mut Socket) -> anyhow::Result<Response> {
    loop {
        let frame = ws.next().await.context("signalling closed")??;
        if let Some(response) = decode(&frame) {
            return Ok(response);
        }
    }
}

pub(super) async fn join(
    options: &MediaOptions,
    identity: &str,
    publish: bool,
) -> anyhow::Result<Socket> {
    let url = format!(
        "{}/rtc?access_token={}&auto_subscribe=1&protocol=15",
        options.url,
        token(options, identity, publish)?
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .with_context(|| format!("{identity}: join"))?;
    match next_response(&mut ws).await? {
        Response::Join(_) => Ok(ws),
        other => bail!("{identity}: expected a join response, got {other:?}"),
    }
}

/// A bot's peer connection over its own UDP socket.
pub(super) struct Peer {
    pub(super) rtc: Rtc,
    pub(super) socket: UdpSocket,
    pub(super) local: std::net::SocketAddr,
    pub(super) buf: Vec<u8>,
}

impl Peer {
    pub(super) async fn new(stats: bool) -> anyhow::Result<Peer> {
        let socket = UdpSocket::bind("127.0.0.1:0").await?;
        let local = socket.local_addr()?;
        let mut builder = Rtc::builder();
        if stats {
            builder = builder.set_stats_interval(Some(Duration::from_secs(1)));
        }
        let mut rtc = builder.build(Instant::now());
        rtc.add_local_candidate(Candidate::host(local, "udp")?);
        Ok(Peer {
            rtc,
            socket,
            local,
            buf: vec![0u8; 2048],
        })
    }

    /// Sends what the `Rtc` wants sent and returns its events and when it wants a timeout.
    pub(super) fn poll(&mut self, events: &mut Vec<Event>) -> anyhow::Result<Instant> {
        loop {
            match self.rtc.poll_output()? {
                Output::Timeout(at) => return Ok(at),
                Output::Transmit(t) => {
                    let _ = self.socket.try_send_to(&t.contents, t.destination);
                }
                Output::Event(event) => events.push(event),
            }
        }
    }

    pub(super) fn receive(&mut self, n: usize, source: std::net::SocketAddr) -> anyhow::Result<()> {
        if let Ok(contents) = self.buf[..n].try_into() {
            let receive = Receive {
                proto: Protocol::Udp,
                source,
                destination: self.local,
                contents,
            };
            self.rtc
                .handle_input(Input::Receive(Instant::now(), receive))?;
        }
        Ok(())
    }
}

/// Offers the publisher connection (with `tracks`: kind and `MediaStreamTrack` id) and
/// applies the answer, as livekit-client does right after joining.
pub(super) async fn negotiate_publisher(
    ws: &mut Socket,
    peer: &mut Peer,
    tracks: &[(MediaKind, &str)],
) -> anyhow::Result<Vec<Mid>> {
    let mut change = peer.rtc.sdp_api();
    let mids = tracks
        .iter()
        .map(|(kind, cid)| {
            change.add_media(
                *kind,
                Direction::SendOnly,
                Some("bench".into()),
                Some((*cid).into()),
                None,
            )
        })
        .collect();
    change.add_channel("_reliable".into());
    let (offer, pending) = change.apply().context("nothing to offer")?;
    let description = proto::SessionDescription {
        r#type: "offer".into(),
        sdp: offer.to_sdp_string(),
        id: 1,
        ..Default::default()
    };
    send(ws, Request::Offer(description)).await?;
    loop {
        if let Response::Answer(answer) = next_response(ws).await? {
            peer.rtc
                .sdp_api()
                .accept_answer(pending, SdpAnswer::from_sdp_string(&answer.sdp)?)?;
            return Ok(mids);
        }
    }
}

pub(super) fn ping() -> Request {
    Request::Ping(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64),
    )
}
