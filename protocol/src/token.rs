//! The hub session token: a JWT (HS256) the proxy signs at join and the hub verifies.

use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::status::Role;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HubClaims {
    /// The attendee id (guides are attendees too).
    pub sub: String,
    /// The appointment id.
    pub apt: String,
    pub role: Role,
    /// The display name, if known.
    #[serde(default)]
    pub name: Option<String>,
    /// Expiry, seconds since the Unix epoch.
    pub exp: u64,
}

#[derive(Debug, thiserror::Error)]
#[error("invalid hub token: {0}")]
pub struct TokenError(#[from] jsonwebtoken::errors::Error);

impl HubClaims {
    pub fn sign(&self, secret: &[u8]) -> Result<String, TokenError> {
        Ok(encode(
            &Header::new(Algorithm::HS256),
            self,
            &EncodingKey::from_secret(secret),
        )?)
    }

    /// Checks the signature, the algorithm and the expiry.
    pub fn verify(token: &str, secret: &[u8]) -> Result<HubClaims, TokenError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_required_spec_claims(&["exp", "sub"]);
        validation.leeway = 5;
        Ok(decode::<HubClaims>(token, &DecodingKey::from_secret(secret), &validation)?.claims)
    }
}

/// The secret of `make up`, where `HUB_SECRET` is unset: Reads `dir/hub-secret`, creating it with a random value if missing.
pub fn load_or_create_secret(dir: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use rand::Rng;
    use std::io::Write;
    std::fs::create_dir_all(dir)?;
    let path = dir.join("hub-secret");
    match std::fs::read(&path) {
        Ok(secret) if !secret.is_empty() => Ok(secret),
        _ => {
            let secret: String = rand::rng()
                .sample_iter(rand::distr::Alphanumeric)
                .take(48)
                .map(char::from)
                .collect();
            // create_new: when the proxy and the hub start together, the first one wins
            // and the other reads its secret.
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut file) => {
                    file.write_all(secret.as_bytes())?;
                    Ok(secret.into_bytes())
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    Ok(std::fs::read(&path)?)
                }
                Err(e) => Err(e),
            }
        }
    }
}
