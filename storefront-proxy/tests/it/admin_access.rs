//! Who may use the Admin API (admins, guides, customers, anonymous), users, sync with
//! its rollback, and media uploads with their limits, against a real shop.

use crate::admin_support;
use crate::common;

use admin_support::*;
use serde_json::{json, Value};

#[tokio::test]
async fn guides_read_admins_write_and_customers_and_anonymous_are_refused() {
    let shop = common::start().await;
    let token = admin(&shop).await;

    let guide = create(
        &shop,
        "user",
        &token,
        json!({"username": "gina", "firstName": "Gina", "lastName": "Guide", "email": "gina@example.com", "role": "guide", "password": "guide-pass-1"}),
    )
    .await;
    assert_eq!(guide["role"], "guide");
    assert!(
        guide.get("passwordHash").is_none() && guide["password"].is_null(),
        "{guide}"
    );
    let guide_token = token_of(&shop, "gina", "guide-pass-1").await;

    // A guide reads the catalogue, changes nothing, sees no users.
    assert_eq!(
        get(&shop, "/product?limit=1", &guide_token).await.status,
        200
    );
    let refused = post(
        &shop,
        "/product-manufacturer",
        &guide_token,
        json!({"name": "Nope"}),
    )
    .await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_error(&refused.body, 403, "FRAMEWORK__MISSING_PRIVILEGE_ERROR");
    assert_error(
        &get(&shop, "/user", &guide_token).await.body,
        403,
        "FRAMEWORK__MISSING_PRIVILEGE_ERROR",
    );
    let sync = post(
        &shop,
        "/_action/sync",
        &guide_token,
        json!({"m": {"entity": "product_manufacturer", "action": "upsert", "payload": [{"name": "x"}]}}),
    )
    .await;
    assert_eq!(sync.status, 403, "{}", sync.body);

    // Anonymous, a made-up token, a customer's context token: 401.
    let anonymous = api(&shop, reqwest::Method::GET, "/product", None, None).await;
    assert_eq!(anonymous.status, 401);
    assert_error(&anonymous.body, 401, "FRAMEWORK__UNAUTHORIZED");
    let (_, _, headers) = shop
        .call(
            reqwest::Method::POST,
            "/account/login",
            &[],
            Some(json!({"username": "demo@example.com", "password": "salesroom"})),
        )
        .await;
    let context = headers["sw-context-token"].to_str().unwrap().to_owned();
    assert_eq!(get(&shop, "/product", &context).await.status, 401);
    let with_context = shop
        .http
        .get(format!("{}/api/product", shop.base))
        .header("sw-context-token", &context)
        .send()
        .await
        .unwrap();
    assert_eq!(with_context.status().as_u16(), 401);

    // Password reset and deactivation by an admin.
    let id = guide["id"].as_str().unwrap();
    assert_eq!(
        patch(
            &shop,
            &format!("/user/{id}"),
            &token,
            json!({"password": "new-guide-pass"})
        )
        .await
        .status,
        204
    );
    assert!(admin_support::token(&shop, "gina", "guide-pass-1")
        .await
        .is_err());
    let short = patch(
        &shop,
        &format!("/user/{id}"),
        &token,
        json!({"password": "short"}),
    )
    .await;
    assert_eq!(pointers(&short.body), ["/0/password"]);
    let guide_token = token_of(&shop, "gina", "new-guide-pass").await;
    assert_eq!(
        patch(
            &shop,
            &format!("/user/{id}"),
            &token,
            json!({"active": false})
        )
        .await
        .status,
        204
    );
    assert_eq!(
        get(&shop, "/product", &guide_token).await.status,
        401,
        "a deactivated user's token ends"
    );
    assert!(admin_support::token(&shop, "gina", "new-guide-pass")
        .await
        .is_err());

    // The last admin stays.
    let users = post(
        &shop,
        "/search/user",
        &token,
        json!({"filter": [{"type": "equals", "field": "role", "value": "admin"}]}),
    )
    .await;
    assert_eq!(users.body["total"], 1, "{}", users.body);
    let admin_id = users.body["data"][0]["id"].as_str().unwrap().to_owned();
    let demote = patch(
        &shop,
        &format!("/user/{admin_id}"),
        &token,
        json!({"role": "guide"}),
    )
    .await;
    assert_error(&demote.body, 400, "ADMIN__LAST_ADMIN");
    assert_error(
        &delete(&shop, &format!("/user/{admin_id}"), &token)
            .await
            .body,
        400,
        "ADMIN__LAST_ADMIN",
    );
    let invalid = post(
        &shop,
        "/user",
        &token,
        json!({"username": "gina", "firstName": "", "lastName": "X", "role": "boss"}),
    )
    .await;
    let mut found = pointers(&invalid.body);
    found.sort();
    assert_eq!(
        found,
        ["/0/firstName", "/0/role", "/0/username"],
        "{}",
        invalid.body
    );
}

