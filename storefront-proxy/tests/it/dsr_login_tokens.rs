//! From the room to the storefront: one-use login tokens (`generate-login-token`,
//! `automatic-login`) and a guest's cart moving into the storefront's session
//! (`migrate-visitor-session`): a real storefront-proxy and hub over a real SQLite
//! file; in upstream mode a second proxy forwards to the first.

use crate::dsr_support;

use dsr_support::*;
use reqwest::Method;
use serde_json::{json, Value};

const GENERATE: &str = "/store-api/dsr/customer/generate-login-token";
const LOGIN: &str = "/store-api/dsr/customer/automatic-login";
const MIGRATE: &str = "/store-api/dsr/customer/migrate-visitor-session";

async fn customer_of(live: &Live, who: &As) -> Option<String> {
    let (status, body) = live
        .post("/store-api/account/customer", who, json!({}))
        .await;
    (status == 200).then(|| body["id"].as_str().unwrap().to_owned())
}

async fn cart(live: &Live, who: &As) -> Value {
    let (status, cart) = live.get("/store-api/checkout/cart", who).await;
    assert_eq!(status, 200, "{cart}");
    cart
}

fn quantities(cart: &Value) -> Vec<(String, i64)> {
    let mut items: Vec<(String, i64)> = cart["lineItems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["referencedId"].as_str().unwrap().to_owned(),
                i["quantity"].as_i64().unwrap(),
            )
        })
        .collect();
    items.sort();
    items
}

