//! The shop context of a store API request ([`ShopContext`]: sales channel, language,
//! session, base URL) and the session behind `sw-context-token`. Every shop domain
//! needs them; they live here, below the domains, and `context` serves the
//! `/context` calls on top of them.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::StatusCode;
use rusqlite::{params, Connection, OptionalExtension};

use super::{ContextToken, SalesChannel};
use crate::error::ApiError;
use crate::state::App;
use crate::storage::translation::LanguageChain;
use crate::storage::{is_id, new_id, now_rfc3339};

pub const LANGUAGE_HEADER: &str = "sw-language-id";
pub const INCLUDE_SEO_URLS_HEADER: &str = "sw-include-seo-urls";

/// Shopware's live version id, the `versionId` of every entity of the store API.
pub const LIVE_VERSION_ID: &str = "0fa91ce3e96a4bc2be4bd9ce752c3425";

/// The session of `token` in this sales channel, created when unknown. Answers the
/// token and whether it is new.
pub fn ensure_session(conn: &Connection, sales_channel_id: &str, token: Option<&str>) -> rusqlite::Result<String> {
    if let Some(token) = token {
        let known: Option<String> = conn
            .query_row(
                "SELECT token FROM store_context WHERE token = ?1 AND sales_channel_id = ?2",
                params![token, sales_channel_id],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(token) = known {
            return Ok(token);
        }
    }
    let token = new_id() + &new_id();
    let now = now_rfc3339();
    conn.execute(
        "INSERT INTO store_context (token, sales_channel_id, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)",
        params![token, sales_channel_id, now],
    )?;
    Ok(token)
}

/// What every catalogue call needs to know about its request.
#[derive(Debug, Clone)]
pub struct ShopContext {
    pub sales_channel: SalesChannel,
    /// The request's language (`sw-language-id`, else the session's, else the sales
    /// channel's), then the sales channel's default.
    pub languages: LanguageChain,
    pub token: Option<String>,
    /// `scheme://host` of the request, for absolute media URLs.
    pub base_url: String,
    /// `sw-include-seo-urls: true`: entities carry their `seoUrls`.
    pub include_seo_urls: bool,
}

impl ShopContext {
    pub fn language_id(&self) -> &str {
        &self.languages.current
    }
}

/// Whether the sales channel offers the language.
pub fn language_available(conn: &Connection, sales_channel_id: &str, language_id: &str) -> rusqlite::Result<bool> {
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
        let Ok(ContextToken(token)) = ContextToken::from_request_parts(parts, app).await;
        let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim).filter(|v| !v.is_empty());
        let requested = header(LANGUAGE_HEADER).map(str::to_lowercase);
        let include_seo_urls = header(INCLUDE_SEO_URLS_HEADER).is_some_and(|v| v == "true" || v == "1");
        let scheme = header("x-forwarded-proto").unwrap_or("http").to_owned();
        let host = header("x-forwarded-host").or_else(|| header("host")).unwrap_or("127.0.0.1").to_owned();
        let base_url = format!("{scheme}://{host}");
        if let Some(id) = &requested {
            if !is_id(id) {
                return Err(language_not_available(id));
            }
        }
        let (channel_id, default_language, session_token) = (sales_channel.id.clone(), sales_channel.language_id.clone(), token.clone());
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
        let languages = LanguageChain { current, fallback: sales_channel.language_id.clone() };
        Ok(ShopContext { sales_channel, languages, token, base_url, include_seo_urls })
    }
}
