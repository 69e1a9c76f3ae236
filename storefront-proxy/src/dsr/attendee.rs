//! Attendees: who a store context token belongs to, the guide's access to an attendee's
//! shop context (only with the attendee's cart permission), and removing an attendee.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use protocol::frame::Event;
use protocol::internal::Audience;
use protocol::CartPermission;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};

use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::hub_client::hub_unavailable;
use crate::state::App;
use crate::storage::now_rfc3339;

/// An attendee as the routes need it.
#[derive(Debug, Clone)]
pub struct Attendee {
    pub id: String,
    pub appointment_id: String,
    pub context_token: String,
    pub removed: bool,
    /// `GUIDE` or `CLIENT`.
    pub kind: String,
}

impl Attendee {
    fn from_row(r: &rusqlite::Row) -> rusqlite::Result<Attendee> {
        Ok(Attendee {
            id: r.get(0)?,
            appointment_id: r.get(1)?,
            context_token: r.get(2)?,
            removed: r.get::<_, Option<String>>(3)?.is_some(),
            kind: r.get(4)?,
        })
    }

    /// The client attendee a store context token belongs to (its latest join).
    pub fn by_context_token(conn: &Connection, token: &str) -> rusqlite::Result<Option<Attendee>> {
        Attendee::in_table_by_context_token(conn, "attendee", token)
    }

    pub fn by_id(conn: &Connection, id: &str) -> rusqlite::Result<Option<Attendee>> {
        Attendee::in_table_by_id(conn, "attendee", id)
    }

    /// The latest join of a context token in `table`: `attendee`, or upstream mode's
    /// `forwarded_attendee` (same columns).
    pub(crate) fn in_table_by_context_token(
        conn: &Connection,
        table: &'static str,
        token: &str,
    ) -> rusqlite::Result<Option<Attendee>> {
        conn.prepare_cached(&format!(
            "SELECT id, appointment_id, context_token, removed_at, type FROM {table}
             WHERE context_token = ?1 ORDER BY joined_at DESC LIMIT 1"
        ))?
        .query_row([token], Attendee::from_row)
        .optional()
    }

    pub(crate) fn in_table_by_id(
        conn: &Connection,
        table: &'static str,
        id: &str,
    ) -> rusqlite::Result<Option<Attendee>> {
        conn.prepare_cached(&format!(
            "SELECT id, appointment_id, context_token, removed_at, type FROM {table} WHERE id = ?1"
        ))?
        .query_row([id], Attendee::from_row)
        .optional()
    }
}

/// The attendee of a store request's context token, or 403.
pub async fn of_context(app: &App, token: Option<String>) -> ApiResult<Attendee> {
    let token = token.ok_or_else(not_an_attendee)?;
    app.db
        .call(move |conn| Ok(Attendee::by_context_token(conn, &token)?))
        .await?
        .filter(|attendee| !attendee.removed)
        .ok_or_else(not_an_attendee)
}

pub fn not_an_attendee() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "DIGITAL_SALES_ROOMS__ATTENDEE_NOT_FOUND",
        "The context token does not belong to an attendee of an appointment.",
    )
}

pub fn not_found() -> ApiError {
    ApiError::not_found(
        "DIGITAL_SALES_ROOMS__ATTENDEE_NOT_FOUND",
        "The attendee could not be found.",
    )
}

pub async fn load(app: &App, id: String) -> ApiResult<Attendee> {
    app.db
        .call(move |conn| Ok(Attendee::by_id(conn, &id)?))
        .await?
        .ok_or_else(not_found)
}

/// Refuses (403) unless the attendee granted the guides access to their cart (the live
/// state of the hub says so) and is still in the appointment.
pub async fn require_cart_permission(app: &App, attendee: &Attendee) -> ApiResult<()> {
    // Not after the appointment ended (issue #29, item 5). Upstream mode keeps no
    // appointments here: the upstream decides.
    let appointment_id = attendee.appointment_id.clone();
    let ended = app
        .db
        .read(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT ended_at IS NOT NULL FROM appointment WHERE id = ?1",
                    [appointment_id],
                    |r| r.get::<_, bool>(0),
                )
                .optional()?
                .unwrap_or(false))
        })
        .await?;
    if ended {
        return Err(permission_missing());
    }
    // The attendee's own view of the live state: small however large the room is.
    let state = app
        .hub
        .attendee_state(&attendee.appointment_id, &attendee.id)
        .await
        .map_err(hub_unavailable)?;
    let granted = state.state_for_clients.cart_permission == CartPermission::Granted;
    if !granted || attendee.removed {
        return Err(permission_missing());
    }
    Ok(())
}

pub fn permission_missing() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "DIGITAL_SALES_ROOMS__ATTENDEE_CART_PERMISSION_MISSING",
        "The attendee has not granted access to their cart.",
    )
}

/// `POST /api/_action/dsr/appointment/attendee/{id}/remove`: the attendee is closed out
/// of the live room and cannot join again with the same session.
pub async fn remove(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let attendee = load(&app, id).await?;
    let attendee_id = attendee.id.clone();
    let changed = app
        .db
        .call(move |conn| {
            Ok(conn.execute(
                "UPDATE attendee SET removed_at = ?2 WHERE id = ?1 AND removed_at IS NULL",
                params![attendee_id, now_rfc3339()],
            )? > 0)
        })
        .await?;
    if changed {
        let event = Event::AttendeeRemoved {
            attendee_id: attendee.id.clone(),
        };
        if let Err(error) = app
            .hub
            .publish(&attendee.appointment_id, Audience::Everyone, event)
            .await
        {
            let attendee_id = attendee.id.clone();
            app.db
                .call(move |conn| {
                    Ok(conn.execute(
                        "UPDATE attendee SET removed_at = NULL WHERE id = ?1",
                        [attendee_id],
                    )?)
                })
                .await?;
            return Err(hub_unavailable(error));
        }
    }
    Ok(Json(
        json!({ "message": "Attendee removed successfully", "attendeeId": attendee.id }),
    ))
}
