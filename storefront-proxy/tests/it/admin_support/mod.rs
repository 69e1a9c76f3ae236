//! Admin API calls against a real shop: tokens and JSON requests under `/api`.

use serde_json::{json, Value};

#[allow(unused_imports)]
pub use crate::common::{assert_error, Shop};

/// An answer: status, JSON body (or the text as a string), headers.
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub headers: reqwest::header::HeaderMap,
}

pub async fn token(shop: &Shop, username: &str, password: &str) -> Result<String, Value> {
    let response = shop
        .http
        .post(format!("{}/api/oauth/token", shop.base))
        .json(&json!({"grant_type": "password", "client_id": "administration", "username": username, "password": password}))
        .send()
        .await
        .unwrap();
    let ok = response.status().is_success();
    let body: Value = response.json().await.unwrap();
    if ok {
        Ok(body["access_token"].as_str().unwrap().to_owned())
    } else {
        Err(body)
    }
}

/// Logs of the server (internal errors) in the test's output.
pub fn logs() {
    let _ = tracing_subscriber::fmt()
        .with_test_writer()
        .with_env_filter("warn")
        .try_init();
}

pub async fn admin(shop: &Shop) -> String {
    logs();
    token(shop, "admin", "shopware").await.unwrap()
}

/// A call to `/api{path}` with `token` as bearer (none: anonymous).
pub async fn api(
    shop: &Shop,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Answer {
    let mut request = shop
        .http
        .request(method, format!("{}/api{path}", shop.base));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let (status, body, headers) = crate::common::send(request, body).await;
    Answer {
        status,
        body,
        headers,
    }
}

pub async fn get(shop: &Shop, path: &str, token: &str) -> Answer {
    api(shop, reqwest::Method::GET, path, Some(token), None).await
}

pub async fn post(shop: &Shop, path: &str, token: &str, body: Value) -> Answer {
    api(shop, reqwest::Method::POST, path, Some(token), Some(body)).await
}

pub async fn patch(shop: &Shop, path: &str, token: &str, body: Value) -> Answer {
    api(shop, reqwest::Method::PATCH, path, Some(token), Some(body)).await
}

pub async fn delete(shop: &Shop, path: &str, token: &str) -> Answer {
    api(shop, reqwest::Method::DELETE, path, Some(token), None).await
}

/// Creates an entity with `?_response=basic` and answers it.
pub async fn create(shop: &Shop, entity: &str, token: &str, body: Value) -> Value {
    let answer = post(shop, &format!("/{entity}?_response=basic"), token, body).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.body["data"].clone()
}

/// The pointers of a 400's errors.
pub fn pointers(body: &Value) -> Vec<String> {
    body["errors"]
        .as_array()
        .unwrap_or_else(|| panic!("no errors: {body}"))
        .iter()
        .map(|e| e["source"]["pointer"].as_str().unwrap_or("").to_owned())
        .collect()
}

/// The root category (level 1) the navigation starts from.
pub async fn root_category(shop: &Shop, token: &str) -> String {
    let found = post(
        shop,
        "/search/category",
        token,
        json!({"filter": [{"type": "equals", "field": "level", "value": 1}], "limit": 1}),
    )
    .await;
    assert_eq!(found.status, 200, "{}", found.body);
    found.body["data"][0]["id"].as_str().unwrap().to_owned()
}
