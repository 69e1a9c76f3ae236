//! The application state every handler gets: configuration, the database, the hub
//! client and the sink of shop events.
//!
//! This module sits at the bottom of the crate: it imports no shop domain, so every
//! domain may use [`App`] without an import cycle. Which domain listens to the shop's
//! events is decided where the application is assembled (`app.rs`).

use std::sync::Arc;

use crate::config::Config;
use crate::hub_client::HubClient;
use crate::security::Security;
use crate::shop_event::ShopEvents;
use crate::storage::Db;
use crate::upstream::Upstream;

/// Shared state of all handlers. Cheap to clone.
#[derive(Clone)]
pub struct App {
    pub config: Arc<Config>,
    pub db: Db,
    pub hub_secret: Arc<Vec<u8>>,
    /// The hub's internal API.
    pub hub: HubClient,
    /// Set in upstream mode: the shop APIs are a real Shopware 6.
    pub upstream: Option<Upstream>,
    /// Where the shop domains tell what changed (a cart, a wishlist); the live rooms
    /// listen there.
    pub events: ShopEvents,
    /// Dials the hub for relayed `/ws` upgrades: no overall timeout (a relayed socket
    /// lives for the whole session), no pooling (an upgraded connection is the
    /// browser's alone).
    pub hub_socket: reqwest::Client,
    /// Client addresses, throttles, bounded password hashing (issue #29).
    pub security: Arc<Security>,
}

impl axum::extract::FromRef<App> for Arc<Security> {
    fn from_ref(app: &App) -> Arc<Security> {
        app.security.clone()
    }
}
