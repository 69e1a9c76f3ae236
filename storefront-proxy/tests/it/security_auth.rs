//! Issue #29, items 1–4, against a real shop: mailed links point only at the shop's own
//! domains (whatever `storefrontUrl`, `Host` or `X-Forwarded-Host` say), logins and
//! mail requests are throttled with growing waits (Shopware's rate limiter and error
//! shape), password hashing is bounded and takes as long for an unknown user, and a new
//! password or a logout ends an admin user's tokens, which are stored only as hashes.

use crate::admin_support;
use crate::common;
use crate::extras;

use std::time::{Duration, Instant};

use common::{assert_error, serve_with, Shop};
use extras::{has_violation, outbox, DEMO_EMAIL, DEMO_PASSWORD};
use reqwest::Method;
use serde_json::{json, Value};

/// A shop with `edit` applied to its settings.
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

/// Headers that claim the request came to evil.example.
const EVIL: [(&str, &str); 3] = [
    ("x-forwarded-host", "evil.example"),
    ("x-forwarded-proto", "http"),
    ("host", "evil.example"),
];

fn no_evil_links(shop: &Shop) {
    for mail in outbox(shop) {
        assert!(
            !mail.text.contains("evil.example") && !mail.html.contains("evil.example"),
            "{}",
            mail.text
        );
    }
}

/// `Customer login` with the client address `from` (a trusted proxy's X-Forwarded-For).
async fn customer_login(
    shop: &Shop,
    email: &str,
    password: &str,
    from: Option<&str>,
) -> (u16, Value, reqwest::header::HeaderMap) {
    let headers: Vec<(&str, &str)> = from.map(|ip| ("x-forwarded-for", ip)).into_iter().collect();
    shop.call(
        Method::POST,
        "/account/login",
        &headers,
        Some(json!({"username": email, "password": password})),
    )
    .await
}

async fn admin_login(
    shop: &Shop,
    username: &str,
    password: &str,
    from: Option<&str>,
) -> (u16, Value, reqwest::header::HeaderMap) {
    let mut request = shop.http.post(format!("{}/api/oauth/token", shop.base));
    if let Some(ip) = from {
        request = request.header("x-forwarded-for", ip);
    }
    let body = json!({"grant_type": "password", "client_id": "administration", "username": username, "password": password});
    common::send(request, Some(body)).await
}

/// Asserts a throttled answer in Shopware's shape: 429, `code`, the wait in
/// `meta.parameters.seconds` and `Retry-After`.
fn assert_throttled(body: &Value, headers: &reqwest::header::HeaderMap, code: &str) -> u64 {
    assert_error(body, 429, code);
    let seconds = body["errors"][0]["meta"]["parameters"]["seconds"]
        .as_u64()
        .unwrap_or_else(|| panic!("no wait: {body}"));
    assert!(seconds >= 1, "{body}");
    assert_eq!(
        headers["retry-after"].to_str().unwrap(),
        seconds.to_string()
    );
    assert!(
        body["errors"][0]["detail"]
            .as_str()
            .unwrap()
            .contains(&format!("{seconds} seconds")),
        "{body}"
    );
    seconds
}

// ---- Item 1: recovery-link poisoning ----

