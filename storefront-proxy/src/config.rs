use std::net::IpAddr;
use std::path::PathBuf;

/// The file the embedded `sfu` writes its key pair to, in `DATA_DIR`.
pub const LIVEKIT_KEY_FILE: &str = "livekit-keys.yaml";

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
    /// The LiveKit server browsers use for video (handed to the app). Unset: the embedded
    /// `sfu`, once it has written its key file into `DATA_DIR` (see `livekit_url()`).
    #[arg(long, env = "LIVEKIT_URL")]
    pub livekit_url: Option<String>,
    /// Signalling port of the embedded `sfu` (used when `LIVEKIT_URL` is unset).
    #[arg(long, env = "SFU_PORT", default_value_t = 7880)]
    pub sfu_port: u16,
    /// The address the embedded `sfu` announces; browsers reach its signalling there too.
    #[arg(long, env = "SFU_PUBLIC_IP")]
    pub sfu_public_ip: Option<IpAddr>,
    /// The built web app.
    #[arg(long, env = "WEB_DIST", default_value = "web/dist")]
    pub web_dist: PathBuf,
    /// First start with the demo shop (1, the default) or an empty shop with one admin
    /// user (0).
    #[arg(long, env = "DEMO", default_value = "1", value_parser = clap::builder::BoolishValueParser::new())]
    pub demo: bool,
    /// The first admin user's password on first start. Unset: `shopware` with the
    /// demo, generated and printed once for an empty shop.
    #[arg(long, env = "ADMIN_PASSWORD", hide_env_values = true)]
    pub admin_password: Option<String>,
    /// Milliseconds a client may take to send a request's head (line and headers)
    /// before its connection is closed.
    #[arg(long, env = "PROXY_HEADER_READ_TIMEOUT_MS", default_value_t = listener::HEADER_READ_TIMEOUT.as_millis() as u64)]
    pub header_read_timeout_ms: u64,
    /// HTTP connections served at once (a `/ws` counts until it is upgraded); more are
    /// answered `503` (`SALESROOM__TOO_MANY_CONNECTIONS`) and closed.
    #[arg(long, env = "PROXY_MAX_HTTP_CONNECTIONS", default_value_t = listener::MAX_CONNECTIONS)]
    pub max_http_connections: usize,
    /// How long a store session (`sw-context-token`) lives after its last change, as an
    /// ISO 8601 duration (Shopware's `shopware.api.store.context_lifetime`): `P1D`,
    /// `PT12H`, `P7D`. After it the token no longer names the session (nor its login).
    #[arg(long, env = "STORE_CONTEXT_LIFETIME", default_value = "P1D", value_parser = parse_lifetime)]
    pub store_context_lifetime: std::time::Duration,
    /// Seconds between two clean-ups of expired store sessions.
    #[arg(long, env = "STORE_CONTEXT_CLEANUP_INTERVAL_SECS", default_value_t = 600)]
    pub store_context_cleanup_interval_secs: u64,
}

/// Parses an ISO 8601 duration of days, hours, minutes and seconds (`P1D`, `PT12H`,
/// `P1DT2H30M`, `PT90S`), as Shopware's `context_lifetime`.
pub fn parse_iso_duration(text: &str) -> Option<std::time::Duration> {
    let rest = text.trim().strip_prefix(['P', 'p'])?;
    let (date, time) = match rest.split_once(['T', 't']) {
        Some((date, time)) => (date, Some(time)),
        None => (rest, None),
    };
    let mut seconds: u64 = 0;
    let mut any = false;
    let mut take = |part: &str, units: &[(char, u64)]| -> Option<()> {
        let mut number = String::new();
        for c in part.chars() {
            if c.is_ascii_digit() {
                number.push(c);
                continue;
            }
            let unit = units.iter().find(|(u, _)| u.eq_ignore_ascii_case(&c))?.1;
            let n: u64 = number.parse().ok()?;
            seconds = seconds.checked_add(n.checked_mul(unit)?)?;
            number.clear();
            any = true;
        }
        number.is_empty().then_some(())
    };
    take(date, &[('W', 7 * 86_400), ('D', 86_400)])?;
    if let Some(time) = time {
        if time.is_empty() {
            return None;
        }
        take(time, &[('H', 3_600), ('M', 60), ('S', 1)])?;
    }
    (any && seconds > 0).then(|| std::time::Duration::from_secs(seconds))
}

