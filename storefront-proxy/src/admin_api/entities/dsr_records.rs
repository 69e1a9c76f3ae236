//! What the live room records, readable through the Admin API as Shopware's DSR entities
//! (read only: the room and the Store API write them, never the Admin API):
//! - `dsr_interaction`: every interaction an attendee sent (`POST /store-api/dsr/interaction`
//!   and the live room's), with its JSON payload;
//! - `dsr_presentation_cms_page`: the pages of presentations, instant listings of
//!   appointments included (written as `pages` of `dsr_presentation`, or by the guide);
//! - `dsr_cms_slide`: the slides, i.e. the sections of those pages' CMS layouts;
//! - `dsr_appointment_request`: customers' requests for an appointment
//!   (`POST /store-api/dsr/appointment/request`). Admins only: names and addresses.

use std::collections::HashMap;

use axum::http::StatusCode;
use rusqlite::{Connection, Transaction};
use serde_json::Value;

use crate::admin_api::definition::{Access, Column, Definition, Hooks, ValuesById, Write};
use crate::error::{ApiError, ApiResult};
use crate::storage::json_ids;

fn written_elsewhere() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "FRAMEWORK__WRITE_PROTECTED",
        "This entity is read only through the Admin API: the live room and the Store API write it.",
    )
}

fn no_writes(_: &Transaction, _: &mut Write) -> ApiResult<()> {
    Err(written_elsewhere())
}

fn no_deletes(_: &Transaction, _: &str) -> ApiResult<Vec<String>> {
    Err(written_elsewhere())
}

fn nothing_after(_: &Transaction, _: &str) -> ApiResult<()> {
    Ok(())
}

const READ_ONLY: Hooks = Hooks {
    prepare: no_writes,
    after_write: nothing_after,
    before_delete: no_deletes,
};

/// A JSON text column of `table` for each of `ids`, parsed (an unreadable value is null).
fn json_column(conn: &Connection, table: &str, column: &str, ids: &[String]) -> ValuesById {
    let mut statement = conn.prepare(&format!(
        "SELECT id, {column} FROM {table} WHERE id IN (SELECT value FROM json_each(?1))"
    ))?;
    let rows = statement.query_map([json_ids(ids)], |r| {
        let text: Option<String> = r.get(1)?;
        Ok((
            r.get::<_, String>(0)?,
            text.and_then(|t| serde_json::from_str(&t).ok())
                .unwrap_or(Value::Null),
        ))
    })?;
    rows.collect::<rusqlite::Result<HashMap<_, _>>>()
}

fn interaction_payload(conn: &Connection, ids: &[String]) -> ValuesById {
    json_column(conn, "interaction", "payload", ids)
}

fn picked_product_ids(conn: &Connection, ids: &[String]) -> ValuesById {
    json_column(conn, "presentation_page", "picked_product_ids", ids)
}

pub static INTERACTION: Definition = Definition {
    name: "dsr_interaction",
    table: "interaction",
    columns: &[
        Column::text("name", "name", 255).read_only(),
        Column::id("attendeeId", "attendee_id", "attendee").read_only(),
        Column::id("appointmentId", "appointment_id", "appointment").read_only(),
        Column::date("triggeredAt", "triggered_at").read_only(),
        Column::date("expiresAt", "expires_at").read_only(),
    ],
    translation: None,
    extras: &[crate::admin_api::definition::Extra {
        name: "payload",
        write: crate::admin_api::definition::ExtraWrite::ReadOnly,
        read: interaction_payload,
        filter: None,
    }],
    ignored: &[],
    access: Access::GuidesRead,
    hooks: READ_ONLY,
    inherits_from: None,
};

pub static PRESENTATION_CMS_PAGE: Definition = Definition {
    name: "dsr_presentation_cms_page",
    table: "presentation_page",
    columns: &[
        Column::id("presentationId", "presentation_id", "presentation").read_only(),
        Column::id("cmsPageId", "cms_page_id", "cms_page").read_only(),
        Column::text("title", "title", 255).read_only(),
        Column::int("position", "position", 0, i64::MAX).read_only(),
        Column::boolean("isInstantListing", "is_instant_listing").read_only(),
        Column::id("productId", "product_id", "product").read_only(),
        // Set on an appointment's instant listing: the appointment it belongs to.
        Column::id("appointmentId", "appointment_id", "appointment").read_only(),
        Column::date("createdAt", "created_at").read_only(),
        Column::date("updatedAt", "updated_at").read_only(),
    ],
    translation: None,
    extras: &[crate::admin_api::definition::Extra {
        name: "pickedProductIds",
        write: crate::admin_api::definition::ExtraWrite::ReadOnly,
        read: picked_product_ids,
        filter: None,
    }],
    ignored: &[],
    access: Access::GuidesRead,
    hooks: READ_ONLY,
    inherits_from: None,
};

pub static CMS_SLIDE: Definition = Definition {
    name: "dsr_cms_slide",
    // A view over `cms_section` (migration 0050).
    table: "dsr_cms_slide",
    columns: &[
        Column::text("slideName", "slide_name", 255).read_only(),
        Column::id("cmsSectionId", "cms_section_id", "cms_section").read_only(),
        Column::id("cmsPageId", "cms_page_id", "cms_page").read_only(),
        Column::int("position", "position", 0, i64::MAX).read_only(),
    ],
    translation: None,
    extras: &[],
    ignored: &[],
    access: Access::GuidesRead,
    hooks: READ_ONLY,
    inherits_from: None,
};

pub static APPOINTMENT_REQUEST: Definition = Definition {
    name: "dsr_appointment_request",
    table: "dsr_appointment_request",
    columns: &[
        Column::id("appointmentId", "appointment_id", "appointment").read_only(),
        Column::id("salutationId", "salutation_id", "salutation").read_only(),
        Column::text("firstName", "first_name", 255).read_only(),
        Column::text("lastName", "last_name", 255).read_only(),
        Column::text("emailAddress", "email_address", 254).read_only(),
        Column::text("companyName", "company_name", 255).read_only(),
        Column::text("phoneNumber", "phone_number", 64).read_only(),
        Column::text("subject", "subject", 255).read_only(),
        Column::text("message", "message", 5000).read_only(),
        Column::id("requestedById", "requested_by_id", "attendee").read_only(),
        Column::id("handledById", "handled_by_id", "admin_user").read_only(),
        Column::id("salesChannelId", "sales_channel_id", "sales_channel").read_only(),
        Column::date("createdAt", "created_at").read_only(),
    ],
    translation: None,
    extras: &[],
    ignored: &[],
    access: Access::AdminsOnly,
    hooks: READ_ONLY,
    inherits_from: None,
};
