//! A presentation's slides through the Admin API: `pages` of `dsr_presentation`, written
//! as the whole ordered list (its order is the presentation's). Each page is one of
//! - `productListing`: picked products (`productIds`), or the products of a category
//!   (`categoryId`, taken when saved); a CMS page of type `presentation_product_list`
//!   with a product listing block is made for it;
//! - `productDetail`: one product (`productId`); a `presentation_product_detail` page
//!   with heading, gallery and buy box, and description is made for it;
//! - `cms`: any existing CMS layout (`cmsPageId`), shown as it is;
//! - `text` (`texts`), `image` (`mediaId`), `textImage` (both) and `productText`
//!   (`productId` and `texts`): a page of type `presentation_landingpage` is made for
//!   it with a text, an image, an image beside a text, or a product box beside a text
//!   (no layout of its own to make first); `texts` by language id or code, HTML or
//!   plain text as notes are. Its content is rewritten on every save that names its kind.
//!
//! `notes` (by language id or code) are the guide's notes of the page's first slide (a
//! notes block of its first section, see `dsr::presentation`): HTML as the backoffice's
//! rich-text editor makes it (it sanitises before saving; the cockpit sanitises again
//! before showing), or plain text, which is stored as paragraphs. Read back as HTML. Pages left
//! out of the list are removed, with the CMS pages made for them. Instant listings of
//! appointments are never touched.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde_json::{json, Map, Value};

use crate::admin_api::definition::ValuesById;
use crate::cms::page::NOTES_BLOCK_TYPE;
use crate::dsr::presentation::MADE_FOR_SLIDE;
use crate::error::{ApiError, ApiResult, Violation};
use crate::mail::escape_html;
use crate::storage::{is_id, json_ids, new_id, now_rfc3339};

/// Most pages one presentation has, and most picked products one listing shows.
pub const MAX_PAGES: usize = 100;
pub const MAX_PICKED: usize = 100;
const MAX_TITLE: usize = 255;
const MAX_NOTES: usize = 10_000;
const MAX_TEXT: usize = 20_000;
const LISTING: &str = "presentation_product_list";
const DETAIL: &str = "presentation_product_detail";
/// The type of the pages made for text, image and product-with-text slides.
const CONTENT: &str = "presentation_landingpage";
/// The slide kinds whose page is made from a text, an image or a product.
const CONTENT_KINDS: &[&str] = &["text", "image", "textImage", "productText"];

struct Page {
    id: Option<String>,
    kind: String,
    title: Option<String>,
    product_ids: Vec<String>,
    category_id: Option<String>,
    product_id: Option<String>,
    cms_page_id: Option<String>,
    notes: Vec<(String, String)>,
    /// Titles by language id; an empty text removes that language's title.
    titles: Vec<(String, String)>,
    /// The text of a content slide by language id (empty ones left out).
    texts: Vec<(String, String)>,
    media_id: Option<String>,
}

impl Page {
    fn is_content(&self) -> bool {
        CONTENT_KINDS.contains(&self.kind.as_str())
    }
}

fn exists(tx: &Connection, table: &str, id: &str) -> rusqlite::Result<bool> {
    crate::admin_api::write::exists(tx, table, id)
}

fn id_field(
    tx: &Connection,
    item: &Map<String, Value>,
    key: &str,
    table: &str,
    at: &str,
    out: &mut Vec<Violation>,
) -> rusqlite::Result<Option<String>> {
    match item.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(id)) if is_id(id) => {
            if exists(tx, table, id)? {
                Ok(Some(id.clone()))
            } else {
                out.push(Violation::new(
                    "VIOLATION::ENTITY_NOT_FOUND",
                    format!("{at}/{key}"),
                    format!("No {table} has the id {id}."),
                ));
                Ok(None)
            }
        }
        Some(_) => {
            out.push(Violation::new(
                "VIOLATION::INVALID_ID",
                format!("{at}/{key}"),
                "An id is 32 lowercase hexadecimal characters.",
            ));
            Ok(None)
        }
    }
}

