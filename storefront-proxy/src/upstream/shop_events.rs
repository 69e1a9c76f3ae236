//! Upstream mode: the shop events of forwarded calls. A cart or wishlist call that the
//! upstream shop took is the same shop event the embedded cart and wishlist emit, so
//! the live rooms hear of it the same way (see `crate::shop_event`).

use axum::http::{HeaderMap, Method};
use serde_json::Value;

use super::Answer;
use crate::shop_event::ShopEvent;

const CONTEXT_TOKEN_HEADER: &str = "sw-context-token";

/// The shop events of a forwarded store API call (`path` from `/store-api`) that the
/// upstream answered with `answer`; none for a call it refused or that changes no
/// cart or wishlist.
pub fn of_forwarded_call(
    method: &Method,
    path: &str,
    headers: &HeaderMap,
    body: &[u8],
    answer: &Answer,
) -> Vec<ShopEvent> {
    if !answer.status.is_success() {
        return Vec::new();
    }
    // The session: the one the upstream answered for, else the one the call named; by
    // its key (the token's SHA-256), as embedded mode's events and the stored attendees.
    let token = [&answer.headers, headers]
        .into_iter()
        .find_map(|h| {
            h.get(CONTEXT_TOKEN_HEADER)
                .and_then(|v| v.to_str().ok())
                .filter(|v| !v.is_empty())
        })
        .map(crate::storage::sha256_hex);
    let Some(token) = token else {
        return Vec::new();
    };
    let Some(rest) = path.strip_prefix("/store-api/") else {
        return Vec::new();
    };
    let segments: Vec<&str> = rest.split('/').collect();
    match (method, segments.as_slice()) {
        // The cart is gone, or turned into an order.
        (&Method::DELETE, ["checkout", "cart"]) | (&Method::POST, ["checkout", "order"]) => {
            vec![ShopEvent::emptied_cart(token)]
        }
        (&Method::POST | &Method::PATCH | &Method::DELETE, ["checkout", "cart", "line-item"]) => {
            match answer.json() {
                Some(cart) if cart.get("lineItems").is_some() => {
                    vec![ShopEvent::cart_changed(&token, &cart)]
                }
                _ => Vec::new(),
            }
        }
        (&Method::POST, ["customer", "wishlist", "add", product_id]) => {
            vec![ShopEvent::WishlistChanged {
                context_token: token,
                product_id: (*product_id).to_owned(),
                added: true,
            }]
        }
        (&Method::DELETE, ["customer", "wishlist", "delete", product_id]) => {
            vec![ShopEvent::WishlistChanged {
                context_token: token,
                product_id: (*product_id).to_owned(),
                added: false,
            }]
        }
        (&Method::POST, ["customer", "wishlist", "merge"]) => {
            let added = serde_json::from_slice::<Value>(body)
                .ok()
                .and_then(|b| b.get("productIds").and_then(Value::as_array).cloned())
                .unwrap_or_default()
                .iter()
                .filter_map(|id| id.as_str().map(str::to_owned))
                .collect();
            vec![ShopEvent::WishlistMerged {
                context_token: token,
                added,
            }]
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use axum::http::StatusCode;
    use serde_json::json;

    use super::*;

    fn answer(status: StatusCode, body: Value) -> Answer {
        Answer {
            status,
            headers: HeaderMap::new(),
            body: body.to_string().into(),
        }
    }

    fn with_token(token: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(CONTEXT_TOKEN_HEADER, token.parse().unwrap());
        headers
    }

    #[test]
    fn a_cart_answer_is_a_cart_change_of_the_session() {
        let cart = json!({"lineItems": [{"type": "product"}, {"type": "promotion"}, {"type": "product"}], "price": {"totalPrice": 12.5}});
        let events = of_forwarded_call(
            &Method::POST,
            "/store-api/checkout/cart/line-item",
            &with_token("t"),
            b"{}",
            &answer(StatusCode::OK, cart),
        );
        assert_eq!(
            events,
            vec![ShopEvent::CartChanged {
                context_token: crate::storage::sha256_hex("t"),
                product_count: 2,
                total_price: 12.5
            }]
        );
    }

    #[test]
    fn refused_or_unrelated_calls_are_no_events() {
        let cart = json!({"lineItems": [], "price": {"totalPrice": 0}});
        let refused = answer(StatusCode::BAD_REQUEST, cart.clone());
        assert!(of_forwarded_call(
            &Method::POST,
            "/store-api/checkout/cart/line-item",
            &with_token("t"),
            b"",
            &refused
        )
        .is_empty());
        let read = answer(StatusCode::OK, cart.clone());
        assert!(of_forwarded_call(
            &Method::GET,
            "/store-api/checkout/cart",
            &with_token("t"),
            b"",
            &read
        )
        .is_empty());
        assert!(of_forwarded_call(
            &Method::POST,
            "/store-api/checkout/cart/line-item",
            &HeaderMap::new(),
            b"",
            &read
        )
        .is_empty());
    }

    #[test]
    fn wishlist_calls_are_wishlist_changes() {
        let ok = answer(StatusCode::OK, json!({"success": true}));
        let id = "a".repeat(32);
        let added = of_forwarded_call(
            &Method::POST,
            &format!("/store-api/customer/wishlist/add/{id}"),
            &with_token("t"),
            b"",
            &ok,
        );
        assert_eq!(
            added,
            vec![ShopEvent::WishlistChanged {
                context_token: crate::storage::sha256_hex("t"),
                product_id: id.clone(),
                added: true
            }]
        );
        let merged = of_forwarded_call(
            &Method::POST,
            "/store-api/customer/wishlist/merge",
            &with_token("t"),
            json!({"productIds": [id]}).to_string().as_bytes(),
            &ok,
        );
        assert_eq!(
            merged,
            vec![ShopEvent::WishlistMerged {
                context_token: crate::storage::sha256_hex("t"),
                added: vec!["a".repeat(32)]
            }]
        );
    }
}
