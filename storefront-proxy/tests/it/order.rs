//! Orders against a real shop over a real SQLite file: checkout from the cart (with the
//! promotion, stock, address checks), the order list, invoices as PDF, paying online
//! through the hosted page, downloads, cancelling, changing the payment method, other
//! customers' orders, refusals of bad input, guests, and a restart.

use crate::admin_support;
use crate::common;

use common::{assert_error, elements, start, start_in, Shop};
use reqwest::Method;
use serde_json::{json, Value};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.011
}

/// The shop's SQLite file, for checks and for changes no store API call can make.
fn db(shop: &Shop) -> rusqlite::Connection {
    rusqlite::Connection::open(shop.dir.path().join("shop.sqlite")).unwrap()
}

fn count(shop: &Shop, table: &str) -> i64 {
    db(shop)
        .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

/// Rows of every order table, to show that a refused request wrote nothing.
fn order_rows(shop: &Shop) -> Vec<i64> {
    [
        "shop_order",
        "order_line_item",
        "order_address",
        "order_transaction",
        "order_delivery",
        "order_document",
        "order_line_item_download",
        "payment_token",
    ]
    .iter()
    .map(|t| count(shop, t))
    .collect()
}

async fn call(
    shop: &Shop,
    method: Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let (status, body, _) = shop
        .call(method, path, &[("sw-context-token", token)], body)
        .await;
    (status, body)
}

async fn post(shop: &Shop, path: &str, token: &str, body: Value) -> (u16, Value) {
    call(shop, Method::POST, path, token, Some(body)).await
}

async fn country(shop: &Shop, iso: &str) -> String {
    let (_, countries) = shop.post("/country", json!({})).await;
    elements(&countries)
        .into_iter()
        .find(|c| c["iso"] == iso)
        .unwrap_or_else(|| panic!("no {iso}"))["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Registers a customer (or a guest) in Germany; answers the session token.
async fn register(shop: &Shop, email: &str, guest: bool) -> String {
    let germany = country(shop, "DE").await;
    let mut body = json!({
        "email": email, "firstName": "Ada", "lastName": "Lovelace", "acceptedDataProtection": true, "storefrontUrl": shop.base,
        "billingAddress": {"street": "Main Street 1", "zipcode": "80331", "city": "Munich", "countryId": germany},
    });
    if guest {
        body["guest"] = json!(true);
    } else {
        body["password"] = json!("correct horse battery");
    }
    let (status, customer, headers) = shop
        .call(Method::POST, "/account/register", &[], Some(body))
        .await;
    assert_eq!(status, 200, "{customer}");
    headers["sw-context-token"].to_str().unwrap().to_owned()
}

async fn login_demo(shop: &Shop) -> String {
    let (status, body, headers) = shop
        .call(
            Method::POST,
            "/account/login",
            &[],
            Some(json!({"username": "demo@example.com", "password": "salesroom"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    headers["sw-context-token"].to_str().unwrap().to_owned()
}

async fn product(shop: &Shop, number: &str) -> Value {
    let (_, found) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "equals", "field": "productNumber", "value": number}]}),
        )
        .await;
    elements(&found)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no {number}"))
}

async fn stock(shop: &Shop, number: &str) -> (i64, i64) {
    let p = product(shop, number).await;
    (
        p["stock"].as_i64().unwrap(),
        p["availableStock"].as_i64().unwrap(),
    )
}

fn digital_product_id(shop: &Shop) -> String {
    db(shop)
        .query_row("SELECT id FROM product WHERE type = 'digital'", [], |r| {
            r.get(0)
        })
        .unwrap()
}

async fn add(shop: &Shop, token: &str, items: Value) -> Value {
    let (status, cart) = post(
        shop,
        "/checkout/cart/line-item",
        token,
        json!({ "items": items }),
    )
    .await;
    assert_eq!(status, 200, "{cart}");
    cart
}

async fn payment_method(shop: &Shop, technical_name: &str) -> String {
    let (_, methods) = shop.get("/payment-method", &[]).await;
    elements(&methods)
        .into_iter()
        .find(|m| m["technicalName"] == technical_name)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Adds one of `number` and orders it; answers the order.
async fn order_one(shop: &Shop, token: &str, number: &str, quantity: i64) -> Value {
    let id = product(shop, number).await["id"].clone();
    add(
        shop,
        token,
        json!([{"type": "product", "referencedId": id, "quantity": quantity}]),
    )
    .await;
    let (status, order) = post(shop, "/checkout/order", token, json!({})).await;
    assert_eq!(status, 200, "{order}");
    order
}

async fn orders(shop: &Shop, token: &str, criteria: Value) -> Value {
    let (status, body) = post(shop, "/order", token, criteria).await;
    assert_eq!(status, 200, "{body}");
    body
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_customer_orders_pays_online_and_downloads() {
    let shop = start().await;
    let token = register(&shop, "ada@example.com", false).await;
    // A second address for shipping.
    let austria = country(&shop, "AT").await;
    let (status, address) = post(&shop, "/account/address", &token, json!({"firstName": "Ada", "lastName": "Lovelace", "street": "Ringstraße 5", "zipcode": "1010", "city": "Wien", "countryId": austria})).await;
    assert_eq!(status, 200, "{address}");
    let (status, _) = call(
        &shop,
        Method::PATCH,
        "/context",
        &token,
        Some(json!({"shippingAddressId": address["id"], "paymentMethodId": payment_method(&shop, "payment_online").await})),
    )
    .await;
    assert_eq!(status, 200);

    let shirt = product(&shop, "SR10006").await;
    let (stock_before, available_before) = stock(&shop, "SR10006").await;
    let digital = digital_product_id(&shop);
    add(
        &shop,
        &token,
        json!([{"type": "product", "referencedId": shirt["id"], "quantity": 2}, {"type": "product", "referencedId": digital}]),
    )
    .await;
    let cart = add(
        &shop,
        &token,
        json!([{"type": "promotion", "referencedId": "SALESROOM10"}]),
    )
    .await;
    assert_eq!(cart["errors"], json!([]), "{cart}");
    let download_item = cart["lineItems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["referencedId"] == json!(digital))
        .unwrap()
        .clone();
    assert_eq!(download_item["states"], json!(["is-download"]));

    let (status, order) = post(
        &shop,
        "/checkout/order",
        &token,
        json!({"customerComment": "Please ring twice.", "tos": true}),
    )
    .await;
    assert_eq!(status, 200, "{order}");
    assert_eq!(order["apiAlias"], "order");
    assert_eq!(order["orderNumber"], "10000");
    assert_eq!(order["customerComment"], "Please ring twice.");
    assert_eq!(order["stateMachineState"]["technicalName"], "open");
    assert_eq!(order["stateMachineState"]["name"], "Open");
    assert!(order["deepLinkCode"].as_str().unwrap().len() >= 32);
    assert!(close(
        order["amountTotal"].as_f64().unwrap(),
        cart["price"]["totalPrice"].as_f64().unwrap()
    ));
    assert_eq!(order["price"], cart["price"], "the cart's prices, kept");
    assert!(close(
        order["shippingTotal"].as_f64().unwrap(),
        cart["deliveries"][0]["shippingCosts"]["totalPrice"]
            .as_f64()
            .unwrap()
    ));
    assert_eq!(order["orderCustomer"]["email"], "ada@example.com");
    assert_eq!(order["orderCustomer"]["firstName"], "Ada");
    assert!(order["orderCustomer"]["customerNumber"].is_string());
    let items = order["lineItems"].as_array().unwrap();
    assert_eq!(items.len(), 3, "{items:?}");
    let shirt_item = items
        .iter()
        .find(|i| i["productId"] == shirt["id"])
        .unwrap();
    assert_eq!(shirt_item["quantity"], 2);
    assert_eq!(shirt_item["payload"]["productNumber"], "SR10006");
    assert_eq!(shirt_item["label"], shirt["translated"]["name"]);
    assert!(close(
        shirt_item["unitPrice"].as_f64().unwrap(),
        shirt["calculatedPrice"]["unitPrice"].as_f64().unwrap()
    ));
    assert!(
        shirt_item["cover"]["url"].is_string(),
        "the cover is kept: {shirt_item}"
    );
    let promotion = items.iter().find(|i| i["type"] == "promotion").unwrap();
    assert_eq!(promotion["referencedId"], "SALESROOM10");
    assert!(promotion["totalPrice"].as_f64().unwrap() < 0.0);
    assert_eq!(order["billingAddress"]["city"], "Munich");
    assert_eq!(order["addresses"].as_array().unwrap().len(), 2);
    let delivery = &order["deliveries"][0];
    assert_eq!(delivery["shippingOrderAddress"]["city"], "Wien");
    assert_ne!(
        delivery["shippingOrderAddressId"], address["id"],
        "a copy, not the customer's address"
    );
    assert_eq!(
        delivery["shippingMethod"]["technicalName"],
        "shipping_standard"
    );
    assert_eq!(delivery["stateMachineState"]["technicalName"], "open");
    let transaction = &order["transactions"][0];
    assert_eq!(
        transaction["paymentMethod"]["technicalName"],
        "payment_online"
    );
    assert_eq!(transaction["stateMachineState"]["technicalName"], "open");
    assert!(close(
        transaction["amount"]["totalPrice"].as_f64().unwrap(),
        order["amountTotal"].as_f64().unwrap()
    ));

    // The cart is empty, the stock taken.
    let (_, cart) = call(&shop, Method::GET, "/checkout/cart", &token, None).await;
    assert_eq!(cart["lineItems"], json!([]));
    assert_eq!(
        stock(&shop, "SR10006").await,
        (stock_before - 2, available_before - 2)
    );

    // A later change of the customer's address does not change the order.
    let (status, _) = call(&shop, Method::PATCH, &format!("/account/address/{}", address["id"].as_str().unwrap()), &token, Some(json!({"firstName": "Ada", "lastName": "Lovelace", "street": "Elsewhere 9", "zipcode": "1020", "city": "Graz", "countryId": austria}))).await;
    assert_eq!(status, 200);
    let listed = orders(
        &shop,
        &token,
        json!({"checkPromotion": true, "associations": {"lineItems": {}, "deliveries": {}, "transactions": {}, "documents": {}}}),
    )
    .await;
    assert_eq!(listed["orders"]["total"], 1);
    let listed_order = &listed["orders"]["elements"][0];
    assert_eq!(listed_order["id"], order["id"]);
    assert_eq!(
        listed_order["deliveries"][0]["shippingOrderAddress"]["city"],
        "Wien"
    );
    assert_eq!(
        listed["paymentChangeable"][order["id"].as_str().unwrap()],
        true
    );

    // The invoice: a PDF for the holder of the deep link code.
    let document = &listed_order["documents"][0];
    assert_eq!(document["documentType"]["technicalName"], "invoice");
    let path = format!(
        "/document/download/{}/{}",
        document["id"].as_str().unwrap(),
        document["deepLinkCode"].as_str().unwrap()
    );
    let response = shop
        .http
        .get(format!("{}/store-api{path}", shop.base))
        .header("sw-access-key", common::KEY)
        .header("sw-context-token", &token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/pdf");
    let pdf = response.bytes().await.unwrap();
    assert!(pdf.starts_with(b"%PDF-"), "a real PDF");
    assert!(pdf.len() > 1000);
    let (status, body) = shop
        .get(
            &format!(
                "/document/download/{}/wrong-code",
                document["id"].as_str().unwrap()
            ),
            &[("sw-context-token", &token)],
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "DOCUMENT__DOCUMENT_NOT_FOUND");
    // The link alone is not enough for an account's invoice.
    let (status, body) = shop.get(&path, &[]).await;
    assert_eq!(status, 403, "{body}");
    assert_error(&body, 403, "CHECKOUT__CUSTOMER_NOT_LOGGED_IN");
    let stranger = register(&shop, "eve@example.com", false).await;
    let (status, body) = shop.get(&path, &[("sw-context-token", &stranger)]).await;
    assert_eq!(status, 404, "{body}");

    // The download waits for the payment.
    let order_id = order["id"].as_str().unwrap();
    let downloadable = listed_order["lineItems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["productId"] == json!(digital))
        .unwrap();
    assert_eq!(downloadable["states"], json!(["is-download"]));
    let download = &downloadable["downloads"][0];
    assert_eq!(download["accessGranted"], false);
    let download_path = format!(
        "/order/download/{order_id}/{}",
        download["id"].as_str().unwrap()
    );
    let (status, body) = call(&shop, Method::GET, &download_path, &token, None).await;
    assert_eq!(status, 404, "{body}");
    assert_error(&body, 404, "CHECKOUT__DOWNLOAD_FILE_NOT_FOUND");

    // Pay online: handle-payment points at the hosted page, which marks it paid.
    let (status, handled) = post(
        &shop,
        "/handle-payment",
        &token,
        json!({"orderId": order_id, "finishUrl": "/checkout/finish?done=1", "errorUrl": "/checkout/finish?failed=1"}),
    )
    .await;
    assert_eq!(status, 200, "{handled}");
    let redirect = handled["redirectUrl"].as_str().unwrap().to_owned();
    assert!(
        redirect.starts_with(&format!("{}/payment/pay-online/", shop.base)),
        "{redirect}"
    );
    let browser = no_redirects();
    let page = browser.get(&redirect).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(
        html.contains("10000") && html.contains(">Pay<") && html.contains(">Cancel<"),
        "{html}"
    );
    let paid = browser
        .post(&redirect)
        .form(&[("action", "pay")])
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 303);
    assert_eq!(paid.headers()["location"], "/checkout/finish?done=1");
    let again = browser
        .post(&redirect)
        .form(&[("action", "cancel")])
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 410, "the token is used");
    assert_eq!(browser.get(&redirect).send().await.unwrap().status(), 410);

    let german = shop.language("de-DE").await;
    let (_, listed) = call(&shop, Method::POST, "/order", &token, Some(json!({"filter": [{"type": "equals", "field": "id", "value": order_id}], "associations": {"lineItems": {}, "deliveries": {}, "transactions": {}, "documents": {}}}))).await;
    assert_eq!(
        listed["orders"]["elements"][0]["transactions"][0]["stateMachineState"]["technicalName"],
        "paid"
    );
    let (_, status_de, _) = shop
        .call(
            Method::POST,
            "/order",
            &[("sw-context-token", &token), ("sw-language-id", &german)],
            Some(json!({"associations": {"transactions": {}}})),
        )
        .await;
    assert_eq!(
        status_de["orders"]["elements"][0]["transactions"][0]["stateMachineState"]["name"],
        "Bezahlt"
    );
    let downloads = &listed["orders"]["elements"][0]["lineItems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["productId"] == json!(digital))
        .unwrap()["downloads"];
    assert_eq!(downloads[0]["accessGranted"], true);
    let response = shop
        .http
        .get(format!("{}/store-api{download_path}", shop.base))
        .header("sw-access-key", common::KEY)
        .header("sw-context-token", &token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.bytes().await.unwrap().starts_with(b"%PDF-"));

    // Paid is paid: no second payment, no other method.
    let (status, body) = post(
        &shop,
        "/handle-payment",
        &token,
        json!({"orderId": order_id}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "SYSTEM__ILLEGAL_STATE_TRANSITION");
    let (status, body) = post(
        &shop,
        "/order/payment",
        &token,
        json!({"orderId": order_id, "paymentMethodId": payment_method(&shop, "payment_invoice").await}),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert_error(&body, 403, "CHECKOUT__PAYMENT_METHOD_UNCHANGEABLE");
}

#[tokio::test]
async fn cancelling_gives_the_stock_back_and_only_allowed_transitions_happen() {
    let shop = start().await;
    let token = login_demo(&shop).await;
    let before = stock(&shop, "SR10005").await;
    let order = order_one(&shop, &token, "SR10005", 3).await;
    assert_eq!(stock(&shop, "SR10005").await, (before.0 - 3, before.1 - 3));
    let order_id = order["id"].as_str().unwrap();

    let (status, state) = post(
        &shop,
        "/order/state/cancel",
        &token,
        json!({"orderId": order_id}),
    )
    .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["apiAlias"], "state_machine_state");
    assert_eq!(state["technicalName"], "cancelled");
    assert_eq!(state["name"], "Cancelled");
    assert_eq!(stock(&shop, "SR10005").await, before, "the stock is back");

    // Cancelled stays cancelled: no second cancel (and no second stock return), no payment.
    let (status, body) = post(
        &shop,
        "/order/state/cancel",
        &token,
        json!({"orderId": order_id}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "SYSTEM__ILLEGAL_STATE_TRANSITION");
    assert_eq!(stock(&shop, "SR10005").await, before);
    let (status, body) = post(
        &shop,
        "/handle-payment",
        &token,
        json!({"orderId": order_id}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "SYSTEM__ILLEGAL_STATE_TRANSITION");
    let (status, body) = post(
        &shop,
        "/order/payment",
        &token,
        json!({"orderId": order_id, "paymentMethodId": payment_method(&shop, "payment_prepayment").await}),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    let (_, listed) = post(&shop, "/order", &token, json!({"checkPromotion": true})).await;
    assert_eq!(
        listed["orders"]["elements"][0]["stateMachineState"]["technicalName"],
        "cancelled"
    );
    assert_eq!(listed["paymentChangeable"][order_id], false);

    // A completed order (the shop's staff moved it on) cannot be cancelled.
    let second = order_one(&shop, &token, "SR10005", 1).await;
    let second_id = second["id"].as_str().unwrap();
    assert_eq!(second["orderNumber"], "10001", "numbers from a sequence");
    db(&shop)
        .execute(
            "UPDATE shop_order SET state = 'completed' WHERE id = ?1",
            [second_id],
        )
        .unwrap();
    let (status, body) = post(
        &shop,
        "/order/state/cancel",
        &token,
        json!({"orderId": second_id}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "SYSTEM__ILLEGAL_STATE_TRANSITION");
    assert!(
        body["errors"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("reopen"),
        "{body}"
    );
    // One in progress may still be cancelled.
    db(&shop)
        .execute(
            "UPDATE shop_order SET state = 'in_progress' WHERE id = ?1",
            [second_id],
        )
        .unwrap();
    let (status, state) = post(
        &shop,
        "/order/state/cancel",
        &token,
        json!({"orderId": second_id}),
    )
    .await;
    assert_eq!(status, 200, "{state}");
    let (_, listed) = post(&shop, "/order", &token, json!({})).await;
    let numbers: Vec<String> = elements(&listed["orders"])
        .iter()
        .map(|o| o["orderNumber"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(numbers, ["10001", "10000"], "newest first");
}

#[tokio::test]
async fn the_payment_method_changes_and_a_cancelled_online_payment_is_tried_again() {
    let shop = start().await;
    let token = login_demo(&shop).await;
    let order = order_one(&shop, &token, "SR10018", 1).await;
    let order_id = order["id"].as_str().unwrap();
    assert_eq!(
        order["transactions"][0]["paymentMethod"]["technicalName"],
        "payment_invoice"
    );
    // Invoice is synchronous: nothing to redirect to, the transaction stays open.
    let (status, handled) = call(
        &shop,
        Method::GET,
        &format!("/handle-payment?orderId={order_id}"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{handled}");
    assert_eq!(handled["redirectUrl"], Value::Null);

    let online = payment_method(&shop, "payment_online").await;
    let (status, body) = post(
        &shop,
        "/order/payment",
        &token,
        json!({"orderId": order_id, "paymentMethodId": online}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["success"], true);
    let (_, listed) = post(
        &shop,
        "/order",
        &token,
        json!({"ids": [order_id], "associations": {"transactions": {}}}),
    )
    .await;
    let transactions = listed["orders"]["elements"][0]["transactions"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(transactions.len(), 2);
    assert_eq!(
        transactions[0]["stateMachineState"]["technicalName"],
        "cancelled"
    );
    assert_eq!(
        transactions[1]["stateMachineState"]["technicalName"],
        "open"
    );
    assert_eq!(transactions[1]["paymentMethodId"], json!(online));
    assert_eq!(
        listed["orders"]["elements"][0]["primaryOrderTransactionId"],
        transactions[1]["id"]
    );

    let (status, body) = post(
        &shop,
        "/order/payment",
        &token,
        json!({"orderId": order_id, "paymentMethodId": "0123456789abcdef0123456789abcdef"}),
    )
    .await;
    assert_eq!(status, 404, "{body}");
    assert_error(&body, 404, "CHECKOUT__UNKNOWN_PAYMENT_METHOD");
    let (status, body) = post(
        &shop,
        "/order/payment",
        &token,
        json!({"paymentMethodId": online}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["code"], "VIOLATION::IS_BLANK_ERROR");
    assert_eq!(body["errors"][0]["source"]["pointer"], "/orderId");

    // Cancelled on the hosted page: back to the error URL; the payment may be tried again.
    let (_, handled) = post(
        &shop,
        "/handle-payment",
        &token,
        json!({"orderId": order_id, "finishUrl": "https://shop.example/finish", "errorUrl": "https://shop.example/error"}),
    )
    .await;
    let first = handled["redirectUrl"].as_str().unwrap().to_owned();
    let browser = no_redirects();
    let cancelled = browser
        .post(&first)
        .form(&[("action", "cancel")])
        .send()
        .await
        .unwrap();
    assert_eq!(cancelled.status(), 303);
    assert_eq!(
        cancelled.headers()["location"],
        "https://shop.example/error"
    );
    let (_, listed) = post(
        &shop,
        "/order",
        &token,
        json!({"associations": {"transactions": {}}}),
    )
    .await;
    assert_eq!(
        listed["orders"]["elements"][0]["transactions"][1]["stateMachineState"]["technicalName"],
        "cancelled"
    );
    let (_, handled) = post(
        &shop,
        "/handle-payment",
        &token,
        json!({"orderId": order_id, "finishUrl": "https://shop.example/finish"}),
    )
    .await;
    let second = handled["redirectUrl"].as_str().unwrap().to_owned();
    assert_ne!(first, second);
    assert_eq!(
        browser
            .post(&first)
            .form(&[("action", "pay")])
            .send()
            .await
            .unwrap()
            .status(),
        410,
        "the old token stays used"
    );
    let paid = browser
        .post(&second)
        .form(&[("action", "pay")])
        .send()
        .await
        .unwrap();
    assert_eq!(paid.headers()["location"], "https://shop.example/finish");
    let (_, listed) = post(
        &shop,
        "/order",
        &token,
        json!({"associations": {"transactions": {}}}),
    )
    .await;
    assert_eq!(
        listed["orders"]["elements"][0]["transactions"][1]["stateMachineState"]["technicalName"],
        "paid"
    );
    // A German session gets the page in German.
    let german = shop.language("de-DE").await;
    let other = order_one(&shop, &token, "SR10018", 1).await;
    let (_, _, _) = shop
        .call(
            Method::POST,
            "/order/payment",
            &[("sw-context-token", &token)],
            Some(json!({"orderId": other["id"], "paymentMethodId": online})),
        )
        .await;
    let (_, handled, _) = shop
        .call(
            Method::POST,
            "/handle-payment",
            &[("sw-context-token", &token), ("sw-language-id", &german)],
            Some(json!({"orderId": other["id"]})),
        )
        .await;
    let german_page = handled["redirectUrl"].as_str().unwrap().to_owned();
    let html = browser
        .get(&german_page)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    // The page speaks the order's language (placed in English), not the request's.
    assert!(
        html.contains(">Pay<") && html.contains(">Cancel<") && html.contains("lang=\"en\""),
        "{html}"
    );
    // An order cancelled in the meantime can no longer be paid on the page.
    let (status, _) = post(
        &shop,
        "/order/state/cancel",
        &token,
        json!({"orderId": other["id"]}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        browser.get(&german_page).send().await.unwrap().status(),
        410
    );
    assert_eq!(
        browser
            .post(&german_page)
            .form(&[("action", "pay")])
            .send()
            .await
            .unwrap()
            .status(),
        410
    );
    let (_, listed) = post(
        &shop,
        "/order",
        &token,
        json!({"ids": [other["id"]], "associations": {"transactions": {}}}),
    )
    .await;
    assert_eq!(
        listed["orders"]["elements"][0]["transactions"][1]["stateMachineState"]["technicalName"],
        "open"
    );
}

#[tokio::test]
async fn other_customers_orders_are_invisible_and_refused() {
    let shop = start().await;
    let owner = login_demo(&shop).await;
    let order = order_one(&shop, &owner, "SR10012", 1).await;
    let order_id = order["id"].as_str().unwrap();
    let stranger = register(&shop, "eve@example.com", false).await;
    let listed = orders(
        &shop,
        &stranger,
        json!({"filter": [{"type": "equals", "field": "id", "value": order_id}]}),
    )
    .await;
    assert_eq!(listed["orders"]["total"], 0);
    assert_eq!(listed["orders"]["elements"], json!([]));
    let (status, body) = post(
        &shop,
        "/order/state/cancel",
        &stranger,
        json!({"orderId": order_id}),
    )
    .await;
    assert_eq!(status, 404, "{body}");
    assert_error(&body, 404, "CHECKOUT__ORDER_ORDER_NOT_FOUND");
    let (status, body) = post(
        &shop,
        "/order/payment",
        &stranger,
        json!({"orderId": order_id, "paymentMethodId": payment_method(&shop, "payment_online").await}),
    )
    .await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = post(
        &shop,
        "/handle-payment",
        &stranger,
        json!({"orderId": order_id}),
    )
    .await;
    assert_eq!(status, 404, "{body}");
    assert_error(&body, 404, "CHECKOUT__INVALID_ORDER_ID");
    let (_, owned) = post(&shop, "/order", &owner, json!({})).await;
    assert_eq!(
        owned["orders"]["elements"][0]["stateMachineState"]["technicalName"], "open",
        "untouched"
    );
}

#[tokio::test]
async fn without_a_customer_every_order_call_is_forbidden() {
    let shop = start().await;
    let (_, _, headers) = shop.call(Method::GET, "/checkout/cart", &[], None).await;
    let anonymous = headers["sw-context-token"].to_str().unwrap().to_owned();
    add(
        &shop,
        &anonymous,
        json!([{"type": "product", "referencedId": product(&shop, "SR10012").await["id"]}]),
    )
    .await;
    let id = "0123456789abcdef0123456789abcdef";
    for (path, body) in [
        ("/checkout/order", json!({})),
        ("/order", json!({})),
        ("/order/state/cancel", json!({"orderId": id})),
        (
            "/order/payment",
            json!({"orderId": id, "paymentMethodId": id}),
        ),
        ("/handle-payment", json!({"orderId": id})),
    ] {
        for token in [Some(anonymous.as_str()), None] {
            let headers: Vec<(&str, &str)> = token
                .map(|t| vec![("sw-context-token", t)])
                .unwrap_or_default();
            let (status, body, _) = shop
                .call(Method::POST, path, &headers, Some(body.clone()))
                .await;
            assert_eq!(status, 403, "{path}: {body}");
            assert_error(&body, 403, "CHECKOUT__CUSTOMER_NOT_LOGGED_IN");
        }
    }
    let (status, _) = call(
        &shop,
        Method::GET,
        &format!("/order/download/{id}/{id}"),
        &anonymous,
        None,
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(count(&shop, "shop_order"), 0);
}

#[tokio::test]
async fn an_empty_cart_cannot_be_ordered() {
    let shop = start().await;
    let token = login_demo(&shop).await;
    let (status, body) = post(&shop, "/checkout/order", &token, json!({})).await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "CHECKOUT__CART_EMPTY");
    // A promotion alone is no order either.
    add(
        &shop,
        &token,
        json!([{"type": "promotion", "referencedId": "SALESROOM10"}]),
    )
    .await;
    let (status, body) = post(&shop, "/checkout/order", &token, json!({})).await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "CHECKOUT__CART_EMPTY");
    assert_eq!(count(&shop, "shop_order"), 0);
}

#[tokio::test]
async fn blocked_and_invalid_addresses_are_cart_errors_and_stop_the_order() {
    let shop = start().await;
    let token = register(&shop, "ada@example.com", false).await;
    add(
        &shop,
        &token,
        json!([{"type": "product", "referencedId": product(&shop, "SR10012").await["id"]}]),
    )
    .await;
    // Liechtenstein can be billed to but not shipped to.
    let liechtenstein = country(&shop, "LI").await;
    let (status, address) = post(&shop, "/account/address", &token, json!({"firstName": "Ada", "lastName": "Lovelace", "street": "Städtle 1", "zipcode": "9490", "city": "Vaduz", "countryId": liechtenstein})).await;
    assert_eq!(status, 200, "{address}");
    call(
        &shop,
        Method::PATCH,
        "/context",
        &token,
        Some(json!({"shippingAddressId": address["id"]})),
    )
    .await;
    let (_, cart) = call(&shop, Method::GET, "/checkout/cart", &token, None).await;
    let error = cart["errors"]
        .as_object()
        .unwrap()
        .values()
        .find(|e| e["messageKey"] == "shipping-address-blocked")
        .unwrap_or_else(|| panic!("{cart}"));
    assert_eq!(
        error["message"],
        "Shipping to the selected shipping address is currently not possible."
    );
    assert_eq!(error["level"], 20);
    let rows = order_rows(&shop);
    let (status, body) = post(&shop, "/checkout/order", &token, json!({})).await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "CHECKOUT__CART_INVALID");
    assert!(
        body["errors"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("shipping-address-blocked"),
        "{body}"
    );
    assert_eq!(order_rows(&shop), rows, "nothing written");

    // Billing to Liechtenstein is fine; a country switched off since blocks billing.
    call(
        &shop,
        Method::PATCH,
        "/context",
        &token,
        Some(json!({"billingAddressId": address["id"], "shippingAddressId": address["id"]})),
    )
    .await;
    let (_, cart) = call(&shop, Method::GET, "/checkout/cart", &token, None).await;
    let keys: Vec<&str> = cart["errors"]
        .as_object()
        .unwrap()
        .values()
        .map(|e| e["messageKey"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["shipping-address-blocked"]);
    db(&shop)
        .execute("UPDATE country SET active = 0 WHERE iso = 'LI'", [])
        .unwrap();
    let (_, cart) = call(&shop, Method::GET, "/checkout/cart", &token, None).await;
    let error = cart["errors"]
        .as_object()
        .unwrap()
        .values()
        .find(|e| e["messageKey"] == "billing-address-blocked")
        .unwrap_or_else(|| panic!("{cart}"));
    assert_eq!(
        error["message"],
        "Billing to the selected address is not possible."
    );

    // An address that lost its postal code (the country requires one) is invalid.
    db(&shop)
        .execute("UPDATE country SET active = 1 WHERE iso = 'LI'", [])
        .unwrap();
    db(&shop)
        .execute(
            "UPDATE customer_address SET zipcode = NULL WHERE id = ?1",
            [address["id"].as_str().unwrap()],
        )
        .unwrap();
    let (_, cart) = call(&shop, Method::GET, "/checkout/cart", &token, None).await;
    let keys: Vec<&str> = cart["errors"]
        .as_object()
        .unwrap()
        .values()
        .map(|e| e["messageKey"].as_str().unwrap())
        .collect();
    assert!(
        keys.contains(&"billing-address-invalid") && keys.contains(&"shipping-address-blocked"),
        "{keys:?}"
    );
    let (status, _) = post(&shop, "/checkout/order", &token, json!({})).await;
    assert_eq!(status, 400);
    assert_eq!(order_rows(&shop), rows);
}

#[tokio::test]
async fn missing_stock_at_order_time_stops_the_order_and_changes_nothing() {
    let shop = start().await;
    let token = login_demo(&shop).await;
    let id = product(&shop, "SR10019").await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    add(
        &shop,
        &token,
        json!([{"type": "product", "referencedId": id, "quantity": 2}]),
    )
    .await;
    // Someone else bought all but one in the meantime.
    db(&shop)
        .execute(
            "UPDATE product SET stock = 1, available_stock = 1 WHERE id = ?1",
            [&id],
        )
        .unwrap();
    let rows = order_rows(&shop);
    let (status, body) = post(&shop, "/checkout/order", &token, json!({})).await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "CHECKOUT__CART_INVALID");
    assert!(
        body["errors"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("product-stock-reached"),
        "{body}"
    );
    assert_eq!(order_rows(&shop), rows);
    assert_eq!(stock(&shop, "SR10019").await, (1, 1));
    let (_, cart) = call(&shop, Method::GET, "/checkout/cart", &token, None).await;
    assert_eq!(cart["lineItems"][0]["quantity"], 2, "the cart is kept");
}

#[tokio::test]
async fn malformed_requests_are_refused_and_write_nothing() {
    let shop = start().await;
    let token = login_demo(&shop).await;
    add(
        &shop,
        &token,
        json!([{"type": "product", "referencedId": product(&shop, "SR10012").await["id"]}]),
    )
    .await;
    let rows = order_rows(&shop);
    let stock_before = stock(&shop, "SR10012").await;

    let response = shop
        .http
        .post(format!("{}/store-api/checkout/order", shop.base))
        .header("sw-access-key", common::KEY)
        .header("sw-context-token", &token)
        .header("content-type", "application/json")
        .body("{\"customerComment\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_error(&body, 400, "FRAMEWORK__INVALID_REQUEST_BODY");

    for (body, pointer, code) in [
        (json!({"tos": false}), "/tos", "VIOLATION::NOT_TRUE_ERROR"),
        (json!({"tos": "no"}), "/tos", "VIOLATION::NOT_TRUE_ERROR"),
        (
            json!({"customerComment": 42}),
            "/customerComment",
            "VIOLATION::INVALID_TYPE_ERROR",
        ),
        (
            json!({"customerComment": "x".repeat(5001)}),
            "/customerComment",
            "VIOLATION::TOO_LONG_ERROR",
        ),
        (
            json!({"affiliateCode": ["a"]}),
            "/affiliateCode",
            "VIOLATION::INVALID_TYPE_ERROR",
        ),
    ] {
        let (status, answer) = post(&shop, "/checkout/order", &token, body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["errors"][0]["code"], code, "{answer}");
        assert_eq!(
            answer["errors"][0]["source"]["pointer"], pointer,
            "{answer}"
        );
    }
    let (status, body) = call(
        &shop,
        Method::POST,
        "/checkout/order",
        &token,
        Some(json!([1, 2])),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(order_rows(&shop), rows, "nothing written");
    assert_eq!(stock(&shop, "SR10012").await, stock_before);

    for (path, body, status, code) in [
        (
            "/order/state/cancel",
            json!({}),
            400,
            "VIOLATION::IS_BLANK_ERROR",
        ),
        (
            "/order/state/cancel",
            json!({"orderId": "nope"}),
            400,
            "FRAMEWORK__INVALID_UUID",
        ),
        (
            "/order/state/cancel",
            json!({"orderId": 12}),
            400,
            "FRAMEWORK__INVALID_UUID",
        ),
        (
            "/order/state/cancel",
            json!({"orderId": "0123456789abcdef0123456789abcdef"}),
            404,
            "CHECKOUT__ORDER_ORDER_NOT_FOUND",
        ),
        (
            "/handle-payment",
            json!({}),
            400,
            "VIOLATION::IS_BLANK_ERROR",
        ),
        (
            "/handle-payment",
            json!({"orderId": "0123456789abcdef0123456789abcdef", "finishUrl": "javascript:alert(1)"}),
            400,
            "VIOLATION::INVALID_URL_ERROR",
        ),
        (
            "/handle-payment",
            json!({"orderId": "0123456789abcdef0123456789abcdef", "errorUrl": 5}),
            400,
            "VIOLATION::INVALID_TYPE_ERROR",
        ),
        (
            "/order",
            json!({"limit": "many"}),
            400,
            "FRAMEWORK__INVALID_LIMIT_QUERY",
        ),
        (
            "/order",
            json!({"filter": [{"type": "equals", "field": "secret", "value": 1}]}),
            400,
            "FRAMEWORK__INVALID_FILTER_QUERY",
        ),
        (
            "/order/payment",
            json!({"orderId": "0123456789abcdef0123456789abcdef"}),
            400,
            "VIOLATION::IS_BLANK_ERROR",
        ),
    ] {
        let (got, answer) = post(&shop, path, &token, body.clone()).await;
        assert_eq!(got, status, "{path} {body}: {answer}");
        assert_eq!(answer["errors"][0]["code"], code, "{path} {body}: {answer}");
    }
    let (status, body) = call(&shop, Method::GET, "/handle-payment", &token, None).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["source"]["pointer"], "/orderId");
    let (status, body) = call(
        &shop,
        Method::GET,
        "/order/download/not-an-id/0123456789abcdef0123456789abcdef",
        &token,
        None,
    )
    .await;
    assert_eq!(status, 404, "{body}");
    // The hosted page: unknown tokens and unknown actions.
    let browser = no_redirects();
    assert_eq!(
        browser
            .get(format!("{}/payment/pay-online/unknown", shop.base))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    assert_eq!(
        browser
            .post(format!("{}/payment/pay-online/unknown", shop.base))
            .form(&[("action", "steal")])
            .send()
            .await
            .unwrap()
            .status(),
        400
    );
    assert_eq!(
        browser
            .post(format!("{}/payment/pay-online/unknown", shop.base))
            .form(&[("action", "pay")])
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    assert_eq!(order_rows(&shop), rows, "still nothing written");
}

#[tokio::test]
async fn a_guest_orders_and_sees_the_order() {
    let shop = start().await;
    let token = register(&shop, "guest@example.com", true).await;
    let order = order_one(&shop, &token, "SR10012", 1).await;
    assert_eq!(order["orderCustomer"]["email"], "guest@example.com");
    let listed = orders(&shop, &token, json!({})).await;
    assert_eq!(listed["orders"]["total"], 1);
    assert_eq!(
        listed["orders"]["elements"][0]["orderNumber"],
        order["orderNumber"]
    );

    // Later, without a session: the deep link code with the order's email and postal code.
    let code = order["deepLinkCode"].as_str().unwrap();
    let filter = json!([{"type": "equals", "field": "deepLinkCode", "value": code}]);
    let (status, found) = shop
        .post(
            "/order",
            json!({"filter": filter, "email": "GUEST@example.com", "zipcode": "80331"}),
        )
        .await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["orders"]["total"], 1);
    assert_eq!(found["orders"]["elements"][0]["id"], order["id"]);
    let document = &order["documents"][0];
    let path = format!(
        "/document/download/{}/{}",
        document["id"].as_str().unwrap(),
        document["deepLinkCode"].as_str().unwrap()
    );
    let response = shop
        .http
        .get(format!(
            "{}/store-api{path}?email=guest@example.com&zipcode=80331",
            shop.base
        ))
        .header("sw-access-key", common::KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.bytes().await.unwrap().starts_with(b"%PDF-"));
    let (status, body) = shop
        .get(
            &format!("{path}?email=guest@example.com&zipcode=99999"),
            &[],
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_error(&body, 403, "CHECKOUT__WRONG_GUEST_CREDENTIALS");
    let (status, body) = shop
        .post(
            "/order",
            json!({"filter": filter, "email": "guest@example.com", "zipcode": "10115"}),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_error(&body, 403, "CHECKOUT__WRONG_GUEST_CREDENTIALS");
    let (status, body) = shop.post("/order", json!({"filter": filter})).await;
    assert_eq!(status, 403, "{body}");
    assert_error(&body, 403, "CHECKOUT__GUEST_NOT_AUTHENTICATED");
    let (status, body) = shop.post("/order", json!({"filter": [{"type": "equals", "field": "deepLinkCode", "value": "unknown"}], "email": "guest@example.com", "zipcode": "80331"})).await;
    assert_eq!(status, 403, "{body}");
    // An account's order opens only after logging in.
    let demo = login_demo(&shop).await;
    let own = order_one(&shop, &demo, "SR10012", 1).await;
    let (status, body) = shop.post("/order", json!({"filter": [{"type": "equals", "field": "deepLinkCode", "value": own["deepLinkCode"]}], "email": "demo@example.com", "zipcode": "10117"})).await;
    assert_eq!(status, 403, "{body}");
    assert_error(&body, 403, "CHECKOUT__CUSTOMER_NOT_LOGGED_IN");
}

#[tokio::test]
async fn orders_survive_a_restart() {
    let shop = start().await;
    let token = login_demo(&shop).await;
    let order = order_one(&shop, &token, "SR10012", 1).await;
    let document = order["documents"][0].clone();
    // As a shop of a version before orders had it: no download product, no Liechtenstein.
    db(&shop)
        .execute_batch("DELETE FROM product_download; UPDATE product SET type = 'physical'; DELETE FROM country WHERE iso = 'LI';")
        .unwrap();
    let dir = shop.dir;
    let shop = start_in(dir).await;
    assert_eq!(
        digital_product_id(&shop).len(),
        32,
        "the order demo data is added on start"
    );
    assert_eq!(count(&shop, "product_download"), 1);
    country(&shop, "LI").await;
    let token = login_demo(&shop).await;
    let listed =
        orders(&shop, &token, json!({"associations": {"lineItems": {}, "deliveries": {}, "transactions": {}, "documents": {}}})).await;
    assert_eq!(listed["orders"]["total"], 1);
    let again = &listed["orders"]["elements"][0];
    assert_eq!(again["orderNumber"], order["orderNumber"]);
    assert_eq!(again["lineItems"], order["lineItems"]);
    assert_eq!(again["price"], order["price"]);
    let response = shop
        .http
        .get(format!(
            "{}/store-api/document/download/{}/{}",
            shop.base,
            document["id"].as_str().unwrap(),
            document["deepLinkCode"].as_str().unwrap()
        ))
        .header("sw-access-key", common::KEY)
        .header("sw-context-token", &token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let next = order_one(&shop, &token, "SR10012", 1).await;
    assert_eq!(next["orderNumber"], "10001", "the sequence goes on");
}

#[tokio::test]
async fn the_order_list_loads_associations_only_when_asked() {
    let shop = start().await;
    let token = register(&shop, "lists@example.com", false).await;
    let placed = order_one(&shop, &token, "SR10005", 1).await;
    let order_id = placed["id"].as_str().unwrap().to_owned();

    let plain = orders(&shop, &token, json!({"checkPromotion": true})).await;
    let order = &plain["orders"]["elements"][0];
    assert_eq!(order["id"], placed["id"]);
    assert_eq!(order["stateMachineState"]["technicalName"], "open");
    assert_eq!(
        order["billingAddress"]["id"],
        placed["billingAddress"]["id"]
    );
    assert_eq!(order["orderCustomer"]["email"], "lists@example.com");
    for association in [
        "lineItems",
        "deliveries",
        "transactions",
        "addresses",
        "primaryOrderDelivery",
        "primaryOrderTransaction",
    ] {
        assert!(
            order.get(association).is_none(),
            "{association} not asked for: {order}"
        );
    }
    assert_eq!(
        order["documents"],
        json!([]),
        "the schema requires documents; empty unless asked for"
    );
    assert_eq!(
        order["primaryOrderTransactionId"],
        placed["transactions"][0]["id"]
    );
    // checkPromotion reads the transactions without answering them.
    assert_eq!(plain["paymentChangeable"][&order_id], true);

    let all = orders(
        &shop,
        &token,
        json!({"associations": {
            "lineItems": {"associations": {"downloads": {}}}, "deliveries": {}, "transactions": {}, "documents": {},
            "addresses": {}, "primaryOrderDelivery": {}, "primaryOrderTransaction": {}
        }}),
    )
    .await;
    let order = &all["orders"]["elements"][0];
    for association in [
        "lineItems",
        "deliveries",
        "transactions",
        "documents",
        "addresses",
        "primaryOrderDelivery",
        "primaryOrderTransaction",
    ] {
        assert_eq!(order[association], placed[association], "{association}");
    }
    assert_eq!(
        order["lineItems"][0]["productId"],
        product(&shop, "SR10005").await["id"]
    );

    // One association alone, and includes on top of it.
    let some = orders(&shop, &token, json!({"associations": {"lineItems": {}}, "includes": {"order": ["orderNumber", "lineItems"], "order_line_item": ["label", "quantity"]}})).await;
    let order = &some["orders"]["elements"][0];
    assert_eq!(order["orderNumber"], placed["orderNumber"]);
    assert!(
        order.get("deliveries").is_none() && order.get("id").is_none(),
        "{order}"
    );
    assert_eq!(order["lineItems"][0]["quantity"], 1);
    assert_eq!(
        order["lineItems"][0]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["apiAlias", "label", "quantity"]
    );

    // Malformed associations and includes are refused.
    let (status, body) = post(
        &shop,
        "/order",
        &token,
        json!({"associations": "lineItems"}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "FRAMEWORK__INVALID_CRITERIA_ASSOCIATIONS");
    let (status, body) = post(&shop, "/order", &token, json!({"includes": ["order"]})).await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "FRAMEWORK__INVALID_CRITERIA_INCLUDES");
}

#[tokio::test]
async fn malformed_bodies_and_wrong_types_on_the_order_calls_are_client_errors() {
    let shop = start().await;
    let token = register(&shop, "types@example.com", false).await;
    let order = order_one(&shop, &token, "SR10005", 1).await;
    let order_id = order["id"].as_str().unwrap().to_owned();
    let rows = order_rows(&shop);
    let id = json!(order_id);
    let cases = [
        ("/order", json!([1, 2])),
        ("/order", json!({"ids": "not-a-list"})),
        ("/order", json!({"ids": [5]})),
        ("/order", json!({"page": -1})),
        ("/order", json!({"page": "first"})),
        ("/order", json!({"sort": "sideways"})),
        (
            "/order",
            json!({"sort": [{"field": "orderNumber", "order": 5}]}),
        ),
        ("/order", json!({"filter": {"type": "equals"}})),
        ("/order", json!({"total-count-mode": "all"})),
        ("/order/state/cancel", json!([id])),
        ("/order/state/cancel", json!({"orderId": [order_id]})),
        (
            "/order/payment",
            json!({"orderId": id, "paymentMethodId": 5}),
        ),
        (
            "/order/payment",
            json!({"orderId": 5, "paymentMethodId": "0123456789abcdef0123456789abcdef"}),
        ),
        (
            "/order/payment",
            json!({"orderId": id, "paymentMethodId": "not-an-id"}),
        ),
        (
            "/order/payment",
            json!({"orderId": id, "paymentMethodId": "0123456789abcdef0123456789abcdef"}),
        ),
        ("/order/payment", json!("text")),
        ("/handle-payment", json!({"orderId": 5})),
        (
            "/handle-payment",
            json!({"orderId": id, "finishUrl": ["x"]}),
        ),
        (
            "/handle-payment",
            json!({"orderId": "0123456789abcdef0123456789abcdef"}),
        ),
        ("/handle-payment", json!(null)),
        (
            "/checkout/order",
            json!({"tos": true, "customerComment": {"a": 1}}),
        ),
        ("/checkout/order", json!({"tos": true, "campaignCode": 7})),
    ];
    for (path, body) in cases {
        let (status, answer) = post(&shop, path, &token, body.clone()).await;
        assert!(
            (400..500).contains(&status),
            "{path} {body}: {status} {answer}"
        );
        assert_error(
            &answer,
            status,
            answer["errors"][0]["code"].as_str().unwrap_or("no code"),
        );
    }
    for path in [
        "/order",
        "/order/state/cancel",
        "/order/payment",
        "/handle-payment",
    ] {
        let (status, answer) = post_raw_body(&shop, path, &token, "{\"orderId\": ").await;
        assert_eq!(status, 400, "{path}: {answer}");
        assert_error(&answer, 400, "FRAMEWORK__INVALID_REQUEST_BODY");
    }
    assert_eq!(order_rows(&shop), rows, "nothing written");
    let listed = orders(&shop, &token, json!({"associations": {"transactions": {}}})).await;
    assert_eq!(
        listed["orders"]["elements"][0]["stateMachineState"]["technicalName"],
        "open"
    );
    assert_eq!(
        listed["orders"]["elements"][0]["transactions"],
        order["transactions"]
    );
}

async fn post_raw_body(shop: &Shop, path: &str, token: &str, body: &str) -> (u16, Value) {
    let response = shop
        .http
        .post(format!("{}/store-api{path}", shop.base))
        .header("sw-access-key", common::KEY)
        .header("sw-context-token", token)
        .header("content-type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_promotion_used_up_by_orders_is_refused_to_the_next_cart() {
    let shop = start().await;
    let admin = admin_support::admin(&shop).await;
    admin_support::create(
        &shop,
        "promotion",
        &admin,
        json!({"name": "Once", "code": "ONCE", "useCodes": true, "active": true, "maxRedemptionsGlobal": 1,
               "discounts": [{"type": "absolute", "value": 5, "scope": "cart"}]}),
    )
    .await;
    let shirt = product(&shop, "SR10005").await["id"].clone();

    // The first customer's order redeems it.
    let first = register(&shop, "first@example.com", false).await;
    add(
        &shop,
        &first,
        json!([{"type": "product", "referencedId": shirt, "quantity": 1}]),
    )
    .await;
    let cart = add(
        &shop,
        &first,
        json!([{"type": "promotion", "referencedId": "ONCE"}]),
    )
    .await;
    assert!(
        cart["lineItems"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["type"] == "promotion"),
        "{cart}"
    );
    let (status, order) = post(&shop, "/checkout/order", &first, json!({})).await;
    assert_eq!(status, 200, "{order}");
    assert!(
        order["lineItems"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["type"] == "promotion"),
        "{order}"
    );

    // The next cart cannot have it any more: a cart error, no discount.
    let second = register(&shop, "second@example.com", false).await;
    add(
        &shop,
        &second,
        json!([{"type": "product", "referencedId": shirt, "quantity": 1}]),
    )
    .await;
    let cart = add(
        &shop,
        &second,
        json!([{"type": "promotion", "referencedId": "ONCE"}]),
    )
    .await;
    assert!(
        cart["errors"]
            .as_object()
            .unwrap()
            .keys()
            .any(|k| k.starts_with("promotion-not-found")),
        "{cart}"
    );
    assert!(
        cart["lineItems"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["type"] != "promotion"),
        "{cart}"
    );
}

/// The hosted payment page of an order, reached through `handle-payment` after switching
/// the order to paying online.
async fn payment_page(shop: &Shop, token: &str, order_id: &str) -> String {
    let online = payment_method(shop, "payment_online").await;
    let (status, body) = post(
        shop,
        "/order/payment",
        token,
        json!({"orderId": order_id, "paymentMethodId": online}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, handled) =
        post(shop, "/handle-payment", token, json!({"orderId": order_id})).await;
    assert_eq!(status, 200, "{handled}");
    let page = no_redirects()
        .get(handled["redirectUrl"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    page.text().await.unwrap()
}

#[tokio::test]
async fn the_payment_page_speaks_the_orders_language_in_the_shops_look() {
    let shop = start().await;
    let token = login_demo(&shop).await;
    let (german, english) = (shop.language("de-DE").await, shop.language("en-GB").await);
    let switch = |language: String| {
        let (shop, token) = (&shop, &token);
        async move {
            let (status, body) = call(
                shop,
                Method::PATCH,
                "/context",
                token,
                Some(json!({"languageId": language})),
            )
            .await;
            assert_eq!(status, 200, "{body}");
        }
    };

    // Ordered in German, paid while browsing in English: the page is German.
    switch(german.clone()).await;
    let ordered_in_german = order_one(&shop, &token, "SR10018", 1).await;
    switch(english.clone()).await;
    let html = payment_page(&shop, &token, ordered_in_german["id"].as_str().unwrap()).await;
    assert!(
        html.contains("<html lang=\"de-DE\"") || html.contains("<html lang=\"de\""),
        "{html}"
    );
    for text in [
        "Online bezahlen",
        ">Bezahlen<",
        ">Abbrechen<",
        "zu zahlen:",
        "href=\"/de-DE\"",
    ] {
        assert!(html.contains(text), "{text}: {html}");
    }
    // The amount as the shop writes it in German (Intl.NumberFormat: `1.234,50 €`).
    let due = shop_money(ordered_in_german["amountTotal"].as_f64().unwrap(), ',', '.');
    assert!(
        html.contains(&format!("zu zahlen: {due}\u{a0}€")),
        "{due} €: {html}"
    );
    // The shop's look: its top bar with the name, colours, font and buttons.
    for look in [
        "class=\"topbar__brand\"",
        ">Salesroom</a>",
        "--color-brand:#2f54eb",
        "system-ui",
        "button button--primary",
    ] {
        assert!(html.contains(look), "{look}: {html}");
    }

    // Ordered in English, paid while browsing in German: the page is English.
    let ordered_in_english = order_one(&shop, &token, "SR10018", 1).await;
    switch(german).await;
    let html = payment_page(&shop, &token, ordered_in_english["id"].as_str().unwrap()).await;
    assert!(html.contains("<html lang=\"en"), "{html}");
    for text in [
        "Pay online",
        ">Pay<",
        ">Cancel<",
        "amount due:",
        "class=\"topbar__brand\"",
    ] {
        assert!(html.contains(text), "{text}: {html}");
    }
    // … and in English (`€1,234.50`), as the shop's pages write it.
    let due = shop_money(
        ordered_in_english["amountTotal"].as_f64().unwrap(),
        '.',
        ',',
    );
    assert!(
        html.contains(&format!("amount due: €{due}<")),
        "€{due}: {html}"
    );
}

/// An amount with two decimals, `decimal` before them and `group` between thousands.
fn shop_money(amount: f64, decimal: char, group: char) -> String {
    let fixed = format!("{amount:.2}");
    let (whole, fraction) = fixed.split_once('.').unwrap();
    let mut grouped = String::new();
    for (index, digit) in whole.chars().enumerate() {
        if index > 0 && (whole.len() - index).is_multiple_of(3) {
            grouped.push(group);
        }
        grouped.push(digit);
    }
    format!("{grouped}{decimal}{fraction}")
}
