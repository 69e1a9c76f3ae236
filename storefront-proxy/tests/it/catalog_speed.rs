//! What makes the catalogue fast keeps its answers right: the read-only connection pool
//! serves reads side by side and refuses writes, and the aggregations kept between
//! requests follow every change to the products they were read from.

use crate::common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::start;
use serde_json::{json, Value};
use storefront_proxy::storage::Db;

fn db_of(shop: &common::Shop) -> Db {
    // A second handle on the same file, as another writer would be.
    Db::open(&shop.dir.path().join("shop.sqlite")).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_run_side_by_side_and_refuse_writes() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("shop.sqlite")).unwrap();
    // Two reads that each wait (up to 5 s) inside their transaction until both are
    // inside: with one shared connection the second could only start after the first
    // gave up, and neither would see the other.
    let inside = Arc::new(AtomicUsize::new(0));
    let read = |inside: Arc<AtomicUsize>| {
        db.read(move |conn| {
            let count: i64 = conn.query_row("SELECT COUNT(*) FROM product", [], |r| r.get(0))?;
            inside.fetch_add(1, Ordering::SeqCst);
            let started = std::time::Instant::now();
            while inside.load(Ordering::SeqCst) < 2 && started.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(2));
            }
            Ok((count, inside.load(Ordering::SeqCst) == 2))
        })
    };
    let (first, second) = tokio::join!(read(inside.clone()), read(inside.clone()));
    assert_eq!(first.unwrap(), (0, true));
    assert_eq!(second.unwrap(), (0, true));

    // Reads cannot write; what they tried is not there.
    let refused = db
        .read(|conn| {
            Ok(conn.execute(
                "INSERT INTO tax (id, tax_rate, name) VALUES ('x', 1, 'x')",
                [],
            )?)
        })
        .await;
    let message = format!("{:#}", refused.unwrap_err());
    assert!(message.contains("readonly"), "{message}");
    let count = db
        .read(|conn| {
            Ok(
                conn.query_row("SELECT COUNT(*) FROM tax WHERE id = 'x'", [], |r| {
                    r.get::<_, i64>(0)
                })?,
            )
        })
        .await
        .unwrap();
    assert_eq!(count, 0);
    db.call(|conn| {
        Ok(conn.execute(
            "INSERT INTO tax (id, tax_rate, name) VALUES ('y', 7, 'y')",
            [],
        )?)
    })
    .await
    .unwrap();
    let count = db
        .read(|conn| {
            Ok(
                conn.query_row("SELECT COUNT(*) FROM tax WHERE id = 'y'", [], |r| {
                    r.get::<_, i64>(0)
                })?,
            )
        })
        .await
        .unwrap();
    assert_eq!(count, 1, "a read after a committed write sees it");
}

#[tokio::test]
async fn many_listings_at_once_answer_like_one() {
    let shop = start().await;
    let clothing = shop.seo("Clothing/").await;
    let body = json!({"order": "price-desc", "limit": 5});
    let path = format!("/product-listing/{clothing}");
    let (status, alone) = shop.post(&path, body.clone()).await;
    assert_eq!(status, 200, "{alone}");
    let calls = (0..16).map(|_| shop.post(&path, body.clone()));
    for (status, together) in futures_util::future::join_all(calls).await {
        assert_eq!(status, 200);
        assert_eq!(together, alone);
    }
}

fn aggregation<'a>(body: &'a Value, name: &str) -> &'a Value {
    &body["aggregations"][name]
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect()
}

fn option_ids(body: &Value) -> Vec<String> {
    aggregation(body, "properties")["entities"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| ids(&g["options"]))
        .collect()
}

