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
        Ok(encode(&Header::new(Algorithm::HS256), self, &EncodingKey::from_secret(secret))?)
    }

    /// Checks the signature, the algorithm and the expiry.
    pub fn verify(token: &str, secret: &[u8]) -> Result<HubClaims, TokenError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_required_spec_claims(&["exp", "sub"]);
        validation.leeway = 5;
        Ok(decode::<HubClaims>(token, &DecodingKey::from_secret(secret), &validation)?.claims)
    }
}
