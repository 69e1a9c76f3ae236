//! Loading a CMS page (`cms_page` → `cms_section` → `cms_block` → `cms_slot`) with
//! translated slot configs and resolved slot `data`.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension};
use serde_json::{json, Value};

use crate::catalog::listing::{self, ListingRequest};
use crate::catalog::product;
use crate::error::ApiError;
use crate::media;
use crate::storage::json_ids;
use crate::storage::translation::{self, LanguageChain};
use crate::store_api::ShopContext;
use crate::store_api::LIVE_VERSION_ID;

/// What slots are resolved against.
pub struct Resolve<'a> {
    /// The category whose products a `product-listing` slot shows.
    pub category_id: Option<&'a str>,
    pub listing: Option<&'a ListingRequest>,
}

const CONFIG: &[(&str, &str)] = &[("config", "config")];
const NAME: &[(&str, &str)] = &[("name", "name")];

fn visibility() -> Value {
    json!({ "mobile": true, "tablet": true, "desktop": true })
}

/// The static value of a slot config field (`{"source": "static", "value": …}`).
fn config_value<'a>(config: &'a Value, field: &str) -> &'a Value {
    &config[field]["value"]
}

/// The type of the blocks that hold a presentation slide's notes for the guide
/// (`notes` slots, see `dsr::presentation`): never part of a page's content.
pub const NOTES_BLOCK_TYPE: &str = "notes";

/// The slots of `block_ids` with their configs in the language of `languages`
/// (`config` and `translated.config`), without `data`.
pub fn load_slots(
    conn: &Connection,
    block_ids: &[String],
    languages: &LanguageChain,
) -> rusqlite::Result<Vec<Value>> {
    let mut slots_statement = conn.prepare_cached(
        "SELECT id, cms_block_id, type, slot, locked FROM cms_slot WHERE cms_block_id IN (SELECT value FROM json_each(?1))",
    )?;
    let mut slots: Vec<Value> = slots_statement
        .query_map([json_ids(block_ids)], |r| {
            Ok(json!({
                "id": r.get::<_, String>(0)?,
                "blockId": r.get::<_, String>(1)?,
                "type": r.get::<_, String>(2)?,
                "slot": r.get::<_, String>(3)?,
                "locked": r.get::<_, bool>(4)?,
                "versionId": LIVE_VERSION_ID,
                "apiAlias": "cms_slot",
            }))
        })?
        .collect::<Result<_, _>>()?;
    let slot_ids: Vec<String> = slots
        .iter()
        .filter_map(|s| s["id"].as_str().map(str::to_owned))
        .collect();
    let configs = translation::load(
        conn,
        "cms_slot_translation",
        "cms_slot_id",
        CONFIG,
        &slot_ids,
        languages,
    )?;
    for slot in &mut slots {
        let slot_id = slot["id"].as_str().unwrap_or_default().to_owned();
        let raw = translation::get(&configs, &slot_id, CONFIG)["config"]
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| "{}".into());
        let config: Value = serde_json::from_str(&raw).unwrap_or_else(|_| json!({}));
        slot["translated"] = json!({ "config": config });
        slot["config"] = config;
    }
    Ok(slots)
}

