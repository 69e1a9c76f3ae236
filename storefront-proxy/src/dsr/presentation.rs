//! `GET /store-api/dsr/appointment/presentation`: the presentation structure and its
//! flat slide navigation, for the attendee of the request's context token.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use rusqlite::OptionalExtension;
use serde_json::{json, Value};

use crate::app::App;
use crate::error::{ApiError, ApiResult};
use crate::store_api::{ContextToken, SalesChannel};

pub async fn structure(_: SalesChannel, ContextToken(token): ContextToken, State(app): State<App>) -> ApiResult<Json<Value>> {
    let attendee = super::attendee::of_context(&app, token).await?;
    let structure = app
        .db
        .call(move |conn| {
            let presentation_id: Option<String> = conn
                .query_row("SELECT presentation_id FROM appointment WHERE id = ?1", [&attendee.appointment_id], |r| r.get(0))
                .optional()?;
            let Some(presentation_id) = presentation_id else { return Ok(None) };
            let mut pages = conn.prepare(
                "SELECT pp.id, pp.cms_page_id, pp.title, pp.is_instant_listing, pp.picked_product_ids, c.type, c.name
                 FROM presentation_page pp JOIN cms_page c ON c.id = pp.cms_page_id
                 WHERE pp.presentation_id = ?1 AND (pp.appointment_id IS NULL OR pp.appointment_id = ?2) ORDER BY pp.position",
            )?;
            let mut sections = conn.prepare("SELECT id, name, type, position FROM cms_section WHERE cms_page_id = ?1 ORDER BY position")?;
            let mut page_results = Vec::new();
            let mut navigation = Vec::new();
            let rows = pages
                .query_map([&presentation_id, &attendee.appointment_id], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Option<String>>(2)?,
                        r.get::<_, bool>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, String>(5)?,
                        r.get::<_, String>(6)?,
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            for (relation_id, cms_page_id, title, instant, picked, page_type, page_name) in rows {
                let picked: Vec<String> = serde_json::from_str(&picked).unwrap_or_default();
                let section_rows = sections
                    .query_map([&cms_page_id], |r| {
                        Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?, r.get::<_, String>(2)?, r.get::<_, i64>(3)?))
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                let group_name = title.clone().unwrap_or_else(|| page_name.clone());
                let mut section_json = Vec::new();
                for (section_id, section_name, section_type, position) in section_rows {
                    navigation.push(json!({
                        "index": navigation.len() + 1,
                        "sectionId": section_id,
                        "sectionName": section_name,
                        "groupId": relation_id,
                        "groupName": group_name,
                        "cmsPageId": cms_page_id,
                        "isInstantListing": instant,
                        "pickedProductsCount": picked.len(),
                        "notes": [],
                    }));
                    section_json.push(json!({
                        "id": section_id,
                        "name": section_name,
                        "type": section_type,
                        "position": position,
                        "pageId": cms_page_id,
                        "blocks": [],
                        "apiAlias": "cms_section",
                    }));
                }
                page_results.push(json!({
                    "resourceType": "frontend.presentation.page",
                    "resourceIdentifier": relation_id,
                    "cmsPage": {
                        "id": cms_page_id,
                        "type": page_type,
                        "name": page_name,
                        "translated": { "name": page_name },
                        "sections": section_json,
                        "apiAlias": "cms_page",
                    },
                }));
            }
            Ok(Some(json!({ "cmsPageResults": page_results, "navigation": navigation })))
        })
        .await?
        .ok_or_else(not_an_attendee)?;
    Ok(Json(structure))
}

pub fn not_an_attendee() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "DIGITAL_SALES_ROOMS__ATTENDEE_NOT_FOUND",
        "The context token does not belong to an attendee of an appointment.",
    )
}
