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
    #[arg(
        long,
        env = "STORE_CONTEXT_CLEANUP_INTERVAL_SECS",
        default_value_t = 600
    )]
    pub store_context_cleanup_interval_secs: u64,
    /// Addresses (IPs or CIDR ranges, comma-separated) of reverse proxies whose
    /// `X-Forwarded-For`, `-Host` and `-Proto` are believed: the client's address for
    /// rate limits and the request's origin. From any other peer they are ignored.
    #[arg(
        long,
        env = "TRUSTED_PROXIES",
        value_delimiter = ',',
        default_value = "127.0.0.1,::1"
    )]
    pub trusted_proxies: Vec<Net>,
    /// Further origins of the shop (comma-separated, e.g. `https://www.shop.example`)
    /// besides `SHOP_ENDPOINT`: a mailed link (`storefrontUrl`) must start with one of them.
    #[arg(long, env = "SHOP_DOMAINS", value_delimiter = ',')]
    pub shop_domains: Vec<String>,
    /// The domains the merchant gave the sales channel (`sales_channel_domain`), read at
    /// start and after every write of one; shop origins besides the environment's.
    #[arg(skip)]
    pub merchant_domains: MerchantDomains,
    /// Origins (comma-separated, e.g. `https://www.brand.example`) whose pages may embed
    /// the attendee's room in a frame; every other page refuses framing. Empty: none.
    #[arg(long, env = "FRAME_ANCESTORS", value_delimiter = ',')]
    pub frame_ancestors: Vec<String>,
    /// Failed logins per account and client address before waits begin (Shopware's
    /// login rate limiter: then 10 s, from 1.5× this many 30 s, from 2× 60 s, reset
    /// after 24 hours without a failure). The account alone (any address) gets twice
    /// this many, one client address (any account) five times.
    #[arg(long, env = "LOGIN_FREE_ATTEMPTS", default_value_t = 10)]
    pub login_free_attempts: u32,
    /// Mails (password recovery, newsletter, contact form) a client address may ask for
    /// before waits begin (then 30 s, from 1.5× 60 s, from 2× 90 s; reset after 24 hours
    /// of quiet). One recipient gets half as many from all addresses together.
    #[arg(long, env = "MAIL_FREE_REQUESTS", default_value_t = 10)]
    pub mail_free_requests: u32,
    /// Guest joins of live appointments per client address and minute (a burst of as
    /// many, then evenly); 0 turns the limit off.
    #[arg(long, env = "JOINS_PER_MINUTE", default_value_t = 120)]
    pub joins_per_minute: u32,
    /// Customer registrations per client address and minute (burst, then evenly); 0
    /// turns the limit off.
    #[arg(long, env = "REGISTRATIONS_PER_MINUTE", default_value_t = 20)]
    pub registrations_per_minute: u32,
    /// Password hashes computed at once (Argon2 takes ~19 MiB each). Unset: the number
    /// of cores.
    #[arg(long, env = "PASSWORD_CHECKS")]
    pub password_checks: Option<usize>,
    /// Password checks that may wait for a free slot; more are answered `429` at once.
    #[arg(long, env = "PASSWORD_CHECK_QUEUE", default_value_t = 64)]
    pub password_check_queue: usize,
    /// Store API requests per client address and second (a burst of
    /// `STORE_API_REQUEST_BURST`, then evenly); more are answered `429`
    /// (`FRAMEWORK__RATE_LIMIT_EXCEEDED`, with the wait). 0 turns the limit off.
    #[arg(long, env = "STORE_API_REQUESTS_PER_SECOND", default_value_t = 100)]
    pub store_api_requests_per_second: u32,
    /// The burst of `STORE_API_REQUESTS_PER_SECOND`.
    #[arg(long, env = "STORE_API_REQUEST_BURST", default_value_t = 1000)]
    pub store_api_request_burst: u32,
    /// Store API requests of one client address served at once; more wait (up to
    /// `STORE_API_CLIENT_QUEUE` of them), past that they are answered `429`. 0 turns the
    /// limit off.
    #[arg(long, env = "STORE_API_CLIENT_CONCURRENCY", default_value_t = 8)]
    pub store_api_client_concurrency: usize,
    /// Store API requests of one client address that may wait for one of its
    /// `STORE_API_CLIENT_CONCURRENCY` slots.
    #[arg(long, env = "STORE_API_CLIENT_QUEUE", default_value_t = 64)]
    pub store_api_client_queue: usize,
    /// Milliseconds each database read of a Store API request may take (one read
    /// transaction: the statements of a listing or search); a read over it is stopped
    /// and answered `503` (`SALESROOM__QUERY_TOO_EXPENSIVE`). 0 turns the budget off.
    #[arg(long, env = "STORE_API_QUERY_BUDGET_MS", default_value_t = 1000)]
    pub store_api_query_budget_ms: u64,
    /// Store API reads of one client address stopped at `STORE_API_QUERY_BUDGET_MS` per
    /// minute (a burst of as many, then evenly); past them the client is answered `429`
    /// (`FRAMEWORK__RATE_LIMIT_EXCEEDED`) until the next one is due. 0 turns it off.
    #[arg(long, env = "STORE_API_STOPPED_READS_PER_MINUTE", default_value_t = 3)]
    pub store_api_stopped_reads_per_minute: u32,
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
    parse_iso_duration(text)
        .ok_or_else(|| format!("not an ISO 8601 duration of days to seconds: {text}"))
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
        Config {
            data_dir: data_dir.into(),
            ..config
        }
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
        Some(
            match self.sfu_public_ip.unwrap_or(IpAddr::from([127, 0, 0, 1])) {
                IpAddr::V4(ip) => format!("ws://{ip}:{}", self.sfu_port),
                IpAddr::V6(ip) => format!("ws://[{ip}]:{}", self.sfu_port),
            },
        )
    }

    /// The origins a mailed link may point at: `SHOP_ENDPOINT` and `SHOP_DOMAINS`
    /// (without either, this server's own loopback origins `http://127.0.0.1:PORT`,
    /// `http://localhost:PORT`), then the domains the merchant gave the sales channel
    /// ([`MerchantDomains`]). Never the request's `Host` or `X-Forwarded-Host`.
    pub fn shop_origins(&self) -> Vec<String> {
        let mut origins = self.environment_origins();
        for url in self.merchant_domains.urls() {
            if !origins.iter().any(|known| known.eq_ignore_ascii_case(&url)) {
                origins.push(url);
            }
        }
        origins
    }

    /// `SHOP_ENDPOINT` and `SHOP_DOMAINS`, else this server's loopback origins.
    fn environment_origins(&self) -> Vec<String> {
        let mut origins: Vec<String> = self
            .shop_endpoint
            .iter()
            .chain(self.shop_domains.iter())
            .map(|origin| origin.trim().trim_end_matches('/').to_owned())
            .filter(|origin| !origin.is_empty())
            .collect();
        if origins.is_empty() {
            origins = vec![
                format!("http://127.0.0.1:{}", self.port),
                format!("http://localhost:{}", self.port),
            ];
        }
        origins
    }

    /// The origins of [`Config::shop_origins`], parsed ([`Origin`]); a browser page of one
    /// of them may open the hub's socket. Parsed once, at start (`security::Security`).
    pub fn shop_origin_set(&self) -> Vec<Origin> {
        let mut origins: Vec<Origin> = Vec::new();
        for origin in self
            .shop_origins()
            .iter()
            .filter_map(|url| Origin::parse(url))
        {
            if !origins.contains(&origin) {
                origins.push(origin);
            }
        }
        origins
    }

    /// The hub's HTTP base URL.
    pub fn hub_http_url(&self) -> String {
        let base = self
            .hub_url
            .clone()
            .unwrap_or_else(|| format!("http://127.0.0.1:{}", self.hub_port));
        base.trim_end_matches('/').to_owned()
    }

    pub fn hub_ws_url(&self) -> String {
        let base = self.hub_http_url();
        let base = base
            .replacen("https://", "wss://", 1)
            .replacen("http://", "ws://", 1);
        format!("{base}/ws")
    }

    /// The hub URL for browsers, if it can be known without a request.
    pub fn public_hub_url(&self) -> Option<String> {
        if let Some(url) = &self.public_hub_url {
            return Some(url.clone());
        }
        let endpoint = self.shop_endpoint.as_deref()?.trim_end_matches('/');
        let ws = endpoint
            .replacen("https://", "wss://", 1)
            .replacen("http://", "ws://", 1);
        Some(format!("{ws}/ws"))
    }
}

