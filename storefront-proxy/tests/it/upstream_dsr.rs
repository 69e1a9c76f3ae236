//! The live room on an upstream Shopware: a storefront-proxy with `UPSTREAM_URL`
//! forwards to another one that stands in for Shopware (embedded, with the demo, and a
//! hub of its own that the forwarding proxy never talks to). The forwarding proxy mints
//! the hub tokens from the upstream's join answers, starts its hub's live state from
//! the upstream's presentation state, and tells its own hub of the cart and like changes
//! that pass through it: everything its guide sees comes from it, because the
//! stand-in's own shop events go to the stand-in's hub.

use crate::dsr_support;

use dsr_support::*;
use protocol::action::Action;
use protocol::frame::{Collection, Event};
use protocol::{HubClaims, Role};
use serde_json::json;

pub const FORWARDING_SECRET: &str = "forwarding-hub-secret";

/// A hub with its own data and secret.
pub async fn hub(dir: &std::path::Path, secret: &str) -> u16 {
    let config = hub::Config {
        secret: Some(secret.into()),
        ..hub::Config::for_data_dir(dir.join("hub"))
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(
        hub::Hub::open(config, secret.as_bytes().to_vec())
            .await
            .unwrap()
            .serve(listener, std::future::pending()),
    );
    port
}

/// The stand-in for Shopware (with its hub) and the proxy forwarding to it (with its).
async fn pair() -> (Live, Live) {
    let upstream = start().await;
    let forwarding = forwarding_to(upstream.base.clone(), |config| config).await;
    (upstream, forwarding)
}

/// A proxy forwarding to `upstream_url`, with a hub of its own, its settings changed by
/// `edit`.
pub async fn forwarding_to(
    upstream_url: String,
    edit: impl FnOnce(storefront_proxy::Config) -> storefront_proxy::Config,
) -> Live {
    let dir = tempfile::tempdir().unwrap();
    let hub_port = hub(dir.path(), FORWARDING_SECRET).await;
    let base = serve_with(dir.path(), hub_port, FORWARDING_SECRET, |config| {
        edit(storefront_proxy::Config {
            upstream_url: Some(upstream_url),
            ..config
        })
    })
    .await;
    Live {
        base,
        hub_port,
        http: reqwest::Client::new(),
        dir,
    }
}

fn claims(join: &serde_json::Value) -> HubClaims {
    let token = join["hubToken"].as_str().unwrap();
    assert!(
        HubClaims::verify(token, SECRET.as_bytes()).is_err(),
        "the stand-in's token came through"
    );
    HubClaims::verify(token, FORWARDING_SECRET.as_bytes()).expect("minted by the forwarding proxy")
}

#[tokio::test]
async fn joins_through_the_forwarding_proxy_get_its_hub_tokens_for_the_upstreams_attendees() {
    let (upstream, forwarding) = pair().await;
    let (guide, id, guide_join) = forwarding.guide_joins("demo").await;
    let guide_claims = claims(&guide_join);
    assert_eq!(
        (guide_claims.role, guide_claims.apt.as_str()),
        (Role::Guide, id.as_str())
    );
    assert_eq!(guide_claims.sub, guide_join["attendeeId"].as_str().unwrap());
    assert!(
        guide_join["hubUrl"]
            .as_str()
            .unwrap()
            .starts_with(&forwarding.base.replace("http://", "ws://")),
        "{guide_join}"
    );

    let join = forwarding.join_as_client("demo", &As::Nobody, "Ada").await;
    let client = claims(&join);
    assert_eq!(
        (client.role, client.apt.as_str(), client.name.as_deref()),
        (Role::Client, id.as_str(), Some("Ada"))
    );
    // The attendee is the upstream's.
    let stored: String = upstream
        .db()
        .query_row(
            "SELECT name FROM attendee WHERE id = ?1 AND context_token = ?2",
            // Sessions are stored under their token's SHA-256 (issue #29, item 4).
            [
                &client.sub,
                &storefront_proxy::store_api::token_key(join["newContextToken"].as_str().unwrap()),
            ],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(stored, "Ada");

    // The token opens the forwarding proxy's hub; the guide locks, and a late join is refused there.
    let mut guide_socket = connect(&forwarding, &guide_join).await;
    send_action(&mut guide_socket, Action::SetLocked { locked: true }).await;
    wait_for(&mut guide_socket, |e| {
        matches!(e, Event::LockChanged { locked: true }).then_some(())
    })
    .await;
    let (status, body) = forwarding
        .post(
            "/store-api/dsr/appointment/demo/join-as-client",
            &As::Nobody,
            json!({"attendeeName": "Lou"}),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(
        body["errors"][0]["code"],
        "DIGITAL_SALES_ROOMS__APPOINTMENT_LOCKED"
    );
    let (status, state) = forwarding
        .get(
            &format!("/api/_action/dsr/appointment/{id}/presentation/state"),
            &guide,
        )
        .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        state["stateForAll"]["locked"], true,
        "the live state is the forwarding hub's"
    );
    // A wrong admin token is the upstream's refusal.
    let (status, _) = forwarding
        .get(
            &format!("/api/_action/dsr/appointment/{id}/presentation/state"),
            &As::Guide("nope".into()),
        )
        .await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn the_hubs_live_state_starts_from_the_upstreams_presentation_state() {
    let (upstream, forwarding) = pair().await;
    // Started and moved on upstream, before the forwarding proxy's hub knew of it.
    let (upstream_guide, id, _) = upstream.guide_joins("demo").await;
    let (status, body) = upstream
        .post(
            &format!("/api/_action/dsr/appointment/{id}/start"),
            &upstream_guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    let (_, upstream_state) = upstream
        .get(
            &format!("/api/_action/dsr/appointment/{id}/presentation/state"),
            &upstream_guide,
        )
        .await;
    assert_eq!(upstream_state["stateForAll"]["started"], true);

    let (guide, _, _) = forwarding.guide_joins("demo").await;
    let (status, state) = forwarding
        .get(
            &format!("/api/_action/dsr/appointment/{id}/presentation/state"),
            &guide,
        )
        .await;
    assert_eq!(status, 200, "{state}");
    let (ours, theirs) = (&state["stateForAll"], &upstream_state["stateForAll"]);
    assert_eq!(ours["started"], true, "{state}");
    assert_eq!(ours["startedAt"], theirs["startedAt"]);
    for field in [
        "appointmentMode",
        "videoAudioSettings",
        "attendeeRestrictionType",
        "accessibleFrom",
        "accessibleTo",
    ] {
        assert_eq!(ours[field], theirs[field], "{field}");
    }

    // Ending through the forwarding proxy ends it upstream and in the hub.
    let (status, body) = forwarding
        .post(
            &format!("/api/_action/dsr/appointment/{id}/end"),
            &guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, state) = forwarding
        .get(
            &format!("/api/_action/dsr/appointment/{id}/presentation/state"),
            &guide,
        )
        .await;
    assert_eq!(state["stateForAll"]["ended"], true);
    let (_, theirs) = upstream
        .get(
            &format!("/api/_action/dsr/appointment/{id}/presentation/state"),
            &upstream_guide,
        )
        .await;
    assert_eq!(theirs["stateForAll"]["ended"], true);
}

#[tokio::test]
async fn cart_and_like_changes_passing_through_reach_the_forwarding_hub() {
    let (_upstream, forwarding) = pair().await;
    let (_, id, guide_join) = forwarding.guide_joins("demo").await;
    let mut guide_socket = connect(&forwarding, &guide_join).await;
    let join = forwarding.join_as_client("demo", &As::Nobody, "Ada").await;
    let attendee = join["attendeeId"].as_str().unwrap().to_owned();
    let client = token_of(&join);
    let products = forwarding.product_ids(2).await;

    // The client's own state is the forwarding hub's.
    let (status, state) = forwarding
        .get("/store-api/dsr/appointment/presentation/state", &client)
        .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        state["stateForClients"]["cartPermission"], "missing",
        "{state}"
    );

    for (round, product) in products.iter().enumerate() {
        let (status, cart) = forwarding
            .post(
                "/store-api/checkout/cart/line-item",
                &client,
                json!({"items": [{"referencedId": product}]}),
            )
            .await;
        assert_eq!(status, 200, "{cart}");
        let count = wait_for(&mut guide_socket, |event| match event {
            Event::AttendeeCartChanged {
                attendee_id,
                line_item_count,
                ..
            } if *attendee_id == attendee => Some(*line_item_count),
            _ => None,
        })
        .await;
        assert_eq!(count as usize, round + 1);
    }
    let (status, _) = forwarding
        .post(
            &format!(
                "/store-api/dsr/appointment/collection/liked/{}",
                products[0]
            ),
            &client,
            json!({}),
        )
        .await;
    assert_eq!(status, 204);
    let liked = wait_for(&mut guide_socket, |event| match event {
        Event::AttendeeCollectionChanged {
            attendee_id,
            collection: Collection::Liked,
            product_id,
            added: true,
        } if *attendee_id == attendee => Some(product_id.clone()),
        _ => None,
    })
    .await;
    assert_eq!(liked, products[0]);

    // A session that is no attendee's changes its cart unseen; the guide removes Ada, and
    // the upstream and the hub both know.
    let (status, _) = forwarding
        .post(
            "/store-api/checkout/cart/line-item",
            &As::Nobody,
            json!({"items": [{"referencedId": products[1]}]}),
        )
        .await;
    assert_eq!(status, 200);
    let guide = As::Guide(forwarding.admin_token().await);
    let (status, body) = forwarding
        .post(
            &format!("/api/_action/dsr/appointment/attendee/{attendee}/remove"),
            &guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let removed = wait_for(&mut guide_socket, |event| match event {
        Event::AttendeeRemoved { attendee_id } => Some(attendee_id.clone()),
        Event::AttendeeCartChanged { .. } => panic!("a cart change of no attendee reached the hub"),
        _ => None,
    })
    .await;
    assert_eq!(removed, attendee);
    let (status, body) = forwarding
        .post(
            "/store-api/dsr/appointment/demo/join-as-client",
            &client,
            json!({}),
        )
        .await;
    assert_eq!(
        (status, body["errors"][0]["code"].as_str()),
        (403, Some("DIGITAL_SALES_ROOMS__ATTENDEE_REMOVED")),
        "{id}"
    );
}
