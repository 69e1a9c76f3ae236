//! The hub's test harness (feature `testing`), like zed collab's `TestServer`: a real hub
//! on port 0 with its own data directory ([`TestHub`]), and a client that speaks the
//! protocol over a real WebSocket in either codec ([`TestClient`]): hello, resume,
//! actions and their answers, events checked to chain by `prev`, close codes. Every hub
//! test uses it, and so do the tests of other crates that start a hub (loadtest).

use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use protocol::action::Action;
use protocol::codec::{Codec, Encoded};
use protocol::frame::{ClientFrame, ErrorCode, Event, Resume, ServerFrame};
use protocol::{HubClaims, Role, Snapshot};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::{Config, Hub};

/// The shared secret of a [`TestHub`] (its internal API and its tokens).
pub const SECRET: &[u8] = b"test-secret";
/// The appointment the tests' tokens are for.
pub const APPOINTMENT: &str = "0123456789abcdef0123456789abcdef";
pub const GUIDE: &str = "99999999999999999999999999999999";
pub const ADA: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
pub const BOB: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
pub const CAROL: &str = "cccccccccccccccccccccccccccccccc";

/// How long a client waits for a frame it expects before the test fails.
const FRAME_WAIT: Duration = Duration::from_secs(5);

/// A hub serving on `127.0.0.1:0` in the test's runtime, with its own data directory (kept
/// for the whole run: a test may restart a hub on it).
pub struct TestHub {
    /// `127.0.0.1:port`.
    pub addr: String,
    pub dir: PathBuf,
}

impl TestHub {
    /// A hub with the tests' defaults: heartbeats every 15 s, a send queue of 512, 1,000
    /// retained events.
    pub async fn start() -> TestHub {
        TestHub::start_with(|config| config).await
    }

    /// A hub whose configuration `edit` changes from the tests' defaults.
    pub async fn start_with(edit: impl FnOnce(Config) -> Config) -> TestHub {
        let dir = tempfile::tempdir().expect("a temporary directory").keep();
        TestHub::start_in(&dir, edit, std::future::pending()).await
    }

