//! An appointment's broadcast mode default (`broadcastMode` on `dsr-appointment`): the
//! live room starts in it, so attendees see broadcast mode on (and get no publishing
//! grant) from the start; the guide still switches it. A real hub and proxy.

use crate::dsr_support;

use dsr_support::*;
use protocol::frame::Event;
use serde_json::{json, Value};

async fn create_appointment(live: &Live, guide: &As, path: &str, broadcast: Value) -> (u16, Value) {
    let presentation = live.appointment_id(guide, "demo").await;
    let (status, demo) = live
        .get(&format!("/api/dsr-appointment/{presentation}"), guide)
        .await;
    assert_eq!(status, 200, "{demo}");
    live.post(
        "/api/dsr-appointment?_response=basic",
        guide,
        json!({"name": path, "presentationId": demo["data"]["presentationId"], "presentationPath": path, "broadcastMode": broadcast}),
    )
    .await
}

async fn start_and_read_state(live: &Live, guide: &As, path: &str) -> Value {
    let (_, id) = {
        let (status, body) = live
            .post(
                "/api/search/dsr-appointment",
                guide,
                json!({"filter": [{"type": "equals", "field": "presentationPath", "value": path}]}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        (status, body["data"][0]["id"].as_str().unwrap().to_owned())
    };
    live.join_as_guide(guide, &id).await;
    let client = live.join_as_client(path, &As::Nobody, "Ada").await;
    let mut socket = connect(live, &client).await;
    let (status, body) = live
        .post(
            &format!("/api/_action/dsr/appointment/{id}/start"),
            guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    wait_for(&mut socket, |e| {
        matches!(e, Event::PresentationStarted { .. }).then_some(())
    })
    .await;
    let (status, state) = live
        .get(
            "/store-api/dsr/appointment/presentation/state",
            &token_of(&client),
        )
        .await;
    assert_eq!(status, 200, "{state}");
    state
}

#[tokio::test]
async fn the_room_starts_in_the_appointments_broadcast_mode() {
    let live = start().await;
    let guide = As::Guide(live.admin_token().await);

    let (status, created) = create_appointment(&live, &guide, "broadcast-on", json!(true)).await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["data"]["broadcastMode"], true, "{created}");
    let (status, found) = live
        .post(
            "/api/search/dsr-appointment",
            &guide,
            json!({"filter": [{"type": "equals", "field": "broadcastMode", "value": true}]}),
        )
        .await;
    assert_eq!(status, 200, "{found}");
    let paths: Vec<&str> = found["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["presentationPath"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["broadcast-on"], "{found}");

    let state = start_and_read_state(&live, &guide, "broadcast-on").await;
    assert_eq!(state["stateForAll"]["broadcastMode"], true, "{state}");

    // Off (the default) leaves the room as it was: attendees may publish.
    let (status, created) = create_appointment(&live, &guide, "broadcast-off", Value::Null).await;
    assert_eq!(status, 400, "null is no broadcast mode: {created}");
    let (status, created) = create_appointment(&live, &guide, "broadcast-off", json!(false)).await;
    assert_eq!(status, 200, "{created}");
    let state = start_and_read_state(&live, &guide, "broadcast-off").await;
    assert_eq!(state["stateForAll"]["broadcastMode"], false, "{state}");

    // Bad input: named, nothing written.
    let (status, bad) = create_appointment(&live, &guide, "broadcast-bad", json!("yes")).await;
    assert_eq!(status, 400, "{bad}");
    assert_eq!(
        bad["errors"][0]["source"]["pointer"], "/0/broadcastMode",
        "{bad}"
    );
    let (_, none) = live
        .post(
            "/api/search/dsr-appointment",
            &guide,
            json!({"filter": [{"type": "equals", "field": "presentationPath", "value": "broadcast-bad"}]}),
        )
        .await;
    assert_eq!(none["total"], 0, "{none}");
}
