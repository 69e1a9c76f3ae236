//! The shop's legal pages (issue #31, item 7): privacy policy, terms and imprint, written
//! by the merchant in the backoffice in English and German.
//!
//! Each is a CMS page with one text block, as Shopware keeps them, linked as Shopware
//! links its legal pages: the basic information's `core.basicInformation.privacyPage`,
//! `tosPage` and `imprintPage` (`system_config`), and `dsr_shop_page` by `privacy`, `tos`
//! and `imprint` ([`crate::cms::shop_page`]). So the Store API serves them in its own
//! shapes: `/store-api/cms/{id}` and `/store-api/dsr/shop-pages/{name}` (the room's
//! shop-page modal).
//!
//! - `GET /api/_action/salesroom/legal-pages`: the three, each with its CMS page id (null
//!   until written) and its title and text per language code.
//! - `PATCH /api/_action/salesroom/legal-pages/{name}` with
//!   `{"translations": {"de-DE": {"title": "…", "content": "<p>…</p>"}}}` (admins only):
//!   makes the page on its first write; the text is sanitised like every stored rich
//!   text ([`crate::rich_text`]).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde_json::{json, Map, Value};

use crate::admin::oauth::Role;
use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult, Violation};
use crate::state::App;
use crate::storage::{new_id, now_rfc3339};
use crate::store_api::RequestParams;

/// The legal pages by their `dsr_shop_page` name, with their default titles.
pub const LEGAL_PAGES: [(&str, &str, &str); 3] = [
    ("privacy", "Privacy policy", "Datenschutzerklärung"),
    (
        "tos",
        "Terms and conditions",
        "Allgemeine Geschäftsbedingungen",
    ),
    ("imprint", "Imprint", "Impressum"),
];

/// The longest title and text taken.
pub const MAX_TITLE: usize = 255;
pub const MAX_CONTENT: usize = 200_000;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/_action/salesroom/legal-pages", get(list))
        .route(
            "/_action/salesroom/legal-pages/{name}",
            get(one).patch(write),
        )
}

fn not_found(name: &str) -> ApiError {
    ApiError::not_found(
        "SALESROOM__LEGAL_PAGE_NOT_FOUND",
        format!("There is no legal page \"{name}\" (privacy, tos or imprint)."),
    )
}

