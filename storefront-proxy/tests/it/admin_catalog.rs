//! The Admin API's catalogue entities against a real shop (port 0, SQLite file):
//! create, read with criteria, update, delete, validation in Shopware's shape, and a
//! product created here found through the Store API.

use crate::admin_support;
use crate::common;

use admin_support::*;
use serde_json::json;

#[tokio::test]
async fn a_product_with_variants_is_created_searched_updated_deleted_and_sold_in_the_store() {
    let shop = common::start().await;
    let token = admin(&shop).await;
    let root = root_category(&shop, &token).await;

    let maker = create(
        &shop,
        "product-manufacturer",
        &token,
        json!({"name": "Zephyr Works", "translations": {"de-DE": {"name": "Zephyr Werke"}}}),
    )
    .await;
    assert_eq!(maker["name"], "Zephyr Works");
    let category = create(
        &shop,
        "category",
        &token,
        json!({"parentId": root, "name": "Kites"}),
    )
    .await;
    assert_eq!(category["level"], 2);
    assert_eq!(category["path"], format!("|{root}|"));
    let group = create(
        &shop,
        "property-group",
        &token,
        json!({"name": "Kite size", "options": [{"name": "Small", "position": 1}, {"name": "Large", "position": 2}]}),
    )
    .await;
    let options = group["options"].as_array().unwrap().clone();
    assert_eq!(options.len(), 2, "{group}");
    assert_eq!(options[0]["name"], "Small");

    // Shopware's create: 204 with the new entity's Location.
    let created = post(
        &shop,
        "/product",
        &token,
        json!({
            "productNumber": "ZK-1",
            "name": "Zephyr stunt kite",
            "description": "<p>Flies in light wind.</p>",
            "translations": {"de-DE": {"name": "Zephyr Lenkdrachen"}},
            "stock": 12,
            "price": [{"currencyId": "ignored", "gross": 119.0, "net": 100.0, "linked": true, "listPrice": {"gross": 149.0}}],
            "manufacturerId": maker["id"],
            "categories": [{"id": category["id"]}],
            "visibilities": [{"salesChannelId": "x", "visibility": 30}]
        }),
    )
    .await;
    assert_eq!(created.status, 204, "{}", created.body);
    let location = created.headers["location"].to_str().unwrap().to_owned();
    let id = location.rsplit('/').next().unwrap().to_owned();
    assert!(
        location.ends_with(&format!("/api/product/{id}")),
        "{location}"
    );

    let detail = get(&shop, &format!("/product/{id}"), &token).await;
    assert_eq!(detail.status, 200, "{}", detail.body);
    let product = &detail.body["data"];
    assert_eq!(product["name"], "Zephyr stunt kite");
    assert_eq!(product["stock"], 12);
    assert_eq!(product["price"][0]["gross"], 119.0);
    assert_eq!(product["price"][0]["listPrice"]["gross"], 149.0);
    assert_eq!(product["categories"], json!([{"id": category["id"]}]));
    assert_eq!(product["translations"].as_array().unwrap().len(), 2);

    // Two variants from the group's options.
    for (n, option) in options.iter().enumerate() {
        let variant = create(
            &shop,
            "product",
            &token,
            json!({"parentId": id, "productNumber": format!("ZK-1.{}", n + 1), "stock": 5, "options": [{"id": option["id"]}]}),
        )
        .await;
        assert_eq!(
            variant["price"][0]["gross"], 119.0,
            "a variant inherits the price: {variant}"
        );
    }
    let parent = get(&shop, &format!("/product/{id}"), &token).await.body["data"].clone();
    assert_eq!(parent["childCount"], 2);

    // Criteria: filter, sort, page, total.
    let found = post(
        &shop,
        "/search/product-manufacturer",
        &token,
        json!({"filter": [{"type": "contains", "field": "name", "value": "Zephyr"}], "total-count-mode": "exact"}),
    )
    .await;
    assert_eq!(found.status, 200, "{}", found.body);
    assert_eq!(found.body["total"], 1);
    let variants = get(&shop, "/product?limit=1&total-count-mode=exact", &token).await;
    assert_eq!(variants.status, 200, "{}", variants.body);
    assert_eq!(variants.body["data"].as_array().unwrap().len(), 1);
    let by_parent = post(
        &shop,
        "/search-ids/category",
        &token,
        json!({"filter": [{"type": "multi", "operator": "and", "queries": [
            {"type": "equals", "field": "parentId", "value": root},
            {"type": "equalsAny", "field": "id", "value": [category["id"]]}
        ]}], "sort": [{"field": "name", "order": "DESC"}]}),
    )
    .await;
    assert_eq!(
        by_parent.body["data"],
        json!([category["id"]]),
        "{}",
        by_parent.body
    );
    let unknown = post(
        &shop,
        "/search/product-manufacturer",
        &token,
        json!({"filter": [{"type": "equals", "field": "secret", "value": 1}]}),
    )
    .await;
    assert_eq!(unknown.status, 400, "{}", unknown.body);

    // The storefront sees it: search, listing of its category, detail.
    let (status, search) = shop.post("/search", json!({"search": "Zephyr"})).await;
    assert_eq!(status, 200, "{search}");
    let ids: Vec<&str> = search["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&id.as_str()), "{search}");
    let (status, listing) = shop
        .post(
            &format!("/product-listing/{}", category["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{listing}");
    assert_eq!(listing["total"], 1, "{listing}");
    let (status, store_detail) = shop.post(&format!("/product/{id}"), json!({})).await;
    assert_eq!(status, 200, "{store_detail}");

    // Update: price and German name; the store follows.
    let updated = patch(
        &shop,
        &format!("/product/{id}"),
        &token,
        json!({"price": [{"gross": 99.0}], "translations": {"de-DE": {"name": "Zephyr Drachen"}}}),
    )
    .await;
    assert_eq!(updated.status, 204, "{}", updated.body);
    let product = get(&shop, &format!("/product/{id}"), &token).await.body["data"].clone();
    assert_eq!(product["price"][0]["gross"], 99.0);
    assert_eq!(product["price"][0]["listPrice"]["gross"], 149.0);

    // Delete: the product and its variants are gone, from the store too.
    let removed = delete(&shop, &format!("/product/{id}"), &token).await;
    assert_eq!(removed.status, 204, "{}", removed.body);
    let gone = get(&shop, &format!("/product/{id}"), &token).await;
    assert_eq!(gone.status, 404);
    assert_error(&gone.body, 404, "FRAMEWORK__ENTITY_NOT_FOUND");
    let (_, search) = shop.post("/search", json!({"search": "Zephyr"})).await;
    assert!(
        search["elements"]
            .as_array()
            .map(|e| e.is_empty())
            .unwrap_or(true),
        "{search}"
    );
    let again = delete(&shop, &format!("/product/{id}"), &token).await;
    assert_eq!(again.status, 404);
    // A category in use by the sales channel's navigation cannot be deleted.
    let root_delete = delete(&shop, &format!("/category/{root}"), &token).await;
    assert_eq!(root_delete.status, 409, "{}", root_delete.body);
    assert_error(&root_delete.body, 409, "FRAMEWORK__DELETE_RESTRICTED");
}

#[tokio::test]
async fn invalid_writes_answer_every_violation_with_its_pointer_and_change_nothing() {
    let shop = common::start().await;
    let token = admin(&shop).await;
    let answer = post(
        &shop,
        "/product",
        &token,
        json!({"stock": -1, "price": [{"gross": "cheap"}], "manufacturerId": "0123456789abcdef0123456789abcdef", "colour": "red"}),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    let mut found = pointers(&answer.body);
    found.sort();
    for expected in [
        "/0/colour",
        "/0/manufacturerId",
        "/0/price/0/gross",
        "/0/productNumber",
        "/0/stock",
    ] {
        assert!(
            found.contains(&expected.to_owned()),
            "{expected} missing in {found:?}: {}",
            answer.body
        );
    }
    assert!(answer.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["status"] == "400" && e["code"].is_string() && e["detail"].is_string()));

    // The name is required (in the default language).
    let answer = post(
        &shop,
        "/product",
        &token,
        json!({"productNumber": "NEW-1", "price": [{"gross": 10}]}),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(pointers(&answer.body), ["/0/name"]);
    let none = post(
        &shop,
        "/search/product-manufacturer",
        &token,
        json!({"ids": []}),
    )
    .await;
    assert_eq!(none.status, 200);

    // A product number is unique.
    create(
        &shop,
        "product",
        &token,
        json!({"productNumber": "UNIQ-1", "name": "One", "price": [{"gross": 10}]}),
    )
    .await;
    let answer = post(
        &shop,
        "/product",
        &token,
        json!({"productNumber": "UNIQ-1", "name": "Two", "price": [{"gross": 10}]}),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(
        answer.body["errors"][0]["code"],
        "VIOLATION::DUPLICATE_VALUE"
    );
    assert_eq!(pointers(&answer.body), ["/0/productNumber"]);

    // A list price below the price; a category below itself; an unknown entity.
    let answer =
        post(&shop, "/product", &token, json!({"productNumber": "LP-1", "name": "x", "price": [{"gross": 10, "listPrice": {"gross": 5}}]}))
            .await;
    assert_eq!(pointers(&answer.body), ["/0/price/0/listPrice/gross"]);
    let category = create(&shop, "category", &token, json!({"name": "Loop"})).await;
    let id = category["id"].as_str().unwrap();
    let answer = patch(
        &shop,
        &format!("/category/{id}"),
        &token,
        json!({"parentId": id}),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(pointers(&answer.body), ["/0/parentId"]);
    let answer = get(&shop, "/no-such-thing", &token).await;
    assert_error(&answer.body, 404, "FRAMEWORK__DEFINITION_NOT_FOUND");
    let answer = patch(
        &shop,
        "/category/0123456789abcdef0123456789abcdef",
        &token,
        json!({"name": "x"}),
    )
    .await;
    assert_error(&answer.body, 404, "FRAMEWORK__ENTITY_NOT_FOUND");
    let answer = patch(
        &shop,
        &format!("/category/{id}"),
        &token,
        json!({"level": 4}),
    )
    .await;
    assert_error(&answer.body, 400, "FRAMEWORK__WRITE_PROTECTED");
}

#[tokio::test]
async fn promotions_have_codes_discounts_windows_and_usage_limits() {
    let shop = common::start().await;
    let token = admin(&shop).await;
    let promotion = create(
        &shop,
        "promotion",
        &token,
        json!({
            "name": "Winter", "code": "WINTER20", "useCodes": true, "active": true,
            "validFrom": "2020-01-01T00:00:00+00:00", "validUntil": "2099-01-01",
            "maxRedemptionsGlobal": 100,
            "discounts": [{"type": "percentage", "value": 20, "scope": "cart"}]
        }),
    )
    .await;
    assert_eq!(
        promotion["discounts"],
        json!([{"type": "percentage", "value": 20.0, "scope": "cart"}])
    );
    assert_eq!(promotion["validUntil"], "2099-01-01T00:00:00Z");
    assert_eq!(promotion["maxRedemptionsGlobal"], 100);
    let id = promotion["id"].as_str().unwrap();

    // The store applies the code.
    let (status, cart, headers) = shop
        .call(
            reqwest::Method::POST,
            "/checkout/cart/line-item",
            &[],
            Some(json!({"items": [{"type": "promotion", "referencedId": "WINTER20"}]})),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    assert!(headers.get("sw-context-token").is_some());

    let bad = patch(
        &shop,
        &format!("/promotion/{id}"),
        &token,
        json!({"validUntil": "2019-01-01T00:00:00Z"}),
    )
    .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(pointers(&bad.body), ["/0/validUntil"]);
    let bad = post(
        &shop,
        "/promotion",
        &token,
        json!({"name": "x", "code": "X", "discounts": [{"type": "gift", "value": -1}]}),
    )
    .await;
    let mut found = pointers(&bad.body);
    found.sort();
    assert_eq!(
        found,
        ["/0/discounts/0/type", "/0/discounts/0/value"],
        "{}",
        bad.body
    );
    let bad = post(
        &shop,
        "/promotion",
        &token,
        json!({"name": "x", "code": "winter20", "discounts": [{"type": "absolute", "value": 5}]}),
    )
    .await;
    assert_eq!(
        pointers(&bad.body),
        ["/0/code"],
        "codes are unique regardless of case: {}",
        bad.body
    );

    let list = post(
        &shop,
        "/search/promotion",
        &token,
        json!({"filter": [{"type": "equals", "field": "code", "value": "WINTER20"}]}),
    )
    .await;
    assert_eq!(list.body["total"], 1, "{}", list.body);
    assert_eq!(
        delete(&shop, &format!("/promotion/{id}"), &token)
            .await
            .status,
        204
    );
}

/// Categories and products made in the Admin API get readable paths as the demo's do
/// (`Parent/Child/`, `Name/NUMBER`, per language), which follow a rename (#31 item 12).
#[tokio::test]
async fn categories_and_products_made_in_the_admin_get_seo_urls_like_the_demos() {
    let shop = common::start().await;
    let token = admin(&shop).await;
    let root = root_category(&shop, &token).await;
    let parent = create(
        &shop,
        "category",
        &token,
        json!({"parentId": root, "name": "Kites & Wind", "translations": {"de-DE": {"name": "Drachen & Wind"}}}),
    )
    .await;
    let child = create(
        &shop,
        "category",
        &token,
        json!({"parentId": parent["id"], "name": "Stunt kites", "translations": {"de-DE": {"name": "Lenkdrachen für Größere"}}}),
    )
    .await;
    let created = post(
        &shop,
        "/product",
        &token,
        json!({
            "productNumber": "ZK-7",
            "name": "Zephyr stunt kite",
            "translations": {"de-DE": {"name": "Zephyr Lenkdrachen"}},
            "stock": 3,
            "price": [{"currencyId": "ignored", "gross": 119.0, "net": 100.0, "linked": true}],
            "categories": [{"id": child["id"]}],
            "visibilities": [{"salesChannelId": "x", "visibility": 30}]
        }),
    )
    .await;
    assert_eq!(created.status, 204, "{}", created.body);
    let location = created.headers["location"].to_str().unwrap().to_owned();
    let product = location.rsplit('/').next().unwrap().to_owned();

    let german = shop.language("de-DE").await;
    let path_of = |id: String, language: Option<String>| {
        let shop = &shop;
        async move {
            let headers: Vec<(&str, &str)> = match &language {
                Some(language) => vec![("sw-language-id", language.as_str())],
                None => vec![],
            };
            let (status, found) = shop
                .post_with(
                    "/seo-url",
                    &headers,
                    json!({"filter": [{"type": "equals", "field": "foreignKey", "value": id}]}),
                )
                .await;
            assert_eq!(status, 200, "{found}");
            found["elements"][0]["seoPathInfo"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        }
    };
    let parent_id = parent["id"].as_str().unwrap().to_owned();
    let child_id = child["id"].as_str().unwrap().to_owned();
    assert_eq!(path_of(parent_id.clone(), None).await, "Kites-Wind/");
    assert_eq!(
        path_of(child_id.clone(), None).await,
        "Kites-Wind/Stunt-kites/"
    );
    assert_eq!(
        path_of(child_id.clone(), Some(german.clone())).await,
        "Drachen-Wind/Lenkdrachen-fuer-Groessere/"
    );
    assert_eq!(
        path_of(product.clone(), None).await,
        "Zephyr-stunt-kite/ZK-7"
    );
    assert_eq!(
        path_of(product.clone(), Some(german.clone())).await,
        "Zephyr-Lenkdrachen/ZK-7"
    );

    // A renamed parent moves the paths below it.
    let renamed = patch(
        &shop,
        &format!("/category/{parent_id}"),
        &token,
        json!({"name": "Kites"}),
    )
    .await;
    assert!(renamed.status < 300, "{}", renamed.body);
    assert_eq!(path_of(child_id, None).await, "Kites/Stunt-kites/");
}
