//! The catalogue calls against a real shop: product search with criteria, product
//! detail with configurator, reviews, category listings, search and suggestions.

use crate::common;

use common::{assert_error, elements, names, start};
use serde_json::{json, Value};

fn prices(body: &Value) -> Vec<f64> {
    elements(body)
        .iter()
        .map(|e| e["calculatedCheapestPrice"]["unitPrice"].as_f64().unwrap())
        .collect()
}

fn is_sorted_by<T: PartialOrd>(values: &[T], descending: bool) -> bool {
    values.windows(2).all(|w| {
        if descending {
            w[0] >= w[1]
        } else {
            w[0] <= w[1]
        }
    })
}

#[tokio::test]
async fn product_search_filters_sorts_and_pages() {
    let shop = start().await;
    let (status, all) = shop
        .post(
            "/product",
            json!({"limit": 100, "total-count-mode": "exact"}),
        )
        .await;
    assert_eq!(status, 200, "{all}");
    assert_eq!(all["apiAlias"], "dal_entity_search_result");
    let total = all["total"].as_u64().unwrap();
    assert!(total >= 60, "at least 60 products, got {total}");
    assert!(elements(&all)
        .iter()
        .all(|p| p["apiAlias"] == "product" && p["parentId"].is_null()));

    let (status, expensive) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "range", "field": "price", "parameters": {"gte": 50}}], "sort": [{"field": "price", "order": "DESC"}], "limit": 100}),
        )
        .await;
    assert_eq!(status, 200, "{expensive}");
    let found = prices(&expensive);
    assert!(!found.is_empty() && (found.len() as u64) < total);
    assert!(found.iter().all(|p| *p >= 50.0), "{found:?}");
    assert!(is_sorted_by(&found, true), "{found:?}");

    let (_, page1) = shop
        .post("/product", json!({"limit": 5, "page": 1, "sort": [{"field": "productNumber", "order": "ASC"}], "total-count-mode": "exact"}))
        .await;
    let (_, page2) = shop
        .post("/product", json!({"limit": 5, "page": 2, "sort": [{"field": "productNumber", "order": "ASC"}], "total-count-mode": "exact"}))
        .await;
    assert_eq!(page2["total"], total);
    assert_eq!(page2["page"], 2);
    let (numbers1, numbers2): (Vec<Value>, Vec<Value>) = (
        elements(&page1)
            .iter()
            .map(|p| p["productNumber"].clone())
            .collect(),
        elements(&page2)
            .iter()
            .map(|p| p["productNumber"].clone())
            .collect(),
    );
    assert_eq!(numbers2.len(), 5);
    assert!(numbers1.iter().all(|n| !numbers2.contains(n)));
    assert!(numbers1.last().unwrap().as_str() < numbers2.first().unwrap().as_str());
}

#[tokio::test]
async fn product_search_by_ids_equals_any_contains_multi_and_includes() {
    let shop = start().await;
    let (_, some) = shop
        .post(
            "/product",
            json!({"limit": 3, "sort": [{"field": "productNumber", "order": "ASC"}]}),
        )
        .await;
    let ids: Vec<Value> = elements(&some).iter().map(|p| p["id"].clone()).collect();
    let (status, by_ids) = shop
        .post(
            "/product",
            json!({"ids": ids, "includes": {"product": ["id", "name"]}}),
        )
        .await;
    assert_eq!(status, 200, "{by_ids}");
    assert_eq!(elements(&by_ids).len(), 3);
    for product in elements(&by_ids) {
        let keys: Vec<&String> = product.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 3, "only id, name and apiAlias: {keys:?}");
    }

    let (_, any) = shop
        .post("/product", json!({"filter": [{"type": "equalsAny", "field": "productNumber", "value": ["SR10001", "SR10002", "NOPE"]}]}))
        .await;
    assert_eq!(elements(&any).len(), 2);

    let (_, contains) =
        shop.post("/product", json!({"filter": [{"type": "contains", "field": "name", "value": "shirt"}], "limit": 100})).await;
    let shirts = names(&contains);
    assert!(
        !shirts.is_empty() && shirts.iter().all(|n| n.to_lowercase().contains("shirt")),
        "{shirts:?}"
    );

    let (_, multi) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "multi", "operator": "or", "queries": [
                {"type": "equals", "field": "productNumber", "value": "SR10001"},
                {"type": "equals", "field": "product.productNumber", "value": "SR10010"}
            ]}, {"type": "equals", "field": "active", "value": true}]}),
        )
        .await;
    assert_eq!(elements(&multi).len(), 2, "{multi}");

    let (_, not) = shop
        .post("/product", json!({"filter": [{"type": "not", "operator": "and", "queries": [{"type": "equals", "field": "shippingFree", "value": true}]}], "limit": 100}))
        .await;
    assert!(elements(&not).iter().all(|p| p["shippingFree"] == false));
}

