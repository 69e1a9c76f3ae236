//! An attendee's cart, likes and wishlist reach the hub in the background: the shop
//! call answers while the hub has not, and the guides see the changes in the order
//! they were made, each once. The shop's changes of sessions that are no attendee's
//! publish nothing.

use crate::dsr_support;

use std::io::Read;

use dsr_support::*;
use protocol::frame::Event;
use protocol::internal::PublishRequest;
use serde_json::json;
use tokio::io::AsyncReadExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

/// A hub that takes every publish request and never answers it: each one comes to the
/// test with its connection, which stays open. Reads of the live state are closed
/// at once (so that joining does not wait).
async fn hanging_hub() -> (u16, mpsc::UnboundedReceiver<(String, TcpStream)>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (sender, receiver) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let sender = sender.clone();
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buffer = [0u8; 4096];
                // The head and the JSON body, which ends the request.
                while !request.ends_with(b"}") {
                    match stream.read(&mut buffer).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&buffer[..n]),
                    }
                    if request.starts_with(b"GET ") && request.windows(4).any(|w| w == b"\r\n\r\n")
                    {
                        return;
                    }
                }
                let _ = sender.send((String::from_utf8_lossy(&request).into_owned(), stream));
            });
        }
    });
    (port, receiver)
}

/// A hub that answers every publish request and hands it to the test; everything else
/// (reads of the live state) it refuses with 503.
async fn recording_hub() -> (u16, mpsc::UnboundedReceiver<PublishRequest>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (sender, receiver) = mpsc::unbounded_channel();
    let seq = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let publish = move |axum::Json(request): axum::Json<PublishRequest>| async move {
        let _ = sender.send(request);
        axum::Json(json!({ "seq": seq.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1 }))
    };
    let router = axum::Router::new()
        .route("/internal/publish", axum::routing::post(publish))
        .fallback(|| async { axum::http::StatusCode::SERVICE_UNAVAILABLE });
    tokio::spawn(async move { axum::serve(listener, router).await });
    (port, receiver)
}

/// Whether the other end still holds the connection: nothing more to read, no end.
fn still_open(stream: &mut std::net::TcpStream) -> bool {
    let mut buffer = [0u8; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return false,
            Ok(_) => continue,
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => return true,
            Err(_) => return false,
        }
    }
}