fn parse(
    tx: &Transaction,
    presentation_id: &str,
    item: &Value,
    at: &str,
    out: &mut Vec<Violation>,
) -> rusqlite::Result<Option<Page>> {
    let Some(item) = item.as_object() else {
        out.push(Violation::new(
            "VIOLATION::TYPE_ERROR",
            at.to_owned(),
            "A page must be a JSON object.",
        ));
        return Ok(None);
    };
    let before = out.len();
    let id = match item.get("id") {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) => {
            let ours: bool = tx.query_row(
                "SELECT EXISTS(SELECT 1 FROM presentation_page WHERE id = ?1 AND presentation_id = ?2 AND appointment_id IS NULL)",
                params![id, presentation_id],
                |r| r.get(0),
            )?;
            if !ours {
                out.push(Violation::new(
                    "VIOLATION::ENTITY_NOT_FOUND",
                    format!("{at}/id"),
                    "This presentation has no page with this id.",
                ));
            }
            Some(id.clone())
        }
        Some(_) => {
            out.push(Violation::new(
                "VIOLATION::INVALID_ID",
                format!("{at}/id"),
                "An id is 32 lowercase hexadecimal characters.",
            ));
            None
        }
    };
    let kind = match item.get("kind").and_then(Value::as_str) {
        Some(
            kind @ ("productListing" | "productDetail" | "cms" | "text" | "image" | "textImage"
            | "productText"),
        ) => kind.to_owned(),
        None if id.is_some() => String::new(),
        _ => {
            out.push(Violation::new(
                "VIOLATION::NO_SUCH_CHOICE_ERROR",
                format!("{at}/kind"),
                "The value you selected is not a valid choice (productListing, productDetail, cms, text, image, textImage, productText).",
            ));
            String::new()
        }
    };
    let title = match item.get("title") {
        None | Some(Value::Null) => None,
        Some(Value::String(t)) if t.chars().count() <= MAX_TITLE => {
            Some(t.trim().to_owned()).filter(|t| !t.is_empty())
        }
        Some(_) => {
            out.push(Violation::new(
                "VIOLATION::TOO_LONG_ERROR",
                format!("{at}/title"),
                format!("A title is a text of at most {MAX_TITLE} characters."),
            ));
            None
        }
    };
    let mut product_ids = Vec::new();
    match item.get("productIds") {
        None | Some(Value::Null) => {}
        Some(Value::Array(list)) if list.len() <= MAX_PICKED => {
            for (n, value) in list.iter().enumerate() {
                let pointer = format!("{at}/productIds/{n}");
                match value.as_str() {
                    Some(id) if is_id(id) && exists(tx, "product", id)? => {
                        product_ids.push(id.to_owned())
                    }
                    _ => out.push(Violation::new(
                        "VIOLATION::ENTITY_NOT_FOUND",
                        pointer,
                        "No product has this id.",
                    )),
                }
            }
        }
        Some(_) => out.push(Violation::new(
            "VIOLATION::TOO_MANY_ELEMENTS_ERROR",
            format!("{at}/productIds"),
            format!("A list of at most {MAX_PICKED} product ids."),
        )),
    }
    let category_id = id_field(tx, item, "categoryId", "category", at, out)?;
    let product_id = id_field(tx, item, "productId", "product", at, out)?;
    let cms_page_id = id_field(tx, item, "cmsPageId", "cms_page", at, out)?;
    let media_id = id_field(tx, item, "mediaId", "media", at, out)?;
    let texts = texts_field(tx, item, at, out)?;
    let has_text = texts.iter().any(|(_, text)| !text.trim().is_empty());
    match kind.as_str() {
        "productListing"
            if product_ids.is_empty() && category_id.is_none() && out.len() == before =>
        {
            out.push(Violation::blank(format!("{at}/productIds")));
        }
        "productDetail" if product_id.is_none() && !item.contains_key("productId") => {
            out.push(Violation::blank(format!("{at}/productId")))
        }
        "cms" if cms_page_id.is_none() && !item.contains_key("cmsPageId") => {
            out.push(Violation::blank(format!("{at}/cmsPageId")))
        }
        "text" if !has_text => out.push(Violation::blank(format!("{at}/texts"))),
        "image" | "textImage" if media_id.is_none() && !item.contains_key("mediaId") => {
            out.push(Violation::blank(format!("{at}/mediaId")))
        }
        "productText" if product_id.is_none() && !item.contains_key("productId") => {
            out.push(Violation::blank(format!("{at}/productId")))
        }
        _ => {}
    }
    let mut notes = Vec::new();
    match item.get("notes") {
        None | Some(Value::Null) => {}
        Some(Value::Object(by_language)) => {
            for (key, text) in by_language {
                let pointer = format!("{at}/notes/{key}");
                let language: Option<String> = tx
                    .query_row(
                        "SELECT id FROM language WHERE id = ?1 OR code = ?1",
                        [key],
                        |r| r.get(0),
                    )
                    .optional()?;
                match (language, text) {
                    (None, _) => out.push(Violation::new(
                        "VIOLATION::NO_SUCH_CHOICE_ERROR",
                        pointer,
                        "There is no such language.",
                    )),
                    (Some(language), Value::String(text)) if text.chars().count() <= MAX_NOTES => {
                        notes.push((language, text.clone()))
                    }
                    (Some(language), Value::Null) => notes.push((language, String::new())),
                    _ => out.push(Violation::new(
                        "VIOLATION::TOO_LONG_ERROR",
                        pointer,
                        format!("Notes are a text of at most {MAX_NOTES} characters."),
                    )),
                }
            }
        }
        Some(_) => out.push(Violation::new(
            "VIOLATION::TYPE_ERROR",
            format!("{at}/notes"),
            "Notes are an object of texts by language.",
        )),
    }
    let mut titles = Vec::new();
    match item.get("titles") {
        None | Some(Value::Null) => {}
        Some(Value::Object(by_language)) => {
            for (key, text) in by_language {
                let pointer = format!("{at}/titles/{key}");
                let language: Option<String> = tx
                    .query_row(
                        "SELECT id FROM language WHERE id = ?1 OR code = ?1",
                        [key],
                        |r| r.get(0),
                    )
                    .optional()?;
                match (language, text) {
                    (None, _) => out.push(Violation::new(
                        "VIOLATION::NO_SUCH_CHOICE_ERROR",
                        pointer,
                        "There is no such language.",
                    )),
                    (Some(language), Value::String(text)) if text.chars().count() <= MAX_TITLE => {
                        titles.push((language, text.trim().to_owned()))
                    }
                    (Some(language), Value::Null) => titles.push((language, String::new())),
                    _ => out.push(Violation::new(
                        "VIOLATION::TOO_LONG_ERROR",
                        pointer,
                        format!("A title is a text of at most {MAX_TITLE} characters."),
                    )),
                }
            }
        }
        Some(_) => out.push(Violation::new(
            "VIOLATION::TYPE_ERROR",
            format!("{at}/titles"),
            "Titles are an object of texts by language.",
        )),
    }
    Ok((out.len() == before).then_some(Page {
        id,
        kind,
        title,
        product_ids,
        category_id,
        product_id,
        cms_page_id,
        notes,
        titles,
        texts: texts
            .into_iter()
            .filter(|(_, text)| !text.trim().is_empty())
            .collect(),
        media_id,
    }))
}