#[tokio::test]
async fn bad_criteria_are_shopware_400s_and_never_500s() {
    let shop = start().await;
    let cases = [
        (
            json!({"filter": [{"type": "equals", "field": "password", "value": "x"}]}),
            "FRAMEWORK__INVALID_FILTER_QUERY",
            "/filter/0/field",
        ),
        (
            json!({"filter": [{"type": "range", "field": "stock", "parameters": {"gte": "many"}}]}),
            "FRAMEWORK__INVALID_FILTER_QUERY",
            "/filter/0/parameters/gte",
        ),
        (
            json!({"filter": [{"type": "fuzzy", "field": "name", "value": "x"}]}),
            "FRAMEWORK__INVALID_FILTER_QUERY",
            "/filter/0/type",
        ),
        (
            json!({"filter": {"type": "equals"}}),
            "FRAMEWORK__INVALID_FILTER_QUERY",
            "/filter",
        ),
        (
            json!({"limit": 0}),
            "FRAMEWORK__INVALID_LIMIT_QUERY",
            "/limit",
        ),
        (
            json!({"limit": 100000}),
            "FRAMEWORK__INVALID_LIMIT_QUERY",
            "/limit",
        ),
        (
            json!({"page": -1}),
            "FRAMEWORK__INVALID_PAGE_QUERY",
            "/page",
        ),
        (
            json!({"sort": [{"field": "name", "order": "sideways"}]}),
            "FRAMEWORK__INVALID_SORT_DIRECTION",
            "/sort/0/order",
        ),
        (
            json!({"sort": [{"field": "categoryIds"}]}),
            "FRAMEWORK__INVALID_SORT_QUERY",
            "/sort/0/field",
        ),
        (
            json!({"total-count-mode": "sometimes"}),
            "FRAMEWORK__INVALID_TOTAL_COUNT_MODE",
            "/total-count-mode",
        ),
    ];
    for (criteria, code, pointer) in cases {
        let (status, body) = shop.post("/product", criteria.clone()).await;
        assert_eq!(status, 400, "{criteria}: {body}");
        assert_error(&body, 400, code);
        assert_eq!(
            body["errors"][0]["source"]["pointer"], pointer,
            "{criteria}"
        );
    }
    // Malformed JSON.
    let response = shop
        .http
        .post(format!("{}/store-api/product", shop.base))
        .header("sw-access-key", common::KEY)
        .header("content-type", "application/json")
        .body("{\"limit\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    assert_error(
        &response.json().await.unwrap(),
        400,
        "FRAMEWORK__INVALID_REQUEST_BODY",
    );
    // Deep nesting is refused, not followed.
    let mut filter = json!({"type": "equals", "field": "stock", "value": 1});
    for _ in 0..20 {
        filter = json!({"type": "multi", "operator": "and", "queries": [filter]});
    }
    let (status, body) = shop.post("/product", json!({"filter": [filter]})).await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn texts_follow_the_sw_language_id_header() {
    let shop = start().await;
    let german = shop.language("de-DE").await;
    let english = shop.language("en-GB").await;
    let criteria =
        json!({"filter": [{"type": "equals", "field": "productNumber", "value": "SR10001"}]});
    let (_, default) = shop.post("/product", criteria.clone()).await;
    let (_, en) = shop
        .post_with(
            "/product",
            &[("sw-language-id", &english)],
            criteria.clone(),
        )
        .await;
    let (_, de) = shop
        .post_with("/product", &[("sw-language-id", &german)], criteria.clone())
        .await;
    assert_eq!(names(&default), vec!["Linen shirt"]);
    assert_eq!(names(&en), vec!["Linen shirt"]);
    assert_eq!(names(&de), vec!["Leinenhemd"]);
    let product = &elements(&de)[0];
    assert_eq!(product["name"], "Leinenhemd");
    assert!(
        product["description"].as_str().unwrap().contains("Alltag"),
        "{}",
        product["description"]
    );
    assert_eq!(
        product["deliveryTime"]["translated"]["name"]
            .as_str()
            .map(|n| n.contains("Tage") || n.contains("Wochen")),
        Some(true)
    );

    let (status, body) = shop
        .post_with(
            "/product",
            &[("sw-language-id", "0123456789abcdef0123456789abcdef")],
            criteria.clone(),
        )
        .await;
    assert_eq!(status, 412);
    assert_error(
        &body,
        412,
        "SYSTEM__SALES_CHANNEL_LANGUAGE_NOT_AVAILABLE_EXCEPTION",
    );
    let (status, _) = shop
        .post_with("/product", &[("sw-language-id", "german")], criteria)
        .await;
    assert_eq!(status, 412);
}

#[tokio::test]
async fn product_detail_shows_a_variant_with_its_configurator() {
    let shop = start().await;
    let (_, parents) =
        shop.post("/product", json!({"filter": [{"type": "range", "field": "childCount", "parameters": {"gt": 0}}], "limit": 50})).await;
    let parents = elements(&parents);
    assert!(parents.len() >= 5, "some products have variants");
    let parent = &parents[0];
    let parent_id = parent["id"].as_str().unwrap();
    assert!(parent["calculatedCheapestPrice"]["variantId"].is_string());

    let (status, detail) = shop
        .post_with(
            &format!("/product/{parent_id}"),
            &[("sw-include-seo-urls", "true")],
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{detail}");
    assert_eq!(detail["apiAlias"], "product_detail");
    let product = &detail["product"];
    assert_eq!(
        product["parentId"], parent_id,
        "a parent shows one of its variants"
    );
    assert_eq!(
        product["translated"]["name"], parent["translated"]["name"],
        "variants inherit texts"
    );
    let options: Vec<&str> = product["optionIds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap())
        .collect();
    assert_eq!(options.len(), 2);
    assert!(product["seoUrls"][0]["seoPathInfo"]
        .as_str()
        .unwrap()
        .contains(product["productNumber"].as_str().unwrap()));
    assert!(product["media"].as_array().is_some_and(|m| !m.is_empty()));
    let configurator = detail["configurator"].as_array().unwrap();
    assert_eq!(configurator.len(), 2, "colour and size: {configurator:?}");
    for group in configurator {
        assert_eq!(group["apiAlias"], "property_group");
        let group_options = group["options"].as_array().unwrap();
        assert!(group_options.len() >= 2);
        // The shown variant's own options combine with each other.
        for option in group_options
            .iter()
            .filter(|o| options.contains(&o["id"].as_str().unwrap()))
        {
            assert_eq!(option["combinable"], true);
        }
    }
    // Asking for a variant directly shows that variant.
    let variant_id = product["id"].as_str().unwrap();
    let (_, direct) = shop
        .post(&format!("/product/{variant_id}"), json!({}))
        .await;
    assert_eq!(direct["product"]["id"], variant_id);

    let (status, body) = shop
        .post("/product/0123456789abcdef0123456789abcdef", json!({}))
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CONTENT__PRODUCT_NOT_FOUND");
    let (status, body) = shop.post("/product/not-an-id", json!({})).await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "FRAMEWORK__INVALID_UUID");
}

#[tokio::test]
async fn prices_carry_taxes_list_prices_advanced_and_reference_prices() {
    let shop = start().await;
    let (_, sale) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "equals", "field": "productNumber", "value": "SR10004"}]}),
        )
        .await;
    let price = &elements(&sale)[0]["calculatedPrice"];
    assert_eq!(price["apiAlias"], "calculated_price");
    assert_eq!(price["listPrice"]["apiAlias"], "cart_list_price");
    assert!(price["listPrice"]["price"].as_f64().unwrap() > price["unitPrice"].as_f64().unwrap());
    assert_eq!(price["calculatedTaxes"][0]["taxRate"], 19.0);
    assert!(
        price["regulationPrice"]["price"].as_f64().unwrap() <= price["unitPrice"].as_f64().unwrap()
    );

    let (_, coffee) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "contains", "field": "name", "value": "Espresso beans"}]}),
        )
        .await;
    let coffee = &elements(&coffee)[0];
    assert_eq!(
        coffee["calculatedPrice"]["calculatedTaxes"][0]["taxRate"],
        7.0
    );
    let tiers = coffee["calculatedPrices"].as_array().unwrap();
    assert_eq!(tiers.len(), 3);
    assert!(tiers[0]["unitPrice"].as_f64() > tiers[2]["unitPrice"].as_f64());
    assert_eq!(coffee["calculatedCheapestPrice"]["hasRange"], true);
    let reference = &coffee["calculatedPrice"]["referencePrice"];
    assert_eq!(reference["unitName"], "Kilogram");
    assert!(
        (reference["price"].as_f64().unwrap()
            - coffee["calculatedPrice"]["unitPrice"].as_f64().unwrap() * 2.0)
            .abs()
            < 0.02
    );
    assert_eq!(coffee["purchaseUnit"], 0.5);
    assert!(coffee["weight"].is_number() && coffee["width"].is_number());
}

