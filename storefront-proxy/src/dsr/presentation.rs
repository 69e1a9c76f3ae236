//! `GET /store-api/dsr/appointment/presentation`: the presentation structure and its
//! flat slide navigation, for the attendee of the request's context token.
//!
//! A slide (CMS section) may carry notes for the guide, as in the reference: `notes`
//! slots (their HTML in `config.content`, translated) in blocks of type
//! [`NOTES_BLOCK_TYPE`] of the section. They are never part of the slide's content
//! (`cms::page::load` leaves those blocks out) and only guides get them: the
//! navigation of a client's structure has `notes: []`.

use std::collections::HashMap;

use axum::extract::State;
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};

use super::attendee;
use crate::cms::page::{load_slots, NOTES_BLOCK_TYPE};
use crate::error::ApiResult;
use crate::state::App;
use crate::storage::json_ids;
use crate::storage::translation::{self, LanguageChain};
use crate::store_api::ShopContext;

/// CMS pages made for a slide (by the backoffice) carry this name prefix, so they go with it.
pub const MADE_FOR_SLIDE: &str = "slide:";

/// The notes of each of `section_ids`, in block and slot order.
fn notes_of(
    conn: &Connection,
    section_ids: &[String],
    languages: &LanguageChain,
) -> rusqlite::Result<HashMap<String, Vec<Value>>> {
    let mut statement = conn.prepare_cached(
        "SELECT id, cms_section_id FROM cms_block
         WHERE cms_section_id IN (SELECT value FROM json_each(?1)) AND type = ?2 ORDER BY position",
    )?;
    let blocks: Vec<(String, String)> = statement
        .query_map(params![json_ids(section_ids), NOTES_BLOCK_TYPE], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?
        .collect::<Result<_, _>>()?;
    let block_ids: Vec<String> = blocks.iter().map(|(id, _)| id.clone()).collect();
    let mut slots = load_slots(conn, &block_ids, languages)?;
    slots.sort_by(|a, b| a["slot"].as_str().cmp(&b["slot"].as_str()));
    let mut notes: HashMap<String, Vec<Value>> = HashMap::new();
    for (block_id, section_id) in &blocks {
        for slot in slots
            .iter()
            .filter(|slot| slot["blockId"] == json!(block_id))
        {
            // As in the reference's example, less its nulls the schema does not allow.
            let mut note = slot.clone();
            note["cmsBlockVersionId"] = note["versionId"].clone();
            notes.entry(section_id.clone()).or_default().push(note);
        }
    }
    Ok(notes)
}

pub async fn structure(ctx: ShopContext, State(app): State<App>) -> ApiResult<Json<Value>> {
    let attendee = attendee::of_context(&app, ctx.token.clone()).await?;
    let with_notes = attendee.kind == "GUIDE";
    let structure = app
        .db
        .call(move |conn| {
            let reader = Reader {
                conn,
                languages: &ctx.languages,
                with_notes,
            };
            Ok(reader.structure(&attendee.appointment_id)?)
        })
        .await?
        .ok_or_else(attendee::not_an_attendee)?;
    Ok(Json(structure))
}

/// A page of the presentation (a slide group) as `presentation_page` and `cms_page`
/// store it.
struct PageRow {
    relation_id: String,
    cms_page_id: String,
    title: Option<String>,
    instant: bool,
    picked: String,
    page_type: String,
    default_name: String,
}

/// A section (a slide) of a page.
struct SectionRow {
    id: String,
    name: Option<String>,
    kind: String,
    position: i64,
}

/// Reads the structure in the viewer's languages (with the guide's notes or without).
struct Reader<'a> {
    conn: &'a Connection,
    languages: &'a LanguageChain,
    with_notes: bool,
}

