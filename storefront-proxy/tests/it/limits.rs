//! The proxy's limits against hostile clients, on a real proxy (and a real hub) on
//! port 0: a message over the hub's limit sent through the `/ws` relay is closed with 1009
//! and a close frame, a request head that never finishes is timed out, connections over
//! the cap are answered `503`, and every error of every route is in Shopware's shape.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

use crate::dsr_support;

use dsr_support::{connect, grant_cart_permission, As};
use listener::testing::{assert_error_shape, read_until_closed, registered_paths, RouteWalk};

#[tokio::test]
async fn an_oversized_message_through_the_relay_is_closed_with_1009_and_others_keep_working() {
    let live = dsr_support::start().await;
    let (_guide, _id, _guide_join) = live.guide_joins("demo").await;
    let ada_join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let bo_join = live.join_as_client("demo", &As::Nobody, "Bo").await;
    let mut ada = connect(&live, &ada_join).await;
    let mut bo = connect(&live, &bo_join).await;

    // One byte over the hub's limit, in one frame.
    let too_big = "x".repeat(protocol::frame::MAX_MESSAGE_SIZE + 1);
    ada.send(Message::text(too_big)).await.unwrap();
    let close = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ada.next().await {
                Some(Ok(Message::Close(frame))) => return frame,
                Some(Ok(_)) => continue,
                other => panic!("the connection ended without a close frame: {other:?}"),
            }
        }
    })
    .await
    .expect("no close frame in time");
    let close = close.expect("a close frame with a code");
    assert_eq!(u16::from(close.code), 1009);
    assert_eq!(close.reason.as_str(), "message too big");

    // The relay streamed it into the hub, which refused it at the frame header (the
    // close frame came from there).
    let metrics = reqwest::get(format!("http://127.0.0.1:{}/metrics", live.hub_port))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.lines().any(|l| l == "hub_messages_too_big_total 1"),
        "{metrics}"
    );

    // The relay still works: Bo's socket, and a new one.
    grant_cart_permission(&mut bo).await;
    let cy_join = live.join_as_client("demo", &As::Nobody, "Cy").await;
    let mut cy = connect(&live, &cy_join).await;
    grant_cart_permission(&mut cy).await;
}

#[tokio::test]
async fn a_request_head_that_never_finishes_is_closed_after_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let base = dsr_support::common_serve_with(dir.path(), |config| storefront_proxy::Config {
        header_read_timeout_ms: 300,
        ..config
    })
    .await;
    let addr = base.trim_start_matches("http://");
    let mut half = TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /healthz HTTP/1.1\r\nHost: shop\r\nX-Slow: ")
        .await
        .unwrap();
    let answer = read_until_closed(&mut half).await;
    // hyper closes (possibly after a 408); never a 200.
    assert!(
        !String::from_utf8_lossy(&answer).contains("200 OK"),
        "{}",
        String::from_utf8_lossy(&answer)
    );

    // A complete request on a new connection is served.
    let (status, text) = get_text(&base, "/healthz").await;
    assert_eq!((status, text.as_str()), (200, "ok"));
}

#[tokio::test]
async fn connections_over_the_cap_are_answered_503_in_shopware_shape() {
    let dir = tempfile::tempdir().unwrap();
    let base = dsr_support::common_serve_with(dir.path(), |config| storefront_proxy::Config {
        max_http_connections: 2,
        ..config
    })
    .await;
    let addr = base.trim_start_matches("http://");
    // Two connections hold the two places with half a request each.
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut half = TcpStream::connect(addr).await.unwrap();
        half.write_all(b"GET /healthz HTTP/1.1\r\nHost: shop\r\n")
            .await
            .unwrap();
        held.push(half);
    }
    // Accepted in order: give the server a moment to count them.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut third = TcpStream::connect(addr).await.unwrap();
    third
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: shop\r\n\r\n")
        .await
        .unwrap();
    let answer = String::from_utf8(read_until_closed(&mut third).await).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 503 "), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{head}"
    );
    let body: Value = serde_json::from_str(body).unwrap();
    assert_error_shape(&body, 503);
    assert_eq!(body["errors"][0]["code"], "SALESROOM__TOO_MANY_CONNECTIONS");

    // A place frees when a held connection goes: served again.
    drop(held);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, text) = get_text(&base, "/healthz").await;
    assert_eq!((status, text.as_str()), (200, "ok"));
}

async fn get_text(base: &str, path: &str) -> (u16, String) {
    let response = reqwest::get(format!("{base}{path}")).await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

#[tokio::test]
async fn every_route_answers_wrong_methods_broken_parameters_and_oversized_bodies_in_shopware_shape(
) {
    let live = dsr_support::start().await;
    let router = {
        let config = storefront_proxy::Config {
            web_dist: live.dir.path().join("no-web-build"),
            ..storefront_proxy::Config::for_data_dir(live.dir.path().join("walk"))
        };
        storefront_proxy::App::open(config).await.unwrap().router()
    };
    let paths = registered_paths(&router);
    assert!(
        paths.len() > 80,
        "the router lists {} paths: {paths:?}",
        paths.len()
    );
    let with_params = paths.iter().filter(|p| p.contains('{')).count();
    assert!(with_params > 30, "{paths:?}");

    let walked = RouteWalk {
        base: &live.base,
        headers: vec![("sw-access-key", dsr_support::KEY.to_owned())],
        max_body: storefront_proxy::error::MAX_REQUEST_BODY,
        method_not_allowed: "FRAMEWORK__METHOD_NOT_ALLOWED",
        body_too_large: "FRAMEWORK__REQUEST_BODY_TOO_LARGE",
        // Refused before the body is read (no token, no such entity): not a body error.
        other_than_413: |_, body| body["errors"][0]["code"] != "FRAMEWORK__INVALID_REQUEST_BODY",
    }
    .walk(&paths)
    .await;
    eprintln!(
        "walked {} paths: {} wrong methods, {} broken parameters, {} bodies over the limit",
        paths.len(),
        walked.wrong_methods,
        walked.broken_params,
        walked.too_large
    );
    assert!(
        walked.failures.is_empty(),
        "{} answers out of shape:\n{}",
        walked.failures.len(),
        walked.failures.join("\n")
    );
    assert!(walked.wrong_methods > 200, "{walked:?}");
    assert!(walked.broken_params > 30, "{walked:?}");
    assert!(walked.too_large > 30, "{walked:?}");

    let http = reqwest::Client::new();
    // An unknown route, in and outside the APIs.
    // (`/api/{entity}` is the Admin API: one segment there is an entity, answered 401 without a token.)
    for path in ["/store-api/no-such-route", "/api/no/such/route/at/all"] {
        let response = http
            .get(format!("{}{path}", live.base))
            .header("sw-access-key", dsr_support::KEY)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 404);
        assert_eq!(response.headers()["content-type"], "application/json");
        let body: Value = response.json().await.unwrap();
        assert_error_shape(&body, 404);
        assert_eq!(body["errors"][0]["code"], "FRAMEWORK__ROUTE_NOT_FOUND");
    }
}