#[tokio::test]
async fn mailed_links_point_only_at_the_shops_domains_whatever_the_request_says() {
    let shop = shop_with(|c| c).await;
    // A foreign storefrontUrl, with Host and X-Forwarded-Host saying the request came
    // there: refused as Shopware refuses a URL that is no domain of the sales channel.
    for (path, body) in [
        (
            "/account/recovery-password",
            json!({"email": DEMO_EMAIL, "storefrontUrl": "http://evil.example"}),
        ),
        (
            "/newsletter/subscribe",
            json!({"email": "reader@example.com", "option": "subscribe", "storefrontUrl": "http://evil.example"}),
        ),
        (
            "/account/recovery-password",
            json!({"email": DEMO_EMAIL, "storefrontUrl": format!("{}@evil.example", shop.base)}),
        ),
        (
            "/account/recovery-password",
            json!({"email": DEMO_EMAIL, "storefrontUrl": format!("{}//evil.example", shop.base)}),
        ),
    ] {
        let (status, answer, _) = shop.call(Method::POST, path, &EVIL, Some(body)).await;
        assert_eq!(status, 400, "{path}: {answer}");
        assert!(
            has_violation(&answer, "/storefrontUrl", "VIOLATION::NO_SUCH_CHOICE_ERROR"),
            "{answer}"
        );
    }
    assert!(outbox(&shop).is_empty());

    // The shop's own URL with the same headers: the mails link to the shop.
    let (status, answer, _) = shop
        .call(
            Method::POST,
            "/account/recovery-password",
            &EVIL,
            Some(json!({"email": DEMO_EMAIL, "storefrontUrl": shop.base})),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let newsletter = json!({"email": "reader@example.com", "option": "subscribe", "storefrontUrl": format!("{}/de-DE", shop.base)});
    let (status, answer, _) = shop
        .call(
            Method::POST,
            "/newsletter/subscribe",
            &EVIL,
            Some(newsletter),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let mails = outbox(&shop);
    assert_eq!(mails.len(), 2);
    assert!(
        mails[0]
            .text
            .contains(&format!("{}/account/recover/password?hash=", shop.base)),
        "{}",
        mails[0].text
    );
    assert!(
        mails[1]
            .text
            .contains(&format!("{}/de-DE/newsletter-subscribe?", shop.base)),
        "{}",
        mails[1].text
    );
    no_evil_links(&shop);
}

#[tokio::test]
async fn without_shop_endpoint_the_host_header_still_decides_no_link() {
    // No SHOP_ENDPOINT: the shop's origins are its own loopback ones, not the Host.
    let shop = shop_with(|c| storefront_proxy::Config {
        shop_endpoint: None,
        ..c
    })
    .await;
    let (status, answer, _) = shop
        .call(
            Method::POST,
            "/account/recovery-password",
            &EVIL,
            Some(json!({"email": DEMO_EMAIL, "storefrontUrl": "http://evil.example"})),
        )
        .await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        has_violation(&answer, "/storefrontUrl", "VIOLATION::NO_SUCH_CHOICE_ERROR"),
        "{answer}"
    );
    // The invitation mails of the live room link to the shop too.
    let admin = admin_support::admin(&shop).await;
    let presentation =
        admin_support::create(&shop, "dsr-presentation", &admin, json!({"name": "Slides"})).await;
    let appointment = admin_support::create(
        &shop,
        "dsr-appointment",
        &admin,
        json!({"presentationId": presentation["id"], "presentationPath": "evil-check", "mode": "guided", "name": "Evil check",
               "accessibleFrom": "2030-12-01T18:00:00+01:00", "accessibleTo": "2030-12-01T19:30:00+01:00"}),
    )
    .await;
    let id = appointment["id"].as_str().unwrap();
    let mut request = shop
        .http
        .post(format!(
            "{}/api/_action/dsr/appointment/{id}/invite",
            shop.base
        ))
        .bearer_auth(&admin);
    for (name, value) in EVIL {
        request = request.header(name, value);
    }
    let (status, answer, _) =
        common::send(request, Some(json!({"emails": ["ada@example.com"]}))).await;
    assert_eq!(status, 200, "{answer}");
    let mails = outbox(&shop);
    assert_eq!(mails.len(), 1);
    assert!(
        mails[0].text.contains(&format!("{}/", shop.base)),
        "{}",
        mails[0].text
    );
    no_evil_links(&shop);
}

// ---- Item 2: throttling ----

#[tokio::test]
async fn thirty_wrong_customer_passwords_are_throttled_with_growing_waits() {
    let shop = shop_with(|c| c).await;
    let mut refused = 0;
    for attempt in 1..=30 {
        let (status, body, headers) =
            customer_login(&shop, DEMO_EMAIL, "wrong-password", None).await;
        if attempt <= 10 {
            assert_eq!(status, 401, "attempt {attempt}: {body}");
            assert_error(&body, 401, "CHECKOUT__CUSTOMER_AUTH_BAD_CREDENTIALS");
        } else {
            assert_eq!(status, 429, "attempt {attempt}: {body}");
            assert!(assert_throttled(&body, &headers, "CHECKOUT__CUSTOMER_AUTH_THROTTLED") <= 10);
            refused += 1;
        }
    }
    assert_eq!(refused, 20);
    // The right password from the same address waits too …
    let (status, body, headers) = customer_login(&shop, DEMO_EMAIL, DEMO_PASSWORD, None).await;
    assert_eq!(status, 429, "{body}");
    assert_throttled(&body, &headers, "CHECKOUT__CUSTOMER_AUTH_THROTTLED");
    // … while the customer logs in from elsewhere (a trusted proxy's X-Forwarded-For).
    let (status, body, _) =
        customer_login(&shop, DEMO_EMAIL, DEMO_PASSWORD, Some("198.51.100.20")).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn concurrent_wrong_passwords_are_counted_before_they_are_checked() {
    let shop = shop_with(|c| c).await;
    let logins = (0..30).map(|_| customer_login(&shop, DEMO_EMAIL, "wrong-password", None));
    let statuses: Vec<u16> = futures_util::future::join_all(logins)
        .await
        .into_iter()
        .map(|(status, _, _)| status)
        .collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 401).count(),
        10,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 429).count(),
        20,
        "{statuses:?}"
    );
}

