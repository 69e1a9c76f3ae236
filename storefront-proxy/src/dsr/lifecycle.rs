//! Starting and ending an appointment, and its live state (which the hub owns):
//! `POST /api/_action/dsr/appointment/{id}/start|end`,
//! `GET /api/_action/dsr/appointment/{id}/presentation/state` (guide) and
//! `GET /store-api/dsr/appointment/presentation/state` (client).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use protocol::frame::{AppointmentSettings, Event};
use protocol::internal::Audience;
use protocol::state::{
    AppointmentMode, AttendeeRestrictionType, Snapshot, StateForAll, VideoAudioSettings,
};
use rusqlite::params;
use serde_json::{json, Value};

use super::appointment::{self, Appointment};
use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::hub_client::hub_unavailable;
use crate::state::App;
use crate::storage::now_rfc3339;
use crate::store_api::{ContextToken, SalesChannel};

/// The appointment fields the hub shows in `stateForAll`.
pub fn settings(appointment: &Appointment) -> AppointmentSettings {
    AppointmentSettings {
        appointment_mode: match appointment.mode.as_str() {
            "self" => AppointmentMode::SelfGuided,
            _ => AppointmentMode::Guided,
        },
        video_audio_settings: match appointment.video_audio_settings.as_str() {
            "both" => VideoAudioSettings::Both,
            "audio-only" => VideoAudioSettings::AudioOnly,
            _ => VideoAudioSettings::None,
        },
        attendee_restriction_type: match appointment.attendee_restriction_type.as_str() {
            "customer" => Some(AttendeeRestrictionType::Customer),
            "rules" => Some(AttendeeRestrictionType::Rules),
            _ => Some(AttendeeRestrictionType::Open),
        },
        accessible_from: appointment.accessible_from.clone(),
        accessible_to: appointment.accessible_to.clone(),
        product_detail_default_page_id: None,
        quickview_page_id: None,
        product_listing_default_page_id: None,
    }
}

async fn load(app: &App, id: String) -> ApiResult<Appointment> {
    app.db
        .call(move |conn| Ok(Appointment::by_id(conn, &id)?))
        .await?
        .ok_or_else(appointment::not_found)
}

#[derive(Clone, Copy)]
enum Stamp {
    Started,
    Ended,
}

/// Sets the appointment's start or end time unless it is set (`Some`), or clears it
/// again (`None`); returns whether a row changed.
async fn stamp(app: &App, id: &str, which: Stamp, at: Option<String>) -> ApiResult<bool> {
    let id = id.to_owned();
    let column = match which {
        Stamp::Started => "started_at",
        Stamp::Ended => "ended_at",
    };
    let sql = match at {
        Some(_) => {
            format!("UPDATE appointment SET {column} = ?2 WHERE id = ?1 AND {column} IS NULL")
        }
        None => format!("UPDATE appointment SET {column} = NULL WHERE id = ?1 AND ?2 IS NULL"),
    };
    Ok(app
        .db
        .call(move |conn| Ok(conn.execute(&sql, params![id, at])? > 0))
        .await?)
}

/// `POST …/start` (204). Starting twice is harmless; an ended appointment stays ended.
pub async fn start(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let appointment = load(&app, id).await?;
    if appointment.ended_at.is_some() {
        return Err(ApiError::bad_request(
            "DIGITAL_SALES_ROOMS__APPOINTMENT_ENDED",
            "The appointment has ended.",
        ));
    }
    let started_at = now_rfc3339();
    if stamp(
        &app,
        &appointment.id,
        Stamp::Started,
        Some(started_at.clone()),
    )
    .await?
    {
        let published = async {
            app.hub
                .publish(
                    &appointment.id,
                    Audience::Everyone,
                    Event::AppointmentConfigured {
                        settings: settings(&appointment),
                    },
                )
                .await?;
            // The room starts in the appointment's broadcast mode; the guide switches it
            // from there (a default of off leaves what the guide chose before the start).
            if appointment.broadcast_mode {
                app.hub
                    .publish(
                        &appointment.id,
                        Audience::Everyone,
                        Event::BroadcastModeChanged { active: true },
                    )
                    .await?;
            }
            app.hub
                .publish(
                    &appointment.id,
                    Audience::Everyone,
                    Event::PresentationStarted { started_at },
                )
                .await
        }
        .await;
        if let Err(error) = published {
            // Undo, so that a retry starts it for everyone.
            stamp(&app, &appointment.id, Stamp::Started, None).await?;
            return Err(hub_unavailable(error));
        }
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `POST …/end` (200). Attendees keep their cart and wishlist afterwards.
pub async fn end(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let appointment = load(&app, id).await?;
    let ended_at = now_rfc3339();
    if stamp(&app, &appointment.id, Stamp::Ended, Some(ended_at.clone())).await? {
        if let Err(error) = app
            .hub
            .publish(
                &appointment.id,
                Audience::Everyone,
                Event::PresentationEnded { ended_at },
            )
            .await
        {
            stamp(&app, &appointment.id, Stamp::Ended, None).await?;
            return Err(hub_unavailable(error));
        }
    }
    Ok(StatusCode::OK.into_response())
}

/// `stateForAll` as the reference types it: `currentDynamicPage` is a
/// `DynamicPageOpenedPayload` object, so it is left out while no page is open (the
/// hub's `null`).
fn state_for_all(all: StateForAll) -> Value {
    let mut value = json!(all);
    if let Some(fields) = value.as_object_mut() {
        if fields.get("currentDynamicPage").is_some_and(Value::is_null) {
            fields.remove("currentDynamicPage");
        }
    }
    value
}

/// `GET /api/_action/dsr/appointment/{id}/presentation/state`
pub async fn guide_state(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let appointment = load(&app, id).await?;
    let snapshot = app
        .hub
        .state(&appointment.id)
        .await
        .map_err(hub_unavailable)?;
    Ok(Json(guide_state_body(snapshot)))
}

/// The guide's `presentation/state` answer from the hub's live state.
pub fn guide_state_body(snapshot: Snapshot) -> Value {
    json!({
        "stateForAll": state_for_all(snapshot.state_for_all),
        "stateForGuides": snapshot.state_for_guides.unwrap_or_default(),
        "apiAlias": "swag_digital_sales_rooms_content_presentation_state_admin_get_get_guide_presentation_state_struct",
    })
}

/// A client's `presentation/state` answer from the hub's live state.
pub fn client_state_body(snapshot: Snapshot) -> Value {
    json!({
        "stateForAll": state_for_all(snapshot.state_for_all),
        "stateForClients": snapshot.state_for_clients,
        "apiAlias": "swag_digital_sales_rooms_content_presentation_state_sales_channel_get_get_client_presentation_state_struct",
    })
}

/// `GET /store-api/dsr/appointment/presentation/state`, for the attendee of the context.
pub async fn client_state(
    _: SalesChannel,
    ContextToken(token): ContextToken,
    State(app): State<App>,
) -> ApiResult<Json<Value>> {
    let attendee = super::attendee::of_context(&app, token).await?;
    let snapshot = app
        .hub
        .attendee_state(&attendee.appointment_id, &attendee.id)
        .await
        .map_err(hub_unavailable)?;
    Ok(Json(client_state_body(snapshot)))
}