#[tokio::test]
async fn kept_aggregations_follow_product_changes() {
    let shop = start().await;
    let shoes = shop.seo("Shoes/").await;
    let path = format!("/product-listing/{shoes}");
    let (status, before) = shop.post(&path, json!({"limit": 1})).await;
    assert_eq!(status, 200, "{before}");
    let max = aggregation(&before, "price")["max"].as_f64().unwrap();
    assert!(max < 5000.0);
    // Asked again: the same (from the kept facts).
    let (_, again) = shop.post(&path, json!({"limit": 1})).await;
    assert_eq!(again["aggregations"], before["aggregations"]);

    let db = db_of(&shop);
    // A price change moves the statistics.
    db.call(|conn| Ok(conn.execute("UPDATE product SET listing_price = 5000, price_gross = 5000 WHERE product_number = 'SR10020'", [])?))
        .await
        .unwrap();
    let (_, priced) = shop.post(&path, json!({"limit": 1})).await;
    assert_eq!(aggregation(&priced, "price")["max"], 5000.0);
    assert_ne!(
        aggregation(&priced, "price")["sum"],
        aggregation(&before, "price")["sum"]
    );

    // A manufacturer no shoe had before appears once a shoe has it.
    let manufacturers = ids(&aggregation(&before, "manufacturer")["entities"]);
    let (_, everything) = shop.post("/product", json!({"limit": 500})).await;
    let other = everything["elements"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["manufacturerId"].as_str())
        .find(|m| !manufacturers.iter().any(|known| known == m))
        .expect("a manufacturer outside the shoes")
        .to_owned();
    let moved = other.clone();
    db.call(move |conn| {
        Ok(conn.execute(
            "UPDATE product SET manufacturer_id = ?1 WHERE product_number = 'SR10020'",
            [&moved],
        )?)
    })
    .await
    .unwrap();
    let (_, made) = shop.post(&path, json!({"limit": 1})).await;
    assert!(ids(&aggregation(&made, "manufacturer")["entities"]).contains(&other));

    // A property option added to a shoe appears; removed, it goes again.
    let options = option_ids(&before);
    let option: String = db
        .call(move |conn| {
            let all: Vec<String> = conn
                .prepare(
                    "SELECT o.id FROM property_group_option o JOIN property_group g ON g.id = o.property_group_id WHERE g.filterable = 1",
                )?
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            Ok(all.into_iter().find(|o| !options.contains(o)).expect("a filterable option no shoe has"))
        })
        .await
        .unwrap();
    let added = option.clone();
    db.call(move |conn| {
        Ok(conn.execute(
            "INSERT INTO product_property (product_id, option_id) SELECT id, ?1 FROM product WHERE product_number = 'SR10020'",
            [&added],
        )?)
    })
    .await
    .unwrap();
    let (_, with) = shop.post(&path, json!({"limit": 1})).await;
    assert!(option_ids(&with).contains(&option));
    let removed = option.clone();
    db.call(move |conn| {
        Ok(conn.execute(
            "DELETE FROM product_property WHERE option_id = ?1",
            [&removed],
        )?)
    })
    .await
    .unwrap();
    let (_, without) = shop.post(&path, json!({"limit": 1})).await;
    assert!(!option_ids(&without).contains(&option));

    // Taking the product out of the listing takes its price out of the statistics.
    db.call(|conn| {
        Ok(conn.execute(
            "UPDATE product SET active = 0 WHERE product_number = 'SR10020'",
            [],
        )?)
    })
    .await
    .unwrap();
    let (_, gone) = shop.post(&path, json!({"limit": 1})).await;
    assert!(aggregation(&gone, "price")["max"].as_f64().unwrap() < 5000.0);
}

