//! LiveKit: access tokens for participants and the server API calls the hub makes
//! (mute all, remove a participant, delete the room). Media never passes through our servers.

use std::net::{IpAddr, Ipv4Addr};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use protocol::Role;
use serde::Serialize;
use serde_json::{json, Value};

/// How long a participant's video token is valid.
const TOKEN_TTL: Duration = Duration::from_secs(6 * 3600);

#[derive(Debug, thiserror::Error)]
pub enum VideoError {
    #[error("signing a LiveKit token: {0}")]
    Token(#[from] jsonwebtoken::errors::Error),
    #[error("calling LiveKit: {0}")]
    Http(#[from] reqwest::Error),
    #[error("LiveKit answered {status}: {body}")]
    Status { status: u16, body: String },
}

/// The LiveKit server of a deployment.
#[derive(Clone)]
pub struct LiveKit {
    /// The URL clients connect to (`wss://…`).
    pub url: String,
    api_key: String,
    api_secret: String,
    http: reqwest::Client,
}

impl std::fmt::Debug for LiveKit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveKit")
            .field("url", &self.url)
            .field("api_key", &self.api_key)
            .finish_non_exhaustive()
    }
}

/// The file the embedded `sfu` writes its generated key pair to, in `DATA_DIR` (LiveKit's
/// key file format: `<key>: <secret>` lines).
pub const KEY_FILE: &str = "livekit-keys.yaml";

/// The key pair of the embedded `sfu`: the first `key: secret` line of `dir/livekit-keys.yaml`.
/// None when the file does not exist (the sfu never ran there) or holds no such line.
pub fn read_key_file(dir: &Path) -> Option<(String, String)> {
    let file = dir.join(KEY_FILE);
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return None,
        Err(error) => {
            tracing::warn!(file = %file.display(), %error, "could not read the embedded sfu's key file: no video");
            return None;
        }
    };
    let keys = text
        .lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .find_map(|line| {
            let (key, secret) = line.split_once(':')?;
            let (key, secret) = (key.trim(), secret.trim());
            (!key.is_empty() && !secret.is_empty()).then(|| (key.to_owned(), secret.to_owned()))
        });
    if keys.is_none() {
        tracing::warn!(file = %file.display(), "the embedded sfu's key file holds no `key: secret` line: no video");
    }
    keys
}

/// The signalling URL of the embedded `sfu` as browsers reach it.
pub fn embedded_url(public_ip: Option<IpAddr>, port: u16) -> String {
    match public_ip.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST)) {
        IpAddr::V4(ip) => format!("ws://{ip}:{port}"),
        IpAddr::V6(ip) => format!("ws://[{ip}]:{port}"),
    }
}

/// What a participant may do in the room (LiveKit's `VideoGrant`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct VideoGrant {
    #[serde(skip_serializing_if = "Option::is_none")]
    room: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    room_create: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    room_join: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    room_admin: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    can_publish: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    can_subscribe: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    can_publish_data: Option<bool>,
}

#[derive(Debug, Serialize)]
struct Claims<'a> {
    iss: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    sub: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    /// The participant's metadata, which every other participant sees (LiveKit passes it
    /// through): `{"role":"guide"}` or `{"role":"client"}`, so that rooms can put the guide
    /// in front.
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata: Option<String>,
    nbf: u64,
    exp: u64,
    video: VideoGrant,
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

impl LiveKit {
    pub fn new(url: String, api_key: String, api_secret: String) -> LiveKit {
        LiveKit {
            url,
            api_key,
            api_secret,
            http: reqwest::Client::new(),
        }
    }

