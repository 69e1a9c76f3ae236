use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Request bodies larger than this are refused with `413` (`HUB__BODY_TOO_LARGE`): a
/// fixed limit, not a setting. The internal API's bodies are events of a few KiB.
pub const MAX_REQUEST_BODY: usize = 2 * 1024 * 1024;

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
    /// Origins (comma-separated) of pages that may open `/ws` on the hub directly (when
    /// `PUBLIC_HUB_URL` sends browsers past storefront-proxy). A browser's socket with any
    /// other `Origin` is refused (cross-site WebSocket hijacking); empty: every browser
    /// page is refused, and browsers come through storefront-proxy's `/ws`, which checks
    /// the origin itself. Clients without an `Origin` (tools) are not affected.
    #[arg(long, env = "HUB_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,
    /// Seconds between pings; a peer silent for twice as long is disconnected.
    #[arg(long, env = "HUB_HEARTBEAT_SECS", default_value_t = 15)]
    pub heartbeat_secs: u64,
    /// Frames queued per connection before a slow client is disconnected.
    #[arg(long, env = "HUB_SEND_QUEUE", default_value_t = 512)]
    pub send_queue: usize,
    /// Redis for cluster mode: replicas share order, history and state through it.
    #[arg(long, env = "REDIS_URL")]
    pub redis_url: Option<String>,
    /// LiveKit server clients connect to (e.g. `wss://livekit.example.com`). Unset: the
    /// embedded `sfu` when it has written its key file into `DATA_DIR` (`make up` starts
    /// it first), else no video.
    #[arg(long, env = "LIVEKIT_URL")]
    pub livekit_url: Option<String>,
    #[arg(long, env = "LIVEKIT_API_KEY")]
    pub livekit_api_key: Option<String>,
    #[arg(long, env = "LIVEKIT_API_SECRET", hide_env_values = true)]
    pub livekit_api_secret: Option<String>,
    /// Signalling port of the embedded `sfu` (used when `LIVEKIT_URL` is unset).
    #[arg(long, env = "SFU_PORT", default_value_t = 7880)]
    pub sfu_port: u16,
    /// The address the embedded `sfu` announces; browsers reach its signalling there too.
    #[arg(long, env = "SFU_PUBLIC_IP")]
    pub sfu_public_ip: Option<IpAddr>,
    /// Seconds a hub told to stop (SIGTERM, Ctrl-C) waits for its clients to move to
    /// another replica before it exits (see `drain.rs`).
    #[arg(long, env = "HUB_DRAIN_SECS", default_value_t = 5)]
    pub drain_secs: u64,
    /// State events kept per appointment for resuming clients; a room keeps at least
    /// three per participant it has known (`store::retained_events`), so that a reconnect
    /// storm's presence events do not push a resuming client out of the window.
    #[arg(long, env = "HUB_RETAINED_EVENTS", default_value_t = 1024)]
    pub retained_events: usize,
    /// Milliseconds between two samples of a running session (reaction taps, cart
    /// values) written into its log for the session report; at least 100.
    #[arg(long, env = "HUB_SESSION_SAMPLE_MS", default_value_t = 30_000)]
    pub session_sample_ms: u64,
    /// Milliseconds a client may take to send a request's head (line and headers)
    /// before its connection is closed.
    #[arg(long, env = "HUB_HEADER_READ_TIMEOUT_MS", default_value_t = listener::HEADER_READ_TIMEOUT.as_millis() as u64)]
    pub header_read_timeout_ms: u64,
    /// HTTP connections served at once (a WebSocket counts until it is upgraded); more
    /// are answered `503` (`HUB__TOO_MANY_CONNECTIONS`) and closed.
    #[arg(long, env = "HUB_MAX_HTTP_CONNECTIONS", default_value_t = listener::MAX_CONNECTIONS)]
    pub max_http_connections: usize,
}

impl Config {
    /// Every setting at its default (what `hub --help` lists), with the environment
    /// ignored, port 0 and the hub's files in `data_dir`: for tests and tools that start
    /// a hub in-process. Override what a test cares about with struct update syntax:
    /// `Config { retained_events: 16, ..Config::for_data_dir(dir) }`. Ignoring the
    /// environment keeps such a hub single-mode and without video even where `REDIS_URL`
    /// or `LIVEKIT_URL` is set for the real processes.
    ///
    /// # Panics
    ///
    /// Never in practice: the defaults are constants, parsed the way `main` parses flags
    /// (`config::tests` proves they parse).
    pub fn for_data_dir(data_dir: impl Into<PathBuf>) -> Config {
        use clap::{CommandFactory, FromArgMatches};
        let command = Config::command().mut_args(|arg| arg.env(None::<&str>));
        let parsed = command
            .try_get_matches_from(["hub"])
            .map_err(|e| e.to_string())
            .and_then(|matches| Config::from_arg_matches(&matches).map_err(|e| e.to_string()));
        let config = parsed
            .unwrap_or_else(|error| panic!("the hub's default settings do not parse: {error}"));
        Config {
            port: 0,
            data_dir: data_dir.into(),
            ..config
        }
    }

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