/// The shop's languages: (id, code).
fn languages(conn: &Connection) -> rusqlite::Result<Vec<(String, String)>> {
    let mut statement = conn.prepare_cached("SELECT id, code FROM language ORDER BY code")?;
    let rows = statement.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

fn page_id(conn: &Connection, name: &str) -> rusqlite::Result<Option<String>> {
    crate::cms::shop_page::page_id(conn, name)
}

/// The first text slot of a page (the one its text is kept in).
fn text_slot(conn: &Connection, page_id: &str) -> rusqlite::Result<Option<String>> {
    conn.query_row(
        "SELECT sl.id FROM cms_slot sl JOIN cms_block b ON b.id = sl.cms_block_id
         JOIN cms_section s ON s.id = b.cms_section_id
         WHERE s.cms_page_id = ?1 AND sl.type = 'text'
         ORDER BY s.position, b.position, sl.rowid LIMIT 1",
        [page_id],
        |r| r.get(0),
    )
    .optional()
}

fn read_page(conn: &Connection, name: &str) -> rusqlite::Result<Value> {
    let id = page_id(conn, name)?;
    let mut translations = Map::new();
    if let Some(id) = &id {
        let slot = text_slot(conn, id)?;
        for (language_id, code) in languages(conn)? {
            let title: Option<String> = conn
                .query_row(
                    "SELECT name FROM cms_page_translation WHERE cms_page_id = ?1 AND language_id = ?2",
                    [id, &language_id],
                    |r| r.get(0),
                )
                .optional()?
                .flatten();
            let config: Option<String> = match &slot {
                Some(slot) => conn
                    .query_row(
                        "SELECT config FROM cms_slot_translation WHERE cms_slot_id = ?1 AND language_id = ?2",
                        [slot, &language_id],
                        |r| r.get(0),
                    )
                    .optional()?,
                None => None,
            };
            let content = config
                .and_then(|c| serde_json::from_str::<Value>(&c).ok())
                .and_then(|c| c["content"]["value"].as_str().map(str::to_owned));
            if title.is_some() || content.is_some() {
                translations.insert(
                    code,
                    json!({ "title": title, "content": content.unwrap_or_default() }),
                );
            }
        }
    }
    Ok(json!({
        "name": name,
        "cmsPageId": id,
        "translations": translations,
        "apiAlias": "salesroom_legal_page",
    }))
}

/// `GET /api/_action/salesroom/legal-pages`: the three legal pages (guides may read).
async fn list(_: AdminUser, State(app): State<App>) -> ApiResult<Json<Value>> {
    let pages = app
        .db
        .read(|conn| {
            LEGAL_PAGES
                .iter()
                .map(|(name, _, _)| read_page(conn, name))
                .collect::<rusqlite::Result<Vec<Value>>>()
                .map_err(Into::into)
        })
        .await?;
    Ok(Json(json!({ "total": pages.len(), "data": pages })))
}

async fn one(
    _: AdminUser,
    State(app): State<App>,
    Path(name): Path<String>,
) -> ApiResult<Json<Value>> {
    if !LEGAL_PAGES.iter().any(|(n, _, _)| *n == name) {
        return Err(not_found(&name));
    }
    let page = app.db.read(move |conn| Ok(read_page(conn, &name)?)).await?;
    Ok(Json(json!({ "data": page })))
}

/// One language's title and text, checked; the text sanitised.
struct Written {
    language_id: String,
    title: Option<String>,
    content: Option<String>,
}

fn parse(
    body: &Map<String, Value>,
    known: &[(String, String)],
) -> Result<Vec<Written>, Vec<Violation>> {
    let mut violations = Vec::new();
    let Some(Value::Object(translations)) = body.get("translations") else {
        return Err(vec![Violation::new(
            "VIOLATION::TYPE_ERROR",
            "/translations",
            "Give the texts as translations by language code: {\"de-DE\": {\"title\", \"content\"}}.",
        )]);
    };
    let mut written = Vec::new();
    for (key, value) in translations {
        let pointer = format!("/translations/{key}");
        let Some((language_id, _)) = known
            .iter()
            .find(|(id, code)| id.eq_ignore_ascii_case(key) || code.eq_ignore_ascii_case(key))
        else {
            violations.push(Violation::new(
                "VIOLATION::INVALID_LANGUAGE",
                pointer,
                "This language is not one of the shop's.",
            ));
            continue;
        };
        let Value::Object(fields) = value else {
            violations.push(Violation::new(
                "VIOLATION::TYPE_ERROR",
                pointer,
                "This value should be an object with title and content.",
            ));
            continue;
        };
        let mut text = |field: &str, max: usize, required: bool| -> Option<String> {
            match fields.get(field) {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) if s.trim().is_empty() && required => {
                    violations.push(Violation::blank(format!("{pointer}/{field}")));
                    None
                }
                Some(Value::String(s)) if s.chars().count() > max => {
                    violations.push(Violation::new(
                        "VIOLATION::TOO_LONG_ERROR",
                        format!("{pointer}/{field}"),
                        format!("This value is too long. It should have {max} characters or less."),
                    ));
                    None
                }
                Some(Value::String(s)) => Some(s.trim().to_owned()),
                Some(_) => {
                    violations.push(Violation::new(
                        "VIOLATION::TYPE_ERROR",
                        format!("{pointer}/{field}"),
                        "This value should be a string.",
                    ));
                    None
                }
            }
        };
        let title = text("title", MAX_TITLE, true);
        let content = text("content", MAX_CONTENT, false).map(|c| crate::rich_text::clean(&c));
        written.push(Written {
            language_id: language_id.clone(),
            title,
            content,
        });
    }
    if violations.is_empty() {
        Ok(written)
    } else {
        Err(violations)
    }
}