/// `texts` of a content slide: texts by language id or code.
fn texts_field(
    tx: &Transaction,
    item: &Map<String, Value>,
    at: &str,
    out: &mut Vec<Violation>,
) -> rusqlite::Result<Vec<(String, String)>> {
    let mut texts = Vec::new();
    match item.get("texts") {
        None | Some(Value::Null) => {}
        Some(Value::Object(by_language)) => {
            for (key, text) in by_language {
                let pointer = format!("{at}/texts/{key}");
                let language: Option<String> = tx
                    .query_row(
                        "SELECT id FROM language WHERE id = ?1 OR code = ?1",
                        [key],
                        |r| r.get(0),
                    )
                    .optional()?;
                match (language, text) {
                    (None, _) => out.push(Violation::new(
                        "VIOLATION::NO_SUCH_CHOICE_ERROR",
                        pointer,
                        "There is no such language.",
                    )),
                    (Some(language), Value::String(text)) if text.chars().count() <= MAX_TEXT => {
                        texts.push((language, text.clone()))
                    }
                    (Some(_), Value::Null) => {}
                    _ => out.push(Violation::new(
                        "VIOLATION::TOO_LONG_ERROR",
                        pointer,
                        format!("A slide's text is a text of at most {MAX_TEXT} characters."),
                    )),
                }
            }
        }
        Some(_) => out.push(Violation::new(
            "VIOLATION::TYPE_ERROR",
            format!("{at}/texts"),
            "Texts are an object of texts by language.",
        )),
    }
    Ok(texts)
}

