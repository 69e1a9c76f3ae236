//! `POST /store-api/dsr/appointment/request`: a customer asks for an appointment (name,
//! address, salutation, subject, optional company, phone and message). The request is
//! stored; admins list it through the Admin API (`POST /api/search/dsr-appointment-request`).
//! When the caller is an attendee of an appointment (their context token), the request
//! names that appointment and that attendee as its requester; `appointmentId` in the body
//! names one otherwise. Every field has a limit; a sales channel keeps at most
//! [`MAX_OPEN_PER_ADDRESS`] unhandled requests of one address.

use axum::extract::State;
use axum::Json;
use serde_json::{json, Map, Value};

use super::attendee::Attendee;
use crate::error::{ApiError, ApiResult, Violation};
use crate::state::App;
use crate::storage::{is_id, new_id, now_rfc3339};
use crate::store_api::{ContextToken, RequestParams, SalesChannel};

/// The most unhandled requests one e-mail address has open in a sales channel.
pub const MAX_OPEN_PER_ADDRESS: i64 = 5;
const MAX_NAME: usize = 255;
const MAX_EMAIL: usize = 254;
const MAX_PHONE: usize = 64;
const MAX_MESSAGE: usize = 5000;

/// A request as checked.
struct Request {
    salutation_id: String,
    first_name: String,
    last_name: String,
    email: String,
    company: Option<String>,
    phone: Option<String>,
    subject: String,
    message: Option<String>,
    appointment_id: Option<String>,
}

/// A string field: trimmed, None when absent or empty; a violation when it is not a
/// string, too long, or (when `required`) missing.
fn text(
    body: &Map<String, Value>,
    name: &str,
    max: usize,
    required: bool,
    out: &mut Vec<Violation>,
) -> Option<String> {
    let pointer = format!("/{name}");
    match body.get(name) {
        None | Some(Value::Null) => {
            if required {
                out.push(Violation::blank(pointer));
            }
            None
        }
        Some(Value::String(value)) => {
            let value = value.trim();
            if value.is_empty() {
                if required {
                    out.push(Violation::blank(pointer));
                }
                None
            } else if value.chars().count() > max {
                out.push(Violation::new(
                    "VIOLATION::TOO_LONG_ERROR",
                    pointer,
                    format!("This value is too long. It should have {max} characters or less."),
                ));
                None
            } else {
                Some(value.to_owned())
            }
        }
        Some(_) => {
            out.push(Violation::new(
                "VIOLATION::TYPE_ERROR",
                pointer,
                "This value should be of type string.",
            ));
            None
        }
    }
}

fn parse(body: &Map<String, Value>) -> Result<Request, Vec<Violation>> {
    let mut out = Vec::new();
    let salutation_id = text(body, "salutationId", 32, true, &mut out).map(|s| s.to_lowercase());
    if let Some(id) = salutation_id.as_deref().filter(|id| !is_id(id)) {
        out.push(Violation::new(
            "VIOLATION::INVALID_ID",
            "/salutationId",
            format!("\"{id}\" is not a valid id."),
        ));
    }
    let first_name = text(body, "firstName", MAX_NAME, true, &mut out);
    let last_name = text(body, "lastName", MAX_NAME, true, &mut out);
    let email = text(body, "emailAddress", MAX_EMAIL, true, &mut out).map(|e| e.to_lowercase());
    if let Some(email) = email
        .as_deref()
        .filter(|e| !crate::account::session::is_email(e))
    {
        out.push(Violation::new(
            "VIOLATION::INVALID_EMAIL_FORMAT_ERROR",
            "/emailAddress",
            format!("\"{email}\" is not a valid email address."),
        ));
    }
    let company = text(body, "companyName", MAX_NAME, false, &mut out);
    let phone = text(body, "phoneNumber", MAX_PHONE, false, &mut out);
    let subject = text(body, "subject", MAX_NAME, true, &mut out);
    let message = text(body, "message", MAX_MESSAGE, false, &mut out);
    let appointment_id = text(body, "appointmentId", 32, false, &mut out).map(|s| s.to_lowercase());
    if let Some(id) = appointment_id.as_deref().filter(|id| !is_id(id)) {
        out.push(Violation::new(
            "VIOLATION::INVALID_ID",
            "/appointmentId",
            format!("\"{id}\" is not a valid id."),
        ));
    }
    match (salutation_id, first_name, last_name, email, subject) {
        (Some(salutation_id), Some(first_name), Some(last_name), Some(email), Some(subject))
            if out.is_empty() =>
        {
            Ok(Request {
                salutation_id,
                first_name,
                last_name,
                email,
                company,
                phone,
                subject,
                message,
                appointment_id,
            })
        }
        _ => Err(out),
    }
}

pub async fn create(
    channel: SalesChannel,
    ContextToken(token): ContextToken,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let request = parse(&body).map_err(ApiError::Violations)?;
    let id = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let attendee = match token.as_deref() {
                Some(token) => Attendee::by_context_token(&tx, token)?.filter(|a| !a.removed && a.kind == "CLIENT"),
                None => None,
            };
            let salutation: bool =
                tx.query_row("SELECT EXISTS(SELECT 1 FROM salutation WHERE id = ?1)", [&request.salutation_id], |r| r.get(0))?;
            if !salutation {
                return Ok(Err(ApiError::Violations(vec![Violation::new(
                    "VIOLATION::NOT_FOUND",
                    "/salutationId",
                    "The salutation could not be found.",
                )])));
            }
            let appointment_id = match (&request.appointment_id, &attendee) {
                (Some(id), _) => {
                    let found: bool = tx.query_row(
                        "SELECT EXISTS(SELECT 1 FROM appointment WHERE id = ?1 AND sales_channel_id = ?2)",
                        [id, &channel.id],
                        |r| r.get(0),
                    )?;
                    if !found {
                        return Ok(Err(super::appointment::not_found().at("/appointmentId")));
                    }
                    Some(id.clone())
                }
                (None, Some(attendee)) => Some(attendee.appointment_id.clone()),
                (None, None) => None,
            };
            let open: i64 = tx.query_row(
                "SELECT COUNT(*) FROM dsr_appointment_request WHERE email_address = ?1 AND sales_channel_id = ?2 AND handled_by_id IS NULL",
                [&request.email, &channel.id],
                |r| r.get(0),
            )?;
            if open >= MAX_OPEN_PER_ADDRESS {
                return Ok(Err(ApiError::new(
                    axum::http::StatusCode::TOO_MANY_REQUESTS,
                    "DIGITAL_SALES_ROOMS__TOO_MANY_APPOINTMENT_REQUESTS",
                    format!("This address already has {MAX_OPEN_PER_ADDRESS} requests waiting for an answer."),
                )));
            }
            let id = new_id();
            tx.execute(
                "INSERT INTO dsr_appointment_request (id, appointment_id, salutation_id, first_name, last_name, email_address,
                     company_name, phone_number, subject, message, requested_by_id, sales_channel_id, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                rusqlite::params![
                    id,
                    appointment_id,
                    request.salutation_id,
                    request.first_name,
                    request.last_name,
                    request.email,
                    request.company,
                    request.phone,
                    request.subject,
                    request.message,
                    attendee.map(|a| a.id),
                    channel.id,
                    now_rfc3339()
                ],
            )?;
            tx.commit()?;
            Ok(Ok(id))
        })
        .await??;
    Ok(Json(
        json!({ "apiAlias": "dsr.appointment.create-appointment-request", "data": [id] }),
    ))
}
