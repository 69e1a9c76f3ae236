//! LiveKit access tokens: an HS256 JWT signed with the API secret, issued by the API key,
//! with the participant's identity as `sub` and what it may do in a `video` grant.

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;

use crate::config::Credentials;
use crate::error::Error;

/// Longest identity, name or room accepted (LiveKit's defaults are of this order).
const MAX_NAME_LEN: usize = 256;
/// Longest token accepted (the hub's are a few hundred bytes).
const MAX_TOKEN_LEN: usize = 16 * 1024;
/// Longest metadata accepted from a token.
const MAX_METADATA_LEN: usize = 8 * 1024;

/// LiveKit's `VideoGrant`, as far as this server uses it. Permissions left out of the token
/// are granted, as LiveKit does.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct VideoGrant {
    #[serde(default)]
    room: String,
    #[serde(default)]
    room_join: bool,
    can_publish: Option<bool>,
    can_subscribe: Option<bool>,
    can_publish_data: Option<bool>,
    #[serde(default)]
    hidden: bool,
    #[serde(default)]
    room_admin: bool,
    #[serde(default)]
    room_create: bool,
}

#[derive(Debug, Deserialize)]
struct Claims {
    #[serde(default)]
    sub: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    metadata: String,
    video: Option<VideoGrant>,
}

/// What a verified token lets its holder do in one room.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JoinGrant {
    pub room: String,
    pub identity: String,
    pub name: String,
    pub metadata: String,
    pub can_publish: bool,
    pub can_subscribe: bool,
    pub can_publish_data: bool,
    pub hidden: bool,
}

/// Checks the token's signature, issuer and validity period.
fn verified_claims(credentials: &Credentials, token: &str) -> Result<Claims, Error> {
    if token.is_empty() {
        return Err(Error::PermissionDenied);
    }
    if token.len() > MAX_TOKEN_LEN {
        return Err(Error::InvalidAuthorizationToken);
    }
    let header =
        jsonwebtoken::decode_header(token).map_err(|_| Error::InvalidAuthorizationToken)?;
    if header.alg != Algorithm::HS256 {
        return Err(Error::InvalidToken("unsupported signing algorithm".into()));
    }
    let mut validation = Validation::new(Algorithm::HS256);
    // LiveKit's default leeway (go-jose): a minute of clock skew.
    validation.leeway = 60;
    validation.validate_nbf = true;
    validation.set_required_spec_claims(&["exp", "iss"]);
    validation.set_issuer(&[&credentials.api_key]);
    let data = jsonwebtoken::decode::<Claims>(
        token,
        &DecodingKey::from_secret(credentials.secret().as_bytes()),
        &validation,
    )
    .map_err(|e| match e.kind() {
        ErrorKind::InvalidIssuer => Error::InvalidApiKey(issuer_of(token).unwrap_or_default()),
        ErrorKind::ExpiredSignature => Error::InvalidToken("token is expired (exp)".into()),
        ErrorKind::ImmatureSignature => Error::InvalidToken("token is not valid yet (nbf)".into()),
        ErrorKind::InvalidSignature => {
            Error::InvalidToken("error in cryptographic primitive".into())
        }
        ErrorKind::MissingRequiredClaim(claim) => {
            Error::InvalidToken(format!("missing claim {claim}"))
        }
        _ => Error::InvalidAuthorizationToken,
    })?;
    Ok(data.claims)
}

/// Checks a server API token: valid, and an admin of `room` (LiveKit's `EnsureAdminPermission`).
pub fn verify_admin(credentials: &Credentials, token: &str, room: &str) -> Result<(), Error> {
    let video = verified_claims(credentials, token)?
        .video
        .ok_or(Error::PermissionDenied)?;
    if !video.room_admin || video.room != room {
        return Err(Error::PermissionDenied);
    }
    Ok(())
}

/// Checks a server API token: valid, and allowed to create and delete rooms (LiveKit's
/// `EnsureCreatePermission`, which `DeleteRoom` asks for).
pub fn verify_room_create(credentials: &Credentials, token: &str) -> Result<(), Error> {
    let video = verified_claims(credentials, token)?
        .video
        .ok_or(Error::PermissionDenied)?;
    if !video.room_create {
        return Err(Error::PermissionDenied);
    }
    Ok(())
}

