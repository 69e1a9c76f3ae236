//! The hub's limits against hostile clients, on a real hub on port 0: a request head
//! that never finishes is timed out, connections over the cap are answered `503`, and
//! every error of every HTTP route is in the hub's documented shape
//! (`{"errors":[{status, code, title, detail}]}`).

use std::time::Duration;

use hub::{Config, Hub};
use listener::testing::{assert_error_shape, read_until_closed, registered_paths, RouteWalk};
use serde_json::Value;
use tokio::io::AsyncWriteExt;
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

#[tokio::test]
async fn a_request_head_that_never_finishes_is_closed_after_the_timeout() {
    let addr = start(|config| Config {
        header_read_timeout_ms: 300,
        ..config
    })
    .await;
    let mut half = TcpStream::connect(&addr).await.unwrap();
    half.write_all(b"GET /ws HTTP/1.1\r\nHost: hub\r\nUpgrade: websocket\r\n")
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
    let base = format!("http://{addr}");
    let walked = RouteWalk {
        base: &base,
        headers: vec![(
            "authorization",
            format!("Bearer {}", String::from_utf8_lossy(SECRET)),
        )],
        max_body: hub::limits::MAX_REQUEST_BODY,
        method_not_allowed: "HUB__METHOD_NOT_ALLOWED",
        body_too_large: "HUB__BODY_TOO_LARGE",
        // (404: a path the router lists without a route of its own, `/`.)
        other_than_413: |status, _| status == 404,
    }
    .walk(&paths)
    .await;
    assert!(
        walked.failures.is_empty(),
        "{} answers out of shape:\n{}",
        walked.failures.len(),
        walked.failures.join("\n")
    );
    assert!(walked.wrong_methods >= 15, "{walked:?}");
    assert!(walked.broken_params >= 1, "{walked:?}");
    assert!(walked.too_large >= 2, "{walked:?}");

    let http = reqwest::Client::new();
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
