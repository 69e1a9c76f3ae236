//! The hub's integration tests, one binary: each module is a suite against real hubs on
//! port 0 (cluster: hub processes and a real `redis-server`), through the one harness,
//! `hub::testing` ([`TestHub`], [`TestClient`]). `tests/idle_memory.rs` stays a binary of
//! its own: it counts allocations with a global allocator.
//!
//! [`Client`] is the harness's client with each suite's own helpers (`impl Client` in the
//! suite's module).

mod cluster;
mod engagement;
mod layering;
mod limits;
mod origin;
mod polls;
mod questions;
mod tokens;
mod video;
mod websocket;

use std::ops::{Deref, DerefMut};

use hub::testing::TestClient;
use protocol::codec::Codec;
use protocol::{Role, Snapshot};

/// A [`TestClient`] that the suites add helpers to.
pub struct Client(pub TestClient);

impl Client {
    /// See [`TestClient::join`].
    pub async fn join(
        addr: &str,
        attendee: &str,
        role: Role,
        name: &str,
        codec: Codec,
    ) -> (Client, Snapshot) {
        let (client, snapshot) = TestClient::join(addr, attendee, role, name, codec).await;
        (Client(client), snapshot)
    }

    /// See [`TestClient::connect`].
    pub async fn connect(addr: &str, token: &str, codec: Codec) -> Client {
        Client(TestClient::connect(addr, token, codec).await)
    }
}

impl Deref for Client {
    type Target = TestClient;

    fn deref(&self) -> &TestClient {
        &self.0
    }
}

impl DerefMut for Client {
    fn deref_mut(&mut self) -> &mut TestClient {
        &mut self.0
    }
}

/// A hub with the harness's defaults; its address.
pub async fn start() -> String {
    hub::testing::TestHub::start().await.addr
}

/// Publishes an event to everyone through the internal API, as storefront-proxy does (the
/// presentation's start and end); its seq.
pub async fn publish_to_everyone(addr: &str, event: serde_json::Value) -> u64 {
    hub::testing::publish(addr, serde_json::json!({"to": "everyone"}), event).await
}
