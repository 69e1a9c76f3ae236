//! Discounts a guide gives an attendee (the document's temporary cart and cart
//! discounts), on the attendee's cart in the embedded shop (`cart::discount`):
//!
//! - `GET  …/attendee/{id}/load-temp-cart`: the attendee's cart as it would be with the
//!   guide's draft discount (nothing changes in their cart);
//! - `POST …/attendee/{id}/add-temp-discount` (`discountType`, `discountValue`,
//!   `appliedItemIds`: product line items of the cart, none for the whole cart; a value
//!   of 0 drops the draft), `remove-temp-discount`, `apply-temp-discount` (the draft
//!   becomes the cart's discount, replacing an earlier one);
//! - `POST …/attendee/{id}/add-cart-discount` (`discountType`, `discountValue`): a
//!   discount on the whole cart at once (0 removes the cart's discount).
//!
//! Every one answers the `Cart`. Guides (any Admin API user) only, for a client
//! attendee still in the room who granted cart access (as `sw-context-token`). Limits: a
//! percentage is 0 to 100, an absolute amount 0 to `MAX_ABSOLUTE`, at most `MAX_ITEMS`
//! line items; the discount is taken from what is left of the goods, so no total goes
//! below zero. A change of the cart emits the shop event the hub hears of
//! (`attendeeCartChanged`, the guide's cart summary).

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use rusqlite::{params, OptionalExtension};
use serde_json::{Map, Value};

use super::attendee::{self, Attendee};
use crate::admin::AdminUser;
use crate::cart::calculate::{self, StoredItem};
use crate::cart::discount::{
    Discount, Kind, LINE_ITEM_ID, MAX_ABSOLUTE, MAX_ITEMS, TEMP_LINE_ITEM_ID,
};
use crate::error::{ApiError, ApiResult};
use crate::shop_event::ShopEvent;
use crate::state::App;
use crate::storage::{is_id, now_rfc3339};
use crate::store_api::RequestParams;

fn invalid(pointer: &str, detail: impl Into<String>) -> ApiError {
    ApiError::bad_request("DIGITAL_SALES_ROOMS__INVALID_DISCOUNT", detail).at(pointer)
}

/// The discount of a request body; `with_items` reads `appliedItemIds` (required).
/// `None`: a value of 0, which removes.
fn parse(body: &Map<String, Value>, with_items: bool) -> ApiResult<Option<Discount>> {
    let discount_type = match body.get("discountType").and_then(Value::as_str) {
        Some("percentage") => Kind::Percentage,
        Some("absolute") => Kind::Absolute,
        _ => {
            return Err(invalid(
                "/discountType",
                "The discount type must be \"percentage\" or \"absolute\".",
            ))
        }
    };
    let Some(value) = body.get("discountValue").and_then(Value::as_f64) else {
        return Err(invalid(
            "/discountValue",
            "The discount value must be a number.",
        ));
    };
    let max = if discount_type == Kind::Percentage {
        100.0
    } else {
        MAX_ABSOLUTE
    };
    if !(0.0..=max).contains(&value) {
        return Err(invalid(
            "/discountValue",
            format!("The discount value must be between 0 and {max}."),
        ));
    }
    let mut applied_item_ids = Vec::new();
    if with_items {
        let Some(ids) = body.get("appliedItemIds").and_then(Value::as_array) else {
            return Err(invalid(
                "/appliedItemIds",
                "The ids of the line items are missing (an empty list: the whole cart).",
            ));
        };
        if ids.len() > MAX_ITEMS {
            return Err(invalid(
                "/appliedItemIds",
                format!("A discount applies to at most {MAX_ITEMS} line items."),
            ));
        }
        for (index, id) in ids.iter().enumerate() {
            match id.as_str().map(str::to_lowercase) {
                Some(id) if is_id(&id) => {
                    if !applied_item_ids.contains(&id) {
                        applied_item_ids.push(id);
                    }
                }
                _ => {
                    return Err(invalid(
                        &format!("/appliedItemIds/{index}"),
                        "A line item id is 32 hexadecimal characters.",
                    ))
                }
            }
        }
    }
    Ok((value > 0.0).then_some(Discount {
        discount_type,
        discount_value: value,
        applied_item_ids,
    }))
}

/// The client attendee, after the permission check.
async fn attendee_with_access(app: &App, id: String) -> ApiResult<Attendee> {
    let attendee = attendee::load(app, id).await?;
    if attendee.kind != "CLIENT" {
        return Err(attendee::not_found());
    }
    attendee::require_cart_permission(app, &attendee).await?;
    Ok(attendee)
}

/// The attendee's cart, with the draft discount when `with_draft`.
async fn cart(
    app: &App,
    headers: &HeaderMap,
    attendee: &Attendee,
    with_draft: bool,
) -> ApiResult<Value> {
    let (token, id) = (attendee.context_token.clone(), attendee.id.clone());
    let (channel, draft): (Option<String>, Option<String>) = app
        .db
        .call(move |conn| {
            let channel = conn
                .query_row(
                    "SELECT sales_channel_id FROM store_context WHERE token = ?1",
                    [&token],
                    |r| r.get(0),
                )
                .optional()?;
            let draft = conn
                .query_row(
                    "SELECT definition FROM dsr_temp_discount WHERE attendee_id = ?1",
                    [&id],
                    |r| r.get(0),
                )
                .optional()?;
            Ok((channel, draft))
        })
        .await?;
    let channel = channel.ok_or_else(attendee::not_found)?;
    let ctx = super::cart::shop_context(
        app,
        headers,
        Some(channel),
        Some(attendee.context_token.clone()),
    )
    .await?;
    let extra: Vec<StoredItem> = draft
        .filter(|_| with_draft)
        .map(|definition| StoredItem {
            id: TEMP_LINE_ITEM_ID.into(),
            kind: "discount".into(),
            referenced_id: definition,
            quantity: 1,
        })
        .into_iter()
        .collect();
    let token = attendee.context_token.clone();
    Ok(app
        .db
        .call(move |conn| {
            Ok(calculate::calculate_with(
                conn,
                &ctx,
                &token,
                Vec::new(),
                extra,
            )?)
        })
        .await?)
}

