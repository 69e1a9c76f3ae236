//! A real hub and a real storefront-proxy on port 0 over a SQLite file in a temp dir,
//! with the calls a guide and attendees make, for the `dsr_*` suites.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use protocol::action::{Action, Interaction};
use protocol::frame::{ClientFrame, Event, ServerFrame};
use reqwest::Method;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::common;

// Not every suite that includes this module uses both.
#[allow(unused_imports)]
pub use common::{assert_error, serve_with, KEY};

pub const SECRET: &str = "dsr-test-secret";

pub struct Live {
    pub base: String,
    /// Where the hub listens (on 127.0.0.1).
    pub hub_port: u16,
    pub http: reqwest::Client,
    pub dir: tempfile::TempDir,
}

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Starts a hub and the proxy (seeded with the demo) in a fresh temp dir.
pub async fn start() -> Live {
    start_with(|config| config).await
}

/// [`start`], with the hub's settings changed by `edit`.
pub async fn start_with(edit: impl FnOnce(hub::Config) -> hub::Config) -> Live {
    let dir = tempfile::tempdir().unwrap();
    let hub_config = edit(hub::Config {
        secret: Some(SECRET.into()),
        send_queue: 64,
        retained_events: 256,
        ..hub::Config::for_data_dir(dir.path().join("hub"))
    });
    let hub_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hub_port = hub_listener.local_addr().unwrap().port();
    tokio::spawn(
        hub::Hub::open(hub_config, SECRET.as_bytes().to_vec())
            .await
            .unwrap()
            .serve(hub_listener, std::future::pending()),
    );
    start_with_hub(dir, hub_port).await
}

/// The demo appointment running: the guide and two attendees joined and connected (Ada
/// as a guest, Cleo as a logged-in customer), the guide started it and Ada was told.
pub struct Session {
    pub guide: As,
    pub id: String,
    pub guide_join: Value,
    pub ada_join: Value,
    pub cleo_join: Value,
    pub ada: As,
    pub cleo: As,
    pub guide_socket: Socket,
    pub ada_socket: Socket,
    pub cleo_socket: Socket,
}

impl Live {
    /// Joins the guide, Ada and Cleo to the demo, connects them, and starts it. Cleo's
    /// socket is left with the start unread.
    pub async fn running_demo(&self) -> Session {
        let (guide, id, guide_join) = self.guide_joins("demo").await;
        let ada_join = self.join_as_client("demo", &As::Nobody, "Ada").await;
        let customer = self.customer_login().await;
        let cleo_join = self
            .join_as_client("demo", &As::Store(customer), "Cleo")
            .await;
        let (ada, cleo) = (token_of(&ada_join), token_of(&cleo_join));
        let guide_socket = connect(self, &guide_join).await;
        let mut ada_socket = connect(self, &ada_join).await;
        let cleo_socket = connect(self, &cleo_join).await;
        let (status, _) = self
            .post(
                &format!("/api/_action/dsr/appointment/{id}/start"),
                &guide,
                json!({}),
            )
            .await;
        assert_eq!(status, 204);
        wait_for(&mut ada_socket, |e| {
            matches!(e, Event::PresentationStarted { .. }).then_some(())
        })
        .await;
        Session {
            guide,
            id,
            guide_join,
            ada_join,
            cleo_join,
            ada,
            cleo,
            guide_socket,
            ada_socket,
            cleo_socket,
        }
    }
}

/// A proxy alone (its hub unreachable) over `dir`, with the settings changed by `edit`.
pub async fn common_serve_with(
    dir: &std::path::Path,
    edit: impl FnOnce(storefront_proxy::Config) -> storefront_proxy::Config,
) -> String {
    common::serve_with(dir, 1, SECRET, edit).await
}

