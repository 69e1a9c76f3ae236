//! Instant listings: `POST|PATCH /api/_action/dsr/appointment/{id}/instant-listing`, and
//! `DELETE …/instant-listing/{pageId}` to take a published one out of the presentation.
//! The guide picks products; a new presentation page of this appointment shows them
//! with a listing layout: `pageId` (the CMS page) and `slideId` (its section) when the
//! request names them (else 'The layout does not exist'), or as the official document
//! has it, without them: the presentation's default listing layout (see
//! [`default_layout`]) for a new listing, the listing's own for a change. Clients learn of it through the hub
//! (`reload` with `loadSlide` for a new listing, `updateListingProducts` for a change).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use protocol::action::Action;
use protocol::frame::Event;
use protocol::internal::Audience;
use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde_json::{json, Map, Value};

use super::appointment::{self, Appointment};
use super::listing::{id_list, product_exists};
use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::{is_id, json_ids, new_id, now_rfc3339};
use crate::store_api::RequestParams;

pub const LAYOUT_NOT_FOUND: &str = "DIGITAL_SALES_ROOMS__LAYOUT_NOT_FOUND";

fn layout_missing(status: StatusCode, pointer: &str) -> ApiError {
    ApiError::new(status, LAYOUT_NOT_FOUND, "The layout does not exist").at(pointer)
}

/// The layout the request names: a CMS page and one of its sections; `None` when it
/// names neither (the default applies).
fn layout(body: &Map<String, Value>) -> ApiResult<Option<(String, String)>> {
    let given = |key: &str| body.get(key).is_some_and(|v| !v.is_null());
    if !given("pageId") && !given("slideId") {
        return Ok(None);
    }
    let mut ids = Vec::new();
    for key in ["pageId", "slideId"] {
        match body.get(key).and_then(Value::as_str).map(str::to_lowercase) {
            Some(id) if is_id(&id) => ids.push(id),
            _ => return Err(layout_missing(StatusCode::BAD_REQUEST, &format!("/{key}"))),
        }
    }
    Ok(Some((ids.remove(0), ids.remove(0))))
}

/// The first section of CMS page `page_id`.
fn first_section(conn: &Connection, page_id: &str) -> rusqlite::Result<Option<String>> {
    conn.query_row(
        "SELECT id FROM cms_section WHERE cms_page_id = ?1 ORDER BY position LIMIT 1",
        [page_id],
        |r| r.get(0),
    )
    .optional()
}

/// The presentation's default listing layout: the product listing layout
/// (`presentation_product_list`) its pages use, else the shop's first one; shown with
/// its first section.
fn default_layout(
    conn: &Connection,
    presentation_id: &str,
) -> rusqlite::Result<Option<(String, String)>> {
    let page: Option<String> = conn
        .query_row(
            "SELECT c.id FROM cms_page c
             LEFT JOIN presentation_page pp ON pp.cms_page_id = c.id AND pp.presentation_id = ?1
             WHERE c.type = 'presentation_product_list' AND EXISTS (SELECT 1 FROM cms_section s WHERE s.cms_page_id = c.id)
             ORDER BY pp.id IS NULL, pp.position, c.name, c.id LIMIT 1",
            [presentation_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(page) = page else { return Ok(None) };
    Ok(first_section(conn, &page)?.map(|section| (page, section)))
}

fn layout_exists(conn: &Connection, page_id: &str, slide_id: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS(SELECT 1 FROM cms_section WHERE id = ?1 AND cms_page_id = ?2)",
        params![slide_id, page_id],
        |r| r.get(0),
    )
}

fn page_name(body: &Map<String, Value>) -> ApiResult<Option<String>> {
    match body.get("pageName") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.chars().count() <= 255 => {
            Ok(Some(s.trim().to_owned()).filter(|s| !s.is_empty()))
        }
        Some(_) => Err(ApiError::bad_request(
            "FRAMEWORK__INVALID_REQUEST_PARAMETER",
            "pageName must be a text of at most 255 characters.",
        )
        .at("/pageName")),
    }
}

