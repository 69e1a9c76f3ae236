//! Attendees' carts and the guide: the proxied store API cart under
//! `/api/_proxy/store-api/{salesChannelId}/checkout/cart[/line-item]` (the attendee of
//! the `sw-context-token` header, or of the `attendeeId` query parameter, and only
//! while they granted cart permission). The cart calls emit the shop event that the
//! room relays to the hub as `AttendeeCartChanged` (see `relay`), once per change,
//! whether the attendee or the guide made it.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use rusqlite::OptionalExtension;

use super::attendee::{self, Attendee};
use crate::admin::AdminUser;
use crate::cart::line_item;
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::is_id;
use crate::storage::translation::LanguageChain;
use crate::store_api::{language_available, language_not_available, ShopContext, LANGUAGE_HEADER};
use crate::store_api::{token_key, RequestParams, SalesChannel, CONTEXT_TOKEN_HEADER};

/// A shop context of sales channel `id` (its default language) for admin calls.
pub async fn shop_context(
    app: &App,
    headers: &HeaderMap,
    sales_channel_id: Option<String>,
    token: Option<String>,
) -> ApiResult<ShopContext> {
    // As in the admin API of Shopware: `sw-language-id` picks one of the channel's languages.
    let requested = headers
        .get(LANGUAGE_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().to_lowercase())
        .filter(|v| !v.is_empty());
    if let Some(id) = requested.as_deref().filter(|id| !is_id(id)) {
        return Err(language_not_available(id));
    }
    let (channel, language) = app
        .db
        .call(move |conn| {
            let sql = "SELECT id, name, language_id FROM sales_channel WHERE ?1 IS NULL OR id = ?1 ORDER BY id LIMIT 1";
            let Some(channel) = conn
                .query_row(sql, [sales_channel_id], |r| Ok(SalesChannel { id: r.get(0)?, name: r.get(1)?, language_id: r.get(2)? }))
                .optional()?
            else {
                return Ok(None);
            };
            let language = match requested {
                Some(id) => {
                    if language_available(conn, &channel.id, &id)? {
                        Ok(id)
                    } else {
                        Err(id)
                    }
                }
                None => Ok(channel.language_id.clone()),
            };
            Ok(Some((channel, language)))
        })
        .await?
        .ok_or_else(|| ApiError::not_found("FRAMEWORK__SALES_CHANNEL_NOT_FOUND", "The sales channel could not be found."))?;
    let current = language.map_err(|id| language_not_available(&id))?;
    let host = headers
        .get("host")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("127.0.0.1");
    let languages = LanguageChain {
        current,
        fallback: channel.language_id.clone(),
    };
    Ok(ShopContext {
        sales_channel: channel,
        languages,
        token,
        client_token: None,
        base_url: format!("http://{host}"),
        include_seo_urls: false,
    })
}

/// The attendee whose cart a proxied call acts on, after the permission check.
async fn attendee_context(
    app: &App,
    headers: &HeaderMap,
    uri: &Uri,
    sales_channel_id: String,
) -> ApiResult<ShopContext> {
    if !is_id(&sales_channel_id) {
        return Err(crate::catalog::invalid_id(
            &sales_channel_id,
            "/salesChannelId",
        ));
    }
    let token = headers
        .get(CONTEXT_TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty())
        .map(str::to_owned);
    let attendee_id = axum::extract::Query::<Vec<(String, String)>>::try_from_uri(uri)
        .ok()
        .and_then(|q| {
            q.0.into_iter()
                .find(|(k, _)| k == "attendeeId")
                .map(|(_, v)| v)
        });
    let found =
        match (token, attendee_id) {
            // A delegated token names its attendee; else the token is a session's (stored
            // as its key).
            (Some(token), _) => match super::delegation::attendee_of(app, &token).await? {
                Some(attendee) => Some(attendee),
                None => {
                    let key = token_key(&token);
                    app.db
                        .call(move |conn| Ok(Attendee::by_context_token(conn, &key)?))
                        .await?
                }
            },
            (None, Some(id)) => {
                app.db
                    .call(move |conn| Ok(Attendee::by_id(conn, &id)?))
                    .await?
            }
            (None, None) => return Err(ApiError::bad_request(
                "DIGITAL_SALES_ROOMS__ATTENDEE_MISSING",
                "Name the attendee with the sw-context-token header or the attendeeId parameter.",
            )),
        };
    let attendee = found
        .filter(|a| a.kind == "CLIENT")
        .ok_or_else(attendee::not_found)?;
    attendee::require_cart_permission(app, &attendee).await?;
    let (token, channel) = (attendee.context_token.clone(), sales_channel_id.clone());
    let in_channel: bool = app
        .db
        .call(move |conn| {
            Ok(conn.query_row(
                "SELECT EXISTS(SELECT 1 FROM store_context WHERE token = ?1 AND sales_channel_id = ?2)",
                [token, channel],
                |r| r.get(0),
            )?)
        })
        .await?;
    if !in_channel {
        return Err(attendee::not_found());
    }
    shop_context(
        app,
        headers,
        Some(sales_channel_id),
        Some(attendee.context_token),
    )
    .await
}

/// `GET /api/_proxy/store-api/{salesChannelId}/checkout/cart`
pub async fn get_cart(
    _: AdminUser,
    State(app): State<App>,
    Path(channel): Path<String>,
    headers: HeaderMap,
    uri: Uri,
) -> ApiResult<Response> {
    let ctx = attendee_context(&app, &headers, &uri, channel).await?;
    line_item::get_cart(ctx, State(app)).await
}

/// `POST /api/_proxy/store-api/{salesChannelId}/checkout/cart/line-item`
pub async fn add(
    _: AdminUser,
    State(app): State<App>,
    Path(channel): Path<String>,
    headers: HeaderMap,
    uri: Uri,
    params: RequestParams,
) -> ApiResult<Response> {
    let ctx = attendee_context(&app, &headers, &uri, channel).await?;
    line_item::add(ctx, State(app), params).await
}

/// `PATCH /api/_proxy/store-api/{salesChannelId}/checkout/cart/line-item`
pub async fn update(
    _: AdminUser,
    State(app): State<App>,
    Path(channel): Path<String>,
    headers: HeaderMap,
    uri: Uri,
    params: RequestParams,
) -> ApiResult<Response> {
    let ctx = attendee_context(&app, &headers, &uri, channel).await?;
    line_item::update(ctx, State(app), params).await
}

/// `DELETE /api/_proxy/store-api/{salesChannelId}/checkout/cart/line-item?ids[]=…`
pub async fn remove(
    _: AdminUser,
    State(app): State<App>,
    Path(channel): Path<String>,
    headers: HeaderMap,
    uri: Uri,
) -> ApiResult<Response> {
    let ctx = attendee_context(&app, &headers, &uri, channel).await?;
    line_item::remove_by_query(ctx, State(app), uri).await
}
