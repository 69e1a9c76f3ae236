//! What attendees say about themselves: `PATCH /store-api/dsr/appointment/attendee`
//! (name, video user id; guides see it live) and
//! `PATCH /store-api/dsr/appointment/{id}/attendee/respond-invitation`.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use protocol::internal::AttendeeProfileRequest;
use rusqlite::params;
use serde_json::{json, Map, Value};

use super::appointment::{self, Appointment};
use super::attendee::{self, Attendee};
use crate::error::{ApiError, ApiResult, Violation};
use crate::state::App;
use crate::storage::{is_id, now_rfc3339};
use crate::store_api::{ContextToken, RequestParams, SalesChannel};

const MAX_LENGTH: usize = 255;

/// The answers an invitation takes.
pub const ANSWERS: &[&str] = &["accepted", "maybe", "declined"];

/// A text field of a PATCH body: absent (`None`), or a trimmed string within the
/// bounds; `null` clears it where `nullable`.
fn text_field(
    body: &Map<String, Value>,
    key: &str,
    nullable: bool,
    violations: &mut Vec<Violation>,
) -> Option<Option<String>> {
    let pointer = format!("/{key}");
    match body.get(key)? {
        Value::Null if nullable => Some(None),
        Value::String(s) => {
            let s = s.trim();
            if s.is_empty() && !nullable {
                violations.push(Violation::blank(pointer));
                None
            } else if s.chars().count() > MAX_LENGTH {
                violations.push(Violation::new(
                    "VIOLATION::TOO_LONG_ERROR",
                    pointer,
                    format!("The maximum length allowed is {MAX_LENGTH} characters."),
                ));
                None
            } else {
                Some((!s.is_empty()).then(|| s.to_owned()))
            }
        }
        _ => {
            violations.push(Violation::new(
                "VIOLATION::TYPE_ERROR",
                pointer,
                "This value should be of type string.",
            ));
            None
        }
    }
}

/// `PATCH /store-api/dsr/appointment/attendee`: answers the changed fields.
pub async fn update(
    _: SalesChannel,
    ContextToken(token): ContextToken,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let attendee = attendee::of_context(&app, token).await?;
    let mut violations = Vec::new();
    let name = text_field(&body, "attendeeName", false, &mut violations);
    let video_user_id = text_field(&body, "videoUserId", true, &mut violations);
    if !violations.is_empty() {
        return Err(ApiError::Violations(violations));
    }
    let mut data = Map::new();
    if let Some(name) = &name {
        data.insert("attendeeName".into(), json!(name));
    }
    if let Some(video) = &video_user_id {
        data.insert("videoUserId".into(), json!(video));
    }
    if data.is_empty() {
        return Ok(Json(
            json!({ "data": data, "apiAlias": "dsr.appointment.update-attendee" }),
        ));
    }
    let id = attendee.id.clone();
    let (n, v) = (name.clone(), video_user_id.clone());
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            if let Some(name) = n {
                tx.execute(
                    "UPDATE attendee SET name = ?2, updated_at = ?3 WHERE id = ?1",
                    params![id, name, now_rfc3339()],
                )?;
            }
            if let Some(video) = v {
                tx.execute(
                    "UPDATE attendee SET video_user_id = ?2, updated_at = ?3 WHERE id = ?1",
                    params![id, video, now_rfc3339()],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
        .await?;
    // In the background: the change is stored, and a slow or hanging hub must not hold
    // the attendee's request (the guides' view catches up when the hub answers).
    tokio::spawn(
        async move { publish_changed(&app, &attendee, name.flatten(), video_user_id).await },
    );
    Ok(Json(
        json!({ "data": data, "apiAlias": "dsr.appointment.update-attendee" }),
    ))
}

/// Tells the guides the attendee's new name (the hub merges it into its participant
/// list; attendees who never connected appear with their stored name when they do). The
/// change is stored already, so a hub that is down only delays the live view.
async fn publish_changed(
    app: &App,
    attendee: &Attendee,
    name: Option<String>,
    video_user_id: Option<Option<String>>,
) {
    let request = AttendeeProfileRequest {
        appointment_id: attendee.appointment_id.clone(),
        attendee_id: attendee.id.clone(),
        attendee_name: name,
        video_user_id,
    };
    if let Err(error) = app.hub.update_attendee_profile(&request).await {
        tracing::warn!(%error, "could not publish an attendee change");
    }
}

/// `PATCH /store-api/dsr/appointment/{appointmentId}/attendee/respond-invitation`
pub async fn respond_invitation(
    _: SalesChannel,
    ContextToken(token): ContextToken,
    State(app): State<App>,
    Path(appointment_id): Path<String>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let attendee = attendee::of_context(&app, token).await?;
    if !is_id(&appointment_id) {
        return Err(crate::catalog::invalid_id(
            &appointment_id,
            "/appointmentId",
        ));
    }
    // Only `token` is required by the document: without an answer the attendee's
    // invitation status stays as it is, and is answered.
    let answer = match body.get("answer") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if ANSWERS.contains(&s.as_str()) => Some(s.clone()),
        Some(_) => {
            return Err(ApiError::Violations(vec![Violation::new(
                "VIOLATION::NO_SUCH_CHOICE_ERROR",
                "/answer",
                "The value you selected is not a valid choice (accepted, maybe, declined).",
            )]))
        }
    };
    if body
        .get("token")
        .is_some_and(|t| !t.is_string() && !t.is_null())
    {
        return Err(ApiError::Violations(vec![Violation::new(
            "VIOLATION::TYPE_ERROR",
            "/token",
            "This value should be of type string.",
        )]));
    }
    if attendee.appointment_id != appointment_id || attendee.kind != "CLIENT" {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "DIGITAL_SALES_ROOMS__ATTENDEE_NOT_INVITED",
            "The context token does not belong to an invited attendee of this appointment.",
        ));
    }
    let id = attendee.id.clone();
    let mail_token = body
        .get("token")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .filter(|t| !t.is_empty());
    let (appointment, answer) = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            if let Some(answer) = &answer {
                tx.execute(
                    "UPDATE attendee SET invitation_status = ?2, updated_at = ?3 WHERE id = ?1",
                    params![id, answer, now_rfc3339()],
                )?;
                // An answer through an invitation mail is that address's answer.
                if let Some(token) = &mail_token {
                    if super::invite::record_answer(&tx, &appointment_id, token, &id, answer)? {
                        tx.execute(
                            "UPDATE attendee SET email = COALESCE(email, (SELECT email FROM appointment_invitation WHERE token = ?2)) WHERE id = ?1",
                            params![id, token],
                        )?;
                    }
                }
            }
            let answer: Option<String> = tx.query_row("SELECT invitation_status FROM attendee WHERE id = ?1", [&id], |r| r.get(0))?;
            let found = Appointment::by_id(&tx, &appointment_id)?;
            tx.commit()?;
            Ok(found.map(|a| (a, answer)))
        })
        .await?
        .ok_or_else(appointment::not_found)?;
    let status = match (&appointment.started_at, &appointment.ended_at) {
        (_, Some(_)) => json!("ended"),
        (Some(_), None) => json!("started"),
        _ => Value::Null,
    };
    let mut about = json!({ "id": appointment.id, "status": status });
    // The reference types them as date-time strings: an open window leaves them out.
    if let Some(from) = appointment.accessible_from {
        about["accessibleFrom"] = json!(from);
    }
    if let Some(to) = appointment.accessible_to {
        about["accessibleTo"] = json!(to);
    }
    Ok(Json(json!({ "appointment": about, "answer": answer })))
}
