//! `GET /store-api/dsr/appointments`: the shop's way into the live room. Lists the
//! appointments of the request's sales channel that a visitor may still join: guided or
//! self-service (`mode`, open in its window without a guide), not ended, open to everyone
//! or to customers (not rule-restricted), and not past their access window, named in the
//! request's language. Live ones first, then by start (`accessibleFrom`), then name;
//! at most [`LIMIT`]. Needs no context: the shop's home page links here.

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

use super::appointment::Appointment;
use crate::error::ApiResult;
use crate::state::App;
use crate::storage::now_rfc3339;
use crate::store_api::SalesChannel;

/// The most appointments one answer lists.
pub const LIMIT: usize = 50;

/// Whether a visitor may still come: guided or self-service, not ended, not
/// rule-restricted, its window not past.
fn listed(appointment: &Appointment, now: &str) -> bool {
    matches!(appointment.mode.as_str(), "guided" | "self")
        && appointment.ended_at.is_none()
        && appointment.attendee_restriction_type != "rules"
        && appointment
            .accessible_to
            .as_deref()
            .is_none_or(|to| now <= to)
}

fn to_json(appointment: &Appointment) -> Value {
    json!({
        "id": appointment.id,
        "presentationPath": appointment.presentation_path,
        "name": appointment.name,
        "mode": appointment.mode,
        "attendeeRestrictionType": appointment.attendee_restriction_type,
        "accessibleFrom": appointment.accessible_from,
        "accessibleTo": appointment.accessible_to,
        "timeZone": appointment.time_zone,
        "startedAt": appointment.started_at,
        "live": appointment.started_at.is_some(),
        "apiAlias": "dsr_public_appointment",
    })
}

/// `GET /store-api/dsr/appointments`
pub async fn list(
    channel: SalesChannel,
    State(app): State<App>,
    headers: axum::http::HeaderMap,
) -> ApiResult<Json<Value>> {
    let language = super::appointment::request_language(&headers);
    let mut appointments = app
        .db
        .call(move |conn| {
            let all = Appointment::of_sales_channel(conn, &channel.id)?;
            Ok(all
                .into_iter()
                .map(|a| a.in_language(conn, language.as_deref()))
                .collect::<rusqlite::Result<Vec<_>>>()?)
        })
        .await?;
    let now = now_rfc3339();
    appointments.retain(|appointment| listed(appointment, &now));
    appointments.sort_by(|a, b| {
        let start = |x: &Appointment| {
            (
                x.started_at.is_none(),
                x.accessible_from.is_none(),
                x.accessible_from.clone(),
                x.name.to_lowercase(),
            )
        };
        start(a).cmp(&start(b))
    });
    let total = appointments.len();
    let elements: Vec<Value> = appointments.iter().take(LIMIT).map(to_json).collect();
    Ok(Json(
        json!({ "elements": elements, "total": total, "limit": LIMIT, "apiAlias": "dsr_public_appointment_list" }),
    ))
}
