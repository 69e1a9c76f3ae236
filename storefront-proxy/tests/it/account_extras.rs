//! Account extras against a real shop: profile, email and password changes, password
//! recovery through the real outbox, and the payment preference.

use crate::common;
use crate::extras;

use common::{assert_error, elements, start, start_in, Shop};
use extras::*;
use reqwest::Method;
use serde_json::{json, Value};

fn with(token: &str) -> [(&str, &str); 1] {
    [("sw-context-token", token)]
}

#[tokio::test]
async fn every_change_needs_a_logged_in_customer() {
    let shop = start().await;
    let anonymous_token = {
        let (_, _, headers) = shop.call(Method::GET, "/context", &[], None).await;
        headers["sw-context-token"].to_str().unwrap().to_owned()
    };
    for path in [
        "/account/change-profile",
        "/account/change-email",
        "/account/change-password",
        "/account/change-payment-method/0123456789abcdef0123456789abcdef",
        "/account/newsletter-recipient",
    ] {
        let (status, body) = shop.post(path, json!({})).await;
        assert_eq!(status, 403, "{path}: {body}");
        assert_error(&body, 403, "CHECKOUT__CUSTOMER_NOT_LOGGED_IN");
        let (status, _) = shop
            .post_with(path, &with(&anonymous_token), json!({}))
            .await;
        assert_eq!(status, 403, "{path}");
    }
    // Guests may change their profile and payment method, not email, password or newsletter.
    let guest = register(&shop, "guest@example.com", None).await;
    for path in [
        "/account/change-email",
        "/account/change-password",
        "/account/newsletter-recipient",
    ] {
        let (status, body) = shop
            .post_with(
                path,
                &with(&guest),
                json!({"password": "whatever1", "email": "x@example.com"}),
            )
            .await;
        assert_eq!(status, 403, "{path}: {body}");
        assert_error(&body, 403, "CHECKOUT__CUSTOMER_NOT_LOGGED_IN");
    }
    let (status, body) = shop
        .post_with(
            "/account/change-profile",
            &with(&guest),
            json!({"firstName": "Gus", "lastName": "Guest"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(customer(&shop, &guest).await["firstName"], "Gus");
}

#[tokio::test]
async fn the_profile_is_validated_and_saved() {
    let shop = start().await;
    let token = demo_token(&shop).await;
    let before = customer(&shop, &token).await;

    let (status, body) = post_raw(
        &shop,
        "/account/change-profile",
        Some(&token),
        "{\"firstName\": ",
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "FRAMEWORK__INVALID_REQUEST_BODY");

    let (status, body) = shop
        .post_with(
            "/account/change-profile",
            &with(&token),
            json!({"firstName": "", "lastName": 7, "salutationId": "0123456789abcdef0123456789abcdef",
                   "birthdayDay": 31, "birthdayMonth": 2, "birthdayYear": 1990, "accountType": "business"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        has_violation(&body, "/firstName", "VIOLATION::IS_BLANK_ERROR"),
        "{body}"
    );
    assert!(
        has_violation(&body, "/salutationId", "VIOLATION::NO_SUCH_CHOICE_ERROR"),
        "{body}"
    );
    assert!(
        has_violation(&body, "/birthdayDay", "VIOLATION::INVALID_DATE_ERROR"),
        "{body}"
    );
    assert!(
        has_violation(&body, "/company", "VIOLATION::IS_BLANK_ERROR"),
        "{body}"
    );
    assert!(
        has_violation(&body, "/vatIds", "VIOLATION::IS_BLANK_ERROR"),
        "{body}"
    );
    let (status, body) = shop
        .post_with(
            "/account/change-profile",
            &with(&token),
            json!({"firstName": "A", "lastName": "B", "birthdayDay": 3}),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/birthdayMonth", "VIOLATION::IS_BLANK_ERROR")
            && has_violation(&body, "/birthdayYear", "VIOLATION::IS_BLANK_ERROR"),
        "{body}"
    );
    let (status, body) = shop
        .post_with(
            "/account/change-profile",
            &with(&token),
            json!({"firstName": "A", "lastName": "B", "birthdayDay": 1, "birthdayMonth": 1, "birthdayYear": 2999}),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/birthdayYear", "VIOLATION::TOO_HIGH_ERROR"),
        "{body}"
    );
    let long = "x".repeat(256);
    let (status, body) = shop
        .post_with(
            "/account/change-profile",
            &with(&token),
            json!({"firstName": long, "lastName": "B"}),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/firstName", "VIOLATION::TOO_LONG_ERROR"),
        "{body}"
    );
    let unchanged = customer(&shop, &token).await;
    assert_eq!(
        unchanged["firstName"], before["firstName"],
        "refusals change nothing"
    );
    assert_eq!(unchanged["lastName"], before["lastName"]);

    let (_, salutations) = shop.get("/salutation", &[]).await;
    let mrs = elements(&salutations)
        .into_iter()
        .find(|s| s["salutationKey"] == "mrs")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = shop
        .post_with(
            "/account/change-profile",
            &with(&token),
            json!({"salutationId": mrs, "title": "Dr.", "firstName": " Grace ", "lastName": "Hopper",
                   "birthdayDay": "9", "birthdayMonth": 12, "birthdayYear": 1906}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["success"], true);
    // Fields not sent stay as they are.
    let (status, _) = shop
        .post_with(
            "/account/change-profile",
            &with(&token),
            json!({"firstName": "Grace", "lastName": "Brewster Hopper"}),
        )
        .await;
    assert_eq!(status, 200);
    let (status, body) = shop
        .post_with(
            "/account/change-profile",
            &with(&token),
            json!({"firstName": "Grace", "lastName": "Brewster Hopper", "accountType": "business", "company": "Navy", "vatIds": []}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        has_violation(&body, "/vatIds", "VIOLATION::TOO_FEW_ERROR"),
        "{body}"
    );
    assert_eq!(customer(&shop, &token).await["accountType"], "private");
    let (status, body) = shop
        .post_with("/account/change-profile", &with(&token), json!({"firstName": "Grace", "lastName": "Brewster Hopper", "accountType": "business", "company": "Navy", "vatIds": ["DE123456789"]}))
        .await;
    assert_eq!(status, 200, "{body}");

    let Shop { dir, .. } = shop;
    let shop = start_in(dir).await;
    let after = customer(&shop, &token).await;
    assert_eq!(after["firstName"], "Grace");
    assert_eq!(after["lastName"], "Brewster Hopper");
    assert_eq!(after["title"], "Dr.");
    assert_eq!(after["salutationId"], mrs.as_str());
    assert_eq!(after["salutation"]["salutationKey"], "mrs");
    assert_eq!(after["birthday"], "1906-12-09");
    assert_eq!(after["accountType"], "business");
    assert_eq!(after["company"], "Navy");
    assert_eq!(after["vatIds"], json!(["DE123456789"]));
}

#[tokio::test]
async fn the_email_changes_with_the_password_to_a_free_confirmed_address() {
    let shop = start().await;
    register(&shop, "taken@example.com", Some("password-of-taken")).await;
    let token = demo_token(&shop).await;
    let change = |email: &str, confirmation: &str, password: &str| json!({"email": email, "emailConfirmation": confirmation, "password": password});

    let (status, body) = shop
        .post_with(
            "/account/change-email",
            &with(&token),
            change("new@example.com", "new@example.com", "wrong-password"),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        has_violation(
            &body,
            "/password",
            "VIOLATION::CUSTOMER_PASSWORD_NOT_CORRECT"
        ),
        "{body}"
    );
    let (status, body) = shop
        .post_with(
            "/account/change-email",
            &with(&token),
            change("new@example.com", "other@example.com", DEMO_PASSWORD),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/emailConfirmation", "VIOLATION::NOT_EQUAL_ERROR"),
        "{body}"
    );
    let (status, body) = shop
        .post_with(
            "/account/change-email",
            &with(&token),
            change("Taken@example.com", "taken@example.com", DEMO_PASSWORD),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/email", "VIOLATION::CUSTOMER_EMAIL_NOT_UNIQUE"),
        "{body}"
    );
    let (status, body) = shop
        .post_with(
            "/account/change-email",
            &with(&token),
            change("no-at-sign", "no-at-sign", DEMO_PASSWORD),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/email", "VIOLATION::INVALID_EMAIL_FORMAT_ERROR"),
        "{body}"
    );
    let (status, body) = shop
        .post_with(
            "/account/change-email",
            &with(&token),
            json!({"email": ["x"], "password": 5}),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/email", "VIOLATION::INVALID_TYPE_ERROR")
            && has_violation(&body, "/password", "VIOLATION::INVALID_TYPE_ERROR"),
        "{body}"
    );
    assert_eq!(
        customer(&shop, &token).await["email"],
        DEMO_EMAIL,
        "refusals change nothing"
    );

    let (status, body) = shop
        .post_with(
            "/account/change-email",
            &with(&token),
            change("Grace@Example.com", "grace@example.com", DEMO_PASSWORD),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(customer(&shop, &token).await["email"], "grace@example.com");
    let Shop { dir, .. } = shop;
    let shop = start_in(dir).await;
    assert!(login(&shop, DEMO_EMAIL, DEMO_PASSWORD).await.is_err());
    assert!(login(&shop, "grace@example.com", DEMO_PASSWORD)
        .await
        .is_ok());
}

#[tokio::test]
async fn the_password_changes_with_the_current_one() {
    let shop = start().await;
    let token = demo_token(&shop).await;
    let change = |current: &str, new: &str, confirm: &str| json!({"password": current, "newPassword": new, "newPasswordConfirm": confirm});

    let (status, body) = shop
        .post_with(
            "/account/change-password",
            &with(&token),
            change("wrong-password", "a-new-password", "a-new-password"),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        has_violation(
            &body,
            "/password",
            "VIOLATION::CUSTOMER_PASSWORD_NOT_CORRECT"
        ),
        "{body}"
    );
    let (status, body) = shop
        .post_with(
            "/account/change-password",
            &with(&token),
            change(DEMO_PASSWORD, "short", "short"),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/newPassword", "VIOLATION::TOO_SHORT_ERROR"),
        "{body}"
    );
    let (status, body) = shop
        .post_with(
            "/account/change-password",
            &with(&token),
            change(DEMO_PASSWORD, "a-new-password", "another-password"),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/newPasswordConfirm", "VIOLATION::NOT_EQUAL_ERROR"),
        "{body}"
    );
    let (status, body) = shop
        .post_with("/account/change-password", &with(&token), json!({}))
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/password", "VIOLATION::IS_BLANK_ERROR")
            && has_violation(&body, "/newPassword", "VIOLATION::IS_BLANK_ERROR"),
        "{body}"
    );
    let (status, _) = post_raw(&shop, "/account/change-password", Some(&token), "[1, 2]").await;
    assert_eq!(status, 400);
    assert!(
        login(&shop, DEMO_EMAIL, DEMO_PASSWORD).await.is_ok(),
        "refusals change nothing"
    );

    let (status, body) = shop
        .post_with(
            "/account/change-password",
            &with(&token),
            change(DEMO_PASSWORD, "a-new-password", "a-new-password"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let Shop { dir, .. } = shop;
    let shop = start_in(dir).await;
    let (status, body) = login(&shop, DEMO_EMAIL, DEMO_PASSWORD).await.unwrap_err();
    assert_eq!(status, 401);
    assert_error(&body, 401, "CHECKOUT__CUSTOMER_AUTH_BAD_CREDENTIALS");
    assert!(login(&shop, DEMO_EMAIL, "a-new-password").await.is_ok());
}

async fn ask_recovery(shop: &Shop, email: &str) -> (u16, Value) {
    shop.post(
        "/account/recovery-password",
        json!({"email": email, "storefrontUrl": format!("{}/", shop.base)}),
    )
    .await
}

#[tokio::test]
async fn password_recovery_runs_end_to_end_through_the_outbox() {
    let shop = start().await;
    // Unknown addresses get the same answer and no mail.
    let (status, body) = ask_recovery(&shop, "nobody@example.com").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["success"], true);
    assert!(outbox(&shop).is_empty());
    // Links only to the shop's own origins.
    let (status, body) = shop
        .post(
            "/account/recovery-password",
            json!({"email": DEMO_EMAIL, "storefrontUrl": "https://evil.example"}),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/storefrontUrl", "VIOLATION::NO_SUCH_CHOICE_ERROR"),
        "{body}"
    );
    let (status, body) = shop
        .post(
            "/account/recovery-password",
            json!({"email": "not-an-email"}),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/email", "VIOLATION::INVALID_EMAIL_FORMAT_ERROR")
            && has_violation(&body, "/storefrontUrl", "VIOLATION::IS_BLANK_ERROR"),
        "{body}"
    );
    assert!(outbox(&shop).is_empty());

    let (status, body) = ask_recovery(&shop, "DEMO@example.com").await;
    assert_eq!(status, 200, "{body}");
    let mails = outbox(&shop);
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, DEMO_EMAIL);
    assert_eq!(mails[0].subject, "Reset your password");
    let link_prefix = format!("{}/account/recover/password?hash=", shop.base);
    assert!(mails[0].text.contains(&link_prefix), "{}", mails[0].text);
    assert!(mails[0].html.contains(&link_prefix), "{}", mails[0].html);
    // The same mail as an .eml file in DATA_DIR/mail.
    let files = eml_files(&shop);
    assert_eq!(files.len(), 1);
    assert!(
        files[0].contains("Subject: Reset your password") && files[0].contains("demo@example.com"),
        "{}",
        files[0]
    );
    let hash = link_param(&unquote(&files[0]), "hash");
    assert_eq!(hash, link_param(&mails[0].text, "hash"));
    assert_eq!(hash.len(), 32);

    let (status, body) = shop
        .post(
            "/account/customer-recovery-is-expired",
            json!({"hash": hash}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["isExpired"], false);
    let (status, body) = shop
        .post(
            "/account/customer-recovery-is-expired",
            json!({"hash": "0123456789abcdef0123456789abcdef"}),
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CHECKOUT__CUSTOMER_NOT_FOUND_BY_HASH");
    let (status, body) = shop
        .post(
            "/account/customer-recovery-is-expired",
            json!({"hash": "short"}),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/hash", "VIOLATION::NOT_EQUAL_LENGTH_ERROR"),
        "{body}"
    );

    let confirm = |hash: &str, new: &str, again: &str| json!({"hash": hash, "newPassword": new, "newPasswordConfirm": again});
    let (status, body) = shop
        .post(
            "/account/recovery-password-confirm",
            confirm(&hash, "recovered-password", "different-password"),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/newPasswordConfirm", "VIOLATION::NOT_EQUAL_ERROR"),
        "{body}"
    );
    let (status, body) = shop
        .post(
            "/account/recovery-password-confirm",
            confirm("", "short", "short"),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/hash", "VIOLATION::IS_BLANK_ERROR")
            && has_violation(&body, "/newPassword", "VIOLATION::TOO_SHORT_ERROR"),
        "{body}"
    );
    let (status, body) = shop
        .post(
            "/account/recovery-password-confirm",
            confirm(
                "0123456789abcdef0123456789abcdef",
                "recovered-password",
                "recovered-password",
            ),
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CHECKOUT__CUSTOMER_NOT_FOUND_BY_HASH");
    assert!(
        login(&shop, DEMO_EMAIL, DEMO_PASSWORD).await.is_ok(),
        "refusals change nothing"
    );

    let (status, body) = shop
        .post(
            "/account/recovery-password-confirm",
            confirm(&hash, "recovered-password", "recovered-password"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(login(&shop, DEMO_EMAIL, DEMO_PASSWORD).await.is_err());
    assert!(login(&shop, DEMO_EMAIL, "recovered-password").await.is_ok());
    // A hash works once.
    let (status, body) = shop
        .post(
            "/account/recovery-password-confirm",
            confirm(&hash, "third-password", "third-password"),
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CHECKOUT__CUSTOMER_NOT_FOUND_BY_HASH");
}

#[tokio::test]
async fn an_expired_recovery_hash_is_refused() {
    let shop = start().await;
    let (status, _) = ask_recovery(&shop, DEMO_EMAIL).await;
    assert_eq!(status, 200);
    let hash = link_param(&outbox(&shop)[0].text, "hash");
    // A second request replaces the first link.
    let (status, _) = ask_recovery(&shop, DEMO_EMAIL).await;
    assert_eq!(status, 200);
    let mails = outbox(&shop);
    assert_eq!(mails.len(), 2);
    let second = link_param(&mails[1].text, "hash");
    assert_ne!(hash, second);
    let (status, _) = shop
        .post(
            "/account/customer-recovery-is-expired",
            json!({"hash": hash}),
        )
        .await;
    assert_eq!(status, 404, "the first link no longer exists");

    execute(
        &shop,
        "UPDATE customer_recovery SET created_at = '2020-01-01T00:00:00Z'",
    );
    let (status, body) = shop
        .post(
            "/account/customer-recovery-is-expired",
            json!({"hash": second}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["isExpired"], true);
    let (status, body) = shop
        .post(
            "/account/recovery-password-confirm",
            json!({"hash": second, "newPassword": "too-late-password", "newPasswordConfirm": "too-late-password"}),
        )
        .await;
    assert_eq!(status, 410, "{body}");
    assert_error(&body, 410, "CHECKOUT__CUSTOMER_RECOVERY_HASH_EXPIRED");
    assert!(login(&shop, DEMO_EMAIL, DEMO_PASSWORD).await.is_ok());
}

#[tokio::test]
async fn the_payment_method_becomes_the_customers_default_and_the_sessions() {
    let shop = start().await;
    let token = demo_token(&shop).await;
    let (_, methods) = shop.get("/payment-method", &[]).await;
    let methods = elements(&methods);
    let before = customer(&shop, &token).await;
    let other = methods
        .iter()
        .find(|m| m["id"] != before["defaultPaymentMethodId"])
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();

    let (status, body) = shop
        .post_with(
            "/account/change-payment-method/0123456789abcdef0123456789abcdef",
            &with(&token),
            json!({}),
        )
        .await;
    assert_eq!(status, 400);
    assert_error(
        &body,
        400,
        "CHECKOUT__CUSTOMER_CHANGE_PAYMENT_METHOD_NOT_FOUND",
    );
    let (status, body) = shop
        .post_with(
            "/account/change-payment-method/not-an-id",
            &with(&token),
            json!({}),
        )
        .await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "FRAMEWORK__INVALID_UUID");
    execute(
        &shop,
        &format!("UPDATE payment_method SET active = 0 WHERE id = '{other}'"),
    );
    let (status, _) = shop
        .post_with(
            &format!("/account/change-payment-method/{other}"),
            &with(&token),
            json!({}),
        )
        .await;
    assert_eq!(status, 400, "inactive methods are refused");
    execute(
        &shop,
        &format!("UPDATE payment_method SET active = 1 WHERE id = '{other}'"),
    );
    assert_eq!(
        customer(&shop, &token).await["defaultPaymentMethodId"],
        before["defaultPaymentMethodId"]
    );

    let (status, body) = shop
        .post_with(
            &format!("/account/change-payment-method/{other}"),
            &with(&token),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let after = customer(&shop, &token).await;
    assert_eq!(after["defaultPaymentMethodId"], other.as_str());
    assert_eq!(after["defaultPaymentMethod"]["id"], other.as_str());
    let (_, context) = shop.get("/context", &with(&token)).await;
    assert_eq!(context["paymentMethod"]["id"], other.as_str());
    // The next login starts with it too, also after a restart.
    let Shop { dir, .. } = shop;
    let shop = start_in(dir).await;
    let fresh = demo_token(&shop).await;
    let (_, context) = shop.get("/context", &with(&fresh)).await;
    assert_eq!(context["paymentMethod"]["id"], other.as_str());
}

/// The cart of a session, as product ids and quantities.
async fn cart_items(shop: &Shop, token: &str) -> Vec<(String, i64)> {
    let (status, cart, _) = shop
        .call(Method::GET, "/checkout/cart", &with(token), None)
        .await;
    assert_eq!(status, 200, "{cart}");
    cart["lineItems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["referencedId"].as_str().unwrap().to_owned(),
                i["quantity"].as_i64().unwrap(),
            )
        })
        .collect()
}

async fn is_logged_in(shop: &Shop, token: &str) -> bool {
    let (status, body) = shop
        .post_with("/account/customer", &with(token), json!({}))
        .await;
    match status {
        200 => true,
        403 => {
            assert_error(&body, 403, "CHECKOUT__CUSTOMER_NOT_LOGGED_IN");
            false
        }
        other => panic!("unexpected {other}: {body}"),
    }
}

#[tokio::test]
async fn a_password_change_logs_the_customers_other_sessions_out() {
    let shop = start().await;
    let here = demo_token(&shop).await;
    let phone = demo_token(&shop).await;
    let stranger = register(&shop, "someone-else@example.com", Some("other-password")).await;
    let (_, products) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "equals", "field": "productNumber", "value": "SR10005"}]}),
        )
        .await;
    let product = elements(&products)[0]["id"].as_str().unwrap().to_owned();
    let add = json!({"items": [{"type": "product", "referencedId": product, "quantity": 2}]});
    let (status, cart, _) = shop
        .call(
            Method::POST,
            "/checkout/cart/line-item",
            &with(&phone),
            Some(add),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    assert_eq!(cart_items(&shop, &phone).await, vec![(product.clone(), 2)]);

    // A refused change ends nothing.
    let change = |current: &str| json!({"password": current, "newPassword": "a-new-password", "newPasswordConfirm": "a-new-password"});
    let (status, _) = shop
        .post_with(
            "/account/change-password",
            &with(&here),
            change("wrong-password"),
        )
        .await;
    assert_eq!(status, 400);
    assert!(is_logged_in(&shop, &phone).await);

    let (status, body) = shop
        .post_with(
            "/account/change-password",
            &with(&here),
            change(DEMO_PASSWORD),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(
        is_logged_in(&shop, &here).await,
        "the caller's session stays"
    );
    assert!(
        !is_logged_in(&shop, &phone).await,
        "the other session is logged out"
    );
    assert!(
        is_logged_in(&shop, &stranger).await,
        "other customers keep theirs"
    );
    // The old token still works as an anonymous session, without the customer's cart,
    // which waits for the customer's next login.
    assert!(cart_items(&shop, &phone).await.is_empty());
    let again = login(&shop, DEMO_EMAIL, "a-new-password").await.unwrap();
    assert_eq!(cart_items(&shop, &again).await, vec![(product, 2)]);
}

#[tokio::test]
async fn a_password_recovery_logs_every_other_session_out() {
    let shop = start().await;
    let first = demo_token(&shop).await;
    let second = demo_token(&shop).await;
    let (status, _) = ask_recovery(&shop, DEMO_EMAIL).await;
    assert_eq!(status, 200);
    let hash = link_param(&outbox(&shop)[0].text, "hash");
    let confirm = json!({"hash": hash, "newPassword": "recovered-password", "newPasswordConfirm": "recovered-password"});
    // Refused (the confirmation differs): nobody is logged out.
    let (status, _) = shop
        .post_with(
            "/account/recovery-password-confirm",
            &with(&second),
            json!({"hash": hash, "newPassword": "recovered-password", "newPasswordConfirm": "x"}),
        )
        .await;
    assert_eq!(status, 400);
    assert!(is_logged_in(&shop, &first).await && is_logged_in(&shop, &second).await);

    let (status, body) = shop
        .post_with(
            "/account/recovery-password-confirm",
            &with(&second),
            confirm,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(!is_logged_in(&shop, &first).await);
    assert!(
        is_logged_in(&shop, &second).await,
        "the caller's session stays"
    );
    // Without a session of the customer, every session ends.
    let (status, _) = ask_recovery(&shop, DEMO_EMAIL).await;
    assert_eq!(status, 200);
    let hash = link_param(&outbox(&shop).last().unwrap().text, "hash");
    let (status, body) = shop
        .post(
            "/account/recovery-password-confirm",
            json!({"hash": hash, "newPassword": "third-password", "newPasswordConfirm": "third-password"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(!is_logged_in(&shop, &second).await);
}
