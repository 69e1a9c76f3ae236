//! Issue #29, item 8, against a real shop: what one anonymous client may cost the Store
//! API. Past its rate or its concurrent requests a client is answered `429` in
//! Shopware's shape (others go on); a database read over the request's time budget is
//! stopped and answered `503` in the same shape, and a client that keeps sending such
//! reads is refused (`429`) for a while; `contains` on product names answers what it
//! answered before (German umlauts, parts of words).

use crate::common;

use common::{assert_error, names, serve_with, Shop};
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

fn database(shop: &Shop) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(shop.dir.path().join("shop.sqlite")).unwrap();
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .unwrap();
    conn
}

/// `POST /store-api/product` with a `contains` on the name, in `language` (none: the default).
async fn contains(shop: &Shop, text: &str, language: Option<&str>) -> Vec<String> {
    let headers: Vec<(&str, &str)> = language
        .map(|id| ("sw-language-id", id))
        .into_iter()
        .collect();
    let filter = json!({"filter": [{"type": "contains", "field": "name", "value": text}], "limit": 500, "sort": [{"field": "name"}]});
    let (status, body) = shop.post_with("/product", &headers, filter).await;
    assert_eq!(status, 200, "{body}");
    let mut found = names(&body);
    found.sort();
    found
}

/// The names `LIKE '%text%'` selects, read from the translations themselves (what the
/// filter answered before it had an index).
fn names_like(shop: &Shop, text: &str, language: &str) -> Vec<String> {
    let conn = database(shop);
    let mut statement = conn
        .prepare(
            "SELECT t.name FROM product p JOIN product_translation t ON t.product_id = p.id AND t.language_id = ?2
             WHERE p.active = 1 AND p.parent_id IS NULL AND t.name LIKE '%' || ?1 || '%' ORDER BY t.name",
        )
        .unwrap();
    let rows = statement
        .query_map([text, language], |r| r.get::<_, String>(0))
        .unwrap();
    let mut found: Vec<String> = rows.map(Result::unwrap).collect();
    found.sort();
    found
}

/// Asserts a refusal by the rate limiter in Shopware's shape: 429, the wait in
/// `meta.parameters.seconds` and `Retry-After`.
fn assert_rate_limited(body: &Value, headers: &reqwest::header::HeaderMap) {
    assert_error(body, 429, "FRAMEWORK__RATE_LIMIT_EXCEEDED");
    let seconds = body["errors"][0]["meta"]["parameters"]["seconds"]
        .as_u64()
        .unwrap_or_else(|| panic!("no wait: {body}"));
    assert!(seconds >= 1, "{body}");
    assert_eq!(
        headers["retry-after"].to_str().unwrap(),
        seconds.to_string()
    );
}