#[tokio::test]
async fn kept_aggregation_entities_follow_manufacturer_and_property_renames() {
    let shop = start().await;
    let shoes = shop.seo("Shoes/").await;
    let path = format!("/product-listing/{shoes}");
    let (status, before) = shop.post(&path, json!({"limit": 1})).await;
    assert_eq!(status, 200, "{before}");
    let manufacturer = aggregation(&before, "manufacturer")["entities"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let option = option_ids(&before)[0].clone();
    // Asked again: the same entities (kept).
    let (_, again) = shop.post(&path, json!({"limit": 1})).await;
    assert_eq!(again["aggregations"], before["aggregations"]);

    let db = db_of(&shop);
    let (renamed_manufacturer, renamed_option) = (manufacturer.clone(), option.clone());
    db.call(move |conn| {
        conn.execute(
            "UPDATE product_manufacturer_translation SET name = 'Aaa Renamed Maker' WHERE product_manufacturer_id = ?1",
            [&renamed_manufacturer],
        )?;
        Ok(conn.execute(
            "UPDATE property_group_option_translation SET name = 'Renamed option' WHERE property_group_option_id = ?1",
            [&renamed_option],
        )?)
    })
    .await
    .unwrap();
    let (_, after) = shop.post(&path, json!({"limit": 1})).await;
    let first = &aggregation(&after, "manufacturer")["entities"][0];
    assert_eq!(
        (first["id"].as_str(), first["name"].as_str()),
        (Some(manufacturer.as_str()), Some("Aaa Renamed Maker")),
        "sorted by the new name"
    );
    let names: Vec<&str> = aggregation(&after, "properties")["entities"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["options"].as_array().unwrap())
        .filter(|o| o["id"] == option.as_str())
        .filter_map(|o| o["name"].as_str())
        .collect();
    assert_eq!(names, ["Renamed option"]);
}

#[tokio::test]
async fn a_renamed_product_is_found_by_its_new_name() {
    let shop = start().await;
    let (_, before) = shop.post("/search", json!({"search": "Zebrawood"})).await;
    assert_eq!(before["total"], 0, "{before}");
    let db = db_of(&shop);
    db.call(|conn| {
        Ok(conn.execute(
            "UPDATE product_translation SET name = 'Zebrawood shoe' WHERE product_id = (SELECT id FROM product WHERE product_number = 'SR10020')",
            [],
        )?)
    })
    .await
    .unwrap();
    let (status, after) = shop.post("/search", json!({"search": "Zebrawood"})).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["total"], 1, "{after}");
    assert_eq!(after["elements"][0]["productNumber"], "SR10020");
}

/// The same request with an always-true criteria filter, which the in-memory listing
/// index does not take: the general SQL path answers it.
fn general(body: &Value) -> Value {
    let mut body = body.clone();
    body["filter"] = json!([{"type": "multi", "queries": []}]);
    body
}

/// Asks a listing (or search) both ways and compares everything a client reads.
async fn both_ways(
    shop: &common::Shop,
    path: &str,
    headers: &[(&str, &str)],
    body: Value,
) -> Value {
    let (status, fast, _) = shop
        .call(reqwest::Method::POST, path, headers, Some(body.clone()))
        .await;
    assert_eq!(status, 200, "{body}: {fast}");
    let (status, slow, _) = shop
        .call(reqwest::Method::POST, path, headers, Some(general(&body)))
        .await;
    assert_eq!(status, 200, "{slow}");
    assert_eq!(
        ids(&fast["elements"]),
        ids(&slow["elements"]),
        "{path} {body}"
    );
    for key in [
        "total",
        "aggregations",
        "sorting",
        "page",
        "limit",
        "currentFilters",
    ] {
        assert_eq!(fast[key], slow[key], "{key} of {path} {body}");
    }
    fast
}

