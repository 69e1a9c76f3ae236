//! The appointment's video room (`createVideoRoom`, `deleteVideoRoom`, the search of
//! `dsr_appointment_video_chat`): a real storefront-proxy over a real SQLite file, its
//! real hub, and the real embedded sfu as the video server; in upstream mode a second
//! proxy forwards to the first.

use crate::dsr_support;

use dsr_support::*;
use protocol::frame::ServerFrame;
use reqwest::Method;
use serde_json::{json, Value};

const LIVEKIT_KEY: &str = "APIvideorooms";
const LIVEKIT_SECRET: &str = "video-rooms-test-secret-long-enough-for-hs256";

/// The embedded sfu with the test's key pair.
async fn sfu(dir: &std::path::Path) -> (sfu::server::Running, sfu::Credentials) {
    let config = sfu::Config::loopback(dir.to_owned(), LIVEKIT_KEY, LIVEKIT_SECRET);
    let credentials = config.credentials().unwrap();
    (
        sfu::server::start(&config, config.credentials().unwrap())
            .await
            .unwrap(),
        credentials,
    )
}

async fn delete(live: &Live, path: &str, who: &As) -> (u16, Value) {
    let (status, body, _) = live.call(Method::DELETE, path, who, None).await;
    (status, body)
}

fn rows(live: &Live, appointment_id: &str) -> i64 {
    live.db()
        .query_row(
            "SELECT COUNT(*) FROM dsr_appointment_video_chat WHERE appointment_id = ?1",
            [appointment_id],
            |r| r.get(0),
        )
        .unwrap()
}

#[tokio::test]
async fn a_guide_opens_finds_and_deletes_the_video_room_and_the_sfu_room_goes() {
    let media = tempfile::tempdir().unwrap();
    let (sfu, credentials) = sfu(media.path()).await;
    let livekit_url = format!("ws://{}", sfu.http_addr);
    let live = start_with(|config| hub::Config {
        livekit_url: Some(livekit_url),
        livekit_api_key: Some(LIVEKIT_KEY.into()),
        livekit_api_secret: Some(LIVEKIT_SECRET.into()),
        ..config
    })
    .await;
    let reference = reference();
    let (guide, id, guide_join) = live.guide_joins("demo").await;
    let room = format!("/api/_action/dsr/appointment/{id}/video-room");

    // Guides only; a known appointment only.
    let (status, refused) = live.post(&room, &As::Nobody, json!({})).await;
    assert_eq!(status, 401, "{refused}");
    let unknown = format!("/api/_action/dsr/appointment/{}/video-room", "0".repeat(32));
    let (status, refused) = live.post(&unknown, &guide, json!({})).await;
    assert_eq!(status, 404);
    assert_error(&refused, 404, "DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_FOUND");
    let (status, refused) = delete(&live, &unknown, &guide).await;
    assert_eq!(status, 404);
    assert_error(&refused, 404, "DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_FOUND");

    // Opened: the room is the appointment's LiveKit room; a second call answers the same.
    let (status, created) = live.post(&room, &guide, json!({})).await;
    assert_eq!(status, 200, "{created}");
    assert_valid(&reference, "adminApi", "VideoChatCreateStruct", &created);
    assert_eq!(created["roomName"], id.as_str());
    let (status, again) = live.post(&room, &guide, json!({})).await;
    assert_eq!((status, &again["roomName"]), (200, &created["roomName"]));
    assert_eq!(rows(&live, &id), 1);

    // Found by the Admin API search, in the document's shape, with its appointment.
    let search = json!({"filter": [{"type": "equals", "field": "appointmentId", "value": id}], "associations": {"appointment": {}}});
    let (status, found) = live
        .post(
            "/api/search/dsr-appointment-video-chat",
            &guide,
            search.clone(),
        )
        .await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["total"], 1, "{found}");
    let record = &found["data"][0];
    let mut shape = record.clone();
    shape.as_object_mut().unwrap().remove("appointment");
    assert_valid_with_formats(&reference, "adminApi", "DsrAppointmentVideoChat", &shape);
    assert_eq!(
        (record["appointmentId"].as_str(), record["name"].as_str()),
        (Some(id.as_str()), Some(id.as_str()))
    );
    assert_eq!(record["appointment"]["id"], id.as_str());
    let (status, refused) = live
        .post(
            "/api/search/dsr-appointment-video-chat",
            &guide,
            json!({"filter": [{"type": "equals", "field": "ownerToken", "value": "x"}]}),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    let (status, _) = live
        .post(
            "/api/search/dsr-appointment-video-chat",
            &As::Nobody,
            search.clone(),
        )
        .await;
    assert_eq!(status, 401);

    // The guide is in the sfu's room with the token the hub minted.
    let mut socket = connect(&live, &guide_join).await;
    let token = loop {
        if let ServerFrame::VideoToken { token, .. } = next_frame(&mut socket).await {
            break token;
        }
    };
    let grant = sfu::auth::verify_join(&credentials, &token, None).unwrap();
    assert_eq!(grant.room, id);
    let (signal, mut signals) = tokio::sync::mpsc::channel(64);
    sfu.engine.join(grant, true, signal).await.unwrap();

    // Deleted: the sfu's room goes (the guide's video is disconnected), then the record.
    let (status, deleted) = delete(&live, &room, &guide).await;
    assert_eq!(status, 200, "{deleted}");
    let closed = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        while signals.recv().await.is_some() {}
    })
    .await;
    assert!(closed.is_ok(), "the guide's video connection stayed");
    let listed = sfu
        .engine
        .admin(id.clone(), sfu::engine::AdminAction::ListParticipants)
        .await;
    assert!(
        matches!(listed, Err(sfu::Error::RoomNotFound)),
        "the sfu's room is gone"
    );
    assert_eq!(rows(&live, &id), 0);
    let (_, found) = live
        .post("/api/search/dsr-appointment-video-chat", &guide, search)
        .await;
    assert_eq!(found["total"], 0, "{found}");
    // Deleting again is done too.
    let (status, _) = delete(&live, &room, &guide).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn without_the_hub_a_delete_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let base = common_serve_with(dir.path(), |config| config).await;
    let live = Live {
        base,
        hub_port: 1,
        http: reqwest::Client::new(),
        dir,
    };
    let guide = As::Guide(live.admin_token().await);
    let id = live.appointment_id(&guide, "demo").await;
    let room = format!("/api/_action/dsr/appointment/{id}/video-room");
    let (status, created) = live.post(&room, &guide, json!({})).await;
    assert_eq!(status, 200, "{created}");
    let (status, refused) = delete(&live, &room, &guide).await;
    assert_eq!(status, 503, "{refused}");
    assert_error(&refused, 503, "SALESROOM__HUB_UNAVAILABLE");
    assert_eq!(
        rows(&live, &id),
        1,
        "the record stays while the room could not be deleted"
    );
}