    /// A hub on the data directory `dir` (a restart when a hub ran there before), serving
    /// until `shutdown` completes.
    pub async fn start_in(
        dir: &Path,
        edit: impl FnOnce(Config) -> Config,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> TestHub {
        let config = edit(Config {
            heartbeat_secs: 15,
            send_queue: 512,
            retained_events: 1000,
            ..Config::for_data_dir(dir)
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let addr = listener.local_addr().expect("an address");
        let hub = Hub::open(config, SECRET.to_vec())
            .await
            .expect("the hub opens");
        tokio::spawn(hub.serve(listener, shutdown));
        TestHub {
            addr: format!("127.0.0.1:{}", addr.port()),
            dir: dir.to_owned(),
        }
    }

    /// A client with a fresh welcome (its snapshot).
    pub async fn join(
        &self,
        attendee: &str,
        role: Role,
        name: &str,
        codec: Codec,
    ) -> (TestClient, Snapshot) {
        TestClient::join(&self.addr, attendee, role, name, codec).await
    }

    /// Publishes an event through the internal API, as storefront-proxy does; its seq.
    pub async fn publish(&self, audience: serde_json::Value, event: serde_json::Value) -> u64 {
        publish(&self.addr, audience, event).await
    }

    /// The hub's internal view of the test appointment's live state (`query`: `?role=..`).
    pub async fn internal_state(&self, query: &str) -> serde_json::Value {
        internal_state(&self.addr, query).await
    }
}

/// The claims of a test token for [`APPOINTMENT`], valid for ten minutes.
pub fn claims(attendee: &str, role: Role, name: Option<&str>) -> HubClaims {
    let exp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
        + 600;
    HubClaims {
        sub: attendee.into(),
        apt: APPOINTMENT.into(),
        role,
        name: name.map(str::to_owned),
        exp,
    }
}

/// A token signed with [`SECRET`].
pub fn token(attendee: &str, role: Role, name: &str) -> String {
    claims(attendee, role, Some(name))
        .sign(SECRET)
        .expect("a token")
}

/// Publishes an event through the internal API of the hub at `addr` (any hub whose secret
/// is [`SECRET`]); its seq.
pub async fn publish(addr: &str, audience: serde_json::Value, event: serde_json::Value) -> u64 {
    let body =
        serde_json::json!({"appointmentId": APPOINTMENT, "audience": audience, "event": event});
    let secret = std::str::from_utf8(SECRET).expect("a text secret");
    let response = reqwest::Client::new()
        .post(format!("http://{addr}/internal/publish"))
        .bearer_auth(secret)
        .json(&body)
        .send()
        .await
        .expect("sent");
    assert_eq!(response.status(), 200);
    response.json::<serde_json::Value>().await.expect("json")["seq"]
        .as_u64()
        .expect("a seq")
}

/// The internal view of the test appointment's live state on the hub at `addr`.
pub async fn internal_state(addr: &str, query: &str) -> serde_json::Value {
    let secret = std::str::from_utf8(SECRET).expect("a text secret");
    let response = reqwest::Client::new()
        .get(format!(
            "http://{addr}/internal/appointments/{APPOINTMENT}/state{query}"
        ))
        .bearer_auth(secret)
        .send()
        .await
        .expect("sent");
    response.json().await.expect("json")
}

/// A participant's WebSocket to a hub.
pub struct TestClient {
    pub socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub codec: Codec,
    pub next_ref: u32,
    /// The last event's seq, for resuming.
    pub last_seq: u64,
    pub epoch: String,
    /// Every event received, in order.
    pub seen: Vec<Event>,
}

impl TestClient {
    /// Connects with a token for `attendee` and says hello; the fresh welcome's snapshot.
    pub async fn join(
        addr: &str,
        attendee: &str,
        role: Role,
        name: &str,
        codec: Codec,
    ) -> (TestClient, Snapshot) {
        let mut client = TestClient::connect(addr, &token(attendee, role, name), codec).await;
        let (snapshot, _) = client.hello(None).await;
        (client, snapshot.expect("a fresh welcome has a snapshot"))
    }

    /// Opens the socket as a browser does: the codec's subprotocol (which the hub must
    /// echo) and the token as one more, `bearer.<token>`; says nothing.
    pub async fn connect(addr: &str, token: &str, codec: Codec) -> TestClient {
        let mut request = format!("ws://{addr}/ws")
            .into_client_request()
            .expect("a request");
        let offered = format!(
            "{}, {}{token}",
            codec.subprotocol(),
            protocol::frame::TOKEN_SUBPROTOCOL_PREFIX
        );
        request
            .headers_mut()
            .insert("sec-websocket-protocol", offered.parse().expect("a header"));
        let (socket, response) = tokio_tungstenite::connect_async(request)
            .await
            .expect("upgrade");
        assert_eq!(
            response.headers()["sec-websocket-protocol"],
            codec.subprotocol()
        );
        TestClient {
            socket,
            codec,
            next_ref: 1,
            last_seq: 0,
            epoch: String::new(),
            seen: Vec::new(),
        }
    }

    /// Says hello (resuming after `last`) and reads the welcome: its snapshot and resume.
    pub async fn hello(&mut self, last: Option<(u64, String)>) -> (Option<Snapshot>, Resume) {
        let (last_seq, epoch) = last.map_or((None, None), |(s, e)| (Some(s), Some(e)));
        self.hello_with(last_seq, epoch).await
    }

    /// Says hello with exactly these fields and reads the welcome.
    async fn hello_with(
        &mut self,
        last_seq: Option<u64>,
        epoch: Option<String>,
    ) -> (Option<Snapshot>, Resume) {
        self.send(&ClientFrame::Hello { last_seq, epoch }).await;
        match self.recv().await {
            ServerFrame::Welcome {
                seq,
                epoch,
                resume,
                snapshot,
                ..
            } => {
                self.last_seq = seq;
                self.epoch = epoch;
                (snapshot.map(|s| *s), resume)
            }
            other => panic!("expected welcome, got {other:?}"),
        }
    }

    /// Says hello and returns the welcome's (seq, epoch, resume, snapshot's slide alias).
    pub async fn hello_at(
        &mut self,
        last_seq: Option<u64>,
        epoch: Option<String>,
    ) -> (u64, String, Resume, Option<u32>) {
        let (snapshot, resume) = self.hello_with(last_seq, epoch).await;
        (
            self.last_seq,
            self.epoch.clone(),
            resume,
            snapshot.map(|s| s.state_for_all.current_slide_alias),
        )
    }

    /// Says hello and expects to be turned away: no welcome, no event, a close frame; its
    /// code.
    pub async fn hello_refused(&mut self) -> u16 {
        self.send(&ClientFrame::Hello {
            last_seq: None,
            epoch: None,
        })
        .await;
        self.close_code(false).await
    }

    pub async fn send(&mut self, frame: &ClientFrame) {
        let message = match self.codec.encode(frame).expect("encoded") {
            Encoded::Text(text) => Message::text(text),
            Encoded::Binary(bytes) => Message::binary(bytes),
        };
        self.socket.send(message).await.expect("sent");
    }

    /// Sends an action; returns its ref.
    pub async fn act(&mut self, action: Action) -> u32 {
        let r#ref = self.next_ref;
        self.next_ref += 1;
        self.send(&ClientFrame::Action {
            r#ref: Some(r#ref),
            action,
        })
        .await;
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

    /// A guide's slide change to `alias`, with `ref`.
    pub async fn switch_slide(&mut self, r#ref: u32, alias: u32) {
        let action = Action::SwitchSlide {
            page_id: "a".repeat(32),
            section_id: format!("{alias:032x}"),
            slide_alias: alias,
        };
        self.send(&ClientFrame::Action {
            r#ref: Some(r#ref),
            action,
        })
        .await;
    }

    /// A slide change whose ack is awaited; the event's seq.
    pub async fn switch_acked(&mut self, alias: u32) -> u64 {
        self.switch_slide(alias, alias).await;
        loop {
            if let ServerFrame::Ack { r#ref, seq } = self.recv().await {
                if r#ref == alias {
                    return seq.expect("a slide makes an event");
                }
            }
        }
    }

    /// The next frame other than a ping within `wait`, or `None`; events are recorded.
    pub async fn recv_within(&mut self, wait: Duration) -> Option<ServerFrame> {
        loop {
            let message = match tokio::time::timeout(wait, self.socket.next()).await {
                Err(_) => return None,
                Ok(message) => message.expect("socket open").expect("no socket error"),
            };
            let frame: ServerFrame = match message {
                Message::Text(text) => self
                    .codec
                    .decode_text(text.as_str())
                    .expect("a server frame"),
                Message::Binary(bytes) => self.codec.decode_binary(&bytes).expect("a server frame"),
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

    /// The next frame other than a ping.
    pub async fn recv(&mut self) -> ServerFrame {
        self.recv_within(FRAME_WAIT).await.expect("a frame in time")
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
                ServerFrame::Error { code, message, .. } => {
                    panic!("unexpected error {code:?}: {message}")
                }
                _ => continue,
            }
        }
    }

    /// The next slide event as (seq, prev, alias), skipping other events and acks.
    pub async fn next_slide(&mut self) -> (u64, u64, u32) {
        loop {
            match self.recv().await {
                ServerFrame::Event {
                    seq,
                    prev,
                    event: Event::SlideSwitched { slide_alias, .. },
                } => return (seq, prev, slide_alias),
                ServerFrame::Event { .. } | ServerFrame::Ack { .. } => continue,
                other => panic!("expected a slide event, got {other:?}"),
            }
        }
    }

    /// The answer to the action with `ref`: `None` for an ack, the error code otherwise.
    pub async fn answer(&mut self, r#ref: u32) -> Option<ErrorCode> {
        loop {
            match self.recv().await {
                ServerFrame::Ack { r#ref: got, .. } if got == r#ref => return None,
                ServerFrame::Error {
                    r#ref: Some(got),
                    code,
                    ..
                } if got == r#ref => return Some(code),
                _ => continue,
            }
        }
    }

    /// Reads until the hub's close frame and returns its code; a welcome before it fails
    /// the test, and so does an event or ack unless `events` allows them.
    pub async fn close_code(&mut self, events: bool) -> u16 {
        self.close_code_within(FRAME_WAIT, events)
            .await
            .expect("a close frame in time")
    }

    /// [`TestClient::close_code`] within `wait`; `None` when no close came.
    pub async fn close_code_within(&mut self, wait: Duration, events: bool) -> Option<u16> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let message = tokio::time::timeout_at(deadline, self.socket.next())
                .await
                .ok()?;
            let frame: ServerFrame = match message {
                Some(Ok(Message::Close(Some(frame)))) => return Some(u16::from(frame.code)),
                Some(Ok(Message::Text(text))) => self
                    .codec
                    .decode_text(text.as_str())
                    .expect("a server frame"),
                Some(Ok(Message::Binary(bytes))) => {
                    self.codec.decode_binary(&bytes).expect("a server frame")
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                other => panic!("expected a close frame, got {other:?}"),
            };
            let expected = matches!(frame, ServerFrame::Ping { .. } | ServerFrame::Error { .. })
                || (events && matches!(frame, ServerFrame::Event { .. } | ServerFrame::Ack { .. }));
            assert!(expected, "got {frame:?} instead of a close");
        }
    }
}
