//! Media: files stored in the database and served under `/media/{path}`, the `Media`
//! entity of the store API, and the demo's generated images.

pub mod entity;
pub mod svg;

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use rusqlite::OptionalExtension;

use crate::error::{ApiError, ApiResult};
use crate::state::App;

/// Routes outside `/store-api`: media files are public, like Shopware's `public/media`.
pub fn routes() -> Router<App> {
    Router::new().route("/media/{*path}", get(serve))
}

/// `GET /media/{path}`: the file with its content type; immutable, since a path is
/// never reused for other content.
async fn serve(State(app): State<App>, Path(path): Path<String>) -> ApiResult<Response> {
    let file_path = format!("media/{path}");
    let found: Option<(String, Vec<u8>)> = app
        .db
        .read(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT m.mime_type, b.content FROM media m JOIN media_blob b ON b.media_id = m.id WHERE m.path = ?1",
                    [&file_path],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?)
        })
        .await?;
    let Some((mime_type, content)) = found else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "CONTENT__MEDIA_NOT_FOUND",
            "The media file could not be found.",
        ));
    };
    let content_type = HeaderValue::from_str(&mime_type)
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    Ok((
        [
            (header::CONTENT_TYPE, content_type),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=31536000, immutable"),
            ),
        ],
        content,
    )
        .into_response())
}
