//! The `media` table: writing files, and reading the store API `Media` entity.

use std::collections::HashMap;

use rusqlite::{params, Connection};
use serde_json::{json, Value};

use crate::storage::translation::{self, LanguageChain};
use crate::storage::{json_ids, new_id, now_rfc3339};

const FIELDS: &[(&str, &str)] = &[("alt", "alt"), ("title", "title")];

/// A file to store.
pub struct NewMedia<'a> {
    pub file_name: &'a str,
    pub extension: &'a str,
    pub mime_type: &'a str,
    pub content: &'a [u8],
    pub width: Option<u32>,
    pub height: Option<u32>,
    /// `(language id, alt text)`.
    pub alt: &'a [(&'a str, &'a str)],
}

/// Stores a file; its path is `media/{2 hex}/{2 hex}/{id}/{file name}.{extension}`.
pub fn insert(conn: &Connection, media: &NewMedia) -> rusqlite::Result<String> {
    let id = new_id();
    let path = format!(
        "media/{}/{}/{id}/{}.{}",
        &id[0..2],
        &id[2..4],
        media.file_name,
        media.extension
    );
    conn.execute(
        "INSERT INTO media (id, mime_type, file_extension, file_name, path, file_size, width, height, uploaded_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            id,
            media.mime_type,
            media.extension,
            media.file_name,
            path,
            media.content.len() as i64,
            media.width,
            media.height,
            now_rfc3339()
        ],
    )?;
    conn.execute(
        "INSERT INTO media_blob (media_id, content) VALUES (?1, ?2)",
        params![id, media.content],
    )?;
    for (language_id, alt) in media.alt {
        conn.execute(
            "INSERT INTO media_translation (media_id, language_id, alt, title) VALUES (?1, ?2, ?3, ?3)",
            params![id, language_id, alt],
        )?;
    }
    Ok(id)
}

/// `Media` entities by id, with absolute URLs under `base_url`.
pub fn load(
    conn: &Connection,
    chain: &LanguageChain,
    base_url: &str,
    ids: &[String],
) -> rusqlite::Result<HashMap<String, Value>> {
    let mut found = HashMap::new();
    if ids.is_empty() {
        return Ok(found);
    }
    let texts = translation::load(conn, "media_translation", "media_id", FIELDS, ids, chain)?;
    let mut statement = conn.prepare_cached(
        "SELECT id, mime_type, file_extension, file_name, path, file_size, width, height, uploaded_at
         FROM media WHERE id IN (SELECT value FROM json_each(?1))",
    )?;
    let mut rows = statement.query([json_ids(ids)])?;
    while let Some(r) = rows.next()? {
        let id: String = r.get(0)?;
        let path: String = r.get(4)?;
        let translated = translation::get(&texts, &id, FIELDS);
        let media = json!({
            "id": id,
            "mimeType": r.get::<_, String>(1)?,
            "fileExtension": r.get::<_, String>(2)?,
            "fileName": r.get::<_, String>(3)?,
            "fileSize": r.get::<_, i64>(5)?,
            "metaData": { "width": r.get::<_, Option<i64>>(6)?, "height": r.get::<_, Option<i64>>(7)? },
            "uploadedAt": r.get::<_, String>(8)?,
            "alt": translated["alt"],
            "title": translated["title"],
            "url": format!("{}/{path}", base_url.trim_end_matches('/')),
            "path": path,
            "hasFile": true,
            "private": false,
            "thumbnails": [],
            "translated": translated,
            "apiAlias": "media",
        });
        found.insert(id, media);
    }
    Ok(found)
}
