//! Issue #32, item 6: the shop's name and the sender of its mails, set by the merchant
//! through Shopware's system configuration (`/api/_action/system-config`), reach the
//! mails the shop sends; bad values are refused at their keys; guides may not.

use crate::admin_support;
use crate::common;
use crate::extras;

use admin_support::*;
use serde_json::json;

#[tokio::test]
async fn the_shops_name_and_sender_address_are_settings_the_mails_follow() {
    let shop = common::start().await;
    let token = admin(&shop).await;

    // Before anything is set: the built-in sender, as the mails have always used it.
    let basics = get(
        &shop,
        "/_action/system-config?domain=core.basicInformation",
        &token,
    )
    .await;
    assert_eq!(basics.status, 200, "{}", basics.body);
    // (The demo's legal pages are linked in the same domain: privacyPage, tosPage, imprintPage.)
    assert_eq!(basics.body["core.basicInformation.shopName"], "Salesroom");
    assert_eq!(
        basics.body["core.basicInformation.email"],
        "shop@salesroom.example"
    );

    let saved = post(
        &shop,
        "/_action/system-config",
        &token,
        json!({"core.basicInformation.shopName": "  Kite Corner ", "core.basicInformation.email": "Hello@Kites.Example"}),
    )
    .await;
    assert_eq!(saved.status, 204, "{}", saved.body);
    let basics = get(
        &shop,
        "/_action/system-config?domain=core.basicInformation",
        &token,
    )
    .await;
    assert_eq!(basics.body["core.basicInformation.shopName"], "Kite Corner");
    assert_eq!(
        basics.body["core.basicInformation.email"],
        "hello@kites.example"
    );

    // A contact request goes to the new address, and every mail comes from it.
    let (status, salutations) = shop.get("/salutation", &[]).await;
    assert_eq!(status, 200);
    let salutation = common::elements(&salutations)[0]["id"].clone();
    let (status, body) = shop
        .post(
            "/contact-form",
            json!({"salutationId": salutation, "firstName": "Ada", "lastName": "Kite", "email": "ada@example.com",
                   "subject": "Kites", "comment": "Do you sell box kites?",
                   "slotId": "0123456789abcdef0123456789abcdef", "cmsPageType": "page"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let mails = extras::outbox(&shop);
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, "hello@kites.example");
    let eml = extras::eml_files(&shop)
        .pop()
        .expect("an .eml in the outbox");
    assert!(
        eml.contains("From: \"Kite Corner\" <hello@kites.example>"),
        "{eml}"
    );

    // Other domains and keys are kept as given; the batch form names the sales channel.
    let batch = post(
        &shop,
        "/_action/system-config/batch",
        &token,
        json!({"null": {"MyPlugin.config.greeting": {"en": "Hi"}}}),
    )
    .await;
    assert_eq!(batch.status, 204, "{}", batch.body);
    let plugin = get(
        &shop,
        "/_action/system-config?domain=MyPlugin.config",
        &token,
    )
    .await;
    assert_eq!(
        plugin.body,
        json!({"MyPlugin.config.greeting": {"en": "Hi"}})
    );

    // null removes a value: the built-in sender is back.
    let removed = post(
        &shop,
        "/_action/system-config",
        &token,
        json!({"core.basicInformation.email": null}),
    )
    .await;
    assert_eq!(removed.status, 204, "{}", removed.body);
    let basics = get(
        &shop,
        "/_action/system-config?domain=core.basicInformation",
        &token,
    )
    .await;
    assert_eq!(
        basics.body["core.basicInformation.email"],
        "shop@salesroom.example"
    );
}

#[tokio::test]
async fn bad_settings_are_refused_at_their_keys_and_guides_may_not_touch_them() {
    let shop = common::start().await;
    let token = admin(&shop).await;

    let refused = post(
        &shop,
        "/_action/system-config",
        &token,
        json!({"core.basicInformation.shopName": " ", "core.basicInformation.email": "not an address", "nodots": 1}),
    )
    .await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    let mut found = pointers(&refused.body);
    found.sort();
    assert_eq!(
        found,
        [
            "/core.basicInformation.email",
            "/core.basicInformation.shopName",
            "/nodots"
        ]
    );
    let codes: Vec<&str> = refused.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"VIOLATION::IS_BLANK_ERROR"), "{codes:?}");
    assert!(
        codes.contains(&"VIOLATION::INVALID_EMAIL_FORMAT_ERROR"),
        "{codes:?}"
    );
    // Nothing of a refused request is stored.
    let basics = get(
        &shop,
        "/_action/system-config?domain=core.basicInformation",
        &token,
    )
    .await;
    assert_eq!(basics.body["core.basicInformation.shopName"], "Salesroom");

    let unknown_channel = post(
        &shop,
        "/_action/system-config?salesChannelId=0123456789abcdef0123456789abcdef",
        &token,
        json!({"core.basicInformation.shopName": "Elsewhere"}),
    )
    .await;
    assert_eq!(unknown_channel.status, 404, "{}", unknown_channel.body);
    assert_eq!(
        unknown_channel.body["errors"][0]["code"],
        "FRAMEWORK__ENTITY_NOT_FOUND"
    );

    let not_a_map = post(
        &shop,
        "/_action/system-config/batch",
        &token,
        json!({"null": 3}),
    )
    .await;
    assert_eq!(not_a_map.status, 400, "{}", not_a_map.body);
    assert_eq!(pointers(&not_a_map.body), ["/null"]);

    // A guide runs appointments, not the shop.
    let created = post(
        &shop,
        "/user",
        &token,
        json!({"username": "gina", "password": "guide-password", "firstName": "Gina", "lastName": "Guide", "role": "guide"}),
    )
    .await;
    assert_eq!(created.status, 204, "{}", created.body);
    let guide = admin_support::token(&shop, "gina", "guide-password")
        .await
        .unwrap();
    let read = get(
        &shop,
        "/_action/system-config?domain=core.basicInformation",
        &guide,
    )
    .await;
    assert_eq!(read.status, 403, "{}", read.body);
    let write = post(
        &shop,
        "/_action/system-config",
        &guide,
        json!({"core.basicInformation.shopName": "Gina's"}),
    )
    .await;
    assert_eq!(write.status, 403, "{}", write.body);
    let anonymous = api(
        &shop,
        reqwest::Method::GET,
        "/_action/system-config?domain=core.basicInformation",
        None,
        None,
    )
    .await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.body);
}

