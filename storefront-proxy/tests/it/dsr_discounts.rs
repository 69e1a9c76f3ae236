//! Discounts a guide gives an attendee (the document's temporary cart and cart
//! discounts): a real hub and a real storefront-proxy on a real SQLite file.

use crate::dsr_support;

use dsr_support::*;
use protocol::frame::Event;
use serde_json::{json, Value};

fn total(cart: &Value) -> f64 {
    cart["price"]["totalPrice"].as_f64().unwrap()
}

fn goods(cart: &Value) -> f64 {
    cart["price"]["positionPrice"].as_f64().unwrap()
}

fn line<'a>(cart: &'a Value, id: &str) -> Option<&'a Value> {
    cart["lineItems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == id)
}

fn product_total(cart: &Value, id: &str) -> f64 {
    line(cart, id).unwrap()["price"]["totalPrice"]
        .as_f64()
        .unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.015
}

#[tokio::test]
async fn a_guide_gives_an_attendee_a_discount_and_takes_it_back() {
    let live = start().await;
    let mut session = live.running_demo().await;
    let attendee = session.ada_join["attendeeId"].as_str().unwrap().to_owned();
    let products = live.product_ids(2).await;
    let items: Vec<Value> = products
        .iter()
        .map(|p| json!({"type": "product", "referencedId": p, "quantity": 2}))
        .collect();
    let (status, before) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &session.ada,
            json!({"items": items}),
        )
        .await;
    assert_eq!(status, 200, "{before}");
    let base = format!("/api/_action/dsr/appointment/attendee/{attendee}");
    let guide = session.guide.clone();

    // Not before the attendee granted cart access.
    for (path, body) in [
        ("load-temp-cart", None),
        (
            "add-temp-discount",
            Some(json!({"discountType": "percentage", "discountValue": 10, "appliedItemIds": []})),
        ),
        ("apply-temp-discount", Some(json!({}))),
        (
            "add-cart-discount",
            Some(json!({"discountType": "absolute", "discountValue": 5})),
        ),
    ] {
        let (status, answer) = match body {
            None => live.get(&format!("{base}/{path}"), &guide).await,
            Some(body) => live.post(&format!("{base}/{path}"), &guide, body).await,
        };
        assert_error(
            &answer,
            403,
            "DIGITAL_SALES_ROOMS__ATTENDEE_CART_PERMISSION_MISSING",
        );
        assert_eq!(status, 403, "{path}");
    }
    grant_cart_permission(&mut session.ada_socket).await;

    // A draft of 10 % on the first product: the temporary cart shows it, the cart not.
    let (status, temp) = live
        .post(
            &format!("{base}/add-temp-discount"),
            &guide,
            json!({"discountType": "percentage", "discountValue": 10, "appliedItemIds": [products[0]]}),
        )
        .await;
    assert_eq!(status, 200, "{temp}");
    let off = (product_total(&before, &products[0]) * 0.1 * 100.0).round() / 100.0;
    let draft = line(&temp, "dsr-temp-discount").expect("the draft's line");
    assert_eq!(draft["type"], "discount");
    assert!(
        close(draft["price"]["totalPrice"].as_f64().unwrap(), -off),
        "{draft}"
    );
    assert!(close(total(&temp), total(&before) - off), "{temp}");
    let (_, own) = live.get("/store-api/checkout/cart", &session.ada).await;
    assert!(
        close(total(&own), total(&before)),
        "the attendee's cart is untouched: {own}"
    );
    let (_, loaded) = live.get(&format!("{base}/load-temp-cart"), &guide).await;
    assert!(close(total(&loaded), total(&temp)), "{loaded}");

    // Applied: the attendee's cart carries it, the draft is gone, the guide hears of it.
    let (status, applied) = live
        .post(&format!("{base}/apply-temp-discount"), &guide, json!({}))
        .await;
    assert_eq!(status, 200, "{applied}");
    assert!(
        line(&applied, "dsr-discount").is_some() && line(&applied, "dsr-temp-discount").is_none(),
        "{applied}"
    );
    let (_, own) = live.get("/store-api/checkout/cart", &session.ada).await;
    assert!(close(total(&own), total(&before) - off), "{own}");
    // (The guide heard of the add to cart first.)
    let expected = total(&before) - off;
    wait_for(&mut session.guide_socket, |e| match e {
        Event::AttendeeCartChanged {
            attendee_id,
            total_price,
            ..
        } if *attendee_id == attendee && close(*total_price, expected) => Some(()),
        _ => None,
    })
    .await;
    let (_, loaded) = live.get(&format!("{base}/load-temp-cart"), &guide).await;
    assert!(line(&loaded, "dsr-temp-discount").is_none(), "{loaded}");

    // A cart discount larger than the goods: the goods go to zero, never below.
    let (status, all) = live
        .post(
            &format!("{base}/add-cart-discount"),
            &guide,
            json!({"discountType": "absolute", "discountValue": 999999}),
        )
        .await;
    assert_eq!(status, 200, "{all}");
    assert!(close(goods(&all), 0.0), "{all}");
    assert!(total(&all) >= 0.0, "{all}");
    assert_eq!(
        all["lineItems"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["type"] == "discount")
            .count(),
        1,
        "one discount replaces the other"
    );
    let (status, half) = live
        .post(
            &format!("{base}/add-cart-discount"),
            &guide,
            json!({"discountType": "percentage", "discountValue": 50}),
        )
        .await;
    assert_eq!(status, 200, "{half}");
    assert!(close(goods(&half), goods(&before) / 2.0), "{half}");

    // Refusals name the field and change nothing.
    for (path, body, pointer) in [
        (
            "add-cart-discount",
            json!({"discountType": "percentage", "discountValue": 101}),
            "/discountValue",
        ),
        (
            "add-cart-discount",
            json!({"discountType": "absolute", "discountValue": -1}),
            "/discountValue",
        ),
        (
            "add-cart-discount",
            json!({"discountType": "absolute", "discountValue": 1000001}),
            "/discountValue",
        ),
        (
            "add-cart-discount",
            json!({"discountType": "half", "discountValue": 1}),
            "/discountType",
        ),
        (
            "add-cart-discount",
            json!({"discountType": "absolute", "discountValue": "5"}),
            "/discountValue",
        ),
        (
            "add-temp-discount",
            json!({"discountType": "absolute", "discountValue": 1}),
            "/appliedItemIds",
        ),
        (
            "add-temp-discount",
            json!({"discountType": "absolute", "discountValue": 1, "appliedItemIds": ["nope"]}),
            "/appliedItemIds/0",
        ),
        (
            "add-temp-discount",
            json!({"discountType": "absolute", "discountValue": 1, "appliedItemIds": ["e".repeat(32)]}),
            "/appliedItemIds/0",
        ),
    ] {
        let (status, answer) = live
            .post(&format!("{base}/{path}"), &guide, body.clone())
            .await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(
            answer["errors"][0]["source"]["pointer"], pointer,
            "{body}: {answer}"
        );
    }
    let (_, own) = live.get("/store-api/checkout/cart", &session.ada).await;
    assert!(close(total(&own), total(&half)), "{own}");

    // The shopper cannot take the guide's discount out or change its quantity.
    let (status, answer) = live
        .post(
            "/store-api/checkout/cart/line-item/delete",
            &session.ada,
            json!({"ids": ["dsr-discount"]}),
        )
        .await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(
        answer["errors"][0]["code"], "CHECKOUT__CART_LINE_ITEM_NOT_REMOVABLE",
        "{answer}"
    );
    let (status, answer) = live
        .send_raw(
            reqwest::Method::DELETE,
            "/store-api/checkout/cart/line-item?ids[]=dsr-discount",
            &session.ada,
            "",
        )
        .await;
    assert_eq!(status, 400, "{answer}");
    let (status, answer) = live
        .patch(
            "/store-api/checkout/cart/line-item",
            &session.ada,
            json!({"items": [{"id": "dsr-discount", "quantity": 5}]}),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        line(&answer, "dsr-discount").unwrap()["quantity"],
        1,
        "{answer}"
    );
    let (_, own) = live.get("/store-api/checkout/cart", &session.ada).await;
    assert!(close(total(&own), total(&half)), "nothing changed: {own}");

    // Removed (a value of 0): the price is back.
    let (status, back) = live
        .post(
            &format!("{base}/add-cart-discount"),
            &guide,
            json!({"discountType": "absolute", "discountValue": 0}),
        )
        .await;
    assert_eq!(status, 200, "{back}");
    assert!(close(total(&back), total(&before)), "{back}");
    assert!(line(&back, "dsr-discount").is_none());
    // A draft removed: the temporary cart is the cart again.
    let body = json!({"discountType": "absolute", "discountValue": 3, "appliedItemIds": []});
    let (_, temp) = live
        .post(&format!("{base}/add-temp-discount"), &guide, body)
        .await;
    assert!(close(total(&temp), total(&before) - 3.0), "{temp}");
    let (status, temp) = live
        .post(&format!("{base}/remove-temp-discount"), &guide, json!({}))
        .await;
    assert_eq!(status, 200, "{temp}");
    assert!(close(total(&temp), total(&before)), "{temp}");

    // Guides only; attendees that exist; not the guide's own attendee record.
    let (status, _) = live
        .get(&format!("{base}/load-temp-cart"), &As::Nobody)
        .await;
    assert_eq!(status, 401);
    let (status, answer) = live
        .get(
            &format!(
                "/api/_action/dsr/appointment/attendee/{}/load-temp-cart",
                "c".repeat(32)
            ),
            &guide,
        )
        .await;
    assert_error(&answer, 404, "DIGITAL_SALES_ROOMS__ATTENDEE_NOT_FOUND");
    assert_eq!(status, 404);
}