#[tokio::test]
async fn rotating_addresses_do_not_escape_the_accounts_throttle() {
    let shop = shop_with(|c| c).await;
    let mut statuses = Vec::new();
    for attempt in 0..30 {
        let from = format!("203.0.113.{attempt}");
        statuses.push(
            customer_login(&shop, DEMO_EMAIL, "wrong-password", Some(&from))
                .await
                .0,
        );
    }
    // The account alone takes twice the free attempts, then waits.
    assert_eq!(
        statuses.iter().filter(|s| **s == 401).count(),
        20,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 429).count(),
        10,
        "{statuses:?}"
    );
}

#[tokio::test]
async fn forwarded_addresses_count_only_from_trusted_proxies() {
    // No proxy is trusted: X-Forwarded-For is the client's own claim and is ignored.
    let shop = shop_with(|c| storefront_proxy::Config {
        trusted_proxies: Vec::new(),
        ..c
    })
    .await;
    let mut statuses = Vec::new();
    for attempt in 0..12 {
        let from = format!("203.0.113.{attempt}");
        statuses.push(
            customer_login(&shop, DEMO_EMAIL, "wrong-password", Some(&from))
                .await
                .0,
        );
    }
    assert_eq!(&statuses[10..], &[429, 429], "{statuses:?}");
}

