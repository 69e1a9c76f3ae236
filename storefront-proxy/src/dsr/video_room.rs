//! The appointment's video room (the document's `createVideoRoom`, `deleteVideoRoom`
//! and the entity `dsr_appointment_video_chat`):
//!
//! - `POST   /api/_action/dsr/appointment/{id}/video-room`: the appointment gets its
//!   video-room record (once; a second call answers the same room) and the answer is
//!   `VideoChatCreateStruct`: `roomName` (the LiveKit room, named by the appointment id
//!   as the hub's video tokens are) and `roomUrl` (where browsers reach the video
//!   server, when one is configured). The document's `userToken` / `ownerToken` are
//!   left out: LiveKit tokens name one participant, so the hub mints one per
//!   participant with each session instead of two shared ones.
//! - `DELETE /api/_action/dsr/appointment/{id}/video-room`: the hub deletes the LiveKit
//!   room (everyone in it is disconnected, their media stops), then the record goes.
//!   A hub that does not answer: 503 and nothing changed. Deleting a room that has no
//!   record is done as well (the LiveKit room still goes).
//! - `POST /api/search/dsr-appointment-video-chat`: the records, with Shopware's
//!   criteria (`admin::search`) and the `appointment` association.
//!
//! Guides (any Admin API user) only.

use axum::extract::{Path, State};
use axum::Json;
use rusqlite::{params, Connection, Row};
use serde_json::{json, Value};

use super::appointment::{self, Appointment};
use crate::admin::search::{self, Entity};
use crate::admin::AdminUser;
use crate::catalog::criteria::{Expr, Field, Kind};
use crate::error::ApiResult;
use crate::hub_client::hub_unavailable;
use crate::state::App;
use crate::storage::{json_ids, new_id, now_rfc3339};
use crate::store_api::RequestParams;

fn column(expr: &'static str, kind: Kind) -> Option<Field> {
    Some(Field {
        expr: Expr::Column(expr),
        kind,
        translated: false,
    })
}

fn video_chat_field(name: &str) -> Option<Field> {
    use Kind::*;
    match name {
        "id" => column("v.id", Id),
        "appointmentId" | "appointment.id" => column("v.appointment_id", Id),
        "name" => column("v.name", Text),
        "url" => column("v.url", Text),
        "createdAt" => column("v.created_at", Date),
        "updatedAt" => column("v.updated_at", Date),
        "appointment.presentationPath" => column(
            "(SELECT presentation_path FROM appointment x WHERE x.id = v.appointment_id)",
            Text,
        ),
        _ => None,
    }
}

const VIDEO_CHATS: Entity = Entity {
    name: "dsr_appointment_video_chat",
    from: "FROM dsr_appointment_video_chat v WHERE 1",
    id: "v.id",
    order: "v.created_at, v.id",
    field: video_chat_field,
};

const COLUMNS: &str = "id, appointment_id, name, url, created_at, updated_at";

/// `DsrAppointmentVideoChat` (unset fields left out: the document types them without null).
fn video_chat_json(r: &Row) -> rusqlite::Result<Value> {
    let mut value = json!({
        "id": r.get::<_, String>(0)?,
        "appointmentId": r.get::<_, String>(1)?,
        "name": r.get::<_, String>(2)?,
        "url": r.get::<_, Option<String>>(3)?,
        "createdAt": r.get::<_, String>(4)?,
        "updatedAt": r.get::<_, Option<String>>(5)?,
        "apiAlias": "dsr_appointment_video_chat",
    });
    if let Some(fields) = value.as_object_mut() {
        fields.retain(|_, v| !v.is_null());
    }
    Ok(value)
}

fn load(conn: &Connection, ids: &[String]) -> rusqlite::Result<Vec<Value>> {
    let mut statement =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM dsr_appointment_video_chat WHERE id IN (SELECT value FROM json_each(?1))"))?;
    let found: Vec<Value> = statement
        .query_map([json_ids(ids)], video_chat_json)?
        .collect::<Result<_, _>>()?;
    Ok(ids
        .iter()
        .filter_map(|id| found.iter().find(|v| v["id"] == id.as_str()).cloned())
        .collect())
}

async fn require_appointment(app: &App, id: String) -> ApiResult<()> {
    let found = app
        .db
        .call(move |conn| Ok(Appointment::by_id(conn, &id)?))
        .await?;
    found.map(|_| ()).ok_or_else(appointment::not_found)
}

/// `POST …/video-room`: `VideoChatCreateStruct`.
pub async fn create(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    require_appointment(&app, id.clone()).await?;
    let url = app.config.livekit_url();
    let appointment_id = id.clone();
    let (name, url): (String, Option<String>) = app
        .db
        .call(move |conn| {
            let now = now_rfc3339();
            // The room's name is the appointment id: the hub's video tokens name that room.
            conn.execute(
                "INSERT INTO dsr_appointment_video_chat (id, appointment_id, name, url, created_at) VALUES (?1, ?2, ?2, ?3, ?4)
                 ON CONFLICT (appointment_id) DO UPDATE SET url = excluded.url, updated_at = ?4 WHERE url IS NOT excluded.url",
                params![new_id(), appointment_id, url, now],
            )?;
            Ok(conn.query_row("SELECT name, url FROM dsr_appointment_video_chat WHERE appointment_id = ?1", [&appointment_id], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?)
        })
        .await?;
    let mut answer = json!({ "roomName": name, "roomUrl": url, "extensions": [] });
    if url.is_none() {
        answer
            .as_object_mut()
            .map(|fields| fields.remove("roomUrl"));
    }
    Ok(Json(answer))
}

/// `DELETE …/video-room`: the LiveKit room goes first (through the hub), then the record.
pub async fn delete(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    require_appointment(&app, id.clone()).await?;
    app.hub
        .delete_video_room(&id)
        .await
        .map_err(hub_unavailable)?;
    remove_record(&app, id).await?;
    Ok(Json(json!({})))
}

/// Drops the appointment's video-room record, if there is one.
async fn remove_record(app: &App, appointment_id: String) -> ApiResult<()> {
    app.db
        .call(move |conn| {
            Ok(conn.execute(
                "DELETE FROM dsr_appointment_video_chat WHERE appointment_id = ?1",
                [&appointment_id],
            )?)
        })
        .await?;
    Ok(())
}

/// `POST /api/search/dsr-appointment-video-chat` (association `appointment`).
pub async fn search(
    _: AdminUser,
    State(app): State<App>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let criteria = search::parse(&params, &VIDEO_CHATS)?;
    let with_appointment = criteria.wants("appointment");
    let body = app
        .db
        .call(move |conn| {
            let (ids, total) = search::select(conn, &VIDEO_CHATS, &criteria)?;
            let mut data = load(conn, &ids)?;
            if with_appointment {
                super::search::attach_appointments(conn, &mut data)?;
            }
            Ok(search::result(total, data))
        })
        .await?;
    Ok(Json(body))
}
