//! Categories, the navigation tree and SEO URLs against a real shop.

use crate::common;

use common::{assert_error, start};
use serde_json::{json, Value};

fn find<'a>(list: &'a Value, name: &str) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {list}"))
}

#[tokio::test]
async fn footer_navigation_leads_to_the_service_pages_in_both_languages() {
    let shop = start().await;
    let (status, footer) = shop
        .post(
            "/navigation/footer-navigation/footer-navigation",
            json!({"depth": 1}),
        )
        .await;
    assert_eq!(status, 200, "{footer}");
    let names: Vec<&str> = footer
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["About us", "Spring inspiration", "Contact", "Newsletter"]
    );
    for name in ["About us", "Contact", "Newsletter"] {
        let page = find(&footer, name);
        assert_eq!(page["type"], "page");
        let cms_page = page["cmsPageId"].as_str().unwrap();
        let category = page["id"].as_str().unwrap();
        let (status, body) = shop.post(&format!("/category/{category}"), json!({})).await;
        assert_eq!(status, 200, "{name}: {body}");
        assert_eq!(body["cmsPage"]["id"], cms_page, "{name}: {body}");
    }
    // Contact and newsletter carry their forms.
    let contact = find(&footer, "Contact")["id"].as_str().unwrap().to_owned();
    let (_, contact) = shop.post(&format!("/category/{contact}"), json!({})).await;
    assert!(
        contact["cmsPage"].to_string().contains(r#""type":"form""#),
        "{contact}"
    );
    // Each page has an SEO path; the German ones are German.
    let german = shop.language("de-DE").await;
    let (_, de) = shop
        .post_with(
            "/navigation/footer-navigation/footer-navigation",
            &[("sw-language-id", &german)],
            json!({}),
        )
        .await;
    let names: Vec<&str> = de
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["translated"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Über uns", "Frühlingsinspiration", "Kontakt", "Newsletter"]
    );
    assert_eq!(
        shop.seo("Service/About-us/").await,
        find(&footer, "About us")["id"].as_str().unwrap()
    );
}

