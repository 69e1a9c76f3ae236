//! The attendees that joined through this proxy in upstream mode, as the upstream
//! Shopware answered their joins (table `forwarded_attendee`): whose store session is
//! whose, for the hub events of forwarded cart, wishlist and room calls. A session is
//! kept as its key only (the SHA-256 of the upstream token, `store_api::token_key`).

use rusqlite::{params, Connection};

use crate::dsr::attendee::Attendee;
use crate::storage::now_rfc3339;

/// Remembers (or refreshes) an attendee the upstream shop let join.
pub fn record(conn: &Connection, attendee: &Attendee, name: Option<&str>) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO forwarded_attendee (id, appointment_id, type, name, context_token, joined_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (id) DO UPDATE SET appointment_id = excluded.appointment_id, type = excluded.type, name = excluded.name,
             context_token = excluded.context_token, joined_at = excluded.joined_at",
        params![attendee.id, attendee.appointment_id, attendee.kind, name, attendee.context_token, now_rfc3339()],
    )?;
    Ok(())
}

/// The attendee a store session belongs to (its latest join), by the session's key.
pub fn by_context_token(conn: &Connection, key: &str) -> rusqlite::Result<Option<Attendee>> {
    Attendee::in_table_by_context_token(conn, "forwarded_attendee", key)
}

pub fn by_id(conn: &Connection, id: &str) -> rusqlite::Result<Option<Attendee>> {
    Attendee::in_table_by_id(conn, "forwarded_attendee", id)
}

/// Marks the attendee removed; answers whether it was not yet.
pub fn mark_removed(conn: &Connection, id: &str) -> rusqlite::Result<bool> {
    Ok(conn.execute(
        "UPDATE forwarded_attendee SET removed_at = ?2 WHERE id = ?1 AND removed_at IS NULL",
        params![id, now_rfc3339()],
    )? > 0)
}
