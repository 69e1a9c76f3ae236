//! Products in the room: `POST /store-api/dsr/product-listing` (page size 36, picked or
//! given products, variants after their main product, the attendee's likes, all ids of
//! the listing), `GET /store-api/dsr/quickview/{productId}[/{cmsPageLayoutId}]` and
//! `GET /store-api/dsr/product/{productId}`. Product loading and criteria are the
//! catalogue's.

use std::collections::HashSet;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Map, Value};

use super::attendee;
use crate::catalog::criteria::{self, Criteria, Sql};
use crate::catalog::query::{self, Selection};
use crate::catalog::{detail, invalid_id, load_of, product};
use crate::cms::page::{self, Resolve};
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::{is_id, json_ids};
use crate::store_api::ShopContext;
use crate::store_api::{search_result, RequestParams};

/// Products per page of a presentation listing (spec section 9).
pub const PAGE_SIZE: i64 = 36;

/// How a listing of the room is built besides its criteria.
#[derive(Debug, Default)]
pub struct RoomListing {
    /// Only these products, in this order unless the criteria sort.
    pub ids: Option<Vec<String>>,
    /// Each main product is followed by its variants.
    pub load_variants: bool,
    /// Adds `extensions.interaction` (liked, disliked) of this attendee to each product.
    pub interaction_of: Option<String>,
    /// Leaves out `extensions.allIds` (`loadAllIds: false`).
    pub skip_all_ids: bool,
}

/// Parses the criteria of a room listing, with the room's page size.
pub fn room_criteria(params: &Map<String, Value>) -> Result<Criteria, ApiError> {
    let mut criteria = criteria::parse(params, "product", &query::product_field)?;
    criteria.limit.get_or_insert(PAGE_SIZE);
    Ok(criteria)
}

/// Runs a room listing: a `ProductListingResult`-shaped page plus the ids of every
/// product of the listing (`extensions.allIds.data`).
pub fn run(
    conn: &Connection,
    ctx: &ShopContext,
    criteria: &mut Criteria,
    room: &RoomListing,
) -> rusqlite::Result<Value> {
    if let Some(ids) = &room.ids {
        criteria.ids = Some(match criteria.ids.take() {
            Some(asked) => ids
                .iter()
                .filter(|id| asked.contains(id))
                .cloned()
                .collect(),
            None => ids.clone(),
        });
    }
    // The picked order, unless the criteria sort.
    let order = match (&room.ids, criteria.order.text.is_empty()) {
        (Some(ids), true) => {
            let mut order = Sql::default();
            order
                .push("(SELECT CAST(key AS INTEGER) FROM json_each(")
                .bind(json_ids(ids))
                .push(") WHERE value = p.id)");
            Some(order)
        }
        _ => None,
    };
    let selection = Selection {
        main_only: true,
        order,
        ..Default::default()
    };
    let (ids, total) = query::select(conn, &ctx.languages, &selection, criteria, true)?;
    let all_ids = if room.skip_all_ids {
        Vec::new()
    } else {
        all_ids(conn, ctx, criteria, &selection)?
    };
    let page_ids = if room.load_variants {
        with_variants(conn, ids)?
    } else {
        ids
    };
    let mut elements = product::load(conn, ctx, &page_ids, load_of(criteria))?;
    if let Some(attendee_id) = &room.interaction_of {
        add_interactions(conn, attendee_id, &mut elements)?;
    }
    let mut body = search_result("product", elements, total, criteria.page, criteria.limit);
    // The room's listings filter by their products only; the filter state says so.
    let navigation_id: Option<String> = conn
        .query_row(
            "SELECT navigation_category_id FROM sales_channel WHERE id = ?1",
            [&ctx.sales_channel.id],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    body["currentFilters"] = json!({
        "navigationId": navigation_id.unwrap_or_default(),
        "manufacturer": [],
        "price": { "min": 0, "max": 0 },
        "rating": null,
        "shipping-free": false,
        "properties": [],
    });
    body["availableSortings"] = json!([]);
    body["apiAlias"] = json!("product_listing");
    body["extensions"] = if room.skip_all_ids {
        json!({})
    } else {
        json!({ "allIds": { "data": all_ids, "apiAlias": "array_struct" } })
    };
    criteria::apply_includes(&mut body, &criteria.includes);
    Ok(body)
}

/// The ids of every product of the listing (every page), in its order.
fn all_ids(
    conn: &Connection,
    ctx: &ShopContext,
    criteria: &Criteria,
    selection: &Selection,
) -> rusqlite::Result<Vec<String>> {
    let all = Criteria {
        ids: criteria.ids.clone(),
        condition: criteria.condition.clone(),
        order: criteria.order.clone(),
        term: criteria.term.clone(),
        page: 1,
        ..Criteria::default()
    };
    let all_selection = Selection {
        main_only: true,
        order: selection.order.clone(),
        ..Default::default()
    };
    Ok(query::select(conn, &ctx.languages, &all_selection, &all, false)?.0)
}

/// Each product of `ids` followed by its active variants.
fn with_variants(conn: &Connection, ids: Vec<String>) -> rusqlite::Result<Vec<String>> {
    let mut statement = conn.prepare_cached(
        "SELECT id FROM product WHERE parent_id = ?1 AND active = 1 ORDER BY product_number",
    )?;
    let mut page_ids = Vec::new();
    for id in ids {
        let variants = statement
            .query_map([&id], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        page_ids.push(id);
        page_ids.extend(variants);
    }
    Ok(page_ids)
}

/// `extensions.interaction` of each product: whether the attendee liked or disliked it.
fn add_interactions(
    conn: &Connection,
    attendee_id: &str,
    products: &mut [Value],
) -> rusqlite::Result<()> {
    let mut statement = conn.prepare_cached(
        "SELECT alias, product_id FROM attendee_product_collection WHERE attendee_id = ?1 AND alias IN ('liked', 'disliked')",
    )?;
    let mut liked = HashSet::new();
    let mut disliked = HashSet::new();
    for row in statement.query_map([attendee_id], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })? {
        let (alias, id) = row?;
        if alias == "liked" {
            liked.insert(id)
        } else {
            disliked.insert(id)
        };
    }
    for product in products {
        let id = product["id"].as_str().unwrap_or_default().to_owned();
        if !product["extensions"].is_object() {
            product["extensions"] = json!({});
        }
        product["extensions"]["interaction"] = json!({ "liked": liked.contains(&id), "disliked": disliked.contains(&id), "apiAlias": "dsr_product_interaction" });
    }
    Ok(())
}

fn flag(params: &Map<String, Value>, key: &str) -> Result<bool, ApiError> {
    match params.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(value) => criteria::boolean(value).ok_or_else(|| {
            ApiError::bad_request(
                "FRAMEWORK__INVALID_REQUEST_PARAMETER",
                format!("{key} must be a boolean."),
            )
            .at(&format!("/{key}"))
        }),
    }
}