#[tokio::test]
async fn a_customer_attendee_logs_in_to_the_storefront_once_with_a_token() {
    let live = start().await;
    let customer = live.customer_login().await;
    let cleo_join = live
        .join_as_client("demo", &As::Store(customer), "Cleo")
        .await;
    let cleo = token_of(&cleo_join);

    // Only a customer's room session gets one.
    let guest = token_of(&live.join_as_client("demo", &As::Nobody, "Ada").await);
    let (status, refused) = live.post(GENERATE, &guest, json!({})).await;
    assert_eq!(status, 403, "{refused}");
    assert_error(&refused, 403, "CHECKOUT__CUSTOMER_NOT_LOGGED_IN");
    let plain_customer = As::Store(live.customer_login().await);
    let (status, refused) = live.post(GENERATE, &plain_customer, json!({})).await;
    assert_eq!(status, 404, "not an attendee's session: {refused}");
    assert_error(&refused, 404, "DIGITAL_SALES_ROOMS__ATTENDEE_NOT_FOUND");
    let (status, refused) = live
        .post(
            GENERATE,
            &cleo,
            json!({"storefrontUrl": "javascript:alert(1)"}),
        )
        .await;
    assert_eq!(status, 400);
    assert_error(&refused, 400, "DIGITAL_SALES_ROOMS__INVALID_STOREFRONT_URL");
    assert_eq!(refused["errors"][0]["source"]["pointer"], "/storefrontUrl");

    // Only one of the sales channel's domains (issue #29, as the recovery link).
    let (status, refused) = live
        .post(
            GENERATE,
            &cleo,
            json!({"storefrontUrl": "https://evil.example/account"}),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_error(&refused, 400, "VIOLATION::NO_SUCH_CHOICE_ERROR");
    assert_eq!(refused["errors"][0]["source"]["pointer"], "/storefrontUrl");

    let (status, generated) = live
        .post(
            GENERATE,
            &cleo,
            json!({"storefrontUrl": format!("{}/", live.base)}),
        )
        .await;
    assert_eq!(status, 200, "{generated}");
    assert_eq!(generated["apiAlias"], "dsr.storefront-login.response");
    let token = generated["token"].as_str().unwrap().to_owned();
    // Stored hashed, with an expiry of at most five minutes from now.
    let (stored_hash, expires_at): (String, i64) = live
        .db()
        .query_row(
            "SELECT token_hash, expires_at FROM dsr_login_token",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_ne!(stored_hash, token);
    assert!(!stored_hash.contains(&token));
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    assert!(
        expires_at > now && expires_at <= now + 300,
        "{expires_at} against {now}"
    );

    // Bad tokens: refused, nothing logged in.
    let storefront = live.storefront_session().await;
    for (body, status, code) in [
        (json!({}), 400, "DIGITAL_SALES_ROOMS__LOGIN_TOKEN_INVALID"),
        (
            json!({"token": 5}),
            400,
            "DIGITAL_SALES_ROOMS__LOGIN_TOKEN_INVALID",
        ),
        (
            json!({"token": "x".repeat(64)}),
            401,
            "DIGITAL_SALES_ROOMS__LOGIN_TOKEN_INVALID",
        ),
        (
            json!({"token": stored_hash}),
            401,
            "DIGITAL_SALES_ROOMS__LOGIN_TOKEN_INVALID",
        ),
    ] {
        let (got, refused) = live.post(LOGIN, &storefront, body.clone()).await;
        assert_eq!(got, status, "{body}: {refused}");
        assert_error(&refused, status, code);
    }
    assert_eq!(customer_of(&live, &storefront).await, None);

    // A session of another customer may not take it (and the token stays usable).
    let zoe = live.register_zoe().await;
    let (status, refused) = live.post(LOGIN, &zoe, json!({"token": token})).await;
    assert_eq!(status, 403, "{refused}");
    assert_error(
        &refused,
        403,
        "DIGITAL_SALES_ROOMS__LOGIN_TOKEN_OTHER_CUSTOMER",
    );

    // The storefront's session logs in as Cleo: a new session of hers.
    let (status, logged_in, headers) = live
        .call(
            Method::POST,
            LOGIN,
            &storefront,
            Some(json!({"token": token})),
        )
        .await;
    assert_eq!(status, 200, "{logged_in}");
    let session = logged_in["contextToken"].as_str().unwrap().to_owned();
    assert_eq!(
        headers.get("sw-context-token").unwrap().to_str().unwrap(),
        session
    );
    let cleo_id = customer_of(&live, &cleo).await.unwrap();
    assert_eq!(
        customer_of(&live, &As::Store(session)).await.as_deref(),
        Some(cleo_id.as_str())
    );

    // Once only.
    let again = live.storefront_session().await;
    let (status, refused) = live.post(LOGIN, &again, json!({"token": token})).await;
    assert_eq!(status, 401, "{refused}");
    assert_error(&refused, 401, "DIGITAL_SALES_ROOMS__LOGIN_TOKEN_INVALID");

    // Expired: refused, and a new token replaces the attendee's earlier one.
    let (_, generated) = live.post(GENERATE, &cleo, json!({})).await;
    let first = generated["token"].as_str().unwrap().to_owned();
    let (_, generated) = live.post(GENERATE, &cleo, json!({})).await;
    let second = generated["token"].as_str().unwrap().to_owned();
    let (status, refused) = live.post(LOGIN, &again, json!({"token": first})).await;
    assert_eq!(status, 401, "the replaced token: {refused}");
    live.db()
        .execute(
            "UPDATE dsr_login_token SET expires_at = expires_at - 301",
            [],
        )
        .unwrap();
    let (status, refused) = live.post(LOGIN, &again, json!({"token": second})).await;
    assert_eq!(status, 401, "{refused}");
    assert_error(&refused, 401, "DIGITAL_SALES_ROOMS__LOGIN_TOKEN_EXPIRED");
    assert_eq!(customer_of(&live, &again).await, None);
}

#[tokio::test]
async fn a_guests_cart_moves_into_the_storefront_session() {
    let live = start().await;
    let products = live.product_ids(2).await;
    let ada = token_of(&live.join_as_client("demo", &As::Nobody, "Ada").await);
    let items: Vec<Value> = products
        .iter()
        .map(|p| json!({"type": "product", "referencedId": p, "quantity": 2}))
        .collect();
    let (status, body) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &ada,
            json!({"items": items}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let storefront = live.storefront_session().await;
    let (status, body) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &storefront,
            json!({"items": [{"type": "product", "referencedId": products[0], "quantity": 1}]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let As::Store(ada_token) = &ada else {
        unreachable!()
    };

    // Refused, nothing moved.
    let customer = live.customer_login().await;
    let cleo = live
        .join_as_client("demo", &As::Store(customer), "Cleo")
        .await;
    for (body, status, code) in [
        (
            json!({}),
            400,
            "DIGITAL_SALES_ROOMS__VISITOR_SESSION_INVALID",
        ),
        (
            json!({"contextToken": ["x"]}),
            400,
            "DIGITAL_SALES_ROOMS__VISITOR_SESSION_INVALID",
        ),
        (
            json!({"contextToken": "f".repeat(64)}),
            404,
            "DIGITAL_SALES_ROOMS__VISITOR_SESSION_NOT_FOUND",
        ),
        (
            json!({"contextToken": cleo["newContextToken"]}),
            403,
            "DIGITAL_SALES_ROOMS__VISITOR_SESSION_NOT_A_GUEST",
        ),
    ] {
        let (got, refused) = live.post(MIGRATE, &storefront, body.clone()).await;
        assert_eq!(got, status, "{body}: {refused}");
        assert_error(&refused, status, code);
    }
    let As::Store(storefront_token) = &storefront else {
        unreachable!()
    };
    let (status, refused) = live
        .post(
            MIGRATE,
            &storefront,
            json!({"contextToken": storefront_token}),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(quantities(&cart(&live, &ada).await).len(), 2);

    let (status, body) = live
        .post(MIGRATE, &storefront, json!({"contextToken": ada_token}))
        .await;
    assert_eq!(status, 204, "{body}");
    let mut expected = vec![(products[0].clone(), 3), (products[1].clone(), 2)];
    expected.sort();
    assert_eq!(quantities(&cart(&live, &storefront).await), expected);
    assert!(
        quantities(&cart(&live, &ada).await).is_empty(),
        "the guest's cart moved"
    );
}

#[tokio::test]
async fn in_upstream_mode_the_upstream_issues_and_takes_the_tokens() {
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
    let customer = forwarding.customer_login().await;
    let cleo = token_of(
        &forwarding
            .join_as_client("demo", &As::Store(customer), "Cleo")
            .await,
    );
    let (status, generated) = forwarding.post(GENERATE, &cleo, json!({})).await;
    assert_eq!(status, 200, "{generated}");
    let token = generated["token"].as_str().unwrap().to_owned();
    let stored: i64 = upstream
        .db()
        .query_row("SELECT COUNT(*) FROM dsr_login_token", [], |r| r.get(0))
        .unwrap();
    assert_eq!(stored, 1, "the upstream issued it");

    let storefront = forwarding.storefront_session().await;
    let (status, logged_in) = forwarding
        .post(LOGIN, &storefront, json!({"token": token}))
        .await;
    assert_eq!(status, 200, "{logged_in}");
    let session = As::Store(logged_in["contextToken"].as_str().unwrap().to_owned());
    assert!(customer_of(&forwarding, &session).await.is_some());
    let (status, refused) = forwarding
        .post(
            LOGIN,
            &forwarding.storefront_session().await,
            json!({"token": token}),
        )
        .await;
    assert_eq!(status, 401, "{refused}");
    assert_error(&refused, 401, "DIGITAL_SALES_ROOMS__LOGIN_TOKEN_INVALID");

    let guest = token_of(&forwarding.join_as_client("demo", &As::Nobody, "Ada").await);
    let As::Store(guest_token) = &guest else {
        unreachable!()
    };
    let (status, body) = forwarding
        .post(
            MIGRATE,
            &forwarding.storefront_session().await,
            json!({"contextToken": guest_token}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
}
