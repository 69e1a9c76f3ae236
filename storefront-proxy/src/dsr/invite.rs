//! Invitations by e-mail: `POST /api/_action/dsr/appointment/{id}/invite` writes one mail
//! per address into the outbox, with a calendar entry (`.ics`, one VEVENT in UTC) and
//! accept / maybe / decline links into the invitation page, whose answer
//! (`…/attendee/respond-invitation` with the mail's `token`) is then this address's.
//! `GET …/invitations` lists who was invited and what they answered. Admins and guides
//! may invite (guides run the appointments); customers and anonymous callers may not.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use chrono::{DateTime, Duration, Utc};
use icalendar::{Calendar, Component, EventLike};
use rusqlite::{params, Connection};
use serde_json::{json, Value};

use super::appointment::{self, Appointment};
use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult, Violation};
use crate::mail::text::{self, InvitationLinks, Lang};
use crate::mail::{self, Attachment};
use crate::state::App;
use crate::storage::{is_id, new_id, now_rfc3339};
use crate::store_api::RequestParams;

/// The most addresses one request invites.
pub const MAX_EMAILS: usize = 50;
/// The length of an appointment without an end (`accessibleTo`) in the calendar entry.
pub const DEFAULT_LENGTH_MINUTES: i64 = 60;
const MAX_EMAIL_LENGTH: usize = 254;

/// A plausible address: one `@`, something before it, a dot after it, no spaces.
fn is_email(email: &str) -> bool {
    crate::account::session::is_email(email) && email.chars().count() <= MAX_EMAIL_LENGTH
}

/// The addresses of the body (`emails`), trimmed, lowercased and deduplicated, or the
/// violations (each at its index).
fn emails(body: &serde_json::Map<String, Value>) -> Result<Vec<String>, Vec<Violation>> {
    let list = match body.get("emails") {
        Some(Value::Array(list)) if !list.is_empty() => list,
        Some(Value::Array(_)) | None | Some(Value::Null) => {
            return Err(vec![Violation::blank("/emails")])
        }
        Some(_) => {
            return Err(vec![Violation::new(
                "VIOLATION::TYPE_ERROR",
                "/emails",
                "This value should be a list of e-mail addresses.",
            )])
        }
    };
    if list.len() > MAX_EMAILS {
        return Err(vec![Violation::new(
            "VIOLATION::TOO_MANY_ELEMENTS_ERROR",
            "/emails",
            format!("One request invites at most {MAX_EMAILS} addresses."),
        )]);
    }
    let mut found: Vec<String> = Vec::new();
    let mut violations = Vec::new();
    for (n, value) in list.iter().enumerate() {
        match value.as_str().map(|s| s.trim().to_lowercase()) {
            Some(email) if is_email(&email) => {
                if !found.contains(&email) {
                    found.push(email);
                }
            }
            _ => violations.push(Violation::new(
                "VIOLATION::INVALID_EMAIL_FORMAT_ERROR",
                format!("/emails/{n}"),
                "This value is not a valid email address.",
            )),
        }
    }
    if violations.is_empty() {
        Ok(found)
    } else {
        Err(violations)
    }
}

fn utc(date: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(date)
        .ok()
        .map(|d| d.with_timezone(&Utc))
}

/// The calendar file of an invitation: one event, the same UID for every mail of the
/// appointment (a later invitation updates the entry instead of adding one).
pub fn calendar(
    appointment: &Appointment,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    url: &str,
    description: &str,
) -> String {
    let event = icalendar::Event::new()
        .uid(&format!("{}@salesroom.example", appointment.id))
        .summary(&appointment.name)
        .description(description)
        .starts(start)
        .ends(end)
        .url(url)
        .location(url)
        .done();
    let mut calendar = Calendar::new();
    calendar.append_property(("METHOD", "PUBLISH"));
    // The times are UTC (no VTIMEZONE needed); the zone it was planned in is named here
    // and in the description.
    calendar.append_property(("X-WR-TIMEZONE", appointment.time_zone.as_str()));
    calendar.push(event);
    calendar.done().to_string()
}

/// When an appointment runs in the calendar: from its start (`accessibleFrom`) to its end
/// (`accessibleTo`), or [`DEFAULT_LENGTH_MINUTES`] without one; None without a start.
fn times(appointment: &Appointment) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
    let start = appointment.accessible_from.as_deref().and_then(utc)?;
    let end = appointment
        .accessible_to
        .as_deref()
        .and_then(utc)
        .filter(|end| *end > start);
    Some((
        start,
        end.unwrap_or(start + Duration::minutes(DEFAULT_LENGTH_MINUTES)),
    ))
}

/// The calendar file of the invitation with `token` (the one its mail carries; the same
/// file `download-ics` answers): None when the appointment has no start.
pub fn invitation_calendar(appointment: &Appointment, base: &str, token: &str) -> Option<String> {
    let (start, end) = times(appointment)?;
    let invitation = format!(
        "{base}/invitation/{}?token={token}",
        appointment.presentation_path
    );
    let join = format!("{base}/presentation/{}", appointment.presentation_path);
    Some(calendar(
        appointment,
        start,
        end,
        &invitation,
        &format!(
            "{}\n{}\n{join}",
            appointment.name,
            appointment::wall_clock(start, &appointment.time_zone, false)
        ),
    ))
}

/// The shop's public origin for links in mails and calendar files: `SHOP_ENDPOINT`
/// (else the first of `SHOP_DOMAINS`, else this server's loopback origin), never the
/// request's `Host` or `X-Forwarded-Host` (issue #29).
pub(super) fn origin(app: &App) -> String {
    app.config
        .shop_origins()
        .into_iter()
        .next()
        .unwrap_or_default()
}

