//! Shopping lists (the Store API's B2B shopping lists) for logged-in customers, the
//! lists a guide shares into an appointment, and the DSR "default info updated" mark:
//! a real storefront-proxy and hub over a real SQLite file; in upstream mode a second
//! proxy forwards to the first. Every refusal is checked to change nothing.

use crate::dsr_support;

use dsr_support::*;
use reqwest::Method;
use serde_json::{json, Value};
use storefront_proxy::shopping_list::{MAX_LINE_ITEMS, MAX_LISTS, MAX_NAME, MAX_QUANTITY};

/// What the tables hold: (lists, line items, sum of quantities).
fn stored(live: &Live) -> (i64, i64, i64) {
    live.db()
        .query_row(
            "SELECT (SELECT COUNT(*) FROM shopping_list), (SELECT COUNT(*) FROM shopping_list_line_item),
                    (SELECT COALESCE(SUM(quantity), 0) FROM shopping_list_line_item)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap()
}

async fn delete(live: &Live, path: &str, who: &As, body: Value) -> (u16, Value) {
    let (status, body, _) = live.call(Method::DELETE, path, who, Some(body)).await;
    (status, body)
}

async fn create(live: &Live, who: &As, body: Value) -> String {
    let (status, created) = live.post("/store-api/shopping-list", who, body).await;
    assert_eq!(status, 201, "{created}");
    created["id"].as_str().unwrap().to_owned()
}

async fn read(live: &Live, who: &As, id: &str) -> Value {
    let (status, list) = live
        .post(&format!("/store-api/shopping-list/{id}"), who, json!({}))
        .await;
    assert_eq!(status, 200, "{list}");
    list
}

fn quantities(list: &Value) -> Vec<(String, i64)> {
    list["lineItems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            (
                item["productId"].as_str().unwrap().to_owned(),
                item["quantity"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_customer_keeps_shopping_lists_and_puts_them_in_the_cart() {
    let live = start().await;
    let products = live.product_ids(3).await;
    let (p0, p1, p2) = (&products[0], &products[1], &products[2]);
    let customer = As::Store(live.customer_login().await);

    // Without an account: refused, nothing stored.
    for who in [
        live.storefront_session().await,
        token_of(&live.join_as_client("demo", &As::Nobody, "Ada").await),
    ] {
        let (status, refused) = live
            .post("/store-api/shopping-list", &who, json!({"name": "Mine"}))
            .await;
        assert_eq!(status, 403, "{refused}");
        assert_error(&refused, 403, "CHECKOUT__CUSTOMER_NOT_LOGGED_IN");
        let (status, refused) = live
            .post("/store-api/shopping-lists", &who, json!({}))
            .await;
        assert_eq!(status, 403, "{refused}");
    }
    assert_eq!(stored(&live), (0, 0, 0));

    let id = create(
        &live,
        &customer,
        json!({"name": " Office ", "lineItems": {"a": {"id": p0, "quantity": 2}}}),
    )
    .await;
    let list = read(&live, &customer, &id).await;
    assert_eq!(list["name"], "Office");
    assert_eq!(list["apiAlias"], "b2b_components_shopping_list");
    for field in ["id", "salesChannelId", "customerId", "createdAt"] {
        assert!(list[field].is_string(), "{field} in {list}");
    }
    assert_eq!(
        list["lineItems"][0]["apiAlias"],
        "b2b_components_shopping_list_line_item"
    );
    assert!(list["lineItems"][0]["id"].is_string());
    assert_eq!(quantities(&list), vec![(p0.clone(), 2)]);

    // Bad bodies: each refused in the error shape, nothing changed.
    let parent: String = live
        .db()
        .query_row("SELECT p.id FROM product p WHERE EXISTS (SELECT 1 FROM product c WHERE c.parent_id = p.id) LIMIT 1", [], |r| r.get(0))
        .unwrap();
    let long_name = "x".repeat(MAX_NAME + 1);
    let too_many: serde_json::Map<String, Value> = (0..101)
        .map(|i| (format!("k{i}"), json!({"id": p0, "quantity": 1})))
        .collect();
    for (body, status, code) in [
        (json!({}), 400, "B2B__SHOPPING_LIST_INVALID_NAME"),
        (
            json!({"name": "   "}),
            400,
            "B2B__SHOPPING_LIST_INVALID_NAME",
        ),
        (
            json!({"name": long_name}),
            400,
            "B2B__SHOPPING_LIST_INVALID_NAME",
        ),
        (json!({"name": 5}), 400, "B2B__SHOPPING_LIST_INVALID_NAME"),
        (
            json!({"name": "L", "lineItems": "x"}),
            400,
            "B2B__SHOPPING_LIST_INVALID_LINE_ITEMS",
        ),
        (
            json!({"name": "L", "lineItems": {"a": {"id": "nope", "quantity": 1}}}),
            400,
            "B2B__SHOPPING_LIST_INVALID_LINE_ITEMS",
        ),
        (
            json!({"name": "L", "lineItems": {"a": {"id": p0, "quantity": 0}}}),
            400,
            "B2B__SHOPPING_LIST_INVALID_QUANTITY",
        ),
        (
            json!({"name": "L", "lineItems": {"a": {"id": p0, "quantity": MAX_QUANTITY + 1}}}),
            400,
            "B2B__SHOPPING_LIST_INVALID_QUANTITY",
        ),
        (
            json!({"name": "L", "lineItems": {"a": {"id": p0, "quantity": 1.5}}}),
            400,
            "B2B__SHOPPING_LIST_INVALID_QUANTITY",
        ),
        (
            json!({"name": "L", "lineItems": too_many}),
            400,
            "B2B__SHOPPING_LIST_INVALID_LINE_ITEMS",
        ),
        (
            json!({"name": "L", "lineItems": {"a": {"id": "f".repeat(32), "quantity": 1}}}),
            404,
            "CONTENT__PRODUCT_NOT_FOUND",
        ),
        (
            json!({"name": "L", "lineItems": {"a": {"id": parent, "quantity": 1}}}),
            404,
            "CONTENT__PRODUCT_NOT_FOUND",
        ),
    ] {
        let (got, refused) = live
            .post("/store-api/shopping-list", &customer, body.clone())
            .await;
        assert_eq!(got, status, "{body}: {refused}");
        assert_error(&refused, status, code);
    }
    let (status, refused) = live
        .send_raw(
            Method::POST,
            "/store-api/shopping-list",
            &customer,
            "{\"name\": ",
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_error(&refused, 400, "FRAMEWORK__INVALID_REQUEST_BODY");
    let huge = format!("{{\"name\": \"{}\"}}", "x".repeat(3 * 1024 * 1024));
    let (status, refused) = live
        .send_raw(Method::POST, "/store-api/shopping-list", &customer, &huge)
        .await;
    assert_eq!(status, 413, "{refused}");
    assert!(refused["errors"][0]["code"].is_string(), "{refused}");
    assert_eq!(stored(&live), (1, 1, 2));

    // Adding: the same product's quantities add up; past the limit, refused whole.
    let add = format!("/store-api/shopping-list/{id}/add");
    let (status, body) = live
        .post(
            &add,
            &customer,
            json!({"lineItems": {"x": {"id": p1, "quantity": 3}, "y": {"id": p0, "quantity": 1}}}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(
        quantities(&read(&live, &customer, &id).await),
        vec![(p0.clone(), 3), (p1.clone(), 3)]
    );
    let over = json!({"lineItems": {"x": {"id": p2, "quantity": 1}, "y": {"id": p0, "quantity": MAX_QUANTITY - 2}}});
    let (status, refused) = live.post(&add, &customer, over).await;
    assert_eq!(status, 400, "{refused}");
    assert_error(&refused, 400, "B2B__SHOPPING_LIST_INVALID_QUANTITY");
    let (status, refused) = live.post(&add, &customer, json!({})).await;
    assert_eq!(status, 400, "{refused}");
    assert_error(&refused, 400, "B2B__SHOPPING_LIST_INVALID_LINE_ITEMS");
    assert_eq!(stored(&live), (1, 2, 6));

    // Quantity and name.
    let line_id = read(&live, &customer, &id).await["lineItems"][1]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let change = format!("/store-api/shopping-list/line-item/{line_id}/change-quantity");
    for quantity in [
        json!(0),
        json!(MAX_QUANTITY + 1),
        json!("many"),
        Value::Null,
    ] {
        let (status, refused) = live
            .post(&change, &customer, json!({"quantity": quantity}))
            .await;
        assert_eq!(status, 400, "{quantity}: {refused}");
        assert_error(&refused, 400, "B2B__SHOPPING_LIST_INVALID_QUANTITY");
    }
    let (status, body) = live.post(&change, &customer, json!({"quantity": 5})).await;
    assert_eq!(status, 204, "{body}");
    let (status, refused) = live
        .patch(
            &format!("/store-api/shopping-list/{id}/change-name"),
            &customer,
            json!({"name": ""}),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    let (status, body) = live
        .patch(
            &format!("/store-api/shopping-list/{id}/change-name"),
            &customer,
            json!({"name": "Workshop"}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    let list = read(&live, &customer, &id).await;
    assert_eq!(list["name"], "Workshop");
    assert_eq!(quantities(&list), vec![(p0.clone(), 3), (p1.clone(), 5)]);

    // Another customer sees none of it and changes none of it.
    let zoe = live.register_zoe().await;
    let (status, lists) = live
        .post("/store-api/shopping-lists", &zoe, json!({}))
        .await;
    assert_eq!(status, 200, "{lists}");
    assert_eq!(lists["total"], 0);
    for (method, path, body) in [
        (
            Method::POST,
            format!("/store-api/shopping-list/{id}"),
            json!({}),
        ),
        (
            Method::POST,
            add.clone(),
            json!({"lineItems": {"x": {"id": p2, "quantity": 1}}}),
        ),
        (
            Method::PATCH,
            format!("/store-api/shopping-list/{id}/change-name"),
            json!({"name": "Mine now"}),
        ),
        (
            Method::POST,
            format!("/store-api/shopping-list/{id}/duplicate"),
            json!({"name": "Copy"}),
        ),
        (
            Method::GET,
            format!("/store-api/shopping-list/{id}/summary"),
            Value::Null,
        ),
        (
            Method::POST,
            "/store-api/shopping-lists/add-to-cart".to_owned(),
            json!({"ids": [id]}),
        ),
        (
            Method::DELETE,
            "/store-api/shopping-list".to_owned(),
            json!({"ids": [id]}),
        ),
        (Method::POST, change.clone(), json!({"quantity": 1})),
        (
            Method::POST,
            "/store-api/shopping-list/line-item/remove".to_owned(),
            json!({"ids": [line_id]}),
        ),
    ] {
        let body = (!body.is_null()).then_some(body);
        let (status, refused, _) = live.call(method.clone(), &path, &zoe, body).await;
        assert_eq!(status, 404, "{method} {path}: {refused}");
        let code = refused["errors"][0]["code"].as_str().unwrap();
        assert!(code.starts_with("B2B__SHOPPING_LIST"), "{code}");
    }
    assert_eq!(stored(&live), (1, 2, 8));
    assert_eq!(read(&live, &customer, &id).await["name"], "Workshop");

    // Duplicate, list, paging.
    let (status, copy) = live
        .post(
            &format!("/store-api/shopping-list/{id}/duplicate"),
            &customer,
            json!({"name": "Copy"}),
        )
        .await;
    assert_eq!(status, 200, "{copy}");
    let copy_id = copy["id"].as_str().unwrap().to_owned();
    assert_eq!(
        quantities(&read(&live, &customer, &copy_id).await),
        vec![(p0.clone(), 3), (p1.clone(), 5)]
    );
    let (status, lists) = live
        .post(
            "/store-api/shopping-lists",
            &customer,
            json!({"limit": 1, "page": 2}),
        )
        .await;
    assert_eq!(status, 200, "{lists}");
    assert_eq!(lists["total"], 2);
    assert_eq!(lists["elements"].as_array().unwrap().len(), 1);
    assert_eq!(
        lists["elements"][0]["id"],
        id.as_str(),
        "newest first: the original is on page 2"
    );
    let (status, refused) = live
        .post("/store-api/shopping-lists", &customer, json!({"limit": 0}))
        .await;
    assert_eq!(status, 400, "{refused}");
    let (status, with_products) = live
        .post(
            &format!("/store-api/shopping-list/{id}"),
            &customer,
            json!({"associations": {"lineItems": {"associations": {"product": {}}}}}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(with_products["lineItems"][0]["product"]["id"], p0.as_str());

    // Removing line items: by id, or by product of a list; an unknown one removes nothing.
    let remove = "/store-api/shopping-list/line-item/remove";
    let copy_line = read(&live, &customer, &copy_id).await["lineItems"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, refused) = live
        .post(
            remove,
            &customer,
            json!({"ids": [copy_line, "f".repeat(32)]}),
        )
        .await;
    assert_eq!(status, 404, "{refused}");
    assert_error(&refused, 404, "B2B__SHOPPING_LIST_LINE_ITEM_NOT_FOUND");
    let (status, refused) = live
        .post(remove, &customer, json!({"productIds": [p0]}))
        .await;
    assert_eq!(status, 400, "{refused}");
    let (status, refused) = live.post(remove, &customer, json!({})).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(stored(&live), (2, 4, 16));
    let (status, body) = live
        .post(remove, &customer, json!({"ids": [copy_line]}))
        .await;
    assert_eq!(status, 204, "{body}");
    let (status, body) = live
        .post(
            remove,
            &customer,
            json!({"productIds": [p1], "listId": copy_id}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    assert!(quantities(&read(&live, &customer, &copy_id).await).is_empty());

    // Summary: priced like a cart, the customer's cart untouched.
    let (status, summary) = live
        .get(&format!("/store-api/shopping-list/{id}/summary"), &customer)
        .await;
    assert_eq!(status, 200, "{summary}");
    assert!(
        summary["price"]["positionPrice"].as_f64().unwrap() > 0.0,
        "{summary}"
    );
    assert!(
        summary["price"]["totalPrice"].is_number() && summary["price"]["netPrice"].is_number(),
        "{summary}"
    );
    assert!(summary["price"]["taxStatus"].is_string(), "{summary}");
    let (_, cart) = live.get("/store-api/checkout/cart", &customer).await;
    assert!(cart["lineItems"].as_array().unwrap().is_empty(), "{cart}");

    // Into the cart: every line, twice means twice the quantities.
    let (status, refused) = live
        .post(
            "/store-api/shopping-lists/add-to-cart",
            &customer,
            json!({"ids": [id, "f".repeat(32)]}),
        )
        .await;
    assert_eq!(status, 404, "{refused}");
    let (_, cart) = live.get("/store-api/checkout/cart", &customer).await;
    assert!(
        cart["lineItems"].as_array().unwrap().is_empty(),
        "a refusal put nothing in the cart: {cart}"
    );
    let (status, body) = live
        .post(
            "/store-api/shopping-lists/add-to-cart",
            &customer,
            json!({"ids": [id, copy_id]}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    let (_, cart) = live.get("/store-api/checkout/cart", &customer).await;
    let mut in_cart: Vec<(String, i64)> = cart["lineItems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            (
                item["referencedId"].as_str().unwrap().to_owned(),
                item["quantity"].as_i64().unwrap(),
            )
        })
        .collect();
    in_cart.sort();
    let mut expected = vec![(p0.clone(), 3), (p1.clone(), 5)];
    expected.sort();
    assert_eq!(in_cart, expected);

    // Deleting: all named lists, or none.
    let (status, refused) = delete(
        &live,
        "/store-api/shopping-list",
        &customer,
        json!({"ids": [copy_id, "f".repeat(32)]}),
    )
    .await;
    assert_eq!(status, 404, "{refused}");
    let (status, refused) = delete(
        &live,
        "/store-api/shopping-list",
        &customer,
        json!({"ids": []}),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    assert_error(&refused, 400, "B2B__SHOPPING_LIST_INVALID_IDS");
    assert_eq!(stored(&live).0, 2);
    let (status, body) = delete(
        &live,
        "/store-api/shopping-list",
        &customer,
        json!({"ids": [copy_id]}),
    )
    .await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(stored(&live), (1, 2, 8));
}

#[tokio::test]
async fn lists_and_their_lines_stop_at_their_limits() {
    let live = start().await;
    let customer = As::Store(live.customer_login().await);
    let product = live.product_ids(1).await.remove(0);
    let first = create(&live, &customer, json!({"name": "List 0"})).await;
    for n in 1..MAX_LISTS {
        create(&live, &customer, json!({"name": format!("List {n}")})).await;
    }
    for (path, body) in [
        (
            "/store-api/shopping-list".to_owned(),
            json!({"name": "One too many"}),
        ),
        (
            format!("/store-api/shopping-list/{first}/duplicate"),
            json!({"name": "One too many"}),
        ),
    ] {
        let (status, refused) = live.post(&path, &customer, body).await;
        assert_eq!(status, 400, "{refused}");
        assert_error(&refused, 400, "B2B__SHOPPING_LIST_LIMIT_REACHED");
    }
    assert_eq!(stored(&live).0, MAX_LISTS as i64);

    // A full list: its lines written straight into the file, one product more is refused.
    let buyable: Vec<String> = {
        let db = live.db();
        let mut statement = db
            .prepare(
                "SELECT p.id FROM product p WHERE p.active = 1 AND NOT EXISTS (SELECT 1 FROM product c WHERE c.parent_id = p.id)
                 AND p.id <> ?1 LIMIT ?2",
            )
            .unwrap();
        statement
            .query_map(rusqlite::params![product, MAX_LINE_ITEMS as i64], |r| {
                r.get(0)
            })
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(
        buyable.len(),
        MAX_LINE_ITEMS,
        "the demo has enough products"
    );
    {
        let db = live.db();
        for (position, id) in buyable.iter().enumerate() {
            db.execute(
                "INSERT INTO shopping_list_line_item (id, shopping_list_id, product_id, quantity, position, created_at)
                 VALUES (lower(hex(randomblob(16))), ?1, ?2, 1, ?3, '2026-01-01T00:00:00Z')",
                rusqlite::params![first, id, position as i64],
            )
            .unwrap();
        }
    }
    let before = stored(&live);
    let (status, refused) = live
        .post(
            &format!("/store-api/shopping-list/{first}/add"),
            &customer,
            json!({"lineItems": {"a": {"id": product, "quantity": 1}}}),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_error(&refused, 400, "B2B__SHOPPING_LIST_LINE_ITEM_LIMIT_REACHED");
    // A product already on it still adds up.
    let (status, body) = live
        .post(
            &format!("/store-api/shopping-list/{first}/add"),
            &customer,
            json!({"lineItems": {"a": {"id": buyable[0], "quantity": 2}}}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(stored(&live), (before.0, before.1, before.2 + 2));
}

#[tokio::test]
async fn a_guide_shares_a_shopping_list_into_the_appointment() {
    let live = start().await;
    let products = live.product_ids(2).await;
    let customer = As::Store(live.customer_login().await);
    let list = create(
        &live,
        &customer,
        json!({"name": "For the room", "lineItems": {"a": {"id": products[0], "quantity": 2}, "b": {"id": products[1], "quantity": 1}}}),
    )
    .await;
    let (guide, appointment, _) = live.guide_joins("demo").await;
    let attendee = token_of(&live.join_as_client("demo", &As::Nobody, "Ada").await);
    let load = format!("/store-api/dsr/appointment/{appointment}/shopping-lists");
    let share = format!("/api/_action/dsr/appointment/{appointment}/shopping-lists/{list}");
    let shared = || {
        live.db()
            .query_row(
                "SELECT COUNT(*) FROM dsr_appointment_shopping_list",
                [],
                |r| r.get::<_, i64>(0),
            )
            .unwrap()
    };

    let (status, empty) = live.get(&load, &attendee).await;
    assert_eq!(status, 200, "{empty}");
    assert_eq!(
        empty,
        json!({"apiAlias": "dsr.appointment.load-shopping-lists", "data": {}})
    );

    // Refused shares change nothing.
    let other_list = "f".repeat(32);
    for (path, who, status, code) in [
        (share.clone(), As::Nobody, 401, None),
        (share.clone(), attendee.clone(), 401, None),
        (
            format!("/api/_action/dsr/appointment/{appointment}/shopping-lists/{other_list}"),
            guide.clone(),
            404,
            Some("B2B__SHOPPING_LIST_NOT_FOUND"),
        ),
        (
            format!("/api/_action/dsr/appointment/{other_list}/shopping-lists/{list}"),
            guide.clone(),
            404,
            Some("DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_FOUND"),
        ),
        (
            format!("/api/_action/dsr/appointment/not-an-id/shopping-lists/{list}"),
            guide.clone(),
            400,
            Some("FRAMEWORK__INVALID_UUID"),
        ),
    ] {
        let (got, refused) = live.post(&path, &who, json!({})).await;
        assert_eq!(got, status, "{path}: {refused}");
        assert!(refused["errors"][0]["code"].is_string(), "{refused}");
        if let Some(code) = code {
            assert_error(&refused, status, code);
        }
    }
    assert_eq!(shared(), 0);

    let (status, answer) = live.post(&share, &guide, json!({})).await;
    assert_eq!(status, 200, "{answer}");
    let expected =
        json!({(products[0].clone()): {"quantity": 2}, (products[1].clone()): {"quantity": 1}});
    assert_eq!(answer, json!({"data": expected}));
    let (status, loaded) = live.get(&load, &attendee).await;
    assert_eq!(status, 200, "{loaded}");
    assert_eq!(
        loaded,
        json!({"apiAlias": "dsr.appointment.load-shopping-lists", "data": expected})
    );

    // Only attendees of this appointment read it.
    let elsewhere = token_of(
        &live
            .join_as_client("demo-customers", &customer, "Cleo")
            .await,
    );
    for who in [elsewhere, As::Nobody, live.storefront_session().await] {
        let (status, refused) = live.get(&load, &who).await;
        assert_eq!(status, 403, "{refused}");
        assert_error(&refused, 403, "DIGITAL_SALES_ROOMS__ATTENDEE_NOT_FOUND");
    }

    // Sharing again replaces it; a later change of the list needs a new share.
    let change = format!("/store-api/shopping-list/{list}/add");
    let (status, body) = live
        .post(
            &change,
            &customer,
            json!({"lineItems": {"a": {"id": products[0], "quantity": 5}}}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    let (_, loaded) = live.get(&load, &attendee).await;
    assert_eq!(loaded["data"][&products[0]]["quantity"], 2);
    let (_, answer) = live.post(&share, &guide, json!({})).await;
    assert_eq!(answer["data"][&products[0]]["quantity"], 7);
    assert_eq!(shared(), 2);
}

#[tokio::test]
async fn a_customer_marks_their_default_info_as_updated_once() {
    let live = start().await;
    let path = "/store-api/dsr/account/update-default-info";
    let customer = As::Store(live.customer_login().await);
    let marked = || {
        live.db()
            .query_row(
                "SELECT COUNT(dsr_default_info_updated_at) FROM customer",
                [],
                |r| r.get::<_, i64>(0),
            )
            .unwrap()
    };
    let (_, before) = live
        .post("/store-api/account/customer", &customer, json!({}))
        .await;
    assert_eq!(before["customFields"], Value::Null);

    for who in [
        As::Nobody,
        live.storefront_session().await,
        token_of(&live.join_as_client("demo", &As::Nobody, "Ada").await),
    ] {
        let (status, refused) = live.post(path, &who, json!({})).await;
        assert_eq!(status, 403, "{refused}");
        assert_error(&refused, 403, "CHECKOUT__CUSTOMER_NOT_LOGGED_IN");
    }
    assert_eq!(marked(), 0);

    let (status, answer) = live.post(path, &customer, json!({})).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["success"], true);
    let (_, after) = live
        .post("/store-api/account/customer", &customer, json!({}))
        .await;
    let at = after["customFields"]["dsrDefaultInfoUpdatedAt"]
        .as_str()
        .expect("marked")
        .to_owned();
    // Once: a second call keeps the first time.
    let (status, _) = live.post(path, &customer, json!({})).await;
    assert_eq!(status, 200);
    let (_, again) = live
        .post("/store-api/account/customer", &customer, json!({}))
        .await;
    assert_eq!(
        again["customFields"]["dsrDefaultInfoUpdatedAt"],
        at.as_str()
    );
    assert_eq!(marked(), 1);
}

#[tokio::test]
async fn in_upstream_mode_the_upstream_keeps_lists_shares_and_marks() {
    let upstream = start().await;
    let dir = tempfile::tempdir().unwrap();
    let base = serve_with(dir.path(), upstream.hub_port, SECRET, |config| {
        storefront_proxy::Config {
            upstream_url: Some(upstream.base.clone()),
            ..config
        }
    })
    .await;
    let forwarding = Live {
        base,
        hub_port: upstream.hub_port,
        http: reqwest::Client::new(),
        dir,
    };
    let product = forwarding.product_ids(1).await.remove(0);
    let customer = As::Store(forwarding.customer_login().await);
    let list = create(
        &forwarding,
        &customer,
        json!({"name": "Forwarded", "lineItems": {"a": {"id": product, "quantity": 4}}}),
    )
    .await;
    assert_eq!(stored(&upstream), (1, 1, 4), "the upstream keeps the list");
    let (status, lists) = forwarding
        .post("/store-api/shopping-lists", &customer, json!({}))
        .await;
    assert_eq!(status, 200, "{lists}");
    assert_eq!(lists["total"], 1);

    let (guide, appointment, _) = forwarding.guide_joins("demo").await;
    let attendee = token_of(&forwarding.join_as_client("demo", &As::Nobody, "Ada").await);
    let (status, answer) = forwarding
        .post(
            &format!("/api/_action/dsr/appointment/{appointment}/shopping-lists/{list}"),
            &guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let (status, loaded) = forwarding
        .get(
            &format!("/store-api/dsr/appointment/{appointment}/shopping-lists"),
            &attendee,
        )
        .await;
    assert_eq!(status, 200, "{loaded}");
    assert_eq!(loaded["data"][&product]["quantity"], 4);

    let (status, body) = forwarding
        .post(
            "/store-api/dsr/account/update-default-info",
            &customer,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let marked: i64 = upstream
        .db()
        .query_row(
            "SELECT COUNT(dsr_default_info_updated_at) FROM customer",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(marked, 1);
}