fn optional_ids(body: &Map<String, Value>, key: &str) -> ApiResult<Option<Vec<String>>> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => id_list(value, &format!("/{key}")).map(Some),
    }
}

/// Unknown products are refused, by their place in the list.
fn check_products(
    conn: &Connection,
    ids: &[String],
    pointer: &str,
) -> rusqlite::Result<Result<(), ApiError>> {
    for (index, id) in ids.iter().enumerate() {
        if !product_exists(conn, id)? {
            return Ok(Err(
                crate::catalog::product_not_found(id).at(&format!("{pointer}/{index}"))
            ));
        }
    }
    Ok(Ok(()))
}

fn page_not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "DIGITAL_SALES_ROOMS__PRESENTATION_PAGE_NOT_FOUND",
        format!("The presentation page {id} was not found."),
    )
}

/// The 1-based slide index (as in the navigation) of `section_id` of page `page_id`.
fn slide_index(
    tx: &Transaction,
    appointment: &Appointment,
    page_id: &str,
    section_id: &str,
) -> rusqlite::Result<i64> {
    let mut pages = tx.prepare(
        "SELECT pp.id, pp.cms_page_id FROM presentation_page pp WHERE pp.presentation_id = ?1 AND (pp.appointment_id IS NULL OR pp.appointment_id = ?2)
         ORDER BY pp.position",
    )?;
    let rows = pages.query_map(params![appointment.presentation_id, appointment.id], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })?;
    let mut sections =
        tx.prepare_cached("SELECT id FROM cms_section WHERE cms_page_id = ?1 ORDER BY position")?;
    let mut index = 0;
    for row in rows {
        let (id, cms_page_id) = row?;
        for section in sections.query_map([&cms_page_id], |r| r.get::<_, String>(0))? {
            index += 1;
            if id == page_id && section? == section_id {
                return Ok(index);
            }
        }
    }
    Ok(index)
}

async fn publish(app: &App, appointment_id: &str, action: Action) {
    if let Err(error) = app
        .hub
        .publish(appointment_id, Audience::Everyone, Event::Reload { action })
        .await
    {
        tracing::warn!(%error, "could not publish an instant listing");
    }
}

/// `currentPageGroupId`: the id of a page of the presentation (a slide group).
fn page_group(body: &Map<String, Value>) -> ApiResult<String> {
    body.get("currentPageGroupId")
        .and_then(Value::as_str)
        .map(str::to_lowercase)
        .filter(|v| is_id(v))
        .ok_or_else(|| {
            crate::catalog::invalid_id(
                &body
                    .get("currentPageGroupId")
                    .cloned()
                    .unwrap_or(Value::Null)
                    .to_string(),
                "/currentPageGroupId",
            )
        })
}

