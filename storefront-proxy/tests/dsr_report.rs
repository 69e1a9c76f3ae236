//! The session report (`GET /api/_action/dsr/appointment/{id}/report`) over a real hub,
//! proxy and SQLite file: attendees join, like, fill carts, chat and order through the
//! real flows, and the report shows exactly that; anonymous callers, store contexts and
//! unknown appointments are refused in the documented shape.

mod dsr_support;

use dsr_support::*;
use protocol::action::Action;
use protocol::frame::Event;
use serde_json::json;

#[tokio::test]
async fn the_report_shows_what_the_session_did() {
    let live = start().await;
    let (guide, id, guide_join) = live.guide_joins("demo").await;
    let ada_join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let customer = live.customer_login().await;
    let cleo_join = live.join_as_client("demo", &As::Store(customer), "Cleo").await;
    let (ada, cleo) = (token_of(&ada_join), token_of(&cleo_join));
    let mut guide_socket = connect(&live, &guide_join).await;
    let mut ada_socket = connect(&live, &ada_join).await;
    let _cleo_socket = connect(&live, &cleo_join).await;

    let (status, _) = live.post(&format!("/api/_action/dsr/appointment/{id}/start"), &guide, json!({})).await;
    assert_eq!(status, 204);
    wait_for(&mut ada_socket, |e| matches!(e, Event::PresentationStarted { .. }).then_some(())).await;

    let products = live.product_ids(2).await;
    // Ada likes both products and puts one of the first in her cart; Cleo buys two of the second.
    for product in &products {
        let (status, _) = live.post(&format!("/store-api/dsr/appointment/collection/liked/{product}"), &ada, json!({})).await;
        assert_eq!(status, 204);
    }
    // Cleo, a customer, hearts the first one: it goes to her wishlist, and counts as a like.
    let (status, body) = live.post(&format!("/store-api/customer/wishlist/add/{}", products[0]), &cleo, json!({})).await;
    assert_eq!(status, 200, "{body}");
    for (token, product, quantity) in [(&ada, &products[0], 1), (&cleo, &products[1], 2)] {
        let (status, cart) = live
            .post(
                "/store-api/checkout/cart/line-item",
                token,
                json!({"items": [{"type": "product", "referencedId": product, "quantity": quantity}]}),
            )
            .await;
        assert_eq!(status, 200, "{cart}");
    }
    // Two chat messages, Ada's and the guide's.
    send_action(&mut ada_socket, Action::SendChatMessage { text: "Hello".into() }).await;
    send_action(&mut guide_socket, Action::SendChatMessage { text: "Welcome".into() }).await;
    let mut seen = 0;
    while seen < 2 {
        wait_for(&mut guide_socket, |e| matches!(e, Event::ChatMessagePosted { .. }).then_some(())).await;
        seen += 1;
    }
    let (status, order) = live.post("/store-api/checkout/order", &cleo, json!({"tos": true})).await;
    assert_eq!(status, 200, "{order}");

    let (status, report) = live.get(&format!("/api/_action/dsr/appointment/{id}/report"), &guide).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["appointment"]["id"], id);
    assert_eq!(report["attendees"], 2, "{report}");
    let joined: u64 = report["attendance"].as_array().unwrap().iter().map(|m| m["joined"].as_u64().unwrap()).sum();
    assert_eq!(joined, 2);
    assert_eq!(report["attendance"].as_array().unwrap().last().unwrap()["joinedTotal"], 2);
    let likes = report["likes"].as_array().unwrap();
    assert_eq!(likes.len(), 2, "{report}");
    assert_eq!((&likes[0]["productId"], &likes[0]["likes"]), (&json!(products[0]), &json!(2)), "{report}");
    assert_eq!((&likes[1]["productId"], &likes[1]["likes"]), (&json!(products[1]), &json!(1)), "{report}");
    assert!(likes.iter().all(|l| l["name"].as_str().is_some_and(|n| !n.is_empty() && n.len() != 32)));
    // Cleo's cart became her order; Ada's cart is still there.
    assert_eq!(report["carts"], json!([{"productId": products[0], "name": report["carts"][0]["name"], "quantity": 1, "attendees": 1}]));
    let orders = report["orders"].as_array().unwrap();
    assert_eq!(orders.len(), 1, "{report}");
    assert_eq!(orders[0]["orderNumber"], order["orderNumber"]);
    assert_eq!(orders[0]["attendeeName"], "Cleo");
    assert_eq!(orders[0]["afterSession"], false);
    assert_eq!(orders[0]["amountTotal"], order["amountTotal"]);
    assert_eq!(report["revenue"], json!([{"currency": "EUR", "amount": order["amountTotal"]}]));
    assert_eq!(report["conversion"], json!({"attendees": 2, "buyers": 1, "rate": 0.5}));
    assert_eq!(report["live"]["chatMessages"], 2, "{report}");
    assert_eq!(report["live"]["connectedNow"], 2, "{report}");
    assert_eq!(report["window"]["to"], serde_json::Value::Null, "still running");

    // After the end: the window closes and orders count for 48 hours more.
    let (status, _) = live.post(&format!("/api/_action/dsr/appointment/{id}/end"), &guide, json!({})).await;
    assert_eq!(status, 200);
    let (status, report) = live.get(&format!("/api/_action/dsr/appointment/{id}/report"), &guide).await;
    assert_eq!(status, 200, "{report}");
    assert!(report["window"]["to"].is_string() && report["window"]["ordersUntil"].is_string(), "{report}");
    assert_eq!(report["window"]["afterSessionHours"], 48);
    assert_eq!(report["orders"].as_array().unwrap().len(), 1);
    // An order far after the end does not count; move Cleo's order three days on.
    live.db()
        .execute(
            "UPDATE shop_order SET order_date_time = strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '+3 days') WHERE order_number = ?1",
            [order["orderNumber"].as_str().unwrap()],
        )
        .unwrap();
    let (_, report) = live.get(&format!("/api/_action/dsr/appointment/{id}/report"), &guide).await;
    assert_eq!(report["orders"], json!([]), "{report}");
    assert_eq!(report["conversion"]["buyers"], 0);
}

#[tokio::test]
async fn the_report_is_for_guides_and_admins_only() {
    let live = start().await;
    let (guide, id, _) = live.guide_joins("demo").await;
    let path = format!("/api/_action/dsr/appointment/{id}/report");
    let (status, body) = live.get(&path, &As::Nobody).await;
    assert_eq!(status, 401, "{body}");
    assert_error(&body, 401, "FRAMEWORK__UNAUTHORIZED");
    let customer = live.customer_login().await;
    let (status, body) = live.get(&path, &As::Store(customer.clone())).await;
    assert_eq!(status, 401, "a store context is no admin: {body}");
    let (status, body) = live.get(&path, &As::Guide(customer)).await;
    assert_eq!(status, 401, "a context token is no bearer token: {body}");
    assert_error(&body, 401, "FRAMEWORK__UNAUTHORIZED");

    for unknown in ["f".repeat(32), "not-an-id".to_owned()] {
        let (status, body) = live.get(&format!("/api/_action/dsr/appointment/{unknown}/report"), &guide).await;
        assert_eq!(status, 404, "{body}");
        assert_error(&body, 404, "DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_FOUND");
    }

    // Before anyone joined: an empty report, no division by zero.
    let (status, report) = live.get(&path, &guide).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["conversion"], json!({"attendees": 0, "buyers": 0, "rate": 0.0}));
    assert_eq!(report["orders"], json!([]));
}