/// The domains the merchant gave the sales channel (`sales_channel_domain.url`), shared
/// by every clone of the [`Config`]: read at start and after each Admin API write of a
/// domain or sales channel (`admin_api`), so a new domain is at once one of
/// [`Config::shop_origins`] (mailed links, the `/ws` origin check, the CSP's
/// `connect-src`). `generation` counts the changes, for what is built from them.
#[derive(Clone, Default)]
pub struct MerchantDomains {
    inner: std::sync::Arc<std::sync::RwLock<(u64, Vec<String>)>>,
}

impl MerchantDomains {
    /// The URLs, without a trailing slash.
    pub fn urls(&self) -> Vec<String> {
        self.inner
            .read()
            .map(|guard| guard.1.clone())
            .unwrap_or_default()
    }

    /// How often the URLs changed since start.
    pub fn generation(&self) -> u64 {
        self.inner.read().map(|guard| guard.0).unwrap_or_default()
    }

    /// Replaces the URLs (`http(s)://` ones only, without a trailing slash).
    pub fn set(&self, urls: impl IntoIterator<Item = String>) {
        let urls: Vec<String> = urls
            .into_iter()
            .map(|url| url.trim().trim_end_matches('/').to_owned())
            .filter(|url| Origin::parse(url).is_some())
            .collect();
        if let Ok(mut guard) = self.inner.write() {
            if guard.1 != urls {
                guard.0 += 1;
                guard.1 = urls;
            }
        }
    }

