//! Issue #29, items 4, 5 and 10: context tokens are stored as hashes, a guide with an
//! attendee's cart permission gets their cart and nothing of their account, store
//! sessions expire, and anonymous reads store no session (expired ones are cleaned up).

use std::time::Duration;

use protocol::action::Action;
use protocol::frame::Event;
use reqwest::Method;
use serde_json::{json, Value};
use storefront_proxy::store_api::token_key;

use crate::dsr_support::{self, assert_error, send_action, start, wait_for, As, Live};

fn token(join: &Value) -> String {
    join["newContextToken"].as_str().unwrap().to_owned()
}

fn sessions(live: &Live) -> i64 {
    live.db()
        .query_row("SELECT COUNT(*) FROM store_context", [], |r| r.get(0))
        .unwrap()
}

async fn delegated_token(live: &Live, guide: &As, attendee_id: &str) -> (u16, Value) {
    live.get(
        &format!("/api/_action/dsr/appointment/attendee/{attendee_id}/sw-context-token"),
        guide,
    )
    .await
}

/// What a token of a customer's session must not open: profile, addresses, orders,
/// changing them, the context (which holds the customer), the wishlist's changes, the room.
async fn assert_no_account(live: &Live, who: &As, product: &str) {
    let refused: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, "/store-api/account/customer".into(), None),
        (
            Method::POST,
            "/store-api/account/customer".into(),
            Some(json!({})),
        ),
        (
            Method::POST,
            "/store-api/account/list-address".into(),
            Some(json!({})),
        ),
        (Method::GET, "/store-api/account/list-address".into(), None),
        (Method::POST, "/store-api/order".into(), Some(json!({}))),
        (
            Method::POST,
            "/store-api/account/address".into(),
            Some(
                json!({"firstName": "Eve", "lastName": "Guide", "street": "Evil 1", "zipcode": "1", "city": "X"}),
            ),
        ),
        (
            Method::POST,
            "/store-api/account/change-profile".into(),
            Some(json!({"firstName": "Eve", "lastName": "Guide"})),
        ),
        (
            Method::POST,
            "/store-api/account/logout".into(),
            Some(json!({})),
        ),
        (Method::GET, "/store-api/context".into(), None),
        (Method::PATCH, "/store-api/context".into(), Some(json!({}))),
        (
            Method::POST,
            format!("/store-api/customer/wishlist/add/{product}"),
            Some(json!({})),
        ),
        (
            Method::POST,
            "/store-api/checkout/order".into(),
            Some(json!({})),
        ),
        (
            Method::GET,
            "/store-api/dsr/appointment/presentation".into(),
            None,
        ),
    ];
    for (method, path, body) in refused {
        let (status, answer, _) = live.call(method.clone(), &path, who, body).await;
        assert_eq!(status, 403, "{method} {path}: {answer}");
        assert_error(&answer, 403, "DIGITAL_SALES_ROOMS__DELEGATED_TOKEN_SCOPE");
    }
}

