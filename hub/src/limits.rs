//! The hub's limits on HTTP connections, applied by the accept loop it shares with
//! storefront-proxy (`listener`): a header read timeout, a cap on concurrent HTTP
//! connections answered with `503` `HUB__TOO_MANY_CONNECTIONS` when full. (WebSocket
//! messages are limited in `server`: `MAX_MESSAGE_SIZE`.)

use std::time::Duration;

use crate::config::Config;
pub use crate::config::MAX_REQUEST_BODY;
use crate::error::HubError;

pub fn of(config: &Config) -> listener::Limits {
    listener::Limits {
        header_read_timeout: Duration::from_millis(config.header_read_timeout_ms.max(1)),
        max_connections: config.max_http_connections.max(1),
        full_answer: HubError::TooManyConnections.body().1.to_string(),
    }
}
