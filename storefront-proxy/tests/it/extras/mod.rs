//! Helpers of the account-extras suites (account_extras, newsletter, contact,
//! wishlist): sessions, registration, and reading the real mail outbox.

use reqwest::Method;
use serde_json::{json, Value};

use crate::common::{elements, Shop};

pub const DEMO_EMAIL: &str = "demo@example.com";
pub const DEMO_PASSWORD: &str = "salesroom";

/// Logs in; the new context token, or the status and body of the refusal.
pub async fn login(shop: &Shop, email: &str, password: &str) -> Result<String, (u16, Value)> {
    let (status, body, headers) = shop
        .call(
            Method::POST,
            "/account/login",
            &[],
            Some(json!({"username": email, "password": password})),
        )
        .await;
    if status != 200 {
        return Err((status, body));
    }
    Ok(headers["sw-context-token"].to_str().unwrap().to_owned())
}

pub async fn demo_token(shop: &Shop) -> String {
    login(shop, DEMO_EMAIL, DEMO_PASSWORD)
        .await
        .expect("the demo customer logs in")
}

/// Registers a customer (or a guest, without password) and answers the session token.
pub async fn register(shop: &Shop, email: &str, password: Option<&str>) -> String {
    let (_, countries) = shop.post("/country", json!({})).await;
    let germany = elements(&countries)
        .into_iter()
        .find(|c| c["iso"] == "DE")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut body = json!({
        "email": email, "firstName": "Ada", "lastName": "Lovelace", "storefrontUrl": shop.base,
        "billingAddress": {"street": "Main Street 1", "zipcode": "10115", "city": "Berlin", "countryId": germany},
    });
    match password {
        Some(password) => body["password"] = json!(password),
        None => body["guest"] = json!(true),
    }
    let (status, customer, headers) = shop
        .call(Method::POST, "/account/register", &[], Some(body))
        .await;
    assert_eq!(status, 200, "{customer}");
    headers["sw-context-token"].to_str().unwrap().to_owned()
}

pub async fn customer(shop: &Shop, token: &str) -> Value {
    let (status, customer) = shop
        .post_with(
            "/account/customer",
            &[("sw-context-token", token)],
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{customer}");
    customer
}

/// `(pointer, code)` of every error of a response.
pub fn violations(body: &Value) -> Vec<(String, String)> {
    body["errors"]
        .as_array()
        .unwrap_or_else(|| panic!("no errors: {body}"))
        .iter()
        .map(|e| {
            (
                e["source"]["pointer"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                e["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

pub fn has_violation(body: &Value, pointer: &str, code: &str) -> bool {
    violations(body)
        .iter()
        .any(|(p, c)| p == pointer && c == code)
}

/// A mail of the outbox, as stored in the SQLite file.
#[derive(Debug, Clone)]
pub struct StoredMail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// The outbox, oldest first, read straight from the shop's SQLite file.
pub fn outbox(shop: &Shop) -> Vec<StoredMail> {
    let conn = rusqlite::Connection::open(shop.dir.path().join("shop.sqlite")).unwrap();
    let mut statement = conn
        .prepare(
            "SELECT recipient, subject, body_text, body_html FROM mail ORDER BY created_at, rowid",
        )
        .unwrap();
    statement
        .query_map([], |r| {
            Ok(StoredMail {
                to: r.get(0)?,
                subject: r.get(1)?,
                text: r.get(2)?,
                html: r.get(3)?,
            })
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The `.eml` files under `DATA_DIR/mail/`, sorted by name (time).
pub fn eml_files(shop: &Shop) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(shop.dir.path().join("mail")) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// The value of query parameter `name` in the first link of `text` that has it.
pub fn link_param(text: &str, name: &str) -> String {
    let needle = format!("{name}=");
    text.split(['?', '&', '\r', '\n', ' ', '"', '<'])
        .find_map(|part| part.strip_prefix(&needle))
        .unwrap_or_else(|| panic!("no {name} in {text}"))
        .to_owned()
}

/// The text of an .eml's quoted-printable parts, enough to read links: soft line
/// breaks joined, `=3D` back to `=`.
pub fn unquote(eml: &str) -> String {
    eml.replace("=\r\n", "").replace("=3D", "=")
}

/// Runs SQL on the shop's file (to age a recovery hash, for instance).
pub fn execute(shop: &Shop, sql: &str) {
    let conn = rusqlite::Connection::open(shop.dir.path().join("shop.sqlite")).unwrap();
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .unwrap();
    conn.execute_batch(sql).unwrap();
}

/// A request with a raw (possibly malformed) JSON body.
pub async fn post_raw(shop: &Shop, path: &str, token: Option<&str>, body: &str) -> (u16, Value) {
    let mut request = shop
        .http
        .post(format!("{}/store-api{path}", shop.base))
        .header("sw-access-key", crate::common::KEY)
        .header("content-type", "application/json")
        .body(body.to_owned());
    if let Some(token) = token {
        request = request.header("sw-context-token", token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}