    fn sign(
        &self,
        identity: Option<&str>,
        name: Option<&str>,
        metadata: Option<String>,
        video: VideoGrant,
        ttl: Duration,
    ) -> Result<String, VideoError> {
        let now = now();
        let claims = Claims {
            iss: &self.api_key,
            sub: identity,
            name,
            metadata,
            nbf: now,
            exp: now + ttl.as_secs(),
            video,
        };
        Ok(encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &EncodingKey::from_secret(self.api_secret.as_bytes()),
        )?)
    }

    /// A token to join the appointment's room. Everyone subscribes; `can_publish` says
    /// whether camera and microphone may be sent; `role` goes into the participant's
    /// metadata (`{"role":"guide"}`), which the other participants see.
    pub fn participant_token(
        &self,
        room: &str,
        identity: &str,
        name: Option<&str>,
        role: Role,
        can_publish: bool,
    ) -> Result<String, VideoError> {
        let grant = VideoGrant {
            room: Some(room.to_owned()),
            room_join: true,
            can_publish: Some(can_publish),
            can_subscribe: Some(true),
            can_publish_data: Some(true),
            ..VideoGrant::default()
        };
        let role = match role {
            Role::Guide => "guide",
            Role::Client => "client",
        };
        let metadata = json!({ "role": role }).to_string();
        self.sign(Some(identity), name, Some(metadata), grant, TOKEN_TTL)
    }

    /// The HTTP base of the server API (`wss://x` serves it at `https://x`).
    fn api_base(&self) -> String {
        let base = self.url.trim_end_matches('/');
        base.replacen("wss://", "https://", 1)
            .replacen("ws://", "http://", 1)
    }

    async fn call(&self, room: &str, method: &str, body: Value) -> Result<Value, VideoError> {
        let grant = VideoGrant {
            room: Some(room.to_owned()),
            room_admin: true,
            ..VideoGrant::default()
        };
        self.call_with(grant, method, body).await
    }

    async fn call_with(
        &self,
        grant: VideoGrant,
        method: &str,
        body: Value,
    ) -> Result<Value, VideoError> {
        let token = self.sign(None, None, None, grant, Duration::from_secs(600))?;
        let response = self
            .http
            .post(format!(
                "{}/twirp/livekit.RoomService/{method}",
                self.api_base()
            ))
            .bearer_auth(token)
            .json(&body)
            .timeout(Duration::from_secs(10))
            .send()
            .await?;
        let status = response.status();
        if !status.is_success() {
            let body = response.text().await.unwrap_or_default();
            return Err(VideoError::Status {
                status: status.as_u16(),
                body,
            });
        }
        Ok(response.json().await.unwrap_or(Value::Null))
    }

    /// Mutes every published microphone in the room except those of `keep` (the guides).
    pub async fn mute_all(&self, room: &str, keep: &[String]) -> Result<usize, VideoError> {
        let listed = self
            .call(room, "ListParticipants", json!({ "room": room }))
            .await?;
        let mut muted = 0;
        for participant in listed["participants"].as_array().into_iter().flatten() {
            let Some(identity) = participant["identity"].as_str() else {
                continue;
            };
            if keep.iter().any(|k| k == identity) {
                continue;
            }
            for track in participant["tracks"].as_array().into_iter().flatten() {
                let audio = track["type"] == "AUDIO" || track["source"] == "MICROPHONE";
                if let (true, Some(sid)) = (audio, track["sid"].as_str()) {
                    self.call(room, "MutePublishedTrack", json!({ "room": room, "identity": identity, "trackSid": sid, "muted": true }))
                        .await?;
                    muted += 1;
                }
            }
        }
        Ok(muted)
    }

    /// Deletes the room: everyone in it is disconnected and their media stops (LiveKit
    /// asks for a `roomCreate` grant). A later join opens the room anew.
    pub async fn delete_room(&self, room: &str) -> Result<(), VideoError> {
        let grant = VideoGrant {
            room_create: true,
            ..VideoGrant::default()
        };
        self.call_with(grant, "DeleteRoom", json!({ "room": room }))
            .await?;
        Ok(())
    }

    /// Removes a participant from the room.
    pub async fn remove_participant(&self, room: &str, identity: &str) -> Result<(), VideoError> {
        self.call(
            room,
            "RemoveParticipant",
            json!({ "room": room, "identity": identity }),
        )
        .await?;
        Ok(())
    }
}
