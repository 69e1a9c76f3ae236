//! The live room's entities: appointments (name per language, presentation, guided or
//! self-service, who may join, the path attendees open, an access window, whether the
//! room starts in broadcast mode, the time zone it is planned in) and
//! presentations with their pages (written as one ordered list, see `slides`).
//! Started and ended times are the live room's, never written here.

use rusqlite::{Connection, OptionalExtension, Transaction};
use serde_json::Value;

use super::slides;
use crate::admin_api::definition::{
    Access, Column, Definition, Extra, ExtraWrite, Hooks, Translation, ValuesById, Write, NO_HOOKS,
};
use crate::error::{ApiError, ApiResult};
use crate::storage::now_rfc3339;

/// Longest appointment path (`/presentation/{path}`).
pub const MAX_PATH: usize = 64;

pub static APPOINTMENT: Definition = Definition {
    name: "dsr_appointment",
    table: "appointment",
    columns: &[
        Column::id("presentationId", "presentation_id", "presentation").required(),
        Column::id("salesChannelId", "sales_channel_id", "sales_channel"),
        Column::id("guideUserId", "guide_user_id", "admin_user").nullable(),
        Column::text("presentationPath", "presentation_path", MAX_PATH)
            .required()
            .unique(),
        Column::choice("mode", "mode", &["guided", "self"]),
        Column::choice(
            "attendeeRestrictionType",
            "attendee_restriction_type",
            &["open", "customer"],
        ),
        Column::choice(
            "videoAudioSettings",
            "video_audio_settings",
            &["both", "audio-only", "none"],
        ),
        // The live room starts in broadcast mode (only the guide publishes).
        Column::boolean("broadcastMode", "broadcast_mode"),
        Column::date("accessibleFrom", "accessible_from"),
        Column::date("accessibleTo", "accessible_to"),
        // The IANA zone it is planned in (checked in `prepare_appointment`).
        Column::text("timeZone", "time_zone", 64),
        Column::date("startedAt", "started_at").read_only(),
        Column::date("endedAt", "ended_at").read_only(),
        Column::date("createdAt", "created_at").read_only(),
    ],
    // The name per language; `appointment.name` keeps the default language's (see
    // `sync_default_name`), which older readers and the search by name use.
    translation: Some(Translation {
        table: "appointment_translation",
        key: "appointment_id",
        fields: &[Column::text("name", "name", 255).required()],
    }),
    extras: &[],
    ignored: &[],
    access: Access::GuidesRead,
    hooks: Hooks {
        prepare: prepare_appointment,
        after_write: sync_default_name,
        ..NO_HOOKS
    },
    inherits_from: None,
};

fn prepare_appointment(tx: &Transaction, w: &mut Write) -> ApiResult<()> {
    if w.creating {
        w.set("created_at", now_rfc3339());
        // Filled from the default language's translation once it is written.
        w.set("name", String::new());
        if !w.has("sales_channel_id") {
            let channel: Option<String> = tx
                .query_row(
                    "SELECT id FROM sales_channel ORDER BY rowid LIMIT 1",
                    [],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(channel) = channel {
                w.set("sales_channel_id", channel);
            }
        }
    }
    if let Some(rusqlite::types::Value::Text(zone)) = w.get("time_zone") {
        if zone.parse::<chrono_tz::Tz>().is_err() {
            return Err(ApiError::Violations(vec![w.violation(
                "VIOLATION::INVALID_TIME_ZONE",
                "timeZone",
                "A time zone is an IANA name such as Europe/Berlin or UTC.",
            )]));
        }
    }
    if let Some(rusqlite::types::Value::Text(path)) = w.get("presentation_path") {
        if path.is_empty()
            || !path
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            return Err(ApiError::Violations(vec![w.violation(
                "VIOLATION::INVALID_PATH",
                "presentationPath",
                "A path has lowercase letters, digits and dashes only (it is part of the invitation link).",
            )]));
        }
    }
    Ok(())
}

/// `appointment.name` is the default language's name.
fn sync_default_name(tx: &Transaction, id: &str) -> ApiResult<()> {
    tx.execute(
        "UPDATE appointment SET name = COALESCE((SELECT t.name FROM appointment_translation t JOIN sales_channel s
             ON s.id = appointment.sales_channel_id AND t.language_id = s.language_id
             WHERE t.appointment_id = appointment.id AND t.name IS NOT NULL), name)
         WHERE id = ?1",
        [id],
    )?;
    Ok(())
}

pub static PRESENTATION: Definition = Definition {
    name: "dsr_presentation",
    table: "presentation",
    columns: &[Column::text("name", "name", 255).required()],
    translation: None,
    extras: &[
        Extra {
            name: "pages",
            write: ExtraWrite::After(slides::write_pages),
            read: slides::read_pages,
            filter: None,
        },
        Extra {
            name: "createdById",
            write: ExtraWrite::ReadOnly,
            read: read_no_creator,
            filter: None,
        },
    ],
    ignored: &[],
    access: Access::GuidesRead,
    hooks: NO_HOOKS,
    inherits_from: None,
};

/// The shop's CMS layouts, read only: a slide may show any of them (`cms` pages of a
/// presentation). They are made by the demo seed or for slides, never through here.
pub static CMS_PAGE: Definition = Definition {
    name: "cms_page",
    table: "cms_page",
    columns: &[
        Column::text("name", "name", 255).read_only(),
        Column::text("type", "type", 64).read_only(),
    ],
    translation: None,
    extras: &[],
    ignored: &[],
    access: Access::GuidesRead,
    hooks: Hooks {
        prepare: layouts_are_read_only,
        before_delete: layouts_stay,
        ..NO_HOOKS
    },
    inherits_from: None,
};

fn read_only_layouts() -> ApiError {
    ApiError::new(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        "FRAMEWORK__WRITE_PROTECTED",
        "CMS layouts are read only through the Admin API.",
    )
}

fn layouts_are_read_only(_: &Transaction, _: &mut Write) -> ApiResult<()> {
    Err(read_only_layouts())
}

fn layouts_stay(_: &Transaction, _: &str) -> ApiResult<Vec<String>> {
    Err(read_only_layouts())
}

/// `createdById`, required by the document: who created a presentation is not
/// recorded, so it is null (as Shopware answers an unset field).
fn read_no_creator(_: &Connection, ids: &[String]) -> ValuesById {
    Ok(ids.iter().map(|id| (id.clone(), Value::Null)).collect())
}
