//! The one error type of the media server and how each kind is answered over HTTP.
//!
//! Refusals of a join are answered the way LiveKit's server answers them, because
//! livekit-client reads them: it fetches `/rtc/validate` after a failed upgrade and shows
//! the plain-text body of a 401/403 as the reason (`ConnectionError.notAllowed`).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("configuration: {0}")]
    Config(String),
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),

    /// No token, no video grant, or a grant that does not allow joining this room
    /// (LiveKit's `ErrPermissionDenied`).
    #[error("permissions denied")]
    PermissionDenied,
    /// Not a JWT at all.
    #[error("invalid authorization token")]
    InvalidAuthorizationToken,
    /// Issued for an API key this server does not have.
    #[error("invalid API key: {0}")]
    InvalidApiKey(String),
    /// A JWT whose signature or validity period does not hold. LiveKit also echoes the token;
    /// we leave it out so that it never lands in a proxy's or browser's log.
    #[error("invalid token: {0}")]
    InvalidToken(String),
    #[error("participant identity cannot be empty")]
    IdentityEmpty,
    #[error("no room name")]
    NoRoomName,
    /// The v1 signalling path (single peer connection) that newer servers offer: answered
    /// like a server that predates it, so livekit-client falls back to `/rtc`.
    #[error("404 page not found")]
    NotFound,
    #[error("room is full")]
    RoomFull,
    #[error("requested room does not exist")]
    RoomNotFound,
    #[error("participant not found")]
    ParticipantNotFound,
    #[error("track not found")]
    TrackNotFound,

    /// A signalling frame this server cannot use.
    #[error("bad signal message: {0}")]
    BadSignal(String),
    #[error("webrtc: {0}")]
    Rtc(#[from] str0m::RtcError),
    #[error("sdp: {0}")]
    Sdp(#[from] str0m::error::SdpError),
    /// The media engine task is gone (shutting down).
    #[error("media engine stopped")]
    EngineStopped,
}

impl Error {
    /// The HTTP status LiveKit uses for the same refusal.
    pub fn status(&self) -> StatusCode {
        match self {
            Error::PermissionDenied
            | Error::InvalidAuthorizationToken
            | Error::InvalidApiKey(_)
            | Error::InvalidToken(_) => StatusCode::UNAUTHORIZED,
            Error::IdentityEmpty | Error::NoRoomName | Error::BadSignal(_) => {
                StatusCode::BAD_REQUEST
            }
            Error::NotFound
            | Error::RoomNotFound
            | Error::ParticipantNotFound
            | Error::TrackNotFound => StatusCode::NOT_FOUND,
            Error::RoomFull => StatusCode::SERVICE_UNAVAILABLE,
            Error::Config(_)
            | Error::Io(_)
            | Error::Rtc(_)
            | Error::Sdp(_)
            | Error::EngineStopped => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl Error {
    /// The Twirp error code of the server API for this error.
    pub fn twirp_code(&self) -> &'static str {
        match self.status() {
            StatusCode::UNAUTHORIZED => "unauthenticated",
            StatusCode::NOT_FOUND => "not_found",
            StatusCode::BAD_REQUEST => "malformed",
            StatusCode::SERVICE_UNAVAILABLE => "unavailable",
            _ => "internal",
        }
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            // Internal details stay in our log.
            tracing::error!(error = %self, "request failed");
            return (status, "internal error").into_response();
        }
        tracing::debug!(error = %self, %status, "request refused");
        (status, self.to_string()).into_response()
    }
}
