//! The security headers of every answer of the public origin (issue #29 item 13).
//!
//! - `Content-Security-Policy`: scripts, styles, fonts, workers and frames of this origin
//!   only (plus WebAssembly compilation for the background-blur model, whose runtime and
//!   model the origin serves itself under `/mediapipe/`); connections to this origin, the
//!   hub's public URL and the video server (`LIVEKIT_URL` or the embedded sfu); images
//!   from anywhere over HTTPS (a real Shopware's media host, a CDN); videos of the CMS's
//!   YouTube and Vimeo elements in frames; no plugins; forms post here only.
//! - `frame-ancestors 'none'` and `X-Frame-Options: DENY`, except on the attendee's
//!   room (`/presentation/…`, `/{locale}/presentation/…`), which the sites of
//!   `FRAME_ANCESTORS` (a list of origins) may embed.
//! - `X-Content-Type-Options: nosniff` and `Referrer-Policy: strict-origin-when-cross-origin`
//!   (another site learns the origin, never a path such as a recovery link's).
//!
//! Headers a handler set itself (a download's own policy) are left as they are.

use axum::extract::{Request, State};
use axum::http::{header, HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

use crate::config::{Config, Origin};

/// The headers, built from the configuration at start and again when the merchant's
/// domains change (`Config::merchant_domains`, each an origin of `connect-src`).
pub struct SecurityHeaders {
    config: Config,
    built: std::sync::RwLock<Built>,
}

#[derive(Clone, Debug)]
struct Built {
    /// `Config::merchant_domains`' generation these were built from.
    generation: u64,
    /// The policy of every page but the attendee's room.
    policy: HeaderValue,
    /// The attendee's room: embeddable by `FRAME_ANCESTORS` (the same as `policy` without any).
    room_policy: HeaderValue,
    room_embeddable: bool,
}

/// `frame-src`: the CMS video elements' players.
const VIDEO_FRAMES: &str =
    "https://www.youtube-nocookie.com https://www.youtube.com https://player.vimeo.com";

impl SecurityHeaders {
    pub fn new(config: &Config) -> SecurityHeaders {
        SecurityHeaders {
            config: config.clone(),
            built: std::sync::RwLock::new(Built::new(config)),
        }
    }

    /// The headers of the merchant's domains as they are now.
    fn current(&self) -> Built {
        let generation = self.config.merchant_domains.generation();
        if let Ok(built) = self.built.read() {
            if built.generation == generation {
                return built.clone();
            }
        }
        let fresh = Built::new(&self.config);
        if let Ok(mut built) = self.built.write() {
            *built = fresh.clone();
        }
        fresh
    }

    /// Adds the headers to `answer` for a request of `path`.
    pub fn apply(&self, path: &str, answer: &mut Response) {
        self.current().apply(path, answer)
    }
}

impl Built {
    fn new(config: &Config) -> Built {
        let generation = config.merchant_domains.generation();
        let mut connect = vec!["'self'".to_owned()];
        for url in [
            config.public_hub_url(),
            config.livekit_url(),
            config.shop_endpoint.clone(),
        ]
        .into_iter()
        .flatten()
        .chain(config.merchant_domains.urls())
        {
            for origin in origin_and_its_twin(&url) {
                if !connect.contains(&origin) {
                    connect.push(origin);
                }
            }
        }
        let connect = connect.join(" ");
        let base = format!(
            "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; \
             media-src 'self' blob: https:; font-src 'self' data:; connect-src {connect}; worker-src 'self' blob:; frame-src 'self' {VIDEO_FRAMES}; \
             object-src 'none'; base-uri 'self'; form-action 'self'"
        );
        let ancestors: Vec<&str> = config
            .frame_ancestors
            .iter()
            .map(|origin| origin.trim().trim_end_matches('/'))
            .filter(|o| !o.is_empty())
            .collect();
        let room_ancestors = if ancestors.is_empty() {
            "'none'".to_owned()
        } else {
            format!("'self' {}", ancestors.join(" "))
        };
        Built {
            generation,
            policy: header_value(&format!("{base}; frame-ancestors 'none'")),
            room_policy: header_value(&format!("{base}; frame-ancestors {room_ancestors}")),
            room_embeddable: !ancestors.is_empty(),
        }
    }

    fn apply(&self, path: &str, answer: &mut Response) {
        let room = self.room_embeddable && is_attendee_room(path);
        let headers = answer.headers_mut();
        let mut set = |name: HeaderName, value: HeaderValue| {
            headers.entry(name).or_insert(value);
        };
        set(
            header::CONTENT_SECURITY_POLICY,
            if room {
                self.room_policy.clone()
            } else {
                self.policy.clone()
            },
        );
        set(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        set(
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        );
        if !room {
            set(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        }
    }
}

/// The layer: `axum::middleware::from_fn_with_state(Arc<SecurityHeaders>, add)`.
pub async fn add(
    State(headers): State<std::sync::Arc<SecurityHeaders>>,
    request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path().to_owned();
    let mut answer = next.run(request).await;
    headers.apply(&path, &mut answer);
    answer
}

/// A value of only visible ASCII; a configured origin with anything else was refused at start.
fn header_value(policy: &str) -> HeaderValue {
    HeaderValue::from_str(policy)
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'; frame-ancestors 'none'"))
}

/// The origin of `url` (scheme, host, port), with its WebSocket or HTTP twin: livekit-client
/// opens `wss://host` and also fetches `https://host/rtc/validate`.
fn origin_and_its_twin(url: &str) -> Vec<String> {
    match Origin::parse(url) {
        Some(origin) => vec![origin.to_string(), origin.twin().to_string()],
        None => Vec::new(),
    }
}

/// `/presentation/…` or `/{locale}/presentation/…`: the attendee's room and its steps
/// (pre-join, login, waiting), the pages an operator may embed.
fn is_attendee_room(path: &str) -> bool {
    let mut segments = path.trim_start_matches('/').split('/');
    match (segments.next(), segments.next()) {
        (Some("presentation"), Some(id)) => !id.is_empty(),
        (Some(locale), Some("presentation")) => is_locale(locale),
        _ => false,
    }
}

/// `de`, `en-GB`: a locale prefix of the web app's routes.
fn is_locale(segment: &str) -> bool {
    let bytes = segment.as_bytes();
    match bytes.len() {
        2 => bytes.iter().all(u8::is_ascii_alphabetic),
        5 => {
            bytes[..2].iter().all(u8::is_ascii_alphabetic)
                && bytes[2] == b'-'
                && bytes[3..].iter().all(u8::is_ascii_alphabetic)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_room_is_the_presentation_paths_with_or_without_a_locale() {
        for path in [
            "/presentation/abc",
            "/presentation/abc/prejoin",
            "/de/presentation/abc",
            "/en-GB/presentation/abc/login",
        ] {
            assert!(is_attendee_room(path), "{path}");
        }
        for path in [
            "/",
            "/presentation",
            "/presentations",
            "/guide/abc",
            "/account",
            "/x/y/presentation/abc",
            "/admin/presentation/a",
        ] {
            assert!(!is_attendee_room(path), "{path}");
        }
    }

    #[test]
    fn an_origin_comes_with_its_twin_and_nothing_else() {
        assert_eq!(
            origin_and_its_twin("wss://lk.example.com/rtc?x=1"),
            ["wss://lk.example.com", "https://lk.example.com"]
        );
        assert_eq!(
            origin_and_its_twin("http://127.0.0.1:8000"),
            ["http://127.0.0.1:8000", "ws://127.0.0.1:8000"]
        );
        assert!(origin_and_its_twin("javascript:alert(1)").is_empty());
        assert!(origin_and_its_twin("https://a.example; script-src *").is_empty());
    }
}
