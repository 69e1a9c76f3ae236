//! `DEMO=0`: the first start makes an empty shop with one admin user (the password of
//! `ADMIN_PASSWORD`), and a merchant fills it through the Admin API.

use crate::admin_support;
use crate::common;

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
    Shop {
        base,
        http: reqwest::Client::new(),
        dir,
    }
}

#[tokio::test]
async fn an_empty_shop_has_one_admin_and_no_demo_data_and_takes_a_catalogue() {
    let shop = start_empty(tempfile::tempdir().unwrap(), Some("merchant-secret")).await;
    assert!(
        token(&shop, "admin", "shopware").await.is_err(),
        "not the demo password"
    );
    let token = admin_support::token(&shop, "admin", "merchant-secret")
        .await
        .unwrap();

    let (status, products) = shop.post("/product", json!({})).await;
    assert_eq!(status, 200, "{products}");
    assert_eq!(products["total"], 0, "no demo products: {products}");
    let appointments = post(&shop, "/search/dsr-appointment", &token, json!({})).await;
    assert_eq!(
        appointments.body["total"], 0,
        "no demo appointments: {}",
        appointments.body
    );
    let users = get(&shop, "/user", &token).await;
    assert_eq!(users.body["total"], 1, "{}", users.body);

    // The merchant's first product shows in the store.
    let root = root_category(&shop, &token).await;
    let category = create(
        &shop,
        "category",
        &token,
        json!({"parentId": root, "name": "Tea", "translations": {"de-DE": {"name": "Tee"}}}),
    )
    .await;
    create(&shop, "product", &token, json!({"productNumber": "TEA-1", "name": "Green tea", "stock": 3, "price": [{"gross": 4.5}], "categories": [{"id": category["id"]}]})).await;
    let (status, listing) = shop
        .post(
            &format!("/product-listing/{}", category["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
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
    assert!(admin_support::token(&again, "admin", "merchant-secret")
        .await
        .is_ok());
}

/// #29 item 11: `DATA_DIR` is 0700 and every file in it 0600 (the hub secret mints guide
/// tokens); an empty shop's generated admin password goes to a 0600 file, not to stdout.
#[tokio::test]
async fn the_data_dir_is_private_and_the_generated_admin_password_is_in_a_private_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    // An earlier version left the directory and a file open to everyone.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(dir.path().join("hub-secret"), "an-older-secret").unwrap();
    std::fs::set_permissions(
        dir.path().join("hub-secret"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let shop = start_empty(dir, None).await;
    let password = std::fs::read_to_string(shop.dir.path().join("admin-password")).unwrap();
    admin_support::token(&shop, "admin", password.trim())
        .await
        .expect("the written password logs in");
    // Something is stored and mailed, so that every kind of file exists.
    let subscription =
        json!({"email": "p@example.com", "option": "subscribe", "storefrontUrl": shop.base});
    let (status, _) = shop.post("/newsletter/subscribe", subscription).await;
    assert!(status < 500);

    let mode = |path: &std::path::Path| {
        std::fs::symlink_metadata(path)
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode(shop.dir.path()), 0o700, "DATA_DIR");
    let mut seen = Vec::new();
    let mut stack = vec![shop.dir.path().to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                assert_eq!(mode(&path), 0o700, "{}", path.display());
                stack.push(path);
            } else {
                assert_eq!(mode(&path), 0o600, "{}", path.display());
                seen.push(path.file_name().unwrap().to_string_lossy().into_owned());
            }
        }
    }
    for file in ["hub-secret", "shop.sqlite", "admin-password"] {
        assert!(seen.iter().any(|seen| seen == file), "{file} in {seen:?}");
    }
}
