use std::net::IpAddr;
use std::path::PathBuf;

/// storefront-proxy settings, from flags or the environment (CONTRACT.md).
#[derive(Clone, clap::Parser)]
#[command(name = "storefront-proxy", about = "Salesroom public origin")]
pub struct Config {
    /// Listen address.
    #[arg(long, env = "BIND", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Listen port (the public origin); 0 picks a free one.
    #[arg(long, env = "PORT", default_value_t = 8000)]
    pub port: u16,
    /// The hub's port on this host, used when `HUB_URL` is unset.
    #[arg(long, env = "HUB_PORT", default_value_t = 8100)]
    pub hub_port: u16,
    /// Base URL of the hub for the proxy itself (WebSocket forwarding).
    #[arg(long, env = "HUB_URL")]
    pub hub_url: Option<String>,
    /// The WebSocket URL browsers use for the hub. Unset: `/ws` on `SHOP_ENDPOINT`
    /// (this proxy forwards it).
    #[arg(long, env = "PUBLIC_HUB_URL")]
    pub public_hub_url: Option<String>,
    /// Secret shared with the hub for session tokens. Unset: `DATA_DIR/hub-secret`.
    #[arg(long, env = "HUB_SECRET", hide_env_values = true)]
    pub hub_secret: Option<String>,
    /// Embedded shop data (SQLite) and other files.
    #[arg(long, env = "DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
    /// Base URL the web app calls; handed to it in `/runtime-config.json`.
    #[arg(long, env = "SHOP_ENDPOINT")]
    pub shop_endpoint: Option<String>,
    /// Sales channel access key the web app sends.
    #[arg(long, env = "SHOP_ACCESS_TOKEN")]
    pub shop_access_token: Option<String>,
    /// Forward `/store-api` and `/api` to this Shopware 6 instead of the embedded shop.
    #[arg(long, env = "UPSTREAM_URL")]
    pub upstream_url: Option<String>,
    #[arg(long, env = "LIVEKIT_URL")]
    pub livekit_url: Option<String>,
    /// The built web app.
    #[arg(long, env = "WEB_DIST", default_value = "web/dist")]
    pub web_dist: PathBuf,
    /// Milliseconds a client may take to send a request's head (line and headers)
    /// before its connection is closed.
    #[arg(long, env = "PROXY_HEADER_READ_TIMEOUT_MS", default_value_t = listener::HEADER_READ_TIMEOUT.as_millis() as u64)]
    pub header_read_timeout_ms: u64,
    /// HTTP connections served at once (a `/ws` counts until it is upgraded); more are
    /// answered `503` (`SALESROOM__TOO_MANY_CONNECTIONS`) and closed.
    #[arg(long, env = "PROXY_MAX_HTTP_CONNECTIONS", default_value_t = listener::MAX_CONNECTIONS)]
    pub max_http_connections: usize,
}

impl Config {
    /// Every setting at its default, as `storefront-proxy` without flags would have it,
    /// but with the data under `data_dir` and without reading the environment (a test
    /// does not depend on the shell it runs in). For tests and programs that embed the
    /// proxy; change what differs with struct update syntax:
    /// `Config { port, hub_port, ..Config::for_data_dir(dir) }`.
    pub fn for_data_dir(data_dir: impl Into<PathBuf>) -> Config {
        use clap::{CommandFactory, FromArgMatches};
        let command = Config::command().mut_args(|arg| arg.env(None::<&'static str>));
        // As `Parser::parse_from` does: the defaults always parse; if they did not, that
        // is a mistake in the declarations above, reported the way clap reports it.
        let matches = command.get_matches_from(["storefront-proxy"]);
        let config = Config::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
        Config { data_dir: data_dir.into(), ..config }
    }

    /// The hub's HTTP base URL.
    pub fn hub_http_url(&self) -> String {
        let base = self.hub_url.clone().unwrap_or_else(|| format!("http://127.0.0.1:{}", self.hub_port));
        base.trim_end_matches('/').to_owned()
    }

    pub fn hub_ws_url(&self) -> String {
        let base = self.hub_http_url();
        let base = base.replacen("https://", "wss://", 1).replacen("http://", "ws://", 1);
        format!("{base}/ws")
    }

    /// The hub URL for browsers, if it can be known without a request.
    pub fn public_hub_url(&self) -> Option<String> {
        if let Some(url) = &self.public_hub_url {
            return Some(url.clone());
        }
        let endpoint = self.shop_endpoint.as_deref()?.trim_end_matches('/');
        let ws = endpoint.replacen("https://", "wss://", 1).replacen("http://", "ws://", 1);
        Some(format!("{ws}/ws"))
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("bind", &self.bind)
            .field("port", &self.port)
            .field("hub_url", &self.hub_ws_url())
            .field("data_dir", &self.data_dir)
            .field("shop_endpoint", &self.shop_endpoint)
            .field("upstream_url", &self.upstream_url)
            .field("hub_secret", &self.hub_secret.as_ref().map(|_| "<hidden>"))
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn for_data_dir_has_the_defaults_and_the_data_dir() {
        let config = Config::for_data_dir("/tmp/shop");
        assert_eq!(config.data_dir, PathBuf::from("/tmp/shop"));
        assert_eq!(config.bind, IpAddr::from([127, 0, 0, 1]));
        assert_eq!((config.port, config.hub_port), (8000, 8100));
        assert_eq!(config.web_dist, PathBuf::from("web/dist"));
        assert!(config.hub_url.is_none() && config.upstream_url.is_none() && config.hub_secret.is_none());
        assert_eq!(config.hub_http_url(), "http://127.0.0.1:8100");
    }
}
