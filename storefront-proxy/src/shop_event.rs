//! Shop events: what a shop domain tells the rest of the application after it changed
//! a session's state (a cart, a wishlist), without knowing who listens.
//!
//! The shop domains (`cart`, `wishlist`) emit into the [`ShopEvents`] sink of the
//! application state; the live rooms (`dsr`) listen and turn the events of attendees'
//! sessions into hub events. The sink is chosen where the application is assembled, so
//! neither side imports the other. This module sits at the bottom of the crate and
//! imports no domain.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// Something the shop changed, named by the session (`sw-context-token`) it belongs to.
#[derive(Debug, Clone, PartialEq)]
pub enum ShopEvent {
    /// The session's cart was changed (items added, removed or their quantity changed).
    /// Carries the summary of the recalculated cart.
    CartChanged {
        context_token: String,
        /// How many product line items the cart holds (promotions not counted).
        product_count: u32,
        /// The cart's total price.
        total_price: f64,
    },
    /// A product was added to (`added`) or removed from the wishlist of the session's
    /// customer.
    WishlistChanged {
        context_token: String,
        product_id: String,
        added: bool,
    },
    /// A local wishlist was merged into the customer's (at login): `added` are the
    /// products that were not listed yet, in the order they were added.
    WishlistMerged {
        context_token: String,
        added: Vec<String>,
    },
}

impl ShopEvent {
    /// The event of a changed cart (`cart`: Shopware's `Cart` answer), with its summary:
    /// product lines and total.
    pub fn cart_changed(token: &str, cart: &serde_json::Value) -> ShopEvent {
        let products = cart["lineItems"]
            .as_array()
            .map(|items| items.iter().filter(|i| i["type"] == "product").count())
            .unwrap_or(0);
        ShopEvent::CartChanged {
            context_token: token.to_owned(),
            product_count: u32::try_from(products).unwrap_or(u32::MAX),
            total_price: cart["price"]["totalPrice"].as_f64().unwrap_or(0.0),
        }
    }

    /// The session's cart is empty now (deleted, or turned into an order).
    pub fn emptied_cart(context_token: String) -> Self {
        ShopEvent::CartChanged {
            context_token,
            product_count: 0,
            total_price: 0.0,
        }
    }
}

/// The work a sink does for one event.
pub type Delivery<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// A listener of shop events.
///
/// [`ShopEvents::emit`] awaits the delivery, so the events of a session reach the
/// listener in the order of the shop calls that caused them, before those calls
/// answer. A listener must therefore neither fail nor wait for anything slow or
/// remote: it logs what goes wrong and queues work for other services (the hub) in
/// the background.
pub trait ShopEventSink: Send + Sync + 'static {
    fn deliver(&self, event: ShopEvent) -> Delivery<'_>;
}

/// The sink of shop events on the application state. Cheap to clone.
#[derive(Clone)]
pub struct ShopEvents {
    sink: Arc<dyn ShopEventSink>,
}

impl ShopEvents {
    pub fn new(sink: impl ShopEventSink) -> ShopEvents {
        ShopEvents {
            sink: Arc::new(sink),
        }
    }

    /// A sink nobody listens to: events are dropped.
    pub fn ignored() -> ShopEvents {
        ShopEvents::new(Ignored)
    }

    /// Hands `event` to the listener; returns once it has taken it.
    pub async fn emit(&self, event: ShopEvent) {
        tracing::trace!(?event, "shop event");
        self.sink.deliver(event).await;
    }
}

impl fmt::Debug for ShopEvents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ShopEvents").finish_non_exhaustive()
    }
}

struct Ignored;

impl ShopEventSink for Ignored {
    fn deliver(&self, _: ShopEvent) -> Delivery<'_> {
        Box::pin(std::future::ready(()))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// Records what it is given.
    #[derive(Clone, Default)]
    struct Recorder(Arc<Mutex<Vec<ShopEvent>>>);

    impl ShopEventSink for Recorder {
        fn deliver(&self, event: ShopEvent) -> Delivery<'_> {
            Box::pin(async move { self.0.lock().unwrap().push(event) })
        }
    }

    #[tokio::test]
    async fn clones_deliver_to_the_one_listener_in_order() {
        let recorder = Recorder::default();
        let events = ShopEvents::new(recorder.clone());
        let wishlist = |added| ShopEvent::WishlistChanged {
            context_token: "t".into(),
            product_id: "p".into(),
            added,
        };
        events.emit(wishlist(true)).await;
        events.clone().emit(wishlist(false)).await;
        ShopEvents::ignored().emit(wishlist(true)).await;
        assert_eq!(
            *recorder.0.lock().unwrap(),
            vec![wishlist(true), wishlist(false)]
        );
    }
}