async fn token_of(shop: &Shop, username: &str, password: &str) -> String {
    token(shop, username, password)
        .await
        .unwrap_or_else(|e| panic!("login {username}: {e}"))
}

#[tokio::test]
async fn sync_writes_everything_or_nothing_and_names_the_failing_record() {
    let shop = common::start().await;
    let token = admin(&shop).await;
    let category = "0123456789abcdef0123456789abc001";
    let failing = post(
        &shop,
        "/_action/sync",
        &token,
        json!({
            "write-category": {"entity": "category", "action": "upsert", "payload": [{"id": category, "name": "Imported"}]},
            "write-product": {"entity": "product", "action": "upsert", "payload": [
                {"productNumber": "IMP-1", "name": "Imported one", "price": [{"gross": 10}], "categories": [{"id": category}]},
                {"productNumber": "IMP-2", "name": "Imported two", "price": [{"gross": -3}]}
            ]}
        }),
    )
    .await;
    assert_eq!(failing.status, 400, "{}", failing.body);
    assert_eq!(pointers(&failing.body), ["/write-product/1/price/0/gross"]);
    assert_eq!(
        get(&shop, &format!("/category/{category}"), &token)
            .await
            .status,
        404,
        "rolled back"
    );
    let none = post(
        &shop,
        "/search-ids/product",
        &token,
        json!({"filter": [{"type": "prefix", "field": "productNumber", "value": "IMP-"}]}),
    )
    .await;
    assert_eq!(none.body["total"], 0, "{}", none.body);

    // The 6.5 list form; upsert by id updates.
    let ok = post(
        &shop,
        "/_action/sync",
        &token,
        json!([
            {"key": "categories", "entity": "category", "action": "upsert", "payload": [{"id": category, "name": "Imported"}]},
            {"key": "products", "entity": "product", "action": "upsert", "payload": [
                {"productNumber": "IMP-1", "name": "Imported one", "price": [{"gross": 10}], "categories": [{"id": category}]}
            ]}
        ]),
    )
    .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["data"]["category"], json!([category]));
    let product: String = ok.body["data"]["product"][0].as_str().unwrap().to_owned();
    let rename = post(
        &shop,
        "/_action/sync",
        &token,
        json!({"u": {"entity": "category", "action": "upsert", "payload": [{"id": category, "name": "Renamed"}]}}),
    )
    .await;
    assert_eq!(rename.status, 200, "{}", rename.body);
    assert_eq!(
        get(&shop, &format!("/category/{category}"), &token)
            .await
            .body["data"]["name"],
        "Renamed"
    );

    let removed = post(
        &shop,
        "/_action/sync",
        &token,
        json!({"d": {"entity": "product", "action": "delete", "payload": [{"id": product}, {"id": "0123456789abcdef0123456789abcdef"}]}}),
    )
    .await;
    assert_eq!(removed.status, 200, "{}", removed.body);
    assert_eq!(removed.body["deleted"]["product"], json!([product]));
    assert_eq!(
        removed.body["notFound"]["product"],
        json!(["0123456789abcdef0123456789abcdef"])
    );

    let bad = post(
        &shop,
        "/_action/sync",
        &token,
        json!({"x": {"entity": "spaceship", "action": "upsert", "payload": []}}),
    )
    .await;
    assert_eq!(pointers(&bad.body), ["/x/entity"]);
    let bad = post(
        &shop,
        "/_action/sync",
        &token,
        json!({"x": {"entity": "product", "action": "merge", "payload": []}}),
    )
    .await;
    assert_eq!(pointers(&bad.body), ["/x/action"]);
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend(width.to_be_bytes());
    bytes.extend(height.to_be_bytes());
    bytes.extend([8, 6, 0, 0, 0]);
    bytes
}