#[tokio::test]
async fn reviews_of_a_product() {
    let shop = start().await;
    let (_, rated) =
        shop.post("/product", json!({"filter": [{"type": "range", "field": "ratingAverage", "parameters": {"gte": 1}}], "limit": 1})).await;
    let product = &elements(&rated)[0];
    let (status, reviews) = shop
        .post(
            &format!("/product/{}/reviews", product["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{reviews}");
    let reviews = elements(&reviews);
    assert!(!reviews.is_empty());
    assert!(reviews
        .iter()
        .all(|r| r["apiAlias"] == "product_review" && r["productId"] == product["id"]));
    let average = reviews
        .iter()
        .map(|r| r["points"].as_f64().unwrap())
        .sum::<f64>()
        / reviews.len() as f64;
    assert!((average - product["ratingAverage"].as_f64().unwrap()).abs() < 0.01);
    let (status, body) = shop
        .post(
            "/product/0123456789abcdef0123456789abcdef/reviews",
            json!({}),
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CONTENT__PRODUCT_NOT_FOUND");
}

#[tokio::test]
async fn cross_selling_of_a_product_and_of_its_variants() {
    let shop = start().await;
    let (_, found) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "equals", "field": "productNumber", "value": "SR10005"}]}),
        )
        .await;
    let product = &elements(&found)[0];
    let id = product["id"].as_str().unwrap();
    let (status, body) = shop
        .post(&format!("/product/{id}/cross-selling"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let groups = body.as_array().unwrap();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0]["apiAlias"], "cross_selling_element");
    assert_eq!(
        groups[0]["crossSelling"]["translated"]["name"],
        "Similar products"
    );
    let products = groups[0]["products"].as_array().unwrap();
    assert!(!products.is_empty() && products.len() <= 4);
    assert_eq!(groups[0]["total"], products.len());
    assert!(products
        .iter()
        .all(|p| p["id"] != product["id"] && p["apiAlias"] == "product"));

    // German names; a variant shows its parent's cross-selling.
    let german = shop.language("de-DE").await;
    let (_, variants) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "equals", "field": "parentId", "value": id}], "limit": 1}),
        )
        .await;
    let target = elements(&variants)
        .first()
        .map(|v| v["id"].as_str().unwrap().to_owned())
        .unwrap_or_else(|| id.to_owned());
    let (status, body, _) = shop
        .call(
            reqwest::Method::GET,
            &format!("/product/{target}/cross-selling"),
            &[("sw-language-id", &german)],
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body[0]["crossSelling"]["translated"]["name"],
        "Ähnliche Produkte"
    );

    let (status, body) = shop
        .post(
            "/product/0123456789abcdef0123456789abcdef/cross-selling",
            json!({}),
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CONTENT__PRODUCT_NOT_FOUND");
    let (status, body) = shop
        .post("/product/not-an-id/cross-selling", json!({}))
        .await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn category_listing_sorts_six_ways_and_pages_by_ten() {
    let shop = start().await;
    let clothing = shop.seo("Clothing/").await;
    let (status, listing) = shop
        .post(&format!("/product-listing/{clothing}"), json!({}))
        .await;
    assert_eq!(status, 200, "{listing}");
    assert_eq!(listing["apiAlias"], "product_listing");
    assert_eq!(listing["limit"], 10);
    assert_eq!(listing["sorting"], "name-asc");
    assert_eq!(
        listing["total"], 14,
        "shirts and jackets are listed in clothing"
    );
    assert_eq!(elements(&listing).len(), 10);
    let keys: Vec<&str> = listing["availableSortings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "name-asc",
            "name-desc",
            "price-asc",
            "price-desc",
            "topseller",
            "newest"
        ]
    );
    // The labels as the spec words them (section 9), in both languages.
    let labels = |listing: &Value| -> Vec<String> {
        listing["availableSortings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["translated"]["label"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        labels(&listing),
        [
            "Name A-Z",
            "Name Z-A",
            "Lowest price",
            "Highest price",
            "Top seller",
            "Last added"
        ]
    );
    let german = shop.language("de-DE").await;
    let (_, german_listing) = shop
        .post_with(
            &format!("/product-listing/{clothing}"),
            &[("sw-language-id", &german)],
            json!({}),
        )
        .await;
    assert_eq!(
        labels(&german_listing),
        [
            "Name A-Z",
            "Name Z-A",
            "Niedrigster Preis",
            "Höchster Preis",
            "Topseller",
            "Zuletzt hinzugefügt"
        ]
    );
    let lower = |names: Vec<String>| names.iter().map(|n| n.to_lowercase()).collect::<Vec<_>>();
    assert!(is_sorted_by(&lower(names(&listing)), false));

    let (_, page2) = shop
        .post(&format!("/product-listing/{clothing}?p=2"), json!({}))
        .await;
    assert_eq!(elements(&page2).len(), 4);

    let sorted = |order: &'static str| {
        let shop = &shop;
        let clothing = clothing.clone();
        async move {
            let (status, body) = shop
                .post(
                    &format!("/product-listing/{clothing}"),
                    json!({"order": order, "limit": 24}),
                )
                .await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(body["sorting"], order);
            body
        }
    };
    assert!(is_sorted_by(
        &lower(names(&sorted("name-desc").await)),
        true
    ));
    assert!(is_sorted_by(&prices(&sorted("price-asc").await), false));
    assert!(is_sorted_by(&prices(&sorted("price-desc").await), true));
    let sales: Vec<i64> = elements(&sorted("topseller").await)
        .iter()
        .map(|p| p["sales"].as_i64().unwrap())
        .collect();
    assert!(is_sorted_by(&sales, true), "{sales:?}");
    let released: Vec<String> = elements(&sorted("newest").await)
        .iter()
        .map(|p| p["releaseDate"].as_str().unwrap().to_owned())
        .collect();
    assert!(is_sorted_by(&released, true), "{released:?}");

    let (status, body) = shop
        .post(
            &format!("/product-listing/{clothing}"),
            json!({"order": "random"}),
        )
        .await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "PRODUCT__SORTING_NOT_FOUND");
    let (status, body) = shop
        .post(
            "/product-listing/0123456789abcdef0123456789abcdef",
            json!({}),
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CONTENT__CATEGORY_NOT_FOUND");
}

