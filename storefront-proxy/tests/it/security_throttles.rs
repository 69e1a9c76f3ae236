//! Issue #29, the throttles beyond logins and mails, against a real shop: a wrong current
//! password at a password change waits longer and longer per account; a guest's order
//! lookups by deep link code are throttled per client address and per order; Admin API
//! password writes are hashed within the bound on concurrent hashing.

use crate::admin_support;
use crate::common;
use crate::extras;

use common::{assert_error, serve_with, Shop};
use extras::{DEMO_EMAIL, DEMO_PASSWORD};
use reqwest::Method;
use serde_json::{json, Value};

async fn shop_with(
    edit: impl FnOnce(storefront_proxy::Config) -> storefront_proxy::Config,
) -> Shop {
    let dir = tempfile::tempdir().unwrap();
    let base = serve_with(dir.path(), 1, "test-secret", edit).await;
    Shop {
        base,
        http: reqwest::Client::new(),
        dir,
    }
}

/// A throttled answer in Shopware's shape: 429, `code`, the wait in
/// `meta.parameters.seconds` and `Retry-After`.
fn assert_throttled(body: &Value, headers: &reqwest::header::HeaderMap, code: &str) {
    assert_error(body, 429, code);
    let seconds = body["errors"][0]["meta"]["parameters"]["seconds"]
        .as_u64()
        .unwrap_or_else(|| panic!("no wait: {body}"));
    assert!(seconds >= 1, "{body}");
    assert_eq!(
        headers["retry-after"].to_str().unwrap(),
        seconds.to_string()
    );
}

#[tokio::test]
async fn wrong_current_passwords_at_a_password_change_wait_longer_and_longer() {
    let shop = shop_with(|c| c).await;
    let token = extras::login(&shop, DEMO_EMAIL, DEMO_PASSWORD)
        .await
        .unwrap();
    let change = |current: &'static str| {
        let (shop, token) = (&shop, token.clone());
        async move {
            shop.call(
                Method::POST,
                "/account/change-password",
                &[("sw-context-token", token.as_str())],
                Some(json!({
                    "password": current, "newPassword": "a new password 1", "newPasswordConfirm": "a new password 1"
                })),
            )
            .await
        }
    };
    for attempt in 1..=10 {
        let (status, body, _) = change("wrong-password").await;
        assert_eq!(status, 400, "attempt {attempt}: {body}");
    }
    let (status, body, headers) = change("wrong-password").await;
    assert_eq!(status, 429, "{body}");
    assert_throttled(&body, &headers, "CHECKOUT__CUSTOMER_AUTH_THROTTLED");
    // The right one waits too: guessing on is no faster.
    let (status, body, headers) = change(DEMO_PASSWORD).await;
    assert_eq!(status, 429, "{body}");
    assert_throttled(&body, &headers, "CHECKOUT__CUSTOMER_AUTH_THROTTLED");
    // Nothing changed: the old password still logs in.
    assert!(extras::login(&shop, DEMO_EMAIL, DEMO_PASSWORD)
        .await
        .is_ok());
}

/// A guest's order lookup by `code` with `email` and `zipcode`, from `from` (a trusted
/// proxy's X-Forwarded-For).
async fn guest_lookup(
    shop: &Shop,
    code: &str,
    from: &str,
) -> (u16, Value, reqwest::header::HeaderMap) {
    shop.call(
        Method::POST,
        "/order",
        &[("x-forwarded-for", from)],
        Some(json!({
            "filter": [{"type": "equals", "field": "deepLinkCode", "value": code}],
            "email": "guest@example.com", "zipcode": "10115"
        })),
    )
    .await
}

#[tokio::test]
async fn guessing_guest_order_codes_is_throttled_per_address_and_per_order() {
    let shop = shop_with(|c| c).await;
    // One address guessing codes.
    for n in 0..10 {
        let (status, body, _) = guest_lookup(&shop, &format!("guess-{n}"), "198.51.100.1").await;
        assert_eq!(status, 403, "{body}");
        assert_error(&body, 403, "CHECKOUT__WRONG_GUEST_CREDENTIALS");
    }
    let (status, body, headers) = guest_lookup(&shop, "guess-10", "198.51.100.1").await;
    assert_eq!(status, 429, "{body}");
    assert_throttled(&body, &headers, "FRAMEWORK__RATE_LIMIT_EXCEEDED");
    // Many addresses guessing one order's postal code.
    for n in 0..10 {
        let (status, body, _) = guest_lookup(&shop, "one-order", &format!("203.0.113.{n}")).await;
        assert_eq!(status, 403, "{body}");
    }
    let (status, body, headers) = guest_lookup(&shop, "one-order", "203.0.113.99").await;
    assert_eq!(status, 429, "{body}");
    assert_throttled(&body, &headers, "FRAMEWORK__RATE_LIMIT_EXCEEDED");
    // Documents by deep link code are the same lookup.
    let path = format!("/document/download/{}/one-order", "a".repeat(32));
    let (status, body, _) = shop
        .call(
            Method::GET,
            &path,
            &[("x-forwarded-for", "203.0.113.100")],
            None,
        )
        .await;
    assert_eq!(status, 429, "{body}");
}

#[tokio::test]
async fn admin_password_writes_are_hashed_within_the_bound_on_hashing() {
    let shop = shop_with(|c| storefront_proxy::Config {
        password_checks: Some(1),
        password_check_queue: 0,
        ..c
    })
    .await;
    let admin = admin_support::admin(&shop).await;
    // One at a time: written, and the password logs in.
    let created = admin_support::post(
        &shop,
        "/user",
        &admin,
        json!({"username": "gus", "firstName": "Gus", "lastName": "Guide", "role": "guide", "password": "a good password"}),
    )
    .await;
    assert!(created.status < 300, "{}", created.body);
    admin_support::token(&shop, "gus", "a good password")
        .await
        .expect("the new user logs in");
    // Many at once: past the one slot, refused at once.
    let writes = (0..12).map(|n| {
        let (shop, admin) = (&shop, &admin);
        async move {
            let user = json!({
                "username": format!("user{n}"), "firstName": "U", "lastName": "Ser", "role": "guide",
                "password": format!("password number {n}")
            });
            if n % 2 == 0 {
                admin_support::post(shop, "/user", admin, user).await
            } else {
                let sync = json!([{"key": "users", "entity": "user", "action": "upsert", "payload": [user]}]);
                admin_support::post(shop, "/_action/sync", admin, sync).await
            }
        }
    });
    let answers = futures_util::future::join_all(writes).await;
    let busy: Vec<_> = answers.iter().filter(|a| a.status == 429).collect();
    assert!(
        !busy.is_empty(),
        "{:?}",
        answers.iter().map(|a| a.status).collect::<Vec<_>>()
    );
    for answer in busy {
        assert_throttled(
            &answer.body,
            &answer.headers,
            "FRAMEWORK__RATE_LIMIT_EXCEEDED",
        );
    }
    assert!(answers.iter().all(|a| a.status == 429 || a.status < 300));
}