async fn upload(shop: &Shop, token: &str, id: &str, query: &str, body: Vec<u8>) -> (u16, Value) {
    let response = shop
        .http
        .post(format!(
            "{}/api/_action/media/{id}/upload?{query}",
            shop.base
        ))
        .bearer_auth(token)
        .header("content-type", "application/octet-stream")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

#[tokio::test]
async fn media_uploads_take_jpg_png_webp_up_to_5_mb_and_refuse_the_rest() {
    let shop = common::start().await;
    let token = admin(&shop).await;
    let media = create(
        &shop,
        "media",
        &token,
        json!({"alt": "A kite", "mediaFolderId": null}),
    )
    .await;
    let id = media["id"].as_str().unwrap();
    assert!(media["url"].is_null(), "{media}");

    let (status, body) = upload(
        &shop,
        &token,
        id,
        "extension=png&fileName=kite",
        png(640, 480),
    )
    .await;
    assert_eq!(status, 204, "{body}");
    let media = get(&shop, &format!("/media/{id}"), &token).await.body["data"].clone();
    assert_eq!(media["mimeType"], "image/png");
    assert_eq!(
        (media["width"].clone(), media["height"].clone()),
        (json!(640), json!(480))
    );
    let url = media["url"].as_str().unwrap();
    assert!(url.ends_with("/kite.png"), "{url}");
    let served = shop
        .http
        .get(format!("{}{url}", shop.base))
        .send()
        .await
        .unwrap();
    assert_eq!(served.status().as_u16(), 200);
    assert_eq!(served.headers()["content-type"], "image/png");
    assert_eq!(served.bytes().await.unwrap().to_vec(), png(640, 480));

    // A product shows it.
    let product = create(
        &shop,
        "product",
        &token,
        json!({"productNumber": "PIC-1", "name": "Pictured", "price": [{"gross": 5}], "media": [{"mediaId": id, "position": 1}]}),
    )
    .await;
    assert_eq!(product["media"][0]["mediaId"], id);
    assert_eq!(product["coverId"], product["media"][0]["id"]);
    assert_error(
        &delete(&shop, &format!("/media/{id}"), &token).await.body,
        409,
        "FRAMEWORK__DELETE_RESTRICTED",
    );

    let (status, body) = upload(&shop, &token, id, "extension=gif", b"GIF89a....".to_vec()).await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "CONTENT__MEDIA_ILLEGAL_FILE_TYPE");
    let (_, body) = upload(
        &shop,
        &token,
        id,
        "extension=png",
        b"<svg xmlns='http://www.w3.org/2000/svg'/>".to_vec(),
    )
    .await;
    assert_error(&body, 400, "CONTENT__MEDIA_ILLEGAL_FILE_TYPE");
    let (_, body) = upload(&shop, &token, id, "extension=jpg", png(1, 1)).await;
    assert_error(&body, 400, "CONTENT__MEDIA_FILE_TYPE_MISMATCH");
    let (_, body) = upload(&shop, &token, id, "", png(1, 1)).await;
    assert_error(&body, 400, "CONTENT__MEDIA_MISSING_FILE_EXTENSION");
    let mut large = png(10, 10);
    large.resize(5 * 1024 * 1024 + 1, 0);
    let (status, body) = upload(&shop, &token, id, "extension=png", large).await;
    assert_eq!(status, 413, "{body}");
    assert_error(&body, 413, "CONTENT__MEDIA_FILE_SIZE_LIMIT_EXCEEDED");
    let mut largest = png(10, 10);
    largest.resize(5 * 1024 * 1024, 0);
    assert_eq!(
        upload(&shop, &token, id, "extension=png", largest).await.0,
        204
    );
    // #29 item 9: a tiny file that declares a huge image (every shopper's browser would
    // decode 400 megapixels) is refused; the largest accepted image passes.
    for (width, height) in [(20_000, 20_000), (10_001, 10), (8_000, 6_000)] {
        let (status, body) = upload(&shop, &token, id, "extension=png", png(width, height)).await;
        assert_eq!(status, 400, "{width}×{height}: {body}");
        assert_error(&body, 400, "SALESROOM__MEDIA_IMAGE_TOO_LARGE");
    }
    assert_eq!(
        upload(&shop, &token, id, "extension=png", png(10_000, 4_000))
            .await
            .0,
        204
    );
    let (status, _) = upload(
        &shop,
        &token,
        "0123456789abcdef0123456789abcdef",
        "extension=png",
        png(1, 1),
    )
    .await;
    assert_eq!(status, 404);
    // The refused uploads changed nothing: the last good file is served.
    let media = get(&shop, &format!("/media/{id}"), &token).await.body["data"].clone();
    assert_eq!(media["fileSize"], png(1, 1).len());
    assert_eq!(
        (media["width"].clone(), media["height"].clone()),
        (json!(10_000), json!(4_000))
    );
}