fn optional_id(params: &Map<String, Value>, key: &str) -> Result<Option<String>, ApiError> {
    match params.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) if is_id(&s.to_lowercase()) => Ok(Some(s.to_lowercase())),
        Some(value) => Err(invalid_id(&value.to_string(), &format!("/{key}"))),
    }
}

/// The picked products of a presentation page the attendee's appointment shows.
pub fn picked_products(
    conn: &Connection,
    appointment_id: &str,
    page_id: &str,
) -> rusqlite::Result<Option<Vec<String>>> {
    let picked: Option<String> = conn
        .query_row(
            "SELECT pp.picked_product_ids FROM presentation_page pp JOIN appointment a ON a.presentation_id = pp.presentation_id
             WHERE a.id = ?1 AND pp.id = ?2 AND (pp.appointment_id IS NULL OR pp.appointment_id = ?1)",
            params![appointment_id, page_id],
            |r| r.get(0),
        )
        .optional()?;
    Ok(picked.map(|p| serde_json::from_str(&p).unwrap_or_default()))
}

fn page_not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "DIGITAL_SALES_ROOMS__PRESENTATION_PAGE_NOT_FOUND",
        format!("The presentation page {id} was not found."),
    )
}

/// `POST /store-api/dsr/product-listing`
pub async fn product_listing(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let attendee = attendee::of_context(&app, ctx.token.clone()).await?;
    let mut criteria = room_criteria(&params)?;
    let product_ids = match params.get("productIds") {
        None | Some(Value::Null) => None,
        Some(value) => Some(id_list(value, "/productIds")?),
    };
    let page_group = optional_id(&params, "currentPageGroupId")?;
    let sync = optional_id(&params, "appointmentIdToSync")?;
    if sync
        .as_ref()
        .is_some_and(|id| *id != attendee.appointment_id)
    {
        return Err(other_appointment());
    }
    let room = RoomListing {
        ids: None,
        load_variants: flag(&params, "loadVariants")?,
        interaction_of: flag(&params, "interaction")?.then(|| attendee.id.clone()),
        // All ids come unless the request says `loadAllIds: false`.
        skip_all_ids: params.get("loadAllIds").is_some_and(|v| !v.is_null())
            && !flag(&params, "loadAllIds")?,
    };
    let appointment_id = attendee.appointment_id.clone();
    let body = app
        .db
        .call(move |conn| {
            let ids = match (product_ids, page_group) {
                (Some(ids), _) => Some(ids),
                (None, Some(page)) => match picked_products(conn, &appointment_id, &page)? {
                    Some(picked) => Some(picked),
                    None => return Ok(Err(page_not_found(&page))),
                },
                (None, None) => None,
            };
            Ok(Ok(run(
                conn,
                &ctx,
                &mut criteria,
                &RoomListing { ids, ..room },
            )?))
        })
        .await??;
    Ok(Json(body))
}

