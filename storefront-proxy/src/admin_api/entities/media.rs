//! Media: the entity (alt text and title per language) is created first, its file
//! uploaded after (`upload.rs`); until then it has no file and no URL. A file may sit
//! in a media folder (`settings::MEDIA_FOLDER`).

use std::collections::HashMap;

use rusqlite::{Connection, Transaction};
use serde_json::Value;

use crate::admin_api::definition::{
    Access, Column, Definition, Extra, ExtraWrite, Hooks, Translation, Write, NO_HOOKS,
};
use crate::error::ApiResult;
use crate::storage::json_ids;

pub static MEDIA: Definition = Definition {
    name: "media",
    table: "media",
    columns: &[
        Column::text("mimeType", "mime_type", 255).read_only(),
        Column::text("fileExtension", "file_extension", 16).read_only(),
        Column::text("fileName", "file_name", 255).read_only(),
        Column::int("fileSize", "file_size", 0, i64::MAX).read_only(),
        Column::int("width", "width", 0, i64::MAX).read_only(),
        Column::int("height", "height", 0, i64::MAX).read_only(),
        Column::text("uploadedAt", "uploaded_at", 64).read_only(),
        Column::id("mediaFolderId", "media_folder_id", "media_folder"),
    ],
    translation: Some(Translation {
        table: "media_translation",
        key: "media_id",
        fields: &[
            Column::text("alt", "alt", 255),
            Column::text("title", "title", 255),
        ],
    }),
    extras: &[Extra {
        name: "url",
        write: ExtraWrite::ReadOnly,
        read: read_url,
        filter: None,
    }],
    // Every file is public (private files are an order's downloads).
    ignored: &["private"],
    access: Access::GuidesRead,
    hooks: Hooks {
        prepare,
        ..NO_HOOKS
    },
    inherits_from: None,
};

/// A new media entity has no file yet: placeholders until the upload.
fn prepare(_: &Transaction, w: &mut Write) -> ApiResult<()> {
    if w.creating {
        w.set("mime_type", String::new());
        w.set("file_extension", String::new());
        w.set("file_name", String::new());
        w.set("path", format!("pending/{}", w.id));
        w.set("file_size", 0);
        w.set("uploaded_at", String::new());
    }
    Ok(())
}

/// The file's URL under this origin (`/media/…`), null before the upload.
fn read_url(conn: &Connection, ids: &[String]) -> rusqlite::Result<HashMap<String, Value>> {
    let mut statement = conn.prepare(
        "SELECT id, path, file_size FROM media WHERE id IN (SELECT value FROM json_each(?1))",
    )?;
    let rows = statement.query_map([json_ids(ids)], |r| {
        let path: String = r.get(1)?;
        let size: i64 = r.get(2)?;
        Ok((
            r.get::<_, String>(0)?,
            if size > 0 {
                Value::from(format!("/{path}"))
            } else {
                Value::Null
            },
        ))
    })?;
    rows.collect()
}