/// Starts the proxy in `dir` with whatever listens on `hub_port` as its hub.
pub async fn start_with_hub(dir: tempfile::TempDir, hub_port: u16) -> Live {
    let base = common::serve(dir.path(), hub_port, SECRET).await;
    Live {
        base,
        hub_port,
        http: reqwest::Client::new(),
        dir,
    }
}

/// Who calls: the headers of a store or admin call.
#[derive(Clone, Debug)]
pub enum As {
    /// Only the access key (store API) or nothing (admin API).
    Nobody,
    /// A store context token.
    Store(String),
    /// An admin bearer token.
    Guide(String),
}

impl Live {
    /// A call; store API paths get the access key. Answers status, JSON body, headers.
    /// A request with `who`'s headers (and the access key on store API paths).
    pub fn request(&self, method: Method, path: &str, who: &As) -> reqwest::RequestBuilder {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if path.starts_with("/store-api") {
            request = request.header("sw-access-key", KEY);
        }
        match who {
            As::Nobody => request,
            As::Store(token) => request.header("sw-context-token", token),
            As::Guide(bearer) => request.header("authorization", format!("Bearer {bearer}")),
        }
    }

    pub async fn call(
        &self,
        method: Method,
        path: &str,
        who: &As,
        body: Option<Value>,
    ) -> (u16, Value, reqwest::header::HeaderMap) {
        common::send(self.request(method, path, who), body).await
    }

    pub async fn get(&self, path: &str, who: &As) -> (u16, Value) {
        let (status, body, _) = self.call(Method::GET, path, who, None).await;
        (status, body)
    }

    pub async fn post(&self, path: &str, who: &As, body: Value) -> (u16, Value) {
        let (status, body, _) = self.call(Method::POST, path, who, Some(body)).await;
        (status, body)
    }

