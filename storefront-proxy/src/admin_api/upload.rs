//! `POST /api/_action/media/{id}/upload?extension=png&fileName=…`: the raw file as the
//! body, stored for an existing media entity. JPEG, PNG and WebP only, told by their
//! first bytes (the extension must agree), 5 MB and 10,000 pixels a side (40 megapixels) at
//! most; anything else is refused
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
pub const MAX_BYTES: usize = crate::error::MAX_MEDIA_FILE;
/// The widest and tallest image accepted, in pixels: a small file may declare a huge
/// image (a 1.3 KB PNG of 20000×20000), which every shopper's browser would decode.
pub const MAX_SIDE: usize = 10_000;
/// The most pixels an image may have (40 megapixels; ~160 MB decoded).
pub const MAX_PIXELS: usize = 40_000_000;

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
        return Err(bad(
            "CONTENT__MEDIA_MISSING_FILE_EXTENSION",
            "Name the file's extension: ?extension=png (jpg, png or webp).",
        )
        .at("/extension"));
    };
    let Some(declared) = ImageType::of_extension(&extension) else {
        return Err(bad(
            "CONTENT__MEDIA_ILLEGAL_FILE_TYPE",
            format!("Files of type \"{extension}\" are not accepted: jpg, png or webp."),
        )
        .at("/extension"));
    };
    let file_name = query.file_name.unwrap_or_else(|| id.clone());
    if file_name.is_empty()
        || file_name.len() > 200
        || !file_name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(bad(
            "CONTENT__MEDIA_ILLEGAL_FILE_NAME",
            "A file name has 1 to 200 letters, digits, dots, dashes or underscores.",
        )
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
        return Err(bad(
            "CONTENT__MEDIA_EMPTY_FILE",
            "The request body is empty: send the file's bytes.",
        ));
    }
    let Some(actual) = ImageType::sniff(&bytes) else {
        return Err(bad(
            "CONTENT__MEDIA_ILLEGAL_FILE_TYPE",
            "The file is not a JPEG, PNG or WebP image.",
        ));
    };
    if actual != declared {
        return Err(bad(
            "CONTENT__MEDIA_FILE_TYPE_MISMATCH",
            format!(
                "The file is {} but the extension says \"{extension}\".",
                actual.mime_type()
            ),
        )
        .at("/extension"));
    }
    let dimensions = match imagesize::blob_size(&bytes) {
        Ok(size) if size.width > 0 && size.height > 0 => size,
        _ => {
            return Err(bad(
                "CONTENT__MEDIA_ILLEGAL_FILE_TYPE",
                "The image's header is damaged: its width and height cannot be read.",
            ))
        }
    };
    if dimensions.width > MAX_SIDE
        || dimensions.height > MAX_SIDE
        || dimensions.width.saturating_mul(dimensions.height) > MAX_PIXELS
    {
        return Err(bad(
            "SALESROOM__MEDIA_IMAGE_TOO_LARGE",
            format!(
                "The image is {}×{} pixels: at most {MAX_SIDE} pixels a side and {} megapixels are accepted.",
                dimensions.width,
                dimensions.height,
                MAX_PIXELS / 1_000_000
            ),
        ));
    }
    let dimensions = Some((dimensions.width as u32, dimensions.height as u32));
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
    fn sniffs_types() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        assert_eq!(ImageType::sniff(&png), Some(ImageType::Png));
        assert_eq!(
            ImageType::sniff(b"RIFF\0\0\0\0WEBPVP8 "),
            Some(ImageType::Webp)
        );
        assert_eq!(
            ImageType::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]),
            Some(ImageType::Jpeg)
        );
        assert_eq!(ImageType::sniff(b"<svg xmlns="), None);
        assert_eq!(ImageType::sniff(b"GIF89a"), None);
    }
}