/// Loads a page with everything resolved; `None` when it does not exist.
pub fn load(
    conn: &Connection,
    ctx: &ShopContext,
    page_id: &str,
    resolve: &Resolve,
) -> Result<Option<Value>, ApiError> {
    type PageRow = (String, String, String, Option<String>, Option<String>);
    let page: Option<PageRow> = conn
        .query_row(
            "SELECT id, type, name, entity, css_class FROM cms_page WHERE id = ?1",
            [page_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?;
    let Some((id, page_type, default_name, entity, css_class)) = page else {
        return Ok(None);
    };
    let names = translation::load(
        conn,
        "cms_page_translation",
        "cms_page_id",
        NAME,
        std::slice::from_ref(&id),
        &ctx.languages,
    )?;
    let mut translated = translation::get(&names, &id, NAME);
    if translated["name"].is_null() {
        translated.insert("name".into(), json!(default_name));
    }

    let mut sections_statement = conn.prepare_cached(
        "SELECT id, position, type, name, sizing_mode, mobile_behavior, background_color, background_media_id, css_class
         FROM cms_section WHERE cms_page_id = ?1 ORDER BY position",
    )?;
    let mut sections: Vec<Value> = sections_statement
        .query_map([&id], |r| {
            Ok(json!({
                "id": r.get::<_, String>(0)?,
                "position": r.get::<_, i64>(1)?,
                "type": r.get::<_, String>(2)?,
                "name": r.get::<_, Option<String>>(3)?,
                "sizingMode": r.get::<_, String>(4)?,
                "mobileBehavior": r.get::<_, String>(5)?,
                "backgroundColor": r.get::<_, Option<String>>(6)?,
                "backgroundMediaId": r.get::<_, Option<String>>(7)?,
                "cssClass": r.get::<_, Option<String>>(8)?,
                "pageId": id,
                "cmsPageVersionId": LIVE_VERSION_ID,
                "visibility": visibility(),
                "apiAlias": "cms_section",
            }))
        })?
        .collect::<Result<_, _>>()?;
    let section_ids: Vec<String> = sections
        .iter()
        .filter_map(|s| s["id"].as_str().map(str::to_owned))
        .collect();
    let mut blocks_statement = conn.prepare_cached(
        "SELECT id, cms_section_id, position, type, name, section_position, margin_top, margin_bottom, margin_left, margin_right,
                background_color, background_media_id, css_class
         FROM cms_block WHERE cms_section_id IN (SELECT value FROM json_each(?1)) AND type <> ?2 ORDER BY position",
    )?;
    let mut blocks: Vec<Value> = blocks_statement
        .query_map([json_ids(&section_ids), NOTES_BLOCK_TYPE.to_owned()], |r| {
            Ok(json!({
                "id": r.get::<_, String>(0)?,
                "sectionId": r.get::<_, String>(1)?,
                "position": r.get::<_, i64>(2)?,
                "type": r.get::<_, String>(3)?,
                "name": r.get::<_, Option<String>>(4)?,
                "sectionPosition": r.get::<_, String>(5)?,
                "marginTop": r.get::<_, Option<String>>(6)?,
                "marginBottom": r.get::<_, Option<String>>(7)?,
                "marginLeft": r.get::<_, Option<String>>(8)?,
                "marginRight": r.get::<_, Option<String>>(9)?,
                "backgroundColor": r.get::<_, Option<String>>(10)?,
                "backgroundMediaId": r.get::<_, Option<String>>(11)?,
                "cssClass": r.get::<_, Option<String>>(12)?,
                "visibility": visibility(),
                "versionId": LIVE_VERSION_ID,
                "apiAlias": "cms_block",
            }))
        })?
        .collect::<Result<_, _>>()?;
    let block_ids: Vec<String> = blocks
        .iter()
        .filter_map(|b| b["id"].as_str().map(str::to_owned))
        .collect();
    let mut slots = load_slots(conn, &block_ids, &ctx.languages)?;
    resolve_data(conn, ctx, &mut slots, resolve)?;

    // Assemble: slots into blocks, blocks into sections, with background media.
    let background_ids: Vec<String> = sections
        .iter()
        .chain(blocks.iter())
        .filter_map(|e| e["backgroundMediaId"].as_str().map(str::to_owned))
        .collect();
    let backgrounds = media::entity::load(conn, &ctx.languages, &ctx.base_url, &background_ids)?;
    let mut slots_by_block: HashMap<String, Vec<Value>> = HashMap::new();
    for slot in slots {
        slots_by_block
            .entry(slot["blockId"].as_str().unwrap_or_default().to_owned())
            .or_default()
            .push(slot);
    }
    let mut blocks_by_section: HashMap<String, Vec<Value>> = HashMap::new();
    for mut block in blocks.drain(..) {
        let block_id = block["id"].as_str().unwrap_or_default().to_owned();
        let mut block_slots = slots_by_block.remove(&block_id).unwrap_or_default();
        block_slots.sort_by(|a, b| a["slot"].as_str().cmp(&b["slot"].as_str()));
        block["slots"] = json!(block_slots);
        block["backgroundMedia"] = block["backgroundMediaId"]
            .as_str()
            .and_then(|m| backgrounds.get(m))
            .cloned()
            .unwrap_or(Value::Null);
        blocks_by_section
            .entry(block["sectionId"].as_str().unwrap_or_default().to_owned())
            .or_default()
            .push(block);
    }
    for section in &mut sections {
        let section_id = section["id"].as_str().unwrap_or_default().to_owned();
        section["blocks"] = json!(blocks_by_section.remove(&section_id).unwrap_or_default());
        section["backgroundMedia"] = section["backgroundMediaId"]
            .as_str()
            .and_then(|m| backgrounds.get(m))
            .cloned()
            .unwrap_or(Value::Null);
    }
    Ok(Some(json!({
        "id": id,
        "versionId": LIVE_VERSION_ID,
        "name": translated["name"],
        "type": page_type,
        "entity": entity,
        "cssClass": css_class,
        "config": null,
        "translated": translated,
        "sections": sections,
        "apiAlias": "cms_page",
    })))
}

/// Fills every slot's `data` from its config: listings, products, images, texts.
fn resolve_data(
    conn: &Connection,
    ctx: &ShopContext,
    slots: &mut [Value],
    resolve: &Resolve,
) -> Result<(), ApiError> {
    let mut media_ids = Vec::new();
    let mut product_ids = Vec::new();
    for slot in slots.iter() {
        let config = &slot["config"];
        match slot["type"].as_str().unwrap_or_default() {
            "image" => media_ids.extend(config_value(config, "media").as_str().map(str::to_owned)),
            "image-slider" | "image-gallery" => {
                for item in config_value(config, "sliderItems")
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    media_ids.extend(item["mediaId"].as_str().map(str::to_owned));
                }
            }
            "product-box" => {
                product_ids.extend(config_value(config, "product").as_str().map(str::to_owned))
            }
            "product-slider" => product_ids.extend(
                config_value(config, "products")
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|p| p.as_str().map(str::to_owned)),
            ),
            _ => {}
        }
    }
    let media = media::entity::load(conn, &ctx.languages, &ctx.base_url, &media_ids)?;
    let products: HashMap<String, Value> =
        product::load(conn, ctx, &product_ids, product::Load::default())?
            .into_iter()
            .map(|p| (p["id"].as_str().unwrap_or_default().to_owned(), p))
            .collect();
    for slot in slots.iter_mut() {
        let config = slot["config"].clone();
        let data = match slot["type"].as_str().unwrap_or_default() {
            "text" => {
                json!({ "content": config_value(&config, "content"), "apiAlias": "cms_text" })
            }
            "image" => {
                let media_id = config_value(&config, "media").as_str().unwrap_or_default();
                json!({
                    "media": media.get(media_id).cloned().unwrap_or(Value::Null),
                    "url": config_value(&config, "url"),
                    "newTab": config_value(&config, "newTab").as_bool().unwrap_or(false),
                    "apiAlias": "cms_image",
                })
            }
            "image-slider" | "image-gallery" => {
                let items: Vec<Value> = config_value(&config, "sliderItems")
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|item| {
                        let media = media.get(item["mediaId"].as_str()?)?.clone();
                        Some(json!({ "media": media, "url": item["url"], "newTab": item["newTab"].as_bool().unwrap_or(false), "apiAlias": "cms_image_slider_item" }))
                    })
                    .collect();
                json!({ "sliderItems": items, "apiAlias": "cms_image_slider" })
            }
            "product-box" => {
                let product_id = config_value(&config, "product")
                    .as_str()
                    .unwrap_or_default();
                json!({ "productId": product_id, "product": products.get(product_id).cloned().unwrap_or(Value::Null), "apiAlias": "cms_product_box" })
            }
            "product-slider" => {
                let list: Vec<Value> = config_value(&config, "products")
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|p| products.get(p.as_str()?).cloned())
                    .collect();
                json!({ "products": list, "apiAlias": "cms_product_slider" })
            }
            "product-listing" => match (resolve.category_id, resolve.listing) {
                (Some(category_id), Some(request)) => {
                    json!({ "listing": listing::run(conn, ctx, request, Some(category_id))?, "apiAlias": "cms_product_listing" })
                }
                _ => Value::Null,
            },
            _ => Value::Null,
        };
        slot["data"] = data;
    }
    Ok(())
}