    /// Reads them from the shop's `sales_channel_domain` table.
    pub fn load(&self, conn: &rusqlite::Connection) -> rusqlite::Result<()> {
        let mut statement =
            conn.prepare("SELECT url FROM sales_channel_domain ORDER BY created_at, url")?;
        let urls = statement
            .query_map([], |row| row.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        self.set(urls);
        Ok(())
    }
}

/// A web origin: scheme (`http`, `https`, `ws`, `wss`), host and port, normalised by
/// the `url` crate (lowercase, an IDN in ASCII, the scheme's default port left out), so
/// that origins compare by value. Written as a browser sends it in `Origin`:
/// `https://shop.example`, `http://127.0.0.1:8000`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Origin {
    scheme: &'static str,
    host: String,
    port: Option<u16>,
}

impl Origin {
    /// The origin of `url` (its path, query and fragment do not matter); none for another
    /// scheme, a URL without a host, or a host that is not a plain domain or address.
    pub fn parse(url: &str) -> Option<Origin> {
        let url = reqwest::Url::parse(url.trim()).ok()?;
        let scheme = match url.scheme() {
            "http" => "http",
            "https" => "https",
            "ws" => "ws",
            "wss" => "wss",
            _ => return None,
        };
        // A domain (ASCII after the url crate's IDNA), an IPv4 or a bracketed IPv6 address.
        let host = url.host_str()?;
        let plain = host.starts_with('[')
            || (!host.is_empty()
                && host
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_')));
        if !plain {
            return None;
        }
        let host = host.to_owned();
        Some(Origin {
            scheme,
            host,
            port: url.port(),
        })
    }

    /// The same host and port over the other protocol (`https` ↔ `wss`, `http` ↔ `ws`):
    /// livekit-client opens `wss://host` and also fetches `https://host/rtc/validate`.
    pub fn twin(&self) -> Origin {
        let scheme = match self.scheme {
            "http" => "ws",
            "https" => "wss",
            "ws" => "http",
            _ => "https",
        };
        Origin {
            scheme,
            ..self.clone()
        }
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}://{}", self.scheme, self.host)?;
        if let Some(port) = self.port {
            write!(f, ":{port}")?;
        }
        Ok(())
    }
}

/// An IP address or a CIDR range (`10.0.0.0/8`, `::1`), as `TRUSTED_PROXIES` lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Net {
    pub addr: IpAddr,
    pub prefix: u8,
}

impl Net {
    pub fn contains(&self, ip: IpAddr) -> bool {
        // An IPv4 peer may come as an IPv4-mapped IPv6 address.
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
            v4 => v4,
        };
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

impl std::str::FromStr for Net {
    type Err = String;

    fn from_str(text: &str) -> Result<Net, String> {
        let text = text.trim();
        let (addr, prefix) = match text.split_once('/') {
            Some((addr, prefix)) => (addr, Some(prefix)),
            None => (text, None),
        };
        let addr: IpAddr = addr
            .parse()
            .map_err(|_| format!("{text:?} is no IP address or CIDR range"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(prefix) => prefix
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("{text:?}: bad prefix length"))?,
            None => max,
        };
        Ok(Net { addr, prefix })
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
            .field(
                "admin_password",
                &self.admin_password.as_ref().map(|_| "<hidden>"),
            )
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
        assert!(
            config.hub_url.is_none()
                && config.upstream_url.is_none()
                && config.hub_secret.is_none()
        );
        assert!(config.demo && config.admin_password.is_none());
        assert_eq!(config.hub_http_url(), "http://127.0.0.1:8100");
        assert_eq!(
            config.trusted_proxies,
            vec!["127.0.0.1".parse::<Net>().unwrap(), "::1".parse().unwrap()]
        );
        assert_eq!(
            config.shop_origins(),
            vec!["http://127.0.0.1:8000", "http://localhost:8000"]
        );
    }

