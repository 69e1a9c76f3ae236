//! What the room shows before and around the presentation:
//! `GET /store-api/dsr/appointment/{presentationPath}/basic-setting` and
//! `GET /store-api/dsr/shop-pages/{layoutName}` (terms, privacy, imprint as CMS pages).

use axum::extract::{Path, State};
use axum::Json;
use serde_json::{json, Value};

use super::appointment::{self, Appointment};
use crate::cms::page::{self, Resolve};
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::is_id;
use crate::store_api::SalesChannel;
use crate::store_api::ShopContext;

/// The shop pages by layout name; `terms` is another name of `tos`.
pub const SHOP_PAGES: &[&str] = &["tos", "privacy", "imprint"];

/// `GET /store-api/dsr/appointment/{presentationPath}/basic-setting` (the appointment
/// id is taken too). Needs no attendee: the room shows it before joining, and the
/// pre-join screen checks it first (`ended`, `accessible` now, who may join).
pub async fn basic_setting(
    channel: SalesChannel,
    State(app): State<App>,
    Path(path): Path<String>,
    headers: axum::http::HeaderMap,
) -> ApiResult<Json<Value>> {
    let language = appointment::request_language(&headers);
    let appointment = app
        .db
        .call(move |conn| {
            let by_path = Appointment::by_path(conn, &path)?;
            let found = match by_path {
                Some(found) => Some(found),
                None if is_id(&path) => Appointment::by_id(conn, &path)?,
                None => None,
            };
            Ok(match found {
                Some(found) => Some(found.in_language(conn, language.as_deref())?),
                None => None,
            })
        })
        .await?
        .filter(|a| a.sales_channel_id == channel.id)
        .ok_or_else(appointment::not_found)?;
    // What the pre-join screen says before it asks for a name: ended, or outside its
    // window (the join refuses both the same way).
    let now = crate::storage::now_rfc3339();
    let accessible = appointment
        .accessible_from
        .as_deref()
        .is_none_or(|from| now.as_str() >= from)
        && appointment
            .accessible_to
            .as_deref()
            .is_none_or(|to| now.as_str() <= to);
    Ok(Json(json!({
        "mode": appointment.mode,
        "attendeeRestrictionType": appointment.attendee_restriction_type,
        "videoAudioSettings": appointment.video_audio_settings,
        "canSendRequestEmail": false,
        "canBookAppointment": false,
        "enableWishlist": true,
        "bookingLink": null,
        "appointmentName": appointment.name,
        // When it opens, shown in the viewer's own zone; the zone it was planned in.
        "accessibleFrom": appointment.accessible_from,
        "accessibleTo": appointment.accessible_to,
        "timeZone": appointment.time_zone,
        "salesChannelName": channel.name,
        "ended": appointment.ended_at.is_some(),
        "accessible": accessible,
        "apiAlias": "appointment_basic_setting",
    })))
}

pub fn shop_page_not_found(name: &str) -> ApiError {
    ApiError::not_found(
        "DIGITAL_SALES_ROOMS__SHOP_PAGE_NOT_FOUND",
        format!("The shop page \"{name}\" does not exist."),
    )
}

/// `GET /store-api/dsr/shop-pages/{layoutName}`: the CMS page of a shop page.
pub async fn shop_page(
    ctx: ShopContext,
    State(app): State<App>,
    Path(name): Path<String>,
) -> ApiResult<Json<Value>> {
    let layout = match name.as_str() {
        "terms" => "tos".to_owned(),
        other => other.to_owned(),
    };
    let found = app
        .db
        .call(move |conn| {
            // The basic information's page first, as Shopware links its legal pages.
            let Some(page_id) = crate::cms::shop_page::page_id(conn, &layout)? else {
                return Ok(Ok(None));
            };
            Ok(page::load(
                conn,
                &ctx,
                &page_id,
                &Resolve {
                    category_id: None,
                    listing: None,
                },
            ))
        })
        .await??;
    found.map(Json).ok_or_else(|| shop_page_not_found(&name))
}