/// Where a new page goes: right after the page group `after` (the pages behind it move
/// down), else at the end.
fn new_position(
    conn: &Connection,
    appointment: &Appointment,
    after: Option<&str>,
) -> rusqlite::Result<ApiResult<i64>> {
    let Some(group) = after else {
        return Ok(Ok(conn.query_row(
            "SELECT COALESCE(MAX(position), -1) + 1 FROM presentation_page WHERE presentation_id = ?1",
            [&appointment.presentation_id],
            |r| r.get(0),
        )?));
    };
    let found: Option<i64> = conn
        .query_row(
            "SELECT position FROM presentation_page WHERE id = ?1 AND presentation_id = ?2 AND (appointment_id IS NULL OR appointment_id = ?3)",
            params![group, appointment.presentation_id, appointment.id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(found) = found else {
        return Ok(Err(page_not_found(group)));
    };
    conn.execute(
        "UPDATE presentation_page SET position = position + 1 WHERE presentation_id = ?1 AND position > ?2",
        params![appointment.presentation_id, found],
    )?;
    Ok(Ok(found + 1))
}

/// A listing's products after a change: `all` of them, or the `stored` ones less
/// `remove` and with `add`.
fn changed_picks(
    stored: &str,
    all: Option<&[String]>,
    add: &[String],
    remove: &[String],
) -> Vec<String> {
    let mut picked: Vec<String> = match all {
        Some(all) => all.to_vec(),
        None => serde_json::from_str(stored).unwrap_or_default(),
    };
    picked.retain(|p| !remove.contains(p));
    for id in add {
        if !picked.contains(id) {
            picked.push(id.clone());
        }
    }
    picked.dedup();
    picked
}

/// `POST …/instant-listing`: 201 `{ "index" }`, the new slide's place in the navigation.
pub async fn create(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let product_ids = optional_ids(&body, "productIds")?
        .filter(|ids| !ids.is_empty())
        .ok_or_else(|| ApiError::Violations(vec![crate::error::Violation::blank("/productIds")]))?;
    let after = match body.get("currentPageGroupId") {
        None | Some(Value::Null) => None,
        Some(_) => Some(page_group(&body)?),
    };
    let name = page_name(&body)?;
    let requested = layout(&body)?;
    let ids = product_ids.clone();
    let (appointment_id, new_page, slide_id, index) = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(appointment) = Appointment::by_id(&tx, &id)? else { return Ok(Err(appointment::not_found())) };
            let (pid, sid) = match requested {
                Some((pid, sid)) if layout_exists(&tx, &pid, &sid)? => (pid, sid),
                Some(_) => return Ok(Err(layout_missing(StatusCode::NOT_FOUND, "/pageId"))),
                None => match default_layout(&tx, &appointment.presentation_id)? {
                    Some(found) => found,
                    None => return Ok(Err(layout_missing(StatusCode::NOT_FOUND, "/pageId"))),
                },
            };
            if let Err(error) = check_products(&tx, &ids, "/productIds")? {
                return Ok(Err(error));
            }
            let position = match new_position(&tx, &appointment, after.as_deref())? {
                Ok(position) => position,
                Err(missing) => return Ok(Err(missing)),
            };
            let title = match name {
                Some(name) => name,
                None => tx.query_row("SELECT name FROM cms_page WHERE id = ?1", [&pid], |r| r.get(0))?,
            };
            let new_page = new_id();
            tx.execute(
                "INSERT INTO presentation_page (id, presentation_id, cms_page_id, position, title, is_instant_listing, picked_product_ids, appointment_id, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8)",
                params![new_page, appointment.presentation_id, pid, position, title, json_ids(&ids), appointment.id, now_rfc3339()],
            )?;
            let index = slide_index(&tx, &appointment, &new_page, &sid)?;
            tx.commit()?;
            Ok(Ok((appointment.id, new_page, sid, index)))
        })
        .await??;
    publish(
        &app,
        &appointment_id,
        Action::LoadSlide {
            page_id: new_page,
            section_id: slide_id,
        },
    )
    .await;
    Ok((StatusCode::CREATED, Json(json!({ "index": index }))).into_response())
}

