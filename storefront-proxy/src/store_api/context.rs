//! The shop context of a store API request ([`ShopContext`]: sales channel, language,
//! session, base URL) and the session behind `sw-context-token`. Every shop domain
//! needs them; they live here, below the domains, and `context` serves the
//! `/context` calls on top of them.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::StatusCode;
use rusqlite::{Connection, OptionalExtension};

use super::SalesChannel;
use crate::error::ApiError;
use crate::state::App;
use crate::storage::is_id;
use crate::storage::translation::LanguageChain;

pub const LANGUAGE_HEADER: &str = "sw-language-id";
pub const INCLUDE_SEO_URLS_HEADER: &str = "sw-include-seo-urls";

/// Shopware's live version id, the `versionId` of every entity of the store API.
pub const LIVE_VERSION_ID: &str = "0fa91ce3e96a4bc2be4bd9ce752c3425";

/// What every catalogue call needs to know about its request.
#[derive(Debug, Clone)]
pub struct ShopContext {
    pub sales_channel: SalesChannel,
    /// The request's language (`sw-language-id`, else the session's, else the sales
    /// channel's), then the sales channel's default.
    pub languages: LanguageChain,
    /// The session's key (the SHA-256 of the client's `sw-context-token`, which names
    /// its rows; `store_api::session`), if the request has a live session.
    pub token: Option<String>,
    /// The `sw-context-token` itself, for the answer: with `token`, or neither.
    pub client_token: Option<String>,
    /// `scheme://host` of the request, for absolute media URLs.
    pub base_url: String,
    /// `sw-include-seo-urls: true`: entities carry their `seoUrls`.
    pub include_seo_urls: bool,
}

impl ShopContext {
    pub fn language_id(&self) -> &str {
        &self.languages.current
    }

    /// The stored session of the request, stored now if it was not
    /// ([`super::session::ensure_session`]): for calls that give it state.
    pub fn ensure_session(&self, conn: &Connection) -> rusqlite::Result<super::Session> {
        super::ensure_session(
            conn,
            &self.sales_channel.id,
            self.token.as_deref(),
            self.client_token.as_deref(),
        )
    }

    /// The request's session for a call that only reads: not stored when new.
    pub fn peek_session(&self) -> super::Session {
        super::peek_session(self.token.as_deref(), self.client_token.as_deref())
    }
}

/// Whether the sales channel offers the language.
pub fn language_available(
    conn: &Connection,
    sales_channel_id: &str,
    language_id: &str,
) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS(SELECT 1 FROM sales_channel_language WHERE sales_channel_id = ?1 AND language_id = ?2)",
        [sales_channel_id, language_id],
        |r| r.get(0),
    )
}

pub fn language_not_available(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::PRECONDITION_FAILED,
        "SYSTEM__SALES_CHANNEL_LANGUAGE_NOT_AVAILABLE_EXCEPTION",
        format!("Provided language {id} is not in list of available languages"),
    )
}

impl FromRequestParts<App> for ShopContext {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        let sales_channel = SalesChannel::from_request_parts(parts, app).await?;
        let resolved = super::resolved(parts);
        let (token, client_token) = match resolved.key {
            Some(key) => (Some(key), resolved.token),
            None => (None, None),
        };
        let header = |name: &str| {
            parts
                .headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::trim)
                .filter(|v| !v.is_empty())
        };
        let requested = header(LANGUAGE_HEADER).map(str::to_lowercase);
        let include_seo_urls =
            header(INCLUDE_SEO_URLS_HEADER).is_some_and(|v| v == "true" || v == "1");
        // X-Forwarded-Host/-Proto only from a trusted proxy (issue #29).
        let base_url = app
            .security
            .request_origin(crate::security::peer_of(parts), &parts.headers);
        if let Some(id) = &requested {
            if !is_id(id) {
                return Err(language_not_available(id));
            }
        }
        let (channel_id, default_language, session_token) = (
            sales_channel.id.clone(),
            sales_channel.language_id.clone(),
            token.clone(),
        );
        let current = app
            .db
            .read(move |conn| {
                if let Some(id) = requested {
                    let available = language_available(conn, &channel_id, &id)?;
                    return Ok(if available { Ok(id) } else { Err(language_not_available(&id)) });
                }
                let stored: Option<String> = match session_token {
                    Some(token) => conn
                        .query_row(
                            "SELECT language_id FROM store_context WHERE token = ?1 AND sales_channel_id = ?2",
                            [&token, &channel_id],
                            |r| r.get(0),
                        )
                        .optional()?
                        .flatten(),
                    None => None,
                };
                Ok(Ok(stored.unwrap_or(default_language)))
            })
            .await??;
        let languages = LanguageChain {
            current,
            fallback: sales_channel.language_id.clone(),
        };
        Ok(ShopContext {
            sales_channel,
            languages,
            token,
            client_token,
            base_url,
            include_seo_urls,
        })
    }
}
