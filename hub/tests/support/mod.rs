//! What the engagement tests (`engagement.rs`, `polls.rs`, `questions.rs`) share: a real
//! hub on port 0 with its own SQLite file, hub tokens, and a tokio-tungstenite client that
//! speaks JSON or MessagePack, says hello, resumes, sends actions and reads their answers.
//! Each test file adds the helpers of its own frames in its own `impl Client`.

#![allow(dead_code)]

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use hub::{Config, Hub};
use protocol::action::Action;
use protocol::codec::{Codec, Encoded};
use protocol::frame::{ClientFrame, ErrorCode, Event, Resume, ServerFrame};
use protocol::{HubClaims, Role, Snapshot};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub const SECRET: &[u8] = b"test-secret";
pub const APPOINTMENT: &str = "0123456789abcdef0123456789abcdef";
pub const GUIDE: &str = "99999999999999999999999999999999";
pub const ADA: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
pub const BOB: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
pub const CAROL: &str = "cccccccccccccccccccccccccccccccc";

/// A hub on port 0 with a fresh data directory; returns its address.
pub async fn start() -> String {
    let dir = tempfile::tempdir().unwrap().keep();
    let config = Config { heartbeat_secs: 15, send_queue: 512, retained_events: 1000, ..Config::for_data_dir(&dir) };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(Hub::open(config, SECRET.to_vec()).await.unwrap().serve(listener, std::future::pending()));
    format!("127.0.0.1:{}", addr.port())
}

pub fn token(attendee: &str, role: Role, name: &str) -> String {
    let exp = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs() + 600;
    HubClaims { sub: attendee.into(), apt: APPOINTMENT.into(), role, name: Some(name.into()), exp }.sign(SECRET).unwrap()
}

pub struct Client {
    pub socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub codec: Codec,
    pub next_ref: u32,
    /// The last event's seq, for resuming.
    pub last_seq: u64,
    pub epoch: String,
    /// Every event received, in order.
    pub seen: Vec<Event>,
}

impl Client {
    pub async fn join(addr: &str, attendee: &str, role: Role, name: &str, codec: Codec) -> (Client, Snapshot) {
        let mut client = Client::connect(addr, &token(attendee, role, name), codec).await;
        let (snapshot, _) = client.hello(None).await;
        (client, snapshot.expect("a fresh welcome has a snapshot"))
    }

    pub async fn connect(addr: &str, token: &str, codec: Codec) -> Client {
        let mut request = format!("ws://{addr}/ws?token={token}").into_client_request().unwrap();
        request.headers_mut().insert("sec-websocket-protocol", codec.subprotocol().parse().unwrap());
        let (socket, _) = tokio_tungstenite::connect_async(request).await.expect("upgrade");
        Client { socket, codec, next_ref: 1, last_seq: 0, epoch: String::new(), seen: Vec::new() }
    }

    pub async fn hello(&mut self, last: Option<(u64, String)>) -> (Option<Snapshot>, Resume) {
        let (last_seq, epoch) = last.map_or((None, None), |(s, e)| (Some(s), Some(e)));
        self.send(&ClientFrame::Hello { last_seq, epoch }).await;
        match self.recv().await {
            ServerFrame::Welcome { seq, epoch, resume, snapshot, .. } => {
                self.last_seq = seq;
                self.epoch = epoch;
                (snapshot.map(|s| *s), resume)
            }
            other => panic!("expected welcome, got {other:?}"),
        }
    }

    pub async fn send(&mut self, frame: &ClientFrame) {
        let message = match self.codec.encode(frame).unwrap() {
            Encoded::Text(text) => Message::text(text),
            Encoded::Binary(bytes) => Message::binary(bytes),
        };
        self.socket.send(message).await.unwrap();
    }

    /// Sends an action; returns its ref.
    pub async fn act(&mut self, action: Action) -> u32 {
        let r#ref = self.next_ref;
        self.next_ref += 1;
        self.send(&ClientFrame::Action { r#ref: Some(r#ref), action }).await;
        r#ref
    }

    /// An action that must be acknowledged, answered before anything else goes on.
    pub async fn done(&mut self, action: Action) {
        let r = self.act(action).await;
        assert_eq!(self.answer(r).await, None);
    }

    /// An action's answer: `None` for an ack, the error code otherwise.
    pub async fn try_act(&mut self, action: Action) -> Option<ErrorCode> {
        let r = self.act(action).await;
        self.answer(r).await
    }

    pub async fn recv_within(&mut self, wait: Duration) -> Option<ServerFrame> {
        loop {
            let message = match tokio::time::timeout(wait, self.socket.next()).await {
                Err(_) => return None,
                Ok(message) => message.expect("socket open").expect("no socket error"),
            };
            let frame: ServerFrame = match message {
                Message::Text(text) => self.codec.decode_text(text.as_str()).unwrap(),
                Message::Binary(bytes) => self.codec.decode_binary(&bytes).unwrap(),
                Message::Close(close) => panic!("closed: {close:?}"),
                _ => continue,
            };
            if let ServerFrame::Event { seq, event, .. } = &frame {
                self.last_seq = *seq;
                self.seen.push(event.clone());
            }
            if !matches!(frame, ServerFrame::Ping { .. }) {
                return Some(frame);
            }
        }
    }

    pub async fn recv(&mut self) -> ServerFrame {
        self.recv_within(Duration::from_secs(3)).await.expect("a frame in time")
    }

    /// The next event `wanted` picks, with its seq, skipping others, acks and volatile
    /// frames; checks that events chain by `prev` without a gap and that no error comes.
    pub async fn next_event(&mut self, wanted: impl Fn(&Event) -> bool) -> (u64, Event) {
        loop {
            let before = self.last_seq;
            match self.recv().await {
                ServerFrame::Event { seq, prev, event } => {
                    assert_eq!(prev, before, "events chain without a gap");
                    if wanted(&event) {
                        return (seq, event);
                    }
                }
                ServerFrame::Error { code, message, .. } => panic!("unexpected error {code:?}: {message}"),
                _ => continue,
            }
        }
    }

    /// The answer to the action with `ref`: `None` for an ack, the error code otherwise.
    pub async fn answer(&mut self, r#ref: u32) -> Option<ErrorCode> {
        loop {
            match self.recv().await {
                ServerFrame::Ack { r#ref: got, .. } if got == r#ref => return None,
                ServerFrame::Error { r#ref: Some(got), code, .. } if got == r#ref => return Some(code),
                _ => continue,
            }
        }
    }
}

/// Publishes an event to everyone through the internal API, as storefront-proxy does
/// (the presentation's start and end); returns its seq.
pub async fn publish(addr: &str, event: serde_json::Value) -> u64 {
    let body = serde_json::json!({"appointmentId": APPOINTMENT, "audience": {"to": "everyone"}, "event": event});
    let secret = std::str::from_utf8(SECRET).unwrap();
    let response =
        reqwest::Client::new().post(format!("http://{addr}/internal/publish")).bearer_auth(secret).json(&body).send().await.unwrap();
    assert_eq!(response.status(), 200);
    response.json::<serde_json::Value>().await.unwrap()["seq"].as_u64().unwrap()
}
