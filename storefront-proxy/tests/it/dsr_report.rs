//! The session report (`GET /api/_action/dsr/appointment/{id}/report`) over a real hub,
//! proxy and SQLite file: attendees join and leave at known times, like, fill carts,
//! react, vote, chat and order through the real flows, and the report shows exactly
//! that; anonymous callers, store contexts and unknown appointments are refused in the
//! documented shape.

use crate::dsr_support;

use std::time::Duration;

use dsr_support::*;
use protocol::action::Action;
use protocol::engagement::polls::NewPoll;
use protocol::engagement::Reaction;
use protocol::frame::Event;
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// The hub samples every 200 ms here (30 s in production), so the test need not wait.
const SAMPLE_MS: u64 = 200;

/// Asks for the report until `done` holds (the hub samples and the shop relays cart
/// changes in the background), for at most five seconds.
async fn report_when(live: &Live, guide: &As, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let path = format!("/api/_action/dsr/appointment/{id}/report");
    for _ in 0..100 {
        let (status, report) = live.get(&path, guide).await;
        assert_eq!(status, 200, "{report}");
        if done(&report) {
            return report;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (_, report) = live.get(&path, guide).await;
    panic!("the report never got there: {report}");
}

fn now() -> OffsetDateTime {
    OffsetDateTime::now_utc()
}

/// `at` (RFC 3339, to the second) lies between `before` and `after`, both taken by the
/// test around what caused it.
fn assert_between(at: &Value, before: OffsetDateTime, after: OffsetDateTime) {
    let at = OffsetDateTime::parse(at.as_str().unwrap(), &Rfc3339).unwrap();
    let before = before.replace_nanosecond(0).unwrap();
    assert!(
        before <= at && at <= after,
        "{at} is not between {before} and {after}"
    );
}

/// The time-weighted average of the connected counts of `points` over `[from, to]`.
fn average_connected(points: &[Value], from: OffsetDateTime, to: OffsetDateTime) -> f64 {
    let at = |p: &Value| OffsetDateTime::parse(p["at"].as_str().unwrap(), &Rfc3339).unwrap();
    let connected = |p: &Value| p["connected"].as_f64().unwrap();
    let mut steps: Vec<(OffsetDateTime, f64)> = vec![(
        from,
        points
            .iter()
            .rfind(|p| at(p) <= from)
            .map_or(0.0, connected),
    )];
    steps.extend(
        points
            .iter()
            .filter(|p| at(p) > from && at(p) <= to)
            .map(|p| (at(p), connected(p))),
    );
    let mut sum = 0.0;
    for (i, (start, value)) in steps.iter().enumerate() {
        let until = steps.get(i + 1).map_or(to, |(next, _)| *next);
        sum += value * (until - *start).as_seconds_f64();
    }
    ((sum / (to - from).as_seconds_f64()) * 100.0).round() / 100.0
}

#[tokio::test]
async fn the_report_shows_what_the_session_did() {
    let live = start_with(|config| hub::Config {
        session_sample_ms: SAMPLE_MS,
        ..config
    })
    .await;
    let before_connects = now();
    let Session {
        guide,
        id,
        ada,
        cleo,
        mut guide_socket,
        mut ada_socket,
        mut cleo_socket,
        ..
    } = live.running_demo().await;
    let after_connects = now();
    wait_for(&mut cleo_socket, |e| {
        matches!(e, Event::PresentationStarted { .. }).then_some(())
    })
    .await;

    // Bea joins a second later, and leaves a second after that: three at most, then two.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let bea_join = live.join_as_client("demo", &As::Nobody, "Bea").await;
    let before_bea = now();
    let bea_socket = connect(&live, &bea_join).await;
    let after_bea = now();
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let before_bea_left = now();
    drop(bea_socket);
    let report = report_when(&live, &guide, &id, |r| r["live"]["connectedNow"] == 2).await;
    let after_bea_left = now();
    let points = report["live"]["attendance"].as_array().unwrap().clone();
    let counts: Vec<(u64, u64)> = points
        .iter()
        .map(|p| {
            (
                p["joined"].as_u64().unwrap(),
                p["connected"].as_u64().unwrap(),
            )
        })
        .collect();
    // Ada and Cleo connected (in one second or in two), Bea came and went.
    assert!(
        counts == [(1, 1), (2, 2), (3, 3), (3, 2)] || counts == [(2, 2), (3, 3), (3, 2)],
        "{report}"
    );
    let n = points.len();
    assert_between(&points[0]["at"], before_connects, after_connects);
    assert_between(&points[n - 2]["at"], before_bea, after_bea);
    assert_between(&points[n - 1]["at"], before_bea_left, after_bea_left);
    assert_eq!(report["live"]["viewers"]["peak"], 3, "{report}");
    let average = report["live"]["viewers"]["average"].as_f64().unwrap();
    assert!(
        average > 2.0 && average < 3.0,
        "two viewers most of the time, three for a second: {report}"
    );

    let products = live.product_ids(2).await;
    // Ada likes both products and puts one of the first in her cart; Cleo buys two of the second.
    for product in &products {
        let (status, _) = live
            .post(
                &format!("/store-api/dsr/appointment/collection/liked/{product}"),
                &ada,
                json!({}),
            )
            .await;
        assert_eq!(status, 204);
    }
    // Cleo, a customer, hearts the first one: it goes to her wishlist, counted apart.
    let (status, body) = live
        .post(
            &format!("/store-api/customer/wishlist/add/{}", products[0]),
            &cleo,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let mut cart_totals = Vec::new();
    for (token, product, quantity) in [(&ada, &products[0], 1), (&cleo, &products[1], 2)] {
        let (status, cart) = live
            .post(
                "/store-api/checkout/cart/line-item",
                token,
                json!({"items": [{"type": "product", "referencedId": product, "quantity": quantity}]}),
            )
            .await;
        assert_eq!(status, 200, "{cart}");
        cart_totals.push(cart["price"]["totalPrice"].as_f64().unwrap());
    }
    let both_carts = ((cart_totals[0] + cart_totals[1]) * 100.0).round() / 100.0;
    let last_cart_value = |r: &Value| {
        r["live"]["cartValue"]
            .as_array()
            .and_then(|s| s.last())
            .map(|s| s["value"].as_f64().unwrap())
    };
    report_when(&live, &guide, &id, |r| {
        last_cart_value(r) == Some(both_carts)
    })
    .await;

    // Reactions: three hearts from Ada, two claps from Cleo.
    for (socket, reaction, times) in [
        (&mut ada_socket, Reaction::Heart, 3),
        (&mut cleo_socket, Reaction::Clap, 2),
    ] {
        for _ in 0..times {
            send_action(socket, Action::SendReaction { reaction }).await;
        }
    }
    let report = report_when(&live, &guide, &id, |r| r["live"]["reactions"]["total"] == 5).await;
    assert_eq!(
        report["live"]["reactions"]["byKind"],
        json!({"heart": 3, "clap": 2, "laugh": 0, "wow": 0, "fire": 0}),
        "{report}"
    );
    let per_minute: u64 = report["live"]["reactions"]["perMinute"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["reactions"].as_u64().unwrap())
        .sum();
    assert_eq!(per_minute, 5);

    // A poll: Ada votes Red, Cleo Blue and then changes to Red.
    send_action(
        &mut guide_socket,
        Action::CreatePoll {
            poll: NewPoll {
                question: "Which colour?".into(),
                answers: vec!["Red".into(), "Blue".into()],
                multiple: false,
                slide: None,
            },
        },
    )
    .await;
    let poll = wait_for(&mut guide_socket, |e| match e {
        Event::PollCreated { poll } => Some(poll.clone()),
        _ => None,
    })
    .await;
    let (red, blue) = (
        poll.answers[0].answer_id.clone(),
        poll.answers[1].answer_id.clone(),
    );
    send_action(
        &mut guide_socket,
        Action::OpenPoll {
            poll_id: poll.poll_id.clone(),
        },
    )
    .await;
    for socket in [&mut ada_socket, &mut cleo_socket] {
        wait_for(socket, |e| {
            matches!(e, Event::PollOpened { .. }).then_some(())
        })
        .await;
    }
    for (ada_votes, answer) in [(true, &red), (false, &blue), (false, &red)] {
        let socket = if ada_votes {
            &mut ada_socket
        } else {
            &mut cleo_socket
        };
        send_action(
            socket,
            Action::VotePoll {
                poll_id: poll.poll_id.clone(),
                answer_ids: vec![answer.clone()],
            },
        )
        .await;
        wait_for(socket, |e| {
            matches!(e, Event::PollVoted { .. }).then_some(())
        })
        .await;
    }
    send_action(
        &mut guide_socket,
        Action::ClosePoll {
            poll_id: poll.poll_id.clone(),
        },
    )
    .await;
    wait_for(&mut guide_socket, |e| {
        matches!(e, Event::PollClosed { .. }).then_some(())
    })
    .await;

    // Two chat messages, Ada's and the guide's.
    send_action(
        &mut ada_socket,
        Action::SendChatMessage {
            text: "Hello".into(),
        },
    )
    .await;
    send_action(
        &mut guide_socket,
        Action::SendChatMessage {
            text: "Welcome".into(),
        },
    )
    .await;
    // The first after a quiet spell goes out alone, the second in the tick's batch.
    let mut seen = 0;
    while seen < 2 {
        seen += wait_for(&mut guide_socket, |e| match e {
            Event::ChatMessagePosted { .. } => Some(1),
            Event::ChatMessagesPosted { messages } => Some(messages.len()),
            _ => None,
        })
        .await;
    }
    let (status, order) = live
        .post("/store-api/checkout/order", &cleo, json!({"tos": true}))
        .await;
    assert_eq!(status, 200, "{order}");
    // Cleo's cart became her order: only Ada's counts in the cart value now.
    let report = report_when(&live, &guide, &id, |r| {
        last_cart_value(r) == Some(cart_totals[0])
    })
    .await;
    assert!(
        report["live"]["cartValue"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["value"].as_f64() == Some(both_carts)),
        "{report}"
    );

    assert_eq!(report["appointment"]["id"], id);
    assert_eq!(report["attendees"], 3, "{report}");
    let joined: u64 = report["attendance"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["joined"].as_u64().unwrap())
        .sum();
    assert_eq!(joined, 3);
    assert_eq!(
        report["attendance"].as_array().unwrap().last().unwrap()["joinedTotal"],
        3
    );
    let likes = report["likes"].as_array().unwrap();
    assert_eq!(likes.len(), 2, "{report}");
    assert_eq!(
        (
            &likes[0]["productId"],
            &likes[0]["likes"],
            &likes[0]["wishlist"]
        ),
        (&json!(products[0]), &json!(1), &json!(1)),
        "{report}"
    );
    assert_eq!(
        (
            &likes[1]["productId"],
            &likes[1]["likes"],
            &likes[1]["wishlist"]
        ),
        (&json!(products[1]), &json!(1), &json!(0)),
        "{report}"
    );
    assert!(likes.iter().all(|l| l["name"]
        .as_str()
        .is_some_and(|n| !n.is_empty() && n.len() != 32)));
    // Cart additions: Ada's one is still in her cart, Cleo's two left hers in the order.
    let carts = report["carts"].as_array().unwrap();
    assert_eq!(
        report["carts"],
        json!([
            {"productId": products[1], "name": carts[0]["name"], "quantity": 0, "attendees": 0, "ordered": 2},
            {"productId": products[0], "name": carts[1]["name"], "quantity": 1, "attendees": 1, "ordered": 0},
        ]),
        "{report}"
    );
    assert!(
        carts.iter().all(|c| c["name"]
            .as_str()
            .is_some_and(|n| !n.is_empty() && n.len() != 32)),
        "{report}"
    );
    let orders = report["orders"].as_array().unwrap();
    assert_eq!(orders.len(), 1, "{report}");
    assert_eq!(orders[0]["orderNumber"], order["orderNumber"]);
    assert_eq!(orders[0]["attendeeName"], "Cleo");
    assert_eq!(orders[0]["afterSession"], false);
    assert_eq!(orders[0]["amountTotal"], order["amountTotal"]);
    assert_eq!(
        report["revenue"],
        json!([{"currency": "EUR", "amount": order["amountTotal"]}])
    );
    assert_eq!(
        report["conversion"],
        json!({"attendees": 3, "buyers": 1, "rate": 1.0 / 3.0})
    );
    assert_eq!(report["live"]["chatMessages"], 2, "{report}");
    let chat: u64 = report["live"]["chatPerMinute"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["messages"].as_u64().unwrap())
        .sum();
    assert_eq!(chat, 2);
    assert_eq!(report["live"]["connectedNow"], 2, "{report}");
    assert_eq!(
        report["live"]["polls"],
        json!([{
            "pollId": poll.poll_id, "question": "Which colour?", "multiple": false, "status": "closed", "voters": 2,
            "answers": [{"answerId": red, "text": "Red", "votes": 2}, {"answerId": blue, "text": "Blue", "votes": 0}],
        }]),
        "{report}"
    );
    assert_eq!(report["window"]["to"], Value::Null, "still running");

    // After the end: the window closes and orders count for 48 hours more; the average
    // is over the session's window, as a test that knows the points works it out.
    let (status, _) = live
        .post(
            &format!("/api/_action/dsr/appointment/{id}/end"),
            &guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    let (status, report) = live
        .get(&format!("/api/_action/dsr/appointment/{id}/report"), &guide)
        .await;
    assert_eq!(status, 200, "{report}");
    assert!(
        report["window"]["to"].is_string() && report["window"]["ordersUntil"].is_string(),
        "{report}"
    );
    assert_eq!(report["window"]["afterSessionHours"], 48);
    assert_eq!(report["orders"].as_array().unwrap().len(), 1);
    let window = |key: &str| {
        OffsetDateTime::parse(report["window"][key].as_str().unwrap(), &Rfc3339).unwrap()
    };
    let points = report["live"]["attendance"].as_array().unwrap();
    assert_eq!(
        report["live"]["viewers"]["average"].as_f64().unwrap(),
        average_connected(points, window("from"), window("to")),
        "{report}"
    );
    // An order far after the end does not count; move Cleo's order three days on.
    live.db()
        .execute(
            "UPDATE shop_order SET order_date_time = strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '+3 days') WHERE order_number = ?1",
            [order["orderNumber"].as_str().unwrap()],
        )
        .unwrap();
    let (_, report) = live
        .get(&format!("/api/_action/dsr/appointment/{id}/report"), &guide)
        .await;
    assert_eq!(report["orders"], json!([]), "{report}");
    assert_eq!(report["conversion"]["buyers"], 0);
    assert_eq!(
        report["carts"].as_array().unwrap().len(),
        1,
        "the late order's items do not count: {report}"
    );
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
        let (status, body) = live
            .get(
                &format!("/api/_action/dsr/appointment/{unknown}/report"),
                &guide,
            )
            .await;
        assert_eq!(status, 404, "{body}");
        assert_error(&body, 404, "DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_FOUND");
    }

    // Before anyone joined: an empty report, no division by zero.
    let (status, report) = live.get(&path, &guide).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        report["conversion"],
        json!({"attendees": 0, "buyers": 0, "rate": 0.0})
    );
    assert_eq!(report["orders"], json!([]));
}

/// A cart call of `who`; answers the cart's total price.
async fn add_to_cart(live: &Live, who: &As, product: &str, quantity: i64) -> f64 {
    let (status, cart) = live
        .post(
            "/store-api/checkout/cart/line-item",
            who,
            json!({"items": [{"type": "product", "referencedId": product, "quantity": quantity}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    cart["price"]["totalPrice"].as_f64().unwrap()
}

/// Waits on a guide's socket until the shop told the hub `attendee`'s cart total.
async fn cart_told(guide_socket: &mut Socket, attendee: &Value, total: f64) {
    wait_for(guide_socket, |e| match e {
        Event::AttendeeCartChanged {
            attendee_id,
            total_price,
            ..
        } if attendee_id == attendee.as_str().unwrap() && *total_price == total => Some(()),
        _ => None,
    })
    .await;
}

/// Issue #31, items 1-3: a scripted session, and every figure of its report. Ada (a
/// guest) and Cleo (a customer) are connected before the start, Bea (a guest) comes and
/// goes; likes, a wishlist heart, carts with and without the cart permission, Ada's order
/// as a guest who registers at the checkout (a new store session), Cleo's as a customer,
/// and reactions right before the end. The hub samples once a minute here, so only the
/// last sample taken as the session ends can hold those reactions.
#[tokio::test]
async fn every_figure_of_a_scripted_session_is_right() {
    let live = start_with(|config| hub::Config {
        session_sample_ms: 60_000,
        ..config
    })
    .await;
    let Session {
        guide,
        id,
        ada_join,
        cleo_join,
        ada,
        cleo,
        mut guide_socket,
        mut ada_socket,
        mut cleo_socket,
        ..
    } = live.running_demo().await;
    let path = format!("/api/_action/dsr/appointment/{id}/report");
    let (ada_id, cleo_id) = (&ada_join["attendeeId"], &cleo_join["attendeeId"]);

    // Both were connected before the start: two viewers from its first moment.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (_, report) = live.get(&path, &guide).await;
    assert_eq!(
        report["live"]["viewers"],
        json!({"peak": 2, "average": 2.0}),
        "{report}"
    );

    // Bea comes: three viewers.
    let bea_join = live.join_as_client("demo", &As::Nobody, "Bea").await;
    let bea = token_of(&bea_join);
    let bea_socket = connect(&live, &bea_join).await;

    let products = live.product_ids(2).await;
    let (p0, p1) = (&products[0], &products[1]);
    // Likes: Ada both, Bea the second; Cleo (a customer) hearts the first into her wishlist.
    for (who, product) in [(&ada, p0), (&ada, p1), (&bea, p1)] {
        let (status, body) = live
            .post(
                &format!("/store-api/dsr/appointment/collection/liked/{product}"),
                who,
                json!({}),
            )
            .await;
        assert_eq!(status, 204, "{body}");
    }
    let (status, body) = live
        .post(
            &format!("/store-api/customer/wishlist/add/{p0}"),
            &cleo,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");

    // Carts: only Cleo lets the guides see hers; everyone's additions count.
    grant_cart_permission(&mut cleo_socket).await;
    add_to_cart(&live, &ada, p0, 1).await;
    let ada_total = add_to_cart(&live, &ada, p1, 1).await;
    let cleo_total = add_to_cart(&live, &cleo, p1, 2).await;
    let bea_total = add_to_cart(&live, &bea, p0, 3).await;
    cart_told(&mut guide_socket, ada_id, ada_total).await;
    cart_told(&mut guide_socket, cleo_id, cleo_total).await;
    // The per-person view stays behind the permission.
    let per_person = |attendee: &Value| {
        format!(
            "/api/_action/dsr/appointment/attendee/{}/sw-context-token",
            attendee.as_str().unwrap()
        )
    };
    let (status, body) = live.get(&per_person(ada_id), &guide).await;
    assert_eq!(status, 403, "{body}");
    assert_error(
        &body,
        403,
        "DIGITAL_SALES_ROOMS__ATTENDEE_CART_PERMISSION_MISSING",
    );
    let (status, body) = live.get(&per_person(cleo_id), &guide).await;
    assert_eq!(status, 200, "{body}");

    // Bea leaves with her cart, a second later (points of attendance are to the second).
    tokio::time::sleep(Duration::from_millis(1100)).await;
    drop(bea_socket);
    report_when(&live, &guide, &id, |r| r["live"]["connectedNow"] == 2).await;

    // Ada checks out as a guest: the registration answers a new session, her cart goes
    // along, and the order is her guest customer's.
    let country: String = live
        .db()
        .query_row("SELECT id FROM country WHERE iso = 'DE'", [], |r| r.get(0))
        .unwrap();
    let (status, body, headers) = live
        .call(
            reqwest::Method::POST,
            "/store-api/account/register",
            &ada,
            Some(json!({
                "guest": true, "email": "ada.guest@example.com", "firstName": "Ada", "lastName": "Guest",
                "acceptedDataProtection": true, "storefrontUrl": live.base,
                "billingAddress": {"street": "Side Street 2", "zipcode": "10115", "city": "Berlin", "countryId": country},
            })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let ada_checkout = As::Store(headers["sw-context-token"].to_str().unwrap().to_owned());
    let (status, ada_order) = live
        .post(
            "/store-api/checkout/order",
            &ada_checkout,
            json!({"tos": true}),
        )
        .await;
    assert_eq!(status, 200, "{ada_order}");
    // The emptied cart of her new session is still hers in the room.
    cart_told(&mut guide_socket, ada_id, 0.0).await;
    let (status, cleo_order) = live
        .post("/store-api/checkout/order", &cleo, json!({"tos": true}))
        .await;
    assert_eq!(status, 200, "{cleo_order}");
    cart_told(&mut guide_socket, cleo_id, 0.0).await;

    // Reactions right before the end: two hearts and a clap of Ada's, then her chat
    // message (her frames are taken in order: once it is posted, the taps are counted).
    for reaction in [Reaction::Heart, Reaction::Heart, Reaction::Clap] {
        send_action(&mut ada_socket, Action::SendReaction { reaction }).await;
    }
    send_action(
        &mut ada_socket,
        Action::SendChatMessage {
            text: "Thank you".into(),
        },
    )
    .await;
    wait_for(&mut ada_socket, |e| {
        matches!(
            e,
            Event::ChatMessagePosted { .. } | Event::ChatMessagesPosted { .. }
        )
        .then_some(())
    })
    .await;
    let (status, _) = live
        .post(
            &format!("/api/_action/dsr/appointment/{id}/end"),
            &guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 200);

    // At once after the end, every figure.
    let (status, report) = live.get(&path, &guide).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["attendees"], 3, "{report}");
    let joined: u64 = report["attendance"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["joined"].as_u64().unwrap())
        .sum();
    assert_eq!(joined, 3, "{report}");
    let window = |key: &str| {
        OffsetDateTime::parse(report["window"][key].as_str().unwrap(), &Rfc3339).unwrap()
    };
    let points = report["live"]["attendance"].as_array().unwrap();
    assert_eq!(report["live"]["viewers"]["peak"], 3, "{report}");
    let average = report["live"]["viewers"]["average"].as_f64().unwrap();
    assert_eq!(
        average,
        average_connected(points, window("from"), window("to")),
        "{report}"
    );
    assert!(
        average > 2.0 && average < 3.0,
        "two viewers all the time, three for a while: {report}"
    );
    assert_eq!(report["live"]["connectedNow"], 2, "{report}");
    assert_eq!(report["live"]["joinedNow"], 3, "{report}");

    // Likes and wishlist hearts apart.
    let name = |product: &str| {
        report["likes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["productId"] == product)
            .map(|l| l["name"].clone())
            .unwrap()
    };
    assert_eq!(
        report["likes"],
        json!([
            {"productId": p1, "name": name(p1), "likes": 2, "wishlist": 0},
            {"productId": p0, "name": name(p0), "likes": 1, "wishlist": 1},
        ]),
        "{report}"
    );
    // Cart additions: Bea's three still in her cart, Ada's and Cleo's ordered.
    assert_eq!(
        report["carts"],
        json!([
            {"productId": p0, "name": name(p0), "quantity": 3, "attendees": 1, "ordered": 1},
            {"productId": p1, "name": name(p1), "quantity": 0, "attendees": 0, "ordered": 3},
        ]),
        "{report}"
    );
    // Both orders, the guest's too, each once.
    let orders = report["orders"].as_array().unwrap();
    let numbers: Vec<(&Value, &Value, &Value)> = orders
        .iter()
        .map(|o| (&o["orderNumber"], &o["attendeeName"], &o["afterSession"]))
        .collect();
    assert_eq!(
        numbers,
        [
            (&ada_order["orderNumber"], &json!("Ada"), &json!(false)),
            (&cleo_order["orderNumber"], &json!("Cleo"), &json!(false)),
        ],
        "{report}"
    );
    assert_eq!(orders[0]["amountTotal"], ada_order["amountTotal"]);
    assert_eq!(orders[1]["amountTotal"], cleo_order["amountTotal"]);
    let revenue =
        ada_order["amountTotal"].as_f64().unwrap() + cleo_order["amountTotal"].as_f64().unwrap();
    let revenues = report["revenue"].as_array().unwrap();
    assert_eq!(revenues.len(), 1, "{report}");
    assert_eq!(revenues[0]["currency"], "EUR");
    assert!(
        (revenues[0]["amount"].as_f64().unwrap() - revenue).abs() < 0.005,
        "{report}"
    );
    assert_eq!(
        report["conversion"],
        json!({"attendees": 3, "buyers": 2, "rate": 2.0 / 3.0}),
        "{report}"
    );
    // The reactions of the last moment, in the sample taken as the session ended.
    assert_eq!(report["live"]["reactions"]["total"], 3, "{report}");
    assert_eq!(
        report["live"]["reactions"]["byKind"],
        json!({"heart": 2, "clap": 1, "laugh": 0, "wow": 0, "fire": 0}),
        "{report}"
    );
    let per_minute: u64 = report["live"]["reactions"]["perMinute"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["reactions"].as_u64().unwrap())
        .sum();
    assert_eq!(per_minute, 3, "{report}");
    // The cart value at the end: Bea's cart (the others became orders), as the carts say.
    let last_cart_value = report["live"]["cartValue"]
        .as_array()
        .and_then(|s| s.last())
        .map(|s| s["value"].as_f64().unwrap());
    assert_eq!(last_cart_value, Some(bea_total), "{report}");
    assert_eq!(report["live"]["chatMessages"], 1, "{report}");
}

#[tokio::test]
async fn the_report_names_the_appointment_in_the_requests_language() {
    let live = start().await;
    let (guide, id, _) = live.guide_joins("demo").await;
    let path = format!("/api/_action/dsr/appointment/{id}/report");
    let german = live.language_id("de-DE").await;
    let (status, report) = live.get_in(&path, &guide, &german).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        report["appointment"]["name"], "Herbstkollektion live",
        "{report}"
    );
    // Without a language: the sales channel's default language, English.
    let (status, report) = live.get(&path, &guide).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        report["appointment"]["name"], "Autumn collection live",
        "{report}"
    );
}
