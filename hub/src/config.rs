use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Hub settings, from flags or the environment (CONTRACT.md).
#[derive(Clone, clap::Parser)]
#[command(name = "hub", about = "Salesroom realtime hub")]
pub struct Config {
    /// Listen address.
    #[arg(long, env = "BIND", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Listen port; 0 picks a free one.
    #[arg(long, env = "HUB_PORT", default_value_t = 8100)]
    pub port: u16,
    /// Where the hub keeps its files (and where the shared secret is read when
    /// `HUB_SECRET` is unset).
    #[arg(long, env = "DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
    /// Secret shared with storefront-proxy to verify hub session tokens. Unset: read from
    /// (or created in) `DATA_DIR/hub-secret`.
    #[arg(long, env = "HUB_SECRET", hide_env_values = true)]
    pub secret: Option<String>,
    /// Seconds between pings; a peer silent for twice as long is disconnected.
    #[arg(long, env = "HUB_HEARTBEAT_SECS", default_value_t = 15)]
    pub heartbeat_secs: u64,
    /// Frames queued per connection before a slow client is disconnected.
    #[arg(long, env = "HUB_SEND_QUEUE", default_value_t = 512)]
    pub send_queue: usize,
    /// Redis for cluster mode: replicas share order, history and state through it.
    #[arg(long, env = "REDIS_URL")]
    pub redis_url: Option<String>,
    /// LiveKit server clients connect to (e.g. `wss://livekit.example.com`). Unset: no video.
    #[arg(long, env = "LIVEKIT_URL")]
    pub livekit_url: Option<String>,
    #[arg(long, env = "LIVEKIT_API_KEY")]
    pub livekit_api_key: Option<String>,
    #[arg(long, env = "LIVEKIT_API_SECRET", hide_env_values = true)]
    pub livekit_api_secret: Option<String>,
    /// State events kept per appointment for resuming clients.
    #[arg(long, env = "HUB_RETAINED_EVENTS", default_value_t = 1024)]
    pub retained_events: usize,
}

impl Config {
    /// The Redis pub/sub for events between replicas, from `HUB_REDIS_PUBSUB`: `auto`
    /// (the default) uses sharded pub/sub where the server has it (Redis 7.0+), `sharded`
    /// or `classic` force one. (An environment variable rather than a field, so that
    /// code building a `Config` by hand needs no change.)
    pub fn redis_pubsub(&self) -> crate::cluster::PubSubMode {
        use clap::ValueEnum;
        match std::env::var("HUB_REDIS_PUBSUB") {
            Ok(value) => crate::cluster::PubSubMode::from_str(&value, true).unwrap_or_else(|_| {
                tracing::warn!(%value, "HUB_REDIS_PUBSUB is auto, sharded or classic; using auto");
                crate::cluster::PubSubMode::Auto
            }),
            Err(_) => crate::cluster::PubSubMode::Auto,
        }
    }

    pub fn heartbeat(&self) -> Duration {
        Duration::from_secs(self.heartbeat_secs.max(1))
    }

    /// The LiveKit server, when all three settings are there.
    pub fn livekit(&self) -> Option<crate::video::LiveKit> {
        match (&self.livekit_url, &self.livekit_api_key, &self.livekit_api_secret) {
            (Some(url), Some(key), Some(secret)) if !url.is_empty() && !key.is_empty() && !secret.is_empty() => {
                Some(crate::video::LiveKit::new(url.clone(), key.clone(), secret.clone()))
            }
            _ => None,
        }
    }

    /// The shared secret: `HUB_SECRET`, else the one in `DATA_DIR/hub-secret`, created on
    /// first use so that the proxy and the hub of `make up` agree without setup.
    pub fn load_secret(&self) -> anyhow::Result<Vec<u8>> {
        if let Some(secret) = &self.secret {
            return Ok(secret.as_bytes().to_vec());
        }
        Ok(protocol::token::load_or_create_secret(&self.data_dir)?)
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("bind", &self.bind)
            .field("port", &self.port)
            .field("data_dir", &self.data_dir)
            .field("redis", &self.redis_url.is_some())
            .field("livekit_url", &self.livekit_url)
            .field("heartbeat_secs", &self.heartbeat_secs)
            .field("send_queue", &self.send_queue)
            .field("retained_events", &self.retained_events)
            .finish_non_exhaustive()
    }
}
