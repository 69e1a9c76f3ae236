//! The server wishlist against a real shop: only for customers with an account; add,
//! load with criteria, delete, merge, and the refusals.

use crate::common;
use crate::extras;

use common::{assert_error, elements, start, start_in, Shop};
use extras::*;
use reqwest::Method;
use serde_json::{json, Value};

const UNKNOWN: &str = "0123456789abcdef0123456789abcdef";

async fn product_ids(shop: &Shop, count: usize) -> Vec<String> {
    let (status, body) = shop
        .post(
            "/product",
            json!({"limit": count, "sort": [{"field": "productNumber", "order": "ASC"}]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let ids: Vec<String> = elements(&body)
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), count);
    ids
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

async fn load(shop: &Shop, token: &str, criteria: Value) -> (u16, Value) {
    call(
        shop,
        Method::POST,
        "/customer/wishlist",
        token,
        Some(criteria),
    )
    .await
}

fn listed(body: &Value) -> Vec<String> {
    elements(&body["products"])
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_wishlist_is_for_customers_with_an_account() {
    let shop = start().await;
    let product = product_ids(&shop, 1).await.remove(0);
    let guest = register(&shop, "guest@example.com", None).await;
    let (_, _, headers) = shop.call(Method::GET, "/context", &[], None).await;
    let anonymous = headers["sw-context-token"].to_str().unwrap().to_owned();
    for token in [guest.as_str(), anonymous.as_str(), "no-such-token"] {
        for (method, path, body) in [
            (
                Method::POST,
                "/customer/wishlist".to_owned(),
                Some(json!({})),
            ),
            (
                Method::POST,
                format!("/customer/wishlist/add/{product}"),
                None,
            ),
            (
                Method::DELETE,
                format!("/customer/wishlist/delete/{product}"),
                None,
            ),
            (
                Method::POST,
                "/customer/wishlist/merge".to_owned(),
                Some(json!({"productIds": [product]})),
            ),
        ] {
            let (status, body) = call(&shop, method, &path, token, body).await;
            assert_eq!(status, 403, "{path}: {body}");
            assert_error(&body, 403, "CHECKOUT__CUSTOMER_NOT_LOGGED_IN");
        }
    }
}

#[tokio::test]
async fn products_are_added_listed_and_removed() {
    let shop = start().await;
    let ids = product_ids(&shop, 3).await;
    let (a, b, c) = (&ids[0], &ids[1], &ids[2]);
    let token = demo_token(&shop).await;

    let (status, body) = load(&shop, &token, json!({})).await;
    assert_eq!(status, 404, "{body}");
    assert_error(&body, 404, "CHECKOUT__WISHLIST_NOT_FOUND");
    let (status, body) = call(
        &shop,
        Method::POST,
        &format!("/customer/wishlist/add/{UNKNOWN}"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CONTENT__PRODUCT_NOT_FOUND");
    let (status, body) = call(
        &shop,
        Method::POST,
        "/customer/wishlist/add/not-an-id",
        &token,
        None,
    )
    .await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "FRAMEWORK__INVALID_UUID");
    let (status, _) = load(&shop, &token, json!({})).await;
    assert_eq!(status, 404, "refused adds create no wishlist");

    for id in [a, b, c] {
        let (status, body) = call(
            &shop,
            Method::POST,
            &format!("/customer/wishlist/add/{id}"),
            &token,
            None,
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["success"], true);
    }
    let (status, body) = call(
        &shop,
        Method::POST,
        &format!("/customer/wishlist/add/{}", a.to_uppercase()),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "CHECKOUT__DUPLICATE_WISHLIST_PRODUCT");

    let (status, body) = load(&shop, &token, json!({})).await;
    assert_eq!(status, 200, "{body}");
    let customer_id = customer(&shop, &token).await["id"].clone();
    assert_eq!(body["wishlist"]["customerId"], customer_id);
    assert!(body["wishlist"]["salesChannelId"].is_string());
    assert_eq!(body["products"]["apiAlias"], "product_listing");
    assert_eq!(body["products"]["total"], 3);
    assert_eq!(
        listed(&body),
        vec![c.clone(), b.clone(), a.clone()],
        "the last added first"
    );
    assert_eq!(elements(&body["products"])[0]["apiAlias"], "product");
    // The catalogue's criteria apply to the wishlist's products.
    let (_, body) = load(
        &shop,
        &token,
        json!({"limit": 1, "page": 2, "total-count-mode": "exact"}),
    )
    .await;
    assert_eq!(listed(&body), vec![b.clone()]);
    assert_eq!(body["products"]["total"], 3);
    let (_, body) = load(
        &shop,
        &token,
        json!({"ids": [a, UNKNOWN], "includes": {"product": ["id"]}}),
    )
    .await;
    assert_eq!(
        listed(&body),
        vec![a.clone()],
        "criteria ids narrow, never widen"
    );
    let mut keys: Vec<String> = elements(&body["products"])[0]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    keys.sort();
    assert_eq!(keys, ["apiAlias", "id"], "{body}");
    let (_, body) = load(
        &shop,
        &token,
        json!({"sort": [{"field": "productNumber", "order": "DESC"}]}),
    )
    .await;
    assert_eq!(listed(&body), vec![c.clone(), b.clone(), a.clone()]);
    let (status, body) = load(&shop, &token, json!({"limit": "many"})).await;
    assert_eq!(status, 400, "{body}");

    let (status, body) = call(
        &shop,
        Method::DELETE,
        &format!("/customer/wishlist/delete/{UNKNOWN}"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CHECKOUT__WISHLIST_PRODUCT_NOT_FOUND");
    let (status, body) = call(
        &shop,
        Method::DELETE,
        &format!("/customer/wishlist/delete/{b}"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = call(
        &shop,
        Method::DELETE,
        &format!("/customer/wishlist/delete/{b}"),
        &token,
        None,
    )
    .await;
    assert_eq!(status, 404);

    let Shop { dir, .. } = shop;
    let shop = start_in(dir).await;
    let token = demo_token(&shop).await;
    let (_, body) = load(&shop, &token, json!({})).await;
    assert_eq!(
        listed(&body),
        vec![c.clone(), a.clone()],
        "the wishlist survives a restart and a new login"
    );
    // Another customer has their own (none yet).
    let other = register(&shop, "other@example.com", Some("other-password")).await;
    let (status, _) = load(&shop, &other, json!({})).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn merge_adds_the_local_list_in_one_transaction() {
    let shop = start().await;
    let ids = product_ids(&shop, 3).await;
    let (a, b, c) = (&ids[0], &ids[1], &ids[2]);
    let token = register(&shop, "merger@example.com", Some("merger-password")).await;
    let merge = |body: Value| {
        call(
            &shop,
            Method::POST,
            "/customer/wishlist/merge",
            &token,
            Some(body),
        )
    };

    let (status, body) = merge(json!({})).await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "CHECKOUT__PRODUCT_IDS_PARAMETER_IS_MISSING");
    let (status, body) = merge(json!({"productIds": a})).await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "CHECKOUT__PRODUCT_IDS_PARAMETER_IS_MISSING");
    let (status, body) = merge(json!({"productIds": [a, 42]})).await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "FRAMEWORK__INVALID_UUID");
    assert_eq!(body["errors"][0]["source"]["pointer"], "/productIds/1");
    let (status, _) = post_raw(
        &shop,
        "/customer/wishlist/merge",
        Some(&token),
        "{\"productIds\": [",
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = load(&shop, &token, json!({})).await;
    assert_eq!(status, 404, "refused merges write nothing");

    // Unknown products and duplicates are skipped.
    let (status, body) = merge(json!({"productIds": [a, UNKNOWN, a, b]})).await;
    assert_eq!(status, 200, "{body}");
    let (_, body) = load(&shop, &token, json!({})).await;
    let mut got = listed(&body);
    got.sort();
    let mut want = vec![a.clone(), b.clone()];
    want.sort();
    assert_eq!(got, want);
    let (status, _) = merge(json!({"productIds": [b, c]})).await;
    assert_eq!(status, 200);
    let (_, body) = load(&shop, &token, json!({})).await;
    assert_eq!(body["products"]["total"], 3);
    assert_eq!(
        listed(&body)[0],
        c.as_str(),
        "merged products are the newest"
    );
    // An empty merge keeps the list.
    let (status, _) = merge(json!({"productIds": []})).await;
    assert_eq!(status, 200);
    let (_, body) = load(&shop, &token, json!({})).await;
    assert_eq!(body["products"]["total"], 3);
}
