//! One slide of the presentation, resolved:
//! `GET /store-api/dsr/appointment/presentation/{pageId}/slide/{sectionId}` (the CMS
//! section with its blocks and slots, the product of a product detail slide, the
//! picked products of a listing slide) and `POST …/slide/{sectionId}/products` (the
//! slide's products by criteria). `pageId` is the presentation page (`groupId` of the
//! navigation); its CMS page id is taken too.

use axum::extract::{Path, State};
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};

use super::attendee;
use super::listing::{self, fill_product_slots, RoomListing};
use crate::admin::AdminUser;
use crate::catalog::{detail, invalid_id};
use crate::cms::page::{self, Resolve};
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::is_id;
use crate::store_api::RequestParams;
use crate::store_api::ShopContext;

/// A presentation page of the attendee's appointment.
#[derive(Debug, Clone)]
pub struct PresentationPage {
    pub id: String,
    pub presentation_id: String,
    pub cms_page_id: String,
    pub cms_page_type: String,
    pub title: Option<String>,
    pub position: i64,
    pub is_instant_listing: bool,
    pub picked_product_ids: Vec<String>,
    pub product_id: Option<String>,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
}

impl PresentationPage {
    /// The page `id` (or the page showing CMS page `id`) of the appointment's presentation.
    pub fn find(
        conn: &Connection,
        appointment_id: &str,
        id: &str,
    ) -> rusqlite::Result<Option<PresentationPage>> {
        conn.query_row(
            "SELECT pp.id, pp.presentation_id, pp.cms_page_id, c.type, pp.title, pp.position, pp.is_instant_listing,
                    pp.picked_product_ids, pp.product_id, pp.created_at, pp.updated_at
             FROM presentation_page pp
             JOIN appointment a ON a.presentation_id = pp.presentation_id
             JOIN cms_page c ON c.id = pp.cms_page_id
             WHERE a.id = ?1 AND (pp.appointment_id IS NULL OR pp.appointment_id = ?1) AND (pp.id = ?2 OR pp.cms_page_id = ?2)
             ORDER BY pp.id = ?2 DESC, pp.position LIMIT 1",
            params![appointment_id, id],
            Self::from_row,
        )
        .optional()
    }

    /// The pages a presentation shows to every appointment (no instant listings), in order.
    pub fn of_presentation(
        conn: &Connection,
        presentation_id: &str,
    ) -> rusqlite::Result<Vec<PresentationPage>> {
        let mut statement = conn.prepare(
            "SELECT pp.id, pp.presentation_id, pp.cms_page_id, c.type, pp.title, pp.position, pp.is_instant_listing,
                    pp.picked_product_ids, pp.product_id, pp.created_at, pp.updated_at
             FROM presentation_page pp JOIN cms_page c ON c.id = pp.cms_page_id
             WHERE pp.presentation_id = ?1 AND pp.appointment_id IS NULL
             ORDER BY pp.position, pp.id",
        )?;
        let pages = statement.query_map([presentation_id], Self::from_row)?;
        pages.collect()
    }

    fn from_row(r: &rusqlite::Row) -> rusqlite::Result<PresentationPage> {
        {
            let picked: String = r.get(7)?;
            Ok(PresentationPage {
                id: r.get(0)?,
                presentation_id: r.get(1)?,
                cms_page_id: r.get(2)?,
                cms_page_type: r.get(3)?,
                title: r.get(4)?,
                position: r.get(5)?,
                is_instant_listing: r.get(6)?,
                picked_product_ids: serde_json::from_str(&picked).unwrap_or_default(),
                product_id: r.get(8)?,
                created_at: r.get(9)?,
                updated_at: r.get(10)?,
            })
        }
    }

    /// `PresentationCmsPage` (without the CMS page); unset ids and times are left out,
    /// as the reference types them as strings.
    pub fn to_json(&self) -> Value {
        let mut page = json!({
            "id": self.id,
            "presentationId": self.presentation_id,
            "cmsPageId": self.cms_page_id,
            "title": self.title,
            "translated": { "title": self.title },
            "productId": self.product_id,
            "productStreamId": null,
            "pickedProductIds": self.picked_product_ids,
            "position": self.position,
            "isInstantListing": self.is_instant_listing,
            "createdAt": self.created_at,
            "updatedAt": self.updated_at,
            "apiAlias": "dsr_presentation_cms_page",
        });
        if let Some(fields) = page.as_object_mut() {
            fields.retain(|key, value| {
                !(value.is_null()
                    && [
                        "productId",
                        "productStreamId",
                        "createdAt",
                        "updatedAt",
                        "title",
                    ]
                    .contains(&key.as_str()))
            });
        }
        page
    }

