//! Issue #31, item 7: the merchant writes the privacy policy, terms and imprint in the
//! backoffice (English and German, rich text sanitised on the server); the Store API
//! serves them as CMS pages, by name for the room's shop-page modal. The demo ships
//! placeholders; an empty shop gets its pages on the first write.

use crate::admin_support;
use crate::common;

use admin_support::*;
use serde_json::{json, Value};

fn page<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{name} in {list}"))
}

#[tokio::test]
async fn the_merchant_writes_the_legal_pages_and_the_shop_serves_them_per_language() {
    let shop = common::start().await;
    let token = admin(&shop).await;
    let de = shop.language("de-DE").await;

    // The demo's placeholders: all three, in English and German.
    let listed = get(&shop, "/_action/salesroom/legal-pages", &token).await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert_eq!(listed.body["total"], 3, "{}", listed.body);
    for name in ["privacy", "tos", "imprint"] {
        let found = page(&listed.body, name);
        assert!(found["cmsPageId"].is_string(), "{found}");
        assert!(
            found["translations"]["de-DE"]["content"]
                .as_str()
                .is_some_and(|c| !c.is_empty()),
            "{found}"
        );
    }
    assert_eq!(
        page(&listed.body, "imprint")["translations"]["de-DE"]["title"],
        "Impressum"
    );
    // … linked in the basic information, as Shopware links its legal pages.
    let seeded = get(
        &shop,
        "/_action/system-config?domain=core.basicInformation",
        &token,
    )
    .await;
    assert_eq!(
        seeded.body["core.basicInformation.tosPage"],
        page(&listed.body, "tos")["cmsPageId"],
        "{}",
        seeded.body
    );

    // Written in both languages; what may not be stored is taken out.
    let written = patch(
        &shop,
        "/_action/salesroom/legal-pages/privacy",
        &token,
        json!({"translations": {
            "en-GB": {"title": "Privacy policy", "content": "<h2>Your data</h2><p onclick=\"x()\">We keep <strong>little</strong>.</p><script>alert(1)</script>"},
            "de-DE": {"title": "Datenschutzerklärung", "content": "<p>Wir speichern <em>wenig</em>.</p><iframe src=\"https://evil.example\"></iframe>"},
        }}),
    )
    .await;
    assert_eq!(written.status, 200, "{}", written.body);
    let saved = &written.body["data"];
    assert_eq!(
        saved["translations"]["en-GB"]["content"],
        "<h2>Your data</h2><p>We keep <strong>little</strong>.</p>"
    );
    assert_eq!(
        saved["translations"]["de-DE"]["content"],
        "<p>Wir speichern <em>wenig</em>.</p>"
    );

    // Linked as Shopware links its legal pages: the basic information's setting.
    let config = get(
        &shop,
        "/_action/system-config?domain=core.basicInformation",
        &token,
    )
    .await;
    assert_eq!(config.status, 200, "{}", config.body);
    assert_eq!(
        config.body["core.basicInformation.privacyPage"],
        saved["cmsPageId"]
    );

    // The Store API's shop page, in the request's language.
    let (status, german) = shop
        .get(
            "/dsr/shop-pages/privacy",
            &[("sw-language-id", de.as_str())],
        )
        .await;
    assert_eq!(status, 200, "{german}");
    assert_eq!(german["id"], saved["cmsPageId"]);
    assert_eq!(
        german["translated"]["name"], "Datenschutzerklärung",
        "{german}"
    );
    let text = german.to_string();
    assert!(text.contains("Wir speichern <em>wenig</em>."), "{text}");
    assert!(!text.contains("iframe"), "{text}");
    let (_, english) = shop.get("/dsr/shop-pages/privacy", &[]).await;
    assert!(
        english
            .to_string()
            .contains("We keep <strong>little</strong>."),
        "{english}"
    );

    // The merchant points the imprint at another CMS page in the basic information: the
    // shop page follows it.
    let tos_page = page(&listed.body, "tos")["cmsPageId"].clone();
    let pointed = post(
        &shop,
        "/_action/system-config",
        &token,
        json!({"core.basicInformation.imprintPage": tos_page}),
    )
    .await;
    assert_eq!(pointed.status, 204, "{}", pointed.body);
    let (_, imprint) = shop.get("/dsr/shop-pages/imprint", &[]).await;
    assert_eq!(imprint["id"], tos_page, "{imprint}");

    // Bad input is named at its field; unknown pages and guides are refused.
    let bad = patch(
        &shop,
        "/_action/salesroom/legal-pages/tos",
        &token,
        json!({"translations": {"xx-XX": {"title": "?"}, "de-DE": {"title": " ", "content": 7}}}),
    )
    .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    let mut found = pointers(&bad.body);
    found.sort();
    assert_eq!(
        found,
        [
            "/translations/de-DE/content",
            "/translations/de-DE/title",
            "/translations/xx-XX"
        ]
    );
    let unknown = patch(
        &shop,
        "/_action/salesroom/legal-pages/cookies",
        &token,
        json!({"translations": {}}),
    )
    .await;
    assert_error(&unknown.body, 404, "SALESROOM__LEGAL_PAGE_NOT_FOUND");
    create(
        &shop,
        "user",
        &token,
        json!({"username": "gil", "firstName": "Gil", "lastName": "Guide", "email": "gil@example.com", "role": "guide", "password": "guide-pass-1"}),
    )
    .await;
    let guide = admin_support::token(&shop, "gil", "guide-pass-1")
        .await
        .unwrap();
    let refused = patch(
        &shop,
        "/_action/salesroom/legal-pages/privacy",
        &guide,
        json!({"translations": {"en-GB": {"title": "Mine"}}}),
    )
    .await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    let anonymous = api(
        &shop,
        reqwest::Method::GET,
        "/_action/salesroom/legal-pages",
        None,
        None,
    )
    .await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.body);
}
