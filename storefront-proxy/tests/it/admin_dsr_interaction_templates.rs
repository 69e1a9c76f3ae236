//! Interaction templates through the Admin API (`dsr-interaction-template`) against a real
//! shop: a guide prepares, lists, changes and deletes them; every bad template is refused
//! with the field named and nothing stored.

use crate::admin_support;
use crate::common;

use admin_support::*;
use serde_json::{json, Value};

async fn first_id(shop: &Shop, entity: &str, token: &str) -> String {
    let found = post(
        shop,
        &format!("/search-ids/{entity}"),
        token,
        json!({"limit": 1}),
    )
    .await;
    assert_eq!(found.status, 200, "{}", found.body);
    found.body["data"][0].as_str().unwrap().to_owned()
}

async fn templates_of(shop: &Shop, appointment: &str, token: &str) -> Vec<Value> {
    let found = post(
        shop,
        "/search/dsr-interaction-template",
        token,
        json!({"filter": [{"type": "equals", "field": "appointmentId", "value": appointment}], "sort": [{"field": "position"}], "limit": 100}),
    )
    .await;
    assert_eq!(found.status, 200, "{}", found.body);
    found.body["data"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_guide_prepares_runs_and_removes_interaction_templates() {
    let shop = common::start().await;
    let admin_token = admin(&shop).await;
    create(
        &shop,
        "user",
        &admin_token,
        json!({"username": "gina", "firstName": "Gina", "lastName": "Guide", "email": "gina@example.com", "role": "guide", "password": "guide-pass-1"}),
    )
    .await;
    let guide = token(&shop, "gina", "guide-pass-1").await.unwrap();
    let appointment = first_id(&shop, "dsr-appointment", &guide).await;
    let products = post(&shop, "/search-ids/product", &guide, json!({"limit": 3}))
        .await
        .body["data"]
        .clone();
    let (first, second) = (products[0].as_str().unwrap(), products[1].as_str().unwrap());

    let highlight = create(
        &shop,
        "dsr-interaction-template",
        &guide,
        json!({"appointmentId": appointment, "name": "Show the kite", "type": "highlight-product", "productIds": [first]}),
    )
    .await;
    assert_eq!(highlight["productIds"], json!([first]));
    assert_eq!(highlight["position"], 0);
    let listing = create(
        &shop,
        "dsr-interaction-template",
        &guide,
        json!({"appointmentId": appointment, "name": "Both", "type": "instant-listing", "productIds": [second, first, second.to_uppercase()]}),
    )
    .await;
    assert_eq!(
        listing["productIds"],
        json!([second, first]),
        "in order, each once"
    );
    assert_eq!(listing["position"], 1);
    let message = create(
        &shop,
        "dsr-interaction-template",
        &guide,
        json!({"appointmentId": appointment, "name": "Code", "type": "message", "message": "10 % off with KITE10"}),
    )
    .await;
    assert_eq!(message["productIds"], json!([]));

    let listed = templates_of(&shop, &appointment, &guide).await;
    let names: Vec<&str> = listed.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Show the kite", "Both", "Code"]);

    // A change is checked as the whole template: a highlight keeps exactly one product.
    let id = highlight["id"].as_str().unwrap();
    let changed = patch(
        &shop,
        &format!("/dsr-interaction-template/{id}"),
        &guide,
        json!({"name": "The red kite", "productIds": [second]}),
    )
    .await;
    assert_eq!(changed.status, 204, "{}", changed.body);
    let two = patch(
        &shop,
        &format!("/dsr-interaction-template/{id}"),
        &guide,
        json!({"productIds": [first, second]}),
    )
    .await;
    assert_eq!(two.status, 400, "{}", two.body);
    assert_eq!(pointers(&two.body), ["/0/productIds"]);
    let mid = message["id"].as_str().unwrap();
    let blank = patch(
        &shop,
        &format!("/dsr-interaction-template/{mid}"),
        &guide,
        json!({"message": "  "}),
    )
    .await;
    assert_eq!(blank.status, 400, "{}", blank.body);
    assert_eq!(pointers(&blank.body), ["/0/message"]);
    let read = get(&shop, &format!("/dsr-interaction-template/{id}"), &guide).await;
    assert_eq!(read.body["data"]["name"], "The red kite");
    assert_eq!(
        read.body["data"]["productIds"],
        json!([second]),
        "the refused change left it as it was"
    );

    let deleted = delete(&shop, &format!("/dsr-interaction-template/{id}"), &guide).await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    assert_eq!(templates_of(&shop, &appointment, &guide).await.len(), 2);

    let anonymous = api(
        &shop,
        reqwest::Method::POST,
        "/search/dsr-interaction-template",
        None,
        Some(json!({})),
    )
    .await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.body);
}

#[tokio::test]
async fn bad_templates_are_refused_with_the_field_named_and_nothing_stored() {
    let shop = common::start().await;
    let token = admin(&shop).await;
    let appointment = first_id(&shop, "dsr-appointment", &token).await;
    let product = first_id(&shop, "product", &token).await;
    let unknown = "0123456789abcdef0123456789abcdef";
    let cases = [
        (
            json!({"appointmentId": appointment, "name": "x", "type": "highlight-product"}),
            "/0/productIds",
        ),
        (
            json!({"appointmentId": appointment, "name": "x", "type": "highlight-product", "productIds": [unknown]}),
            "/0/productIds/0",
        ),
        (
            json!({"appointmentId": appointment, "name": "x", "type": "open-product-page", "productIds": ["nope"]}),
            "/0/productIds/0",
        ),
        (
            json!({"appointmentId": appointment, "name": "x", "type": "instant-listing", "productIds": product}),
            "/0/productIds",
        ),
        (
            json!({"appointmentId": appointment, "name": "x", "type": "instant-listing",
                   "productIds": (0..25).map(|i| format!("{i:032x}")).collect::<Vec<_>>()}),
            "/0/productIds",
        ),
        (
            json!({"appointmentId": appointment, "name": "x", "type": "message"}),
            "/0/message",
        ),
        (
            json!({"appointmentId": appointment, "name": "x", "type": "message", "message": "a".repeat(501)}),
            "/0/message",
        ),
        (
            json!({"appointmentId": appointment, "name": "x", "type": "dance"}),
            "/0/type",
        ),
        (
            json!({"appointmentId": unknown, "name": "x", "type": "message", "message": "hi"}),
            "/0/appointmentId",
        ),
        (
            json!({"appointmentId": appointment, "type": "message", "message": "hi"}),
            "/0/name",
        ),
    ];
    for (body, pointer) in cases {
        let answer = post(&shop, "/dsr-interaction-template", &token, body.clone()).await;
        assert_eq!(answer.status, 400, "{body}: {}", answer.body);
        assert_eq!(pointers(&answer.body), [pointer], "{body}: {}", answer.body);
    }
    assert!(templates_of(&shop, &appointment, &token).await.is_empty());

    // At most 50 per appointment.
    let records: Vec<Value> =
        (0..50).map(|i| json!({"appointmentId": appointment, "name": format!("t{i}"), "type": "message", "message": "hi"})).collect();
    let synced = post(
        &shop,
        "/_action/sync",
        &token,
        json!({"write-templates": {"entity": "dsr_interaction_template", "action": "upsert", "payload": records}}),
    )
    .await;
    assert_eq!(synced.status, 200, "{}", synced.body);
    let over = post(
        &shop,
        "/dsr-interaction-template",
        &token,
        json!({"appointmentId": appointment, "name": "one more", "type": "message", "message": "hi"}),
    )
    .await;
    assert_eq!(over.status, 400, "{}", over.body);
    assert_eq!(
        over.body["errors"][0]["code"],
        "DIGITAL_SALES_ROOMS__INTERACTION_TEMPLATE_LIMIT"
    );
    assert_eq!(templates_of(&shop, &appointment, &token).await.len(), 50);
}
