//! The hub over real sockets: a real server on port 0 and tokio-tungstenite clients.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use hub::testing::{internal_state, publish, TestHub, APPOINTMENT, SECRET};
use hub::Config;
use protocol::action::Action;
use protocol::codec::Codec;
use protocol::frame::{ClientFrame, ErrorCode, Event, Resume, ServerFrame};
use protocol::{HubClaims, Role};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::Client;

async fn start(retained_events: usize) -> String {
    TestHub::start_with(|config| with_retained(config, retained_events))
        .await
        .addr
}

async fn start_in(
    dir: &std::path::Path,
    retained_events: usize,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> String {
    TestHub::start_in(
        dir,
        |config| with_retained(config, retained_events),
        shutdown,
    )
    .await
    .addr
}

async fn start_with(
    dir: &std::path::Path,
    retained_events: usize,
    heartbeat_secs: u64,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> String {
    TestHub::start_in(
        dir,
        |config| Config {
            heartbeat_secs,
            ..with_retained(config, retained_events)
        },
        shutdown,
    )
    .await
    .addr
}

/// A small send queue and `retained_events`.
fn with_retained(config: Config, retained_events: usize) -> Config {
    Config {
        send_queue: 64,
        retained_events,
        ..config
    }
}

/// A token for `attendee` repeated to an id (`"g1"`: `g1g1…`), signed with `secret`.
fn token(attendee: &str, role: Role, secret: &[u8]) -> String {
    hub::testing::claims(&attendee.repeat(32 / attendee.len()), role, None)
        .sign(secret)
        .unwrap()
}

const PAGE: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

/// The status of an upgrade with `token` as `Authorization: Bearer` (or none).
async fn upgrade_status(addr: &str, token: Option<&str>) -> u16 {
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    if let Some(token) = token {
        let bearer = format!("Bearer {token}").parse().unwrap();
        request.headers_mut().insert("authorization", bearer);
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok(_) => 101,
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(other) => panic!("unexpected error {other}"),
    }
}

#[tokio::test]
async fn forged_missing_and_expired_tokens_are_refused() {
    let addr = start(16).await;
    assert_eq!(upgrade_status(&addr, None).await, 401);
    assert_eq!(upgrade_status(&addr, Some("not-a-jwt")).await, 401);
    let forged = token("c1", Role::Guide, b"someone-elses-secret");
    assert_eq!(upgrade_status(&addr, Some(&forged)).await, 401);
    let expired = HubClaims {
        sub: "a".repeat(32),
        apt: APPOINTMENT.into(),
        role: Role::Guide,
        name: None,
        exp: 1,
    }
    .sign(SECRET)
    .unwrap();
    assert_eq!(upgrade_status(&addr, Some(&expired)).await, 401);
    let good = token("c1", Role::Client, SECRET);
    assert_eq!(upgrade_status(&addr, Some(&good)).await, 101);
}

#[tokio::test]
async fn guide_switches_slides_and_every_client_follows_in_order() {
    let addr = start(64).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    let mut json_client =
        Client::connect(&addr, &token("c1", Role::Client, SECRET), Codec::Json).await;
    let mut msgpack_client =
        Client::connect(&addr, &token("c2", Role::Client, SECRET), Codec::MsgPack).await;
    guide.hello_at(None, None).await;
    let (_, _, resume, _) = json_client.hello_at(None, None).await;
    assert_eq!(resume, Resume::Fresh);
    msgpack_client.hello_at(None, None).await;

    for alias in 1..=10 {
        guide.switch_slide(alias, alias).await;
    }
    for client in [&mut json_client, &mut msgpack_client] {
        let mut last = None;
        for alias in 1..=10 {
            let (seq, prev, got) = client.next_slide().await;
            assert_eq!(got, alias, "slides arrive in the guide's order");
            if let Some(last) = last {
                assert_eq!(prev, last, "prev chains to the previous event sent");
            }
            last = Some(seq);
        }
    }
    // The guide gets acks carrying the sequence numbers.
    let mut acks = 0;
    while acks < 10 {
        if let ServerFrame::Ack { seq, .. } = guide.recv().await {
            assert!(seq.is_some());
            acks += 1;
        }
    }
}

#[tokio::test]
async fn a_client_may_not_switch_slides() {
    let addr = start(16).await;
    let mut client = Client::connect(&addr, &token("c1", Role::Client, SECRET), Codec::Json).await;
    client.hello_at(None, None).await;
    client.switch_slide(7, 3).await;
    match client.recv().await {
        ServerFrame::Error { r#ref, code, .. } => {
            assert_eq!(r#ref, Some(7));
            assert_eq!(code, ErrorCode::Forbidden);
        }
        other => panic!("expected an error, got {other:?}"),
    }
    // Nothing changed: a new participant still sees slide 0.
    let mut other = Client::connect(&addr, &token("c2", Role::Client, SECRET), Codec::Json).await;
    assert_eq!(other.hello_at(None, None).await.3, Some(0));
}

#[tokio::test]
async fn malformed_frames_get_an_error_and_the_session_goes_on() {
    let addr = start(16).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    for junk in [
        "{",
        "null",
        r#"{"type":"action","action":{"key":"switchSlide","payload":{}}}"#,
    ] {
        guide.socket.send(Message::text(junk)).await.unwrap();
        loop {
            match guide.recv().await {
                ServerFrame::Error { code, .. } => {
                    assert_eq!(code, ErrorCode::BadFrame);
                    break;
                }
                ServerFrame::Event {
                    event: Event::AttendeeChanged { .. },
                    ..
                } => continue,
                other => panic!("expected an error, got {other:?}"),
            }
        }
    }
    // Binary frames on a JSON connection are refused too.
    guide
        .socket
        .send(Message::binary(vec![0xc1, 0x00]))
        .await
        .unwrap();
    assert!(matches!(
        guide.recv().await,
        ServerFrame::Error {
            code: ErrorCode::BadFrame,
            ..
        }
    ));
    // An invalid id is refused by validation, not applied.
    let action = Action::SwitchSlide {
        page_id: "NOT-AN-ID".into(),
        section_id: PAGE.into(),
        slide_alias: 1,
    };
    guide
        .send(&ClientFrame::Action {
            r#ref: Some(1),
            action,
        })
        .await;
    assert!(matches!(
        guide.recv().await,
        ServerFrame::Error {
            code: ErrorCode::InvalidPayload,
            ..
        }
    ));
    guide.switch_slide(2, 5).await;
    assert_eq!(guide.next_slide().await.2, 5);
}

#[tokio::test]
async fn a_frame_before_hello_closes_the_connection() {
    let addr = start(16).await;
    let mut client = Client::connect(&addr, &token("c1", Role::Client, SECRET), Codec::Json).await;
    client.send(&ClientFrame::Ping { nonce: 1 }).await;
    assert!(matches!(
        client.recv().await,
        ServerFrame::Error {
            code: ErrorCode::UnexpectedFrame,
            ..
        }
    ));
    let next = tokio::time::timeout(Duration::from_secs(2), client.socket.next())
        .await
        .unwrap();
    match next {
        Some(Ok(Message::Close(Some(frame)))) => assert_eq!(u16::from(frame.code), 4000),
        other => panic!("expected a close frame, got {other:?}"),
    }
}

#[tokio::test]
async fn a_reconnecting_client_gets_exactly_the_missed_events() {
    let addr = start(64).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    let client_token = token("c1", Role::Client, SECRET);
    let mut client = Client::connect(&addr, &client_token, Codec::Json).await;
    let (_, epoch, _, _) = client.hello_at(None, None).await;
    guide.switch_slide(1, 1).await;
    let (last_seq, _, _) = client.next_slide().await;
    client.socket.close(None).await.unwrap();
    drop(client);

    for alias in 2..=4 {
        guide.switch_slide(alias, alias).await;
    }
    for _ in 1..=4 {
        guide.next_slide().await;
    }
    let mut client = Client::connect(&addr, &client_token, Codec::Json).await;
    let (_, _, resume, snapshot) = client.hello_at(Some(last_seq), Some(epoch)).await;
    assert_eq!(resume, Resume::Replayed);
    assert_eq!(snapshot, None);
    let mut prev_expected = last_seq;
    for alias in 2..=4 {
        let (seq, prev, got) = client.next_slide().await;
        assert_eq!(got, alias);
        assert_eq!(prev, prev_expected);
        assert!(seq > prev);
        prev_expected = seq;
    }
    // No duplicate: the next frame is the next live change.
    guide.switch_slide(9, 5).await;
    let (_, prev, got) = client.next_slide().await;
    assert_eq!((got, prev), (5, prev_expected));
}

#[tokio::test]
async fn a_client_behind_the_retained_window_or_epoch_gets_a_snapshot() {
    let addr = start(2).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    let (_, epoch, _, _) = guide.hello_at(None, None).await;
    for alias in 1..=6 {
        guide.switch_slide(alias, alias).await;
    }
    for _ in 1..=6 {
        guide.next_slide().await;
    }
    let client_token = token("c1", Role::Client, SECRET);
    let mut client = Client::connect(&addr, &client_token, Codec::Json).await;
    let (_, _, resume, alias) = client.hello_at(Some(1), Some(epoch)).await;
    assert_eq!((resume, alias), (Resume::Snapshot, Some(6)));
    let mut client = Client::connect(&addr, &client_token, Codec::Json).await;
    let (_, _, resume, alias) = client.hello_at(Some(1), Some("another-epoch".into())).await;
    assert_eq!((resume, alias), (Resume::Snapshot, Some(6)));
}

#[tokio::test]
async fn guides_see_participants_arrive_and_clients_do_not() {
    let addr = start(64).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    // The guide's own presence.
    assert!(matches!(
        guide.recv().await,
        ServerFrame::Event {
            event: Event::AttendeeChanged { .. },
            ..
        }
    ));
    let mut client = Client::connect(&addr, &token("c1", Role::Client, SECRET), Codec::Json).await;
    let (welcome_seq, _, _, _) = client.hello_at(None, None).await;
    match guide.recv().await {
        ServerFrame::Event {
            event: Event::AttendeeChanged { attendee },
            ..
        } => {
            assert_eq!(attendee.attendee_id, "c1".repeat(16));
            assert_eq!(attendee.connection, protocol::ConnectionState::Connected);
        }
        other => panic!("expected a presence event, got {other:?}"),
    }
    guide.switch_slide(1, 1).await;
    // The client's first event is the slide; its prev skips the guide-only presence event.
    match client.recv().await {
        ServerFrame::Event {
            seq,
            prev,
            event: Event::SlideSwitched { .. },
        } => {
            assert_eq!(prev, welcome_seq);
            assert_eq!(seq, welcome_seq + 2);
        }
        other => panic!("expected the slide, got {other:?}"),
    }
}

#[tokio::test]
async fn a_restarted_hub_keeps_state_order_and_epoch() {
    let dir = tempfile::tempdir().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let addr = start_in(dir.path(), 64, async {
        let _ = stopped.await;
    })
    .await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    let client_token = token("c1", Role::Client, SECRET);
    let mut client = Client::connect(&addr, &client_token, Codec::Json).await;
    let (_, epoch, _, _) = client.hello_at(None, None).await;
    for alias in 1..=3 {
        guide.switch_slide(alias, alias).await;
    }
    let mut last_seq = 0;
    for _ in 1..=3 {
        last_seq = client.next_slide().await.0;
    }
    // Every event above was acknowledged; now the hub goes away.
    let _ = stop.send(());
    drop(guide);
    drop(client);
    tokio::time::sleep(Duration::from_millis(100)).await;

    let addr = start_in(dir.path(), 64, std::future::pending()).await;
    let mut fresh = Client::connect(&addr, &token("c2", Role::Client, SECRET), Codec::Json).await;
    let (_, fresh_epoch, resume, alias) = fresh.hello_at(None, None).await;
    assert_eq!(
        (resume, alias, fresh_epoch.as_str()),
        (Resume::Fresh, Some(3), epoch.as_str())
    );
    let mut client = Client::connect(&addr, &client_token, Codec::Json).await;
    let (seq, _, resume, _) = client.hello_at(Some(last_seq), Some(epoch)).await;
    assert_eq!(resume, Resume::Replayed);
    assert!(seq >= last_seq);
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    guide.switch_slide(4, 4).await;
    let (next_seq, prev, alias) = client.next_slide().await;
    assert_eq!((alias, prev), (4, last_seq));
    assert!(next_seq > last_seq);
}

#[tokio::test]
async fn the_internal_api_publishes_with_the_shared_secret_only() {
    let addr = start(16).await;
    let mut client = Client::connect(&addr, &token("c1", Role::Client, SECRET), Codec::Json).await;
    client.hello_at(None, None).await;
    let http = reqwest::Client::new();
    let url = format!("http://{addr}/internal/publish");
    let body = serde_json::json!({
        "appointmentId": APPOINTMENT,
        "audience": {"to": "everyone"},
        "event": {"kind": "presentationStarted", "startedAt": "2026-11-25T10:00:00Z"},
    });
    let refused = http
        .post(&url)
        .bearer_auth("wrong")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    let refused = http.post(&url).json(&body).send().await.unwrap();
    assert_eq!(refused.status(), 401);
    let bad = http
        .post(&url)
        .bearer_auth("test-secret")
        .body("{\"appointmentId\":1}")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    let bad_id = serde_json::json!({"appointmentId": "../etc", "audience": {"to": "guides"}, "event": {"kind": "lockChanged", "locked": true}});
    assert_eq!(
        http.post(&url)
            .bearer_auth("test-secret")
            .json(&bad_id)
            .send()
            .await
            .unwrap()
            .status(),
        400
    );

    let ok = http
        .post(&url)
        .bearer_auth("test-secret")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    let seq = ok.json::<serde_json::Value>().await.unwrap()["seq"]
        .as_u64()
        .unwrap();
    match client.recv().await {
        ServerFrame::Event {
            seq: got,
            event: Event::PresentationStarted { .. },
            ..
        } => assert_eq!(got, seq),
        other => panic!("expected the start, got {other:?}"),
    }
    let state = internal_state(&addr, "").await;
    assert_eq!(state["stateForAll"]["started"], true);
    assert_eq!(state["stateForAll"]["running"], true);
    assert!(
        state["stateForGuides"]["clients"][&"c1".repeat(16)].is_object(),
        "{state}"
    );
    let client_view = internal_state(&addr, "?role=CLIENT").await;
    assert_eq!(client_view["stateForAll"]["started"], true);
    assert!(client_view.get("stateForGuides").is_none(), "{client_view}");
}

/// The shared secret is one layer over every internal route, checked before the body;
/// every refusal has the JSON:API error shape with the hub's codes.
#[tokio::test]
async fn every_internal_route_needs_the_secret_before_anything_else() {
    let addr = start(16).await;
    let http = reqwest::Client::new();
    let error = |body: serde_json::Value| {
        (
            body["errors"][0]["status"].clone(),
            body["errors"][0]["code"].clone(),
        )
    };
    let routes = [
        http.post(format!("http://{addr}/internal/publish"))
            .body("not json"),
        http.post(format!("http://{addr}/internal/attendee-profile"))
            .body("not json"),
        http.get(format!(
            "http://{addr}/internal/appointments/not-an-id/state"
        )),
    ];
    for request in routes {
        let response = request.bearer_auth("wrong").send().await.unwrap();
        assert_eq!(response.status(), 401);
        assert_eq!(
            error(response.json().await.unwrap()),
            (
                serde_json::json!("401"),
                serde_json::json!("HUB__UNAUTHORIZED")
            )
        );
    }
    let bad_body = http
        .post(format!("http://{addr}/internal/attendee-profile"))
        .bearer_auth("test-secret")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(bad_body.status(), 400);
    assert_eq!(error(bad_body.json().await.unwrap()).1, "HUB__INVALID_BODY");
    let bad_id = http
        .get(format!(
            "http://{addr}/internal/appointments/not-an-id/state"
        ))
        .bearer_auth("test-secret")
        .send()
        .await
        .unwrap();
    assert_eq!(bad_id.status(), 400);
    let body: serde_json::Value = bad_id.json().await.unwrap();
    assert_eq!(error(body.clone()).1, "HUB__INVALID_ID");
    assert_eq!(body["errors"][0]["title"], "Bad Request");
    // An unknown path is not found, secret or not.
    assert_eq!(
        http.get(format!("http://{addr}/internal/nothing"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}

#[tokio::test]
async fn an_attendee_profile_change_keeps_the_live_presence_and_cart_permission() {
    let addr = start(64).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    assert!(matches!(
        guide.recv().await,
        ServerFrame::Event {
            event: Event::AttendeeChanged { .. },
            ..
        }
    ));
    let mut client = Client::connect(&addr, &token("c1", Role::Client, SECRET), Codec::Json).await;
    client.hello_at(None, None).await;
    assert!(matches!(
        guide.recv().await,
        ServerFrame::Event {
            event: Event::AttendeeChanged { .. },
            ..
        }
    ));
    let attendee = "c1".repeat(16);
    let http = reqwest::Client::new();
    let grant = serde_json::json!({
        "appointmentId": APPOINTMENT, "audience": {"to": "attendee", "attendeeId": attendee},
        "event": {"kind": "cartPermissionChanged", "attendeeId": attendee, "permission": "granted"},
    });
    assert_eq!(
        http.post(format!("http://{addr}/internal/publish"))
            .bearer_auth("test-secret")
            .json(&grant)
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    assert!(matches!(
        guide.recv().await,
        ServerFrame::Event {
            event: Event::CartPermissionChanged { .. },
            ..
        }
    ));

    let url = format!("http://{addr}/internal/attendee-profile");
    let profile = |body: serde_json::Value| {
        http.post(&url)
            .bearer_auth("test-secret")
            .json(&body)
            .send()
    };
    let renamed = profile(
        serde_json::json!({"appointmentId": APPOINTMENT, "attendeeId": attendee, "attendeeName": "Ada", "videoUserId": "video-ada"}),
    )
    .await
    .unwrap();
    assert_eq!(renamed.status(), 200);
    let seq = renamed.json::<serde_json::Value>().await.unwrap()["seq"]
        .as_u64()
        .expect("published");
    match guide.recv().await {
        ServerFrame::Event {
            seq: got,
            event: Event::AttendeeChanged { attendee: summary },
            ..
        } => {
            assert_eq!(got, seq);
            assert_eq!(summary.attendee_id, attendee);
            assert_eq!(summary.attendee_name.as_deref(), Some("Ada"));
            assert_eq!(summary.video_user_id.as_deref(), Some("video-ada"));
            assert_eq!(summary.connection, protocol::ConnectionState::Connected);
            assert_eq!(summary.cart_permission, protocol::CartPermission::Granted);
        }
        other => panic!("expected the attendee change, got {other:?}"),
    }
    // `null` clears the video user id; an absent name stays.
    let cleared = profile(serde_json::json!({"appointmentId": APPOINTMENT, "attendeeId": attendee, "videoUserId": null})).await.unwrap();
    assert!(cleared.json::<serde_json::Value>().await.unwrap()["seq"].is_u64());
    let state = internal_state(&addr, "").await;
    let entry = &state["stateForGuides"]["clients"][&attendee];
    assert_eq!(
        (
            entry["attendeeName"].as_str(),
            entry["videoUserId"].is_null(),
            entry["cartPermission"].as_str()
        ),
        (Some("Ada"), true, Some("granted")),
        "{state}"
    );

    // Nothing changes, or no one to change: nothing is published.
    let same = profile(serde_json::json!({"appointmentId": APPOINTMENT, "attendeeId": attendee, "attendeeName": "Ada"})).await.unwrap();
    assert_eq!(
        same.json::<serde_json::Value>().await.unwrap()["seq"],
        serde_json::Value::Null
    );
    let unknown =
        profile(serde_json::json!({"appointmentId": APPOINTMENT, "attendeeId": "f".repeat(32), "attendeeName": "Bob"})).await.unwrap();
    assert_eq!(
        unknown.json::<serde_json::Value>().await.unwrap()["seq"],
        serde_json::Value::Null
    );

    // Refusals change nothing.
    let bad_id = profile(serde_json::json!({"appointmentId": APPOINTMENT, "attendeeId": "../x", "attendeeName": "Eve"})).await.unwrap();
    assert_eq!(bad_id.status(), 400);
    let bad_type = profile(serde_json::json!({"appointmentId": APPOINTMENT, "attendeeId": attendee, "attendeeName": 5})).await.unwrap();
    assert_eq!(bad_type.status(), 400);
    let no_secret = http
        .post(&url)
        .json(&serde_json::json!({"appointmentId": APPOINTMENT, "attendeeId": attendee, "attendeeName": "Eve"}))
        .send()
        .await
        .unwrap();
    assert_eq!(no_secret.status(), 401);
    let state = internal_state(&addr, "").await;
    assert_eq!(
        state["stateForGuides"]["clients"][&attendee]["attendeeName"],
        "Ada"
    );
}

#[tokio::test]
async fn metrics_count_connections_frames_and_fan_out_latency() {
    let addr = start(16).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    guide.switch_slide(1, 1).await;
    guide.next_slide().await;
    let _ = upgrade_status(&addr, Some("forged")).await;
    let text = reqwest::get(format!("http://{addr}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let value = |name: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
            .unwrap_or_else(|| panic!("{name} missing in\n{text}"))
            .parse()
            .unwrap()
    };
    assert_eq!(value("hub_connections"), 1.0);
    assert_eq!(value("hub_rooms"), 1.0);
    assert!(value("hub_frames_in_total") >= 2.0);
    assert!(value("hub_events_total") >= 2.0, "presence and the slide");
    assert_eq!(value("hub_refused_tokens_total"), 1.0);
    assert!(value("hub_fan_out_latency_seconds_count") >= 2.0);
    assert!(value("process_resident_memory_bytes") > 0.0);
    // Present (the lookup panics otherwise) and a number of seconds.
    assert!(value("process_cpu_seconds_total") >= 0.0);
    assert!(!text.contains("hub_redis_up"), "single mode has no Redis");
}

#[tokio::test]
async fn a_guide_gets_the_welcome_of_a_room_with_megabytes_of_participants() {
    let addr = start(16).await;
    let http = reqwest::Client::new();
    for i in 0..4 {
        let attendee = serde_json::json!({
            "attendeeId": format!("{i:032x}"), "role": "CLIENT", "attendeeName": "n".repeat(400_000),
            "videoUserId": null, "hasJoined": true, "status": "joined", "connection": "connected",
            "cartPermission": "missing", "lastActiveAt": null,
        });
        let body = serde_json::json!({"appointmentId": APPOINTMENT, "audience": {"to": "guides"}, "event": {"kind": "attendeeChanged", "attendee": attendee}});
        let response = http
            .post(format!("http://{addr}/internal/publish"))
            .bearer_auth("test-secret")
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
    }
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide
        .send(&ClientFrame::Hello {
            last_seq: None,
            epoch: None,
        })
        .await;
    match guide.recv().await {
        ServerFrame::Welcome {
            snapshot: Some(snapshot),
            ..
        } => {
            assert_eq!(snapshot.state_for_guides.unwrap().clients.len(), 4);
        }
        other => panic!("expected the welcome, got {other:?}"),
    }
}

/// The code of the close frame `client` gets next (frames before it are skipped);
/// fails without one within `limit`.
async fn close_code_within(client: &mut Client, limit: Duration) -> Option<u16> {
    tokio::time::timeout(limit, async {
        loop {
            match client.socket.next().await {
                Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => continue,
                other => panic!("expected a close frame, got {other:?}"),
            }
        }
    })
    .await
    .expect("the connection was not closed in time")
}

#[tokio::test]
async fn an_oversized_frame_closes_only_that_connection_with_1009() {
    let addr = start(16).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    let mut client = Client::connect(&addr, &token("c1", Role::Client, SECRET), Codec::Json).await;
    client.hello_at(None, None).await;
    // 100 KiB in one frame, over the hub's 64 KiB: a close frame with 1009 (message too
    // big), not a dropped connection (1006 on the client's side).
    let huge = format!(
        r#"{{"type":"ping","nonce":1,"pad":"{}"}}"#,
        "x".repeat(100 * 1024)
    );
    let _ = client.socket.send(Message::text(huge)).await;
    let close = close_code_within(&mut client, Duration::from_secs(2)).await;
    assert_eq!(close, Some(protocol::frame::close_code::MESSAGE_TOO_BIG));
    // The same before hello (not "hello expected"): the first message is over the limit.
    let mut early = Client::connect(&addr, &token("c2", Role::Client, SECRET), Codec::Json).await;
    let _ = early
        .socket
        .send(Message::text("x".repeat(100 * 1024)))
        .await;
    let close = close_code_within(&mut early, Duration::from_secs(2)).await;
    assert_eq!(close, Some(protocol::frame::close_code::MESSAGE_TOO_BIG));
    let text = reqwest::get(format!("http://{addr}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains("hub_messages_too_big_total 2"), "{text}");
    // The guide goes on.
    guide.switch_slide(1, 7).await;
    assert_eq!(guide.next_slide().await.2, 7);
}

#[tokio::test]
async fn cart_permission_is_requested_by_the_guide_and_granted_by_the_attendee_only() {
    let addr = start(64).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    let mut ada = Client::connect(&addr, &token("a1", Role::Client, SECRET), Codec::Json).await;
    ada.hello_at(None, None).await;
    let mut bob = Client::connect(&addr, &token("b1", Role::Client, SECRET), Codec::Json).await;
    bob.hello_at(None, None).await;
    let ada_id = "a1".repeat(16);
    let permission_events = |frames: Vec<ServerFrame>| -> Vec<protocol::CartPermission> {
        frames
            .into_iter()
            .filter_map(|f| match f {
                ServerFrame::Event {
                    event: Event::CartPermissionChanged { permission, .. },
                    ..
                } => Some(permission),
                _ => None,
            })
            .collect()
    };

    // A client may not request.
    bob.send(&ClientFrame::Action {
        r#ref: Some(1),
        action: Action::RequestCartPermission {
            attendee_id: ada_id.clone(),
        },
    })
    .await;
    assert!(matches!(
        bob.recv().await,
        ServerFrame::Error {
            code: ErrorCode::Forbidden,
            ..
        }
    ));

    guide
        .send(&ClientFrame::Action {
            r#ref: Some(2),
            action: Action::RequestCartPermission {
                attendee_id: ada_id.clone(),
            },
        })
        .await;
    let mut seen = Vec::new();
    while permission_events(seen.clone()).is_empty() {
        seen.push(ada.recv().await);
    }
    assert_eq!(
        permission_events(seen),
        [protocol::CartPermission::Requested]
    );
    ada.send(&ClientFrame::Action {
        r#ref: Some(3),
        action: Action::SetCartPermission { granted: true },
    })
    .await;

    // The guide sees the request and the grant; the state says granted.
    let mut seen = Vec::new();
    while permission_events(seen.clone()).len() < 2 {
        seen.push(guide.recv().await);
    }
    assert_eq!(
        permission_events(seen),
        [
            protocol::CartPermission::Requested,
            protocol::CartPermission::Granted
        ]
    );
    let state = internal_state(&addr, "").await;
    assert_eq!(
        state["stateForGuides"]["clients"][&ada_id]["cartPermission"],
        "granted"
    );
    // Bob saw none of it: his next frame is the next public event.
    guide.switch_slide(4, 2).await;
    match bob.recv().await {
        ServerFrame::Event {
            event: Event::SlideSwitched { .. },
            ..
        } => {}
        other => panic!("bob got {other:?}"),
    }
}

#[tokio::test]
async fn the_product_a_guide_views_is_highlighted_for_everyone() {
    let addr = start(16).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    let mut client = Client::connect(&addr, &token("c1", Role::Client, SECRET), Codec::Json).await;
    client.hello_at(None, None).await;
    let viewed = |id: &str| ClientFrame::Interaction {
        r#ref: None,
        interaction: protocol::action::Interaction::ProductViewed(
            protocol::action::ProductPayload {
                product_id: id.into(),
            },
        ),
    };
    // A client viewing a product changes nothing for others.
    client.send(&viewed(&"e".repeat(32))).await;
    guide.send(&viewed(&"d".repeat(32))).await;
    match client.recv().await {
        ServerFrame::Event {
            event: Event::GuideProductChanged { product_id },
            ..
        } => assert_eq!(product_id, Some("d".repeat(32))),
        other => panic!("expected the highlight, got {other:?}"),
    }
}

#[tokio::test]
async fn a_silent_peer_is_disconnected_and_an_answering_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start_with(dir.path(), 16, 1, std::future::pending()).await;
    let mut silent = Client::connect(&addr, &token("c1", Role::Client, SECRET), Codec::Json).await;
    let mut lively = Client::connect(&addr, &token("c2", Role::Client, SECRET), Codec::Json).await;
    silent
        .send(&ClientFrame::Hello {
            last_seq: None,
            epoch: None,
        })
        .await;
    lively
        .send(&ClientFrame::Hello {
            last_seq: None,
            epoch: None,
        })
        .await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(6);
    let mut silent_closed = None;
    let mut lively_pongs = 0;
    while tokio::time::Instant::now() < deadline && silent_closed.is_none() {
        tokio::select! {
            message = silent.socket.next() => match message {
                Some(Ok(Message::Close(Some(frame)))) => silent_closed = Some(u16::from(frame.code)),
                Some(Ok(_)) => {}
                other => panic!("unexpected {other:?}"),
            },
            message = lively.socket.next() => {
                if let Some(Ok(Message::Text(text))) = message {
                    if let Ok(ServerFrame::Ping { nonce }) = serde_json::from_str(text.as_str()) {
                        lively.send(&ClientFrame::Pong { nonce }).await;
                        lively_pongs += 1;
                    }
                }
            }
        }
    }
    assert_eq!(
        silent_closed,
        Some(protocol::frame::close_code::HEARTBEAT_TIMEOUT)
    );
    assert!(lively_pongs >= 1);
    // The one that answered is still served.
    lively.send(&ClientFrame::Ping { nonce: 77 }).await;
    loop {
        if let ServerFrame::Pong { nonce } = lively.recv().await {
            assert_eq!(nonce, 77);
            break;
        }
    }
}

#[tokio::test]
async fn a_slide_the_guide_prepares_before_the_start_is_kept_and_shown_at_the_start() {
    let addr = start(16).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    // Before the start the guide may switch slides: the change is accepted and kept.
    guide.switch_slide(1, 3).await;
    assert_eq!(guide.next_slide().await.2, 3);
    let before = internal_state(&addr, "?role=CLIENT").await;
    assert_eq!(before["stateForAll"]["started"], false);
    assert_eq!(before["stateForAll"]["currentSlideAlias"], 3);

    // An attendee who joins early gets that slide in the welcome, not yet started…
    let mut client = Client::connect(&addr, &token("c1", Role::Client, SECRET), Codec::Json).await;
    let (_, _, _, alias) = client.hello_at(None, None).await;
    assert_eq!(alias, Some(3));

    // …and the start keeps it: attendees see the prepared slide when it begins.
    let body = serde_json::json!({
        "appointmentId": APPOINTMENT,
        "audience": {"to": "everyone"},
        "event": {"kind": "presentationStarted", "startedAt": "2026-11-26T10:00:00Z"},
    });
    let response = reqwest::Client::new()
        .post(format!("http://{addr}/internal/publish"))
        .bearer_auth("test-secret")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    loop {
        match client.recv().await {
            ServerFrame::Event {
                event: Event::PresentationStarted { .. },
                ..
            } => break,
            ServerFrame::Event {
                event: Event::SlideSwitched { .. },
                ..
            } => panic!("the start must not move the slide"),
            _ => continue,
        }
    }
    let after = internal_state(&addr, "?role=CLIENT").await;
    assert_eq!(after["stateForAll"]["started"], true);
    assert_eq!(after["stateForAll"]["currentSlideAlias"], 3);
    assert_eq!(after["stateForAll"]["currentPageId"], PAGE);
}

#[tokio::test]
async fn a_refused_cart_permission_stays_apart_from_never_asked_in_the_attendee_state() {
    let addr = start(64).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    let mut ada = Client::connect(&addr, &token("a1", Role::Client, SECRET), Codec::Json).await;
    ada.hello_at(None, None).await;
    let ada_id = "a1".repeat(16);
    let own = |state: serde_json::Value| state["stateForClients"]["cartPermission"].clone();
    let query = format!("?role=CLIENT&attendeeId={ada_id}");
    assert_eq!(own(internal_state(&addr, &query).await), "missing");

    guide
        .send(&ClientFrame::Action {
            r#ref: Some(1),
            action: Action::RequestCartPermission {
                attendee_id: ada_id.clone(),
            },
        })
        .await;
    loop {
        if let ServerFrame::Event {
            event: Event::CartPermissionChanged { .. },
            ..
        } = ada.recv().await
        {
            break;
        }
    }
    ada.send(&ClientFrame::Action {
        r#ref: Some(2),
        action: Action::SetCartPermission { granted: false },
    })
    .await;
    loop {
        if let ServerFrame::Event {
            event: Event::CartPermissionChanged { permission, .. },
            ..
        } = ada.recv().await
        {
            assert_eq!(permission, protocol::CartPermission::Refused);
            break;
        }
    }
    assert_eq!(own(internal_state(&addr, &query).await), "refused");
    // The attendee's next welcome says so too.
    drop(ada);
    let mut again = Client::connect(&addr, &token("a1", Role::Client, SECRET), Codec::Json).await;
    again
        .send(&ClientFrame::Hello {
            last_seq: None,
            epoch: None,
        })
        .await;
    match again.recv().await {
        ServerFrame::Welcome {
            snapshot: Some(snapshot),
            ..
        } => {
            assert_eq!(
                snapshot.state_for_clients.cart_permission,
                protocol::CartPermission::Refused
            );
        }
        other => panic!("expected the welcome, got {other:?}"),
    }
    // Another attendee was never asked.
    assert_eq!(
        own(internal_state(
            &addr,
            &format!("?role=CLIENT&attendeeId={}", "b1".repeat(16))
        )
        .await),
        "missing"
    );
}

/// Every participant entry the guides see, in any of their lists.
fn listed(state: &serde_json::Value, attendee_id: &str) -> bool {
    ["clients", "inactiveClients", "guides"]
        .iter()
        .any(|list| state["stateForGuides"][list].get(attendee_id).is_some())
}

#[tokio::test]
async fn a_removed_attendees_token_is_turned_away_before_and_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let addr = start_in(dir.path(), 64, async {
        let _ = stopped.await;
    })
    .await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    let removed_token = token("c1", Role::Client, SECRET);
    let removed_id = "c1".repeat(16);
    let mut removed = Client::connect(&addr, &removed_token, Codec::Json).await;
    removed.hello_at(None, None).await;
    let mut other = Client::connect(&addr, &token("c2", Role::Client, SECRET), Codec::Json).await;
    other.hello_at(None, None).await;

    // The shop removes c1: its socket closes with 4010, as before.
    publish(
        &addr,
        serde_json::json!({"to": "everyone"}),
        serde_json::json!({"kind": "attendeeRemoved", "attendeeId": removed_id}),
    )
    .await;
    assert_eq!(
        removed.close_code(true).await,
        protocol::frame::close_code::REMOVED
    );
    // Its old token still verifies, but the hub turns it away at hello: no welcome.
    let mut again = Client::connect(&addr, &removed_token, Codec::Json).await;
    assert_eq!(
        again.hello_refused().await,
        protocol::frame::close_code::REMOVED
    );
    // The guide never sees c1 again after the removal: not "reconnected", and not back
    // as inactive when its socket closed.
    loop {
        if let ServerFrame::Event {
            event: Event::AttendeeRemoved { .. },
            ..
        } = guide.recv().await
        {
            break;
        }
    }
    guide.switch_slide(1, 1).await;
    loop {
        match guide.recv().await {
            ServerFrame::Event {
                event: Event::AttendeeChanged { attendee },
                ..
            } => {
                assert_ne!(
                    attendee.attendee_id, removed_id,
                    "the guide saw the removed attendee again"
                )
            }
            ServerFrame::Event {
                event: Event::SlideSwitched { .. },
                ..
            } => break,
            _ => continue,
        }
    }
    assert!(!listed(&internal_state(&addr, "").await, &removed_id));
    let text = reqwest::get(format!("http://{addr}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains("hub_turned_away_total 1"), "{text}");

    // A restarted hub still knows.
    let _ = stop.send(());
    drop((guide, other, again));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let addr = start_in(dir.path(), 64, std::future::pending()).await;
    let mut after_restart = Client::connect(&addr, &removed_token, Codec::Json).await;
    assert_eq!(
        after_restart.hello_refused().await,
        protocol::frame::close_code::REMOVED
    );
    let mut other = Client::connect(&addr, &token("c2", Role::Client, SECRET), Codec::Json).await;
    assert_eq!(
        other.hello_at(None, None).await.3,
        Some(1),
        "others come back as before"
    );
}

#[tokio::test]
async fn a_lock_keeps_out_tokens_of_attendees_who_had_not_joined_before_it() {
    let addr = start(64).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    // c1 joins before the lock; c2 got its token then too, but never connected.
    let early = token("c1", Role::Client, SECRET);
    let late = token("c2", Role::Client, SECRET);
    let mut c1 = Client::connect(&addr, &early, Codec::Json).await;
    c1.hello_at(None, None).await;
    drop(c1);
    guide
        .send(&ClientFrame::Action {
            r#ref: Some(1),
            action: Action::SetLocked { locked: true },
        })
        .await;
    loop {
        if let ServerFrame::Event {
            event: Event::LockChanged { locked: true },
            ..
        } = guide.recv().await
        {
            break;
        }
    }

    let mut c2 = Client::connect(&addr, &late, Codec::Json).await;
    assert_eq!(
        c2.hello_refused().await,
        protocol::frame::close_code::LOCKED
    );
    assert!(
        !listed(&internal_state(&addr, "").await, &"c2".repeat(16)),
        "the guide does not see c2"
    );
    // Who had joined comes back; a guide always does.
    let mut c1 = Client::connect(&addr, &early, Codec::Json).await;
    c1.hello_at(None, None).await;
    let mut guide2 = Client::connect(&addr, &token("g2", Role::Guide, SECRET), Codec::Json).await;
    guide2.hello_at(None, None).await;

    // Unlocked, c2 gets in.
    guide
        .send(&ClientFrame::Action {
            r#ref: Some(2),
            action: Action::SetLocked { locked: false },
        })
        .await;
    loop {
        if let ServerFrame::Event {
            event: Event::LockChanged { locked: false },
            ..
        } = c1.recv().await
        {
            break;
        }
    }
    let mut c2 = Client::connect(&addr, &late, Codec::Json).await;
    c2.hello_at(None, None).await;
}

#[tokio::test]
async fn a_guides_invalid_frames_are_refused_and_nothing_is_stored() {
    let addr = start(64).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    let mut client = Client::connect(&addr, &token("c1", Role::Client, SECRET), Codec::Json).await;
    let (seq_before, ..) = client.hello_at(None, None).await;
    let too_many = Action::UpdateListingProducts {
        page_id: PAGE.into(),
        section_id: PAGE.into(),
        product_ids: vec![PAGE.into(); protocol::action::MAX_LISTING_PRODUCTS + 1],
    };
    let opened = protocol::action::Interaction::DynamicPageOpened(protocol::state::DynamicPage {
        page_id: PAGE.into(),
        page_type: "<script>".into(),
        opened: true,
        position: None,
        product_id: None,
    });
    guide
        .send(&ClientFrame::Action {
            r#ref: Some(1),
            action: too_many,
        })
        .await;
    guide
        .send(&ClientFrame::Interaction {
            r#ref: Some(2),
            interaction: opened,
        })
        .await;
    // An enum field out of its enum is not even decoded.
    guide
        .socket
        .send(Message::text(r#"{"type":"interaction","ref":3,"interaction":{"name":"viewMode.changed","payload":{"mode":"everything"}}}"#))
        .await
        .unwrap();
    let mut refused = Vec::new();
    while refused.len() < 3 {
        match guide.recv().await {
            ServerFrame::Error { r#ref, code, .. } => refused.push((r#ref, code)),
            ServerFrame::Event {
                event: Event::AttendeeChanged { .. },
                ..
            } => continue,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
    assert_eq!(
        refused,
        [
            (Some(1), ErrorCode::InvalidPayload),
            (Some(2), ErrorCode::InvalidPayload),
            (None, ErrorCode::BadFrame)
        ]
    );
    // Nothing was stored: the client's next event is the next slide, right after its welcome.
    guide.switch_slide(4, 4).await;
    match client.recv().await {
        ServerFrame::Event {
            prev,
            event: Event::SlideSwitched { .. },
            ..
        } => assert_eq!(prev, seq_before),
        other => panic!("expected the slide, got {other:?}"),
    }
    assert!(internal_state(&addr, "").await["stateForAll"]["currentDynamicPage"].is_null());
}

/// A metric's value from `/metrics`.
async fn metric(addr: &str, name: &str) -> f64 {
    let text = reqwest::get(format!("http://{addr}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("{name} missing in\n{text}"))
        .parse()
        .unwrap()
}

#[tokio::test]
async fn a_client_flooding_reload_hints_is_rate_limited_and_coalesced_and_a_guide_is_not() {
    let addr = start(64).await;
    let mut guide = Client::connect(&addr, &token("g1", Role::Guide, SECRET), Codec::Json).await;
    guide.hello_at(None, None).await;
    let mut client = Client::connect(&addr, &token("c1", Role::Client, SECRET), Codec::Json).await;
    client.hello_at(None, None).await;
    let flood = 200u32;
    for r#ref in 1..=flood {
        client
            .send(&ClientFrame::Action {
                r#ref: Some(r#ref),
                action: Action::LoadCart { attendee_id: None },
            })
            .await;
    }
    let (mut acked_seqs, mut limited, mut reloads) = (Vec::new(), 0, 0);
    while acked_seqs.len() + limited < flood as usize {
        match client.recv().await {
            ServerFrame::Ack { seq: Some(seq), .. } => acked_seqs.push(seq),
            ServerFrame::Error {
                code: ErrorCode::RateLimited,
                r#ref: Some(_),
                ..
            } => limited += 1,
            ServerFrame::Event {
                event: Event::Reload { .. },
                ..
            } => reloads += 1,
            other => panic!("unexpected {other:?}"),
        }
    }
    // Most of the flood is refused; what got through is one stored event.
    assert!(
        limited >= (flood as usize) / 2,
        "only {limited} of {flood} refused"
    );
    acked_seqs.dedup();
    assert_eq!(
        acked_seqs.len(),
        1,
        "identical hints in a burst are published once: {acked_seqs:?}"
    );
    assert_eq!(
        metric(&addr, "hub_rate_limited_total").await,
        limited as f64
    );
    // The guide got the one reload hint (guides see attendees' events), then its own
    // flood of slides goes through untouched.
    for alias in 1..=flood {
        guide.switch_slide(alias, alias).await;
    }
    let mut slides = 0;
    while slides < flood {
        match guide.recv().await {
            ServerFrame::Error { code, .. } => panic!("the guide was refused: {code:?}"),
            ServerFrame::Event {
                event: Event::SlideSwitched { .. },
                ..
            } => slides += 1,
            _ => {}
        }
    }
    // The client got exactly one reload event (counted before or after this point).
    while reloads == 0 {
        if let ServerFrame::Event {
            event: Event::Reload { .. },
            ..
        } = client.recv().await
        {
            reloads += 1;
        }
    }
    let seq_of_next = loop {
        if let ServerFrame::Event {
            seq,
            event: Event::SlideSwitched { .. },
            ..
        } = client.recv().await
        {
            break seq;
        }
    };
    assert!(seq_of_next > acked_seqs[0]);
    assert_eq!(reloads, 1);
}
