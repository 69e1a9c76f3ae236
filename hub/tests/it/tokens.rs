//! #29 item 13: the hub token never sits in a URL that gets logged. `/ws` takes it only as
//! the subprotocol `bearer.<token>` (browsers) or as `Authorization: Bearer` (tools); a
//! `?token=` in the URL, even a valid one, is answered as no token (401 in the hub's
//! error shape).

use hub::testing::{token, TestHub, ADA};
use protocol::frame::{SUBPROTOCOL_JSON, TOKEN_SUBPROTOCOL_PREFIX};
use protocol::Role;
use serde_json::Value;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Upgrades `/ws{query}` with `headers`: `Ok` on 101, else the status and the body.
async fn upgrade(
    hub: &TestHub,
    query: &str,
    headers: &[(&'static str, String)],
) -> Result<(), (u16, Value)> {
    let mut request = format!("ws://{}/ws{query}", hub.addr)
        .into_client_request()
        .unwrap();
    for (name, value) in headers {
        request.headers_mut().insert(*name, value.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok(_) => Ok(()),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            let body = response.body().as_deref().unwrap_or_default();
            let body = serde_json::from_slice(body).unwrap_or(Value::Null);
            Err((response.status().as_u16(), body))
        }
        Err(other) => panic!("{other}"),
    }
}

#[tokio::test]
async fn a_token_in_the_url_is_refused_and_the_subprotocol_and_the_header_are_taken() {
    let hub = TestHub::start().await;
    let good = token(ADA, Role::Client, "Ada");

    let Err((status, body)) = upgrade(&hub, &format!("?token={good}"), &[]).await else {
        panic!("a token in the URL opened the socket");
    };
    assert_eq!(status, 401);
    assert_eq!(body["errors"][0]["status"], "401", "{body}");
    assert_eq!(body["errors"][0]["code"], "HUB__TOKEN_MISSING", "{body}");
    // Nor does it help a request whose own token is refused.
    let forged = [("authorization", "Bearer forged".to_owned())];
    let refused = upgrade(&hub, &format!("?token={good}"), &forged).await;
    assert_eq!(refused.map_err(|(status, _)| status), Err(401));

    let offered = format!("{SUBPROTOCOL_JSON}, {TOKEN_SUBPROTOCOL_PREFIX}{good}");
    let subprotocol = [("sec-websocket-protocol", offered)];
    assert_eq!(upgrade(&hub, "", &subprotocol).await, Ok(()));
    let header = [("authorization", format!("Bearer {good}"))];
    assert_eq!(upgrade(&hub, "", &header).await, Ok(()));
}