fn block(
    tx: &Transaction,
    section_id: &str,
    position: i64,
    kind: &str,
    slots: &[(&str, &str)],
) -> rusqlite::Result<String> {
    let id = new_id();
    tx.execute(
        "INSERT INTO cms_block (id, cms_section_id, position, type, margin_top, margin_bottom, margin_left, margin_right)
         VALUES (?1, ?2, ?3, ?4, '20px', '20px', '20px', '20px')",
        params![id, section_id, position, kind],
    )?;
    for (slot_type, slot) in slots {
        tx.execute(
            "INSERT INTO cms_slot (id, cms_block_id, type, slot) VALUES (?1, ?2, ?3, ?4)",
            params![new_id(), id, slot_type, slot],
        )?;
    }
    Ok(id)
}

/// A CMS page for a listing or product detail slide: one section with its blocks.
fn make_cms_page(tx: &Transaction, kind: &str, title: &str) -> rusqlite::Result<String> {
    let page_id = new_id();
    tx.execute(
        "INSERT INTO cms_page (id, type, name) VALUES (?1, ?2, ?3)",
        params![page_id, kind, format!("{MADE_FOR_SLIDE}{title}")],
    )?;
    let section_id = new_id();
    tx.execute(
        "INSERT INTO cms_section (id, cms_page_id, position, name) VALUES (?1, ?2, 0, ?3)",
        params![section_id, page_id, title],
    )?;
    if kind == CONTENT {
        // The content follows (`write_content`).
    } else if kind == LISTING {
        let block_id = block(
            tx,
            &section_id,
            0,
            "product-listing",
            &[("product-listing", "content")],
        )?;
        let config = json!({ "boxLayout": { "source": "static", "value": "standard" }, "showSorting": { "source": "static", "value": false } });
        tx.execute(
            "INSERT INTO cms_slot_translation (cms_slot_id, language_id, config)
             SELECT s.id, l.id, ?2 FROM cms_slot s, language l WHERE s.cms_block_id = ?1",
            params![block_id, config.to_string()],
        )?;
    } else {
        block(
            tx,
            &section_id,
            0,
            "product-heading",
            &[("product-name", "left")],
        )?;
        block(
            tx,
            &section_id,
            1,
            "gallery-buybox",
            &[("image-gallery", "left"), ("buy-box", "right")],
        )?;
        block(
            tx,
            &section_id,
            2,
            "product-description-reviews",
            &[("product-description-reviews", "content")],
        )?;
    }
    Ok(page_id)
}

/// Writes one config into a slot for every language (a config that is not translated).
fn config_for_all(tx: &Transaction, slot_id: &str, config: &Value) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO cms_slot_translation (cms_slot_id, language_id, config) SELECT ?1, id, ?2 FROM language WHERE true
         ON CONFLICT (cms_slot_id, language_id) DO UPDATE SET config = excluded.config",
        params![slot_id, config.to_string()],
    )?;
    Ok(())
}

/// The slot `slot` of block `block_id`.
fn slot_of(tx: &Transaction, block_id: &str, slot: &str) -> rusqlite::Result<String> {
    tx.query_row(
        "SELECT id FROM cms_slot WHERE cms_block_id = ?1 AND slot = ?2",
        params![block_id, slot],
        |r| r.get(0),
    )
}

/// The text slot's content per language (HTML cleaned, plain text as paragraphs).
fn write_texts(
    tx: &Transaction,
    slot_id: &str,
    texts: &[(String, String)],
) -> rusqlite::Result<()> {
    for (language, text) in texts {
        let config = json!({
            "content": { "source": "static", "value": note_html(text) },
            "verticalAlign": { "source": "static", "value": null },
        });
        tx.execute(
            "INSERT INTO cms_slot_translation (cms_slot_id, language_id, config) VALUES (?1, ?2, ?3)
             ON CONFLICT (cms_slot_id, language_id) DO UPDATE SET config = excluded.config",
            params![slot_id, language, config.to_string()],
        )?;
    }
    Ok(())
}

