//! The newsletter against a real shop: double opt-in through the real outbox,
//! unsubscribing, the customer's status, and the refusals.

use crate::common;
use crate::extras;

use common::{assert_error, start, start_in, Shop};
use extras::*;
use serde_json::json;
use sha1::{Digest, Sha1};

fn subscription(shop: &Shop, email: &str) -> serde_json::Value {
    json!({"email": email, "option": "subscribe", "storefrontUrl": shop.base, "firstName": "Ada"})
}

async fn status_of(shop: &Shop, token: &str) -> String {
    let (status, body) = shop
        .post_with(
            "/account/newsletter-recipient",
            &[("sw-context-token", token)],
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["apiAlias"], "account_newsletter_recipient");
    body["status"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn double_opt_in_runs_end_to_end() {
    let shop = start().await;
    let reader = register(&shop, "reader@example.com", Some("reader-password")).await;
    assert_eq!(status_of(&shop, &reader).await, "undefined");
    let (status, body) = post_raw(&shop, "/account/newsletter-recipient", Some(&reader), "{").await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "FRAMEWORK__INVALID_REQUEST_BODY");

    let (status, body) = shop
        .post(
            "/newsletter/subscribe",
            subscription(&shop, "Reader@Example.com"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"success": true, "status": "notSet"}));
    assert_eq!(status_of(&shop, &reader).await, "notSet");
    let mails = outbox(&shop);
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, "reader@example.com");
    assert_eq!(
        mails[0].subject,
        "Please confirm your newsletter subscription"
    );
    assert!(
        mails[0]
            .text
            .contains(&format!("{}/newsletter-subscribe?em=", shop.base)),
        "{}",
        mails[0].text
    );
    let em = link_param(&mails[0].text, "em");
    let hash = link_param(&mails[0].text, "hash");
    assert_eq!(em, format!("{:x}", Sha1::digest(b"reader@example.com")));
    let eml = unquote(&eml_files(&shop)[0]);
    assert_eq!(
        link_param(&eml, "hash"),
        hash,
        "the .eml carries the same link"
    );

    // Subscribing again while pending mails the same link again.
    let (status, body) = shop
        .post(
            "/newsletter/subscribe",
            subscription(&shop, "reader@example.com"),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "notSet");
    let mails = outbox(&shop);
    assert_eq!(mails.len(), 2);
    assert_eq!(link_param(&mails[1].text, "hash"), hash);

    let (status, body) = shop
        .post(
            "/newsletter/confirm",
            json!({"hash": hash, "em": format!("{:x}", Sha1::digest(b"someone@example.com"))}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "CONTENT__NEWSLETTER_RECIPIENT_NOT_FOUND");
    let (status, body) = shop
        .post("/newsletter/confirm", json!({"hash": "unknown", "em": em}))
        .await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "CONTENT__NEWSLETTER_RECIPIENT_NOT_FOUND");
    let (status, body) = shop.post("/newsletter/confirm", json!({"hash": 5})).await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/hash", "VIOLATION::INVALID_TYPE_ERROR")
            && has_violation(&body, "/em", "VIOLATION::IS_BLANK_ERROR"),
        "{body}"
    );
    assert_eq!(
        status_of(&shop, &reader).await,
        "notSet",
        "refusals change nothing"
    );

    let (status, body) = shop
        .post("/newsletter/confirm", json!({"hash": hash, "em": em}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["success"], true);
    assert_eq!(status_of(&shop, &reader).await, "optIn");
    assert_eq!(
        outbox(&shop).last().unwrap().subject,
        "Welcome to our newsletter"
    );
    // Confirming or subscribing again changes nothing and sends nothing.
    let (status, _) = shop
        .post("/newsletter/confirm", json!({"hash": hash, "em": em}))
        .await;
    assert_eq!(status, 200);
    let (_, body) = shop
        .post(
            "/newsletter/subscribe",
            subscription(&shop, "reader@example.com"),
        )
        .await;
    assert_eq!(body["status"], "optIn");
    assert_eq!(outbox(&shop).len(), 3);

    let Shop { dir, .. } = shop;
    let shop = start_in(dir).await;
    assert_eq!(status_of(&shop, &reader).await, "optIn");

    let (status, body) = shop
        .post(
            "/newsletter/unsubscribe",
            json!({"email": "nobody@example.com"}),
        )
        .await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "CONTENT__NEWSLETTER_RECIPIENT_NOT_FOUND");
    let (status, body) = shop
        .post("/newsletter/unsubscribe", json!({"email": "no-address"}))
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/email", "VIOLATION::INVALID_EMAIL_FORMAT_ERROR"),
        "{body}"
    );
    let (status, body) = shop
        .post(
            "/newsletter/unsubscribe",
            json!({"email": "READER@example.com"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(status_of(&shop, &reader).await, "optOut");
    // The old link no longer subscribes.
    let (status, _) = shop
        .post("/newsletter/confirm", json!({"hash": hash, "em": em}))
        .await;
    assert_eq!(status, 400);
    assert_eq!(status_of(&shop, &reader).await, "optOut");
    // Subscribing again starts a new double opt-in with a new link.
    let (_, body) = shop
        .post(
            "/newsletter/subscribe",
            subscription(&shop, "reader@example.com"),
        )
        .await;
    assert_eq!(body["status"], "notSet");
    assert_ne!(
        link_param(&outbox(&shop).last().unwrap().text, "hash"),
        hash
    );
}

#[tokio::test]
async fn subscriptions_are_validated_and_customers_subscribe_directly() {
    let shop = start().await;
    let (status, body) = shop
        .post("/newsletter/subscribe", json!({"email": "not-an-email", "storefrontUrl": "https://evil.example", "option": "bogus"}))
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        has_violation(&body, "/email", "VIOLATION::INVALID_EMAIL_FORMAT_ERROR"),
        "{body}"
    );
    assert!(
        has_violation(&body, "/option", "VIOLATION::NO_SUCH_CHOICE_ERROR"),
        "{body}"
    );
    assert!(
        has_violation(&body, "/storefrontUrl", "VIOLATION::NO_SUCH_CHOICE_ERROR"),
        "{body}"
    );
    let (status, body) = shop
        .post("/newsletter/subscribe", json!({"email": "ada@example.com"}))
        .await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/option", "VIOLATION::IS_BLANK_ERROR")
            && has_violation(&body, "/storefrontUrl", "VIOLATION::IS_BLANK_ERROR"),
        "{body}"
    );
    let mut with_link = subscription(&shop, "ada@example.com");
    with_link["firstName"] = json!("see https://spam.example");
    with_link["salutationId"] = json!("0123456789abcdef0123456789abcdef");
    let (status, body) = shop.post("/newsletter/subscribe", with_link).await;
    assert_eq!(status, 400);
    assert!(
        has_violation(&body, "/firstName", "VIOLATION::REGEX_FAILED_ERROR")
            && has_violation(&body, "/salutationId", "VIOLATION::NO_SUCH_CHOICE_ERROR"),
        "{body}"
    );
    let (status, body) = post_raw(
        &shop,
        "/newsletter/subscribe",
        None,
        "{\"email\": \"ada@example.com\",",
    )
    .await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "FRAMEWORK__INVALID_REQUEST_BODY");
    assert!(
        outbox(&shop).is_empty() && eml_files(&shop).is_empty(),
        "refusals send nothing"
    );

    // A logged-in customer's own address is subscribed without confirmation.
    let token = demo_token(&shop).await;
    let (status, body) = shop
        .post_with(
            "/newsletter/subscribe",
            &[("sw-context-token", &token)],
            subscription(&shop, DEMO_EMAIL),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "direct");
    assert_eq!(status_of(&shop, &token).await, "direct");
    assert_eq!(outbox(&shop)[0].subject, "Welcome to our newsletter");
    // Anyone else's address needs the confirmation, whatever the option says; in German
    // for a German request.
    let german = shop.language("de-DE").await;
    let mut direct = subscription(&shop, "friend@example.com");
    direct["option"] = json!("direct");
    let (_, body) = shop
        .post_with(
            "/newsletter/subscribe",
            &[("sw-context-token", &token), ("sw-language-id", &german)],
            direct,
        )
        .await;
    assert_eq!(body["status"], "notSet");
    assert_eq!(
        outbox(&shop)[1].subject,
        "Bitte bestätigen Sie Ihre Newsletter-Anmeldung"
    );
    // The subscribe call unsubscribes too.
    let mut unsubscribe = subscription(&shop, DEMO_EMAIL);
    unsubscribe["option"] = json!("unsubscribe");
    let (status, body) = shop.post("/newsletter/subscribe", unsubscribe).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "optOut");
    assert_eq!(status_of(&shop, &token).await, "optOut");
}