/// Issue #32, item 6: a domain the merchant gives the sales channel is one of the shop's
/// origins at once: mailed links may point there, its pages may open the hub's socket and
/// the CSP lets them connect; a domain nobody added is still refused; only admins write
/// domains; a removed domain is refused again.
#[tokio::test]
async fn a_domain_the_merchant_adds_is_a_shop_origin_for_mails_sockets_and_the_csp() {
    let shop = common::start().await;
    let token = admin(&shop).await;
    let recovery = |url: &str| json!({"email": extras::DEMO_EMAIL, "storefrontUrl": url});
    let refused_at_the_url = |status: u16, answer: &serde_json::Value| {
        assert_eq!(status, 400, "{answer}");
        assert!(
            extras::has_violation(answer, "/storefrontUrl", "VIOLATION::NO_SUCH_CHOICE_ERROR"),
            "{answer}"
        );
    };
    let socket_from = |origin: &'static str| {
        let request = shop
            .http
            .get(format!("{}/ws", shop.base))
            .header("origin", origin);
        async move { request.send().await.expect("GET /ws") }
    };

    // Before: the new domain is no domain of the shop.
    let (status, answer) = shop
        .post(
            "/account/recovery-password",
            recovery("https://kites.example/de"),
        )
        .await;
    refused_at_the_url(status, &answer);
    assert_eq!(socket_from("https://kites.example").await.status(), 403);

    // A guide may read the sales channel's domains but not add one.
    let created = post(
        &shop,
        "/user",
        &token,
        json!({"username": "gwen", "password": "guide-password", "firstName": "Gwen", "lastName": "Guide", "role": "guide", "email": "gwen@example.com"}),
    )
    .await;
    assert_eq!(created.status, 204, "{}", created.body);
    let guide = admin_support::token(&shop, "gwen", "guide-password")
        .await
        .expect("the guide logs in");
    let channel = post(&shop, "/search/sales-channel", &token, json!({})).await;
    let channel = channel.body["data"][0].clone();
    let domain = json!({"url": "https://kites.example/", "salesChannelId": channel["id"], "languageId": channel["languageId"]});
    let refused = post(&shop, "/sales-channel-domain", &guide, domain.clone()).await;
    assert_eq!(refused.status, 403, "{}", refused.body);

    // The merchant adds it (through sync, as an integration would).
    let synced = post(
        &shop,
        "/_action/sync",
        &token,
        json!([{"key": "domains", "entity": "sales_channel_domain", "action": "upsert", "payload": [domain]}]),
    )
    .await;
    assert_eq!(synced.status, 200, "{}", synced.body);
    let id = synced.body["data"]["sales_channel_domain"][0]
        .as_str()
        .expect("the domain's id")
        .to_owned();

    let (status, answer) = shop
        .post(
            "/account/recovery-password",
            recovery("https://kites.example/de"),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let mails = extras::outbox(&shop);
    assert_eq!(mails.len(), 1);
    assert!(
        mails[0]
            .text
            .contains("https://kites.example/de/account/recover/password?hash="),
        "{}",
        mails[0].text
    );
    // Another domain, or one only starting like it, is still refused.
    for url in [
        "https://other.example",
        "https://kites.example.evil.example",
    ] {
        let (status, answer) = shop.post("/account/recovery-password", recovery(url)).await;
        refused_at_the_url(status, &answer);
    }
    // Its pages may open the socket (no longer 403: the plain GET is no upgrade), and
    // the CSP lets them connect.
    let answer = socket_from("https://kites.example").await;
    assert_eq!(answer.status(), 400);
    assert_eq!(socket_from("https://other.example").await.status(), 403);
    let csp = answer.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains("https://kites.example"), "{csp}");

    // Removed, it is refused again.
    let removed = delete(&shop, &format!("/sales-channel-domain/{id}"), &token).await;
    assert_eq!(removed.status, 204, "{}", removed.body);
    let (status, answer) = shop
        .post(
            "/account/recovery-password",
            recovery("https://kites.example"),
        )
        .await;
    refused_at_the_url(status, &answer);
    assert_eq!(socket_from("https://kites.example").await.status(), 403);
}

