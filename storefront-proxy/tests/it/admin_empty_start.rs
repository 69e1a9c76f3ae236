//! `DEMO=0`: the first start makes an empty shop with one admin user (the password of
//! `ADMIN_PASSWORD`), and a merchant fills it through the Admin API.

mod admin_support;
mod common;

use admin_support::*;
use serde_json::json;

async fn start_empty(dir: tempfile::TempDir, password: Option<&str>) -> Shop {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    let config = storefront_proxy::Config {
        port,
        hub_port: 1,
        hub_secret: Some("test-secret".into()),
        shop_endpoint: Some(base.clone()),
        web_dist: dir.path().join("no-web-build"),
        demo: false,
        admin_password: password.map(str::to_owned),
        ..storefront_proxy::Config::for_data_dir(dir.path())
    };
    let app = storefront_proxy::App::open(config).await.unwrap();
    tokio::spawn(async move { axum::serve(listener, app.router()).await });
    Shop { base, http: reqwest::Client::new(), dir }
}

#[tokio::test]
async fn an_empty_shop_has_one_admin_and_no_demo_data_and_takes_a_catalogue() {
    let shop = start_empty(tempfile::tempdir().unwrap(), Some("merchant-secret")).await;
    assert!(token(&shop, "admin", "shopware").await.is_err(), "not the demo password");
    let token = admin_support::token(&shop, "admin", "merchant-secret").await.unwrap();

    let (status, products) = shop.post("/product", json!({})).await;
    assert_eq!(status, 200, "{products}");
    assert_eq!(products["total"], 0, "no demo products: {products}");
    let appointments = post(&shop, "/search/dsr-appointment", &token, json!({})).await;
    assert_eq!(appointments.body["total"], 0, "no demo appointments: {}", appointments.body);
    let users = get(&shop, "/user", &token).await;
    assert_eq!(users.body["total"], 1, "{}", users.body);

    // The merchant's first product shows in the store.
    let root = root_category(&shop, &token).await;
    let category =
        create(&shop, "category", &token, json!({"parentId": root, "name": "Tea", "translations": {"de-DE": {"name": "Tee"}}})).await;
    create(&shop, "product", &token, json!({"productNumber": "TEA-1", "name": "Green tea", "stock": 3, "price": [{"gross": 4.5}], "categories": [{"id": category["id"]}]})).await;
    let (status, listing) = shop.post(&format!("/product-listing/{}", category["id"].as_str().unwrap()), json!({})).await;
    assert_eq!(status, 200, "{listing}");
    assert_eq!(listing["total"], 1, "{listing}");
    let (_, search) = shop.post("/search", json!({"search": "green tea"})).await;
    assert_eq!(search["elements"].as_array().unwrap().len(), 1, "{search}");

    // A guest can order: the empty shop has its customer group.
    let (_, salutations) = shop.post("/salutation", json!({})).await;
    let (_, countries) = shop.post("/country", json!({})).await;
    let (status, guest) = shop
        .post(
            "/account/register",
            json!({
                "guest": true, "salutationId": salutations["elements"][0]["id"], "firstName": "Gus", "lastName": "Guest",
                "email": "gus@example.com", "storefrontUrl": shop.base, "acceptedDataProtection": true,
                "billingAddress": {"street": "Teeweg 1", "zipcode": "20095", "city": "Hamburg", "countryId": countries["elements"][0]["id"]}
            }),
        )
        .await;
    assert_eq!(status, 200, "{guest}");
    assert_eq!(guest["guest"], true, "{guest}");

    // A restart keeps the merchant's shop as it is, even with the demo switched on.
    let dir = shop.dir;
    let again = common::start_in(dir).await;
    let (_, products) = again.post("/product", json!({})).await;
    assert_eq!(products["total"], 1, "{products}");
    assert!(admin_support::token(&again, "admin", "merchant-secret").await.is_ok());
}