#[tokio::test]
async fn in_upstream_mode_the_upstream_keeps_the_records_and_the_hub_deletes_the_room() {
    let upstream = start().await;
    let dir = tempfile::tempdir().unwrap();
    let secret = "forwarding-video-secret";
    let hub_config = hub::Config {
        secret: Some(secret.into()),
        ..hub::Config::for_data_dir(dir.path().join("hub"))
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hub_port = listener.local_addr().unwrap().port();
    tokio::spawn(
        hub::Hub::open(hub_config, secret.as_bytes().to_vec())
            .await
            .unwrap()
            .serve(listener, std::future::pending()),
    );
    let upstream_url = upstream.base.clone();
    let base = serve_with(dir.path(), hub_port, secret, |config| {
        storefront_proxy::Config {
            upstream_url: Some(upstream_url),
            ..config
        }
    })
    .await;
    let forwarding = Live {
        base,
        hub_port,
        http: reqwest::Client::new(),
        dir,
    };

    let guide = As::Guide(forwarding.admin_token().await);
    let id = forwarding.appointment_id(&guide, "demo").await;
    let room = format!("/api/_action/dsr/appointment/{id}/video-room");
    let (status, created) = forwarding.post(&room, &guide, json!({})).await;
    assert_eq!(
        (status, created["roomName"].as_str()),
        (200, Some(id.as_str())),
        "{created}"
    );
    assert_eq!(rows(&upstream, &id), 1, "the upstream's record");
    let (status, found) = forwarding
        .post(
            "/api/search/dsr-appointment-video-chat",
            &guide,
            json!({"filter": [{"type": "equals", "field": "appointmentId", "value": id}]}),
        )
        .await;
    assert_eq!((status, &found["total"]), (200, &json!(1)), "{found}");

    let (status, _) = delete(&forwarding, &room, &As::Nobody).await;
    assert_eq!(status, 401);
    let unknown = format!("/api/_action/dsr/appointment/{}/video-room", "0".repeat(32));
    let (status, refused) = delete(&forwarding, &unknown, &guide).await;
    assert_eq!(status, 404, "{refused}");
    assert_eq!(rows(&upstream, &id), 1);
    let (status, deleted) = delete(&forwarding, &room, &guide).await;
    assert_eq!(status, 200, "{deleted}");
    assert_eq!(rows(&upstream, &id), 0);
}
