//! What makes the catalogue fast keeps its answers right: the read-only connection pool
//! serves reads side by side and refuses writes, and the aggregations kept between
//! requests follow every change to the products they were read from.

mod common;

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
    let refused = db.read(|conn| Ok(conn.execute("INSERT INTO tax (id, tax_rate, name) VALUES ('x', 1, 'x')", [])?)).await;
    let message = format!("{:#}", refused.unwrap_err());
    assert!(message.contains("readonly"), "{message}");
    let count = db.read(|conn| Ok(conn.query_row("SELECT COUNT(*) FROM tax WHERE id = 'x'", [], |r| r.get::<_, i64>(0))?)).await.unwrap();
    assert_eq!(count, 0);
    db.call(|conn| Ok(conn.execute("INSERT INTO tax (id, tax_rate, name) VALUES ('y', 7, 'y')", [])?)).await.unwrap();
    let count = db.read(|conn| Ok(conn.query_row("SELECT COUNT(*) FROM tax WHERE id = 'y'", [], |r| r.get::<_, i64>(0))?)).await.unwrap();
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
    list.as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect()
}

fn option_ids(body: &Value) -> Vec<String> {
    aggregation(body, "properties")["entities"].as_array().unwrap().iter().flat_map(|g| ids(&g["options"])).collect()
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
    assert_ne!(aggregation(&priced, "price")["sum"], aggregation(&before, "price")["sum"]);

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
    db.call(move |conn| Ok(conn.execute("UPDATE product SET manufacturer_id = ?1 WHERE product_number = 'SR10020'", [&moved])?)).await.unwrap();
    let (_, made) = shop.post(&path, json!({"limit": 1})).await;
    assert!(ids(&aggregation(&made, "manufacturer")["entities"]).contains(&other));

    // A property option added to a shoe appears; removed, it goes again.
    let options = option_ids(&before);
    let option: String = db
        .call(move |conn| {
            let all: Vec<String> = conn
                .prepare("SELECT o.id FROM property_group_option o JOIN property_group g ON g.id = o.property_group_id WHERE g.filterable = 1")?
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
    db.call(move |conn| Ok(conn.execute("DELETE FROM product_property WHERE option_id = ?1", [&removed])?)).await.unwrap();
    let (_, without) = shop.post(&path, json!({"limit": 1})).await;
    assert!(!option_ids(&without).contains(&option));

    // Taking the product out of the listing takes its price out of the statistics.
    db.call(|conn| Ok(conn.execute("UPDATE product SET active = 0 WHERE product_number = 'SR10020'", [])?)).await.unwrap();
    let (_, gone) = shop.post(&path, json!({"limit": 1})).await;
    assert!(aggregation(&gone, "price")["max"].as_f64().unwrap() < 5000.0);
}
