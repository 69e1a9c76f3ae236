//! The cart against a real shop: line items, quantity rules and stock as cart
//! errors, advanced prices, the promotion code, and the guest cart at login.

use crate::common;

use common::{start, Shop};
use reqwest::Method;
use serde_json::{json, Value};

async fn product_id(shop: &Shop, number: &str) -> String {
    let (_, found) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "equals", "field": "productNumber", "value": number}]}),
        )
        .await;
    found["elements"][0]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no {number}"))
        .to_owned()
}

async fn cart_call(
    shop: &Shop,
    method: Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let (status, body, headers) = shop
        .call(method, path, &[("sw-context-token", token)], body)
        .await;
    if status == 200 {
        assert_eq!(headers["sw-context-token"], token);
    }
    (status, body)
}

async fn new_token(shop: &Shop) -> String {
    let (status, cart, headers) = shop.call(Method::GET, "/checkout/cart", &[], None).await;
    assert_eq!(status, 200, "{cart}");
    assert_eq!(cart["apiAlias"], "cart");
    assert_eq!(cart["lineItems"], json!([]));
    assert_eq!(cart["price"]["totalPrice"], 0.0);
    headers["sw-context-token"].to_str().unwrap().to_owned()
}

fn item<'a>(cart: &'a Value, id: &str) -> &'a Value {
    cart["lineItems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {cart}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.011
}