#[tokio::test]
async fn a_client_past_its_rate_is_answered_429_in_shopwares_shape_and_others_go_on() {
    let shop = shop_with(|c| storefront_proxy::Config {
        store_api_requests_per_second: 1,
        store_api_request_burst: 3,
        ..c
    })
    .await;
    // 127.0.0.1 is a trusted proxy by default: X-Forwarded-For names the client.
    let hostile = [("x-forwarded-for", "203.0.113.66")];
    for _ in 0..3 {
        let (status, body, _) = shop
            .call(
                Method::POST,
                "/product",
                &hostile,
                Some(json!({"limit": 1})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body, headers) = shop
        .call(
            Method::POST,
            "/product",
            &hostile,
            Some(json!({"limit": 1})),
        )
        .await;
    assert_eq!(status, 429, "{body}");
    assert_rate_limited(&body, &headers);
    // Every route of the Store API counts, a bad access key too.
    let (status, body, headers) = shop.call(Method::GET, "/context", &hostile, None).await;
    assert_eq!(status, 429, "{body}");
    assert_rate_limited(&body, &headers);
    let shopper = [("x-forwarded-for", "198.51.100.7")];
    let (status, body, _) = shop
        .call(
            Method::POST,
            "/product",
            &shopper,
            Some(json!({"limit": 1})),
        )
        .await;
    assert_eq!(status, 200, "another client is served: {body}");
}

#[tokio::test]
async fn a_client_past_its_concurrent_requests_is_answered_429_and_others_are_served() {
    let shop = shop_with(|c| storefront_proxy::Config {
        store_api_client_concurrency: 1,
        store_api_client_queue: 0,
        ..c
    })
    .await;
    let clothing = shop.seo("Clothing/").await;
    let path = format!("/product-listing/{clothing}");
    let calls = (0..24).map(|_| {
        let (shop, path) = (&shop, &path);
        async move {
            shop.call(
                Method::POST,
                path,
                &[("x-forwarded-for", "203.0.113.66")],
                Some(json!({"limit": 24})),
            )
            .await
        }
    });
    let answers = futures_util::future::join_all(calls).await;
    let refused: Vec<_> = answers
        .iter()
        .filter(|(status, _, _)| *status == 429)
        .collect();
    assert!(
        !refused.is_empty(),
        "one request at a time, none waiting: the others at the same time are refused"
    );
    for (_, body, headers) in refused {
        assert_rate_limited(body, headers);
    }
    assert!(answers
        .iter()
        .all(|(status, _, _)| *status == 429 || *status == 200));
    assert!(answers.iter().any(|(status, _, _)| *status == 200));
    let (status, body, _) = shop
        .call(
            Method::POST,
            &path,
            &[("x-forwarded-for", "198.51.100.7")],
            Some(json!({"limit": 24})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

/// 60,000 more products (names of no demo product), written straight into the file.
fn many_products(shop: &Shop) {
    let conn = database(shop);
    conn.execute_batch(
        "BEGIN;
         CREATE TEMP TABLE n AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000) SELECT i FROM n;
         INSERT INTO product (id, product_number, tax_id, price_net, price_gross, listing_price, created_at)
             SELECT printf('%032x', 1000000 + i), 'BUDGET' || i, (SELECT id FROM tax LIMIT 1), 1.0, 1.19, 1.19, '2026-01-01T00:00:00Z'
             FROM temp.n;
         INSERT INTO product_translation (product_id, language_id, name)
             SELECT printf('%032x', 1000000 + i), (SELECT language_id FROM sales_channel LIMIT 1), 'Budget thing ' || i FROM temp.n;
         COMMIT;",
    )
    .unwrap();
}

#[tokio::test]
async fn a_read_over_the_time_budget_is_stopped_and_answered_503_and_a_client_that_keeps_at_it_429()
{
    let shop = shop_with(|c| storefront_proxy::Config {
        // Far above what a cheap read takes even on a loaded machine (2 cores, every test
        // binary running): only the expensive read below can reach it.
        store_api_query_budget_ms: 400,
        store_api_stopped_reads_per_minute: 1,
        ..c
    })
    .await;
    many_products(&shop);
    // Short `contains` texts (no index) OR'ed, with an exact total and a sorting: four
    // hundred comparisons for each of the 60,000 products (a multi filter joins at most
    // 100), seconds of work, far more than the 400 ms budget.
    let queries: Vec<Value> = [
        ("productNumber", "x"),
        ("name", "x"),
        ("productNumber", "q"),
        ("name", "q"),
    ]
    .iter()
    .map(|(field, suffix)| {
        let queries: Vec<Value> = (0..100)
            .map(|i| json!({"type": "contains", "field": field, "value": format!("{i}{suffix}")}))
            .collect();
        json!({"type": "multi", "operator": "or", "queries": queries})
    })
    .collect();
    let expensive = json!({
        "filter": [{"type": "multi", "operator": "or", "queries": queries}],
        "total-count-mode": "exact",
        "sort": [{"field": "name", "order": "DESC"}],
        "limit": 10,
    });
    let hostile = [("x-forwarded-for", "203.0.113.66")];
    let (status, body, _) = shop
        .call(Method::POST, "/product", &hostile, Some(expensive.clone()))
        .await;
    assert_eq!(status, 503, "{body}");
    assert_error(&body, 503, "SALESROOM__QUERY_TOO_EXPENSIVE");
    // A longer chain is refused before it is run (SQLite would refuse an expression over
    // 1,000 deep with an error of its own: a 500), and does not count as a stopped read.
    let chain: Vec<Value> = (0..101)
        .map(|i| json!({"type": "contains", "field": "name", "value": format!("{i}x")}))
        .collect();
    let (status, body) = shop
        .post(
            "/product",
            json!({"filter": [{"type": "multi", "operator": "or", "queries": chain}]}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_error(&body, 400, "FRAMEWORK__INVALID_FILTER_QUERY");
    assert_eq!(
        body["errors"][0]["source"]["pointer"], "/filter/0/queries",
        "{body}"
    );
    // Cheap requests go on (no reader is left interrupted), the same criteria over a
    // few products too.
    let one = format!("{:032x}", 1_000_009);
    for _ in 0..6 {
        let (status, body) = shop.post("/product", json!({"ids": [one]})).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(names(&body), vec!["Budget thing 9"]);
    }
    let mut narrow = expensive.clone();
    narrow["ids"] = json!([one]);
    let (status, body) = shop.post("/product", narrow).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["total"], 0, "{body}");
    // One stopped read a minute: the second puts the client on the bench, where even
    // a cheap request is refused with the wait; others go on.
    let (status, body, _) = shop
        .call(Method::POST, "/product", &hostile, Some(expensive))
        .await;
    assert_eq!(status, 503, "{body}");
    let (status, body, headers) = shop
        .call(
            Method::POST,
            "/product",
            &hostile,
            Some(json!({"ids": [one]})),
        )
        .await;
    assert_eq!(status, 429, "{body}");
    assert_rate_limited(&body, &headers);
    let (status, body) = shop.post("/product", json!({"ids": [one]})).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn contains_on_names_answers_as_before_umlauts_and_parts_of_words_included() {
    let shop = shop_with(|c| c).await;
    let german = shop.language("de-DE").await;
    let english = shop.language("en-GB").await;
    for text in [
        "Kopfhörer",
        "kopfhö",
        "opfhö",
        "hörer",
        "KOPFH",
        "ose Ko",
        "Kabel",
        "ab",
        "é",
    ] {
        let expected = names_like(&shop, text, &german);
        assert_eq!(
            contains(&shop, text, Some(&german)).await,
            expected,
            "{text}"
        );
    }
    assert_eq!(
        contains(&shop, "opfhörer", Some(&german)).await,
        vec!["Kabellose Kopfhörer"]
    );
    for text in ["shirt", "SHIRT", "irt", "Espresso beans", "a"] {
        let expected = names_like(&shop, text, &english);
        assert!(!expected.is_empty(), "{text}");
        assert_eq!(
            contains(&shop, text, Some(&english)).await,
            expected,
            "{text}"
        );
    }
    // Wildcards are text, as before.
    assert!(contains(&shop, "sh_rt", Some(&english)).await.is_empty());
    assert!(contains(&shop, "%irt", Some(&english)).await.is_empty());
    // Prefix and suffix too.
    let (_, body) = shop
        .post_with(
            "/product",
            &[("sw-language-id", &german)],
            json!({"filter": [{"type": "prefix", "field": "name", "value": "Kabellose Kopf"}]}),
        )
        .await;
    assert_eq!(names(&body), vec!["Kabellose Kopfhörer"]);
    let (_, body) = shop
        .post_with(
            "/product",
            &[("sw-language-id", &german)],
            json!({"filter": [{"type": "suffix", "field": "name", "value": "pfhörer"}]}),
        )
        .await;
    assert_eq!(names(&body), vec!["Kabellose Kopfhörer"]);
}
