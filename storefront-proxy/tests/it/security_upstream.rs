//! Issue #29 in upstream mode (`UPSTREAM_URL`): the guide's token for an attendee's cart
//! is the forwarding proxy's delegated token, never the attendee's upstream session
//! (item 5); only hashes of upstream sessions are stored; guest joins are limited as in
//! embedded mode (item 2).
//!
//! Shopware's DSR answers `…/attendee/{id}/sw-context-token` with the attendee's own
//! session token; the stand-in (this repository's embedded shop) answers a delegated
//! one of its own. So a small Shopware-like front sits before the stand-in and answers
//! that route as Shopware does: what keeps the customer's account from the guide is the
//! forwarding proxy.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use protocol::action::Action;
use protocol::frame::Event;
use reqwest::Method;
use serde_json::json;

use crate::dsr_support::*;
use crate::upstream_dsr::forwarding_to;

/// Attendee id → their session token, as the joins through the front answered them.
type Sessions = Arc<Mutex<HashMap<String, String>>>;

/// One call through the front: `…/sw-context-token` answered as Shopware does (with a
/// bearer), everything else forwarded to the stand-in at `base`.
async fn front(base: String, sessions: Sessions, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let path = parts.uri.path().to_owned();
    if let Some(id) = path
        .strip_prefix("/api/_action/dsr/appointment/attendee/")
        .and_then(|rest| rest.strip_suffix("/sw-context-token"))
    {
        if !parts.headers.contains_key("authorization") {
            return StatusCode::UNAUTHORIZED.into_response();
        }
        let token = sessions.lock().unwrap().get(id).cloned();
        return match token {
            Some(token) => {
                axum::Json(json!({ "attendee-sw-context-token": token })).into_response()
            }
            None => StatusCode::NOT_FOUND.into_response(),
        };
    }
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    let mut headers = HeaderMap::new();
    for (name, value) in &parts.headers {
        if !matches!(name.as_str(), "host" | "content-length" | "connection") {
            headers.append(name.clone(), value.clone());
        }
    }
    // Shopware's Admin API proxy: the Store API call with the given context token.
    let path = match path
        .strip_prefix("/api/_proxy/store-api/")
        .and_then(|rest| rest.split_once('/'))
    {
        Some((_, rest)) => {
            if headers.remove("authorization").is_none() {
                return StatusCode::UNAUTHORIZED.into_response();
            }
            headers.insert("sw-access-key", KEY.parse().unwrap());
            format!("/store-api/{rest}")
        }
        None => path,
    };
    let query = parts
        .uri
        .query()
        .map(|q| format!("?{q}"))
        .unwrap_or_default();
    let answer = reqwest::Client::new()
        .request(parts.method.clone(), format!("{base}{path}{query}"))
        .headers(headers)
        .body(body)
        .send()
        .await
        .unwrap();
    let status = answer.status();
    let mut answer_headers = HeaderMap::new();
    for (name, value) in answer.headers() {
        if !matches!(
            name.as_str(),
            "content-length" | "transfer-encoding" | "connection"
        ) {
            answer_headers.append(name.clone(), value.clone());
        }
    }
    let bytes = answer.bytes().await.unwrap();
    if status.is_success() && path.ends_with("/join-as-client") {
        let joined: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        if let (Some(id), Some(token)) = (
            joined["attendeeId"].as_str(),
            joined["newContextToken"].as_str(),
        ) {
            sessions
                .lock()
                .unwrap()
                .insert(id.to_owned(), token.to_owned());
        }
    }
    let mut response = Response::new(Body::from(bytes));
    *response.status_mut() = status;
    *response.headers_mut() = answer_headers;
    response
}

/// The Shopware-like front of the stand-in at `base`; answers its own base URL.
async fn shopware_like(base: String) -> String {
    let sessions = Sessions::default();
    let app = axum::Router::new()
        .fallback(move |request: Request| front(base.clone(), sessions.clone(), request));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://127.0.0.1:{port}")
}