/// `PATCH …/instant-listing`: `currentPageGroupId` names the listing; `addProductIds`
/// and `removeProductIds` (or `productIds`, all of them) change its products.
pub async fn update(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let group = page_group(&body)?;
    let all = optional_ids(&body, "productIds")?;
    let add = optional_ids(&body, "addProductIds")?.unwrap_or_default();
    let remove = optional_ids(&body, "removeProductIds")?.unwrap_or_default();
    let name = page_name(&body)?;
    let requested = layout(&body)?;
    let (appointment_id, picked, title, slide_id) = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(appointment) = Appointment::by_id(&tx, &id)? else { return Ok(Err(appointment::not_found())) };
            if let Some((pid, sid)) = &requested {
                if !layout_exists(&tx, pid, sid)? {
                    return Ok(Err(layout_missing(StatusCode::NOT_FOUND, "/pageId")));
                }
            }
            let listing: Option<(String, String, Option<String>)> = tx
                .query_row(
                    "SELECT picked_product_ids, cms_page_id, title FROM presentation_page WHERE id = ?1 AND appointment_id = ?2 AND is_instant_listing = 1",
                    params![group, appointment.id],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .optional()?;
            let Some((stored, cms_page_id, old_title)) = listing else { return Ok(Err(page_not_found(&group))) };
            // The listing keeps its layout: one named must be it.
            let sid = match requested {
                Some((pid, _)) if pid != cms_page_id => return Ok(Err(layout_missing(StatusCode::NOT_FOUND, "/pageId"))),
                Some((_, sid)) => sid,
                None => match first_section(&tx, &cms_page_id)? {
                    Some(sid) => sid,
                    None => return Ok(Err(layout_missing(StatusCode::NOT_FOUND, "/pageId"))),
                },
            };
            for (ids, pointer) in [(&add, "/addProductIds"), (all.as_ref().unwrap_or(&Vec::new()), "/productIds")] {
                if let Err(error) = check_products(&tx, ids, pointer)? {
                    return Ok(Err(error));
                }
            }
            let picked = changed_picks(&stored, all.as_deref(), &add, &remove);
            let title = name.or(old_title);
            tx.execute(
                "UPDATE presentation_page SET picked_product_ids = ?2, title = ?3, updated_at = ?4 WHERE id = ?1",
                params![group, json_ids(&picked), title, now_rfc3339()],
            )?;
            tx.commit()?;
            Ok(Ok((appointment.id, picked, title, sid)))
        })
        .await??;
    let group_id = body
        .get("currentPageGroupId")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_lowercase();
    publish(
        &app,
        &appointment_id,
        Action::UpdateListingProducts {
            page_id: group_id.clone(),
            section_id: slide_id,
            product_ids: picked.clone(),
        },
    )
    .await;
    Ok(Json(
        json!({ "id": group_id, "pickedProductIds": picked, "title": title }),
    ))
}

/// `DELETE …/instant-listing/{pageId}`: 204; the page leaves this appointment's
/// presentation (only an instant listing of this appointment), later pages move up.
pub async fn delete(
    _: AdminUser,
    State(app): State<App>,
    Path((id, page_id)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    let page_id = page_id.to_lowercase();
    if !is_id(&page_id) {
        return Err(crate::catalog::invalid_id(&page_id, "/pageId"));
    }
    let group = page_id.clone();
    let (appointment_id, section_id) = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(appointment) = Appointment::by_id(&tx, &id)? else { return Ok(Err(appointment::not_found())) };
            let listing: Option<(String, i64)> = tx
                .query_row(
                    "SELECT cms_page_id, position FROM presentation_page WHERE id = ?1 AND appointment_id = ?2 AND is_instant_listing = 1",
                    params![group, appointment.id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            let Some((cms_page_id, position)) = listing else { return Ok(Err(page_not_found(&group))) };
            let section_id: String =
                tx.query_row("SELECT id FROM cms_section WHERE cms_page_id = ?1 ORDER BY position LIMIT 1", [&cms_page_id], |r| r.get(0))?;
            tx.execute("DELETE FROM presentation_page WHERE id = ?1", [&group])?;
            tx.execute(
                "UPDATE presentation_page SET position = position - 1 WHERE presentation_id = ?1 AND position > ?2",
                params![appointment.presentation_id, position],
            )?;
            tx.commit()?;
            Ok(Ok((appointment.id, section_id)))
        })
        .await??;
    publish(
        &app,
        &appointment_id,
        Action::LoadSlide {
            page_id,
            section_id,
        },
    )
    .await;
    Ok(StatusCode::NO_CONTENT)
}
