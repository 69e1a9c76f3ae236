//! `GET /store-api/dsr/appointments`: the appointments a visitor may still join, live
//! ones first; ended, rule-restricted and past ones left out.

use crate::dsr_support;

use dsr_support::*;
use serde_json::{json, Value};

fn paths(body: &Value) -> Vec<&str> {
    body["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["presentationPath"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn lists_open_appointments_live_first_and_leaves_out_ended_restricted_and_past_ones() {
    let live = start().await;

    // The store API needs the access key like every other call.
    let (status, _) = live
        .send_raw(
            reqwest::Method::GET,
            "/store-api/dsr/appointments",
            &As::Nobody,
            "",
        )
        .await;
    assert_eq!(status, 200);
    let no_key = reqwest::Client::new()
        .get(format!("{}/store-api/dsr/appointments", live.base))
        .send()
        .await
        .unwrap();
    assert_eq!(no_key.status().as_u16(), 401);

    let (status, body) = live.get("/store-api/dsr/appointments", &As::Nobody).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["apiAlias"], "dsr_public_appointment_list");
    let mut listed = paths(&body);
    listed.sort_unstable();
    assert_eq!(listed, ["demo", "demo-customers"]);
    assert_eq!(body["total"], 2);
    let customers = body["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["presentationPath"] == "demo-customers")
        .unwrap();
    assert_eq!(customers["attendeeRestrictionType"], "customer");
    assert_eq!(customers["live"], false);
    assert_eq!(customers["startedAt"], Value::Null);
    // The demo appointments have begun (joining is open) and end later; they have a German name.
    let now = time::OffsetDateTime::now_utc();
    for element in body["elements"].as_array().unwrap() {
        let window = ["accessibleFrom", "accessibleTo"].map(|field| {
            time::OffsetDateTime::parse(
                element[field].as_str().unwrap(),
                &time::format_description::well_known::Rfc3339,
            )
            .unwrap()
        });
        assert!(window[0] <= now && now < window[1], "{element}");
    }
    let german = live.language_id("de-DE").await;
    let (_, german_list) = live
        .get_in("/store-api/dsr/appointments", &As::Nobody, &german)
        .await;
    let mut names: Vec<&str> = german_list["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "Herbstkollektion für Kundinnen und Kunden",
            "Herbstkollektion live"
        ]
    );

    // A live appointment comes first and says so.
    let (guide, demo, _) = live.guide_joins("demo-customers").await;
    let (status, _) = live
        .post(
            &format!("/api/_action/dsr/appointment/{demo}/start"),
            &guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 204);
    let (_, body) = live.get("/store-api/dsr/appointments", &As::Nobody).await;
    assert_eq!(paths(&body), ["demo-customers", "demo"]);
    assert_eq!(body["elements"][0]["live"], true);
    assert!(body["elements"][0]["startedAt"].is_string());

    // Upcoming ones by their start; one whose window has passed is gone.
    let db = live.db();
    db.execute("UPDATE appointment SET accessible_from = '2099-01-01T10:00:00Z' WHERE presentation_path = 'demo'", []).unwrap();
    db.execute(
        "INSERT INTO appointment (id, presentation_id, sales_channel_id, presentation_path, name, accessible_from, created_at)
         SELECT lower(hex(randomblob(16))), presentation_id, sales_channel_id, 'early', 'Early bird', '2098-01-01T10:00:00Z', created_at
         FROM appointment WHERE presentation_path = 'demo'",
        [],
    )
    .unwrap();
    let (_, body) = live.get("/store-api/dsr/appointments", &As::Nobody).await;
    assert_eq!(paths(&body), ["demo-customers", "early", "demo"]);
    assert_eq!(
        body["elements"][1]["accessibleFrom"],
        "2098-01-01T10:00:00Z"
    );
    // A self-service appointment is listed too, as one (it opens in its window without a guide).
    db.execute(
        "UPDATE appointment SET mode = 'self' WHERE presentation_path = 'early'",
        [],
    )
    .unwrap();
    let (_, body) = live.get("/store-api/dsr/appointments", &As::Nobody).await;
    assert_eq!(paths(&body), ["demo-customers", "early", "demo"]);
    assert_eq!(body["elements"][1]["mode"], "self", "{body}");
    assert_eq!(body["elements"][2]["mode"], "guided", "{body}");
    assert_eq!(body["elements"][1]["accessibleTo"], Value::Null, "{body}");
    db.execute("UPDATE appointment SET accessible_to = '2000-01-01T00:00:00Z' WHERE presentation_path = 'early'", []).unwrap();
    db.execute("UPDATE appointment SET attendee_restriction_type = 'rules' WHERE presentation_path = 'demo'", []).unwrap();
    let (_, body) = live.get("/store-api/dsr/appointments", &As::Nobody).await;
    assert_eq!(paths(&body), ["demo-customers"]);

    // An ended appointment is no longer listed.
    let (status, body) = live
        .post(
            &format!("/api/_action/dsr/appointment/{demo}/end"),
            &guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, body) = live.get("/store-api/dsr/appointments", &As::Nobody).await;
    assert_eq!(paths(&body), Vec::<&str>::new());
    assert_eq!(body["total"], 0);
}