#[tokio::test]
async fn category_listing_filters_and_aggregations() {
    let shop = start().await;
    let kitchen = shop.seo("Kitchen/").await;
    let path = format!("/product-listing/{kitchen}");
    let (_, all) = shop.post(&path, json!({"limit": 100})).await;
    let total = all["total"].as_u64().unwrap();
    let aggregations = &all["aggregations"];
    assert_eq!(aggregations["price"]["apiAlias"], "price_aggregation");
    assert!(aggregations["price"]["min"].as_f64() < aggregations["price"]["max"].as_f64());
    let manufacturers = aggregations["manufacturer"]["entities"].as_array().unwrap();
    assert!(!manufacturers.is_empty());
    let groups = aggregations["properties"]["entities"].as_array().unwrap();
    let material = groups
        .iter()
        .find(|g| g["name"] == "Material")
        .expect("a material filter");
    let option = material["options"][0]["id"].as_str().unwrap().to_owned();
    let other = material["options"][1]["id"].as_str().unwrap().to_owned();

    // Price.
    let (_, cheap) = shop
        .post(
            &path,
            json!({"min-price": 20, "max-price": 40, "limit": 100}),
        )
        .await;
    let found = prices(&cheap);
    assert!(!found.is_empty() && (found.len() as u64) < total);
    assert!(found.iter().all(|p| (20.0..=40.0).contains(p)), "{found:?}");
    assert_eq!(cheap["currentFilters"]["price"]["min"], 20.0);
    // Properties: one option, then two of the same group (either matches).
    let (_, one) = shop
        .post(
            &format!("{path}?properties={option}"),
            json!({"limit": 100}),
        )
        .await;
    assert!(elements(&one).iter().all(|p| p["propertyIds"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o == &option)));
    let (_, either) = shop
        .post(
            &path,
            json!({"properties": format!("{option}|{other}"), "limit": 100}),
        )
        .await;
    assert!(elements(&either).len() > elements(&one).len());
    assert_eq!(
        either["currentFilters"]["properties"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    // Manufacturer.
    let manufacturer = manufacturers[0]["id"].as_str().unwrap();
    let (_, by_manufacturer) = shop
        .post(&path, json!({"manufacturer": manufacturer, "limit": 100}))
        .await;
    assert!(!elements(&by_manufacturer).is_empty());
    assert!(elements(&by_manufacturer)
        .iter()
        .all(|p| p["manufacturerId"] == manufacturer));
    let (_, nobody) = shop
        .post(
            &path,
            json!({"manufacturer": "0123456789abcdef0123456789abcdef"}),
        )
        .await;
    assert_eq!(nobody["total"], 0);
    // Free shipping and rating, over the whole shop's root category.
    let home = shop
        .post("/category/home", json!({"includes": {"category": ["id"]}}))
        .await
        .1["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (_, free) = shop
        .post(
            &format!("/product-listing/{home}"),
            json!({"shipping-free": true, "limit": 100}),
        )
        .await;
    assert!(
        !elements(&free).is_empty() && elements(&free).iter().all(|p| p["shippingFree"] == true)
    );
    let (_, rated) = shop
        .post(
            &format!("/product-listing/{home}"),
            json!({"rating": 4, "limit": 100}),
        )
        .await;
    assert!(
        !elements(&rated).is_empty()
            && elements(&rated)
                .iter()
                .all(|p| p["ratingAverage"].as_f64().unwrap() >= 4.0)
    );
    // Switched-off filters and aggregations.
    let (_, off) = shop
        .post(
            &path,
            json!({"min-price": 1000, "price-filter": false, "no-aggregations": ""}),
        )
        .await;
    assert_eq!(off["total"], total);
    assert_eq!(off["aggregations"], json!([]));
    let (status, body) = shop.post(&path, json!({"min-price": "cheap"})).await;
    assert_eq!(status, 400);
    assert_eq!(body["errors"][0]["source"]["pointer"], "/min-price");
}

#[tokio::test]
async fn search_and_search_suggest() {
    let shop = start().await;
    let (status, found) = shop.post("/search?search=linen%20shirt", json!({})).await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["apiAlias"], "product_listing");
    assert_eq!(names(&found)[0], "Linen shirt");
    assert_eq!(found["sorting"], "score");
    assert_eq!(found["currentFilters"]["search"], "linen shirt");
    assert!(found["aggregations"]["price"].is_object());

    let german = shop.language("de-DE").await;
    let (_, de) = shop
        .post_with(
            "/search",
            &[("sw-language-id", &german)],
            json!({"search": "kopfhörer"}),
        )
        .await;
    assert_eq!(names(&de), vec!["Kabellose Kopfhörer"]);
    let (_, number) = shop.post("/search", json!({"search": "SR10001"})).await;
    assert_eq!(names(&number)[0], "Linen shirt");
    let (_, nothing) = shop.post("/search", json!({"search": "%%%"})).await;
    assert_eq!(nothing["total"], 0);

    let (status, body) = shop.post("/search", json!({})).await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "FRAMEWORK__MISSING_REQUEST_PARAMETER");

    let (status, suggest) = shop
        .post("/search-suggest", json!({"search": "s", "limit": 3}))
        .await;
    assert_eq!(status, 200, "{suggest}");
    assert_eq!(elements(&suggest).len(), 3);
    assert!(suggest["total"].as_u64().unwrap() > 3);
    assert_eq!(suggest["aggregations"], json!([]));
    assert_eq!(suggest["availableSortings"], json!([]));
}

#[tokio::test]
async fn the_listing_index_follows_product_changes() {
    let shop = start().await;
    let shoes = shop.seo("Shoes/").await;
    let (_, before) = shop
        .post(
            &format!("/product-listing/{shoes}"),
            json!({"order": "topseller", "limit": 1}),
        )
        .await;
    assert_ne!(elements(&before)[0]["productNumber"], "SR10020");
    // A second connection to the same file, as another writer would be.
    let db = storefront_proxy::storage::Db::open(&shop.dir.path().join("shop.sqlite")).unwrap();
    db.call(|conn| Ok(conn.execute("UPDATE product SET sales = 100000, listing_price = 1.5 WHERE product_number = 'SR10020'", [])?))
        .await
        .unwrap();
    let (_, after) = shop
        .post(
            &format!("/product-listing/{shoes}"),
            json!({"order": "topseller", "limit": 1}),
        )
        .await;
    assert_eq!(elements(&after)[0]["productNumber"], "SR10020");
    let (_, cheapest) = shop
        .post(
            &format!("/product-listing/{shoes}"),
            json!({"order": "price-asc", "max-price": 2}),
        )
        .await;
    assert_eq!(names(&cheapest).len(), 1);
    db.call(|conn| {
        Ok(conn.execute(
            "UPDATE product SET active = 0 WHERE product_number = 'SR10020'",
            [],
        )?)
    })
    .await
    .unwrap();
    let (_, gone) = shop
        .post(
            &format!("/product-listing/{shoes}"),
            json!({"order": "topseller", "limit": 100}),
        )
        .await;
    assert!(elements(&gone)
        .iter()
        .all(|p| p["productNumber"] != "SR10020"));
}

#[tokio::test]
async fn a_products_picture_shows_it_in_its_colour() {
    let shop = start().await;
    let (status, body) = shop
        .post(
            "/product",
            json!({"limit": 100, "associations": {"properties": {}, "cover": {}}}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let colour_of = |product: &Value| -> Option<String> {
        product["properties"]
            .as_array()?
            .iter()
            .find(|o| o["group"]["name"] == "Colour")
            .and_then(|o| o["name"].as_str())
            .map(str::to_owned)
    };
    let mut seen = std::collections::HashSet::new();
    for product in body["elements"].as_array().unwrap() {
        let (Some(colour), Some(url)) = (
            colour_of(product),
            product["cover"]["media"]["url"].as_str(),
        ) else {
            continue;
        };
        let tint = match colour.as_str() {
            "Red" => "hsl(6,63%,46%)",
            "Blue" => "hsl(215,60%,45%)",
            _ => continue,
        };
        let picture = shop
            .http
            .get(url)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            picture.contains(tint),
            "{} is {colour}: {picture}",
            product["name"]
        );
        seen.insert(colour);
    }
    assert_eq!(seen.len(), 2, "red and blue products among the first 100");
}

/// A demo shirt's variants show the picture of their colour (#31 item 12): the variants
/// of one colour share a cover, the other colour's have another.
#[tokio::test]
async fn a_variants_picture_follows_its_colour() {
    let shop = start().await;
    let (status, parents) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "equals", "field": "productNumber", "value": "SR10001"}]}),
        )
        .await;
    assert_eq!(status, 200, "{parents}");
    let parent = parents["elements"][0]["id"].as_str().unwrap().to_owned();
    let (status, variants) = shop
        .post(
            "/product",
            json!({
                "filter": [{"type": "equals", "field": "parentId", "value": parent}],
                "associations": {"options": {"associations": {"group": {}}}, "cover": {}},
                "limit": 50
            }),
        )
        .await;
    assert_eq!(status, 200, "{variants}");
    let mut covers_by_colour: std::collections::BTreeMap<
        String,
        std::collections::BTreeSet<String>,
    > = Default::default();
    for variant in variants["elements"].as_array().unwrap() {
        let colour = variant["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|option| option["group"]["name"] == "Color" || option["colorHexCode"].is_string())
            .map(|option| option["id"].as_str().unwrap().to_owned())
            .expect("a colour option");
        let cover = variant["cover"]["mediaId"].as_str().unwrap().to_owned();
        covers_by_colour.entry(colour).or_default().insert(cover);
    }
    assert_eq!(
        covers_by_colour.len(),
        2,
        "two colours: {covers_by_colour:?}"
    );
    for covers in covers_by_colour.values() {
        assert_eq!(
            covers.len(),
            1,
            "one picture per colour: {covers_by_colour:?}"
        );
    }
    let pictures: std::collections::BTreeSet<&String> =
        covers_by_colour.values().flatten().collect();
    assert_eq!(
        pictures.len(),
        2,
        "each colour its own picture: {covers_by_colour:?}"
    );
}
