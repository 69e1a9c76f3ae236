//! Video: LiveKit tokens checked with the official `livekit-server-sdk` verifier, and the
//! server API calls checked by a local HTTP server that verifies their signature.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use hub::testing::{TestHub, APPOINTMENT, SECRET};
use hub::Config;
use protocol::action::Action;
use protocol::codec::Codec;
use protocol::frame::{ClientFrame, Event, ServerFrame};
use protocol::Role;
use serde_json::{json, Value};

use crate::Client;

const API_KEY: &str = "APIsalesroom";
const API_SECRET: &str = "livekit-api-secret-for-tests-0123456789";

type Calls = Arc<Mutex<Vec<(String, Value)>>>;

/// A stand-in for LiveKit's RoomService that checks each call's token like LiveKit does.
async fn fake_livekit(calls: Calls) -> String {
    async fn handle(
        State(calls): State<Calls>,
        Path(method): Path<String>,
        headers: HeaderMap,
        Json(body): Json<Value>,
    ) -> (StatusCode, Json<Value>) {
        let token = headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::HS256);
        validation.set_issuer(&[API_KEY]);
        validation.set_required_spec_claims(&["exp", "iss"]);
        let claims = token.and_then(|t| {
            jsonwebtoken::decode::<Value>(
                t,
                &jsonwebtoken::DecodingKey::from_secret(API_SECRET.as_bytes()),
                &validation,
            )
            .ok()
        });
        let Some(claims) = claims.map(|c| c.claims) else {
            return (
                StatusCode::UNAUTHORIZED,
                Json(json!({"code": "unauthenticated"})),
            );
        };
        if claims["video"]["roomAdmin"] != true || claims["video"]["room"] != body["room"] {
            return (
                StatusCode::FORBIDDEN,
                Json(json!({"code": "permission_denied"})),
            );
        }
        calls.lock().unwrap().push((method.clone(), body));
        let answer = match method.as_str() {
            "ListParticipants" => json!({"participants": [
                {"sid": "PA_guide", "identity": "g1".repeat(16), "tracks": [{"sid": "TR_guide_mic", "type": "AUDIO", "source": "MICROPHONE"}]},
                {"sid": "PA_client", "identity": "c1".repeat(16), "tracks": [
                    {"sid": "TR_client_mic", "type": "AUDIO", "source": "MICROPHONE"},
                    {"sid": "TR_client_cam", "type": "VIDEO", "source": "CAMERA"}
                ]}
            ]}),
            _ => json!({}),
        };
        (StatusCode::OK, Json(answer))
    }
    let app = Router::new()
        .route("/twirp/livekit.RoomService/{method}", post(handle))
        .with_state(calls);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("ws://{addr}")
}

async fn start(livekit_url: String) -> String {
    let livekit = |config| Config {
        send_queue: 64,
        retained_events: 64,
        livekit_url: Some(livekit_url),
        livekit_api_key: Some(API_KEY.into()),
        livekit_api_secret: Some(API_SECRET.into()),
        ..config
    };
    TestHub::start_with(livekit).await.addr
}

type Socket = Client;

/// Connects and says hello (the welcome is read with the frames after it).
async fn connect(addr: &str, who: &str, role: Role) -> Socket {
    let token = hub::testing::claims(&who.repeat(16), role, Some(who))
        .sign(SECRET)
        .unwrap();
    let mut socket = Client::connect(addr, &token, Codec::Json).await;
    socket
        .send(&ClientFrame::Hello {
            last_seq: None,
            epoch: None,
        })
        .await;
    socket
}

async fn next(socket: &mut Socket) -> Option<ServerFrame> {
    Some(socket.recv().await)
}

/// The next video token, skipping other frames.
async fn next_video_token(socket: &mut Socket) -> (String, bool) {
    loop {
        if let Some(ServerFrame::VideoToken {
            token, can_publish, ..
        }) = next(socket).await
        {
            return (token, can_publish);
        }
    }
}

