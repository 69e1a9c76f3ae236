//! The real server on port 0, reached the way livekit-client reaches it: a WebSocket to
//! `/rtc?access_token=…` and protobuf frames.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use livekit_protocol as proto;
use prost::Message as _;
use serde_json::{json, Value};
use sfu::{Config, Credentials};
use tokio_tungstenite::tungstenite::{self, Message};

const KEY: &str = "APItest";
const SECRET: &str = "a-test-secret-that-is-long-enough-for-hs256";

struct Server {
    running: sfu::server::Running,
    _data: tempfile::TempDir,
}

async fn start() -> Server {
    let data = tempfile::tempdir().unwrap();
    let config = Config::loopback(data.path().to_owned(), KEY, SECRET);
    let credentials = config.credentials().unwrap();
    assert_eq!(credentials, Credentials::new(KEY.into(), SECRET.into()));
    Server {
        running: sfu::server::start(&config, credentials).await.unwrap(),
        _data: data,
    }
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn token(secret: &str, claims: Value) -> String {
    encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &EncodingKey::from_secret(secret.as_bytes()),
    )
    .unwrap()
}

/// A token like the hub's: `identity` may join `room`, publish when `publish`.
fn claims(room: &str, identity: &str, publish: bool) -> Value {
    json!({ "iss": KEY, "sub": identity, "name": identity, "nbf": now() - 1, "exp": now() + 600,
            "video": { "room": room, "roomJoin": true, "canPublish": publish, "canSubscribe": true, "canPublishData": true } })
}

impl Server {
    fn url(&self, path: &str, token: &str) -> String {
        format!(
            "ws://{}{path}?access_token={token}&auto_subscribe=1&sdk=js&version=2.23.0&protocol=16",
            self.running.http_addr
        )
    }

    /// The HTTP status and body a refused upgrade gets.
    async fn refusal(&self, path: &str, token: &str) -> (u16, String) {
        match tokio_tungstenite::connect_async(self.url(path, token)).await {
            Err(tungstenite::Error::Http(response)) => {
                let body = response
                    .body()
                    .as_ref()
                    .map(|b| String::from_utf8_lossy(b).into_owned())
                    .unwrap_or_default();
                (response.status().as_u16(), body)
            }
            Err(other) => panic!("not an HTTP refusal: {other}"),
            Ok(_) => panic!("{path} accepted the token"),
        }
    }