/// Checks the token (see `verified_claims`), then that it allows joining a room: the
/// token's room, which must be `requested_room` when the client names one.
pub fn verify_join(
    credentials: &Credentials,
    token: &str,
    requested_room: Option<&str>,
) -> Result<JoinGrant, Error> {
    let claims = verified_claims(credentials, token)?;
    let video = claims.video.ok_or(Error::PermissionDenied)?;
    if !video.room_join {
        return Err(Error::PermissionDenied);
    }
    if claims.sub.is_empty() {
        return Err(Error::IdentityEmpty);
    }
    let room = match (video.room.as_str(), requested_room) {
        ("", None | Some("")) => return Err(Error::NoRoomName),
        ("", Some(requested)) => requested.to_owned(),
        (granted, Some(requested)) if !requested.is_empty() && requested != granted => {
            return Err(Error::PermissionDenied)
        }
        (granted, _) => granted.to_owned(),
    };
    if room.len() > MAX_NAME_LEN
        || claims.sub.len() > MAX_NAME_LEN
        || claims.name.len() > MAX_NAME_LEN
    {
        return Err(Error::BadSignal("room, identity or name too long".into()));
    }
    if claims.metadata.len() > MAX_METADATA_LEN {
        return Err(Error::BadSignal("metadata too long".into()));
    }
    Ok(JoinGrant {
        room,
        identity: claims.sub,
        name: claims.name,
        metadata: claims.metadata,
        can_publish: video.can_publish.unwrap_or(true),
        can_subscribe: video.can_subscribe.unwrap_or(true),
        can_publish_data: video.can_publish_data.unwrap_or(true),
        hidden: video.hidden,
    })
}

/// The `iss` of a token whose signature has not been checked, for the refusal message only.
fn issuer_of(token: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Issuer {
        iss: String,
    }
    jsonwebtoken::dangerous::insecure_decode::<Issuer>(token)
        .ok()
        .map(|data| data.claims.iss.chars().take(MAX_NAME_LEN).collect())
}

#[cfg(test)]
pub(crate) mod tests {
    use std::time::{SystemTime, UNIX_EPOCH};

    use jsonwebtoken::{encode, EncodingKey, Header};
    use serde_json::{json, Value};

    use super::*;

    pub(crate) fn now() -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs() as i64
    }

    pub(crate) fn sign(secret: &str, claims: Value) -> String {
        encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &EncodingKey::from_secret(secret.as_bytes()),
        )
        .unwrap()
    }

    fn creds() -> Credentials {
        Credentials::new("APIkey".into(), "secret-secret-secret-secret-secret".into())
    }

    fn claims(room: &str, exp: i64) -> Value {
        json!({ "iss": "APIkey", "sub": "alice", "name": "Alice", "nbf": now() - 5, "exp": exp,
                "video": { "room": room, "roomJoin": true, "canPublish": false, "canSubscribe": true } })
    }

    #[test]
    fn a_valid_token_grants_its_room() {
        let token = sign(creds().secret(), claims("demo", now() + 600));
        let grant = verify_join(&creds(), &token, None).unwrap();
        assert_eq!(grant.room, "demo");
        assert_eq!(grant.identity, "alice");
        assert!(!grant.can_publish);
        assert!(grant.can_subscribe && grant.can_publish_data);
        assert_eq!(verify_join(&creds(), &token, Some("demo")).unwrap(), grant);
    }

    #[test]
    fn refusals_carry_livekits_messages() {
        let forged = sign("another secret entirely", claims("demo", now() + 600));
        assert!(matches!(
            verify_join(&creds(), &forged, None),
            Err(Error::InvalidToken(_))
        ));
        let expired = sign(creds().secret(), claims("demo", now() - 3600));
        let refusal = verify_join(&creds(), &expired, None).unwrap_err();
        assert_eq!(refusal.to_string(), "invalid token: token is expired (exp)");
        let token = sign(creds().secret(), claims("demo", now() + 600));
        assert!(matches!(
            verify_join(&creds(), &token, Some("other")),
            Err(Error::PermissionDenied)
        ));
        assert!(matches!(
            verify_join(&creds(), "not a jwt", None),
            Err(Error::InvalidAuthorizationToken)
        ));
        assert!(matches!(
            verify_join(&creds(), "", None),
            Err(Error::PermissionDenied)
        ));
        let mut other_key = claims("demo", now() + 600);
        other_key["iss"] = json!("APIother");
        let refusal = verify_join(&creds(), &sign(creds().secret(), other_key), None).unwrap_err();
        assert_eq!(refusal.to_string(), "invalid API key: APIother");
        let mut no_join = claims("demo", now() + 600);
        no_join["video"]["roomJoin"] = json!(false);
        assert!(matches!(
            verify_join(&creds(), &sign(creds().secret(), no_join), None),
            Err(Error::PermissionDenied)
        ));
    }
}