#[tokio::test]
async fn the_listing_index_answers_like_the_general_path() {
    let shop = start().await;
    let german = shop.language("de-DE").await;
    let (_, context) = shop.get("/context", &[]).await;
    let root = context["salesChannel"]["navigationCategoryId"]
        .as_str()
        .unwrap()
        .to_owned();
    let clothing = shop.seo("Clothing/").await;
    let (_, all) = shop
        .post(&format!("/product-listing/{root}"), json!({"limit": 1}))
        .await;
    let manufacturers = ids(&aggregation(&all, "manufacturer")["entities"]);
    let groups: Vec<Vec<String>> = aggregation(&all, "properties")["entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| ids(&g["options"]))
        .filter(|o| o.len() >= 2)
        .collect();
    assert!(
        manufacturers.len() >= 2 && groups.len() >= 2,
        "the demo has manufacturers and property groups to filter by"
    );
    let price = aggregation(&all, "price");
    let middle = (price["min"].as_f64().unwrap() + price["max"].as_f64().unwrap()) / 2.0;
    let filter_sets = [
        json!({}),
        json!({"manufacturer": manufacturers[0]}),
        json!({"manufacturer": format!("{}|{}", manufacturers[0], manufacturers[1])}),
        json!({"properties": groups[0][0]}),
        json!({"properties": format!("{}|{}", groups[0][0], groups[0][1])}),
        json!({"properties": format!("{}|{}", groups[0][0], groups[1][0])}),
        json!({"min-price": middle}),
        json!({"max-price": middle, "rating": 1}),
        json!({"shipping-free": true}),
        json!({"manufacturer": manufacturers[0], "properties": groups[0][0], "max-price": middle * 2.0}),
        json!({"manufacturer": manufacturers[0], "manufacturer-filter": false, "min-price": middle, "price-filter": false}),
        json!({"properties": "0123456789abcdef0123456789abcdef"}),
    ];
    let mut seen_totals = std::collections::BTreeSet::new();
    for category in [&root, &clothing] {
        for sorting in [
            "name-asc",
            "name-desc",
            "price-asc",
            "price-desc",
            "topseller",
            "newest",
        ] {
            for filters in &filter_sets {
                for (page, language) in [(1, None), (2, None), (1, Some(german.as_str()))] {
                    let mut body = filters.clone();
                    body["order"] = json!(sorting);
                    body["limit"] = json!(4);
                    body["p"] = json!(page);
                    let headers: Vec<(&str, &str)> = language
                        .map(|l| ("sw-language-id", l))
                        .into_iter()
                        .collect();
                    let answer = both_ways(
                        &shop,
                        &format!("/product-listing/{category}"),
                        &headers,
                        body,
                    )
                    .await;
                    seen_totals.insert(answer["total"].as_i64().unwrap());
                }
            }
        }
    }
    assert!(
        seen_totals.len() > 5 && seen_totals.contains(&0),
        "the filters select different sets: {seen_totals:?}"
    );

    let (_, found) = shop.post("/search", json!({"search": "shirt"})).await;
    assert!(found["total"].as_i64().unwrap() > 1, "{found}");
    for term in ["shirt", "sh", "no-such-word-anywhere"] {
        for sorting in [None, Some("score"), Some("price-desc"), Some("name-asc")] {
            for filters in &filter_sets[..7] {
                let mut body = filters.clone();
                body["search"] = json!(term);
                body["limit"] = json!(3);
                if let Some(sorting) = sorting {
                    body["order"] = json!(sorting);
                }
                both_ways(&shop, "/search", &[], body.clone()).await;
                both_ways(
                    &shop,
                    "/search-suggest",
                    &[("sw-language-id", &german)],
                    body,
                )
                .await;
            }
        }
    }
}

#[tokio::test]
async fn the_listing_index_follows_catalogue_writes() {
    let shop = start().await;
    let clothing = shop.seo("Clothing/").await;
    let path = format!("/product-listing/{clothing}");
    let body = json!({"order": "price-asc", "limit": 3});
    let (_, before) = shop.post(&path, body.clone()).await;
    let first = before["elements"][0]["productNumber"]
        .as_str()
        .unwrap()
        .to_owned();
    let cheapest = before["elements"][0]["calculatedPrice"]["totalPrice"]
        .as_f64()
        .unwrap();
    let db = db_of(&shop);

    // The most expensive product of the page becomes the cheapest.
    let last = before["elements"][2]["productNumber"]
        .as_str()
        .unwrap()
        .to_owned();
    let moved = last.clone();
    let price = cheapest / 2.0;
    db.call(move |conn| {
        Ok(conn.execute(
            "UPDATE product SET listing_price = ?1, price_gross = ?1 WHERE product_number = ?2",
            rusqlite::params![price, moved],
        )?)
    })
    .await
    .unwrap();
    let (_, after) = shop.post(&path, body.clone()).await;
    assert_eq!(after["elements"][0]["productNumber"], last.as_str());
    assert_eq!(after["elements"][1]["productNumber"], first.as_str());
    assert_eq!(after["total"], before["total"]);
    assert_eq!(after, both_ways(&shop, &path, &[], body.clone()).await);

    // Deactivated, it leaves the listing and its total.
    let gone = last.clone();
    db.call(move |conn| {
        Ok(conn.execute(
            "UPDATE product SET active = 0 WHERE product_number = ?1",
            [gone],
        )?)
    })
    .await
    .unwrap();
    let (_, without) = shop.post(&path, body.clone()).await;
    assert_eq!(without["elements"][0]["productNumber"], first.as_str());
    assert_eq!(
        without["total"].as_i64().unwrap(),
        before["total"].as_i64().unwrap() - 1
    );

    // A property option given to it (active again) makes it match that filter.
    let option: String = db
        .call(|conn| Ok(conn.query_row("SELECT o.id FROM property_group_option o JOIN property_group g ON g.id = o.property_group_id WHERE g.filterable = 1 LIMIT 1", [], |r| r.get(0))?))
        .await
        .unwrap();
    let filtered = json!({"order": "price-asc", "limit": 50, "properties": option});
    let (_, plain) = shop.post(&path, filtered.clone()).await;
    let numbers = |body: &Value| {
        body["elements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["productNumber"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert!(!numbers(&plain).contains(&last));
    let (given, back) = (option.clone(), last.clone());
    db.call(move |conn| {
        conn.execute("UPDATE product SET active = 1 WHERE product_number = ?1", [&back])?;
        Ok(conn.execute(
            "INSERT INTO product_property (product_id, option_id) SELECT id, ?1 FROM product WHERE product_number = ?2",
            [&given, &back],
        )?)
    })
    .await
    .unwrap();
    let (_, with) = shop.post(&path, filtered.clone()).await;
    assert_eq!(numbers(&with)[0], last);
    assert_eq!(
        with["total"].as_i64().unwrap(),
        plain["total"].as_i64().unwrap() + 1
    );
    both_ways(&shop, &path, &[], filtered).await;

    // A search kept by the index loses a product that is taken out of the catalogue.
    let search = json!({"search": "shirt", "limit": 50});
    let (_, found) = shop.post("/search", search.clone()).await;
    let hit = found["elements"][0]["productNumber"]
        .as_str()
        .unwrap()
        .to_owned();
    db.call(move |conn| {
        Ok(conn.execute(
            "UPDATE product SET active = 0 WHERE product_number = ?1",
            [&hit],
        )?)
    })
    .await
    .unwrap();
    let after = both_ways(&shop, "/search", &[], search).await;
    assert_eq!(
        after["total"].as_i64().unwrap(),
        found["total"].as_i64().unwrap() - 1
    );
    assert_eq!(numbers(&after), numbers(&found)[1..].to_vec());
}

#[tokio::test]
async fn stock_changes_keep_the_catalogue_version_and_other_changes_move_it() {
    let shop = start().await;
    let db = db_of(&shop);
    let version = |db: Db| async move {
        db.call(|conn| {
            Ok(
                conn.query_row("SELECT n FROM catalog_version WHERE id = 1", [], |r| {
                    r.get::<_, i64>(0)
                })?,
            )
        })
        .await
        .unwrap()
    };
    let before = version(db.clone()).await;
    // What an order does: take stock and give it back.
    db.call(|conn| {
        Ok(conn
            .execute("UPDATE product SET stock = stock - 1, available_stock = available_stock - 1 WHERE product_number = 'SR10020'", [])?)
    })
    .await
    .unwrap();
    db.call(|conn| {
        Ok(conn
            .execute("UPDATE product SET stock = stock + 1, available_stock = available_stock + 1 WHERE product_number = 'SR10020'", [])?)
    })
    .await
    .unwrap();
    assert_eq!(
        version(db.clone()).await,
        before,
        "stock moved the catalogue version"
    );
    // Anything a listing reads moves it, also together with stock.
    db.call(|conn| {
        Ok(conn.execute(
            "UPDATE product SET stock = 7, active = active WHERE product_number = 'SR10020'",
            [],
        )?)
    })
    .await
    .unwrap();
    assert!(version(db.clone()).await > before);
}
