//! A real storefront-proxy on port 0 over a SQLite file in a temp dir, and a reqwest
//! client that speaks the store API. Shared by the domain test files.

use serde_json::{json, Value};

pub const KEY: &str = "SWSCSALESROOMDEMO000000000";

pub struct Shop {
    pub base: String,
    pub http: reqwest::Client,
    pub dir: tempfile::TempDir,
}

/// Starts the proxy over a fresh data dir (seeded with the demo shop).
pub async fn start() -> Shop {
    start_in(tempfile::tempdir().unwrap()).await
}

/// Starts the proxy over `dir`, seeding what is missing.
pub async fn start_in(dir: tempfile::TempDir) -> Shop {
    let base = serve(dir.path(), 1, "test-secret").await;
    Shop {
        base,
        http: reqwest::Client::new(),
        dir,
    }
}

/// Serves storefront-proxy on a free port over the data dir `dir` (seeded with the
/// demo shop where missing), reaching the hub on `hub_port` of 127.0.0.1 with the
/// shared `secret`; answers its base URL.
pub async fn serve(dir: &std::path::Path, hub_port: u16, secret: &str) -> String {
    serve_with(dir, hub_port, secret, |config| config).await
}

/// As [`serve`], with the settings changed by `edit` (the limits, say).
#[allow(dead_code)]
pub async fn serve_with(
    dir: &std::path::Path,
    hub_port: u16,
    secret: &str,
    edit: impl FnOnce(storefront_proxy::Config) -> storefront_proxy::Config,
) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    let config = storefront_proxy::Config {
        port,
        hub_port,
        hub_secret: Some(secret.into()),
        shop_endpoint: Some(base.clone()),
        shop_access_token: Some(KEY.into()),
        web_dist: dir.join("no-web-build"),
        ..storefront_proxy::Config::for_data_dir(dir)
    };
    let app = storefront_proxy::App::open(edit(config)).await.unwrap();
    tokio::spawn(app.serve(listener, std::future::pending()));
    base
}

/// Sends `request` with `body` as JSON; answers status, the JSON body (the text as a
/// string when it is not JSON, null when empty) and the headers.
pub async fn send(
    mut request: reqwest::RequestBuilder,
    body: Option<Value>,
) -> (u16, Value, reqwest::header::HeaderMap) {
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(if text.is_empty() {
        Value::Null
    } else {
        Value::String(text)
    });
    (status, body, headers)
}

impl Shop {
    /// A store API call with the demo access key; `headers` come on top.
    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<Value>,
    ) -> (u16, Value, reqwest::header::HeaderMap) {
        let mut request = self
            .http
            .request(method, format!("{}/store-api{path}", self.base))
            .header("sw-access-key", KEY);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        send(request, body).await
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let (status, body, _) = self
            .call(reqwest::Method::POST, path, &[], Some(body))
            .await;
        (status, body)
    }

    pub async fn post_with(
        &self,
        path: &str,
        headers: &[(&str, &str)],
        body: Value,
    ) -> (u16, Value) {
        let (status, body, _) = self
            .call(reqwest::Method::POST, path, headers, Some(body))
            .await;
        (status, body)
    }

    pub async fn get(&self, path: &str, headers: &[(&str, &str)]) -> (u16, Value) {
        let (status, body, _) = self.call(reqwest::Method::GET, path, headers, None).await;
        (status, body)
    }

    /// The id of the language with `code` (en-GB, de-DE).
    pub async fn language(&self, code: &str) -> String {
        let (status, body) = self.get("/language", &[]).await;
        assert_eq!(status, 200, "{body}");
        body["elements"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["translationCode"]["code"] == code)
            .unwrap_or_else(|| panic!("no language {code}"))["id"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// The id behind an English SEO path (`Clothing/Shirts/`).
    pub async fn seo(&self, path: &str) -> String {
        let (status, body) = self
            .post(
                "/seo-url",
                json!({"filter": [{"type": "equals", "field": "seoPathInfo", "value": path}]}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["total"], 1, "{path}: {body}");
        body["elements"][0]["foreignKey"]
            .as_str()
            .unwrap()
            .to_owned()
    }
}

/// Asserts Shopware's error shape with `status` and `code`.
pub fn assert_error(body: &Value, status: u16, code: &str) {
    let error = &body["errors"][0];
    assert_eq!(error["status"], status.to_string(), "{body}");
    assert_eq!(error["code"], code, "{body}");
    assert!(
        error["title"].is_string() && error["detail"].is_string(),
        "{body}"
    );
}

/// The elements of a search result or listing.
pub fn elements(body: &Value) -> Vec<Value> {
    body["elements"]
        .as_array()
        .unwrap_or_else(|| panic!("no elements: {body}"))
        .clone()
}

pub fn names(body: &Value) -> Vec<String> {
    elements(body)
        .iter()
        .map(|e| e["translated"]["name"].as_str().unwrap().to_owned())
        .collect()
}