    fn is_product_detail(&self) -> bool {
        self.cms_page_type == "presentation_product_detail" || self.product_id.is_some()
    }

    fn is_listing(&self) -> bool {
        self.is_instant_listing || self.cms_page_type == "presentation_product_list"
    }
}

pub fn slide_not_found(page_id: &str, section_id: &str) -> ApiError {
    ApiError::not_found(
        "DIGITAL_SALES_ROOMS__SLIDE_NOT_FOUND",
        format!("The slide {section_id} of page {page_id} was not found."),
    )
}

fn missing_product() -> ApiError {
    ApiError::not_found(
        "DIGITAL_SALES_ROOMS__PRESENTATION_CMS_PAGE_MISSING_PRODUCT_EXCEPTION",
        "The product of this product detail slide does not exist.",
    )
}

fn missing_products() -> ApiError {
    ApiError::not_found(
        "DIGITAL_SALES_ROOMS__PRESENTATION_CMS_PAGE_MISSING_PRODUCTS_EXCEPTION",
        "None of the products of this listing slide exist.",
    )
}

fn checked(page_id: &str, section_id: &str) -> ApiResult<(String, String)> {
    let (page_id, section_id) = (page_id.to_lowercase(), section_id.to_lowercase());
    if !is_id(&page_id) {
        return Err(invalid_id(&page_id, "/presentationCmsPageId"));
    }
    if !is_id(&section_id) {
        return Err(invalid_id(&section_id, "/sectionId"));
    }
    Ok((page_id, section_id))
}

/// The page and whether the section is one of its slides.
fn page_with_section(
    conn: &Connection,
    appointment_id: &str,
    page_id: &str,
    section_id: &str,
) -> rusqlite::Result<Option<PresentationPage>> {
    let Some(page) = PresentationPage::find(conn, appointment_id, page_id)? else {
        return Ok(None);
    };
    let in_page: bool = conn.query_row(
        "SELECT EXISTS(SELECT 1 FROM cms_section WHERE id = ?1 AND cms_page_id = ?2)",
        params![section_id, page.cms_page_id],
        |r| r.get(0),
    )?;
    Ok(in_page.then_some(page))
}