pub fn other_appointment() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "DIGITAL_SALES_ROOMS__APPOINTMENT_MISMATCH",
        "The attendee does not belong to this appointment.",
    )
}

/// A list of product ids (array, or `a|b`), each validated.
pub fn id_list(value: &Value, pointer: &str) -> Result<Vec<String>, ApiError> {
    let items: Vec<Value> = match value {
        Value::Array(items) => items.clone(),
        Value::String(s) => s
            .split('|')
            .filter(|s| !s.is_empty())
            .map(|s| Value::from(s.to_owned()))
            .collect(),
        _ => {
            return Err(ApiError::bad_request(
                "FRAMEWORK__INVALID_REQUEST_PARAMETER",
                "Expected a list of ids.",
            )
            .at(pointer))
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(i, v)| match v.as_str().map(str::to_lowercase) {
            Some(id) if is_id(&id) => Ok(id),
            _ => Err(invalid_id(&v.to_string(), &format!("{pointer}/{i}"))),
        })
        .collect()
}

/// Fills the product slots of a page (buy box, name, description, gallery, box) with
/// the product shown.
pub fn fill_product_slots(page: &mut Value, product: &Value, configurator: &Value) {
    let Some(sections) = page["sections"].as_array_mut() else {
        return;
    };
    for section in sections {
        let Some(blocks) = section["blocks"].as_array_mut() else {
            continue;
        };
        for block in blocks {
            let Some(slots) = block["slots"].as_array_mut() else {
                continue;
            };
            for slot in slots {
                let data = match slot["type"].as_str().unwrap_or_default() {
                    "buy-box" => {
                        json!({ "productId": product["id"], "product": product, "configuratorSettings": configurator, "apiAlias": "cms_buy_box" })
                    }
                    "product-name" => {
                        json!({ "content": product["translated"]["name"], "apiAlias": "cms_text" })
                    }
                    "product-description-reviews" => {
                        json!({ "productId": product["id"], "product": product, "ratingSuccess": false, "reviews": null, "apiAlias": "cms_product_description_reviews" })
                    }
                    "product-box" if slot["data"]["product"].is_null() => {
                        json!({ "productId": product["id"], "product": product, "apiAlias": "cms_product_box" })
                    }
                    "image-gallery"
                        if slot["data"]["sliderItems"]
                            .as_array()
                            .is_none_or(|items| items.is_empty()) =>
                    {
                        let items: Vec<Value> = product["media"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .map(|m| json!({ "media": m["media"], "url": null, "newTab": false, "apiAlias": "cms_image_slider_item" }))
                            .collect();
                        json!({ "sliderItems": items, "apiAlias": "cms_image_slider" })
                    }
                    _ => continue,
                };
                slot["data"] = data;
            }
        }
    }
}

/// The configurator in the reference's `PropertyGroup` shape: each option names its
/// `group` and its `option` (name); unset optional fields are left out.
pub fn reference_configurator(configurator: &mut Value) {
    for group in configurator.as_array_mut().into_iter().flatten() {
        let Some(fields) = group.as_object_mut() else {
            continue;
        };
        fields.retain(|_, v| !v.is_null());
        let mut bare = fields.clone();
        bare.remove("options");
        for option in fields
            .get_mut("options")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            let Some(option) = option.as_object_mut() else {
                continue;
            };
            option.retain(|_, v| !v.is_null());
            let name = option
                .get("translated")
                .and_then(|t| t.get("name"))
                .or_else(|| option.get("name"))
                .cloned()
                .unwrap_or(Value::Null);
            option.insert("option".into(), name);
            option.insert("group".into(), Value::Object(bare.clone()));
        }
    }
}

/// The product (a variant for a parent) and its configurator, as the catalogue's
/// product detail answers them.
async fn product_detail(ctx: &ShopContext, app: &App, id: &str) -> ApiResult<Value> {
    let Json(mut detail) = detail::detail(
        ctx.clone(),
        State(app.clone()),
        Path(id.to_owned()),
        RequestParams(Map::new()),
    )
    .await?;
    reference_configurator(&mut detail["configurator"]);
    Ok(detail)
}

async fn cms_page(
    ctx: &ShopContext,
    app: &App,
    page_id: Option<String>,
) -> ApiResult<Option<Value>> {
    let Some(page_id) = page_id else {
        return Ok(None);
    };
    let ctx = ctx.clone();
    app.db
        .call(move |conn| {
            Ok(page::load(
                conn,
                &ctx,
                &page_id,
                &Resolve {
                    category_id: None,
                    listing: None,
                },
            ))
        })
        .await?
}

fn checked_id(id: &str, pointer: &str) -> ApiResult<String> {
    let id = id.to_lowercase();
    if is_id(&id) {
        Ok(id)
    } else {
        Err(invalid_id(&id, pointer))
    }
}

async fn product_page(
    ctx: ShopContext,
    app: App,
    product_id: &str,
    layout: Option<String>,
    alias: &str,
) -> ApiResult<Json<Value>> {
    let detail = product_detail(&ctx, &app, product_id).await?;
    let (product, configurator) = (detail["product"].clone(), detail["configurator"].clone());
    let layout = match layout {
        Some(layout) => {
            let page = cms_page(&ctx, &app, Some(layout.clone())).await?;
            Some(page.ok_or_else(|| {
                ApiError::not_found(
                    "CONTENT__CMS_PAGE_NOT_FOUND",
                    format!("Page with id \"{layout}\" was not found."),
                )
            })?)
        }
        None => cms_page(&ctx, &app, product["cmsPageId"].as_str().map(str::to_owned)).await?,
    };
    let cms_page = layout.map(|mut page| {
        fill_product_slots(&mut page, &product, &configurator);
        page
    });
    // `ProductPageResult` has a null configurator for a product without variants.
    let configurator = if configurator
        .as_array()
        .is_some_and(|groups| groups.is_empty())
    {
        Value::Null
    } else {
        configurator
    };
    Ok(Json(
        json!({ "cmsPage": cms_page, "product": product, "configurator": configurator, "apiAlias": alias }),
    ))
}

/// `GET /store-api/dsr/quickview/{productId}/{cmsPageLayoutId}`
pub async fn quickview(
    ctx: ShopContext,
    State(app): State<App>,
    Path((product_id, layout)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    attendee::of_context(&app, ctx.token.clone()).await?;
    let product_id = checked_id(&product_id, "/productId")?;
    let layout = checked_id(&layout, "/cmsPageLayoutId")?;
    product_page(ctx, app, &product_id, Some(layout), "dsr_quickview").await
}

/// `GET /store-api/dsr/quickview/{productId}`: with the appointment's quick view layout,
/// else the product's own.
pub async fn quickview_default(
    ctx: ShopContext,
    State(app): State<App>,
    Path(product_id): Path<String>,
) -> ApiResult<Json<Value>> {
    attendee::of_context(&app, ctx.token.clone()).await?;
    let product_id = checked_id(&product_id, "/productId")?;
    product_page(ctx, app, &product_id, None, "dsr_quickview").await
}

/// `GET /store-api/dsr/product/{productId}`: `ProductPageResult`.
pub async fn product(
    ctx: ShopContext,
    State(app): State<App>,
    Path(product_id): Path<String>,
) -> ApiResult<Json<Value>> {
    attendee::of_context(&app, ctx.token.clone()).await?;
    let product_id = checked_id(&product_id, "/productId")?;
    product_page(ctx, app, &product_id, None, "product_page_result").await
}

/// Whether a product exists and is active.
pub fn product_exists(conn: &Connection, id: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS(SELECT 1 FROM product WHERE id = ?1 AND active = 1)",
        [id],
        |r| r.get(0),
    )
}