/// Verifies tokens with the official LiveKit server SDK (web/node_modules).
fn verify_with_livekit_sdk(tokens: &[&str]) -> Vec<Value> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/livekit-verify.mjs");
    let output = std::process::Command::new("node")
        .arg(script)
        .arg(API_KEY)
        .arg(API_SECRET)
        .args(tokens)
        .output()
        .expect("node runs (make test installs web/node_modules first)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

async fn publish(addr: &str, event: Value) {
    hub::testing::publish(addr, json!({"to": "everyone"}), event).await;
}

#[tokio::test]
async fn tokens_follow_the_appointment_settings_and_broadcast_mode() {
    let calls = Calls::default();
    let addr = start(fake_livekit(calls.clone()).await).await;
    let mut guide = connect(&addr, "g1", Role::Guide).await;
    let mut client = connect(&addr, "c1", Role::Client).await;
    let (guide_token, guide_publishes) = next_video_token(&mut guide).await;
    let (client_token, client_publishes) = next_video_token(&mut client).await;
    assert!(guide_publishes);
    // A fresh appointment has videoAudioSettings "none": attendees only watch.
    assert!(!client_publishes);

    let settings = json!({"kind": "appointmentConfigured", "settings": {
        "appointmentMode": "guided", "videoAudioSettings": "both", "attendeeRestrictionType": "open",
        "accessibleFrom": null, "accessibleTo": null, "productDetailDefaultPageId": null,
        "quickviewPageId": null, "productListingDefaultPageId": null}});
    publish(&addr, settings).await;
    let (allowed_token, allowed) = next_video_token(&mut client).await;
    assert!(allowed);
    let toggle = ClientFrame::Interaction {
        r#ref: Some(1),
        interaction: protocol::action::Interaction::BroadcastModeToggled(
            protocol::action::TogglePayload { active: true },
        ),
    };
    guide.send(&toggle).await;
    let (broadcast_token, during_broadcast) = next_video_token(&mut client).await;
    assert!(!during_broadcast);

    let payloads = verify_with_livekit_sdk(&[
        &guide_token,
        &client_token,
        &allowed_token,
        &broadcast_token,
    ]);
    for payload in &payloads {
        assert!(payload.get("error").is_none(), "{payload}");
        assert_eq!(payload["iss"], API_KEY);
        assert_eq!(payload["video"]["room"], APPOINTMENT);
        assert_eq!(payload["video"]["roomJoin"], true);
        assert_eq!(payload["video"]["canSubscribe"], true);
    }
    assert_eq!(payloads[0]["sub"], "g1".repeat(16));
    assert_eq!(payloads[1]["sub"], "c1".repeat(16));
    // The role travels as the participant's metadata: rooms put the guide in front.
    assert_eq!(payloads[0]["metadata"], r#"{"role":"guide"}"#);
    assert_eq!(payloads[1]["metadata"], r#"{"role":"client"}"#);
    let can_publish: Vec<&Value> = payloads.iter().map(|p| &p["video"]["canPublish"]).collect();
    assert_eq!(
        can_publish,
        [&json!(true), &json!(false), &json!(true), &json!(false)]
    );
    // A token signed with another secret fails the official verifier.
    let foreign = hub::video::LiveKit::new(
        "ws://x".into(),
        API_KEY.into(),
        "another-secret-another-secret".into(),
    )
    .participant_token(APPOINTMENT, "x", None, Role::Client, true)
    .unwrap();
    assert!(verify_with_livekit_sdk(&[&foreign])[0]
        .get("error")
        .is_some());
}

#[tokio::test]
async fn mute_all_and_removal_reach_livekit() {
    let calls = Calls::default();
    let addr = start(fake_livekit(calls.clone()).await).await;
    let mut guide = connect(&addr, "g1", Role::Guide).await;
    let mut client = connect(&addr, "c1", Role::Client).await;
    next_video_token(&mut guide).await;
    next_video_token(&mut client).await;

    let mute = ClientFrame::Action {
        r#ref: Some(5),
        action: Action::MuteAll { muted: true },
    };
    client.send(&mute).await;
    loop {
        match next(&mut client).await {
            Some(ServerFrame::Error { r#ref: Some(5), .. }) => break,
            Some(ServerFrame::Event {
                event: Event::MuteAllChanged { .. },
                ..
            }) => panic!("a client muted everyone"),
            _ => continue,
        }
    }
    guide.send(&mute).await;
    loop {
        if let Some(ServerFrame::Event {
            event: Event::MuteAllChanged { muted: true },
            ..
        }) = next(&mut client).await
        {
            break;
        }
    }
    publish(
        &addr,
        json!({"kind": "attendeeRemoved", "attendeeId": "c1".repeat(16)}),
    )
    .await;
    // The removed attendee's socket is closed with REMOVED.
    let closed = client.close_code(true).await;
    assert_eq!(closed, protocol::frame::close_code::REMOVED);

    // LiveKit calls happen in the background.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let seen: Vec<(String, Value)> = calls.lock().unwrap().clone();
        let muted: Vec<&Value> = seen
            .iter()
            .filter(|(m, _)| m == "MutePublishedTrack")
            .map(|(_, b)| b)
            .collect();
        let removed = seen
            .iter()
            .any(|(m, b)| m == "RemoveParticipant" && b["identity"] == "c1".repeat(16));
        if muted.len() == 1 && removed {
            assert_eq!(
                muted[0]["trackSid"], "TR_client_mic",
                "only the attendee's microphone"
            );
            assert_eq!(muted[0]["identity"], "c1".repeat(16));
            assert_eq!(muted[0]["muted"], true);
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "LiveKit calls seen: {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `DELETE /internal/appointments/{id}/video-room` against the real embedded sfu: the
/// participant who joined with the hub's token is disconnected and the room is gone.
#[tokio::test]
async fn deleting_the_video_room_disconnects_everyone_in_the_sfu() {
    let data = tempfile::tempdir().unwrap();
    let sfu_config = sfu::Config::loopback(data.path().to_owned(), API_KEY, API_SECRET);
    let credentials = sfu_config.credentials().unwrap();
    let running = sfu::server::start(&sfu_config, sfu_config.credentials().unwrap())
        .await
        .unwrap();
    let addr = start(format!("ws://{}", running.http_addr)).await;

    // The guide joins the sfu with the token the hub minted for the appointment's room.
    let mut guide = connect(&addr, "g1", Role::Guide).await;
    let (token, _) = next_video_token(&mut guide).await;
    let grant = sfu::auth::verify_join(&credentials, &token, None).unwrap();
    assert_eq!(
        grant.room, APPOINTMENT,
        "the room is named by the appointment id"
    );
    let (signal, mut signals) = tokio::sync::mpsc::channel(64);
    running.engine.join(grant, true, signal).await.unwrap();
    let listed = running
        .engine
        .admin(
            APPOINTMENT.into(),
            sfu::engine::AdminAction::ListParticipants,
        )
        .await
        .unwrap();
    assert!(matches!(listed, sfu::engine::AdminReply::Participants(p) if p.len() == 1));

    let delete = |id: &str, secret: &str| {
        reqwest::Client::new()
            .delete(format!(
                "http://{addr}/internal/appointments/{id}/video-room"
            ))
            .bearer_auth(secret.to_owned())
            .send()
    };
    let refused = delete(APPOINTMENT, "not-the-secret").await.unwrap();
    assert_eq!(refused.status(), 401);
    let refused = delete("not-an-id", std::str::from_utf8(SECRET).unwrap())
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    assert!(
        running
            .engine
            .admin(
                APPOINTMENT.into(),
                sfu::engine::AdminAction::ListParticipants
            )
            .await
            .is_ok(),
        "nothing changed"
    );

    let deleted = delete(APPOINTMENT, std::str::from_utf8(SECRET).unwrap())
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204);
    // The participant is told to leave, then its signal channel closes.
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        while signals.recv().await.is_some() {}
    })
    .await;
    assert!(
        closed.is_ok(),
        "the participant's signalling was not closed"
    );
    let listed = running
        .engine
        .admin(
            APPOINTMENT.into(),
            sfu::engine::AdminAction::ListParticipants,
        )
        .await;
    assert!(
        matches!(listed, Err(sfu::Error::RoomNotFound)),
        "the room is gone"
    );
    // Again: nothing left to delete, still done.
    assert_eq!(
        delete(APPOINTMENT, std::str::from_utf8(SECRET).unwrap())
            .await
            .unwrap()
            .status(),
        204
    );
}