    /// The plain-text answer of `/rtc/validate`, which livekit-client shows as the reason.
    async fn validate(&self, token: &str) -> (u16, String) {
        let url = self
            .url("/rtc/validate", token)
            .replacen("ws://", "http://", 1);
        let response = reqwest::get(url).await.unwrap();
        assert_eq!(response.headers()["access-control-allow-origin"], "*");
        (response.status().as_u16(), response.text().await.unwrap())
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn join(server: &Server, room: &str, identity: &str) -> (Socket, proto::JoinResponse) {
    let (mut socket, _) = tokio_tungstenite::connect_async(
        server.url("/rtc", &token(SECRET, claims(room, identity, true))),
    )
    .await
    .unwrap();
    match next(&mut socket).await {
        proto::signal_response::Message::Join(join) => (socket, join),
        other => panic!("first message is not a join response: {other:?}"),
    }
}

async fn next(socket: &mut Socket) -> proto::signal_response::Message {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("a signal response in time")
            .unwrap()
            .unwrap();
        if let Message::Binary(bytes) = frame {
            return proto::SignalResponse::decode(bytes.as_ref())
                .unwrap()
                .message
                .unwrap();
        }
    }
}

async fn send(socket: &mut Socket, message: proto::signal_request::Message) {
    socket
        .send(Message::Binary(
            proto::SignalRequest {
                message: Some(message),
            }
            .encode_to_vec()
            .into(),
        ))
        .await
        .unwrap();
}

async fn ping(socket: &mut Socket, at: i64) -> i64 {
    send(
        socket,
        proto::signal_request::Message::PingReq(proto::Ping {
            timestamp: at,
            rtt: 0,
        }),
    )
    .await;
    loop {
        if let proto::signal_response::Message::PongResp(pong) = next(socket).await {
            return pong.last_ping_timestamp;
        }
    }
}

#[tokio::test]
async fn tokens_that_do_not_hold_are_refused_with_livekits_answers() {
    let server = start().await;
    let forged = token("somebody else's secret", claims("demo", "mallory", true));
    let mut expired = claims("demo", "alice", true);
    expired["exp"] = json!(now() - 3600);
    let expired = token(SECRET, expired);
    let other_room = token(SECRET, claims("other", "alice", true));
    let mut other_key = claims("demo", "alice", true);
    other_key["iss"] = json!("APIunknown");
    let other_key = token(SECRET, other_key);

    assert_eq!(
        server.refusal("/rtc", &forged).await,
        (
            401,
            "invalid token: error in cryptographic primitive".into()
        )
    );
    assert_eq!(
        server.refusal("/rtc", &expired).await,
        (401, "invalid token: token is expired (exp)".into())
    );
    assert_eq!(
        server.refusal("/rtc", &other_key).await,
        (401, "invalid API key: APIunknown".into())
    );
    assert_eq!(
        server.refusal("/rtc", "not-a-jwt").await,
        (401, "invalid authorization token".into())
    );
    assert_eq!(
        server.refusal("/rtc", "").await,
        (401, "permissions denied".into())
    );
    // A token for another room does not open this one.
    let url = format!("{}&room=demo", server.url("/rtc", &other_room));
    match tokio_tungstenite::connect_async(url).await {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 401),
        other => panic!(
            "another room's token was not refused: {:?}",
            other.map(|_| ())
        ),
    }
    assert_eq!(
        server.validate(&expired).await,
        (401, "invalid token: token is expired (exp)".into())
    );
    assert_eq!(
        server
            .validate(&token(SECRET, claims("demo", "alice", true)))
            .await,
        (200, "success".into())
    );
    // The single peer connection path is absent, so that livekit-client falls back to /rtc.
    assert_eq!(server.refusal("/rtc/v1", &other_room).await.0, 404);
}

#[tokio::test]
async fn a_join_tells_the_room_and_the_newcomer() {
    let server = start().await;
    let (mut guide, joined) = join(&server, "demo", "guide").await;
    let room = joined.room.unwrap();
    assert_eq!(room.name, "demo");
    assert!(room.sid.starts_with("RM_"));
    let me = joined.participant.unwrap();
    assert_eq!(me.identity, "guide");
    assert!(me.sid.starts_with("PA_"));
    assert!(joined.other_participants.is_empty());
    assert!(!joined.subscriber_primary);
    assert!(!joined.server_info.unwrap().version.is_empty());
    assert!(joined.ping_timeout > joined.ping_interval && joined.ping_interval > 0);

    let (mut attendee, joined) = join(&server, "demo", "attendee").await;
    assert_eq!(
        joined
            .other_participants
            .iter()
            .map(|p| p.identity.as_str())
            .collect::<Vec<_>>(),
        ["guide"]
    );
    match next(&mut guide).await {
        proto::signal_response::Message::Update(update) => {
            assert_eq!(update.participants[0].identity, "attendee")
        }
        other => panic!("the guide was not told: {other:?}"),
    }
    // Another room is another room.
    let (_, elsewhere) = join(&server, "elsewhere", "visitor").await;
    assert!(elsewhere.other_participants.is_empty());

    send(
        &mut attendee,
        proto::signal_request::Message::Leave(proto::LeaveRequest::default()),
    )
    .await;
    loop {
        if let proto::signal_response::Message::Update(update) = next(&mut guide).await {
            let left = &update.participants[0];
            assert_eq!(left.identity, "attendee");
            assert_eq!(
                left.state,
                proto::participant_info::State::Disconnected as i32
            );
            break;
        }
    }
}