/// `GET /store-api/dsr/appointment/presentation/{pageId}/slide/{sectionId}`: `PresentationSlideData`.
pub async fn slide(
    ctx: ShopContext,
    State(app): State<App>,
    Path((page_id, section_id)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let attendee = attendee::of_context(&app, ctx.token.clone()).await?;
    let (page_id, section_id) = checked(&page_id, &section_id)?;
    let appointment_id = attendee.appointment_id.clone();
    let (pid, sid) = (page_id.clone(), section_id.clone());
    let found = resolve(&app, &ctx, section_id.clone(), move |conn| {
        page_with_section(conn, &appointment_id, &pid, &sid)
    })
    .await?;
    found
        .map(Json)
        .ok_or_else(|| slide_not_found(&page_id, &section_id))
}

/// One slide as an attendee sees it: section `section_id` of the page `find` answers
/// (`None` when there is no such page or layout).
async fn resolve(
    app: &App,
    ctx: &ShopContext,
    section_id: String,
    find: impl FnOnce(&Connection) -> rusqlite::Result<Option<PresentationPage>> + Send + 'static,
) -> ApiResult<Option<Value>> {
    let c = ctx.clone();
    let found = app
        .db
        .call(move |conn| {
            let Some(page) = find(conn)? else {
                return Ok(Ok(None));
            };
            let cms = match page::load(
                conn,
                &c,
                &page.cms_page_id,
                &Resolve {
                    category_id: None,
                    listing: None,
                },
            ) {
                Ok(Some(cms)) => cms,
                Ok(None) => return Ok(Ok(None)),
                Err(error) => return Ok(Err(error)),
            };
            let listing = match picked_listing(conn, &c, &page)? {
                Ok(listing) => listing,
                Err(missing) => return Ok(Err(missing)),
            };
            Ok(Ok(Some((page, cms, listing))))
        })
        .await??;
    let Some((page, mut cms, listing)) = found else {
        return Ok(None);
    };
    // Only the requested slide of the page.
    if let Some(sections) = cms["sections"].as_array_mut() {
        sections.retain(|s| s["id"] == json!(section_id));
    }
    if let Some(listing) = &listing {
        for_slots(&mut cms, |slot| {
            if slot["type"] == "product-listing" {
                slot["data"] = json!({ "listing": listing, "apiAlias": "cms_product_listing" });
            }
        });
    }
    let (mut product, mut configurator) = (Value::Null, Value::Null);
    if page.is_product_detail() {
        (product, configurator) = product_detail(app, ctx, &page).await?;
        fill_product_slots(&mut cms, &product, &configurator);
    }
    let mut body = json!({
        "cmsPage": cms,
        "extensions": { "cmsPageRelation": page.to_json() },
        "category": null,
        "apiAlias": "dsr_presentation_slide_data",
    });
    if !product.is_null() {
        body["product"] = product;
        body["configurator"] = configurator;
    }
    Ok(Some(body))
}

/// A listing slide shows its picked products (those that still exist; none is an
/// error); `None` for other slides.
fn picked_listing(
    conn: &Connection,
    ctx: &ShopContext,
    page: &PresentationPage,
) -> rusqlite::Result<ApiResult<Option<Value>>> {
    if !page.is_listing() {
        return Ok(Ok(None));
    }
    let existing: Vec<String> = page
        .picked_product_ids
        .iter()
        .filter(|id| listing::product_exists(conn, id).unwrap_or(false))
        .cloned()
        .collect();
    if existing.is_empty() {
        return Ok(Err(missing_products()));
    }
    let mut criteria = crate::catalog::criteria::Criteria {
        limit: Some(listing::PAGE_SIZE),
        page: 1,
        ..Default::default()
    };
    let listing = listing::run(
        conn,
        ctx,
        &mut criteria,
        &RoomListing {
            ids: Some(existing),
            ..Default::default()
        },
    )?;
    Ok(Ok(Some(listing)))
}

/// The product of a product slide and its configurator, as the product page has them.
async fn product_detail(
    app: &App,
    ctx: &ShopContext,
    page: &PresentationPage,
) -> ApiResult<(Value, Value)> {
    let product_id = page.product_id.clone().ok_or_else(missing_product)?;
    match detail::detail(
        ctx.clone(),
        State(app.clone()),
        Path(product_id),
        RequestParams(Default::default()),
    )
    .await
    {
        Ok(Json(detail)) => {
            let mut configurator = detail["configurator"].clone();
            listing::reference_configurator(&mut configurator);
            Ok((detail["product"].clone(), configurator))
        }
        Err(ApiError::Client { status, .. }) if status == axum::http::StatusCode::NOT_FOUND => {
            Err(missing_product())
        }
        Err(error) => Err(error),
    }
}

/// Most slides one preview answers (a presentation's pages times their sections).
pub const MAX_PREVIEW_SLIDES: usize = 200;

/// `GET /store-api/dsr/presentation/{presentationId}/preview` (an admin or guide bearer
/// besides the access key): every slide of a presentation as an attendee sees it, in
/// the request's language (`sw-language-id`), without an appointment or a live room.
/// A slide that cannot show (its product is gone) carries its error instead of data.
pub async fn preview(
    _: AdminUser,
    ctx: ShopContext,
    State(app): State<App>,
    Path(presentation_id): Path<String>,
) -> ApiResult<Json<Value>> {
    let presentation_id = presentation_id.to_lowercase();
    if !is_id(&presentation_id) {
        return Err(invalid_id(&presentation_id, "/presentationId"));
    }
    let id = presentation_id.clone();
    let slides = app
        .db
        .call(move |conn| {
            let exists: bool = conn.query_row(
                "SELECT EXISTS(SELECT 1 FROM presentation WHERE id = ?1)",
                [&id],
                |r| r.get(0),
            )?;
            if !exists {
                return Ok(None);
            }
            let mut slides = Vec::new();
            for page in PresentationPage::of_presentation(conn, &id)? {
                let mut sections = conn.prepare_cached(
                    "SELECT id FROM cms_section WHERE cms_page_id = ?1 ORDER BY position, id",
                )?;
                let ids = sections
                    .query_map([&page.cms_page_id], |r| r.get::<_, String>(0))?
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                slides.extend(ids.into_iter().map(|section_id| (page.clone(), section_id)));
            }
            Ok(Some(slides))
        })
        .await?
        .ok_or_else(|| {
            ApiError::not_found(
                "DIGITAL_SALES_ROOMS__PRESENTATION_NOT_FOUND",
                "The presentation could not be found.",
            )
        })?;
    if slides.len() > MAX_PREVIEW_SLIDES {
        return Err(ApiError::bad_request(
            "SALESROOM__TOO_MANY_SLIDES",
            format!(
                "The preview shows at most {MAX_PREVIEW_SLIDES} slides; this presentation has {}.",
                slides.len()
            ),
        ));
    }
    let mut answered = Vec::with_capacity(slides.len());
    for (page, section_id) in slides {
        let (page_id, title) = (page.id.clone(), page.title.clone());
        let resolved = resolve(&app, &ctx, section_id.clone(), move |_| Ok(Some(page))).await;
        let mut slide = json!({ "pageId": page_id, "sectionId": section_id, "title": title });
        match resolved {
            Ok(Some(data)) => slide["data"] = data,
            Ok(None) => slide["error"] = json!({ "code": "DIGITAL_SALES_ROOMS__SLIDE_NOT_FOUND" }),
            Err(ApiError::Client {
                status,
                code,
                detail,
                ..
            }) if status == axum::http::StatusCode::NOT_FOUND => {
                slide["error"] = json!({ "code": code, "detail": detail })
            }
            Err(error) => return Err(error),
        }
        answered.push(slide);
    }
    Ok(Json(
        json!({ "presentationId": presentation_id, "slides": answered, "apiAlias": "salesroom_presentation_preview" }),
    ))
}

fn for_slots(page: &mut Value, mut f: impl FnMut(&mut Value)) {
    for section in page["sections"].as_array_mut().into_iter().flatten() {
        for block in section["blocks"].as_array_mut().into_iter().flatten() {
            for slot in block["slots"].as_array_mut().into_iter().flatten() {
                f(slot);
            }
        }
    }
}

/// `POST …/slide/{sectionId}/products`: the slide's products (its picked products, the
/// product of a detail slide, or those of its product slots) by criteria.
pub async fn products(
    ctx: ShopContext,
    State(app): State<App>,
    Path((page_id, section_id)): Path<(String, String)>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let attendee = attendee::of_context(&app, ctx.token.clone()).await?;
    let (page_id, section_id) = checked(&page_id, &section_id)?;
    let mut criteria = listing::room_criteria(&params)?;
    let interaction = match params.get("interaction") {
        None | Some(Value::Null) => false,
        Some(value) => crate::catalog::criteria::boolean(value).ok_or_else(|| {
            ApiError::bad_request(
                "FRAMEWORK__INVALID_REQUEST_PARAMETER",
                "interaction must be a boolean.",
            )
            .at("/interaction")
        })?,
    };
    let (appointment_id, attendee_id, pid, sid) = (
        attendee.appointment_id.clone(),
        attendee.id.clone(),
        page_id.clone(),
        section_id.clone(),
    );
    let body = app
        .db
        .call(move |conn| {
            let Some(page) = page_with_section(conn, &appointment_id, &pid, &sid)? else {
                return Ok(Err(slide_not_found(&pid, &sid)));
            };
            let ids = if page.is_listing() {
                page.picked_product_ids.clone()
            } else if let Some(product_id) = &page.product_id {
                vec![product_id.clone()]
            } else {
                slot_products(conn, &sid)?
            };
            let room = RoomListing {
                ids: Some(ids),
                interaction_of: interaction.then_some(attendee_id),
                ..Default::default()
            };
            Ok(Ok(listing::run(conn, &ctx, &mut criteria, &room)?))
        })
        .await??;
    Ok(Json(body))
}

/// Products named in the product slots (box, slider) of a section.
fn slot_products(conn: &Connection, section_id: &str) -> rusqlite::Result<Vec<String>> {
    let mut statement = conn.prepare_cached(
        "SELECT s.type, t.config FROM cms_slot s JOIN cms_block b ON b.id = s.cms_block_id
         JOIN cms_slot_translation t ON t.cms_slot_id = s.id
         WHERE b.cms_section_id = ?1 AND s.type IN ('product-box', 'product-slider') ORDER BY b.position, s.slot",
    )?;
    let mut ids = Vec::new();
    for row in statement.query_map([section_id], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })? {
        let (kind, config) = row?;
        let config: Value = serde_json::from_str(&config).unwrap_or_default();
        let found: Vec<String> = match kind.as_str() {
            "product-box" => config["product"]["value"]
                .as_str()
                .map(str::to_owned)
                .into_iter()
                .collect(),
            _ => config["products"]["value"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
        };
        for id in found {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    Ok(ids)
}