/// What a guide's delegated token is refused: the customer's profile, addresses and
/// orders, their context, and the room's own calls.
const OUT_OF_SCOPE: [(&str, &str); 6] = [
    ("GET", "/store-api/account/customer"),
    ("POST", "/store-api/account/list-address"),
    ("GET", "/store-api/account/list-address"),
    ("POST", "/store-api/order"),
    ("PATCH", "/store-api/context"),
    ("GET", "/store-api/dsr/appointment/presentation/state"),
];

#[tokio::test]
async fn upstream_mode_gives_the_guide_a_cart_token_never_the_customers_session() {
    let upstream = start().await;
    let forwarding = forwarding_to(shopware_like(upstream.base.clone()).await, |c| c).await;
    let (guide, id, _) = forwarding.guide_joins("demo").await;
    let customer = As::Store(forwarding.customer_login().await);
    let join = forwarding.join_as_client("demo", &customer, "Cleo").await;
    let session = join["newContextToken"].as_str().unwrap().to_owned();
    let attendee = join["attendeeId"].as_str().unwrap().to_owned();
    // The attendee's session is the customer's account.
    let (status, me) = forwarding
        .get("/store-api/account/customer", &As::Store(session.clone()))
        .await;
    assert_eq!(
        (status, me["email"].as_str()),
        (200, Some("demo@example.com")),
        "{me}"
    );

    let token_path = format!("/api/_action/dsr/appointment/attendee/{attendee}/sw-context-token");
    let (status, body) = forwarding.get(&token_path, &guide).await;
    assert_eq!(status, 403, "no cart permission yet: {body}");
    assert_error(
        &body,
        403,
        "DIGITAL_SALES_ROOMS__ATTENDEE_CART_PERMISSION_MISSING",
    );
    let mut socket = connect(&forwarding, &join).await;
    grant_cart_permission(&mut socket).await;

    let (status, body) = forwarding.get(&token_path, &guide).await;
    assert_eq!(status, 200, "{body}");
    let token = body["attendee-sw-context-token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(token.starts_with("dsr-cart-"), "{token}");
    assert_ne!(token, session);
    let delegated = As::Store(token.clone());

    // The cart: the attendee's, and no answer names their session.
    let product = forwarding.product_ids(1).await.remove(0);
    let (status, cart, headers) = forwarding
        .call(
            Method::POST,
            "/store-api/checkout/cart/line-item",
            &delegated,
            Some(json!({"items": [{"type": "product", "referencedId": product}]})),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    assert!(!cart.to_string().contains(&session), "{cart}");
    if let Some(answered) = headers.get("sw-context-token") {
        assert_eq!(answered.to_str().unwrap(), token);
    }
    let (status, own) = forwarding
        .get("/store-api/checkout/cart", &As::Store(session.clone()))
        .await;
    assert_eq!(status, 200, "{own}");
    assert!(
        own.to_string().contains(&product),
        "the attendee's own cart: {own}"
    );
    let (status, cart) = forwarding.get("/store-api/checkout/cart", &delegated).await;
    assert_eq!(status, 200, "{cart}");
    assert!(!cart.to_string().contains(&session), "{cart}");

    // Nothing of the account.
    for (method, path) in OUT_OF_SCOPE {
        let method = Method::from_bytes(method.as_bytes()).unwrap();
        let body = (method != Method::GET).then(|| json!({}));
        let (status, answer, _) = forwarding
            .call(method.clone(), path, &delegated, body)
            .await;
        assert_eq!(status, 403, "{method} {path}: {answer}");
        assert_error(&answer, 403, "DIGITAL_SALES_ROOMS__DELEGATED_TOKEN_SCOPE");
    }
    // A made-up delegated token is no session of its own.
    let (status, answer) = forwarding
        .get(
            "/store-api/checkout/cart",
            &As::Store(format!("dsr-cart-{}", "0".repeat(64))),
        )
        .await;
    assert_eq!(status, 403, "{answer}");

    // Stored: the upstream session's hash, and the delegation sealed.
    let db = forwarding.db();
    let stored: String = db
        .query_row(
            "SELECT context_token FROM forwarded_attendee WHERE id = ?1",
            [&attendee],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(stored, storefront_proxy::store_api::token_key(&session));
    let (hash, sealed): (String, Vec<u8>) = db
        .query_row(
            "SELECT token_hash, sealed_token FROM forwarded_delegation",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(hash, storefront_proxy::store_api::token_key(&token));
    assert!(!sealed
        .windows(session.len())
        .any(|w| w == session.as_bytes()));

    // The guide's cockpit reads the cart by attendee id: the forwarding proxy asks the
    // upstream for the session with the guide's credentials, keeps nothing of it.
    let channel: String = upstream
        .db()
        .query_row(
            "SELECT id FROM sales_channel ORDER BY id LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let proxied = format!("/api/_proxy/store-api/{channel}/checkout/cart?attendeeId={attendee}");
    let (status, cart) = forwarding.get(&proxied, &guide).await;
    assert_eq!(status, 200, "{cart}");
    assert!(cart.to_string().contains(&product), "{cart}");

    // Withdrawn: the token ends.
    send_action(&mut socket, Action::SetCartPermission { granted: false }).await;
    wait_for(&mut socket, |e| {
        matches!(e, Event::CartPermissionChanged { .. }).then_some(())
    })
    .await;
    let (status, answer) = forwarding.get("/store-api/checkout/cart", &delegated).await;
    assert_eq!(status, 403, "{answer}");
    assert_error(
        &answer,
        403,
        "DIGITAL_SALES_ROOMS__ATTENDEE_CART_PERMISSION_MISSING",
    );
    let (status, answer) = forwarding.get(&proxied, &guide).await;
    assert_eq!(status, 403, "{answer}");

    // Granted again, then the appointment ends: the token ends too.
    grant_cart_permission(&mut socket).await;
    let (status, body) = forwarding.get(&token_path, &guide).await;
    assert_eq!(status, 200, "{body}");
    let again = As::Store(
        body["attendee-sw-context-token"]
            .as_str()
            .unwrap()
            .to_owned(),
    );
    let (status, cart) = forwarding.get("/store-api/checkout/cart", &again).await;
    assert_eq!(status, 200, "{cart}");
    let (status, body) = forwarding
        .post(
            &format!("/api/_action/dsr/appointment/{id}/start"),
            &guide,
            json!({}),
        )
        .await;
    assert!(status < 300, "{body}");
    let (status, body) = forwarding
        .post(
            &format!("/api/_action/dsr/appointment/{id}/end"),
            &guide,
            json!({}),
        )
        .await;
    assert!(status < 300, "{body}");
    let (status, answer) = forwarding.get("/store-api/checkout/cart", &again).await;
    assert_eq!(status, 403, "{answer}");
    assert_error(
        &answer,
        403,
        "DIGITAL_SALES_ROOMS__ATTENDEE_CART_PERMISSION_MISSING",
    );
}

#[tokio::test]
async fn upstream_mode_limits_guest_joins_per_address_like_embedded_mode() {
    let upstream = start().await;
    let forwarding = forwarding_to(upstream.base.clone(), |c| storefront_proxy::Config {
        joins_per_minute: 2,
        ..c
    })
    .await;
    let mut statuses = Vec::new();
    for n in 0..3 {
        let (status, body, headers) = forwarding
            .call(
                Method::POST,
                "/store-api/dsr/appointment/demo/join-as-client",
                &As::Nobody,
                Some(json!({"attendeeName": format!("Guest {n}")})),
            )
            .await;
        if status == 429 {
            assert_error(&body, 429, "FRAMEWORK__RATE_LIMIT_EXCEEDED");
            assert!(headers.contains_key("retry-after"), "{body}");
        }
        statuses.push(status);
    }
    assert_eq!(statuses, [200, 200, 429]);
}
