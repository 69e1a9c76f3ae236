//! The hub's limits against hostile clients, on a real hub on port 0: a request head
//! that never finishes is timed out, connections over the cap are answered `503`, and
//! every error of every HTTP route is in the hub's documented shape
//! (`{"errors":[{status, code, title, detail}]}`).

use std::time::Duration;

use hub::{Config, Hub};
use listener::testing::{answer, assert_error_shape, check_answer, fill, registered_paths};
use reqwest::Method;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const SECRET: &[u8] = b"limits-secret";

async fn start(edit: impl FnOnce(Config) -> Config) -> String {
    let dir = tempfile::tempdir().unwrap().keep();
    let config = edit(Config::for_data_dir(dir));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(
        Hub::open(config, SECRET.to_vec())
            .await
            .unwrap()
            .serve(listener, std::future::pending()),
    );
    format!("127.0.0.1:{}", addr.port())
}

/// Everything `stream` sends until it closes (the test fails if that takes more than
/// 20 s; the limits under test are far shorter).
async fn read_until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(20), async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            }
        }
    });
    read.await.expect("the hub did not close the connection");
    answer
}

#[tokio::test]
async fn a_request_head_that_never_finishes_is_closed_after_the_timeout() {
    let addr = start(|config| Config {
        header_read_timeout_ms: 300,
        ..config
    })
    .await;
    let mut half = TcpStream::connect(&addr).await.unwrap();
    half.write_all(b"GET /ws?token=x HTTP/1.1\r\nHost: hub\r\nUpgrade: websocket\r\n")
        .await
        .unwrap();
    let answer = read_until_closed(&mut half).await;
    assert!(
        !String::from_utf8_lossy(&answer).contains("101"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    let healthz = reqwest::get(format!("http://{addr}/healthz"))
        .await
        .unwrap();
    assert_eq!(healthz.status(), 200);
}

#[tokio::test]
async fn connections_over_the_cap_are_answered_503_in_the_hub_shape() {
    let addr = start(|config| Config {
        max_http_connections: 1,
        ..config
    })
    .await;
    let mut held = TcpStream::connect(&addr).await.unwrap();
    held.write_all(b"GET /healthz HTTP/1.1\r\nHost: hub\r\n")
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut second = TcpStream::connect(&addr).await.unwrap();
    second
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: hub\r\n\r\n")
        .await
        .unwrap();
    let answer = String::from_utf8(read_until_closed(&mut second).await).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 503 "), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{head}"
    );
    let body: Value = serde_json::from_str(body).unwrap();
    assert_error_shape(&body, 503);
    assert_eq!(body["errors"][0]["code"], "HUB__TOO_MANY_CONNECTIONS");
    drop(held);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let healthz = reqwest::get(format!("http://{addr}/healthz"))
        .await
        .unwrap();
    assert_eq!(healthz.status(), 200);
}

#[tokio::test]
async fn every_route_answers_wrong_methods_broken_parameters_and_oversized_bodies_in_the_hub_shape()
{
    let addr = start(|config| config).await;
    let router = Hub::open(
        Config::for_data_dir(tempfile::tempdir().unwrap().keep()),
        SECRET.to_vec(),
    )
    .await
    .unwrap()
    .router();
    let paths = registered_paths(&router);
    for expected in [
        "/ws",
        "/healthz",
        "/metrics",
        "/internal/publish",
        "/internal/appointments/{id}/state",
    ] {
        assert!(
            paths.iter().any(|p| p == expected),
            "{expected} not in {paths:?}"
        );
    }
    let http = reqwest::Client::new();
    let bearer = format!("Bearer {}", String::from_utf8_lossy(SECRET));
    let methods = [
        Method::GET,
        Method::POST,
        Method::PUT,
        Method::PATCH,
        Method::DELETE,
    ];
    let oversized = format!(
        "{{\"x\":\"{}\"}}",
        "a".repeat(hub::limits::MAX_REQUEST_BODY)
    );
    let (mut wrong_methods, mut broken_params, mut too_large) = (0, 0, 0);
    let mut failures = Vec::new();
    for path in &paths {
        let plausible = fill(path, "0123456789abcdef0123456789abcdef");
        let mut allowed = Vec::new();
        for method in &methods {
            let url = format!("http://{addr}{plausible}");
            let (status, content_type, body) = answer(
                http.request(method.clone(), &url)
                    .header("authorization", &bearer),
            )
            .await;
            if status == 405 {
                wrong_methods += 1;
                let parsed = check_answer(
                    &mut failures,
                    "wrong method",
                    method.as_str(),
                    &url,
                    status,
                    &content_type,
                    &body,
                );
                if parsed.is_some_and(|b| b["errors"][0]["code"] != "HUB__METHOD_NOT_ALLOWED") {
                    failures.push(format!("405 code: {method} {url}: {body}"));
                }
            } else {
                allowed.push(method.clone());
            }
        }
        for method in &allowed {
            if path.contains('{') {
                let url = format!("http://{addr}{}", fill(path, "%FF"));
                let (status, content_type, body) = answer(
                    http.request(method.clone(), &url)
                        .header("authorization", &bearer),
                )
                .await;
                broken_params += 1;
                if status < 400 {
                    failures.push(format!(
                        "broken parameter accepted: {method} {url} -> {status}"
                    ));
                }
                check_answer(
                    &mut failures,
                    "broken parameter",
                    method.as_str(),
                    &url,
                    status,
                    &content_type,
                    &body,
                );
            }
            if [Method::POST, Method::PUT, Method::PATCH].contains(method) {
                let url = format!("http://{addr}{plausible}");
                let (status, content_type, body) = answer(
                    http.request(method.clone(), &url)
                        .header("authorization", &bearer)
                        .header("content-type", "application/json")
                        .body(oversized.clone()),
                )
                .await;
                // (404: a path the router lists without a route of its own, `/`.)
                if status != 413 && status != 404 {
                    failures.push(format!(
                        "oversized body: {method} {url} -> {status}, not 413"
                    ));
                }
                if let Some(parsed) = check_answer(
                    &mut failures,
                    "oversized body",
                    method.as_str(),
                    &url,
                    status,
                    &content_type,
                    &body,
                ) {
                    too_large += usize::from(status == 413);
                    if status == 413 && parsed["errors"][0]["code"] != "HUB__BODY_TOO_LARGE" {
                        failures.push(format!("413 code: {method} {url}: {body:.200}"));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} answers out of shape:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(wrong_methods >= 15, "{wrong_methods} wrong methods tried");
    assert!(
        broken_params >= 1,
        "{broken_params} broken parameters tried"
    );
    assert!(too_large >= 2, "{too_large} oversized bodies answered 413");

    // An unknown route, and an upgrade without its headers.
    for (path, status) in [("/no-such-route", 404), ("/ws", 400)] {
        let response = http
            .get(format!("http://{addr}{path}"))
            .send()
            .await
            .unwrap();
        let got = response.status().as_u16();
        assert!(
            got == status || (path == "/ws" && got == 401 || got == 426),
            "{path}: {got}"
        );
        assert_eq!(response.headers()["content-type"], "application/json");
        assert_error_shape(&response.json().await.unwrap(), got);
    }
}
