//! Settings of the media server (environment variables or the same-named flags) and the
//! API key and secret it signs and checks tokens with.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};

use rand::distr::{Alphanumeric, SampleString};

use crate::error::Error;

/// The file in `DATA_DIR` that holds a generated key pair, in LiveKit's key file format
/// (`<key>: <secret>`), so that the hub and the proxy can read the same credentials.
pub const KEYS_FILE: &str = "livekit-keys.yaml";

/// Command line and environment of the `sfu` binary. `Debug` hides the secret.
#[derive(Clone, clap::Parser)]
#[command(
    name = "sfu",
    about = "Embedded media server that speaks LiveKit's signalling protocol"
)]
pub struct Config {
    /// Port of the signalling server (`/rtc` WebSocket and `/rtc/validate`).
    #[arg(long, env = "SFU_PORT", default_value_t = 7880)]
    pub sfu_port: u16,

    /// The one UDP port all media of all rooms goes through.
    #[arg(long, env = "SFU_UDP_PORT", default_value_t = 7882)]
    pub sfu_udp_port: u16,

    /// The address announced to browsers as the media candidate (set it behind NAT or in
    /// containers); without it, the bind address, or 127.0.0.1 when binding every interface.
    #[arg(long, env = "SFU_PUBLIC_IP")]
    pub sfu_public_ip: Option<IpAddr>,

    /// Listen address of the signalling server and the media socket.
    #[arg(long, env = "BIND", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,

    /// Where a generated API key and secret are kept.
    #[arg(long, env = "DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,

    /// API key tokens must name as issuer; generated into `DATA_DIR` when unset.
    #[arg(long, env = "LIVEKIT_API_KEY")]
    pub livekit_api_key: Option<String>,

    /// Secret tokens are signed with (HS256); generated into `DATA_DIR` when unset.
    #[arg(long, env = "LIVEKIT_API_SECRET", hide_env_values = true)]
    pub livekit_api_secret: Option<String>,

    /// Turns on bandwidth estimation towards each subscriber (TWCC, str0m's estimator),
    /// starting from this many kbit/s, so that simulcast layers are chosen to fit each
    /// subscriber's downlink. Off by default: str0m then paces every subscriber's packets
    /// (bursts up to 40 ms apart), which adds delay. A client's REMB is used either way.
    #[arg(long, env = "SFU_BWE_KBPS")]
    pub sfu_bwe_kbps: Option<u32>,

    /// Peer connections with packets to send in one pass of the engine from which the
    /// sending is split over two threads (a frame fanned out to many subscribers).
    #[arg(long, env = "SFU_PARALLEL_SENDS", default_value_t = crate::engine::PARALLEL_MIN)]
    pub sfu_parallel_sends: usize,
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("sfu_port", &self.sfu_port)
            .field("sfu_udp_port", &self.sfu_udp_port)
            .field("sfu_public_ip", &self.sfu_public_ip)
            .field("bind", &self.bind)
            .field("data_dir", &self.data_dir)
            .field("livekit_api_key", &self.livekit_api_key)
            .field("sfu_bwe_kbps", &self.sfu_bwe_kbps)
            .field("sfu_parallel_sends", &self.sfu_parallel_sends)
            .finish_non_exhaustive()
    }
}

impl Config {
    /// An sfu on 127.0.0.1 with both ports chosen by the system, keys in `data_dir`, signing
    /// with `api_key`/`api_secret`, and the other settings at their defaults (tests and
    /// benchmarks start one in-process this way).
    pub fn loopback(data_dir: PathBuf, api_key: &str, api_secret: &str) -> Config {
        Config {
            sfu_port: 0,
            sfu_udp_port: 0,
            sfu_public_ip: None,
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            data_dir,
            livekit_api_key: Some(api_key.into()),
            livekit_api_secret: Some(api_secret.into()),
            sfu_bwe_kbps: None,
            sfu_parallel_sends: crate::engine::PARALLEL_MIN,
        }
    }

    /// The address announced in ICE candidates.
    pub fn announced_ip(&self) -> IpAddr {
        match (self.sfu_public_ip, self.bind) {
            (Some(ip), _) => ip,
            (None, bind) if bind.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
            (None, bind) => bind,
        }
    }

    /// Where the signalling server listens.
    pub fn http_addr(&self) -> SocketAddr {
        SocketAddr::new(self.bind, self.sfu_port)
    }

    /// Where the media socket is bound.
    pub fn udp_addr(&self) -> SocketAddr {
        SocketAddr::new(self.bind, self.sfu_udp_port)
    }

