//! The live room's Admin API entities (appointments, presentations) against a real
//! shop: create, read with criteria, update, delete, validation; an appointment made
//! here is the one attendees open.

use crate::admin_support;
use crate::common;

use admin_support::*;
use serde_json::json;

#[tokio::test]
async fn appointments_and_presentations_are_managed_through_the_admin_api() {
    let shop = common::start().await;
    let token = admin(&shop).await;

    let presentation = create(
        &shop,
        "dsr-presentation",
        &token,
        json!({"name": "Kite show"}),
    )
    .await;
    assert_eq!(presentation["pages"], json!([]));
    let demo = post(
        &shop,
        "/search-ids/dsr-presentation",
        &token,
        json!({"filter": [{"type": "equals", "field": "name", "value": "Autumn collection"}]}),
    )
    .await;
    assert_eq!(demo.body["total"], 1, "{}", demo.body);
    let demo_id = demo.body["data"][0].as_str().unwrap();
    let with_pages = get(&shop, &format!("/dsr-presentation/{demo_id}"), &token)
        .await
        .body["data"]
        .clone();
    assert!(
        with_pages["pages"].as_array().unwrap().len() >= 4,
        "{with_pages}"
    );

    let appointment = create(
        &shop,
        "dsr-appointment",
        &token,
        json!({
            "name": "Kites live", "presentationId": presentation["id"], "presentationPath": "kites-live",
            "mode": "guided", "attendeeRestrictionType": "customer", "accessibleFrom": "2026-12-01T18:00:00+01:00"
        }),
    )
    .await;
    assert_eq!(appointment["accessibleFrom"], "2026-12-01T17:00:00Z");
    assert!(
        appointment["salesChannelId"].is_string() && appointment["startedAt"].is_null(),
        "{appointment}"
    );
    let id = appointment["id"].as_str().unwrap();

    let found = post(
        &shop,
        "/search-ids/dsr-appointment",
        &token,
        json!({"filter": [{"type": "equals", "field": "presentationPath", "value": "kites-live"}]}),
    )
    .await;
    assert_eq!(found.body["data"], json!([id]), "{}", found.body);

    let bad = post(
        &shop,
        "/dsr-appointment",
        &token,
        json!({"name": "x", "presentationId": presentation["id"], "presentationPath": "Kites Live!"}),
    )
    .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(pointers(&bad.body), ["/0/presentationPath"]);
    let taken = post(
        &shop,
        "/dsr-appointment",
        &token,
        json!({"name": "x", "presentationId": presentation["id"], "presentationPath": "demo"}),
    )
    .await;
    assert_eq!(
        taken.body["errors"][0]["code"], "VIOLATION::DUPLICATE_VALUE",
        "{}",
        taken.body
    );
    let missing = post(
        &shop,
        "/dsr-appointment",
        &token,
        json!({"name": "x", "presentationPath": "x"}),
    )
    .await;
    assert_eq!(pointers(&missing.body), ["/0/presentationId"]);
    let started = patch(
        &shop,
        &format!("/dsr-appointment/{id}"),
        &token,
        json!({"startedAt": "2026-01-01T00:00:00Z"}),
    )
    .await;
    assert_eq!(
        started.status, 400,
        "the live room starts appointments: {}",
        started.body
    );

    assert_eq!(
        patch(
            &shop,
            &format!("/dsr-appointment/{id}"),
            &token,
            json!({"name": "Kites live!", "mode": "self"})
        )
        .await
        .status,
        204
    );
    let read = get(&shop, &format!("/dsr-appointment/{id}"), &token)
        .await
        .body["data"]
        .clone();
    assert_eq!(
        (read["name"].clone(), read["mode"].clone()),
        (json!("Kites live!"), json!("self"))
    );

    // A presentation in use stays; the appointment goes first.
    let in_use = delete(
        &shop,
        &format!("/dsr-presentation/{}", presentation["id"].as_str().unwrap()),
        &token,
    )
    .await;
    assert_error(&in_use.body, 409, "FRAMEWORK__DELETE_RESTRICTED");
    assert_eq!(
        delete(&shop, &format!("/dsr-appointment/{id}"), &token)
            .await
            .status,
        204
    );
    assert_eq!(
        delete(
            &shop,
            &format!("/dsr-presentation/{}", presentation["id"].as_str().unwrap()),
            &token
        )
        .await
        .status,
        204
    );
}