/// The content blocks of a text, image or product-with-text slide in its page's first
/// section, in place of the ones it had (the guide's notes stay).
fn write_content(tx: &Transaction, cms_page_id: &str, page: &Page) -> rusqlite::Result<()> {
    let section: String = tx.query_row(
        "SELECT id FROM cms_section WHERE cms_page_id = ?1 ORDER BY position, id LIMIT 1",
        [cms_page_id],
        |r| r.get(0),
    )?;
    tx.execute(
        "DELETE FROM cms_block WHERE cms_section_id = ?1 AND type != ?2",
        params![section, NOTES_BLOCK_TYPE],
    )?;
    let image = json!({
        "media": { "source": "static", "value": page.media_id },
        "displayMode": { "source": "static", "value": "standard" },
        "url": { "source": "static", "value": null },
        "newTab": { "source": "static", "value": false },
    });
    match page.kind.as_str() {
        "text" => {
            let block_id = block(tx, &section, 0, "text", &[("text", "content")])?;
            write_texts(tx, &slot_of(tx, &block_id, "content")?, &page.texts)?;
        }
        "image" => {
            let block_id = block(tx, &section, 0, "image", &[("image", "image")])?;
            config_for_all(tx, &slot_of(tx, &block_id, "image")?, &image)?;
        }
        "textImage" => {
            let block_id = block(
                tx,
                &section,
                0,
                "image-text",
                &[("image", "left"), ("text", "right")],
            )?;
            config_for_all(tx, &slot_of(tx, &block_id, "left")?, &image)?;
            write_texts(tx, &slot_of(tx, &block_id, "right")?, &page.texts)?;
        }
        _ => {
            let block_id = block(
                tx,
                &section,
                0,
                "image-text",
                &[("product-box", "left"), ("text", "right")],
            )?;
            let product = json!({
                "product": { "source": "static", "value": page.product_id },
                "boxLayout": { "source": "static", "value": "standard" },
                "displayMode": { "source": "static", "value": "standard" },
            });
            config_for_all(tx, &slot_of(tx, &block_id, "left")?, &product)?;
            write_texts(tx, &slot_of(tx, &block_id, "right")?, &page.texts)?;
        }
    }
    Ok(())
}

/// Whether `cms_page_id` is a page made for a content slide (so its content is ours to rewrite).
fn is_made_content(tx: &Transaction, cms_page_id: &str) -> rusqlite::Result<bool> {
    tx.query_row(
        "SELECT EXISTS(SELECT 1 FROM cms_page WHERE id = ?1 AND type = ?2 AND name LIKE ?3 || '%')",
        params![cms_page_id, CONTENT, MADE_FOR_SLIDE],
        |r| r.get(0),
    )
}

/// Removes a CMS page made for a slide once no page shows it.
fn drop_made_page(tx: &Transaction, cms_page_id: &str) -> rusqlite::Result<()> {
    tx.execute(
        "DELETE FROM cms_page WHERE id = ?1 AND name LIKE ?2 || '%'
         AND NOT EXISTS (SELECT 1 FROM presentation_page WHERE cms_page_id = ?1)",
        params![cms_page_id, MADE_FOR_SLIDE],
    )?;
    Ok(())
}

/// Whether a note is HTML: it has a tag (`<` followed by a letter or `/`).
fn is_html(text: &str) -> bool {
    text.as_bytes()
        .windows(2)
        .any(|pair| pair[0] == b'<' && (pair[1].is_ascii_alphabetic() || pair[1] == b'/'))
}

/// A note as stored: HTML as it is, plain text as paragraphs (blank lines) with line breaks.
fn note_html(text: &str) -> String {
    if is_html(text) {
        return crate::rich_text::clean(text.trim());
    }
    text.split("\n\n")
        .map(|p| format!("<p>{}</p>", escape_html(p.trim()).replace('\n', "<br>")))
        .collect()
}