#[tokio::test]
async fn products_go_into_the_cart_with_taxes_and_totals() {
    let shop = start().await;
    let token = new_token(&shop).await;
    let shirt = product_id(&shop, "SR10005").await;
    let add = json!({"items": [{"type": "product", "referencedId": shirt, "quantity": 2}]});
    let (status, cart) = cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item",
        &token,
        Some(add.clone()),
    )
    .await;
    assert_eq!(status, 200, "{cart}");
    let line = item(&cart, &shirt);
    assert_eq!(line["apiAlias"], "cart_line_item");
    assert_eq!(line["type"], "product");
    assert_eq!(line["quantity"], 2);
    let unit = line["price"]["unitPrice"].as_f64().unwrap();
    assert!(close(
        line["price"]["totalPrice"].as_f64().unwrap(),
        unit * 2.0
    ));
    let price = &cart["price"];
    assert_eq!(price["apiAlias"], "cart_price");
    assert!(close(price["totalPrice"].as_f64().unwrap(), unit * 2.0));
    assert_eq!(price["calculatedTaxes"][0]["taxRate"], 19.0);
    let tax = price["calculatedTaxes"][0]["tax"].as_f64().unwrap();
    assert!(close(tax, unit * 2.0 * 19.0 / 119.0));
    assert!(close(price["netPrice"].as_f64().unwrap(), unit * 2.0 - tax));
    assert_eq!(cart["errors"], json!([]));

    let (_, cart) = cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item",
        &token,
        Some(add),
    )
    .await;
    assert_eq!(item(&cart, &shirt)["quantity"], 4, "the same item stacks");
    let (_, cart) = cart_call(
        &shop,
        Method::PATCH,
        "/checkout/cart/line-item",
        &token,
        Some(json!({"items": [{"id": shirt, "quantity": 1}]})),
    )
    .await;
    assert_eq!(item(&cart, &shirt)["quantity"], 1);
    let (_, again) = cart_call(&shop, Method::GET, "/checkout/cart", &token, None).await;
    assert_eq!(item(&again, &shirt)["quantity"], 1, "the cart is kept");

    let other = product_id(&shop, "SR10006").await;
    cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item",
        &token,
        Some(json!({"items": [{"referencedId": other}]})),
    )
    .await;
    let (status, cart) = cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item/delete",
        &token,
        Some(json!({"ids": [shirt]})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(cart["lineItems"].as_array().unwrap().len(), 1);
    let (status, cart) = cart_call(
        &shop,
        Method::DELETE,
        &format!("/checkout/cart/line-item?ids[]={other}"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{cart}");
    assert_eq!(cart["lineItems"], json!([]));

    cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item",
        &token,
        Some(json!({"items": [{"referencedId": other}]})),
    )
    .await;
    let (status, _) = cart_call(&shop, Method::DELETE, "/checkout/cart", &token, None).await;
    assert_eq!(status, 204);
    let (_, cart) = cart_call(&shop, Method::GET, "/checkout/cart", &token, None).await;
    assert_eq!(cart["lineItems"], json!([]));
}

#[tokio::test]
async fn quantity_rules_and_stock_are_cart_errors_reported_once() {
    let shop = start().await;
    let token = new_token(&shop).await;
    let (_, coffee) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "contains", "field": "name", "value": "Espresso beans"}]}),
        )
        .await;
    let coffee = &coffee["elements"][0];
    let coffee_id = coffee["id"].as_str().unwrap();
    let max = coffee["calculatedMaxPurchase"].as_i64().unwrap();
    let (_, cart) = cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item",
        &token,
        Some(json!({"items": [{"referencedId": coffee_id, "quantity": max + 5}]})),
    )
    .await;
    assert_eq!(item(&cart, coffee_id)["quantity"], max);
    let error = &cart["errors"][format!("max-order-quantity{coffee_id}")];
    assert_eq!(error["messageKey"], "max-order-quantity", "{cart}");
    assert_eq!(error["level"], 10);
    // Ten or more cost the lowest advanced price.
    let tiers = coffee["calculatedPrices"].as_array().unwrap();
    assert!(close(
        item(&cart, coffee_id)["price"]["unitPrice"]
            .as_f64()
            .unwrap(),
        tiers.last().unwrap()["unitPrice"].as_f64().unwrap()
    ));
    assert_eq!(
        item(&cart, coffee_id)["price"]["calculatedTaxes"][0]["taxRate"],
        7.0
    );
    let (_, again) = cart_call(&shop, Method::GET, "/checkout/cart", &token, None).await;
    assert_eq!(again["errors"], json!([]), "errors are reported once");

    let (_, sold_out) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "equals", "field": "available", "value": false}]}),
        )
        .await;
    let sold_out = sold_out["elements"][0]["id"]
        .as_str()
        .expect("a sold-out closeout product")
        .to_owned();
    let (_, parent) =
        shop.post("/product", json!({"filter": [{"type": "range", "field": "childCount", "parameters": {"gt": 0}}], "limit": 1})).await;
    let parent = parent["elements"][0]["id"].as_str().unwrap().to_owned();
    let unknown = "0123456789abcdef0123456789abcdef";
    let items = json!({"items": [{"referencedId": sold_out}, {"referencedId": parent}, {"referencedId": unknown}]});
    let (_, cart) = cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item",
        &token,
        Some(items),
    )
    .await;
    assert_eq!(
        cart["lineItems"].as_array().unwrap().len(),
        1,
        "only the coffee stays: {cart}"
    );
    assert_eq!(
        cart["errors"][format!("product-out-of-stock{sold_out}")]["level"],
        20
    );
    assert_eq!(
        cart["errors"][format!("product-not-found{parent}")]["message"],
        "The product could not be found."
    );
    assert_eq!(
        cart["errors"][format!("product-not-found{unknown}")]["messageKey"],
        "product-not-found"
    );
}