    /// The key pair: the configured one, else the one in `DATA_DIR`, else a new one written there.
    pub fn credentials(&self) -> Result<Credentials, Error> {
        match (&self.livekit_api_key, &self.livekit_api_secret) {
            (Some(key), Some(secret)) => Ok(Credentials::new(key.clone(), secret.clone())),
            (None, None) => Credentials::load_or_create(&self.data_dir),
            _ => Err(Error::Config(
                "set both LIVEKIT_API_KEY and LIVEKIT_API_SECRET, or neither".into(),
            )),
        }
    }
}

/// An API key and its secret. `Debug` hides the secret.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The key, which tokens carry as `iss`.
    pub api_key: String,
    api_secret: String,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("api_key", &self.api_key)
            .finish_non_exhaustive()
    }
}

impl Credentials {
    pub fn new(api_key: String, api_secret: String) -> Credentials {
        Credentials {
            api_key,
            api_secret,
        }
    }

    /// The secret that signs tokens.
    pub fn secret(&self) -> &str {
        &self.api_secret
    }

    /// Reads `dir/livekit-keys.yaml`, or creates it with a fresh key pair (readable by the
    /// owner only) when it does not exist.
    pub fn load_or_create(dir: &Path) -> Result<Credentials, Error> {
        let file = dir.join(KEYS_FILE);
        match std::fs::read_to_string(&file) {
            Ok(text) => Credentials::parse(&text).ok_or_else(|| {
                Error::Config(format!("{} holds no `key: secret` line", file.display()))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(dir)?;
                let mut rng = rand::rng();
                let created = Credentials::new(
                    format!("API{}", Alphanumeric.sample_string(&mut rng, 12)),
                    Alphanumeric.sample_string(&mut rng, 43),
                );
                match write_private(
                    &file,
                    &format!("{}: {}\n", created.api_key, created.api_secret),
                ) {
                    Ok(()) => {
                        tracing::info!(file = %file.display(), api_key = %created.api_key, "generated an API key and secret");
                        Ok(created)
                    }
                    // Another process wrote it first: use that one.
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                        Credentials::load_or_create(dir)
                    }
                    Err(e) => Err(e.into()),
                }
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The first `key: secret` line of a LiveKit key file.
    fn parse(text: &str) -> Option<Credentials> {
        text.lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .find_map(|line| {
                let (key, secret) = line.split_once(':')?;
                let (key, secret) = (key.trim(), secret.trim());
                (!key.is_empty() && !secret.is_empty())
                    .then(|| Credentials::new(key.to_owned(), secret.to_owned()))
            })
    }
}

/// Writes `text` to `file` all at once: into a temporary file beside it, then linked into
/// place, so a reader (the hub, the proxy) sees no file or the whole file, never a partial
/// one. Fails with `AlreadyExists` when `file` exists, leaving it as it is.
fn write_private(file: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let temporary = file.with_extension(format!("tmp.{}", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options
        .open(&temporary)
        .and_then(|mut out| out.write_all(text.as_bytes()).and_then(|()| out.sync_all()));
    let linked = written.and_then(|()| std::fs::hard_link(&temporary, file));
    let _ = std::fs::remove_file(&temporary);
    linked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_key_pair_is_kept_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let first = Credentials::load_or_create(dir.path()).unwrap();
        let second = Credentials::load_or_create(dir.path()).unwrap();
        assert_eq!(first, second);
        assert!(first.api_key.starts_with("API"));
        assert!(first.secret().len() >= 32);
        assert!(!format!("{first:?}").contains(first.secret()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(KEYS_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        // Nothing but the key file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_key_file_written_meanwhile_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(KEYS_FILE), "APIfirst: first-secret\n").unwrap();
        assert!(write_private(&dir.path().join(KEYS_FILE), "APIsecond: second\n").is_err());
        assert_eq!(
            Credentials::load_or_create(dir.path()).unwrap(),
            Credentials::new("APIfirst".into(), "first-secret".into())
        );
    }

    #[test]
    fn the_configured_secret_stays_out_of_debug_output() {
        use clap::Parser;
        let config = Config::parse_from([
            "sfu",
            "--livekit-api-key",
            "APIk",
            "--livekit-api-secret",
            "do-not-print-me",
        ]);
        assert!(!format!("{config:?}").contains("do-not-print-me"));
        assert_eq!(
            config.credentials().unwrap(),
            Credentials::new("APIk".into(), "do-not-print-me".into())
        );
    }

    #[test]
    fn the_key_file_is_livekit_format() {
        let parsed = Credentials::parse("# comment\nAPIabc: s3cret\n").unwrap();
        assert_eq!(parsed, Credentials::new("APIabc".into(), "s3cret".into()));
        assert!(Credentials::parse("nothing here").is_none());
    }
}
