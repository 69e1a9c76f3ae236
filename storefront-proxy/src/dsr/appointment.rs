//! Appointments: storage and `POST /api/search/dsr-appointment`.

use axum::extract::State;
use axum::Json;
use rusqlite::{Connection, OptionalExtension, Row};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::admin::AdminUser;
use crate::app::App;
use crate::error::{ApiError, ApiResult, Body};

#[derive(Debug, Clone)]
pub struct Appointment {
    pub id: String,
    pub presentation_id: String,
    pub sales_channel_id: String,
    pub presentation_path: String,
    pub name: String,
    pub mode: String,
    pub attendee_restriction_type: String,
    pub video_audio_settings: String,
    pub accessible_from: Option<String>,
    pub accessible_to: Option<String>,
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    pub created_at: String,
}

const COLUMNS: &str = "id, presentation_id, sales_channel_id, presentation_path, name, mode, attendee_restriction_type,
    video_audio_settings, accessible_from, accessible_to, started_at, ended_at, created_at";

impl Appointment {
    fn from_row(r: &Row) -> rusqlite::Result<Appointment> {
        Ok(Appointment {
            id: r.get(0)?,
            presentation_id: r.get(1)?,
            sales_channel_id: r.get(2)?,
            presentation_path: r.get(3)?,
            name: r.get(4)?,
            mode: r.get(5)?,
            attendee_restriction_type: r.get(6)?,
            video_audio_settings: r.get(7)?,
            accessible_from: r.get(8)?,
            accessible_to: r.get(9)?,
            started_at: r.get(10)?,
            ended_at: r.get(11)?,
            created_at: r.get(12)?,
        })
    }

    pub fn by_id(conn: &Connection, id: &str) -> rusqlite::Result<Option<Appointment>> {
        conn.query_row(&format!("SELECT {COLUMNS} FROM appointment WHERE id = ?1"), [id], Self::from_row).optional()
    }

    pub fn by_path(conn: &Connection, path: &str) -> rusqlite::Result<Option<Appointment>> {
        conn.query_row(&format!("SELECT {COLUMNS} FROM appointment WHERE presentation_path = ?1"), [path], Self::from_row)
            .optional()
    }

    /// The admin API entity (`DsrAppointment`).
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "presentationId": self.presentation_id,
            "salesChannelDomainId": null,
            "presentationPath": self.presentation_path,
            "name": self.name,
            "mode": self.mode,
            "attendeeRestrictionType": self.attendee_restriction_type,
            "videoAudioSettings": self.video_audio_settings,
            "accessibleFrom": self.accessible_from,
            "accessibleTo": self.accessible_to,
            "startedAt": self.started_at,
            "endedAt": self.ended_at,
            "active": true,
            "createdAt": self.created_at,
            "apiAlias": "dsr_appointment",
        })
    }
}

pub fn not_found() -> ApiError {
    ApiError::not_found("DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_FOUND", "The appointment could not be found.")
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Criteria {
    filter: Vec<Filter>,
    limit: Option<u32>,
}

#[derive(Deserialize)]
struct Filter {
    #[serde(rename = "type")]
    kind: String,
    field: String,
    value: Value,
}

/// Shopware criteria search, for now with `equals` filters on `id` and
/// `presentationPath` and a `limit`.
pub async fn search(_: AdminUser, State(app): State<App>, Body(criteria): Body<Criteria>) -> ApiResult<Json<Value>> {
    let mut clauses = Vec::new();
    let mut values = Vec::new();
    for (index, filter) in criteria.filter.iter().enumerate() {
        let column = match (filter.kind.as_str(), filter.field.as_str()) {
            ("equals", "presentationPath" | "dsr_appointment.presentationPath") => "presentation_path",
            ("equals", "id" | "dsr_appointment.id") => "id",
            _ => {
                return Err(ApiError::bad_request(
                    "FRAMEWORK__INVALID_FILTER_QUERY",
                    format!("Filter {} on field {} is not supported.", filter.kind, filter.field),
                )
                .at(&format!("/filter/{index}")))
            }
        };
        let Some(value) = filter.value.as_str() else {
            return Err(ApiError::bad_request("FRAMEWORK__INVALID_FILTER_QUERY", "The filter value must be a string.")
                .at(&format!("/filter/{index}/value")));
        };
        clauses.push(format!("{column} = ?{}", values.len() + 1));
        values.push(value.to_owned());
    }
    let limit = criteria.limit.unwrap_or(25).min(500);
    let found = app
        .db
        .call(move |conn| {
            let condition = if clauses.is_empty() { "1".to_owned() } else { clauses.join(" AND ") };
            let sql = format!("SELECT {COLUMNS} FROM appointment WHERE {condition} ORDER BY created_at, id LIMIT {limit}");
            let mut statement = conn.prepare(&sql)?;
            let rows = statement.query_map(rusqlite::params_from_iter(values.iter()), Appointment::from_row)?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
        .await?;
    Ok(Json(json!({
        "total": found.len(),
        "data": found.iter().map(Appointment::to_json).collect::<Vec<_>>(),
        "aggregations": [],
    })))
}