#[tokio::test]
async fn the_promotion_code_takes_ten_percent_off() {
    let shop = start().await;
    let token = new_token(&shop).await;
    let shirt = product_id(&shop, "SR10005").await;
    let (_, coffee) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "contains", "field": "name", "value": "Green tea"}]}),
        )
        .await;
    let tea = coffee["elements"][0]["id"].as_str().unwrap().to_owned();
    let (_, cart) = cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item",
        &token,
        Some(json!({"items": [{"referencedId": shirt}, {"referencedId": tea}]})),
    )
    .await;
    let goods = cart["price"]["totalPrice"].as_f64().unwrap();

    let (_, cart) = cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item",
        &token,
        Some(json!({"items": [{"type": "promotion", "referencedId": "NOPE"}]})),
    )
    .await;
    assert_eq!(
        cart["errors"]["promotion-not-foundNOPE"]["level"], 20,
        "{cart}"
    );
    assert_eq!(cart["lineItems"].as_array().unwrap().len(), 2);

    let (_, cart) = cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item",
        &token,
        Some(json!({"items": [{"type": "promotion", "referencedId": "salesroom10"}]})),
    )
    .await;
    let promotion = cart["lineItems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["type"] == "promotion")
        .expect("a promotion line item");
    assert_eq!(promotion["payload"]["discountType"], "percentage");
    assert!(close(
        promotion["price"]["totalPrice"].as_f64().unwrap(),
        -goods * 0.1
    ));
    assert!(close(
        cart["price"]["totalPrice"].as_f64().unwrap(),
        goods * 0.9
    ));
    let rates: Vec<f64> = cart["price"]["calculatedTaxes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["taxRate"].as_f64().unwrap())
        .collect();
    assert_eq!(
        rates,
        [7.0, 19.0],
        "the discount is split over both tax rates"
    );
    // The discount follows the goods.
    let (_, cart) = cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item/delete",
        &token,
        Some(json!({"ids": [tea]})),
    )
    .await;
    let shirt_total = item(&cart, &shirt)["price"]["totalPrice"].as_f64().unwrap();
    assert!(
        close(
            cart["price"]["totalPrice"].as_f64().unwrap(),
            shirt_total * 0.9
        ),
        "{cart}"
    );
}

#[tokio::test]
async fn bad_line_items_are_shopware_errors() {
    let shop = start().await;
    let token = new_token(&shop).await;
    let shirt = product_id(&shop, "SR10005").await;
    for (body, code) in [
        (json!({}), "CHECKOUT__CART_INVALID_LINE_ITEM"),
        (json!({"items": []}), "CHECKOUT__CART_INVALID_LINE_ITEM"),
        (
            json!({"items": [{"type": "voucher", "referencedId": shirt}]}),
            "CHECKOUT__CART_LINE_ITEM_TYPE_NOT_SUPPORTED",
        ),
        (
            json!({"items": [{"referencedId": shirt, "quantity": 0}]}),
            "CHECKOUT__CART_INVALID_LINE_ITEM_QUANTITY",
        ),
        (
            json!({"items": [{"referencedId": shirt, "quantity": "lots"}]}),
            "CHECKOUT__CART_INVALID_LINE_ITEM_QUANTITY",
        ),
        (
            json!({"items": [{"referencedId": "not-a-product"}]}),
            "CHECKOUT__CART_INVALID_LINE_ITEM",
        ),
    ] {
        let (status, body) = cart_call(
            &shop,
            Method::POST,
            "/checkout/cart/line-item",
            &token,
            Some(body.clone()),
        )
        .await;
        assert_eq!(status, 400, "{body}");
        common::assert_error(&body, 400, code);
    }
    let (status, body) = cart_call(
        &shop,
        Method::PATCH,
        "/checkout/cart/line-item",
        &token,
        Some(json!({"items": [{"id": shirt, "quantity": 2}]})),
    )
    .await;
    assert_eq!(status, 404);
    common::assert_error(&body, 404, "CHECKOUT__CART_LINE_ITEM_NOT_FOUND");
    let (status, _) = cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item/delete",
        &token,
        Some(json!({"ids": [shirt]})),
    )
    .await;
    assert_eq!(status, 404);
    let (_, cart) = cart_call(&shop, Method::GET, "/checkout/cart", &token, None).await;
    assert_eq!(cart["lineItems"], json!([]), "nothing was written");
}

