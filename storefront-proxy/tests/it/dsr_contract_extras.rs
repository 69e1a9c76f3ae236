//! The DSR operations of the documented contract served since issue 17: the invitation's
//! calendar file, appointment requests, the guide's view of an attendee's last seen
//! products, and the live room's records through the Admin API. A real hub and a real
//! storefront-proxy on a real SQLite file.

use crate::dsr_support;

use dsr_support::*;
use icalendar::{Calendar, Component};
use reqwest::Method;
use serde_json::{json, Value};

async fn salutation(live: &Live) -> String {
    let (status, body) = live.get("/store-api/salutation", &As::Nobody).await;
    assert_eq!(status, 200, "{body}");
    body["elements"][0]["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn the_calendar_file_of_an_invitation_is_served_for_its_token_only() {
    let live = start().await;
    let (guide, id, _) = live.guide_joins("demo").await;
    let (status, body) = live
        .patch(
            &format!("/api/dsr-appointment/{id}"),
            &guide,
            json!({"accessibleFrom": "2026-12-01T18:00:00+00:00"}),
        )
        .await;
    assert!(status < 300, "{status} {body}");
    let (status, body) = live
        .post(
            &format!("/api/_action/dsr/appointment/{id}/invite"),
            &guide,
            json!({"emails": ["ada@example.com"]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let token: String = live
        .db()
        .query_row(
            "SELECT token FROM appointment_invitation WHERE email = 'ada@example.com'",
            [],
            |r| r.get(0),
        )
        .unwrap();

    let path = format!("/store-api/dsr/appointment/{id}/download-ics");
    let response = live
        .request(Method::POST, &path, &As::Nobody)
        .json(&json!({"token": token}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/calendar"));
    let text = response.text().await.unwrap();
    let calendar: Calendar = text.parse().unwrap();
    let event = calendar
        .components
        .iter()
        .find_map(|c| c.as_event())
        .expect("one event");
    assert_eq!(
        event.get_uid(),
        Some(format!("{id}@salesroom.example").as_str())
    );
    assert!(
        event.get_url().unwrap().contains(&format!("token={token}")),
        "{text}"
    );
    assert!(text.contains("DTSTART:20261201T180000Z"), "{text}");

    // Another token, a token of no invitation, another appointment, no token: refused.
    let (status, body) = live
        .post(&path, &As::Nobody, json!({"token": "0".repeat(32)}))
        .await;
    assert_error(&body, 404, "DIGITAL_SALES_ROOMS__INVITATION_NOT_FOUND");
    assert_eq!(status, 404);
    let (status, body) = live
        .post(
            &format!("/store-api/dsr/appointment/{}/download-ics", "a".repeat(32)),
            &As::Nobody,
            json!({"token": token}),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = live.post(&path, &As::Nobody, json!({})).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["source"]["pointer"], "/token");
    let (status, _) = live.post(&path, &As::Nobody, json!({"token": 7})).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn an_appointment_request_is_stored_and_listed_for_admins() {
    let live = start().await;
    let (guide, id, _) = live.guide_joins("demo").await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let client = token_of(&join);
    let salutation = salutation(&live).await;
    let request = json!({
        "salutationId": salutation, "firstName": " Ada ", "lastName": "Lovelace", "emailAddress": "Ada@Example.com",
        "subject": "A private showing", "message": "Thursdays suit me.", "companyName": "Engines Ltd"
    });
    let (status, body) = live
        .post(
            "/store-api/dsr/appointment/request",
            &client,
            request.clone(),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["apiAlias"],
        "dsr.appointment.create-appointment-request"
    );
    let request_id = body["data"][0].as_str().unwrap().to_owned();

    let (status, body) = live
        .post("/api/search/dsr-appointment-request", &guide, json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["total"], 1);
    let stored = &body["data"][0];
    assert_eq!(stored["id"], request_id.as_str());
    assert_eq!(stored["appointmentId"], id.as_str());
    assert_eq!(stored["requestedById"], join["attendeeId"]);
    assert_eq!(stored["firstName"], "Ada");
    assert_eq!(stored["emailAddress"], "ada@example.com");
    assert_eq!(stored["companyName"], "Engines Ltd");
    assert_eq!(stored["phoneNumber"], Value::Null);
    assert_eq!(stored["handledById"], Value::Null);

    // Anonymous request without an appointment: stored without one.
    let (status, body) = live
        .post(
            "/store-api/dsr/appointment/request",
            &As::Nobody,
            json!({"salutationId": salutation, "firstName": "Alan", "lastName": "Turing", "emailAddress": "alan@example.com", "subject": "Hi"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, body) = live
        .post(
            "/api/search/dsr-appointment-request",
            &guide,
            json!({"filter": [{"type": "equals", "field": "emailAddress", "value": "alan@example.com"}]}),
        )
        .await;
    assert_eq!(body["data"][0]["appointmentId"], Value::Null);

    // Refusals: each names its field, and nothing is stored.
    let count = || {
        live.db()
            .query_row("SELECT COUNT(*) FROM dsr_appointment_request", [], |r| {
                r.get::<_, i64>(0)
            })
            .unwrap()
    };
    let before = count();
    for (change, pointer) in [
        (json!({"emailAddress": "not an address"}), "/emailAddress"),
        (json!({"firstName": ""}), "/firstName"),
        (json!({"subject": null}), "/subject"),
        (json!({"salutationId": "f".repeat(32)}), "/salutationId"),
        (json!({"salutationId": "nope"}), "/salutationId"),
        (json!({"message": "x".repeat(5001)}), "/message"),
        (json!({"appointmentId": "b".repeat(32)}), "/appointmentId"),
    ] {
        let mut body = request.clone();
        body.as_object_mut()
            .unwrap()
            .extend(change.as_object().unwrap().clone());
        let (status, answer) = live
            .post("/store-api/dsr/appointment/request", &client, body)
            .await;
        assert!(
            status == 400 || status == 404,
            "{change}: {status} {answer}"
        );
        let pointers: Vec<&str> = answer["errors"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["source"]["pointer"].as_str())
            .collect();
        assert!(pointers.contains(&pointer), "{change}: {answer}");
    }
    assert_eq!(count(), before);

    // At most five open requests of one address.
    for n in 1..5 {
        let (status, body) = live
            .post(
                "/store-api/dsr/appointment/request",
                &client,
                request.clone(),
            )
            .await;
        assert_eq!(status, 200, "request {n}: {body}");
    }
    let (status, body) = live
        .post(
            "/store-api/dsr/appointment/request",
            &client,
            request.clone(),
        )
        .await;
    assert_error(
        &body,
        429,
        "DIGITAL_SALES_ROOMS__TOO_MANY_APPOINTMENT_REQUESTS",
    );
    assert_eq!(status, 429);

    // Read only through the Admin API; nobody without a token reads it.
    for body in [json!({}), json!({"subject": "x"})] {
        let (status, answer) = live
            .post("/api/dsr-appointment-request", &guide, body)
            .await;
        assert!(status == 405 || status == 400, "{answer}");
        assert_eq!(answer["errors"][0]["code"], "FRAMEWORK__WRITE_PROTECTED");
    }
    let (status, _) = live
        .post(
            "/api/search/dsr-appointment-request",
            &As::Nobody,
            json!({}),
        )
        .await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn the_guide_reads_an_attendees_last_seen_products_and_the_rooms_records() {
    let live = start().await;
    let (guide, id, _) = live.guide_joins("demo").await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let client = token_of(&join);
    let attendee = join["attendeeId"].as_str().unwrap();
    let products = live.product_ids(2).await;
    for product in &products {
        let (status, body) = live
            .post(
                "/store-api/dsr/interaction",
                &client,
                json!({"name": "product.viewed", "payload": {"productId": product}}),
            )
            .await;
        assert!(status < 300, "{body}");
    }
    let (status, body) = live
        .get(
            &format!("/api/_action/dsr/appointment/attendee/{attendee}/last-seen-product-ids"),
            &guide,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let seen: Vec<&str> = body["collection"]["lastSeen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(seen.len(), 2);
    assert!(
        products.iter().all(|p| seen.contains(&p.as_str())),
        "{body}"
    );
    let (status, body) = live
        .get(
            &format!(
                "/api/_action/dsr/appointment/attendee/{}/last-seen-product-ids",
                "c".repeat(32)
            ),
            &guide,
        )
        .await;
    assert_error(&body, 404, "DIGITAL_SALES_ROOMS__ATTENDEE_NOT_FOUND");
    assert_eq!(status, 404);
    let (status, _) = live
        .get(
            &format!("/api/_action/dsr/appointment/attendee/{attendee}/last-seen-product-ids"),
            &As::Nobody,
        )
        .await;
    assert_eq!(status, 401);

    // The interactions, with their payload.
    let (status, body) = live
        .post(
            "/api/search/dsr-interaction",
            &guide,
            json!({"filter": [{"type": "equals", "field": "attendeeId", "value": attendee}]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let viewed: Vec<&Value> = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["name"] == "product.viewed")
        .collect();
    assert_eq!(viewed.len(), 2, "{body}");
    assert!(viewed
        .iter()
        .all(|i| i["appointmentId"] == id.as_str() && i["triggeredAt"].is_string()));
    assert!(
        products
            .iter()
            .any(|p| viewed[0]["payload"]["productId"] == p.as_str()),
        "{body}"
    );

    // The presentation's pages and their slides (the sections of their layouts).
    let structure = live.structure(&client).await;
    let first = &structure["cmsPageResults"][0]["cmsPage"];
    let (status, pages) = live
        .post("/api/search/dsr-presentation-cms-page", &guide, json!({}))
        .await;
    assert_eq!(status, 200, "{pages}");
    assert!(
        pages["data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["cmsPageId"] == first["id"] && p["presentationId"].is_string()),
        "{pages}"
    );
    let section = first["sections"][0]["id"].as_str().unwrap();
    let (status, slides) = live
        .post(
            "/api/search/dsr-cms-slide",
            &guide,
            json!({"filter": [{"type": "equals", "field": "cmsSectionId", "value": section}]}),
        )
        .await;
    assert_eq!(status, 200, "{slides}");
    assert_eq!(slides["total"], 1, "{slides}");
    assert_eq!(slides["data"][0]["cmsPageId"], first["id"]);
    assert!(slides["data"][0]["slideName"].is_string());

    // Read only: the room writes them.
    for entity in [
        "dsr-interaction",
        "dsr-cms-slide",
        "dsr-presentation-cms-page",
    ] {
        let (status, body) = live
            .post(&format!("/api/{entity}"), &guide, json!({}))
            .await;
        assert_eq!(status, 405, "{entity}: {body}");
        assert_eq!(body["errors"][0]["code"], "FRAMEWORK__WRITE_PROTECTED");
    }
    let interaction = viewed[0]["id"].as_str().unwrap();
    let (status, _, _) = live
        .call(
            Method::DELETE,
            &format!("/api/dsr-interaction/{interaction}"),
            &guide,
            None,
        )
        .await;
    assert_eq!(status, 405);
}

/// The stand-in for Shopware (embedded, with its hub) and a proxy forwarding to it.
async fn forwarding_pair() -> (Live, Live) {
    let upstream = start().await;
    let dir = tempfile::tempdir().unwrap();
    let config = hub::Config {
        secret: Some("forwarding".into()),
        ..hub::Config::for_data_dir(dir.path().join("hub"))
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hub_port = listener.local_addr().unwrap().port();
    tokio::spawn(
        hub::Hub::open(config, b"forwarding".to_vec())
            .await
            .unwrap()
            .serve(listener, std::future::pending()),
    );
    let upstream_url = upstream.base.clone();
    let base = serve_with(dir.path(), hub_port, "forwarding", |config| {
        storefront_proxy::Config {
            upstream_url: Some(upstream_url),
            ..config
        }
    })
    .await;
    (
        upstream,
        Live {
            base,
            hub_port,
            http: reqwest::Client::new(),
            dir,
        },
    )
}

#[tokio::test]
async fn in_forwarding_mode_the_new_operations_reach_the_upstream() {
    let (upstream, forwarding) = forwarding_pair().await;
    let (guide, _, _) = forwarding.guide_joins("demo").await;
    let join = forwarding.join_as_client("demo", &As::Nobody, "Ada").await;
    let client = token_of(&join);
    let attendee = join["attendeeId"].as_str().unwrap();
    let product = forwarding.product_ids(1).await.remove(0);
    let (status, body) = forwarding
        .post(
            "/store-api/dsr/interaction",
            &client,
            json!({"name": "product.viewed", "payload": {"productId": product}}),
        )
        .await;
    assert!(status < 300, "{body}");
    let (status, body) = forwarding
        .get(
            &format!("/api/_action/dsr/appointment/attendee/{attendee}/last-seen-product-ids"),
            &guide,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["collection"]["lastSeen"], json!([product]));

    let salutation = salutation(&forwarding).await;
    let (status, body) = forwarding
        .post(
            "/store-api/dsr/appointment/request",
            &client,
            json!({"salutationId": salutation, "firstName": "Ada", "lastName": "Lovelace", "emailAddress": "ada@example.com", "subject": "Hi"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // Stored by the upstream, for its attendee.
    let requester: String = upstream
        .db()
        .query_row(
            "SELECT requested_by_id FROM dsr_appointment_request",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(requester, attendee);
    let (status, body) = forwarding
        .post("/api/search/dsr-interaction", &guide, json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(
        body["data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["name"] == "product.viewed" && i["attendeeId"] == attendee),
        "{body}"
    );
}

#[tokio::test]
async fn an_attendee_reads_the_ids_on_their_customer_wishlist() {
    let live = start().await;
    live.guide_joins("demo").await;
    let customer = As::Store(live.customer_login().await);
    let products = live.product_ids(2).await;
    for product in &products {
        let (status, body) = live
            .post(
                &format!("/store-api/customer/wishlist/add/{product}"),
                &customer,
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let join = live.join_as_client("demo", &customer, "Cleo").await;
    let (status, body) = live
        .post(
            "/store-api/dsr/customer/wishlist-product-ids",
            &token_of(&join),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["apiAlias"], "array_struct");
    assert_eq!(
        body["wishlistProductIds"],
        json!([products[1], products[0]]),
        "newest first"
    );

    // A guest attendee has no customer wishlist; a session of nobody neither.
    let guest = token_of(&live.join_as_client("demo", &As::Nobody, "Ada").await);
    let (status, body) = live
        .post(
            "/store-api/dsr/customer/wishlist-product-ids",
            &guest,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["wishlistProductIds"], json!([]));
    let (status, body) = live
        .post(
            "/store-api/dsr/customer/wishlist-product-ids",
            &As::Nobody,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["wishlistProductIds"], json!([]));
}

#[tokio::test]
async fn in_forwarding_mode_discounts_and_wishlist_ids_reach_the_upstream() {
    use protocol::frame::Event;
    let (upstream, forwarding) = forwarding_pair().await;
    let (guide, _, guide_join) = forwarding.guide_joins("demo").await;
    let mut guide_socket = connect(&forwarding, &guide_join).await;
    let join = forwarding.join_as_client("demo", &As::Nobody, "Ada").await;
    let mut ada_socket = connect(&forwarding, &join).await;
    let client = token_of(&join);
    let attendee = join["attendeeId"].as_str().unwrap().to_owned();
    let product = forwarding.product_ids(1).await.remove(0);
    let (status, before) = forwarding
        .post(
            "/store-api/checkout/cart/line-item",
            &client,
            json!({"items": [{"referencedId": product, "quantity": 2}]}),
        )
        .await;
    assert_eq!(status, 200, "{before}");
    let (status, body) = forwarding
        .post(
            "/store-api/dsr/customer/wishlist-product-ids",
            &client,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["wishlistProductIds"], json!([]));

    // Without the attendee's grant (this proxy's hub knows it): refused here.
    let path = format!("/api/_action/dsr/appointment/attendee/{attendee}/add-cart-discount");
    let half = json!({"discountType": "percentage", "discountValue": 50});
    let (status, body) = forwarding.post(&path, &guide, half.clone()).await;
    assert_error(
        &body,
        403,
        "DIGITAL_SALES_ROOMS__ATTENDEE_CART_PERMISSION_MISSING",
    );
    assert_eq!(status, 403);
    grant_cart_permission(&mut ada_socket).await;
    // The stand-in for Shopware checks its own room too: Ada grants it there as well
    // (the same session rejoins as the same attendee).
    let upstream_join = upstream.join_as_client("demo", &client, "Ada").await;
    assert_eq!(upstream_join["attendeeId"], attendee.as_str());
    let mut upstream_socket = connect(&upstream, &upstream_join).await;
    grant_cart_permission(&mut upstream_socket).await;

    let (status, cart) = forwarding.post(&path, &guide, half).await;
    assert_eq!(status, 200, "{cart}");
    let expected = before["price"]["totalPrice"].as_f64().unwrap()
        - before["price"]["positionPrice"].as_f64().unwrap() / 2.0;
    assert!(
        (cart["price"]["totalPrice"].as_f64().unwrap() - expected).abs() < 0.015,
        "{cart}"
    );
    // Stored by the upstream; the forwarding hub heard of the change.
    let stored: i64 = upstream
        .db()
        .query_row(
            "SELECT COUNT(*) FROM cart_line_item WHERE type = 'discount'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(stored, 1);
    wait_for(&mut guide_socket, |e| match e {
        Event::AttendeeCartChanged {
            attendee_id,
            total_price,
            ..
        } if *attendee_id == attendee && (total_price - expected).abs() < 0.015 => Some(()),
        _ => None,
    })
    .await;
}
