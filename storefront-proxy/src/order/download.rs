//! `GET /store-api/order/download/{orderId}/{downloadId}`: a file of a digital product
//! the customer bought, once the order is paid.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use rusqlite::OptionalExtension;

use crate::account::logged_in::LoggedIn;
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::is_id;

fn file_not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "CHECKOUT__DOWNLOAD_FILE_NOT_FOUND",
        format!("Line item download file with id \"{id}\" not found."),
    )
}

pub async fn download(
    user: LoggedIn,
    State(app): State<App>,
    Path((order_id, download_id)): Path<(String, String)>,
) -> ApiResult<Response> {
    let (order_id, download_id) = (order_id.to_lowercase(), download_id.to_lowercase());
    if !is_id(&order_id) || !is_id(&download_id) {
        return Err(file_not_found(&download_id));
    }
    let wanted = download_id.clone();
    let file: Option<(String, String, String, Vec<u8>)> = app
        .db
        .call(move |conn| {
            // Only the order's customer, only while the order's last transaction is paid
            // and the order is not cancelled.
            Ok(conn
                .query_row(
                    "SELECT d.file_name, d.file_extension, d.mime_type, d.content
                     FROM order_line_item_download d
                     JOIN order_line_item i ON i.id = d.order_line_item_id
                     JOIN shop_order o ON o.id = i.order_id
                     WHERE d.id = ?1 AND o.id = ?2 AND o.customer_id = ?3 AND o.state <> 'cancelled'
                       AND (SELECT state FROM order_transaction WHERE order_id = o.id ORDER BY rowid DESC LIMIT 1) = 'paid'",
                    [&wanted, &order_id, &user.customer_id],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .optional()?)
        })
        .await?;
    let (name, extension, mime, content) = file.ok_or_else(|| file_not_found(&download_id))?;
    Ok((
        [
            (header::CONTENT_TYPE, mime),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}.{extension}\""),
            ),
        ],
        content,
    )
        .into_response())
}
