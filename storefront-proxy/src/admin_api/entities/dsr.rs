//! The live room's entities: appointments (name, presentation, guided or
//! self-service, who may join, the path attendees open, an access window) and
//! presentations with their pages (answered; slides are edited as CMS pages).
//! Started and ended times are the live room's, never written here.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, Transaction};
use serde_json::{json, Value};

use crate::admin_api::definition::{Access, Column, Definition, Extra, ExtraWrite, Hooks, ValuesById, Write, NO_HOOKS};
use crate::error::{ApiError, ApiResult};
use crate::storage::{json_ids, now_rfc3339};

/// Longest appointment path (`/presentation/{path}`).
pub const MAX_PATH: usize = 64;

pub static APPOINTMENT: Definition = Definition {
    name: "dsr_appointment",
    table: "appointment",
    columns: &[
        Column::text("name", "name", 255).required(),
        Column::id("presentationId", "presentation_id", "presentation").required(),
        Column::id("salesChannelId", "sales_channel_id", "sales_channel"),
        Column::text("presentationPath", "presentation_path", MAX_PATH).required().unique(),
        Column::choice("mode", "mode", &["guided", "self"]),
        Column::choice("attendeeRestrictionType", "attendee_restriction_type", &["open", "customer"]),
        Column::choice("videoAudioSettings", "video_audio_settings", &["both", "audio-only", "none"]),
        Column::date("accessibleFrom", "accessible_from"),
        Column::date("accessibleTo", "accessible_to"),
        Column::date("startedAt", "started_at").read_only(),
        Column::date("endedAt", "ended_at").read_only(),
        Column::date("createdAt", "created_at").read_only(),
    ],
    translation: None,
    extras: &[],
    ignored: &[],
    access: Access::GuidesRead,
    hooks: Hooks { prepare: prepare_appointment, ..NO_HOOKS },
    inherits_from: None,
};

fn prepare_appointment(tx: &Transaction, w: &mut Write) -> ApiResult<()> {
    if w.creating {
        w.set("created_at", now_rfc3339());
        if !w.has("sales_channel_id") {
            let channel: Option<String> =
                tx.query_row("SELECT id FROM sales_channel ORDER BY rowid LIMIT 1", [], |r| r.get(0)).optional()?;
            if let Some(channel) = channel {
                w.set("sales_channel_id", channel);
            }
        }
    }
    if let Some(rusqlite::types::Value::Text(path)) = w.get("presentation_path") {
        if path.is_empty() || !path.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
            return Err(ApiError::Violations(vec![w.violation(
                "VIOLATION::INVALID_PATH",
                "presentationPath",
                "A path has lowercase letters, digits and dashes only (it is part of the invitation link).",
            )]));
        }
    }
    Ok(())
}

pub static PRESENTATION: Definition = Definition {
    name: "dsr_presentation",
    table: "presentation",
    columns: &[Column::text("name", "name", 255).required()],
    translation: None,
    extras: &[
        Extra { name: "pages", write: ExtraWrite::ReadOnly, read: read_pages, filter: None },
        Extra { name: "createdById", write: ExtraWrite::ReadOnly, read: read_no_creator, filter: None },
    ],
    ignored: &[],
    access: Access::GuidesRead,
    hooks: NO_HOOKS,
    inherits_from: None,
};

/// `createdById`, required by the document: who created a presentation is not
/// recorded, so it is null (as Shopware answers an unset field).
fn read_no_creator(_: &Connection, ids: &[String]) -> ValuesById {
    Ok(ids.iter().map(|id| (id.clone(), Value::Null)).collect())
}

/// The presentation's pages in order (instant listings of an appointment excluded).
fn read_pages(conn: &Connection, ids: &[String]) -> ValuesById {
    let mut statement = conn.prepare(
        "SELECT presentation_id, id, cms_page_id, position, title, is_instant_listing, product_id FROM presentation_page
         WHERE presentation_id IN (SELECT value FROM json_each(?1)) AND appointment_id IS NULL ORDER BY position, id",
    )?;
    let mut found: HashMap<String, Vec<Value>> = HashMap::new();
    let rows = statement.query_map([json_ids(ids)], |r| {
        Ok((
            r.get::<_, String>(0)?,
            json!({
                "id": r.get::<_, String>(1)?,
                "cmsPageId": r.get::<_, String>(2)?,
                "position": r.get::<_, i64>(3)?,
                "title": r.get::<_, Option<String>>(4)?,
                "isInstantListing": r.get::<_, bool>(5)?,
                "productId": r.get::<_, Option<String>>(6)?,
            }),
        ))
    })?;
    for row in rows {
        let (presentation, page) = row?;
        found.entry(presentation).or_default().push(page);
    }
    Ok(ids.iter().map(|id| (id.clone(), Value::Array(found.remove(id).unwrap_or_default()))).collect())
}