#[tokio::test]
async fn admin_logins_are_throttled_like_shopwares_oauth_limiter() {
    let shop = shop_with(|c| c).await;
    for attempt in 1..=30 {
        let (status, body, headers) = admin_login(&shop, "admin", "wrong-password", None).await;
        if attempt <= 10 {
            assert_eq!(status, 400, "attempt {attempt}: {body}");
        } else {
            assert_eq!(status, 429, "attempt {attempt}: {body}");
            assert_throttled(&body, &headers, "FRAMEWORK__AUTH_THROTTLED");
        }
    }
    let (status, body, headers) = admin_login(&shop, "admin", "shopware", None).await;
    assert_eq!(status, 429, "the right password waits too: {body}");
    assert_throttled(&body, &headers, "FRAMEWORK__AUTH_THROTTLED");
    let (status, body, _) = admin_login(&shop, "admin", "shopware", Some("198.51.100.30")).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn a_successful_login_forgets_the_failures_before_it() {
    let shop = shop_with(|c| c).await;
    for _ in 0..3 {
        for _ in 0..9 {
            assert_eq!(
                customer_login(&shop, DEMO_EMAIL, "wrong-password", None)
                    .await
                    .0,
                401
            );
        }
        let (status, body, _) = customer_login(&shop, DEMO_EMAIL, DEMO_PASSWORD, None).await;
        assert_eq!(status, 200, "{body}");
    }
}

#[tokio::test]
async fn mails_to_anyone_are_throttled_per_address_and_per_recipient() {
    let shop = shop_with(|c| c).await;
    // One recipient: half the free requests of an address.
    for attempt in 1..=6 {
        let body = json!({"email": DEMO_EMAIL, "storefrontUrl": shop.base});
        let (status, answer, headers) = shop
            .call(Method::POST, "/account/recovery-password", &[], Some(body))
            .await;
        if attempt <= 5 {
            assert_eq!(status, 200, "attempt {attempt}: {answer}");
        } else {
            assert_eq!(status, 429, "{answer}");
            assert_throttled(&answer, &headers, "FRAMEWORK__RATE_LIMIT_EXCEEDED");
        }
    }
    assert_eq!(outbox(&shop).len(), 5);

    // Newsletter subscriptions to many addresses from one client address.
    let shop = shop_with(|c| c).await;
    for attempt in 1..=11 {
        let body = json!({"email": format!("victim{attempt}@example.com"), "option": "subscribe", "storefrontUrl": shop.base});
        let (status, answer, headers) = shop
            .call(Method::POST, "/newsletter/subscribe", &[], Some(body))
            .await;
        if attempt <= 10 {
            assert_eq!(status, 200, "attempt {attempt}: {answer}");
        } else {
            assert_eq!(status, 429, "{answer}");
            assert_throttled(&answer, &headers, "FRAMEWORK__RATE_LIMIT_EXCEEDED");
        }
    }
    assert_eq!(outbox(&shop).len(), 10);

    // The contact form.
    let shop = shop_with(|c| c).await;
    for attempt in 1..=11 {
        let body = json!({"email": "ada@example.com", "subject": "Hello", "comment": "A question about the shop."});
        let (status, answer, headers) = shop
            .call(Method::POST, "/contact-form", &[], Some(body))
            .await;
        if attempt <= 10 {
            assert_eq!(status, 200, "attempt {attempt}: {answer}");
        } else {
            assert_eq!(status, 429, "{answer}");
            assert_throttled(&answer, &headers, "FRAMEWORK__RATE_LIMIT_EXCEEDED");
        }
    }
    assert_eq!(outbox(&shop).len(), 10);
}

#[tokio::test]
async fn registrations_and_guest_joins_have_a_quota_per_address() {
    let shop = shop_with(|c| storefront_proxy::Config {
        registrations_per_minute: 2,
        joins_per_minute: 2,
        ..c
    })
    .await;
    let (_, countries) = shop.post("/country", json!({})).await;
    let germany = common::elements(&countries)
        .into_iter()
        .find(|c| c["iso"] == "DE")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut statuses = Vec::new();
    for n in 0..3 {
        let body = json!({
            "email": format!("guest{n}@example.com"), "firstName": "Ada", "lastName": "Lovelace", "guest": true,
            "storefrontUrl": shop.base,
            "billingAddress": {"street": "Main Street 1", "zipcode": "10115", "city": "Berlin", "countryId": germany},
        });
        let (status, answer, headers) = shop
            .call(Method::POST, "/account/register", &[], Some(body))
            .await;
        if status == 429 {
            assert_throttled(&answer, &headers, "FRAMEWORK__RATE_LIMIT_EXCEEDED");
        }
        statuses.push(status);
    }
    assert_eq!(statuses, [200, 200, 429]);
    // Another client address has its own quota.
    let (status, body, _) = shop
        .call(
            Method::POST,
            "/account/register",
            &[("x-forwarded-for", "198.51.100.40")],
            Some(json!({})),
        )
        .await;
    assert_eq!(status, 400, "{body}");

    let mut statuses = Vec::new();
    for n in 0..3 {
        let (status, answer, headers) = shop
            .call(
                Method::POST,
                "/dsr/appointment/demo/join-as-client",
                &[],
                Some(json!({"attendeeName": format!("Guest {n}")})),
            )
            .await;
        if status == 429 {
            assert_throttled(&answer, &headers, "FRAMEWORK__RATE_LIMIT_EXCEEDED");
        }
        statuses.push(status);
    }
    assert_eq!(statuses[2], 429, "{statuses:?}");
    assert_ne!(statuses[0], 429, "{statuses:?}");
}

// ---- Item 3: bounded password hashing ----

#[tokio::test]
async fn password_checks_past_the_queue_are_answered_at_once() {
    let shop = shop_with(|c| storefront_proxy::Config {
        password_checks: Some(1),
        password_check_queue: 1,
        ..c
    })
    .await;
    let logins = (0..12).map(|n| {
        let shop = &shop;
        async move {
            let (from, email) = (format!("203.0.113.{n}"), format!("nobody{n}@example.com"));
            customer_login(shop, &email, "wrong-password", Some(&from)).await
        }
    });
    let answers = futures_util::future::join_all(logins).await;
    let busy: Vec<_> = answers
        .iter()
        .filter(|(status, _, _)| *status == 429)
        .collect();
    assert!(
        !busy.is_empty(),
        "one check at a time and one waiting: the others are refused"
    );
    for (_, body, headers) in busy {
        assert_throttled(body, headers, "FRAMEWORK__RATE_LIMIT_EXCEEDED");
    }
    assert!(answers
        .iter()
        .all(|(status, _, _)| *status == 429 || *status == 401));
}

#[tokio::test]
async fn an_unknown_user_is_refused_as_slowly_as_a_wrong_password() {
    let shop = shop_with(|c| c).await;
    async fn median(shop: &Shop, email: &str, n: usize) -> Duration {
        let mut times = Vec::new();
        for i in 0..n {
            let from = format!("198.51.100.{i}");
            let start = Instant::now();
            let (status, body, _) =
                customer_login(shop, email, "wrong-password", Some(&from)).await;
            times.push(start.elapsed());
            assert_eq!(status, 401, "{body}");
        }
        times.sort();
        times[n / 2]
    }
    // Warm up (the dummy hash is made on first use).
    customer_login(
        &shop,
        "warm@example.com",
        "wrong-password",
        Some("192.0.2.1"),
    )
    .await;
    let known = median(&shop, DEMO_EMAIL, 7).await;
    let unknown = median(&shop, "nobody@example.com", 7).await;
    assert!(
        unknown * 2 > known,
        "unknown {unknown:?}, known {known:?}: the hash check is skipped for unknown users"
    );
}

// ---- Item 4: a password change and a logout end the sessions ----

async fn tokens(shop: &Shop, username: &str, password: &str) -> (String, String) {
    let (status, body, _) = admin_login(shop, username, password, None).await;
    assert_eq!(status, 200, "{body}");
    (
        body["access_token"].as_str().unwrap().to_owned(),
        body["refresh_token"].as_str().unwrap().to_owned(),
    )
}

async fn refresh(shop: &Shop, refresh_token: &str) -> (u16, Value) {
    let request = shop.http.post(format!("{}/api/oauth/token", shop.base));
    let (status, body, _) =
        common::send(request, Some(json!({"grant_type": "refresh_token", "client_id": "administration", "refresh_token": refresh_token})))
            .await;
    (status, body)
}

#[tokio::test]
async fn a_new_password_ends_the_users_access_and_refresh_tokens() {
    let shop = shop_with(|c| c).await;
    let admin = admin_support::admin(&shop).await;
    let guide = admin_support::create(
        &shop,
        "user",
        &admin,
        json!({"username": "gina", "password": "guide-pass-1", "firstName": "Gina", "lastName": "Guide", "role": "guide"}),
    )
    .await;
    let id = guide["id"].as_str().unwrap();
    let (access, refresh_token) = tokens(&shop, "gina", "guide-pass-1").await;
    let (other_access, other_refresh) = tokens(&shop, "gina", "guide-pass-1").await;
    assert_eq!(
        admin_support::get(&shop, "/product?limit=1", &access)
            .await
            .status,
        200
    );

    // A change of anything else keeps the sessions.
    assert_eq!(
        admin_support::patch(
            &shop,
            &format!("/user/{id}"),
            &admin,
            json!({"firstName": "Gin"})
        )
        .await
        .status,
        204
    );
    assert_eq!(
        admin_support::get(&shop, "/product?limit=1", &access)
            .await
            .status,
        200
    );

    assert_eq!(
        admin_support::patch(
            &shop,
            &format!("/user/{id}"),
            &admin,
            json!({"password": "guide-pass-2"})
        )
        .await
        .status,
        204
    );
    for token in [&access, &other_access] {
        let answer = admin_support::get(&shop, "/product?limit=1", token).await;
        assert_eq!(answer.status, 401, "{}", answer.body);
    }
    for token in [&refresh_token, &other_refresh] {
        let (status, body) = refresh(&shop, token).await;
        assert_eq!(status, 401, "{body}");
    }
    // The admin who changed it stays signed in; the new password works.
    assert_eq!(
        admin_support::get(&shop, "/product?limit=1", &admin)
            .await
            .status,
        200
    );
    let (access, _) = tokens(&shop, "gina", "guide-pass-2").await;
    assert_eq!(
        admin_support::get(&shop, "/product?limit=1", &access)
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn a_logout_revokes_the_access_and_the_refresh_token() {
    let shop = shop_with(|c| c).await;
    let (access, refresh_token) = tokens(&shop, "admin", "shopware").await;
    let (kept_access, kept_refresh) = tokens(&shop, "admin", "shopware").await;
    // The refresh token alone names the grant: both of its tokens end.
    let (status, body, _) = common::send(
        shop.http.post(format!("{}/api/oauth/revoke", shop.base)),
        Some(json!({"token": refresh_token})),
    )
    .await;
    assert_eq!(
        (status, body["success"].clone()),
        (200, json!(true)),
        "{body}"
    );
    assert_eq!(
        admin_support::get(&shop, "/product?limit=1", &access)
            .await
            .status,
        401
    );
    assert_eq!(refresh(&shop, &refresh_token).await.0, 401);
    // Another session of the same user goes on.
    assert_eq!(
        admin_support::get(&shop, "/product?limit=1", &kept_access)
            .await
            .status,
        200
    );
    // The bearer alone (the access token) ends its grant too; an unknown token is no error.
    let (status, _, _) = common::send(
        shop.http
            .post(format!("{}/api/oauth/revoke", shop.base))
            .bearer_auth(&kept_access),
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        admin_support::get(&shop, "/product?limit=1", &kept_access)
            .await
            .status,
        401
    );
    assert_eq!(refresh(&shop, &kept_refresh).await.0, 401);
    let (status, _, _) = common::send(
        shop.http.post(format!("{}/api/oauth/revoke", shop.base)),
        Some(json!({"token": "unknown"})),
    )
    .await;
    assert_eq!(status, 200);
    let (status, body, _) = common::send(
        shop.http.post(format!("{}/api/oauth/revoke", shop.base)),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["code"], "2");
}

#[tokio::test]
async fn bearer_and_refresh_tokens_are_stored_only_as_hashes() {
    let shop = shop_with(|c| c).await;
    let (access, refresh_token) = tokens(&shop, "admin", "shopware").await;
    let conn = rusqlite::Connection::open(shop.dir.path().join("shop.sqlite")).unwrap();
    let stored: Vec<String> = conn
        .prepare("SELECT token_hash FROM admin_token")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(stored.len(), 2);
    for token in [&access, &refresh_token] {
        assert!(!stored.contains(token), "{token} is stored as sent");
        assert!(
            stored.contains(&storefront_proxy::security::token_hash(token)),
            "{stored:?}"
        );
    }
    // And the refresh grant still works through the hash.
    let (status, body) = refresh(&shop, &refresh_token).await;
    assert_eq!(status, 200, "{body}");
}
