//! The two encodings of frames: JSON in text frames, MessagePack in binary frames.

use serde::{de::DeserializeOwned, Serialize};

use crate::frame::{SUBPROTOCOL_JSON, SUBPROTOCOL_MSGPACK};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    Json,
    MsgPack,
}

/// Encoded bytes, tagged with the kind of WebSocket frame that carries them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Encoded {
    Text(String),
    Binary(Vec<u8>),
}

#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    #[error("invalid JSON frame: {0}")]
    Json(#[from] serde_json::Error),
    #[error("invalid MessagePack frame: {0}")]
    MsgPack(#[from] rmp_serde::decode::Error),
    #[error("a {expected} frame was expected")]
    WrongFrameKind { expected: &'static str },
}

#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    MsgPack(#[from] rmp_serde::encode::Error),
}

impl Codec {
    /// The codec for a negotiated subprotocol; `None` for anything else.
    pub fn from_subprotocol(name: &str) -> Option<Codec> {
        match name {
            SUBPROTOCOL_JSON => Some(Codec::Json),
            SUBPROTOCOL_MSGPACK => Some(Codec::MsgPack),
            _ => None,
        }
    }

    pub fn subprotocol(self) -> &'static str {
        match self {
            Codec::Json => SUBPROTOCOL_JSON,
            Codec::MsgPack => SUBPROTOCOL_MSGPACK,
        }
    }

    pub fn encode<T: Serialize>(self, value: &T) -> Result<Encoded, EncodeError> {
        Ok(match self {
            Codec::Json => Encoded::Text(serde_json::to_string(value)?),
            // Named fields: the frames are internally tagged, which needs maps.
            Codec::MsgPack => Encoded::Binary(rmp_serde::to_vec_named(value)?),
        })
    }

    pub fn decode_text<T: DeserializeOwned>(self, text: &str) -> Result<T, DecodeError> {
        match self {
            Codec::Json => Ok(serde_json::from_str(text)?),
            Codec::MsgPack => Err(DecodeError::WrongFrameKind { expected: "binary" }),
        }
    }

    pub fn decode_binary<T: DeserializeOwned>(self, bytes: &[u8]) -> Result<T, DecodeError> {
        match self {
            Codec::Json => Err(DecodeError::WrongFrameKind { expected: "text" }),
            Codec::MsgPack => Ok(rmp_serde::from_slice(bytes)?),
        }
    }
}
