//! Appointments: storage and `POST /api/search/dsr-appointment`.

use axum::extract::State;
use axum::Json;
use rusqlite::{Connection, OptionalExtension, Row};
use serde_json::{json, Value};

use crate::admin::search::{self, Entity};
use crate::admin::AdminUser;
use crate::catalog::criteria::{Expr, Field, Kind};
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::store_api::RequestParams;

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
    /// The room starts in broadcast mode (sent to the hub when it starts).
    pub broadcast_mode: bool,
    pub accessible_from: Option<String>,
    pub accessible_to: Option<String>,
    /// The IANA time zone it was planned in (`Europe/Berlin`; `UTC` for older ones): the
    /// times are instants, named in this zone in mails and calendar files.
    pub time_zone: String,
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    pub created_at: String,
}

const COLUMNS: &str = "id, presentation_id, sales_channel_id, presentation_path, name, mode, attendee_restriction_type,
    video_audio_settings, accessible_from, accessible_to, started_at, ended_at, created_at, broadcast_mode,
    time_zone";

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
            broadcast_mode: r.get(13)?,
            time_zone: r.get(14)?,
        })
    }

    pub fn by_id(conn: &Connection, id: &str) -> rusqlite::Result<Option<Appointment>> {
        conn.query_row(
            &format!("SELECT {COLUMNS} FROM appointment WHERE id = ?1"),
            [id],
            Self::from_row,
        )
        .optional()
    }

    /// Every appointment of a sales channel, in creation order.
    pub fn of_sales_channel(
        conn: &Connection,
        sales_channel_id: &str,
    ) -> rusqlite::Result<Vec<Appointment>> {
        let mut statement = conn.prepare(&format!(
            "SELECT {COLUMNS} FROM appointment WHERE sales_channel_id = ?1 ORDER BY created_at, id"
        ))?;
        let rows = statement.query_map([sales_channel_id], Self::from_row)?;
        rows.collect()
    }

    pub fn by_path(conn: &Connection, path: &str) -> rusqlite::Result<Option<Appointment>> {
        conn.query_row(
            &format!("SELECT {COLUMNS} FROM appointment WHERE presentation_path = ?1"),
            [path],
            Self::from_row,
        )
        .optional()
    }

    /// The appointment with its name in `language` (a request's `sw-language-id`), else
    /// in its sales channel's default language: what the live room shows a viewer.
    pub fn in_language(
        mut self,
        conn: &Connection,
        language: Option<&str>,
    ) -> rusqlite::Result<Appointment> {
        let name: Option<String> = conn
            .query_row(
                "SELECT COALESCE(
                     (SELECT name FROM appointment_translation WHERE appointment_id = ?1 AND language_id = ?2 AND name IS NOT NULL),
                     (SELECT t.name FROM appointment_translation t JOIN sales_channel s ON s.id = ?3 AND t.language_id = s.language_id
                      WHERE t.appointment_id = ?1 AND t.name IS NOT NULL))",
                rusqlite::params![self.id, language.unwrap_or(""), self.sales_channel_id],
                |r| r.get(0),
            )
            .optional()?
            .flatten();
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            self.name = name;
        }
        Ok(self)
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
            "broadcastMode": self.broadcast_mode,
            "accessibleFrom": self.accessible_from,
            "accessibleTo": self.accessible_to,
            "timeZone": self.time_zone,
            "startedAt": self.started_at,
            "endedAt": self.ended_at,
            "active": true,
            "createdAt": self.created_at,
            // Required by the document; who created it is not recorded (null, as Shopware
            // answers an unset field).
            "createdById": null,
            "apiAlias": "dsr_appointment",
        })
    }
}

/// The language a request asks for (`sw-language-id`), lowercased; unknown ones fall
/// back to the default language in [`Appointment::in_language`].
pub fn request_language(headers: &axum::http::HeaderMap) -> Option<String> {
    headers
        .get(crate::store_api::LANGUAGE_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().to_lowercase())
        .filter(|v| !v.is_empty())
}

/// `time_zone` as chrono's zone; an unknown name (never stored: the Admin API checks it)
/// is UTC.
pub fn zone_of(time_zone: &str) -> chrono_tz::Tz {
    time_zone.parse().unwrap_or(chrono_tz::UTC)
}

/// An instant as the wall-clock time in `time_zone`, `2026-12-01 18:00`
/// (`01.12.2026 18:00` in German), with the zone named: what mails say.
pub fn wall_clock(at: chrono::DateTime<chrono::Utc>, time_zone: &str, german: bool) -> String {
    let local = at.with_timezone(&zone_of(time_zone));
    let pattern = if german {
        "%d.%m.%Y %H:%M"
    } else {
        "%Y-%m-%d %H:%M"
    };
    format!("{} ({time_zone})", local.format(pattern))
}

pub fn not_found() -> ApiError {
    ApiError::not_found(
        "DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_FOUND",
        "The appointment could not be found.",
    )
}

fn appointment_field(name: &str) -> Option<Field> {
    use Kind::*;
    let column = |expr, kind| {
        Some(Field {
            expr: Expr::Column(expr),
            kind,
            translated: false,
        })
    };
    match name {
        "id" => column("a.id", Id),
        "presentationId" | "presentation.id" => column("a.presentation_id", Id),
        "salesChannelId" => column("a.sales_channel_id", Id),
        "presentationPath" => column("a.presentation_path", Text),
        "name" => column("a.name", Text),
        "mode" => column("a.mode", Text),
        "attendeeRestrictionType" => column("a.attendee_restriction_type", Text),
        "videoAudioSettings" => column("a.video_audio_settings", Text),
        "broadcastMode" => column("a.broadcast_mode", Bool),
        "accessibleFrom" => column("a.accessible_from", Date),
        "accessibleTo" => column("a.accessible_to", Date),
        "timeZone" => column("a.time_zone", Text),
        "startedAt" => column("a.started_at", Date),
        "endedAt" => column("a.ended_at", Date),
        "createdAt" => column("a.created_at", Date),
        _ => None,
    }
}

const APPOINTMENTS: Entity = Entity {
    name: "dsr_appointment",
    from: "FROM appointment a WHERE 1",
    id: "a.id",
    order: "a.created_at, a.id",
    field: appointment_field,
};

/// The names per language, as the Admin API's `translations` (the backoffice's lists show
/// the German one on German pages).
fn translations(conn: &Connection, id: &str) -> rusqlite::Result<Value> {
    let mut statement = conn.prepare_cached(
        "SELECT language_id, name FROM appointment_translation WHERE appointment_id = ?1 ORDER BY language_id",
    )?;
    let rows = statement.query_map([id], |r| {
        Ok(json!({ "languageId": r.get::<_, String>(0)?, "name": r.get::<_, Option<String>>(1)? }))
    })?;
    Ok(Value::Array(rows.collect::<rusqlite::Result<_>>()?))
}

/// `POST /api/search/dsr-appointment` with Shopware's criteria (the guide looks up an
/// appointment by `presentationPath`).
pub async fn search(
    _: AdminUser,
    State(app): State<App>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let criteria = search::parse(&params, &APPOINTMENTS)?;
    let body = app
        .db
        .call(move |conn| {
            let (ids, total) = search::select(conn, &APPOINTMENTS, &criteria)?;
            let mut data = Vec::new();
            for id in ids {
                if let Some(found) = Appointment::by_id(conn, &id)? {
                    let mut json = found.to_json();
                    json["translations"] = translations(conn, &id)?;
                    data.push(json);
                }
            }
            Ok(search::result(total, data))
        })
        .await?;
    Ok(Json(body))
}
