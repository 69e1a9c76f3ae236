//! The public origin end to end: a real proxy and a real hub on port 0, a real SQLite
//! file in a temp dir, reqwest and tokio-tungstenite as clients.

use std::path::Path;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use protocol::action::Action;
use protocol::frame::{ClientFrame, Event, ServerFrame};
use protocol::{HubClaims, Role};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::common;

use common::KEY;

const SECRET: &str = "foundation-test-secret";

struct Servers {
    base: String,
    http: reqwest::Client,
}

async fn start_hub(data_dir: &Path) -> u16 {
    let config = hub::Config {
        secret: Some(SECRET.into()),
        send_queue: 64,
        retained_events: 64,
        ..hub::Config::for_data_dir(data_dir.join("hub"))
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(
        hub::Hub::open(config, SECRET.as_bytes().to_vec())
            .await
            .unwrap()
            .serve(listener, std::future::pending()),
    );
    port
}

async fn start(data_dir: &Path) -> Servers {
    let hub_port = start_hub(data_dir).await;
    let base = common::serve(data_dir, hub_port, SECRET).await;
    Servers {
        base,
        http: reqwest::Client::new(),
    }
}

impl Servers {
    async fn post(&self, path: &str, headers: &[(&str, &str)], body: Value) -> (u16, Value) {
        let mut request = self.http.post(format!("{}{path}", self.base)).json(&body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn get(&self, path: &str, headers: &[(&str, &str)]) -> (u16, Value) {
        let mut request = self.http.get(format!("{}{path}", self.base));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn admin_token(&self) -> String {
        let (status, body) = self
            .post(
                "/api/oauth/token",
                &[],
                json!({"grant_type": "password", "client_id": "administration", "username": "admin", "password": "shopware"}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        body["access_token"].as_str().unwrap().to_owned()
    }

    async fn appointment_id(&self, bearer: &str, path: &str) -> String {
        let auth = format!("Bearer {bearer}");
        let (status, body) = self
            .post(
                "/api/search/dsr-appointment",
                &[("authorization", &auth)],
                json!({"filter": [{"type": "equals", "field": "presentationPath", "value": path}], "limit": 1}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["total"], 1);
        body["data"][0]["id"].as_str().unwrap().to_owned()
    }

    async fn join_as_guide(&self) -> Value {
        let bearer = self.admin_token().await;
        let id = self.appointment_id(&bearer, "demo").await;
        let auth = format!("Bearer {bearer}");
        let (status, body) = self
            .post(
                &format!("/api/_action/dsr/appointment/{id}/join-as-guide"),
                &[("authorization", &auth)],
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        body
    }

    async fn join_as_client(&self, name: &str) -> Value {
        let (status, body) = self
            .post(
                "/store-api/dsr/appointment/demo/join-as-client",
                &[("sw-access-key", KEY)],
                json!({"attendeeName": name}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        body
    }
}

fn assert_shopware_error(body: &Value, status: &str, code: &str) {
    let error = &body["errors"][0];
    assert_eq!(error["status"], status, "{body}");
    assert_eq!(error["code"], code, "{body}");
    assert!(
        error["title"].is_string() && error["detail"].is_string(),
        "{body}"
    );
}

#[tokio::test]
async fn health_and_runtime_config() {
    let dir = tempfile::tempdir().unwrap();
    let servers = start(dir.path()).await;
    let response = servers
        .http
        .get(format!("{}/healthz", servers.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let (status, config) = servers.get("/runtime-config.json", &[]).await;
    assert_eq!(status, 200);
    assert_eq!(config["shopEndpoint"], servers.base);
    assert_eq!(config["shopAccessToken"], KEY);
    assert_eq!(
        config["hubUrl"],
        format!("{}/ws", servers.base.replace("http://", "ws://"))
    );
}

#[tokio::test]
async fn store_api_refuses_unknown_access_keys_like_shopware() {
    let dir = tempfile::tempdir().unwrap();
    let servers = start(dir.path()).await;
    for headers in [&[][..], &[("sw-access-key", "SWSCWRONG")][..]] {
        let (status, body) = servers
            .post(
                "/store-api/dsr/appointment/demo/join-as-client",
                headers,
                json!({}),
            )
            .await;
        assert_eq!(status, 401);
        assert_shopware_error(&body, "401", "FRAMEWORK__API_INVALID_ACCESS_KEY");
        // Also for paths that do not exist.
        let (status, _) = servers.get("/store-api/nothing-here", headers).await;
        assert_eq!(status, 401);
    }
    let (status, body) = servers
        .get("/store-api/nothing-here", &[("sw-access-key", KEY)])
        .await;
    assert_eq!(status, 404);
    assert_shopware_error(&body, "404", "FRAMEWORK__ROUTE_NOT_FOUND");
}

#[tokio::test]
async fn admin_login_search_and_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let servers = start(dir.path()).await;
    let (status, body) = servers
        .post(
            "/api/oauth/token",
            &[],
            json!({"grant_type": "password", "client_id": "administration", "username": "admin", "password": "wrong"}),
        )
        .await;
    assert_eq!(status, 400);
    assert_shopware_error(&body, "400", "6");
    let (status, body) = servers
        .post("/api/oauth/token", &[], json!({"grant_type": "teleport"}))
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = servers
        .post("/api/oauth/token", &[], json!("not an object"))
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(body["errors"][0]["code"].is_string());

    // Admin routes need a bearer token; a store context token is not one.
    let (status, body) = servers
        .post("/api/search/dsr-appointment", &[], json!({}))
        .await;
    assert_eq!(status, 401);
    assert_shopware_error(&body, "401", "FRAMEWORK__UNAUTHORIZED");
    let client = servers.join_as_client("Eve").await;
    let fake = format!("Bearer {}", client["newContextToken"].as_str().unwrap());
    let (status, _) = servers
        .post(
            "/api/search/dsr-appointment",
            &[("authorization", &fake)],
            json!({}),
        )
        .await;
    assert_eq!(status, 401);

    let (status, body) = servers
        .post(
            "/api/oauth/token",
            &[],
            json!({"grant_type": "password", "client_id": "administration", "username": "admin", "password": "shopware"}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 600);
    let refresh = body["refresh_token"].as_str().unwrap().to_owned();
    let (status, refreshed) = servers
        .post(
            "/api/oauth/token",
            &[],
            json!({"grant_type": "refresh_token", "refresh_token": refresh}),
        )
        .await;
    assert_eq!(status, 200, "{refreshed}");
    // A refresh token works once.
    let (status, _) = servers
        .post(
            "/api/oauth/token",
            &[],
            json!({"grant_type": "refresh_token", "refresh_token": refresh}),
        )
        .await;
    assert_eq!(status, 401);

    let bearer = refreshed["access_token"].as_str().unwrap();
    let demo = servers.appointment_id(bearer, "demo").await;
    let customers = servers.appointment_id(bearer, "demo-customers").await;
    assert_ne!(demo, customers);
    assert!(
        demo.len() == 32
            && demo
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    );
}

#[tokio::test]
async fn joins_answer_the_reference_shape_with_a_signed_hub_token() {
    let dir = tempfile::tempdir().unwrap();
    let servers = start(dir.path()).await;
    let guide = servers.join_as_guide().await;
    let client = servers.join_as_client("Grace").await;
    for (body, role) in [(&guide, Role::Guide), (&client, Role::Client)] {
        for field in [
            "id",
            "newContextToken",
            "attendeeId",
            "salesChannelId",
            "salesChannelName",
            "appointmentName",
            "presentationGuideMode",
            "isPreview",
            "attendeeName",
            "videoUserId",
            "hubUrl",
            "hubToken",
        ] {
            assert!(body.get(field).is_some(), "{field} missing in {body}");
        }
        let claims =
            HubClaims::verify(body["hubToken"].as_str().unwrap(), SECRET.as_bytes()).unwrap();
        assert_eq!(claims.role, role);
        assert_eq!(claims.apt, body["id"]);
        assert_eq!(claims.sub, body["attendeeId"]);
    }
    assert_eq!(guide["id"], client["id"]);
    assert_eq!(client["attendeeName"], "Grace");
    assert_eq!(client["presentationGuideMode"], "guided");

    // The same context token rejoins as the same attendee.
    let token = client["newContextToken"].as_str().unwrap();
    let (status, again) = servers
        .post(
            "/store-api/dsr/appointment/demo/join-as-client",
            &[("sw-access-key", KEY), ("sw-context-token", token)],
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(again["attendeeId"], client["attendeeId"]);
    assert_eq!(again["attendeeName"], "Grace");

    let (status, body) = servers
        .post(
            "/store-api/dsr/appointment/nope/join-as-client",
            &[("sw-access-key", KEY)],
            json!({}),
        )
        .await;
    assert_eq!(status, 404);
    assert_shopware_error(&body, "404", "DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_FOUND");
    let (status, body) = servers
        .post(
            "/store-api/dsr/appointment/demo-customers/join-as-client",
            &[("sw-access-key", KEY)],
            json!({"attendeeName": "Guest"}),
        )
        .await;
    assert_eq!(status, 403);
    assert_shopware_error(&body, "403", "DIGITAL_SALES_ROOMS__APPOINTMENT_RESTRICTED");
    let (status, body) = servers
        .post(
            "/store-api/dsr/appointment/demo/join-as-client",
            &[("sw-access-key", KEY)],
            json!({"attendeeName": "x".repeat(300)}),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["errors"][0]["source"]["pointer"], "/attendeeName");
    let response = servers
        .http
        .post(format!(
            "{}/store-api/dsr/appointment/demo/join-as-client",
            servers.base
        ))
        .header("sw-access-key", KEY)
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
}

#[tokio::test]
async fn attendees_read_the_presentation_structure() {
    let dir = tempfile::tempdir().unwrap();
    let servers = start(dir.path()).await;
    let client = servers.join_as_client("Ada").await;
    let token = client["newContextToken"].as_str().unwrap();
    let (status, body) = servers
        .get(
            "/store-api/dsr/appointment/presentation",
            &[("sw-access-key", KEY), ("sw-context-token", token)],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let navigation = body["navigation"].as_array().unwrap();
    assert!(navigation.len() >= 5);
    for (i, entry) in navigation.iter().enumerate() {
        assert_eq!(entry["index"], i + 1);
        assert_eq!(entry["sectionId"].as_str().unwrap().len(), 32);
    }
    assert!(navigation.iter().any(|e| e["isInstantListing"] == true));
    assert!(!body["cmsPageResults"].as_array().unwrap().is_empty());
    let (status, _) = servers
        .get(
            "/store-api/dsr/appointment/presentation",
            &[("sw-access-key", KEY)],
        )
        .await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn demo_data_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let first = {
        let servers = start(dir.path()).await;
        let bearer = servers.admin_token().await;
        servers.appointment_id(&bearer, "demo").await
    };
    let servers = start(dir.path()).await;
    let bearer = servers.admin_token().await;
    assert_eq!(servers.appointment_id(&bearer, "demo").await, first);
}

async fn connect(
    base: &str,
    token: &str,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    let url = format!("{}/ws", base.replace("http://", "ws://"));
    let mut request = url.into_client_request().unwrap();
    request.headers_mut().insert(
        "sec-websocket-protocol",
        format!("salesroom.v1.json, bearer.{token}")
            .parse()
            .unwrap(),
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let hello = serde_json::to_string(&ClientFrame::Hello {
        last_seq: None,
        epoch: None,
    })
    .unwrap();
    socket.send(Message::text(hello)).await.unwrap();
    socket
}

async fn next_frame(
    socket: &mut (impl StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin),
) -> ServerFrame {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(3), socket.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        if let Message::Text(text) = message {
            return serde_json::from_str(text.as_str()).unwrap();
        }
    }
}

#[tokio::test]
async fn the_proxy_forwards_ws_and_refuses_forged_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let servers = start(dir.path()).await;
    let guide = servers.join_as_guide().await;
    let client = servers.join_as_client("Ada").await;

    let forged = HubClaims {
        sub: "a".repeat(32),
        apt: "b".repeat(32),
        role: Role::Guide,
        name: None,
        exp: u64::MAX / 2,
    }
    .sign(b"not-the-secret")
    .unwrap();
    let mut request = format!("{}/ws", servers.base.replace("http://", "ws://"))
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {forged}").parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 401)
        }
        other => panic!("a forged token was not refused: {:?}", other.map(|_| ())),
    }

    let mut guide_socket = connect(&servers.base, guide["hubToken"].as_str().unwrap()).await;
    let mut client_socket = connect(&servers.base, client["hubToken"].as_str().unwrap()).await;
    assert!(matches!(
        next_frame(&mut guide_socket).await,
        ServerFrame::Welcome {
            role: Role::Guide,
            ..
        }
    ));
    assert!(matches!(
        next_frame(&mut client_socket).await,
        ServerFrame::Welcome {
            role: Role::Client,
            ..
        }
    ));
    let action = ClientFrame::Action {
        r#ref: Some(1),
        action: Action::SwitchSlide {
            page_id: "a".repeat(32),
            section_id: "b".repeat(32),
            slide_alias: 2,
        },
    };
    guide_socket
        .send(Message::text(serde_json::to_string(&action).unwrap()))
        .await
        .unwrap();
    loop {
        match next_frame(&mut client_socket).await {
            ServerFrame::Event {
                event: Event::SlideSwitched { slide_alias, .. },
                ..
            } => {
                assert_eq!(slide_alias, 2);
                break;
            }
            ServerFrame::Ping { .. } => continue,
            other => panic!("unexpected {other:?}"),
        }
    }
}

async fn next_event(
    socket: &mut (impl StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin),
) -> Event {
    loop {
        if let ServerFrame::Event { event, .. } = next_frame(socket).await {
            return event;
        }
    }
}

#[tokio::test]
async fn start_end_and_lock_reach_everyone_and_gate_joining() {
    let dir = tempfile::tempdir().unwrap();
    let servers = start(dir.path()).await;
    let bearer = servers.admin_token().await;
    let auth = format!("Bearer {bearer}");
    let id = servers.appointment_id(&bearer, "demo").await;
    let guide = servers.join_as_guide().await;
    let client = servers.join_as_client("Ada").await;
    let mut client_socket = connect(&servers.base, client["hubToken"].as_str().unwrap()).await;
    let mut guide_socket = connect(&servers.base, guide["hubToken"].as_str().unwrap()).await;
    match next_frame(&mut client_socket).await {
        ServerFrame::Welcome {
            snapshot: Some(snapshot),
            ..
        } => {
            // The guide's join told the hub the appointment's settings.
            assert_eq!(
                snapshot.state_for_all.attendee_restriction_type,
                Some(protocol::state::AttendeeRestrictionType::Open)
            );
            assert!(!snapshot.state_for_all.started);
        }
        other => panic!("expected the welcome, got {other:?}"),
    }

    let start_url = format!("/api/_action/dsr/appointment/{id}/start");
    let response = servers
        .http
        .post(format!("{}{start_url}", servers.base))
        .header("authorization", &auth)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 204);
    loop {
        if let Event::PresentationStarted { started_at } = next_event(&mut client_socket).await {
            assert!(started_at.starts_with("20"));
            break;
        }
    }
    let (status, state) = servers
        .get(
            &format!("/api/_action/dsr/appointment/{id}/presentation/state"),
            &[("authorization", &auth)],
        )
        .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["stateForAll"]["started"], true);
    assert_eq!(state["stateForAll"]["running"], true);
    assert!(
        state["stateForGuides"]["clients"][client["attendeeId"].as_str().unwrap()].is_object(),
        "{state}"
    );
    let token = client["newContextToken"].as_str().unwrap();
    let (status, state) = servers
        .get(
            "/store-api/dsr/appointment/presentation/state",
            &[("sw-access-key", KEY), ("sw-context-token", token)],
        )
        .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["stateForAll"]["started"], true);
    assert!(
        state.get("stateForGuides").is_none(),
        "clients do not see the guides' state"
    );

    // Lock: no one new gets in; unlock: they do.
    let lock = |locked| ClientFrame::Action {
        r#ref: None,
        action: Action::SetLocked { locked },
    };
    guide_socket
        .send(Message::text(serde_json::to_string(&lock(true)).unwrap()))
        .await
        .unwrap();
    assert_eq!(
        next_event(&mut client_socket).await,
        Event::LockChanged { locked: true }
    );
    let (status, body) = servers
        .post(
            "/store-api/dsr/appointment/demo/join-as-client",
            &[("sw-access-key", KEY)],
            json!({"attendeeName": "Late"}),
        )
        .await;
    assert_eq!(status, 403);
    assert_shopware_error(&body, "403", "DIGITAL_SALES_ROOMS__APPOINTMENT_LOCKED");
    // Who joined before comes back with their session: the same attendee, not a new one.
    let (status, body) = servers
        .post(
            "/store-api/dsr/appointment/demo/join-as-client",
            &[("sw-access-key", KEY), ("sw-context-token", token)],
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["attendeeId"], client["attendeeId"], "{body}");
    // Another session (a guest's, not this appointment's attendee) is still turned away.
    let (status, body) = servers
        .post(
            "/store-api/dsr/appointment/demo/join-as-client",
            &[
                ("sw-access-key", KEY),
                ("sw-context-token", "0123456789abcdef0123456789abcdef"),
            ],
            json!({"attendeeName": "Late"}),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_shopware_error(&body, "403", "DIGITAL_SALES_ROOMS__APPOINTMENT_LOCKED");
    guide_socket
        .send(Message::text(serde_json::to_string(&lock(false)).unwrap()))
        .await
        .unwrap();
    assert_eq!(
        next_event(&mut client_socket).await,
        Event::LockChanged { locked: false }
    );
    servers.join_as_client("Late").await;

    let end_url = format!("{}/api/_action/dsr/appointment/{id}/end", servers.base);
    assert_eq!(
        servers
            .http
            .post(&end_url)
            .header("authorization", &auth)
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    loop {
        if let Event::PresentationEnded { .. } = next_event(&mut client_socket).await {
            break;
        }
    }
    let (status, body) = servers
        .post(
            "/store-api/dsr/appointment/demo/join-as-client",
            &[("sw-access-key", KEY)],
            json!({"attendeeName": "Later"}),
        )
        .await;
    assert_eq!(status, 403);
    assert_shopware_error(&body, "403", "DIGITAL_SALES_ROOMS__APPOINTMENT_ENDED");
    let response = servers
        .http
        .post(format!("{}{start_url}", servers.base))
        .header("authorization", &auth)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    // Without a bearer token nothing moves.
    assert_eq!(
        servers
            .http
            .post(format!("{}{start_url}", servers.base))
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
}

#[tokio::test]
async fn interactions_fill_collections_and_reach_the_guide() {
    let dir = tempfile::tempdir().unwrap();
    let servers = start(dir.path()).await;
    let guide = servers.join_as_guide().await;
    let client = servers.join_as_client("Ada").await;
    let token = client["newContextToken"].as_str().unwrap().to_owned();
    let headers = [("sw-access-key", KEY), ("sw-context-token", token.as_str())];
    let mut guide_socket = connect(&servers.base, guide["hubToken"].as_str().unwrap()).await;
    assert!(matches!(
        next_frame(&mut guide_socket).await,
        ServerFrame::Welcome { .. }
    ));
    let (p1, p2, p3) = ("1".repeat(32), "2".repeat(32), "3".repeat(32));

    for product in [&p1, &p2, &p3, &p1] {
        let (status, body) = servers
            .post(
                "/store-api/dsr/interaction",
                &headers,
                json!({"name": "product.viewed", "payload": {"productId": product}}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let (_, seen) = servers
        .get("/store-api/dsr/appointment/collection/last-seen", &headers)
        .await;
    assert_eq!(
        seen["collection"]["lastSeen"],
        json!([p1, p3, p2]),
        "newest first, no duplicates"
    );

    let (status, _) = servers
        .post(
            "/store-api/dsr/interaction",
            &headers,
            json!({"name": "attendee.product.collection.liked", "payload": {"productId": p2}}),
        )
        .await;
    assert_eq!(status, 200);
    let (_, liked) = servers
        .get("/store-api/dsr/appointment/collection/liked", &headers)
        .await;
    assert_eq!(liked["collection"]["liked"], json!([p2]));
    // Disliking moves it.
    let response = servers
        .http
        .post(format!(
            "{}/store-api/dsr/appointment/collection/disliked/{p2}",
            servers.base
        ))
        .header("sw-access-key", KEY)
        .header("sw-context-token", &token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 204);
    let (_, liked) = servers
        .get("/store-api/dsr/appointment/collection/liked", &headers)
        .await;
    assert_eq!(liked["collection"]["liked"], json!([]));
    let (_, disliked) = servers
        .get("/store-api/dsr/appointment/collection/disliked", &headers)
        .await;
    assert_eq!(disliked["collection"]["disliked"], json!([p2]));
    let response = servers
        .http
        .delete(format!(
            "{}/store-api/dsr/appointment/collection/disliked/{p2}",
            servers.base
        ))
        .header("sw-access-key", KEY)
        .header("sw-context-token", &token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 204);

    // The guide saw the like live.
    loop {
        match next_event(&mut guide_socket).await {
            Event::AttendeeCollectionChanged {
                attendee_id,
                collection: protocol::frame::Collection::Liked,
                product_id,
                added: true,
            } => {
                assert_eq!(attendee_id, client["attendeeId"]);
                assert_eq!(product_id, p2);
                break;
            }
            _ => continue,
        }
    }

    // Bad input changes nothing and says why.
    for (body, pointer) in [
        (
            json!({"name": "product.viewed", "payload": {"productId": "nope"}}),
            "/payload/productId",
        ),
        (json!({"name": "teleport", "payload": {}}), "/payload"),
        (json!({"payload": {}}), "/name"),
        (
            json!({"name": "keep.alive", "payload": {}, "lifeTimeInSeconds": "long"}),
            "/lifeTimeInSeconds",
        ),
    ] {
        let (status, error) = servers
            .post("/store-api/dsr/interaction", &headers, body)
            .await;
        assert_eq!(status, 400, "{error}");
        assert_eq!(error["errors"][0]["source"]["pointer"], pointer, "{error}");
    }
    let (status, _) = servers
        .post(
            "/store-api/dsr/appointment/collection/favourite/1",
            &headers,
            json!({}),
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = servers
        .get(
            "/store-api/dsr/appointment/collection/liked",
            &[("sw-access-key", KEY)],
        )
        .await;
    assert_eq!(status, 403);
    let (_, seen) = servers
        .get("/store-api/dsr/appointment/collection/last-seen", &headers)
        .await;
    assert_eq!(seen["collection"]["lastSeen"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn the_guide_gets_a_cart_context_only_with_permission_and_can_remove_an_attendee() {
    let dir = tempfile::tempdir().unwrap();
    let servers = start(dir.path()).await;
    let bearer = servers.admin_token().await;
    let auth = format!("Bearer {bearer}");
    let client = servers.join_as_client("Ada").await;
    let attendee_id = client["attendeeId"].as_str().unwrap();
    let token_url = format!("/api/_action/dsr/appointment/attendee/{attendee_id}/sw-context-token");
    let mut client_socket = connect(&servers.base, client["hubToken"].as_str().unwrap()).await;
    assert!(matches!(
        next_frame(&mut client_socket).await,
        ServerFrame::Welcome { .. }
    ));

    let (status, body) = servers.get(&token_url, &[("authorization", &auth)]).await;
    assert_eq!(status, 403, "{body}");
    assert_shopware_error(
        &body,
        "403",
        "DIGITAL_SALES_ROOMS__ATTENDEE_CART_PERMISSION_MISSING",
    );
    let grant = ClientFrame::Action {
        r#ref: Some(1),
        action: Action::SetCartPermission { granted: true },
    };
    client_socket
        .send(Message::text(serde_json::to_string(&grant).unwrap()))
        .await
        .unwrap();
    loop {
        if let Event::CartPermissionChanged { .. } = next_event(&mut client_socket).await {
            break;
        }
    }
    let (status, body) = servers.get(&token_url, &[("authorization", &auth)]).await;
    assert_eq!(status, 200, "{body}");
    // A delegated token for the cart, never the attendee's own session (issue #29, item 5).
    let delegated = body["attendee-sw-context-token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(body["attendee-sw-context-token"], client["newContextToken"]);
    let (status, cart) = servers
        .get(
            "/store-api/checkout/cart",
            &[("sw-access-key", KEY), ("sw-context-token", &delegated)],
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    let (status, _) = servers
        .get("/api/_action/dsr/appointment/attendee/ffffffffffffffffffffffffffffffff/sw-context-token", &[("authorization", &auth)])
        .await;
    assert_eq!(status, 404);

    let (status, body) = servers
        .post(
            &format!("/api/_action/dsr/appointment/attendee/{attendee_id}/remove"),
            &[("authorization", &auth)],
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["attendeeId"], attendee_id);
    let closed = loop {
        match tokio::time::timeout(Duration::from_secs(3), client_socket.next())
            .await
            .unwrap()
        {
            Some(Ok(Message::Close(Some(frame)))) => break u16::from(frame.code),
            Some(Ok(_)) => continue,
            other => panic!("expected a close, got {other:?}"),
        }
    };
    assert_eq!(closed, protocol::frame::close_code::REMOVED);
    let token = client["newContextToken"].as_str().unwrap();
    let (status, body) = servers
        .post(
            "/store-api/dsr/appointment/demo/join-as-client",
            &[("sw-access-key", KEY), ("sw-context-token", token)],
            json!({}),
        )
        .await;
    assert_eq!(status, 403);
    assert_shopware_error(&body, "403", "DIGITAL_SALES_ROOMS__ATTENDEE_REMOVED");
}

/// #29 item 13: a page of another site cannot open the hub's socket with a visitor's
/// token (cross-site WebSocket hijacking); the shop's own pages and clients without a
/// browser's `Origin` can.
#[tokio::test]
async fn the_hub_socket_is_refused_to_pages_of_another_origin() {
    let dir = tempfile::tempdir().unwrap();
    let servers = start(dir.path()).await;
    let guide = servers.join_as_guide().await;
    let token = guide["hubToken"].as_str().unwrap();
    let request = |origin: Option<&str>| {
        let mut request = format!("{}/ws", servers.base.replace("http://", "ws://"))
            .into_client_request()
            .unwrap();
        request
            .headers_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
        if let Some(origin) = origin {
            request
                .headers_mut()
                .insert("origin", origin.parse().unwrap());
        }
        request
    };
    for foreign in ["http://evil.example", "http://127.0.0.1:1", "null"] {
        match tokio_tungstenite::connect_async(request(Some(foreign))).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), 403, "{foreign}");
                let body: Value =
                    serde_json::from_slice(response.body().as_deref().unwrap_or_default()).unwrap();
                assert_shopware_error(&body, "403", "SALESROOM__ORIGIN_NOT_ALLOWED");
            }
            other => panic!(
                "a socket from {foreign} was not refused: {:?}",
                other.map(|_| ())
            ),
        }
    }
    for allowed in [Some(servers.base.as_str()), None] {
        let (mut socket, _) = tokio_tungstenite::connect_async(request(allowed))
            .await
            .unwrap();
        let hello = serde_json::to_string(&ClientFrame::Hello {
            last_seq: None,
            epoch: None,
        })
        .unwrap();
        socket.send(Message::text(hello)).await.unwrap();
        assert!(
            matches!(
                next_frame(&mut socket).await,
                ServerFrame::Welcome {
                    role: Role::Guide,
                    ..
                }
            ),
            "{allowed:?}"
        );
    }
}

/// #29 item 13: every answer carries the security headers; only the attendee's room may
/// be framed, and only by the sites of `FRAME_ANCESTORS`.
#[tokio::test]
async fn every_answer_has_security_headers_and_only_the_room_may_be_framed_by_allowed_sites() {
    let dir = tempfile::tempdir().unwrap();
    let base = common::serve_with(dir.path(), 1, SECRET, |config| storefront_proxy::Config {
        frame_ancestors: vec!["https://brand.example".into()],
        livekit_url: Some("wss://video.example.com".into()),
        ..config
    })
    .await;
    let http = reqwest::Client::new();
    let headers_of = |path: &str| {
        let request = http
            .get(format!("{base}{path}"))
            .header("sw-access-key", KEY);
        async move { request.send().await.unwrap().headers().clone() }
    };
    for path in [
        "/",
        "/account",
        "/store-api/context",
        "/api/oauth/token",
        "/healthz",
        "/guide/0123456789abcdef0123456789abcdef",
    ] {
        let headers = headers_of(path).await;
        let policy = headers["content-security-policy"].to_str().unwrap();
        assert!(
            policy.contains("frame-ancestors 'none'"),
            "{path}: {policy}"
        );
        assert!(
            policy.contains("default-src 'self'") && policy.contains("object-src 'none'"),
            "{path}: {policy}"
        );
        assert!(
            policy.contains("connect-src 'self'")
                && policy.contains("wss://video.example.com https://video.example.com"),
            "{policy}"
        );
        assert!(
            !policy.contains("'unsafe-eval'")
                && !policy.contains("script-src 'self' 'unsafe-inline'"),
            "{policy}"
        );
        assert_eq!(headers["x-frame-options"], "DENY", "{path}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(
            headers["referrer-policy"], "strict-origin-when-cross-origin",
            "{path}"
        );
    }
    for path in [
        "/presentation/0123456789abcdef0123456789abcdef",
        "/de/presentation/0123456789abcdef0123456789abcdef/prejoin",
    ] {
        let headers = headers_of(path).await;
        let policy = headers["content-security-policy"].to_str().unwrap();
        assert!(
            policy.contains("frame-ancestors 'self' https://brand.example"),
            "{path}: {policy}"
        );
        assert!(headers.get("x-frame-options").is_none(), "{path}");
    }
    // Without FRAME_ANCESTORS the room refuses framing too.
    let other = tempfile::tempdir().unwrap();
    let base = common::serve(other.path(), 1, SECRET).await;
    let headers = http
        .get(format!(
            "{base}/presentation/0123456789abcdef0123456789abcdef"
        ))
        .send()
        .await
        .unwrap()
        .headers()
        .clone();
    assert!(headers["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("frame-ancestors 'none'"));
    assert_eq!(headers["x-frame-options"], "DENY");
}

/// #29 item 13: a browser offers its hub token as the subprotocol `bearer.<token>`, so
/// that it sits in no URL (proxies and servers log URLs); the hub answers with the
/// codec's subprotocol, never the token.
#[tokio::test]
async fn the_hub_token_rides_the_handshake_as_a_subprotocol_not_the_url() {
    let dir = tempfile::tempdir().unwrap();
    let servers = start(dir.path()).await;
    let guide = servers.join_as_guide().await;
    let token = guide["hubToken"].as_str().unwrap();
    let mut request = format!("{}/ws", servers.base.replace("http://", "ws://"))
        .into_client_request()
        .unwrap();
    let offered = format!(
        "salesroom.v1.json, {}{token}",
        protocol::frame::TOKEN_SUBPROTOCOL_PREFIX
    );
    request
        .headers_mut()
        .insert("sec-websocket-protocol", offered.parse().unwrap());
    request
        .headers_mut()
        .insert("origin", servers.base.parse().unwrap());
    let (mut socket, answer) = tokio_tungstenite::connect_async(request).await.unwrap();
    assert_eq!(
        answer.headers()["sec-websocket-protocol"],
        "salesroom.v1.json"
    );
    let hello = serde_json::to_string(&ClientFrame::Hello {
        last_seq: None,
        epoch: None,
    })
    .unwrap();
    socket.send(Message::text(hello)).await.unwrap();
    assert!(matches!(
        next_frame(&mut socket).await,
        ServerFrame::Welcome {
            role: Role::Guide,
            ..
        }
    ));

    // A forged token offered so is refused like one in the URL.
    let mut request = format!("{}/ws", servers.base.replace("http://", "ws://"))
        .into_client_request()
        .unwrap();
    request.headers_mut().insert(
        "sec-websocket-protocol",
        "salesroom.v1.json, bearer.not-a-token".parse().unwrap(),
    );
    match tokio_tungstenite::connect_async(request).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 401)
        }
        other => panic!("a forged token was not refused: {:?}", other.map(|_| ())),
    }
}
