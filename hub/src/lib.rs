//! The Salesroom hub: live appointment state with ordered, resumable fan-out over
//! WebSocket. See ARCHITECTURE.md.

pub mod app;
pub mod cluster;
pub mod config;
pub mod drain;
pub mod error;
pub mod internal;
pub mod limits;
pub mod live;
pub mod metrics;
pub mod server;
pub mod store;
#[cfg(feature = "testing")]
pub mod testing;
pub mod video;
pub mod ws;

pub use app::Hub;
pub use config::Config;
pub use error::HubError;
