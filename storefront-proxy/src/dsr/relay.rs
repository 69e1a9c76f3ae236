//! The live rooms' side of the shop events: a change of an attendee's cart or wishlist
//! becomes `AttendeeCartChanged` / `AttendeeCollectionChanged` for the attendee and the
//! guides; also for a session that followed an attendee's (a login, or a guest's
//! registration at the checkout, answers a new token). Sessions that are no attendee's
//! are left alone.
//!
//! The events go through [`HubClient::publish_later`], the one ordered background
//! queue to the hub: a hub that is down or slow neither fails nor delays the shop call,
//! and the events of one attendee (cart, wishlist, and the likes the room publishes
//! itself) reach the hub in the order they happened.

use protocol::frame::{Collection, Event};
use protocol::internal::Audience;
use rusqlite::{Connection, OptionalExtension};

use super::attendee::Attendee;
use crate::hub_client::HubClient;
use crate::shop_event::{Delivery, ShopEvent, ShopEventSink};
use crate::storage::Db;

/// Listens to the shop's events (see [`crate::shop_event`]) for the live rooms.
pub struct RoomRelay {
    db: Db,
    hub: HubClient,
    /// Upstream mode: the attendees are those that joined through this proxy
    /// (`forwarded::attendees`), not the embedded shop's.
    forwarded: bool,
}

impl RoomRelay {
    /// For the embedded shop's attendees.
    pub fn new(db: Db, hub: HubClient) -> RoomRelay {
        RoomRelay {
            db,
            hub,
            forwarded: false,
        }
    }

    /// For upstream mode: the attendees the upstream shop let join through this proxy.
    pub fn forwarded(db: Db, hub: HubClient) -> RoomRelay {
        RoomRelay {
            db,
            hub,
            forwarded: true,
        }
    }

    /// The attendee whose store session `token` is, if one is in a room; a lookup that
    /// fails is logged (the shop call goes on).
    async fn attendee(&self, token: &str, what: &str) -> Option<Attendee> {
        let token = token.to_owned();
        let forwarded = self.forwarded;
        let found = self
            .db
            .call(move |conn| {
                Ok(if forwarded {
                    super::forwarded::attendees::by_context_token(conn, &token)?
                } else {
                    match joined_session(conn, &token)? {
                        Some(joined) => Attendee::by_context_token(conn, &joined)?,
                        None => None,
                    }
                })
            })
            .await;
        match found {
            Ok(attendee) => attendee.filter(|attendee| !attendee.removed),
            Err(error) => {
                tracing::warn!(
                    error = format!("{error:#}"),
                    "could not look up the attendee of a {what}"
                );
                None
            }
        }
    }

    fn publish(&self, attendee: &Attendee, event: Event) {
        self.hub.publish_later(
            &attendee.appointment_id,
            Audience::Attendee(attendee.id.clone()),
            event,
        );
    }

    async fn relay(&self, event: ShopEvent) {
        match event {
            ShopEvent::CartChanged {
                context_token,
                product_count,
                total_price,
            } => {
                // Only clients have carts the guides look at.
                let Some(attendee) = self
                    .attendee(&context_token, "cart")
                    .await
                    .filter(|a| a.kind == "CLIENT")
                else {
                    return;
                };
                let event = Event::AttendeeCartChanged {
                    attendee_id: attendee.id.clone(),
                    line_item_count: product_count,
                    total_price,
                };
                self.publish(&attendee, event);
            }
            ShopEvent::WishlistChanged {
                context_token,
                product_id,
                added,
            } => {
                let Some(attendee) = self.attendee(&context_token, "wishlist").await else {
                    return;
                };
                self.publish(&attendee, wishlist_changed(&attendee, product_id, added));
            }
            ShopEvent::WishlistMerged {
                context_token,
                added,
            } => {
                if added.is_empty() {
                    return;
                }
                let Some(attendee) = self.attendee(&context_token, "wishlist").await else {
                    return;
                };
                for product_id in added {
                    self.publish(&attendee, wishlist_changed(&attendee, product_id, true));
                }
            }
        }
    }
}

/// The session an attendee joined with that `token` is or followed (a login, or a
/// guest's registration at the checkout, answers a new token and the cart goes along;
/// `store_context_successor`): the nearest one back.
fn joined_session(conn: &Connection, token: &str) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached(
        "WITH RECURSIVE back(token, depth) AS (
           SELECT ?1, 0
           UNION
           SELECT f.token, b.depth + 1 FROM store_context_successor f JOIN back b ON f.successor = b.token
           WHERE b.depth < 100)
         SELECT b.token FROM back b WHERE EXISTS (SELECT 1 FROM attendee a WHERE a.context_token = b.token)
         ORDER BY b.depth LIMIT 1",
    )?
    .query_row([token], |r| r.get(0))
    .optional()
}

fn wishlist_changed(attendee: &Attendee, product_id: String, added: bool) -> Event {
    Event::AttendeeCollectionChanged {
        attendee_id: attendee.id.clone(),
        collection: Collection::Wishlist,
        product_id,
        added,
    }
}

impl ShopEventSink for RoomRelay {
    fn deliver(&self, event: ShopEvent) -> Delivery<'_> {
        Box::pin(self.relay(event))
    }
}