/// The notes of the page's first slide, per language (an empty text removes one).
fn write_notes(
    tx: &Transaction,
    cms_page_id: &str,
    notes: &[(String, String)],
) -> rusqlite::Result<()> {
    if notes.is_empty() {
        return Ok(());
    }
    let section: Option<String> = tx
        .query_row(
            "SELECT id FROM cms_section WHERE cms_page_id = ?1 ORDER BY position, id LIMIT 1",
            [cms_page_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(section) = section else {
        return Ok(());
    };
    let slot: Option<String> = tx
        .query_row(
            "SELECT s.id FROM cms_block b JOIN cms_slot s ON s.cms_block_id = b.id WHERE b.cms_section_id = ?1 AND b.type = ?2
             ORDER BY b.position, s.slot LIMIT 1",
            params![section, NOTES_BLOCK_TYPE],
            |r| r.get(0),
        )
        .optional()?;
    let slot = match slot {
        Some(slot) => slot,
        None => {
            let block_id = block(tx, &section, 100, NOTES_BLOCK_TYPE, &[("notes", "content")])?;
            tx.query_row(
                "SELECT id FROM cms_slot WHERE cms_block_id = ?1",
                [block_id],
                |r| r.get(0),
            )?
        }
    };
    for (language, text) in notes {
        if text.trim().is_empty() {
            tx.execute(
                "DELETE FROM cms_slot_translation WHERE cms_slot_id = ?1 AND language_id = ?2",
                params![slot, language],
            )?;
            continue;
        }
        let config = json!({
            "content": { "source": "static", "value": note_html(text) },
            "verticalAlign": { "source": "static", "value": null },
        });
        tx.execute(
            "INSERT INTO cms_slot_translation (cms_slot_id, language_id, config) VALUES (?1, ?2, ?3)
             ON CONFLICT (cms_slot_id, language_id) DO UPDATE SET config = excluded.config",
            params![slot, language, config.to_string()],
        )?;
    }
    Ok(())
}

/// `ExtraWrite::After` of `pages`: the whole ordered list replaces the presentation's pages.
pub fn write_pages(
    tx: &Transaction,
    presentation_id: &str,
    value: &Value,
    at: &str,
) -> ApiResult<()> {
    let Some(list) = value.as_array() else {
        return Err(ApiError::Violations(vec![Violation::new(
            "VIOLATION::TYPE_ERROR",
            at.to_owned(),
            "pages must be a list.",
        )]));
    };
    if list.len() > MAX_PAGES {
        return Err(ApiError::Violations(vec![Violation::new(
            "VIOLATION::TOO_MANY_ELEMENTS_ERROR",
            at.to_owned(),
            format!("A presentation has at most {MAX_PAGES} pages."),
        )]));
    }
    let mut violations = Vec::new();
    let mut pages = Vec::new();
    for (n, item) in list.iter().enumerate() {
        if let Some(page) = parse(
            tx,
            presentation_id,
            item,
            &format!("{at}/{n}"),
            &mut violations,
        )? {
            pages.push(page);
        }
    }
    if !violations.is_empty() {
        return Err(ApiError::Violations(violations));
    }
    let kept: Vec<String> = pages.iter().filter_map(|p| p.id.clone()).collect();
    let gone: Vec<(String, String)> = {
        let mut statement = tx.prepare(
            "SELECT id, cms_page_id FROM presentation_page WHERE presentation_id = ?1 AND appointment_id IS NULL
             AND id NOT IN (SELECT value FROM json_each(?2))",
        )?;
        let rows = statement.query_map(params![presentation_id, json_ids(&kept)], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    for (id, cms_page_id) in &gone {
        tx.execute("DELETE FROM presentation_page WHERE id = ?1", [id])?;
        drop_made_page(tx, cms_page_id)?;
    }
    let now = now_rfc3339();
    for (position, page) in pages.iter().enumerate() {
        let position = position as i64;
        let mut picked = page.product_ids.clone();
        if let Some(category) = &page.category_id {
            let mut statement = tx.prepare(
                "SELECT p.id FROM product_category pc JOIN product p ON p.id = pc.product_id
                 WHERE pc.category_id = ?1 AND p.parent_id IS NULL ORDER BY p.product_number LIMIT ?2",
            )?;
            let found: Vec<String> = statement
                .query_map(params![category, MAX_PICKED as i64], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            picked.extend(
                found
                    .into_iter()
                    .filter(|id| !page.product_ids.contains(id)),
            );
        }
        let page_id = match &page.id {
            Some(id) => {
                tx.execute(
                    "UPDATE presentation_page SET position = ?2, title = COALESCE(?3, title), updated_at = ?4 WHERE id = ?1",
                    params![id, position, page.title, now],
                )?;
                match page.kind.as_str() {
                    "productListing" => {
                        tx.execute(
                            "UPDATE presentation_page SET picked_product_ids = ?2 WHERE id = ?1",
                            params![id, json_ids(&picked)],
                        )?;
                    }
                    "productDetail" => {
                        tx.execute(
                            "UPDATE presentation_page SET product_id = ?2 WHERE id = ?1",
                            params![id, page.product_id],
                        )?;
                    }
                    _ if page.is_content() => {
                        let old: String = tx.query_row(
                            "SELECT cms_page_id FROM presentation_page WHERE id = ?1",
                            [id],
                            |r| r.get(0),
                        )?;
                        // Its product (of a product with text) is in its page, never a detail's.
                        tx.execute(
                            "UPDATE presentation_page SET product_id = NULL WHERE id = ?1",
                            [id],
                        )?;
                        if !is_made_content(tx, &old)? {
                            // Another kind before: a page of its own now.
                            let title = page.title.clone().unwrap_or_default();
                            let made = make_cms_page(tx, CONTENT, &title)?;
                            tx.execute(
                                "UPDATE presentation_page SET cms_page_id = ?2 WHERE id = ?1",
                                params![id, made],
                            )?;
                            drop_made_page(tx, &old)?;
                        }
                    }
                    "cms" => {
                        let old: String = tx.query_row(
                            "SELECT cms_page_id FROM presentation_page WHERE id = ?1",
                            [id],
                            |r| r.get(0),
                        )?;
                        tx.execute(
                            "UPDATE presentation_page SET cms_page_id = ?2 WHERE id = ?1",
                            params![id, page.cms_page_id],
                        )?;
                        drop_made_page(tx, &old)?;
                    }
                    _ => {}
                }
                id.clone()
            }
            None => {
                let title = page.title.clone().unwrap_or_default();
                let cms_page_id = match page.kind.as_str() {
                    "productListing" => make_cms_page(tx, LISTING, &title)?,
                    "productDetail" => make_cms_page(tx, DETAIL, &title)?,
                    _ if page.is_content() => make_cms_page(tx, CONTENT, &title)?,
                    _ => page.cms_page_id.clone().unwrap_or_default(),
                };
                // A product with text keeps its product in its page: the slide is no product detail.
                let detail_product = page.product_id.as_ref().filter(|_| !page.is_content());
                let id = new_id();
                tx.execute(
                    "INSERT INTO presentation_page (id, presentation_id, cms_page_id, position, title, picked_product_ids, product_id, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    params![id, presentation_id, cms_page_id, position, page.title, json_ids(&picked), detail_product, now],
                )?;
                id
            }
        };
        let cms_page_id: String = tx.query_row(
            "SELECT cms_page_id FROM presentation_page WHERE id = ?1",
            [&page_id],
            |r| r.get(0),
        )?;
        if page.is_content() {
            write_content(tx, &cms_page_id, page)?;
        }
        write_notes(tx, &cms_page_id, &page.notes)?;
        for (language, title) in &page.titles {
            if title.is_empty() {
                tx.execute(
                    "DELETE FROM presentation_page_translation WHERE presentation_page_id = ?1 AND language_id = ?2",
                    params![page_id, language],
                )?;
            } else {
                tx.execute(
                    "INSERT INTO presentation_page_translation (presentation_page_id, language_id, title) VALUES (?1, ?2, ?3)
                     ON CONFLICT (presentation_page_id, language_id) DO UPDATE SET title = excluded.title",
                    params![page_id, language, title],
                )?;
            }
        }
    }
    Ok(())
}

/// The kind of a page from its CMS page's type (and for a page made for a content
/// slide, from its content's slots).
fn kind_of(cms_type: &str, made: bool, content: &Content) -> &'static str {
    match cms_type {
        LISTING => "productListing",
        DETAIL => "productDetail",
        CONTENT if made => match (content.has_text, content.media, content.product) {
            (_, _, true) => "productText",
            (true, true, _) => "textImage",
            (false, true, _) => "image",
            _ => "text",
        },
        _ => "cms",
    }
}

/// What a page made for a content slide holds: its text by language id, its image, its product.
#[derive(Default)]
struct Content {
    texts: Map<String, Value>,
    media_id: Option<String>,
    product_id: Option<String>,
    has_text: bool,
    media: bool,
    product: bool,
}

/// The content of a page made for a content slide (its first section, notes left out).
fn content_of(conn: &Connection, cms_page_id: &str) -> rusqlite::Result<Content> {
    let mut statement = conn.prepare_cached(
        "SELECT sl.type, t.language_id, t.config FROM cms_section s JOIN cms_block b ON b.cms_section_id = s.id
         JOIN cms_slot sl ON sl.cms_block_id = b.id LEFT JOIN cms_slot_translation t ON t.cms_slot_id = sl.id
         WHERE s.id = (SELECT id FROM cms_section WHERE cms_page_id = ?1 ORDER BY position, id LIMIT 1) AND b.type != ?2",
    )?;
    let mut content = Content::default();
    let mut rows = statement.query(params![cms_page_id, NOTES_BLOCK_TYPE])?;
    while let Some(r) = rows.next()? {
        let slot_type: String = r.get(0)?;
        let language: Option<String> = r.get(1)?;
        let config: Value = r
            .get::<_, Option<String>>(2)?
            .and_then(|c| serde_json::from_str(&c).ok())
            .unwrap_or(Value::Null);
        let value = |field: &str| config[field]["value"].as_str().map(str::to_owned);
        match slot_type.as_str() {
            "text" => {
                content.has_text = true;
                if let (Some(language), Some(text)) = (language, value("content")) {
                    content.texts.insert(language, Value::String(text));
                }
            }
            "image" => {
                content.media = true;
                content.media_id = content.media_id.or(value("media"));
            }
            "product-box" => {
                content.product = true;
                content.product_id = content.product_id.or(value("product"));
            }
            _ => {}
        }
    }
    Ok(content)
}

/// The presentation's pages in order (instant listings of an appointment excluded), with
/// their kind, products and the notes of their first slide by language id.
pub fn read_pages(conn: &Connection, ids: &[String]) -> ValuesById {
    let mut statement = conn.prepare(
        "SELECT pp.presentation_id, pp.id, pp.cms_page_id, pp.position, pp.title, pp.is_instant_listing, pp.product_id,
                pp.picked_product_ids, c.type, c.name
         FROM presentation_page pp JOIN cms_page c ON c.id = pp.cms_page_id
         WHERE pp.presentation_id IN (SELECT value FROM json_each(?1)) AND pp.appointment_id IS NULL ORDER BY pp.position, pp.id",
    )?;
    let mut notes_of = conn.prepare(
        "SELECT t.language_id, t.config FROM cms_section s JOIN cms_block b ON b.cms_section_id = s.id
         JOIN cms_slot sl ON sl.cms_block_id = b.id JOIN cms_slot_translation t ON t.cms_slot_id = sl.id
         WHERE s.id = (SELECT id FROM cms_section WHERE cms_page_id = ?1 ORDER BY position, id LIMIT 1) AND b.type = ?2",
    )?;
    let mut titles_of = conn.prepare("SELECT language_id, title FROM presentation_page_translation WHERE presentation_page_id = ?1")?;
    let mut found: HashMap<String, Vec<Value>> = HashMap::new();
    let mut rows = statement.query([json_ids(ids)])?;
    while let Some(r) = rows.next()? {
        let presentation: String = r.get(0)?;
        let cms_page_id: String = r.get(2)?;
        let picked: String = r.get(7)?;
        let cms_type: String = r.get(8)?;
        let cms_name: String = r.get(9)?;
        let made = cms_name.starts_with(MADE_FOR_SLIDE);
        let content = if cms_type == CONTENT && made {
            content_of(conn, &cms_page_id)?
        } else {
            Content::default()
        };
        let mut notes = Map::new();
        let mut note_rows = notes_of.query(params![cms_page_id, NOTES_BLOCK_TYPE])?;
        while let Some(n) = note_rows.next()? {
            let config: Value =
                serde_json::from_str(&n.get::<_, String>(1)?).unwrap_or(Value::Null);
            let text = config["content"]["value"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            notes.insert(n.get(0)?, Value::String(text));
        }
        let page_id: String = r.get(1)?;
        let mut titles = Map::new();
        let mut title_rows = titles_of.query([&page_id])?;
        while let Some(t) = title_rows.next()? {
            titles.insert(t.get(0)?, Value::String(t.get(1)?));
        }
        found.entry(presentation).or_default().push(json!({
            "id": page_id,
            "cmsPageId": cms_page_id,
            "cmsPageName": cms_name.strip_prefix(MADE_FOR_SLIDE).unwrap_or(&cms_name),
            "kind": kind_of(&cms_type, made, &content),
            "position": r.get::<_, i64>(3)?,
            "title": r.get::<_, Option<String>>(4)?,
            "isInstantListing": r.get::<_, bool>(5)?,
            "productId": r.get::<_, Option<String>>(6)?.or(content.product_id),
            "mediaId": content.media_id,
            "texts": content.texts,
            "productIds": serde_json::from_str::<Value>(&picked).unwrap_or_else(|_| json!([])),
            "notes": notes,
            "titles": titles,
        }));
    }
    Ok(ids
        .iter()
        .map(|id| {
            (
                id.clone(),
                Value::Array(found.remove(id).unwrap_or_default()),
            )
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::note_html;

    #[test]
    fn html_notes_are_kept_and_plain_text_becomes_paragraphs() {
        assert_eq!(
            note_html("<p>Hi <strong>all</strong></p>"),
            "<p>Hi <strong>all</strong></p>"
        );
        assert_eq!(
            note_html("a < b & c\nd\n\ne"),
            "<p>a &lt; b &amp; c<br>d</p><p>e</p>"
        );
    }
}