#[tokio::test]
async fn the_guest_cart_merges_into_the_customer_cart_at_login() {
    let shop = start().await;
    let guest = new_token(&shop).await;
    let shirt = product_id(&shop, "SR10005").await;
    let tea = product_id(&shop, "SR10063").await;
    cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item",
        &guest,
        Some(json!({"items": [{"referencedId": shirt}]})),
    )
    .await;
    let login = json!({"username": "demo@example.com", "password": "salesroom"});
    let (status, _, headers) = shop
        .call(
            Method::POST,
            "/account/login",
            &[("sw-context-token", &guest)],
            Some(login.clone()),
        )
        .await;
    assert_eq!(status, 200);
    let customer = headers["sw-context-token"].to_str().unwrap().to_owned();
    let (_, cart) = cart_call(&shop, Method::GET, "/checkout/cart", &customer, None).await;
    assert_eq!(item(&cart, &shirt)["quantity"], 1);

    // Logged out, the cart waits for the next login and joins the new guest cart.
    let (status, _, _) = shop
        .call(
            Method::POST,
            "/account/logout",
            &[("sw-context-token", &customer)],
            None,
        )
        .await;
    assert_eq!(status, 200);
    let second_guest = new_token(&shop).await;
    cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item",
        &second_guest,
        Some(json!({"items": [{"referencedId": tea}, {"referencedId": shirt}]})),
    )
    .await;
    let (_, _, headers) = shop
        .call(
            Method::POST,
            "/account/login",
            &[("sw-context-token", &second_guest)],
            Some(login),
        )
        .await;
    let customer = headers["sw-context-token"].to_str().unwrap().to_owned();
    let (_, cart) = cart_call(&shop, Method::GET, "/checkout/cart", &customer, None).await;
    assert_eq!(item(&cart, &shirt)["quantity"], 2);
    assert_eq!(item(&cart, &tea)["quantity"], 1);
}

#[tokio::test]
async fn the_visitor_cart_comes_along_into_a_registration() {
    let shop = start().await;
    let visitor = new_token(&shop).await;
    let shirt = product_id(&shop, "SR10005").await;
    cart_call(
        &shop,
        Method::POST,
        "/checkout/cart/line-item",
        &visitor,
        Some(json!({"items": [{"referencedId": shirt, "quantity": 2}]})),
    )
    .await;
    let (_, countries) = shop.post("/country", json!({})).await;
    let germany = common::elements(&countries)
        .into_iter()
        .find(|c| c["iso"] == "DE")
        .unwrap()["id"]
        .clone();
    for guest in [false, true] {
        let visitor = if guest {
            new_token(&shop).await
        } else {
            visitor.clone()
        };
        if guest {
            cart_call(
                &shop,
                Method::POST,
                "/checkout/cart/line-item",
                &visitor,
                Some(json!({"items": [{"referencedId": shirt, "quantity": 2}]})),
            )
            .await;
        }
        let mut body = json!({
            "email": format!("visitor-{guest}@example.com"), "firstName": "Vi", "lastName": "Sitor", "acceptedDataProtection": true,
            "billingAddress": {"street": "Main Street 1", "zipcode": "80331", "city": "Munich", "countryId": germany},
        });
        if guest {
            body["guest"] = json!(true);
        } else {
            body["password"] = json!("correct horse battery");
        }
        let (status, customer, headers) = shop
            .call(
                Method::POST,
                "/account/register",
                &[("sw-context-token", &visitor)],
                Some(body),
            )
            .await;
        assert_eq!(status, 200, "{customer}");
        let registered = headers["sw-context-token"].to_str().unwrap().to_owned();
        assert_ne!(registered, visitor);
        let (_, cart) = cart_call(&shop, Method::GET, "/checkout/cart", &registered, None).await;
        assert_eq!(item(&cart, &shirt)["quantity"], 2, "guest: {guest}");
        let (_, left) = cart_call(&shop, Method::GET, "/checkout/cart", &visitor, None).await;
        assert_eq!(
            left["lineItems"],
            json!([]),
            "the cart moved, it was not copied"
        );
    }
}