pub(super) fn appointment_of(
    conn: &Connection,
    id: &str,
    language: Option<&str>,
) -> rusqlite::Result<Option<Appointment>> {
    match Appointment::by_id(conn, id)? {
        Some(found) => Ok(Some(found.in_language(conn, language)?)),
        None => Ok(None),
    }
}

/// `POST /api/_action/dsr/appointment/{id}/invite` with `{"emails": [...], "languageId"?}`:
/// the mails' language (default: the sales channel's).
pub async fn invite(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    if !is_id(&id) {
        return Err(appointment::not_found());
    }
    let addresses = emails(&body).map_err(ApiError::Violations)?;
    let language = match body.get("languageId") {
        None | Some(Value::Null) => None,
        Some(Value::String(l)) if is_id(&l.to_lowercase()) => Some(l.to_lowercase()),
        Some(_) => {
            return Err(ApiError::Violations(vec![Violation::new(
                "VIOLATION::INVALID_ID",
                "/languageId",
                "A language id is 32 lowercase hexadecimal characters.",
            )]))
        }
    };
    let base = origin(&app);
    let sent = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(appointment) = appointment_of(&tx, &id, language.as_deref())? else { return Ok(Err(appointment::not_found())) };
            if appointment.ended_at.is_some() {
                return Ok(Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "DIGITAL_SALES_ROOMS__APPOINTMENT_ENDED",
                    "The appointment has ended; no one can be invited to it.",
                )));
            }
            let Some((start, _)) = times(&appointment) else {
                return Ok(Err(ApiError::Violations(vec![Violation::new(
                    "DIGITAL_SALES_ROOMS__APPOINTMENT_WITHOUT_START",
                    "/accessibleFrom",
                    "An invitation needs the appointment's start (accessibleFrom).",
                )])));
            };
            let lang_id = match &language {
                Some(l) => l.clone(),
                None => tx.query_row("SELECT language_id FROM sales_channel WHERE id = ?1", [&appointment.sales_channel_id], |r| r.get(0))?,
            };
            let lang = Lang::of(&tx, &lang_id)?;
            let when = appointment::wall_clock(start, &appointment.time_zone, lang == Lang::De);
            let mut sent = Vec::new();
            for email in addresses {
                let token = new_id();
                let invitation = format!("{base}/invitation/{}?token={token}", appointment.presentation_path);
                let links = InvitationLinks {
                    accept: format!("{invitation}&answer=accepted"),
                    maybe: format!("{invitation}&answer=maybe"),
                    decline: format!("{invitation}&answer=declined"),
                    invitation: invitation.clone(),
                };
                let mut mail = text::appointment_invitation(lang, &email, &appointment.name, &when, &links);
                let ics = invitation_calendar(&appointment, &base, &token).unwrap_or_default();
                mail.attachments.push(Attachment {
                    content_type: "text/calendar".into(),
                    file_name: "invitation.ics".into(),
                    content: ics.into_bytes(),
                });
                let mail_id = mail::send(&tx, mail)?;
                let invitation_id = new_id();
                let sent_at = now_rfc3339();
                tx.execute(
                    "INSERT INTO appointment_invitation (id, appointment_id, email, token, mail_id, sent_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![invitation_id, appointment.id, email, token, mail_id, sent_at],
                )?;
                sent.push(json!({ "id": invitation_id, "email": email, "mailId": mail_id, "sentAt": sent_at }));
            }
            tx.commit()?;
            Ok(Ok(sent))
        })
        .await??;
    Ok(Json(json!({ "data": sent, "total": sent.len() })))
}

/// `GET /api/_action/dsr/appointment/{id}/invitations`: every invitation sent, newest
/// first, with its answer (`null` until given) and the attendee who answered.
pub async fn invitations(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    if !is_id(&id) {
        return Err(appointment::not_found());
    }
    let found = app
        .db
        .call(move |conn| {
            if Appointment::by_id(conn, &id)?.is_none() {
                return Ok(None);
            }
            let mut statement = conn.prepare(
                "SELECT i.id, i.email, i.sent_at, i.answer, i.answered_at, i.attendee_id, a.name
                 FROM appointment_invitation i LEFT JOIN attendee a ON a.id = i.attendee_id
                 WHERE i.appointment_id = ?1 ORDER BY i.sent_at DESC, i.rowid DESC",
            )?;
            let rows = statement.query_map([&id], |r| {
                Ok(json!({
                    "id": r.get::<_, String>(0)?,
                    "email": r.get::<_, String>(1)?,
                    "sentAt": r.get::<_, String>(2)?,
                    "answer": r.get::<_, Option<String>>(3)?,
                    "answeredAt": r.get::<_, Option<String>>(4)?,
                    "attendeeId": r.get::<_, Option<String>>(5)?,
                    "attendeeName": r.get::<_, Option<String>>(6)?,
                }))
            })?;
            Ok(Some(rows.collect::<rusqlite::Result<Vec<Value>>>()?))
        })
        .await?
        .ok_or_else(appointment::not_found)?;
    Ok(Json(json!({ "data": found, "total": found.len() })))
}

/// The invitation an answer given with `token` belongs to: records the answer there.
pub fn record_answer(
    conn: &Connection,
    appointment_id: &str,
    token: &str,
    attendee_id: &str,
    answer: &str,
) -> rusqlite::Result<bool> {
    let changed = conn.execute(
        "UPDATE appointment_invitation SET answer = ?4, attendee_id = ?3, answered_at = ?5 WHERE appointment_id = ?1 AND token = ?2",
        params![appointment_id, token, attendee_id, answer, now_rfc3339()],
    )?;
    Ok(changed > 0)
}