    /// A GET in the language `language_id` (`sw-language-id`).
    pub async fn get_in(&self, path: &str, who: &As, language_id: &str) -> (u16, Value) {
        let response = self
            .request(Method::GET, path, who)
            .header("sw-language-id", language_id)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn patch(&self, path: &str, who: &As, body: Value) -> (u16, Value) {
        let (status, body, _) = self.call(Method::PATCH, path, who, Some(body)).await;
        (status, body)
    }

    /// A raw body (for malformed JSON).
    pub async fn send_raw(&self, method: Method, path: &str, who: &As, raw: &str) -> (u16, Value) {
        let request = self
            .request(method, path, who)
            .header("content-type", "application/json")
            .body(raw.to_owned());
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn admin_token(&self) -> String {
        let (status, body) = self
            .post(
                "/api/oauth/token",
                &As::Nobody,
                json!({"grant_type": "password", "client_id": "administration", "username": "admin", "password": "shopware"}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        body["access_token"].as_str().unwrap().to_owned()
    }

    pub async fn appointment_id(&self, guide: &As, path: &str) -> String {
        let (status, body) = self
            .post(
                "/api/search/dsr-appointment",
                guide,
                json!({"filter": [{"type": "equals", "field": "presentationPath", "value": path}]}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        body["data"][0]["id"].as_str().unwrap().to_owned()
    }

    /// Joins as guide; answers the join response.
    pub async fn join_as_guide(&self, guide: &As, appointment_id: &str) -> Value {
        let (status, body) = self
            .post(
                &format!("/api/_action/dsr/appointment/{appointment_id}/join-as-guide"),
                guide,
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        body
    }

    /// The demo guide logs in and joins the appointment at `path`: (the guide, the
    /// appointment id, the guide's join response).
    pub async fn guide_joins(&self, path: &str) -> (As, String, Value) {
        let guide = As::Guide(self.admin_token().await);
        let id = self.appointment_id(&guide, path).await;
        let join = self.join_as_guide(&guide, &id).await;
        (guide, id, join)
    }

    /// Joins `path` as a client (with `who`'s session, if any); answers the join response.
    pub async fn join_as_client(&self, path: &str, who: &As, name: &str) -> Value {
        let (status, body) = self
            .post(
                &format!("/store-api/dsr/appointment/{path}/join-as-client"),
                who,
                json!({"attendeeName": name}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        body
    }

    /// The demo customer's session.
    pub async fn customer_login(&self) -> String {
        let (status, body, headers) = self
            .call(
                Method::POST,
                "/store-api/account/login",
                &As::Nobody,
                Some(json!({"username": "demo@example.com", "password": "salesroom"})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        headers
            .get("sw-context-token")
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned()
    }

    /// A second customer, Zoe, registered and logged in (the session of the answer).
    pub async fn register_zoe(&self) -> As {
        let country: String = self
            .db()
            .query_row("SELECT id FROM country WHERE iso = 'DE'", [], |r| r.get(0))
            .unwrap();
        let registration = json!({
            "email": "zoe@example.com", "password": "correct horse battery", "firstName": "Zoe", "lastName": "Other",
            "acceptedDataProtection": true, "storefrontUrl": self.base,
            "billingAddress": {"street": "Main Street 1", "zipcode": "80331", "city": "Munich", "countryId": country},
        });
        let (status, body, headers) = self
            .call(
                Method::POST,
                "/store-api/account/register",
                &As::Nobody,
                Some(registration),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        As::Store(
            headers
                .get("sw-context-token")
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned(),
        )
    }

    /// A fresh storefront session without a customer.
    pub async fn storefront_session(&self) -> As {
        let (status, body, headers) = self
            .call(Method::GET, "/store-api/context", &As::Nobody, None)
            .await;
        assert_eq!(status, 200, "{body}");
        let token = headers
            .get("sw-context-token")
            .map(|v| v.to_str().unwrap().to_owned());
        As::Store(
            token
                .or_else(|| body["token"].as_str().map(str::to_owned))
                .expect("a context token"),
        )
    }

    /// Ids of `n` active main products of the catalogue.
    pub async fn product_ids(&self, n: usize) -> Vec<String> {
        let (status, body) = self
            .post("/store-api/product", &As::Nobody, json!({"limit": n, "filter": [{"type": "equals", "field": "childCount", "value": 0}]}))
            .await;
        assert_eq!(status, 200, "{body}");
        body["elements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_owned())
            .collect()
    }

    /// The id of the shop language with this code (for `sw-language-id`).
    pub async fn language_id(&self, code: &str) -> String {
        let (_, body) = self.get("/store-api/language", &As::Nobody).await;
        let language = body["elements"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["translationCode"]["code"] == code);
        language.unwrap_or_else(|| panic!("no language {code} in {body}"))["id"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// The presentation structure an attendee sees.
    pub async fn structure(&self, who: &As) -> Value {
        let (status, body) = self
            .get("/store-api/dsr/appointment/presentation", who)
            .await;
        assert_eq!(status, 200, "{body}");
        body
    }

    /// The SQLite file, for checking what was stored (or breaking it on purpose).
    pub fn db(&self) -> rusqlite::Connection {
        let conn = rusqlite::Connection::open(self.dir.path().join("shop.sqlite")).unwrap();
        conn.busy_timeout(Duration::from_secs(5)).unwrap();
        conn
    }
}

pub fn token_of(join: &Value) -> As {
    As::Store(join["newContextToken"].as_str().unwrap().to_owned())
}

/// Opens the hub socket of a join response and reads past the welcome.
pub async fn connect(live: &Live, join: &Value) -> Socket {
    let url = format!("{}/ws", live.base.replace("http://", "ws://"));
    let mut request = url.into_client_request().unwrap();
    let offered = format!(
        "salesroom.v1.json, bearer.{}",
        join["hubToken"].as_str().unwrap()
    );
    request
        .headers_mut()
        .insert("sec-websocket-protocol", offered.parse().unwrap());
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let hello = serde_json::to_string(&ClientFrame::Hello {
        last_seq: None,
        epoch: None,
    })
    .unwrap();
    socket.send(Message::text(hello)).await.unwrap();
    loop {
        if let ServerFrame::Welcome { .. } = next_frame(&mut socket).await {
            return socket;
        }
    }
}

pub async fn next_frame(socket: &mut Socket) -> ServerFrame {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("no frame in time")
            .unwrap()
            .unwrap();
        if let Message::Text(text) = message {
            return serde_json::from_str(text.as_str()).unwrap();
        }
    }
}

/// The next event that `pick` accepts (others are skipped).
pub async fn wait_for<T>(socket: &mut Socket, mut pick: impl FnMut(&Event) -> Option<T>) -> T {
    loop {
        if let ServerFrame::Event { event, .. } = next_frame(socket).await {
            if let Some(found) = pick(&event) {
                return found;
            }
        }
    }
}

pub async fn send_action(socket: &mut Socket, action: Action) {
    let frame = ClientFrame::Action {
        r#ref: Some(1),
        action,
    };
    socket
        .send(Message::text(serde_json::to_string(&frame).unwrap()))
        .await
        .unwrap();
}

pub async fn send_interaction(socket: &mut Socket, interaction: Interaction) {
    let frame = ClientFrame::Interaction {
        r#ref: Some(2),
        interaction,
    };
    socket
        .send(Message::text(serde_json::to_string(&frame).unwrap()))
        .await
        .unwrap();
}

/// The client grants the guides cart access and waits until the hub applied it.
pub async fn grant_cart_permission(socket: &mut Socket) {
    send_action(socket, Action::SetCartPermission { granted: true }).await;
    wait_for(socket, |e| {
        matches!(e, Event::CartPermissionChanged { .. }).then_some(())
    })
    .await;
}

/// The reference document: where `SALESROOM_REFERENCE` says, else the copy of
/// `shared/reference/dsr-openapi.json` kept in `tests/reference/`.
pub fn reference() -> Value {
    let crate_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates: Vec<std::path::PathBuf> = std::env::var_os("SALESROOM_REFERENCE")
        .map(std::path::PathBuf::from)
        .into_iter()
        .chain([crate_dir.join("tests/reference/dsr-openapi.json")])
        .collect();
    let path = candidates
        .iter()
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("the reference document is in none of {candidates:?}"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Asserts that `instance` validates against schema `name` of `api` (`storeApi`,
/// `adminApi`) of the reference.
pub fn assert_valid(reference: &Value, api: &str, name: &str, instance: &Value) {
    check_valid(reference, api, name, instance, false);
}

/// As [`assert_valid`], with the formats (`date-time` …) checked too.
pub fn assert_valid_with_formats(reference: &Value, api: &str, name: &str, instance: &Value) {
    check_valid(reference, api, name, instance, true);
}

fn check_valid(reference: &Value, api: &str, name: &str, instance: &Value, formats: bool) {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "components": { "schemas": reference[api]["schemas"] },
        "$ref": format!("#/components/schemas/{name}"),
    });
    let validator = jsonschema::options()
        .should_validate_formats(formats)
        .build(&schema)
        .unwrap_or_else(|e| panic!("schema {api}/{name}: {e}"));
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}: {e}", e.schema_path(), e.instance_path()))
        .take(10)
        .collect();
    assert!(
        errors.is_empty(),
        "{name} does not validate:\n{}\n",
        errors.join("\n")
    );
}

/// Asserts that `instance` has every property that schema `name` of `api` declares.
pub fn assert_every_field(reference: &Value, api: &str, name: &str, instance: &Value) {
    let properties = reference[api]["schemas"][name]["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("{api}/{name} has no properties"));
    let missing: Vec<&String> = properties
        .keys()
        .filter(|key| instance.get(key.as_str()).is_none())
        .collect();
    assert!(missing.is_empty(), "{name} lacks {missing:?}: {instance}");
}
