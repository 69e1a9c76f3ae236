//! An embedded media server (SFU) that speaks LiveKit's signalling protocol, so that
//! livekit-client connects to it unchanged. See `README.md` for what it covers.
//!
//! Import graph, bottom to top: `error`, `config`, `auth`, `sdp` → `engine` (media and
//! rooms) → `state` → `signal` (the `/rtc` WebSocket), `room_service` (the server API) →
//! `server` (router assembly). `metrics` (counters for `/metrics`) sits beside `error`.

pub mod auth;
pub mod config;
pub mod engine;
pub mod error;
pub mod metrics;
pub mod room_service;
pub mod sdp;
pub mod server;
pub mod signal;
pub mod state;

pub use config::{Config, Credentials};
pub use error::Error;
