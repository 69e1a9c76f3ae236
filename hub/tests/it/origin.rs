//! #29 item 13: a browser page of another site cannot open the hub's socket with a
//! visitor's token (cross-site WebSocket hijacking). Only the origins of
//! `HUB_ALLOWED_ORIGINS` may; clients without a browser's `Origin` (tools, the proxy's
//! relay) need the token alone.

use hub::testing::{token, TestHub, GUIDE};
use protocol::Role;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

async fn upgrade(hub: &TestHub, origin: Option<&str>) -> Result<(), u16> {
    let url = format!("ws://{}/ws", hub.addr);
    let mut request = url.into_client_request().unwrap();
    let offered = format!(
        "salesroom.v1.json, bearer.{}",
        token(GUIDE, Role::Guide, "Gina")
    );
    request
        .headers_mut()
        .insert("sec-websocket-protocol", offered.parse().unwrap());
    if let Some(origin) = origin {
        request
            .headers_mut()
            .insert("origin", origin.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok(_) => Ok(()),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            Err(response.status().as_u16())
        }
        Err(other) => panic!("{other}"),
    }
}

#[tokio::test]
async fn only_allowed_origins_and_clients_without_one_open_the_socket() {
    let hub = TestHub::start_with(|config| hub::Config {
        allowed_origins: vec!["https://shop.example/".into()],
        ..config
    })
    .await;
    assert_eq!(upgrade(&hub, Some("https://evil.example")).await, Err(403));
    assert_eq!(upgrade(&hub, Some("null")).await, Err(403));
    assert_eq!(upgrade(&hub, Some("https://shop.example")).await, Ok(()));
    assert_eq!(upgrade(&hub, None).await, Ok(()));

    // By default no browser page may: browsers come through storefront-proxy's relay.
    let closed = TestHub::start().await;
    assert_eq!(
        upgrade(&closed, Some("https://shop.example")).await,
        Err(403)
    );
    assert_eq!(upgrade(&closed, None).await, Ok(()));
}