fn parse_lifetime(text: &str) -> Result<std::time::Duration, String> {
    parse_iso_duration(text).ok_or_else(|| format!("not an ISO 8601 duration of days to seconds: {text}"))
}

impl Config {
    /// `STORE_CONTEXT_LIFETIME`.
    pub fn store_context_lifetime(&self) -> std::time::Duration {
        self.store_context_lifetime
    }

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

    /// The video server's URL for browsers: `LIVEKIT_URL`, else the embedded `sfu`'s
    /// (`ws://<SFU_PUBLIC_IP or 127.0.0.1>:<SFU_PORT>`) when its key file
    /// `DATA_DIR/livekit-keys.yaml` exists (the hub makes the same choice), else none.
    pub fn livekit_url(&self) -> Option<String> {
        if let Some(url) = self.livekit_url.as_ref().filter(|url| !url.is_empty()) {
            return Some(url.clone());
        }
        if !self.data_dir.join(LIVEKIT_KEY_FILE).is_file() {
            return None;
        }
        Some(match self.sfu_public_ip.unwrap_or(IpAddr::from([127, 0, 0, 1])) {
            IpAddr::V4(ip) => format!("ws://{ip}:{}", self.sfu_port),
            IpAddr::V6(ip) => format!("ws://[{ip}]:{}", self.sfu_port),
        })
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
            .field("demo", &self.demo)
            .field("admin_password", &self.admin_password.as_ref().map(|_| "<hidden>"))
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
        assert!(config.demo && config.admin_password.is_none());
        assert_eq!(config.hub_http_url(), "http://127.0.0.1:8100");
    }

    #[test]
    fn the_video_url_is_livekit_url_else_the_embedded_sfu_once_its_key_file_exists() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config::for_data_dir(dir.path());
        assert_eq!(config.livekit_url(), None);
        std::fs::write(dir.path().join(LIVEKIT_KEY_FILE), "APIabc: secret\n").unwrap();
        assert_eq!(config.livekit_url().as_deref(), Some("ws://127.0.0.1:7880"));
        let announced = Config { sfu_port: 9000, sfu_public_ip: Some("203.0.113.5".parse().unwrap()), ..Config::for_data_dir(dir.path()) };
        assert_eq!(announced.livekit_url().as_deref(), Some("ws://203.0.113.5:9000"));
        let external = Config { livekit_url: Some("wss://lk.example.com".into()), ..Config::for_data_dir(dir.path()) };
        assert_eq!(external.livekit_url().as_deref(), Some("wss://lk.example.com"));
    }
}

#[cfg(test)]
mod duration_tests {
    use super::parse_iso_duration;
    use std::time::Duration;

    #[test]
    fn iso_durations() {
        assert_eq!(parse_iso_duration("P1D"), Some(Duration::from_secs(86_400)));
        assert_eq!(parse_iso_duration("PT12H"), Some(Duration::from_secs(43_200)));
        assert_eq!(parse_iso_duration("P1DT2H30M"), Some(Duration::from_secs(86_400 + 9_000)));
        assert_eq!(parse_iso_duration("PT90S"), Some(Duration::from_secs(90)));
        assert_eq!(parse_iso_duration("P2W"), Some(Duration::from_secs(14 * 86_400)));
        for bad in ["", "P", "PT", "1D", "P1H", "PT1D", "P1.5D", "P0D", "PXD"] {
            assert_eq!(parse_iso_duration(bad), None, "{bad}");
        }
    }
}