#[tokio::test]
async fn a_second_connection_of_the_same_identity_replaces_the_first() {
    let server = start().await;
    let (mut first, _) = join(&server, "demo", "guide").await;
    let (_second, joined) = join(&server, "demo", "guide").await;
    assert!(joined.other_participants.is_empty());
    match next(&mut first).await {
        proto::signal_response::Message::Leave(leave) => assert_eq!(
            leave.reason,
            proto::DisconnectReason::DuplicateIdentity as i32
        ),
        other => panic!("the first connection was not told to leave: {other:?}"),
    }
}

#[tokio::test]
async fn malformed_frames_disturb_nothing_and_oversized_ones_close_only_their_socket() {
    let server = start().await;
    let (mut sender, _) = join(&server, "demo", "sender").await;
    let (mut bystander, _) = join(&server, "demo", "bystander").await;
    let _ = next(&mut sender).await; // the bystander's arrival

    sender
        .send(Message::Binary(vec![0xff, 0x00, 0x13, 0x37].into()))
        .await
        .unwrap();
    sender
        .send(Message::Text("{\"offer\":{}}".into()))
        .await
        .unwrap();
    assert_eq!(
        ping(&mut sender, 42).await,
        42,
        "the connection still answers after bad frames"
    );

    sender
        .send(Message::Binary(
            vec![0u8; sfu::signal::MAX_SIGNAL_MESSAGE + 1].into(),
        ))
        .await
        .unwrap();
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match sender.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "an oversized frame closes the connection");
    assert_eq!(
        ping(&mut bystander, 7).await,
        7,
        "other participants are not disturbed"
    );
}

fn add_track(cid: &str) -> proto::signal_request::Message {
    proto::signal_request::Message::AddTrack(proto::AddTrackRequest {
        cid: cid.into(),
        name: "camera".into(),
        r#type: proto::TrackType::Video as i32,
        source: proto::TrackSource::Camera as i32,
        width: 640,
        height: 480,
        ..Default::default()
    })
}