/// The product line item ids of the attendee's cart that `discount` names and the cart
/// lacks: refused, by their place in the body.
async fn require_items_in_cart(
    app: &App,
    attendee: &Attendee,
    discount: &Discount,
) -> ApiResult<()> {
    let (token, wanted) = (
        attendee.context_token.clone(),
        discount.applied_item_ids.clone(),
    );
    let missing: Option<usize> = app
        .db
        .call(move |conn| {
            let mut statement =
                conn.prepare_cached("SELECT EXISTS(SELECT 1 FROM cart_line_item WHERE token = ?1 AND id = ?2 AND type = 'product')")?;
            for (index, id) in wanted.iter().enumerate() {
                if !statement.query_row(params![token, id], |r| r.get::<_, bool>(0))? {
                    return Ok(Some(index));
                }
            }
            Ok(None)
        })
        .await?;
    match missing {
        Some(index) => Err(ApiError::bad_request(
            "DIGITAL_SALES_ROOMS__DISCOUNT_ITEM_NOT_IN_CART",
            format!(
                "The line item {} is not a product in the attendee's cart.",
                discount.applied_item_ids[index]
            ),
        )
        .at(&format!("/appliedItemIds/{index}"))),
        None => Ok(()),
    }
}

/// Puts `discount` into the attendee's cart as its one guide's discount (`None`: takes
/// it out), and answers the recalculated cart; the change reaches the hub.
async fn set_cart_discount(
    app: &App,
    headers: &HeaderMap,
    attendee: &Attendee,
    discount: Option<Discount>,
) -> ApiResult<Value> {
    let token = attendee.context_token.clone();
    let attendee_id = attendee.id.clone();
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "DELETE FROM cart_line_item WHERE token = ?1 AND id = ?2",
                [&token, LINE_ITEM_ID],
            )?;
            if let Some(discount) = &discount {
                calculate::add_item(
                    &tx,
                    &token,
                    LINE_ITEM_ID,
                    "discount",
                    &discount.to_text(),
                    1,
                )?;
            }
            tx.execute(
                "DELETE FROM dsr_temp_discount WHERE attendee_id = ?1",
                [&attendee_id],
            )?;
            tx.commit()?;
            Ok(())
        })
        .await?;
    let cart = cart(app, headers, attendee, false).await?;
    app.events
        .emit(ShopEvent::cart_changed(&attendee.context_token, &cart))
        .await;
    Ok(cart)
}

/// `GET /api/_action/dsr/appointment/attendee/{id}/load-temp-cart`
pub async fn load_temp_cart(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let attendee = attendee_with_access(&app, id).await?;
    Ok(Json(cart(&app, &headers, &attendee, true).await?))
}

/// `POST /api/_action/dsr/appointment/attendee/{id}/add-temp-discount`
pub async fn add_temp_discount(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let discount = parse(&body, true)?;
    let attendee = attendee_with_access(&app, id).await?;
    if let Some(discount) = &discount {
        require_items_in_cart(&app, &attendee, discount).await?;
    }
    let attendee_id = attendee.id.clone();
    app.db
        .call(move |conn| {
            match discount {
                Some(discount) => conn.execute(
                    "INSERT INTO dsr_temp_discount (attendee_id, definition, created_at) VALUES (?1, ?2, ?3)
                     ON CONFLICT (attendee_id) DO UPDATE SET definition = excluded.definition, created_at = excluded.created_at",
                    params![attendee_id, discount.to_text(), now_rfc3339()],
                )?,
                None => conn.execute("DELETE FROM dsr_temp_discount WHERE attendee_id = ?1", [&attendee_id])?,
            };
            Ok(())
        })
        .await?;
    Ok(Json(cart(&app, &headers, &attendee, true).await?))
}

/// `POST /api/_action/dsr/appointment/attendee/{id}/remove-temp-discount`
pub async fn remove_temp_discount(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let attendee = attendee_with_access(&app, id).await?;
    let attendee_id = attendee.id.clone();
    app.db
        .call(move |conn| {
            Ok(conn.execute(
                "DELETE FROM dsr_temp_discount WHERE attendee_id = ?1",
                [attendee_id],
            )?)
        })
        .await?;
    Ok(Json(cart(&app, &headers, &attendee, true).await?))
}

/// `POST /api/_action/dsr/appointment/attendee/{id}/apply-temp-discount`: without a
/// draft, the cart as it is.
pub async fn apply_temp_discount(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let attendee = attendee_with_access(&app, id).await?;
    let attendee_id = attendee.id.clone();
    let draft: Option<String> = app
        .db
        .call(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT definition FROM dsr_temp_discount WHERE attendee_id = ?1",
                    [attendee_id],
                    |r| r.get(0),
                )
                .optional()?)
        })
        .await?;
    match draft.as_deref().and_then(Discount::parse) {
        Some(discount) => Ok(Json(
            set_cart_discount(&app, &headers, &attendee, Some(discount)).await?,
        )),
        None => Ok(Json(cart(&app, &headers, &attendee, false).await?)),
    }
}

/// `POST /api/_action/dsr/appointment/attendee/{id}/add-cart-discount`
pub async fn add_cart_discount(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let discount = parse(&body, false)?;
    let attendee = attendee_with_access(&app, id).await?;
    Ok(Json(
        set_cart_discount(&app, &headers, &attendee, discount).await?,
    ))
}