    #[test]
    fn origins_are_normalised_and_nothing_else_parses() {
        let origin = |url: &str| Origin::parse(url).map(|o| o.to_string());
        assert_eq!(
            origin("HTTPS://Shop.Example:443/de/?x#y").as_deref(),
            Some("https://shop.example")
        );
        assert_eq!(
            origin("http://127.0.0.1:8000/").as_deref(),
            Some("http://127.0.0.1:8000")
        );
        assert_eq!(
            origin("ws://[::1]:8100/ws").as_deref(),
            Some("ws://[::1]:8100")
        );
        assert_eq!(
            Origin::parse("wss://lk.example.com/rtc")
                .unwrap()
                .twin()
                .to_string(),
            "https://lk.example.com"
        );
        assert_eq!(
            Origin::parse("http://a.example"),
            Origin::parse("http://A.example:80")
        );
        for bad in [
            "",
            "null",
            "shop.example",
            "javascript:alert(1)",
            "file:///etc/passwd",
            "https://a.example; script-src *",
            "https://a.example;x",
            "https://",
        ] {
            assert_eq!(Origin::parse(bad), None, "{bad}");
        }
        let config = Config {
            shop_endpoint: Some("https://Shop.example/".into()),
            shop_domains: vec!["https://shop.example/en".into(), "nonsense".into()],
            ..Config::for_data_dir("/tmp/shop")
        };
        assert_eq!(
            config.shop_origin_set(),
            vec![Origin::parse("https://shop.example").unwrap()]
        );
    }

    #[test]
    fn nets_hold_their_addresses() {
        let net: Net = "10.1.0.0/16".parse().unwrap();
        assert!(
            net.contains("10.1.200.3".parse().unwrap())
                && !net.contains("10.2.0.1".parse().unwrap())
        );
        let one: Net = "127.0.0.1".parse().unwrap();
        assert!(
            one.contains("::ffff:127.0.0.1".parse().unwrap())
                && !one.contains("127.0.0.2".parse().unwrap())
        );
        assert!("0.0.0.0/0"
            .parse::<Net>()
            .unwrap()
            .contains("203.0.113.9".parse().unwrap()));
        assert!("fd00::/8"
            .parse::<Net>()
            .unwrap()
            .contains("fd12::1".parse().unwrap()));
        assert!("10.0.0.0/33".parse::<Net>().is_err() && "evil".parse::<Net>().is_err());
    }

    #[test]
    fn the_video_url_is_livekit_url_else_the_embedded_sfu_once_its_key_file_exists() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config::for_data_dir(dir.path());
        assert_eq!(config.livekit_url(), None);
        std::fs::write(dir.path().join(LIVEKIT_KEY_FILE), "APIabc: secret\n").unwrap();
        assert_eq!(config.livekit_url().as_deref(), Some("ws://127.0.0.1:7880"));
        let announced = Config {
            sfu_port: 9000,
            sfu_public_ip: Some("203.0.113.5".parse().unwrap()),
            ..Config::for_data_dir(dir.path())
        };
        assert_eq!(
            announced.livekit_url().as_deref(),
            Some("ws://203.0.113.5:9000")
        );
        let external = Config {
            livekit_url: Some("wss://lk.example.com".into()),
            ..Config::for_data_dir(dir.path())
        };
        assert_eq!(
            external.livekit_url().as_deref(),
            Some("wss://lk.example.com")
        );
    }
}

#[cfg(test)]
mod duration_tests {
    use super::parse_iso_duration;
    use std::time::Duration;

    #[test]
    fn iso_durations() {
        assert_eq!(parse_iso_duration("P1D"), Some(Duration::from_secs(86_400)));
        assert_eq!(
            parse_iso_duration("PT12H"),
            Some(Duration::from_secs(43_200))
        );
        assert_eq!(
            parse_iso_duration("P1DT2H30M"),
            Some(Duration::from_secs(86_400 + 9_000))
        );
        assert_eq!(parse_iso_duration("PT90S"), Some(Duration::from_secs(90)));
        assert_eq!(
            parse_iso_duration("P2W"),
            Some(Duration::from_secs(14 * 86_400))
        );
        for bad in ["", "P", "PT", "1D", "P1H", "PT1D", "P1.5D", "P0D", "PXD"] {
            assert_eq!(parse_iso_duration(bad), None, "{bad}");
        }
    }
}
