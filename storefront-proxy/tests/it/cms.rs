//! Landing pages, media files and the generated benchmark catalogue.

use crate::common;

use common::{assert_error, elements, start, start_in};
use serde_json::json;

#[tokio::test]
async fn the_landing_page_of_the_navigation_link() {
    let shop = start().await;
    let (_, tree) = shop
        .post("/navigation/main-navigation/main-navigation", json!({}))
        .await;
    let service = tree
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Service")
        .unwrap();
    let link = service["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["linkType"] == "landing_page")
        .unwrap();
    let id = link["internalLink"].as_str().unwrap();
    let (status, landing) = shop
        .post_with(
            &format!("/landing-page/{id}"),
            &[("sw-include-seo-urls", "true")],
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{landing}");
    assert_eq!(landing["apiAlias"], "landing_page");
    assert_eq!(landing["name"], "Spring inspiration");
    assert_eq!(landing["seoUrls"][0]["seoPathInfo"], "spring-inspiration/");
    let blocks = landing["cmsPage"]["sections"][0]["blocks"]
        .as_array()
        .unwrap();
    let product_box = blocks
        .iter()
        .find(|b| b["type"] == "product-three-column")
        .unwrap();
    assert_eq!(
        product_box["slots"][0]["data"]["product"]["apiAlias"],
        "product"
    );
    // The headline is text over the banner, in the page's language; the banner has no words.
    let banner = blocks
        .iter()
        .find(|b| b["type"] == "text-on-image")
        .unwrap();
    assert!(banner["slots"][0]["config"]["content"]["value"]
        .as_str()
        .unwrap()
        .contains("<h1>Spring inspiration</h1>"));
    let picture = shop
        .http
        .get(banner["backgroundMedia"]["url"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        picture.starts_with("<svg") && !picture.contains("<text"),
        "{picture}"
    );
    let german = shop.language("de-DE").await;
    let (_, de) = shop
        .post_with(
            &format!("/landing-page/{id}"),
            &[("sw-language-id", &german)],
            json!({}),
        )
        .await;
    let de_banner = de["cmsPage"]["sections"][0]["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["type"] == "text-on-image")
        .unwrap()
        .clone();
    assert!(de_banner["slots"][0]["config"]["content"]["value"]
        .as_str()
        .unwrap()
        .contains("<h1>Frühlings&shy;inspiration</h1>"));

    let (status, body) = shop
        .post("/landing-page/0123456789abcdef0123456789abcdef", json!({}))
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CONTENT__LANDING_PAGE_NOT_FOUND");
}

#[tokio::test]
async fn media_files_are_served_with_their_content_type() {
    let shop = start().await;
    let (_, products) = shop.post("/product", json!({"limit": 3})).await;
    for product in elements(&products) {
        let url = product["cover"]["media"]["url"].as_str().unwrap();
        assert!(url.starts_with(&shop.base), "{url}");
        let response = shop.http.get(url).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(response.headers()["content-type"], "image/svg+xml");
        let picture = response.text().await.unwrap();
        // One picture for every language: no words in it.
        assert!(
            picture.starts_with("<svg") && !picture.contains("<text"),
            "{picture}"
        );
    }
    let response = shop
        .http
        .get(format!("{}/media/no/such/file.png", shop.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 404);
    assert_error(
        &response.json().await.unwrap(),
        404,
        "CONTENT__MEDIA_NOT_FOUND",
    );
}

#[tokio::test]
async fn a_large_catalogue_can_be_generated_for_benchmarks() {
    let dir = tempfile::tempdir().unwrap();
    let db = storefront_proxy::storage::Db::open(&dir.path().join("shop.sqlite")).unwrap();
    let options = storefront_proxy::demo::Options {
        extra_products: 800,
        ..Default::default()
    };
    db.call(move |conn| storefront_proxy::demo::seed_if_empty(conn, options))
        .await
        .unwrap();
    drop(db);
    let shop = start_in(dir).await;
    let (_, all) = shop
        .post("/product", json!({"limit": 1, "total-count-mode": "exact"}))
        .await;
    assert_eq!(all["total"], 866);
    let (_, listing) = shop
        .post(
            &format!("/product-listing/{}", shop.seo("Kitchen/").await),
            json!({"order": "price-asc"}),
        )
        .await;
    assert_eq!(
        listing["total"], 109,
        "9 demo products and every eighth generated one"
    );
    let (_, found) = shop.post("/search", json!({"search": "BN0000800"})).await;
    assert_eq!(found["total"], 1);
}
