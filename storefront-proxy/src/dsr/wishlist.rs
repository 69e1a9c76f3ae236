//! `POST /store-api/dsr/customer/wishlist-product-ids`: the ids of the products on the
//! session's customer wishlist, newest first, for the room to mark them without loading
//! the products. A session without a customer account (a guest attendee) has none.

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

use crate::error::ApiResult;
use crate::state::App;
use crate::store_api::ShopContext;

/// At most this many ids are answered (a wishlist is not a catalogue).
pub const MAX_IDS: usize = 500;

pub async fn product_ids(ctx: ShopContext, State(app): State<App>) -> ApiResult<Json<Value>> {
    let Some(token) = ctx.token.clone() else {
        return Ok(Json(answer(Vec::new())));
    };
    let channel = ctx.sales_channel.id.clone();
    let ids: Vec<String> = app
        .db
        .call(move |conn| {
            let mut statement = conn.prepare_cached(
                "SELECT wp.product_id FROM store_context s
                 JOIN customer c ON c.id = s.customer_id AND c.active = 1 AND c.guest = 0
                 JOIN customer_wishlist w ON w.customer_id = c.id AND w.sales_channel_id = s.sales_channel_id
                 JOIN customer_wishlist_product wp ON wp.wishlist_id = w.id
                 WHERE s.token = ?1 AND s.sales_channel_id = ?2
                 ORDER BY wp.created_at DESC, wp.rowid DESC LIMIT ?3",
            )?;
            let ids = statement.query_map(rusqlite::params![token, channel, MAX_IDS as i64], |r| r.get(0))?.collect::<Result<_, _>>()?;
            Ok(ids)
        })
        .await?;
    Ok(Json(answer(ids)))
}

fn answer(ids: Vec<String>) -> Value {
    json!({ "apiAlias": "array_struct", "wishlistProductIds": ids })
}