/// Issue #32, item 6: the merchant chooses which languages the storefront offers (the
/// sales channel's `languages`, Shopware's shape): German switched off is gone from the
/// Store API's languages and refused as a session's language, and comes back when
/// switched on; the default language cannot be switched off; only admins change them.
#[tokio::test]
async fn the_merchant_switches_the_storefronts_languages_but_never_the_default_off() {
    let shop = common::start().await;
    let token = admin(&shop).await;
    let english = shop.language("en-GB").await;
    let german = shop.language("de-DE").await;
    let channel = post(&shop, "/search/sales-channel", &token, json!({})).await;
    let channel = channel.body["data"][0].clone();
    let id = channel["id"].as_str().unwrap().to_owned();
    assert_eq!(channel["languageId"], json!(english));
    let offered = |body: &serde_json::Value| {
        let mut ids: Vec<String> = body["languages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["id"].as_str().unwrap().to_owned())
            .collect();
        ids.sort();
        ids
    };
    let mut both = vec![english.clone(), german.clone()];
    both.sort();
    assert_eq!(offered(&channel), both);
    let store_languages = || async {
        let (status, body) = shop.get("/language", &[]).await;
        assert_eq!(status, 200, "{body}");
        body["total"].as_u64().unwrap()
    };
    let german_session = || async {
        shop.get("/context", &[("sw-language-id", german.as_str())])
            .await
            .0
    };
    assert_eq!(store_languages().await, 2);
    assert_eq!(german_session().await, 200);

    // German off: the storefront offers English only and refuses a German session.
    let path = format!("/sales-channel/{id}");
    let off = patch(
        &shop,
        &path,
        &token,
        json!({"languages": [{"id": english}]}),
    )
    .await;
    assert_eq!(off.status, 204, "{}", off.body);
    assert_eq!(store_languages().await, 1);
    assert_eq!(german_session().await, 412);
    let read = get(&shop, &path, &token).await;
    assert_eq!(offered(&read.body["data"]), vec![english.clone()]);

    // The default cannot go: neither switched off nor moved to a language not offered.
    for body in [
        json!({"languages": [{"id": german}]}),
        json!({"languages": []}),
        json!({"languageId": german}),
    ] {
        let refused = patch(&shop, &path, &token, body.clone()).await;
        assert_eq!(refused.status, 400, "{body}: {}", refused.body);
        assert_eq!(
            refused.body["errors"][0]["code"], "SYSTEM__NO_GIVEN_DEFAULT_LANGUAGE_ID",
            "{}",
            refused.body
        );
    }
    let unknown = patch(
        &shop,
        &path,
        &token,
        json!({"languages": [{"id": english}, {"id": "0123456789abcdef0123456789abcdef"}]}),
    )
    .await;
    assert_eq!(unknown.status, 400, "{}", unknown.body);
    assert_eq!(pointers(&unknown.body), ["/0/languages/1/id"]);
    assert_eq!(store_languages().await, 1);

    // A guide may not change them.
    let created = post(
        &shop,
        "/user",
        &token,
        json!({"username": "gil", "password": "guide-password", "firstName": "Gil", "lastName": "Guide", "role": "guide", "email": "gil@example.com"}),
    )
    .await;
    assert_eq!(created.status, 204, "{}", created.body);
    let guide = admin_support::token(&shop, "gil", "guide-password")
        .await
        .unwrap();
    let refused = patch(
        &shop,
        &path,
        &guide,
        json!({"languages": [{"id": english}, {"id": german}]}),
    )
    .await;
    assert_eq!(refused.status, 403, "{}", refused.body);

    // German on again, in the same write as a new default.
    let on = patch(
        &shop,
        &path,
        &token,
        json!({"languages": [{"id": english}, {"id": german}], "languageId": german}),
    )
    .await;
    assert_eq!(on.status, 204, "{}", on.body);
    assert_eq!(store_languages().await, 2);
    assert_eq!(german_session().await, 200);
    let back = patch(&shop, &path, &token, json!({"languageId": english})).await;
    assert_eq!(back.status, 204, "{}", back.body);
}