#[tokio::test]
async fn only_the_publish_grant_gets_a_track_published() {
    let server = start().await;
    let (mut guide, _) = join(&server, "demo", "guide").await;
    send(&mut guide, add_track("camera-1")).await;
    match next(&mut guide).await {
        proto::signal_response::Message::TrackPublished(published) => {
            assert_eq!(published.cid, "camera-1");
            let track = published.track.unwrap();
            assert!(track.sid.starts_with("TR_"));
            assert_eq!(track.r#type, proto::TrackType::Video as i32);
        }
        other => panic!("no track published: {other:?}"),
    }
    // A name that would be repeated to the whole room at this length is refused.
    let proto::signal_request::Message::AddTrack(mut oversized) = add_track("camera-3") else {
        unreachable!()
    };
    oversized.name = "x".repeat(10_000);
    send(
        &mut guide,
        proto::signal_request::Message::AddTrack(oversized),
    )
    .await;

    let listener_token = token(SECRET, claims("demo", "attendee", false));
    let (mut attendee, _) = tokio_tungstenite::connect_async(server.url("/rtc", &listener_token))
        .await
        .unwrap();
    match next(&mut attendee).await {
        proto::signal_response::Message::Join(join) => {
            assert!(!join.participant.unwrap().permission.unwrap().can_publish)
        }
        other => panic!("no join response: {other:?}"),
    }
    send(&mut attendee, add_track("camera-2")).await;
    // The engine handles commands in order: the update about a later arrival comes after
    // whatever the add-track caused.
    let _ = ping(&mut attendee, 1).await;
    let (_late, _) = join(&server, "demo", "late").await;
    loop {
        match next(&mut attendee).await {
            proto::signal_response::Message::TrackPublished(_) => {
                panic!("a participant without canPublish published a track")
            }
            proto::signal_response::Message::Update(update)
                if update.participants[0].identity == "late" =>
            {
                break
            }
            _ => {}
        }
    }
    loop {
        match next(&mut guide).await {
            proto::signal_response::Message::TrackPublished(published) => {
                panic!("an oversized track was published: {}", published.cid)
            }
            proto::signal_response::Message::Update(update)
                if update.participants[0].identity == "late" =>
            {
                break
            }
            _ => {}
        }
    }
}

/// The server API as the hub calls it (`hub/src/video.rs`): JSON Twirp with an admin token.
async fn room_service(server: &Server, method: &str, room: &str, body: Value) -> (u16, Value) {
    let admin = token(
        SECRET,
        json!({ "iss": KEY, "nbf": now() - 1, "exp": now() + 600, "video": { "room": room, "roomAdmin": true } }),
    );
    let url = format!(
        "http://{}/twirp/livekit.RoomService/{method}",
        server.running.http_addr
    );
    let response = reqwest::Client::new()
        .post(url)
        .bearer_auth(admin)
        .json(&body)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

#[tokio::test]
async fn the_server_api_lists_mutes_and_removes_as_the_hub_expects() {
    let server = start().await;
    let (mut guide, _) = join(&server, "demo", "guide").await;
    send(&mut guide, add_track("mic-1")).await;
    let track_sid = loop {
        if let proto::signal_response::Message::TrackPublished(published) = next(&mut guide).await {
            break published.track.unwrap().sid;
        }
    };
    let (mut attendee, _) = join(&server, "demo", "attendee").await;

    let (status, listed) = room_service(
        &server,
        "ListParticipants",
        "demo",
        json!({ "room": "demo" }),
    )
    .await;
    assert_eq!(status, 200);
    let mut identities: Vec<&str> = listed["participants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["identity"].as_str().unwrap())
        .collect();
    identities.sort();
    assert_eq!(identities, ["attendee", "guide"]);
    assert_eq!(
        listed["participants"][0]["state"], "ACTIVE",
        "enums are protojson names, as LiveKit's Twirp JSON"
    );

    // An admin of another room is refused.
    let (status, refused) = room_service(
        &server,
        "ListParticipants",
        "other",
        json!({ "room": "demo" }),
    )
    .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (401, Some("unauthenticated"))
    );

    let (status, muted) = room_service(
        &server,
        "MutePublishedTrack",
        "demo",
        json!({ "room": "demo", "identity": "guide", "trackSid": track_sid, "muted": true }),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(muted["track"]["muted"], true);
    loop {
        if let proto::signal_response::Message::Mute(mute) = next(&mut guide).await {
            assert_eq!((mute.sid.as_str(), mute.muted), (track_sid.as_str(), true));
            break;
        }
    }

    let (status, missing) = room_service(
        &server,
        "RemoveParticipant",
        "demo",
        json!({ "room": "demo", "identity": "nobody" }),
    )
    .await;
    assert_eq!((status, missing["code"].as_str()), (404, Some("not_found")));
    let (status, _) = room_service(
        &server,
        "RemoveParticipant",
        "demo",
        json!({ "room": "demo", "identity": "attendee" }),
    )
    .await;
    assert_eq!(status, 200);
    loop {
        if let proto::signal_response::Message::Leave(leave) = next(&mut attendee).await {
            assert_eq!(
                leave.reason,
                proto::DisconnectReason::ParticipantRemoved as i32
            );
            break;
        }
    }
    loop {
        if let proto::signal_response::Message::Update(update) = next(&mut guide).await {
            if update.participants[0].identity == "attendee" {
                assert_eq!(
                    update.participants[0].state,
                    proto::participant_info::State::Disconnected as i32
                );
                break;
            }
        }
    }
}

/// `DeleteRoom` as the hub calls it when a guide deletes the appointment's video room:
/// with a `roomCreate` token (a room admin token is not enough, as in LiveKit).
async fn delete_room(server: &Server, video: Value) -> (u16, Value) {
    let token = token(
        SECRET,
        json!({ "iss": KEY, "nbf": now() - 1, "exp": now() + 600, "video": video }),
    );
    let url = format!(
        "http://{}/twirp/livekit.RoomService/DeleteRoom",
        server.running.http_addr
    );
    let response = reqwest::Client::new()
        .post(url)
        .bearer_auth(token)
        .json(&json!({ "room": "demo" }))
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

#[tokio::test]
async fn deleting_a_room_disconnects_everyone_in_it_and_only_them() {
    let server = start().await;
    let (mut guide, _) = join(&server, "demo", "guide").await;
    let (mut attendee, _) = join(&server, "demo", "attendee").await;
    let (mut elsewhere, _) = join(&server, "other", "attendee").await;

    let (status, refused) =
        delete_room(&server, json!({ "room": "demo", "roomAdmin": true })).await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (401, Some("unauthenticated")),
        "a room admin may not delete the room"
    );
    let (status, listed) = room_service(
        &server,
        "ListParticipants",
        "demo",
        json!({ "room": "demo" }),
    )
    .await;
    assert_eq!(
        (status, listed["participants"].as_array().map(Vec::len)),
        (200, Some(2)),
        "nothing changed"
    );

    let (status, _) = delete_room(&server, json!({ "roomCreate": true })).await;
    assert_eq!(status, 200);
    for socket in [&mut guide, &mut attendee] {
        loop {
            if let proto::signal_response::Message::Leave(leave) = next(socket).await {
                assert_eq!(leave.reason, proto::DisconnectReason::RoomDeleted as i32);
                break;
            }
        }
    }
    let (status, listed) = room_service(
        &server,
        "ListParticipants",
        "demo",
        json!({ "room": "demo" }),
    )
    .await;
    assert_eq!(
        (
            status,
            listed["participants"].as_array().map(Vec::len).unwrap_or(0)
        ),
        (200, 0)
    );
    let (status, listed) = room_service(
        &server,
        "ListParticipants",
        "other",
        json!({ "room": "other" }),
    )
    .await;
    assert_eq!(
        (status, listed["participants"].as_array().map(Vec::len)),
        (200, Some(1)),
        "another room stays"
    );
    assert!(
        ping(&mut elsewhere, 7).await > 0,
        "the participant of another room is still served"
    );

    // Deleting a room that is gone already answers as LiveKit does: done.
    let (status, _) = delete_room(&server, json!({ "roomCreate": true })).await;
    assert_eq!(status, 200);
    // The room opens anew with the next join.
    let (_again, joined) = join(&server, "demo", "guide").await;
    assert_eq!(joined.other_participants.len(), 0);
}

#[tokio::test]
async fn a_shutdown_tells_everyone() {
    let server = start().await;
    let (mut guide, _) = join(&server, "demo", "guide").await;
    server.running.engine.shutdown().await;
    loop {
        if let proto::signal_response::Message::Leave(leave) = next(&mut guide).await {
            assert_eq!(leave.reason, proto::DisconnectReason::ServerShutdown as i32);
            break;
        }
    }
}

#[tokio::test]
async fn a_resume_is_told_to_join_afresh() {
    let server = start().await;
    let (_guide, joined) = join(&server, "demo", "guide").await;
    let sid = joined.participant.unwrap().sid;
    let url = format!(
        "{}&reconnect=1&sid={sid}",
        server.url("/rtc", &token(SECRET, claims("demo", "guide", true)))
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    match next(&mut socket).await {
        proto::signal_response::Message::Leave(leave) => {
            assert_eq!(leave.action, proto::leave_request::Action::Reconnect as i32)
        }
        other => panic!("a resume was not sent to a full reconnect: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_room_leaving_at_once_leaves_the_server_serving() {
    let server = start().await;
    // Each departure is news for everyone left, whose queues are closing too: telling
    // them removes them in turn. That used to recurse once per participant, and a room
    // of a hundred leaving at once overflowed the stack (the process aborted).
    let mut sockets = Vec::new();
    for i in 0..250 {
        sockets.push(join(&server, "crowd", &format!("attendee-{i}")).await.0);
    }
    drop(sockets);
    tokio::time::sleep(Duration::from_millis(500)).await;
    // Still serving, in that room and others.
    let (mut late, join_response) = join(&server, "crowd", "late").await;
    assert!(
        join_response.other_participants.len() < 250,
        "{} still listed",
        join_response.other_participants.len()
    );
    assert_eq!(ping(&mut late, 42).await, 42);
    let (mut other, _) = join(&server, "other", "guide").await;
    assert_eq!(ping(&mut other, 7).await, 7);
}