    /// The video server: the LiveKit server of `LIVEKIT_URL` (with its key and secret), or
    /// without `LIVEKIT_URL` the embedded `sfu` at `ws://<SFU_PUBLIC_IP or 127.0.0.1>:<SFU_PORT>`
    /// with `LIVEKIT_API_KEY`/`LIVEKIT_API_SECRET` or else the key pair the sfu generated into
    /// `DATA_DIR/livekit-keys.yaml`. No key file (the sfu never ran on this `DATA_DIR`): no video.
    pub fn livekit(&self) -> Option<crate::video::LiveKit> {
        let non_empty = |value: &Option<String>| value.as_ref().filter(|v| !v.is_empty()).cloned();
        let configured = non_empty(&self.livekit_api_key).zip(non_empty(&self.livekit_api_secret));
        let (url, (key, secret)) = match non_empty(&self.livekit_url) {
            Some(url) => (url, configured?),
            None => {
                let keys = match configured {
                    Some(keys) => keys,
                    None => crate::video::read_key_file(&self.data_dir)?,
                };
                (
                    crate::video::embedded_url(self.sfu_public_ip, self.sfu_port),
                    keys,
                )
            }
        };
        Some(crate::video::LiveKit::new(url, key, secret))
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
            .field("sfu_port", &self.sfu_port)
            .field("sfu_public_ip", &self.sfu_public_ip)
            .field("heartbeat_secs", &self.heartbeat_secs)
            .field("send_queue", &self.send_queue)
            .field("retained_events", &self.retained_events)
            .field("header_read_timeout_ms", &self.header_read_timeout_ms)
            .field("max_http_connections", &self.max_http_connections)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::Config;

    #[test]
    fn a_test_config_has_the_defaults_without_the_environment() {
        // No other unit test of this crate reads the environment, so setting it is safe.
        std::env::set_var("HUB_RETAINED_EVENTS", "7");
        let config = Config::for_data_dir("/tmp/somewhere");
        std::env::remove_var("HUB_RETAINED_EVENTS");
        assert_eq!(config.data_dir, std::path::PathBuf::from("/tmp/somewhere"));
        assert_eq!(
            (config.port, config.bind.to_string()),
            (0, "127.0.0.1".to_owned())
        );
        assert_eq!(
            (
                config.heartbeat_secs,
                config.send_queue,
                config.retained_events
            ),
            (15, 512, 1024)
        );
        assert!(
            config.redis_url.is_none() && config.livekit().is_none() && config.secret.is_none()
        );
    }

    #[test]
    fn without_livekit_url_the_embedded_sfu_serves_video_once_its_key_file_exists() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config::for_data_dir(dir.path());
        assert!(config.livekit().is_none(), "no key file, no sfu: no video");

        std::fs::write(
            dir.path().join(crate::video::KEY_FILE),
            "# written by the sfu\nAPIabc: s3cret-s3cret\n",
        )
        .unwrap();
        let embedded = config.livekit().unwrap();
        assert_eq!(embedded.url, "ws://127.0.0.1:7880");
        let announced = Config {
            sfu_port: 9000,
            sfu_public_ip: Some("203.0.113.5".parse().unwrap()),
            ..Config::for_data_dir(dir.path())
        };
        assert_eq!(announced.livekit().unwrap().url, "ws://203.0.113.5:9000");

        // LIVEKIT_URL set: that server, never the embedded one; without its key pair, no video.
        let external = Config {
            livekit_url: Some("wss://lk.example.com".into()),
            ..Config::for_data_dir(dir.path())
        };
        assert!(external.livekit().is_none());
        let external = Config {
            livekit_api_key: Some("k".into()),
            livekit_api_secret: Some("s".into()),
            ..external
        };
        assert_eq!(external.livekit().unwrap().url, "wss://lk.example.com");

        std::fs::write(dir.path().join(crate::video::KEY_FILE), "no pair here\n").unwrap();
        assert!(
            config.livekit().is_none(),
            "a key file without a pair: no video"
        );
    }
}
