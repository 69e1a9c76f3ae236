//! Payment and shipping methods against a real shop: the lists, choosing them in the
//! context, and shipping costs in the cart's delivery.

use crate::common;

use common::{elements, start};
use reqwest::Method;
use serde_json::{json, Value};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.011
}

#[tokio::test]
async fn payment_and_shipping_methods_are_listed_translated() {
    let shop = start().await;
    let (status, payments) = shop.get("/payment-method", &[]).await;
    assert_eq!(status, 200, "{payments}");
    let list = elements(&payments);
    let technical: Vec<&str> = list
        .iter()
        .map(|p| p["technicalName"].as_str().unwrap())
        .collect();
    assert_eq!(
        technical,
        [
            "payment_invoice",
            "payment_prepayment",
            "payment_cash_on_delivery",
            "payment_online"
        ]
    );
    assert!(elements(&payments)
        .iter()
        .all(|p| p["apiAlias"] == "payment_method"));
    let (_, posted) = shop
        .post("/payment-method", json!({"onlyAvailable": true}))
        .await;
    assert_eq!(elements(&posted).len(), 4);

    let german = shop.language("de-DE").await;
    let (_, shipping) = shop
        .post_with(
            "/shipping-method",
            &[("sw-language-id", &german)],
            json!({}),
        )
        .await;
    let methods = elements(&shipping);
    let positions: Vec<i64> = methods
        .iter()
        .map(|m| m["position"].as_i64().unwrap())
        .collect();
    assert_eq!(positions, [1, 2], "sorted by position");
    assert_eq!(methods[0]["deliveryTime"]["name"], "2-5 Tage");
    let (_, invoice_de) = shop
        .get("/payment-method", &[("sw-language-id", &german)])
        .await;
    assert_eq!(elements(&invoice_de)[0]["name"], "Rechnung");
}

#[tokio::test]
async fn the_cart_delivery_carries_the_chosen_shipping_costs() {
    let shop = start().await;
    let (_, cart, headers) = shop.call(Method::GET, "/checkout/cart", &[], None).await;
    assert_eq!(
        cart["deliveries"],
        json!([]),
        "an empty cart has no delivery"
    );
    let token = headers["sw-context-token"].to_str().unwrap().to_owned();
    let auth = [("sw-context-token", token.as_str())];
    let (_, found) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "equals", "field": "productNumber", "value": "SR10006"}]}),
        )
        .await;
    let product = &elements(&found)[0];
    assert_eq!(product["shippingFree"], false);
    let id = product["id"].as_str().unwrap();
    let unit = product["calculatedPrice"]["unitPrice"].as_f64().unwrap();
    assert!(
        unit < 50.0 && unit * 2.0 >= 50.0,
        "one below the free-shipping limit, two above: {unit}"
    );

    let (_, cart, _) = shop
        .call(
            Method::POST,
            "/checkout/cart/line-item",
            &auth,
            Some(json!({"items": [{"referencedId": id}]})),
        )
        .await;
    let delivery = &cart["deliveries"][0];
    assert_eq!(delivery["apiAlias"], "cart_delivery");
    assert_eq!(
        delivery["shippingMethod"]["technicalName"],
        "shipping_standard"
    );
    assert_eq!(delivery["location"]["country"]["iso"], "DE");
    assert!(
        delivery["deliveryDate"]["earliest"].as_str().unwrap()
            <= delivery["deliveryDate"]["latest"].as_str().unwrap()
    );
    assert!(close(
        delivery["shippingCosts"]["totalPrice"].as_f64().unwrap(),
        4.9
    ));
    assert!(close(
        cart["price"]["positionPrice"].as_f64().unwrap(),
        unit
    ));
    assert!(close(
        cart["price"]["totalPrice"].as_f64().unwrap(),
        unit + 4.9
    ));
    let taxes: f64 = cart["price"]["calculatedTaxes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["tax"].as_f64().unwrap())
        .sum();
    assert!(close(
        cart["price"]["netPrice"].as_f64().unwrap(),
        unit + 4.9 - taxes
    ));

    let (_, cart, _) = shop
        .call(
            Method::PATCH,
            "/checkout/cart/line-item",
            &auth,
            Some(json!({"items": [{"id": id, "quantity": 2}]})),
        )
        .await;
    assert!(
        close(
            cart["deliveries"][0]["shippingCosts"]["totalPrice"]
                .as_f64()
                .unwrap(),
            0.0
        ),
        "free from 50 €"
    );

    let (_, shipping) = shop.get("/shipping-method", &[]).await;
    let express = elements(&shipping)
        .into_iter()
        .find(|m| m["technicalName"] == "shipping_express")
        .unwrap();
    let (_, payments) = shop.get("/payment-method", &[]).await;
    let online = elements(&payments)
        .into_iter()
        .find(|m| m["technicalName"] == "payment_online")
        .unwrap();
    let (status, body, _) = shop
        .call(
            Method::PATCH,
            "/context",
            &auth,
            Some(json!({"shippingMethodId": express["id"], "paymentMethodId": online["id"]})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, cart) = shop.get("/checkout/cart", &auth).await;
    assert_eq!(
        cart["deliveries"][0]["shippingMethod"]["technicalName"],
        "shipping_express"
    );
    assert!(close(
        cart["deliveries"][0]["shippingCosts"]["totalPrice"]
            .as_f64()
            .unwrap(),
        9.9
    ));
    assert!(close(
        cart["price"]["totalPrice"].as_f64().unwrap(),
        unit * 2.0 + 9.9
    ));
    let (_, context) = shop.get("/context", &auth).await;
    assert_eq!(context["paymentMethod"]["id"], online["id"]);
    assert_eq!(context["shippingMethod"]["id"], express["id"]);
    assert_ne!(
        context["salesChannel"]["shippingMethodId"], express["id"],
        "the channel default stays"
    );

    for bad in [
        json!({"shippingMethodId": "0123456789abcdef0123456789abcdef"}),
        json!({"paymentMethodId": "0123456789abcdef0123456789abcdef"}),
    ] {
        let (status, body, _): (u16, Value, _) = shop
            .call(Method::PATCH, "/context", &auth, Some(bad.clone()))
            .await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
}
