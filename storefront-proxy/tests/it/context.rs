//! Sessions and settings against a real shop: context, languages, currencies,
//! countries, salutations.

use crate::common;

use common::{assert_error, elements, start};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn context_creates_a_session_and_keeps_it() {
    let shop = start().await;
    let (status, context, headers) = shop.call(Method::GET, "/context", &[], None).await;
    assert_eq!(status, 200, "{context}");
    assert_eq!(context["apiAlias"], "sales_channel_context");
    let token = headers["sw-context-token"].to_str().unwrap().to_owned();
    assert_eq!(context["token"], token);
    assert_eq!(context["currency"]["isoCode"], "EUR");
    assert_eq!(context["languageInfo"]["localeCode"], "en-GB");
    assert_eq!(context["context"]["taxState"], "gross");
    assert_eq!(context["shippingLocation"]["country"]["iso"], "DE");
    let navigation = context["salesChannel"]["navigationCategoryId"]
        .as_str()
        .unwrap();
    let (_, home) = shop.post("/category/home", json!({})).await;
    assert_eq!(home["id"], navigation);
    assert!(context["salesChannel"]["domains"].as_array().unwrap().len() >= 3);

    let (_, again, headers) = shop
        .call(
            Method::GET,
            "/context",
            &[("sw-context-token", &token)],
            None,
        )
        .await;
    assert_eq!(again["token"], token);
    assert_eq!(headers["sw-context-token"], token.as_str());
    let (_, other, _) = shop
        .call(
            Method::GET,
            "/context",
            &[("sw-context-token", "unknown")],
            None,
        )
        .await;
    assert_ne!(other["token"], token);

    let german = shop.language("de-DE").await;
    let (_, de, _) = shop
        .call(
            Method::GET,
            "/context",
            &[("sw-language-id", &german)],
            None,
        )
        .await;
    assert_eq!(de["languageInfo"]["localeCode"], "de-DE");
    assert_eq!(de["context"]["languageIdChain"][0], german);
    assert_eq!(de["shippingLocation"]["country"]["name"], "Deutschland");

    let response = shop
        .http
        .get(format!("{}/store-api/context", shop.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401);
    assert_error(
        &response.json().await.unwrap(),
        401,
        "FRAMEWORK__API_INVALID_ACCESS_KEY",
    );
}

#[tokio::test]
async fn languages_currencies_countries_and_salutations() {
    let shop = start().await;
    let (status, languages) = shop.get("/language", &[]).await;
    assert_eq!(status, 200, "{languages}");
    let list = elements(&languages);
    let mut codes: Vec<&str> = list
        .iter()
        .map(|l| l["translationCode"]["code"].as_str().unwrap())
        .collect();
    codes.sort();
    assert_eq!(codes, ["de-DE", "en-GB"]);
    assert!(elements(&languages)
        .iter()
        .all(|l| l["apiAlias"] == "language" && l["localeId"].is_string()));

    let (status, currencies) = shop.get("/currency", &[]).await;
    assert_eq!(status, 200);
    assert_eq!(currencies[0]["isoCode"], "EUR");
    assert_eq!(currencies[0]["symbol"], "€");
    assert_eq!(currencies[0]["apiAlias"], "currency");

    let (_, countries) = shop.get("/country", &[]).await;
    let germany = elements(&countries)
        .into_iter()
        .find(|c| c["iso"] == "DE")
        .unwrap();
    assert!(germany["states"].is_null(), "states only when asked");
    let (_, with_states) = shop
        .post("/country", json!({"associations": {"states": {}}}))
        .await;
    let germany = elements(&with_states)
        .into_iter()
        .find(|c| c["iso"] == "DE")
        .unwrap();
    let states: Vec<&str> = germany["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["shortCode"].as_str().unwrap())
        .collect();
    assert!(states.contains(&"DE-BY"), "{states:?}");
    let (_, by_query) = shop.get("/country?associations[states][]=", &[]).await;
    assert!(elements(&by_query)
        .iter()
        .any(|c| c["states"].as_array().is_some_and(|s| !s.is_empty())));

    let german = shop.language("de-DE").await;
    let (_, salutations) = shop
        .get("/salutation", &[("sw-language-id", &german)])
        .await;
    let list = elements(&salutations);
    let display: Vec<&str> = list
        .iter()
        .map(|s| s["displayName"].as_str().unwrap())
        .collect();
    assert_eq!(display, ["Herr", "Frau", "Keine Angabe"]);
    let keys: Vec<&str> = list
        .iter()
        .map(|s| s["salutationKey"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["mr", "mrs", "not_specified"]);
}
