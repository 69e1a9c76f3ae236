//! Upstream mode: the shop APIs are forwarded to a Shopware 6 (here a local stand-in
//! that echoes what it got).

use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::any;
use serde_json::{json, Value};

async fn echo(request: Request) -> impl IntoResponse {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, 8 << 20).await.unwrap();
    let header = |name: &str| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let mut headers = HeaderMap::new();
    headers.insert("sw-context-token", "upstream-context".parse().unwrap());
    (
        StatusCode::CREATED,
        headers,
        axum::Json(json!({
            "method": parts.method.as_str(),
            "path": parts.uri.path(),
            "query": parts.uri.query(),
            "accessKey": header("sw-access-key"),
            "contextToken": header("sw-context-token"),
            "authorization": header("authorization"),
            "body": String::from_utf8_lossy(&body),
        })),
    )
}

async fn start(upstream_url: String) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let config = storefront_proxy::Config {
        port,
        hub_port: 1,
        hub_secret: Some("s".into()),
        shop_endpoint: Some(format!("http://127.0.0.1:{port}")),
        shop_access_token: Some("SWSCREALSHOP".into()),
        upstream_url: Some(upstream_url),
        web_dist: dir.path().join("dist"),
        ..storefront_proxy::Config::for_data_dir(dir.path())
    };
    let app = storefront_proxy::App::open(config).await.unwrap();
    tokio::spawn(async move { axum::serve(listener, app.router()).await });
    (format!("http://127.0.0.1:{port}"), dir)
}

#[tokio::test]
async fn store_and_admin_calls_pass_through_to_the_upstream_shop() {
    let upstream = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let upstream_url = format!("http://{}", upstream.local_addr().unwrap());
    tokio::spawn(
        async move { axum::serve(upstream, axum::Router::new().fallback(any(echo))).await },
    );
    let (base, _dir) = start(upstream_url).await;
    let http = reqwest::Client::new();

    let response = http
        .post(format!("{base}/store-api/product?limit=3"))
        .header("sw-access-key", "SWSCREALSHOP")
        .header("sw-context-token", "mine")
        .body(r#"{"term":"shirt"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    assert_eq!(response.headers()["sw-context-token"], "upstream-context");
    let echoed: Value = response.json().await.unwrap();
    assert_eq!(echoed["method"], "POST");
    assert_eq!(echoed["path"], "/store-api/product");
    assert_eq!(echoed["query"], "limit=3");
    assert_eq!(echoed["accessKey"], "SWSCREALSHOP");
    assert_eq!(echoed["contextToken"], "mine");
    assert_eq!(echoed["body"], r#"{"term":"shirt"}"#);

    let echoed: Value = http
        .get(format!("{base}/api/_info/version"))
        .bearer_auth("admin-token")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(echoed["method"], "GET");
    assert_eq!(echoed["authorization"], "Bearer admin-token");

    // The web app's config and health stay with the proxy.
    let config: Value = http
        .get(format!("{base}/runtime-config.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(config["shopAccessToken"], "SWSCREALSHOP");
}

#[tokio::test]
async fn an_unreachable_upstream_is_a_shopware_shaped_502() {
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap();
    let (base, _dir) = start(format!("http://{closed}")).await;
    let response = reqwest::Client::new()
        .post(format!("{base}/store-api/context"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 502);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["errors"][0]["code"], "SALESROOM__UPSTREAM_UNREACHABLE");
    assert_eq!(body["errors"][0]["status"], "502");
}

/// #29 item 9: upstream mode caps bodies as embedded mode does: a request body over 2 MiB
/// (a media upload's over 5 MB) is a 413 that never reaches the shop, and an answer over
/// 32 MiB is a 502 instead of being held in memory whole.
#[tokio::test]
async fn upstream_mode_caps_request_and_answer_bodies() {
    let upstream = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let upstream_url = format!("http://{}", upstream.local_addr().unwrap());
    let reached = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = reached.clone();
    let shop = axum::Router::new()
        .route(
            "/store-api/huge",
            any(|| async { vec![b'x'; storefront_proxy::upstream::MAX_ANSWER + 1] }),
        )
        .route(
            "/store-api/streamed",
            any(|| async {
                // No content-length: the cap holds while reading.
                let chunks = futures_util::stream::iter(
                    (0..40).map(|_| Ok::<_, std::io::Error>(vec![b'y'; 1024 * 1024])),
                );
                axum::body::Body::from_stream(chunks)
            }),
        )
        .fallback(any(move |request: Request| {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            echo(request)
        }));
    tokio::spawn(async move { axum::serve(upstream, shop).await });
    let (base, _dir) = start(upstream_url).await;
    let http = reqwest::Client::new();
    let send = |path: &str, body: Vec<u8>| {
        http.post(format!("{base}{path}"))
            .header("sw-access-key", "SWSCREALSHOP")
            .body(body)
            .send()
    };

    let answer = send("/store-api/product", vec![b'{'; 2 * 1024 * 1024 + 1])
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 413);
    let body: Value = answer.json().await.unwrap();
    assert_eq!(
        body["errors"][0]["code"], "FRAMEWORK__REQUEST_TOO_LARGE",
        "{body}"
    );
    assert_eq!(
        reached.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "nothing reached the shop"
    );
    assert_eq!(
        send("/store-api/product", vec![b' '; 2 * 1024 * 1024])
            .await
            .unwrap()
            .status()
            .as_u16(),
        201
    );
    // A media file may be larger, up to the upload's 5 MB.
    let upload = "/api/_action/media/0123456789abcdef0123456789abcdef/upload";
    assert_eq!(
        send(upload, vec![0; 5 * 1024 * 1024])
            .await
            .unwrap()
            .status()
            .as_u16(),
        201
    );
    assert_eq!(
        send(upload, vec![0; 5 * 1024 * 1024 + 1])
            .await
            .unwrap()
            .status()
            .as_u16(),
        413
    );

    for path in ["/store-api/huge", "/store-api/streamed"] {
        let answer = send(path, Vec::new()).await.unwrap();
        assert_eq!(answer.status().as_u16(), 502, "{path}");
        let body: Value = answer.json().await.unwrap();
        assert_eq!(
            body["errors"][0]["code"], "SALESROOM__UPSTREAM_ANSWER_TOO_LARGE",
            "{path}: {body}"
        );
    }
}