impl Reader<'_> {
    /// The appointment's presentation: its pages with their sections, and the flat
    /// navigation of every slide; `None` without a presentation.
    fn structure(&self, appointment_id: &str) -> rusqlite::Result<Option<Value>> {
        let conn = self.conn;
        let presentation_id: Option<String> = conn
            .query_row(
                "SELECT presentation_id FROM appointment WHERE id = ?1",
                [appointment_id],
                |r| r.get(0),
            )
            .optional()?;
        let Some(presentation_id) = presentation_id else {
            return Ok(None);
        };
        let mut pages = conn.prepare(
            "SELECT pp.id, pp.cms_page_id, pp.title, pp.is_instant_listing, pp.picked_product_ids, c.type, c.name
             FROM presentation_page pp JOIN cms_page c ON c.id = pp.cms_page_id
             WHERE pp.presentation_id = ?1 AND (pp.appointment_id IS NULL OR pp.appointment_id = ?2) ORDER BY pp.position",
        )?;
        let rows = pages
            .query_map([&presentation_id, appointment_id], |r| {
                Ok(PageRow {
                    relation_id: r.get(0)?,
                    cms_page_id: r.get(1)?,
                    title: r.get(2)?,
                    instant: r.get(3)?,
                    picked: r.get(4)?,
                    page_type: r.get(5)?,
                    default_name: r.get(6)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let page_ids: Vec<String> = rows.iter().map(|row| row.cms_page_id.clone()).collect();
        let names = translation::load(
            conn,
            "cms_page_translation",
            "cms_page_id",
            &[("name", "name")],
            &page_ids,
            self.languages,
        )?;
        let relation_ids: Vec<String> = rows.iter().map(|row| row.relation_id.clone()).collect();
        let titles = translation::load(
            conn,
            "presentation_page_translation",
            "presentation_page_id",
            &[("title", "title")],
            &relation_ids,
            self.languages,
        )?;
        let mut page_results = Vec::new();
        let mut navigation = Vec::new();
        for row in rows {
            // The page's name in the request's language, its stored name otherwise.
            let page_name = translation::get(&names, &row.cms_page_id, &[("name", "name")])
                .get("name")
                .and_then(Value::as_str)
                .map_or(row.default_name.clone(), str::to_owned);
            // The slide group's title in the viewer's language, the default language's,
            // the title written before translations, the page's name.
            let translated_title =
                translation::get(&titles, &row.relation_id, &[("title", "title")])
                    .get("title")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            page_results.push(self.page(&row, page_name, translated_title, &mut navigation)?);
        }
        Ok(Some(
            json!({ "cmsPageResults": page_results, "navigation": navigation }),
        ))
    }

    /// The sections of a CMS page: id, name, type and position.
    fn sections(&self, cms_page_id: &str) -> rusqlite::Result<Vec<SectionRow>> {
        self.conn
            .prepare_cached(
                "SELECT id, name, type, position FROM cms_section WHERE cms_page_id = ?1 ORDER BY position",
            )?
            .query_map([cms_page_id], |r| {
                Ok(SectionRow {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    kind: r.get(2)?,
                    position: r.get(3)?,
                })
            })?
            .collect()
    }

    /// One page's result with its sections; its slides go to `navigation`.
    fn page(
        &self,
        row: &PageRow,
        page_name: String,
        translated_title: Option<String>,
        navigation: &mut Vec<Value>,
    ) -> rusqlite::Result<Value> {
        let conn = self.conn;
        let picked: Vec<String> = serde_json::from_str(&row.picked).unwrap_or_default();
        let section_rows = self.sections(&row.cms_page_id)?;
        let section_ids: Vec<String> = section_rows
            .iter()
            .map(|section| section.id.clone())
            .collect();
        let mut notes = if self.with_notes {
            notes_of(conn, &section_ids, self.languages)?
        } else {
            HashMap::new()
        };
        let made_for_slide = page_name.starts_with(MADE_FOR_SLIDE);
        // Whose title everyone sees: an instant listing's, and a slide the backoffice made
        // and named (a listing, a text or an image; a product detail shows its product's).
        let titled = row.instant
            || (made_for_slide
                && row.page_type != "presentation_product_detail"
                && (translated_title.is_some() || row.title.is_some()));
        let group_name = translated_title
            .clone()
            .or_else(|| row.title.clone())
            .unwrap_or_else(|| page_name.clone());
        let section_names = translation::load(
            conn,
            "cms_section_translation",
            "cms_section_id",
            &[("name", "name")],
            &section_ids,
            self.languages,
        )?;
        let mut section_json = Vec::new();
        for section in section_rows {
            let (section_id, section_name) = (section.id, section.name);
            // The slide's name in the viewer's language (then the default language's,
            // then as written); a page made for the slide names its one section
            // after the slide.
            let translated_section =
                translation::get(&section_names, &section_id, &[("name", "name")])
                    .get("name")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            let section_name = match (&translated_title, made_for_slide) {
                (Some(translated), true) => Some(translated.clone()),
                _ => translated_section.or(section_name),
            };
            navigation.push(json!({
                "index": navigation.len() + 1,
                "sectionId": section_id,
                "sectionName": section_name,
                "groupId": row.relation_id,
                "groupName": group_name,
                "cmsPageId": row.cms_page_id,
                "isInstantListing": row.instant,
                "titled": titled,
                "pickedProductsCount": picked.len(),
                "notes": notes.remove(&section_id).unwrap_or_default(),
            }));
            section_json.push(json!({
                "id": section_id,
                "name": section_name,
                "type": section.kind,
                "position": section.position,
                "pageId": row.cms_page_id,
                "blocks": [],
                "apiAlias": "cms_section",
            }));
        }
        Ok(page_result(row, &page_name, section_json))
    }
}

/// A page of the structure (`cmsPageResults`) with its sections.
fn page_result(row: &PageRow, page_name: &str, sections: Vec<Value>) -> Value {
    json!({
        "resourceType": "frontend.presentation.page",
        "resourceIdentifier": row.relation_id,
        "cmsPage": {
            "id": row.cms_page_id,
            "type": row.page_type,
            "name": page_name,
            "translated": { "name": page_name },
            "sections": sections,
            "apiAlias": "cms_page",
        },
    })
}