#[tokio::test]
async fn a_cart_change_answers_while_the_hub_hangs() {
    let (hub_port, mut published) = hanging_hub().await;
    let live = start_with_hub(tempfile::tempdir().unwrap(), hub_port).await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let client = token_of(&join);
    let products = live.product_ids(2).await;

    let (status, cart) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &client,
            json!({"items": [{"referencedId": products[0]}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    // The publish of that change is with the hub, unanswered, and the proxy still
    // waits for it: the cart answered before the hub did (or the proxy gave up).
    let (request, connection) = published.recv().await.unwrap();
    assert!(request.starts_with("POST /internal/publish"), "{request}");
    assert!(
        request.contains("\"attendeeCartChanged\"")
            && request.contains(join["attendeeId"].as_str().unwrap()),
        "{request}"
    );
    let mut connection = connection.into_std().unwrap();
    assert!(
        still_open(&mut connection),
        "the cart answered only after the hub publish was given up"
    );

    // Later changes do not wait for it either; they queue behind it.
    let (status, cart) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &client,
            json!({"items": [{"referencedId": products[1]}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    assert_eq!(cart["lineItems"].as_array().unwrap().len(), 2, "{cart}");
    let (status, _) = live
        .post(
            &format!(
                "/store-api/dsr/appointment/collection/liked/{}",
                products[1]
            ),
            &client,
            json!({}),
        )
        .await;
    assert_eq!(status, 204);
    assert!(
        published.try_recv().is_err(),
        "one publish at a time, in order"
    );
    assert!(
        still_open(&mut connection),
        "the first publish is still waiting for the hub"
    );
}

#[tokio::test]
async fn guides_see_cart_likes_and_wishlist_changes_in_order() {
    let live = start().await;
    let (_, _, guide_join) = live.guide_joins("demo").await;
    let mut guide_socket = connect(&live, &guide_join).await;
    let join = live
        .join_as_client("demo", &As::Store(live.customer_login().await), "Customer")
        .await;
    let attendee = join["attendeeId"].as_str().unwrap().to_owned();
    let client = token_of(&join);
    let products = live.product_ids(3).await;

    // Quick changes, one after the other, without waiting for the hub in between.
    let mut expected = Vec::new();
    for (round, product) in products.iter().enumerate() {
        let (status, cart) = live
            .post(
                "/store-api/checkout/cart/line-item",
                &client,
                json!({"items": [{"referencedId": product}]}),
            )
            .await;
        assert_eq!(status, 200, "{cart}");
        expected.push(format!("cart {}", round + 1));
        let (status, _) = live
            .post(
                &format!("/store-api/dsr/appointment/collection/liked/{product}"),
                &client,
                json!({}),
            )
            .await;
        assert_eq!(status, 204);
        expected.push(format!("liked {product} true"));
        let (status, body) = live
            .post(
                &format!("/store-api/customer/wishlist/add/{product}"),
                &client,
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        expected.push(format!("wishlist {product} true"));
    }
    let (status, _, _) = live
        .call(
            reqwest::Method::DELETE,
            &format!(
                "/store-api/dsr/appointment/collection/liked/{}",
                products[0]
            ),
            &client,
            None,
        )
        .await;
    assert_eq!(status, 204);
    expected.push(format!("liked {} false", products[0]));
    // Emptying the cart and ordering what is in it leave the guide's count at zero.
    let (status, _, _) = live
        .call(
            reqwest::Method::DELETE,
            "/store-api/checkout/cart",
            &client,
            None,
        )
        .await;
    assert_eq!(status, 204);
    expected.push("cart 0".to_owned());
    let (status, cart) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &client,
            json!({"items": [{"referencedId": products[0]}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    expected.push("cart 1".to_owned());
    let (status, order) = live
        .post("/store-api/checkout/order", &client, json!({}))
        .await;
    assert_eq!(status, 200, "{order}");
    expected.push("cart 0".to_owned());

    let mut seen = Vec::new();
    while seen.len() < expected.len() {
        let change = wait_for(&mut guide_socket, |event| match event {
            Event::AttendeeCartChanged {
                attendee_id,
                line_item_count,
                ..
            } if *attendee_id == attendee => Some(format!("cart {line_item_count}")),
            Event::AttendeeCollectionChanged {
                attendee_id,
                collection,
                product_id,
                added,
            } if *attendee_id == attendee => {
                let name = serde_json::to_value(collection).unwrap();
                Some(format!("{} {product_id} {added}", name.as_str().unwrap()))
            }
            _ => None,
        })
        .await;
        seen.push(change);
    }
    assert_eq!(seen, expected);
}

#[tokio::test]
async fn cart_and_wishlist_changes_of_no_attendee_publish_nothing() {
    let (hub_port, mut published) = recording_hub().await;
    let live = start_with_hub(tempfile::tempdir().unwrap(), hub_port).await;
    let products = live.product_ids(3).await;

    // A visitor's cart and a customer's cart and wishlist: neither is in a room.
    let (status, visitor, headers) = live
        .call(
            reqwest::Method::POST,
            "/store-api/checkout/cart/line-item",
            &As::Nobody,
            Some(json!({"items": [{"referencedId": products[0]}]})),
        )
        .await;
    assert_eq!(status, 200, "{visitor}");
    let visitor = As::Store(headers["sw-context-token"].to_str().unwrap().to_owned());
    let (status, _) = live
        .patch(
            "/store-api/checkout/cart/line-item",
            &visitor,
            json!({"items": [{"id": products[0], "quantity": 2}]}),
        )
        .await;
    assert_eq!(status, 200);
    let customer = As::Store(live.customer_login().await);
    let (status, body) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &customer,
            json!({"items": [{"referencedId": products[1]}]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = live
        .post(
            &format!("/store-api/customer/wishlist/add/{}", products[0]),
            &customer,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = live
        .post(
            "/store-api/customer/wishlist/merge",
            &customer,
            json!({"productIds": [products[1], products[2]]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, _, _) = live
        .call(
            reqwest::Method::DELETE,
            &format!("/store-api/customer/wishlist/delete/{}", products[0]),
            &customer,
            None,
        )
        .await;
    assert_eq!(status, 200);

    // Then an attendee's change: the hub gets that one first (the queue keeps the
    // order), so nothing went before it.
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let attendee = join["attendeeId"].as_str().unwrap().to_owned();
    let (status, body) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &token_of(&join),
            json!({"items": [{"referencedId": products[2]}]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let first = tokio::time::timeout(std::time::Duration::from_secs(5), published.recv())
        .await
        .expect("no publish in time")
        .unwrap();
    assert!(
        matches!(&first.event, Event::AttendeeCartChanged { attendee_id, line_item_count: 1, .. } if *attendee_id == attendee),
        "{first:?}"
    );
    assert!(published.try_recv().is_err(), "one change, one publish");
}

/// The guide's proxied cart calls and the attendee's wishlist merge: one hub event for
/// each change, none twice, in order with the attendee's own changes.
#[tokio::test]
async fn the_guides_cart_edits_and_a_wishlist_merge_publish_each_change_once() {
    let live = start().await;
    let (guide, _, guide_join) = live.guide_joins("demo").await;
    let mut guide_socket = connect(&live, &guide_join).await;
    let join = live
        .join_as_client("demo", &As::Store(live.customer_login().await), "Customer")
        .await;
    let attendee = join["attendeeId"].as_str().unwrap().to_owned();
    let channel = join["salesChannelId"].as_str().unwrap().to_owned();
    let client = token_of(&join);
    let mut client_socket = connect(&live, &join).await;
    grant_cart_permission(&mut client_socket).await;
    let products = live.product_ids(3).await;
    let item_url =
        format!("/api/_proxy/store-api/{channel}/checkout/cart/line-item?attendeeId={attendee}");

    let mut expected = Vec::new();
    let (status, cart) = live
        .post(
            &item_url,
            &guide,
            json!({"items": [{"referencedId": products[0]}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    expected.push("cart 1".to_owned());
    let (status, cart) = live
        .patch(
            &item_url,
            &guide,
            json!({"items": [{"id": products[0], "quantity": 3}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    expected.push("cart 1".to_owned());
    let (status, cart) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &client,
            json!({"items": [{"referencedId": products[1]}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    expected.push("cart 2".to_owned());
    let (status, _, _) = live
        .call(
            reqwest::Method::DELETE,
            &format!("{item_url}&ids[]={}", products[0]),
            &guide,
            None,
        )
        .await;
    assert_eq!(status, 200);
    expected.push("cart 1".to_owned());
    let (status, body) = live
        .post(
            &format!("/store-api/customer/wishlist/add/{}", products[0]),
            &client,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    expected.push(format!("wishlist {} true", products[0]));
    // The merge at login: only what was not listed yet is new.
    let (status, body) = live
        .post(
            "/store-api/customer/wishlist/merge",
            &client,
            json!({"productIds": [products[0], products[1], products[2]]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    expected.push(format!("wishlist {} true", products[1]));
    expected.push(format!("wishlist {} true", products[2]));
    // A like last: everything before it has arrived when it does.
    let (status, _) = live
        .post(
            &format!(
                "/store-api/dsr/appointment/collection/liked/{}",
                products[2]
            ),
            &client,
            json!({}),
        )
        .await;
    assert_eq!(status, 204);
    expected.push(format!("liked {} true", products[2]));

    let mut seen = Vec::new();
    while seen.last() != expected.last() {
        let change = wait_for(&mut guide_socket, |event| match event {
            Event::AttendeeCartChanged {
                attendee_id,
                line_item_count,
                ..
            } if *attendee_id == attendee => Some(format!("cart {line_item_count}")),
            Event::AttendeeCollectionChanged {
                attendee_id,
                collection,
                product_id,
                added,
            } if *attendee_id == attendee => {
                let name = serde_json::to_value(collection).unwrap();
                Some(format!("{} {product_id} {added}", name.as_str().unwrap()))
            }
            _ => None,
        })
        .await;
        seen.push(change);
    }
    assert_eq!(seen, expected);
}

/// Every change of the saved products that changed something tells the guides (and only
/// them) through the hub, so a second guide's cockpit loads the list again; a change that
/// changed nothing (saving one already saved, clearing an empty list) tells no one.
#[tokio::test]
async fn saved_product_changes_reach_the_guides_only() {
    let live = start().await;
    let (guide, appointment_id, guide_join) = live.guide_joins("demo").await;
    let mut guide_socket = connect(&live, &guide_join).await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let mut client_socket = connect(&live, &join).await;
    let p = live.product_ids(3).await;
    let url = format!("/api/_action/dsr/appointment/{appointment_id}/saved-products");

    let (status, body) = live
        .post(&url, &guide, json!({"productIds": [p[0], p[1], p[2]]}))
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = live.post(&url, &guide, json!({"productIds": [p[0]]})).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = live
        .patch(&format!("{url}/{}", p[2]), &guide, json!({"position": 0}))
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = live
        .patch(
            &format!("{url}/{}", p[1]),
            &guide,
            json!({"note": "Show the lining"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // A refused change tells no one either.
    let (status, body) = live
        .patch(
            &format!("{url}/{}", p[1]),
            &guide,
            json!({"note": "x".repeat(501)}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, _, _) = live
        .call(
            reqwest::Method::DELETE,
            &format!("{url}/{}", p[0]),
            &guide,
            None,
        )
        .await;
    assert_eq!(status, 204);
    let (status, _, _) = live.call(reqwest::Method::DELETE, &url, &guide, None).await;
    assert_eq!(status, 204);
    let (status, _, _) = live.call(reqwest::Method::DELETE, &url, &guide, None).await;
    assert_eq!(status, 204);

    // Five changes changed something: add, move, note, remove one, remove all.
    for _ in 0..5 {
        wait_for(&mut guide_socket, |event| {
            matches!(event, Event::SavedProductsChanged {}).then_some(())
        })
        .await;
    }
    // Then an event for everyone: before it the guide got no sixth change, and the
    // attendee none at all.
    send_action(
        &mut guide_socket,
        protocol::action::Action::LoadProductList {},
    )
    .await;
    let is_reload = |event: &Event| {
        matches!(
            event,
            Event::Reload {
                action: protocol::action::Action::LoadProductList {}
            }
        )
    };
    let guide_more = count_until(&mut guide_socket, is_reload).await;
    assert_eq!(
        guide_more, 0,
        "only the changes that changed something are told"
    );
    let client_saw = count_until(&mut client_socket, is_reload).await;
    assert_eq!(
        client_saw, 0,
        "an attendee is not told of the guides' saved products"
    );
}

#[tokio::test]
async fn a_guests_cart_moved_by_migrate_visitor_session_is_empty_for_the_guide() {
    let live = start().await;
    let (_, _, guide_join) = live.guide_joins("demo").await;
    let mut guide_socket = connect(&live, &guide_join).await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let attendee = join["attendeeId"].as_str().unwrap().to_owned();
    let guest = token_of(&join);
    let products = live.product_ids(2).await;
    let items: Vec<serde_json::Value> = products
        .iter()
        .map(|p| json!({"type": "product", "referencedId": p, "quantity": 2}))
        .collect();
    let (status, cart) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &guest,
            json!({"items": items}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    let cart_count = |event: &Event| match event {
        Event::AttendeeCartChanged {
            attendee_id,
            line_item_count,
            ..
        } if *attendee_id == attendee => Some(*line_item_count),
        _ => None,
    };
    assert_eq!(wait_for(&mut guide_socket, cart_count).await, 2);

    // The guest's browser logs in elsewhere and takes the cart along.
    let session = live.storefront_session().await;
    let As::Store(guest_token) = &guest else {
        unreachable!()
    };
    let (status, body) = live
        .post(
            "/store-api/dsr/customer/migrate-visitor-session",
            &session,
            json!({"contextToken": guest_token}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(
        wait_for(&mut guide_socket, cart_count).await,
        0,
        "the guide sees the guest's cart emptied"
    );
}

/// How many `savedProductsChanged` events come before the first event `until` accepts.
async fn count_until(socket: &mut Socket, until: impl Fn(&Event) -> bool) -> usize {
    let mut count = 0;
    loop {
        if let protocol::frame::ServerFrame::Event { event, .. } = next_frame(socket).await {
            if until(&event) {
                return count;
            }
            if matches!(event, Event::SavedProductsChanged {}) {
                count += 1;
            }
        }
    }
}