#[tokio::test]
async fn main_navigation_is_a_tree_of_the_requested_depth() {
    let shop = start().await;
    let (status, tree) = shop
        .post(
            "/navigation/main-navigation/main-navigation",
            json!({"depth": 2}),
        )
        .await;
    assert_eq!(status, 200, "{tree}");
    let top: Vec<&str> = tree
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        top,
        [
            "Clothing",
            "Shoes",
            "Home & Living",
            "Kitchen",
            "Electronics",
            "Outdoor",
            "Coffee & Tea",
            "Service"
        ]
    );
    assert!(top.len() >= 6);
    let clothing = find(&tree, "Clothing");
    assert_eq!(clothing["apiAlias"], "category");
    assert_eq!(clothing["type"], "page");
    assert_eq!(clothing["childCount"], 2);
    let shirts = find(&clothing["children"], "Shirts");
    assert_eq!(shirts["breadcrumb"], json!(["Home", "Clothing", "Shirts"]));
    assert_eq!(
        shirts["translated"]["breadcrumb"],
        json!(["Home", "Clothing", "Shirts"])
    );
    let service = find(&tree, "Service");
    assert_eq!(service["type"], "folder");
    let about = find(&service["children"], "About us");
    assert_eq!(
        about["type"], "page",
        "About us is a page of the demo, not a link away"
    );
    assert!(about["cmsPageId"].is_string());
    let spring = find(&service["children"], "Spring inspiration");
    assert_eq!(spring["linkType"], "landing_page");
    assert!(spring["internalLink"].is_string());

    // Depth 1: no grandchildren, unless they are on the active category's branch.
    let (_, shallow) = shop
        .post(
            "/navigation/main-navigation/main-navigation",
            json!({"depth": 1}),
        )
        .await;
    assert_eq!(find(&shallow, "Clothing")["children"], json!([]));
    let shirts_id = shirts["id"].as_str().unwrap();
    let (_, active) = shop
        .post(
            &format!("/navigation/{shirts_id}/main-navigation"),
            json!({"depth": 1}),
        )
        .await;
    assert_eq!(
        find(&active, "Clothing")["children"]
            .as_array()
            .unwrap()
            .len(),
        2
    );

    // A flat list.
    let (_, flat) = shop
        .post(
            "/navigation/main-navigation/main-navigation",
            json!({"depth": 2, "buildTree": false}),
        )
        .await;
    assert!(flat
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["name"] == "Shirts"));

    // German names.
    let german = shop.language("de-DE").await;
    let (_, de) = shop
        .post_with(
            "/navigation/main-navigation/main-navigation",
            &[("sw-language-id", &german)],
            json!({}),
        )
        .await;
    let kleidung = find(&de, "Kleidung");
    assert_eq!(
        find(&kleidung["children"], "Hemden")["breadcrumb"],
        json!(["Startseite", "Kleidung", "Hemden"])
    );

    let (status, body) = shop
        .post(
            "/navigation/main-navigation/0123456789abcdef0123456789abcdef",
            json!({}),
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CONTENT__CATEGORY_NOT_FOUND");
    let (status, _) = shop
        .post(
            "/navigation/main-navigation/main-navigation",
            json!({"depth": "deep"}),
        )
        .await;
    assert_eq!(status, 400);
    let (status, _) = shop.post("/navigation/x/main-navigation", json!({})).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn categories_come_with_their_resolved_cms_page() {
    let shop = start().await;
    let (status, home) = shop.post("/category/home", json!({})).await;
    assert_eq!(status, 200, "{home}");
    assert_eq!(home["name"], "Home");
    let page = &home["cmsPage"];
    assert_eq!(page["apiAlias"], "cms_page");
    let blocks: Vec<&Value> = page["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["blocks"].as_array().unwrap())
        .collect();
    let slider = blocks
        .iter()
        .find(|b| b["type"] == "product-slider")
        .unwrap();
    let products = slider["slots"][0]["data"]["products"].as_array().unwrap();
    assert!(products.len() >= 6 && products.iter().all(|p| p["apiAlias"] == "product"));
    // The text block above the slider is its heading: the slider has no title of its own.
    assert!(slider["slots"][0]["config"]["title"].is_null(), "{slider}");
    // Category teasers: a picture linking to the category, and a linked heading (pictures carry no words).
    let teaser = |blocks: &[&Value], slot: &str| -> Value {
        let row = blocks
            .iter()
            .find(|b| b["type"] == "image-text-row")
            .unwrap();
        row["slots"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["slot"] == slot)
            .unwrap()
            .clone()
    };
    let picture = teaser(&blocks, "left-image");
    assert!(picture["data"]["media"]["url"]
        .as_str()
        .unwrap()
        .contains("/media/"));
    assert_eq!(picture["config"]["url"]["value"], "/Shoes/");
    assert!(teaser(&blocks, "left-text")["config"]["content"]["value"]
        .as_str()
        .unwrap()
        .contains(r#"<h3><a href="/Shoes/">Shoes</a></h3>"#));
    assert!(teaser(&blocks, "center-text")["config"]["content"]["value"]
        .as_str()
        .unwrap()
        .contains("Home &amp; Living"));

    let shoes = shop.seo("Shoes/").await;
    let (status, category) = shop
        .post(
            &format!("/category/{shoes}"),
            json!({"order": "price-desc", "limit": 3}),
        )
        .await;
    assert_eq!(status, 200, "{category}");
    assert_eq!(category["breadcrumb"], json!(["Home", "Shoes"]));
    let section = &category["cmsPage"]["sections"][0];
    assert_eq!(section["type"], "sidebar");
    let listing_block = section["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["type"] == "product-listing")
        .unwrap();
    let listing = &listing_block["slots"][0]["data"]["listing"];
    assert_eq!(listing["apiAlias"], "product_listing");
    assert_eq!(listing["sorting"], "price-desc");
    assert_eq!(listing["elements"].as_array().unwrap().len(), 3);
    assert!(section["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .any(|b| b["type"] == "sidebar-filter" && b["sectionPosition"] == "sidebar"));

    // German slot texts.
    let german = shop.language("de-DE").await;
    let (_, de) = shop
        .post_with("/category/home", &[("sw-language-id", &german)], json!({}))
        .await;
    let text = &de["cmsPage"]["sections"][0]["blocks"][0]["slots"][0];
    assert!(
        text["config"]["content"]["value"]
            .as_str()
            .unwrap()
            .contains("Live mit uns einkaufen"),
        "{text}"
    );
    let de_blocks: Vec<&Value> = de["cmsPage"]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["blocks"].as_array().unwrap())
        .collect();
    assert_eq!(
        teaser(&de_blocks, "left-image")["config"]["url"]["value"],
        "/de-DE/Schuhe/"
    );
    assert!(
        teaser(&de_blocks, "left-text")["config"]["content"]["value"]
            .as_str()
            .unwrap()
            .contains(r#"<h3><a href="/de-DE/Schuhe/">Schuhe</a></h3>"#)
    );
    assert_eq!(de["cmsPage"]["name"], "Startseite");

    let (status, body) = shop
        .post("/category/0123456789abcdef0123456789abcdef", json!({}))
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CONTENT__CATEGORY_NOT_FOUND");
    let (status, body) = shop.post("/category/nope", json!({})).await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "FRAMEWORK__INVALID_UUID");
}

#[tokio::test]
async fn seo_urls_per_language_and_on_entities() {
    let shop = start().await;
    let shirts = shop.seo("Clothing/Shirts/").await;
    let german = shop.language("de-DE").await;
    let (_, de) = shop
        .post_with(
            "/seo-url",
            &[("sw-language-id", &german)],
            json!({"filter": [{"type": "equals", "field": "foreignKey", "value": shirts}]}),
        )
        .await;
    assert_eq!(de["elements"][0]["seoPathInfo"], "Kleidung/Hemden/");
    assert_eq!(
        de["elements"][0]["pathInfo"],
        format!("/navigation/{shirts}")
    );
    assert_eq!(de["elements"][0]["routeName"], "frontend.navigation.page");
    // The same search as GET with the criteria in the query string.
    let (status, by_get) = shop.get("/seo-url?limit=2", &[]).await;
    assert_eq!(status, 200, "{by_get}");
    assert_eq!(by_get["elements"].as_array().unwrap().len(), 2);

    let (_, with_urls) = shop
        .post_with(
            "/product",
            &[("sw-include-seo-urls", "true")],
            json!({"filter": [{"type": "equals", "field": "productNumber", "value": "SR10001"}]}),
        )
        .await;
    let urls = with_urls["elements"][0]["seoUrls"].as_array().unwrap();
    assert_eq!(urls.len(), 1);
    assert_eq!(urls[0]["seoPathInfo"], "Linen-shirt/SR10001");
    assert_eq!(urls[0]["apiAlias"], "seo_url");
    let (_, without) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "equals", "field": "productNumber", "value": "SR10001"}]}),
        )
        .await;
    assert!(without["elements"][0].get("seoUrls").is_none());
    let (_, category) = shop
        .post_with(
            &format!("/category/{shirts}"),
            &[("sw-include-seo-urls", "true")],
            json!({}),
        )
        .await;
    assert_eq!(category["seoUrls"][0]["seoPathInfo"], "Clothing/Shirts/");

    let (_, none) = shop.post("/seo-url", json!({"filter": [{"type": "equals", "field": "seoPathInfo", "value": "No/Such/Path/"}]})).await;
    assert_eq!(none["total"], 0);
    let (status, _) = shop.post("/seo-url", json!({"filter": [{"type": "equals", "field": "salesChannel.accessKey", "value": "x"}]})).await;
    assert_eq!(status, 400);
}
