//! `POST /api/_action/media/{id}/upload?extension=png&fileName=…`: the raw file as the
//! body, stored for an existing media entity. JPEG, PNG and WebP only, told by their
//! first bytes (the extension must agree), 5 MB at most; anything else is refused
//! with an explicit error and nothing changes.

use axum::body::Body as RawBody;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use rusqlite::params;
use serde::Deserialize;

use super::{authorize, in_transaction, write};
use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::{is_id, now_rfc3339};

/// The largest file accepted.
pub const MAX_BYTES: usize = 5 * 1024 * 1024;

#[derive(Deserialize)]
pub struct UploadQuery {
    extension: Option<String>,
    #[serde(rename = "fileName")]
    file_name: Option<String>,
}

/// A file type this shop stores: its MIME type and extension.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ImageType {
    Jpeg,
    Png,
    Webp,
}

impl ImageType {
    /// The type of the file's first bytes.
    pub fn sniff(bytes: &[u8]) -> Option<ImageType> {
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(ImageType::Jpeg)
        } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(ImageType::Png)
        } else if bytes.len() >= 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Some(ImageType::Webp)
        } else {
            None
        }
    }

    fn of_extension(extension: &str) -> Option<ImageType> {
        match extension.to_ascii_lowercase().as_str() {
            "jpg" | "jpeg" => Some(ImageType::Jpeg),
            "png" => Some(ImageType::Png),
            "webp" => Some(ImageType::Webp),
            _ => None,
        }
    }

    fn mime_type(self) -> &'static str {
        match self {
            ImageType::Jpeg => "image/jpeg",
            ImageType::Png => "image/png",
            ImageType::Webp => "image/webp",
        }
    }

    /// Width and height from the header, where they are simple to read.
    fn dimensions(self, bytes: &[u8]) -> Option<(u32, u32)> {
        let be32 = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
        let be16 = |at: usize| bytes.get(at..at + 2).map(|b| u16::from_be_bytes([b[0], b[1]]) as u32);
        match self {
            ImageType::Png => Some((be32(16)?, be32(20)?)),
            ImageType::Jpeg => {
                // Walk the segments to the first start-of-frame marker.
                let mut at = 2;
                while at + 9 < bytes.len() {
                    if bytes[at] != 0xFF {
                        return None;
                    }
                    let marker = bytes[at + 1];
                    let length = be16(at + 2)? as usize;
                    if matches!(marker, 0xC0..=0xC3 | 0xC5..=0xC7 | 0xC9..=0xCB | 0xCD..=0xCF) {
                        return Some((be16(at + 7)?, be16(at + 5)?));
                    }
                    at += 2 + length;
                }
                None
            }
            ImageType::Webp => {
                let le24 = |at: usize| bytes.get(at..at + 3).map(|b| u32::from_le_bytes([b[0], b[1], b[2], 0]));
                match bytes.get(12..16)? {
                    b"VP8X" => Some((le24(24)? + 1, le24(27)? + 1)),
                    b"VP8 " => {
                        let w = bytes.get(26..28).map(|b| u16::from_le_bytes([b[0], b[1]]) as u32 & 0x3FFF)?;
                        let h = bytes.get(28..30).map(|b| u16::from_le_bytes([b[0], b[1]]) as u32 & 0x3FFF)?;
                        Some((w, h))
                    }
                    b"VP8L" => {
                        let b = bytes.get(21..25)?;
                        let bits = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                        Some(((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1))
                    }
                    _ => None,
                }
            }
        }
    }
}

fn bad(code: &'static str, detail: impl Into<String>) -> ApiError {
    ApiError::bad_request(code, detail)
}

pub async fn upload(
    user: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    Query(query): Query<UploadQuery>,
    body: RawBody,
) -> ApiResult<StatusCode> {
    let def = &super::entities::media::MEDIA;
    authorize(&user, def, true)?;
    if !is_id(&id) {
        return Err(write::not_found(def, &id));
    }
    let Some(extension) = query.extension.filter(|e| !e.is_empty()) else {
        return Err(
            bad("CONTENT__MEDIA_MISSING_FILE_EXTENSION", "Name the file's extension: ?extension=png (jpg, png or webp).").at("/extension")
        );
    };
    let Some(declared) = ImageType::of_extension(&extension) else {
        return Err(bad("CONTENT__MEDIA_ILLEGAL_FILE_TYPE", format!("Files of type \"{extension}\" are not accepted: jpg, png or webp."))
            .at("/extension"));
    };
    let file_name = query.file_name.unwrap_or_else(|| id.clone());
    if file_name.is_empty()
        || file_name.len() > 200
        || !file_name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(bad("CONTENT__MEDIA_ILLEGAL_FILE_NAME", "A file name has 1 to 200 letters, digits, dots, dashes or underscores.")
            .at("/fileName"));
    }
    let bytes = match axum::body::to_bytes(body, MAX_BYTES).await {
        Ok(bytes) => bytes,
        Err(_) => {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "CONTENT__MEDIA_FILE_SIZE_LIMIT_EXCEEDED",
                format!("The file is larger than {} MB.", MAX_BYTES / 1024 / 1024),
            ))
        }
    };
    if bytes.is_empty() {
        return Err(bad("CONTENT__MEDIA_EMPTY_FILE", "The request body is empty: send the file's bytes."));
    }
    let Some(actual) = ImageType::sniff(&bytes) else {
        return Err(bad("CONTENT__MEDIA_ILLEGAL_FILE_TYPE", "The file is not a JPEG, PNG or WebP image."));
    };
    if actual != declared {
        return Err(bad(
            "CONTENT__MEDIA_FILE_TYPE_MISMATCH",
            format!("The file is {} but the extension says \"{extension}\".", actual.mime_type()),
        )
        .at("/extension"));
    }
    let dimensions = actual.dimensions(&bytes);
    let extension = extension.to_ascii_lowercase();
    in_transaction(&app, move |tx| {
        if !write::exists(tx, "media", &id)? {
            return Err(write::not_found(def, &id));
        }
        // A new upload gets a new path: files are served as immutable.
        let stamp = time::OffsetDateTime::now_utc().unix_timestamp_nanos();
        let path = format!("media/{}/{}/{id}/{stamp}/{file_name}.{extension}", &id[0..2], &id[2..4]);
        tx.execute(
            "UPDATE media SET mime_type = ?2, file_extension = ?3, file_name = ?4, path = ?5, file_size = ?6, width = ?7, height = ?8, uploaded_at = ?9
             WHERE id = ?1",
            params![id, actual.mime_type(), extension, file_name, path, bytes.len() as i64, dimensions.map(|d| d.0), dimensions.map(|d| d.1), now_rfc3339()],
        )?;
        tx.execute(
            "INSERT INTO media_blob (media_id, content) VALUES (?1, ?2) ON CONFLICT (media_id) DO UPDATE SET content = excluded.content",
            params![id, bytes.as_ref()],
        )?;
        Ok(())
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_types_and_reads_sizes() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend(640u32.to_be_bytes());
        png.extend(480u32.to_be_bytes());
        assert_eq!(ImageType::sniff(&png), Some(ImageType::Png));
        assert_eq!(ImageType::Png.dimensions(&png), Some((640, 480)));
        assert_eq!(ImageType::sniff(b"RIFF\0\0\0\0WEBPVP8 "), Some(ImageType::Webp));
        assert_eq!(ImageType::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Some(ImageType::Jpeg));
        assert_eq!(ImageType::sniff(b"<svg xmlns="), None);
        assert_eq!(ImageType::sniff(b"GIF89a"), None);
    }
}
