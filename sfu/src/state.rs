//! What every request handler shares: the key pair and the way to the media engine.

use std::sync::Arc;

use crate::config::Credentials;
use crate::engine::EngineHandle;

/// Cheap to clone: an `Arc` of the credentials and the engine's channel.
#[derive(Clone, Debug)]
pub struct AppState {
    pub credentials: Arc<Credentials>,
    pub engine: EngineHandle,
}