#[tokio::test]
async fn the_guide_gets_the_cart_of_a_customer_attendee_and_nothing_of_the_account() {
    let live = start().await;
    let mut session = live.running_demo().await;
    let cleo = As::Store(token(&session.cleo_join));
    let cleo_id = session.cleo_join["attendeeId"].as_str().unwrap().to_owned();
    let product = live.product_ids(1).await.remove(0);
    let (status, own) = live.get("/store-api/account/customer", &cleo).await;
    assert_eq!(status, 200, "{own}");

    let (status, body) = delegated_token(&live, &session.guide, &cleo_id).await;
    assert_error(
        &body,
        403,
        "DIGITAL_SALES_ROOMS__ATTENDEE_CART_PERMISSION_MISSING",
    );
    assert_eq!(status, 403);
    dsr_support::grant_cart_permission(&mut session.cleo_socket).await;
    let (status, body) = delegated_token(&live, &session.guide, &cleo_id).await;
    assert_eq!(status, 200, "{body}");
    let delegated = body["attendee-sw-context-token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(
        delegated,
        token(&session.cleo_join),
        "the guide got the customer's own session"
    );
    let guide = As::Store(delegated.clone());

    // The cart: read, add to it (the customer sees it in their own cart), change, remove.
    let (status, cart, headers) = live
        .call(Method::GET, "/store-api/checkout/cart", &guide, None)
        .await;
    assert_eq!(status, 200, "{cart}");
    assert_eq!(
        headers.get("sw-context-token").unwrap(),
        delegated.as_str(),
        "the answer names the delegated token only"
    );
    let (status, cart) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &guide,
            json!({"items": [{"referencedId": product, "quantity": 2}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    let (_, own_cart) = live.get("/store-api/checkout/cart", &cleo).await;
    assert_eq!(
        own_cart["lineItems"][0]["referencedId"],
        product.as_str(),
        "{own_cart}"
    );
    assert_eq!(own_cart["lineItems"][0]["quantity"], 2);
    let (status, cart) = live
        .patch(
            "/store-api/checkout/cart/line-item",
            &guide,
            json!({"items": [{"id": product, "quantity": 3}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    // What the spec lets the guide see: the wishlist (read) and the catalogue.
    let (status, wishlist) = live
        .post("/store-api/customer/wishlist", &guide, json!({}))
        .await;
    assert!(status == 200 || status == 404, "{status} {wishlist}");
    let (status, found) = live
        .post(&format!("/store-api/product/{product}"), &guide, json!({}))
        .await;
    assert_eq!(status, 200, "{found}");

    // Nothing of the account.
    assert_no_account(&live, &guide, &product).await;
    let addresses: i64 = live
        .db()
        .query_row(
            "SELECT COUNT(*) FROM customer_address WHERE first_name = 'Eve'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(addresses, 0);
    let (status, still) = live.get("/store-api/account/customer", &cleo).await;
    assert_eq!(
        (status, &still["id"]),
        (200, &own["id"]),
        "the customer is still logged in"
    );

    // Withdrawn: the token stops working; granted again, a new token works.
    send_action(
        &mut session.cleo_socket,
        Action::SetCartPermission { granted: false },
    )
    .await;
    wait_for(&mut session.cleo_socket, |e| {
        matches!(e, Event::CartPermissionChanged { .. }).then_some(())
    })
    .await;
    let (status, body) = live.get("/store-api/checkout/cart", &guide).await;
    assert_eq!(status, 403, "{body}");
    assert_error(
        &body,
        403,
        "DIGITAL_SALES_ROOMS__ATTENDEE_CART_PERMISSION_MISSING",
    );
    let (status, _) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &guide,
            json!({"items": [{"referencedId": product}]}),
        )
        .await;
    assert_eq!(status, 403);
    dsr_support::grant_cart_permission(&mut session.cleo_socket).await;
    let (status, _) = live.get("/store-api/checkout/cart", &guide).await;
    assert_eq!(status, 200);

    // The appointment ends: the token stops working, and no new one is handed out.
    let (status, body) = live
        .post(
            &format!("/api/_action/dsr/appointment/{}/end", session.id),
            &session.guide,
            json!({}),
        )
        .await;
    assert!(status < 300, "{status} {body}");
    let (status, body) = live.get("/store-api/checkout/cart", &guide).await;
    assert_eq!(status, 403, "{body}");
    let (status, _) = delegated_token(&live, &session.guide, &cleo_id).await;
    assert_eq!(status, 403);
    // The customer's own session is untouched.
    let (status, _) = live.get("/store-api/checkout/cart", &cleo).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_removed_attendee_takes_the_guides_token_with_them() {
    let live = start().await;
    let mut session = live.running_demo().await;
    let ada_id = session.ada_join["attendeeId"].as_str().unwrap().to_owned();
    dsr_support::grant_cart_permission(&mut session.ada_socket).await;
    let (status, body) = delegated_token(&live, &session.guide, &ada_id).await;
    assert_eq!(status, 200, "{body}");
    let delegated = body["attendee-sw-context-token"]
        .as_str()
        .unwrap()
        .to_owned();
    let guide = As::Store(delegated.clone());
    let (status, _) = live.get("/store-api/checkout/cart", &guide).await;
    assert_eq!(status, 200);
    // The guide's own Admin API proxy takes the delegated token as the attendee's too.
    let channel = session.ada_join["salesChannelId"].as_str().unwrap();
    let request = live.request(
        Method::GET,
        &format!("/api/_proxy/store-api/{channel}/checkout/cart"),
        &session.guide,
    );
    let response = request
        .header("sw-context-token", &delegated)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);

    let (status, _) = live
        .post(
            &format!("/api/_action/dsr/appointment/attendee/{ada_id}/remove"),
            &session.guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    let (status, body) = live.get("/store-api/checkout/cart", &guide).await;
    assert_eq!(status, 403, "{body}");

    // A delegated token whose record is gone is refused too, never taken for a new session.
    live.db()
        .execute("DELETE FROM dsr_context_delegation", [])
        .unwrap();
    let before = sessions(&live);
    let product = live.product_ids(1).await.remove(0);
    let (status, body) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &guide,
            json!({"items": [{"referencedId": product}]}),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(sessions(&live), before);
}

#[tokio::test]
async fn context_tokens_are_stored_as_their_sha256_only() {
    let live = start().await;
    let customer = live.customer_login().await;
    let product = live.product_ids(1).await.remove(0);
    let (status, _) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &As::Store(customer.clone()),
            json!({"items": [{"referencedId": product}]}),
        )
        .await;
    assert_eq!(status, 200);
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let ada = token(&join);
    let (_, _, guide_join) = live.guide_joins("demo").await;
    let guide = token(&guide_join);
    let db = live.db();
    for raw in [&customer, &ada, &guide] {
        let stored: i64 = db
            .query_row(
                "SELECT (SELECT COUNT(*) FROM store_context WHERE token = ?1) + (SELECT COUNT(*) FROM attendee WHERE context_token = ?1)
                        + (SELECT COUNT(*) FROM cart WHERE token = ?1)",
                [raw],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(stored, 0, "the token {raw} is stored as it is");
        let hashed: i64 = db
            .query_row(
                "SELECT COUNT(*) FROM store_context WHERE token = ?1",
                [token_key(raw)],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(hashed, 1, "no session under the hash of {raw}");
    }
    let cart: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM cart WHERE token = ?1",
            [token_key(&customer)],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(cart, 1);
    // The token still works, and a guide joining again gets the same session back.
    let (status, _) = live
        .get("/store-api/account/customer", &As::Store(customer))
        .await;
    assert_eq!(status, 200);
    let (guide_as, id, _) = live.guide_joins("demo").await;
    let again = live.join_as_guide(&guide_as, &id).await;
    assert_eq!(token(&again), guide);
    // Delegated tokens too.
    let stored: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM dsr_context_delegation WHERE length(token_hash) != 64",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(stored, 0);
}

#[tokio::test]
async fn a_session_expires_after_the_store_context_lifetime() {
    let dir = tempfile::tempdir().unwrap();
    let base = dsr_support::common_serve_with(dir.path(), |config| storefront_proxy::Config {
        store_context_lifetime: Duration::from_secs(3600),
        ..config
    })
    .await;
    let live = Live {
        base,
        hub_port: 1,
        http: reqwest::Client::new(),
        dir,
    };
    let customer = live.customer_login().await;
    let who = As::Store(customer.clone());
    let (status, _) = live.get("/store-api/account/customer", &who).await;
    assert_eq!(status, 200);
    // Written to 30 minutes ago: alive.
    let ago = |minutes: i64| {
        (time::OffsetDateTime::now_utc() - time::Duration::minutes(minutes))
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap()
    };
    live.db()
        .execute(
            "UPDATE store_context SET updated_at = ?2 WHERE token = ?1",
            [token_key(&customer), ago(30)],
        )
        .unwrap();
    let (status, _) = live.get("/store-api/account/customer", &who).await;
    assert_eq!(status, 200);
    // Two hours ago: expired, the customer is no longer logged in with it.
    live.db()
        .execute(
            "UPDATE store_context SET updated_at = ?2 WHERE token = ?1",
            [token_key(&customer), ago(120)],
        )
        .unwrap();
    let (status, body) = live.get("/store-api/account/customer", &who).await;
    assert_eq!(status, 403, "{body}");
    // A write with it starts a new session under a new token.
    let product = live.product_ids(1).await.remove(0);
    let (status, _, headers) = live
        .call(
            Method::POST,
            "/store-api/checkout/cart/line-item",
            &who,
            Some(json!({"items": [{"referencedId": product}]})),
        )
        .await;
    assert_eq!(status, 200);
    let fresh = headers.get("sw-context-token").unwrap().to_str().unwrap();
    assert_ne!(fresh, customer);
    let (status, _) = live
        .get("/store-api/account/customer", &As::Store(fresh.to_owned()))
        .await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn anonymous_reads_store_no_session_and_unused_sessions_are_cleaned_up() {
    let dir = tempfile::tempdir().unwrap();
    let base = dsr_support::common_serve_with(dir.path(), |config| storefront_proxy::Config {
        store_context_cleanup_interval_secs: 1,
        ..config
    })
    .await;
    let live = Live {
        base,
        hub_port: 1,
        http: reqwest::Client::new(),
        dir,
    };
    let before = sessions(&live);
    let mut tokens = Vec::new();
    for _ in 0..20 {
        let (status, body, headers) = live
            .call(Method::GET, "/store-api/context", &As::Nobody, None)
            .await;
        assert_eq!(status, 200, "{body}");
        let token = headers
            .get("sw-context-token")
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        assert_eq!(body["token"], token.as_str());
        tokens.push(token);
        let (status, _) = live.get("/store-api/checkout/cart", &As::Nobody).await;
        assert_eq!(status, 200);
        let (status, _) = live
            .post("/store-api/product", &As::Nobody, json!({"limit": 1}))
            .await;
        assert_eq!(status, 200);
    }
    // With a token that was answered but never stored: still nothing stored by reads.
    let unknown = As::Store(tokens[0].clone());
    for _ in 0..5 {
        let (status, _, headers) = live
            .call(Method::GET, "/store-api/context", &unknown, None)
            .await;
        assert_eq!(status, 200);
        assert_eq!(headers.get("sw-context-token").unwrap(), tokens[0].as_str());
        let (status, _) = live.get("/store-api/checkout/cart", &unknown).await;
        assert_eq!(status, 200);
    }
    assert_eq!(sessions(&live), before, "anonymous reads stored sessions");

    // The first write stores it, under the token the client already holds.
    let product = live.product_ids(1).await.remove(0);
    let (status, _, headers) = live
        .call(
            Method::POST,
            "/store-api/checkout/cart/line-item",
            &unknown,
            Some(json!({"items": [{"referencedId": product}]})),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(headers.get("sw-context-token").unwrap(), tokens[0].as_str());
    assert_eq!(sessions(&live), before + 1);
    let (_, cart) = live.get("/store-api/checkout/cart", &unknown).await;
    assert_eq!(cart["lineItems"].as_array().unwrap().len(), 1, "{cart}");
    let language = live.language_id("de-DE").await;
    let (status, _) = live
        .patch(
            "/store-api/context",
            &As::Store(tokens[1].clone()),
            json!({"languageId": language}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(sessions(&live), before + 2);

    // Unused past the lifetime: the periodic clean-up deletes it (and its cart); an
    // attendee's session and a fresh one stay.
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let long_ago = "2000-01-01T00:00:00Z";
    let db = live.db();
    db.execute(
        "UPDATE store_context SET updated_at = ?2 WHERE token = ?1",
        [token_key(&tokens[0]), long_ago.into()],
    )
    .unwrap();
    db.execute(
        "UPDATE store_context SET updated_at = ?2 WHERE token = ?1",
        [token_key(&token(&join)), long_ago.into()],
    )
    .unwrap();
    let gone = async {
        loop {
            let left: i64 = db
                .query_row(
                    "SELECT COUNT(*) FROM store_context WHERE token = ?1",
                    [token_key(&tokens[0])],
                    |r| r.get(0),
                )
                .unwrap();
            if left == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), gone)
        .await
        .expect("the expired session was not cleaned up");
    let carts: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM cart WHERE token = ?1",
            [token_key(&tokens[0])],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(carts, 0);
    for kept in [&token(&join), &tokens[1]] {
        let left: i64 = db
            .query_row(
                "SELECT COUNT(*) FROM store_context WHERE token = ?1",
                [token_key(kept)],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(left, 1, "{kept} was deleted");
    }
}

#[test]
fn a_clean_up_pass_is_bounded_and_keeps_a_customers_cart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shop.sqlite");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        storefront_proxy::App::open(storefront_proxy::Config::for_data_dir(dir.path()))
            .await
            .unwrap();
    });
    let conn = rusqlite::Connection::open(&path).unwrap();
    let channel: String = conn
        .query_row("SELECT id FROM sales_channel LIMIT 1", [], |r| r.get(0))
        .unwrap();
    let customer: String = conn
        .query_row("SELECT id FROM customer LIMIT 1", [], |r| r.get(0))
        .unwrap();
    let old = "2000-01-01T00:00:00Z";
    let lately = (time::OffsetDateTime::now_utc() - time::Duration::days(3))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let total = storefront_proxy::store_api::session::CLEANUP_BATCH * 2 + 7;
    let tx = conn.unchecked_transaction().unwrap();
    for i in 0..total {
        tx.execute(
            "INSERT INTO store_context (token, sales_channel_id, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)",
            [format!("old{i}"), channel.clone(), old.into()],
        )
        .unwrap();
    }
    // A customer's session with a cart, expired three days ago: kept for their next login.
    tx.execute(
        "INSERT INTO store_context (token, sales_channel_id, customer_id, created_at, updated_at) VALUES ('parked', ?1, ?2, ?3, ?3)",
        [channel.clone(), customer.clone(), lately.clone()],
    )
    .unwrap();
    tx.execute(
        "INSERT INTO cart (token, created_at, updated_at) VALUES ('parked', ?1, ?1)",
        [lately.clone()],
    )
    .unwrap();
    tx.commit().unwrap();
    let deleted =
        storefront_proxy::store_api::session::clean_up(&conn, Duration::from_secs(86_400)).unwrap();
    assert_eq!(deleted, total);
    let left: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM store_context WHERE token = 'parked'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(left, 1);
}
