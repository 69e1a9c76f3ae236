//! `POST /store-api/dsr/appointment/{appointmentId}/download-ics` with `{"token"}`: the
//! calendar file of an invitation, the same one its mail carries (see `invite`), for the
//! invitation page's "add to calendar". The token is the invitation mail's; without one
//! of this appointment the answer is 404, so appointment ids alone reveal nothing.

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::appointment;
use super::invite::{appointment_of, invitation_calendar, origin};
use crate::error::{ApiError, ApiResult, Violation};
use crate::state::App;
use crate::storage::is_id;
use crate::store_api::{RequestParams, SalesChannel};

/// The longest token looked up (invitation tokens are ids: 32 characters).
const MAX_TOKEN: usize = 64;

fn invitation_not_found() -> ApiError {
    ApiError::not_found(
        "DIGITAL_SALES_ROOMS__INVITATION_NOT_FOUND",
        "No invitation of this appointment has this token.",
    )
}

pub async fn download_ics(
    channel: SalesChannel,
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let token = match body.get("token") {
        Some(Value::String(token)) if !token.trim().is_empty() => token.trim().to_owned(),
        Some(Value::String(_)) | None | Some(Value::Null) => {
            return Err(ApiError::Violations(vec![Violation::blank("/token")]))
        }
        Some(_) => {
            return Err(ApiError::Violations(vec![Violation::new(
                "VIOLATION::TYPE_ERROR",
                "/token",
                "This value should be a string.",
            )]))
        }
    };
    if !is_id(&id) {
        return Err(appointment::not_found());
    }
    if token.chars().count() > MAX_TOKEN {
        return Err(invitation_not_found());
    }
    let language = appointment::request_language(&headers);
    let base = origin(&app);
    let file = app
        .db
        .call(move |conn| {
            let Some(appointment) = appointment_of(conn, &id, language.as_deref())?.filter(|a| a.sales_channel_id == channel.id) else {
                return Ok(Err(appointment::not_found()));
            };
            let invited: bool = conn.query_row(
                "SELECT EXISTS(SELECT 1 FROM appointment_invitation WHERE appointment_id = ?1 AND token = ?2)",
                [&appointment.id, &token],
                |r| r.get(0),
            )?;
            if !invited {
                return Ok(Err(invitation_not_found()));
            }
            Ok(invitation_calendar(&appointment, &base, &token).ok_or_else(|| {
                ApiError::not_found("DIGITAL_SALES_ROOMS__APPOINTMENT_WITHOUT_START", "The appointment has no start to put in a calendar.")
            }))
        })
        .await??;
    let mut response = file.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/calendar; charset=utf-8"),
    );
    response.headers_mut().insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"invitation.ics\""),
    );
    Ok(response)
}