/// The page's id, made with one section, one text block and its slot when it is new.
fn page_for_writing(tx: &Transaction, name: &str, default_title: &str) -> rusqlite::Result<String> {
    if let Some(id) = page_id(tx, name)? {
        if text_slot(tx, &id)?.is_some() {
            return Ok(id);
        }
    }
    let id = match page_id(tx, name)? {
        Some(id) => id,
        None => {
            let id = new_id();
            tx.execute(
                "INSERT INTO cms_page (id, type, name) VALUES (?1, 'page', ?2)",
                params![id, default_title],
            )?;
            tx.execute(
                "INSERT INTO dsr_shop_page (layout_name, cms_page_id) VALUES (?1, ?2)
                 ON CONFLICT (layout_name) DO UPDATE SET cms_page_id = excluded.cms_page_id",
                params![name, id],
            )?;
            id
        }
    };
    let section = new_id();
    tx.execute(
        "INSERT INTO cms_section (id, cms_page_id, position, name) VALUES (?1, ?2, 0, ?3)",
        params![section, id, default_title],
    )?;
    let block = new_id();
    tx.execute(
        "INSERT INTO cms_block (id, cms_section_id, position, type, margin_top, margin_bottom, margin_left, margin_right)
         VALUES (?1, ?2, 0, 'text', '20px', '20px', '20px', '20px')",
        params![block, section],
    )?;
    tx.execute(
        "INSERT INTO cms_slot (id, cms_block_id, type, slot) VALUES (?1, ?2, 'text', 'content')",
        params![new_id(), block],
    )?;
    Ok(id)
}

/// `PATCH /api/_action/salesroom/legal-pages/{name}`: admins write the titles and texts.
async fn write(
    user: AdminUser,
    State(app): State<App>,
    Path(name): Path<String>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    if user.role != Role::Admin {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "FRAMEWORK__MISSING_PRIVILEGE_ERROR",
            "Missing privilege cms_page:write: only admins may do this.",
        ));
    }
    let Some(&(name, default_title, _)) = LEGAL_PAGES.iter().find(|(n, _, _)| *n == name) else {
        return Err(not_found(&name));
    };
    let page = app
        .db
        .call(move |conn| {
            let known = languages(conn)?;
            let written = match parse(&body, &known) {
                Ok(written) => written,
                Err(violations) => return Ok(Err(ApiError::Violations(violations))),
            };
            let tx = conn.transaction()?;
            let id = page_for_writing(&tx, name, default_title)?;
            let slot = text_slot(&tx, &id)?.unwrap_or_default();
            for w in written {
                if let Some(title) = &w.title {
                    tx.execute(
                        "INSERT INTO cms_page_translation (cms_page_id, language_id, name) VALUES (?1, ?2, ?3)
                         ON CONFLICT (cms_page_id, language_id) DO UPDATE SET name = excluded.name",
                        params![id, w.language_id, title],
                    )?;
                }
                if let Some(content) = &w.content {
                    let config = json!({
                        "content": { "source": "static", "value": content },
                        "verticalAlign": { "source": "static", "value": null },
                    });
                    tx.execute(
                        "INSERT INTO cms_slot_translation (cms_slot_id, language_id, config) VALUES (?1, ?2, ?3)
                         ON CONFLICT (cms_slot_id, language_id) DO UPDATE SET config = excluded.config",
                        params![slot, w.language_id, config.to_string()],
                    )?;
                }
            }
            // `cms_page.name` is the default language's title (older readers use it).
            tx.execute(
                "UPDATE cms_page SET name = COALESCE((SELECT t.name FROM cms_page_translation t
                     JOIN sales_channel s ON t.language_id = s.language_id
                     WHERE t.cms_page_id = cms_page.id AND t.name IS NOT NULL
                     ORDER BY s.rowid LIMIT 1), name)
                 WHERE id = ?1",
                [&id],
            )?;
            // Linked where Shopware links its legal pages: the basic information's setting.
            if let Some(key) = crate::cms::shop_page::config_key(name) {
                tx.execute(
                    "INSERT INTO system_config (configuration_key, sales_channel_id, configuration_value, updated_at)
                     VALUES (?1, '', ?2, ?3)
                     ON CONFLICT (configuration_key, sales_channel_id) DO UPDATE
                     SET configuration_value = excluded.configuration_value, updated_at = excluded.updated_at",
                    params![key, Value::String(id.clone()).to_string(), now_rfc3339()],
                )?;
            }
            let page = read_page(&tx, name)?;
            tx.commit()?;
            Ok(Ok(page))
        })
        .await??;
    Ok(Json(json!({ "data": page })))
}
