//! Products as the store API shows them (`Product`): one batch of queries for a page
//! of ids, with prices, translations inherited from the parent, cover and media,
//! manufacturer, options, properties, delivery time, unit, categories and SEO URLs.

use std::collections::{HashMap, HashSet};

use rusqlite::Connection;
use serde_json::{json, Map, Value};

use super::price::{self, Reference, Tax};
use super::property;
use crate::media;
use crate::seo_url;
use crate::storage::json_ids;
use crate::storage::translation::{self, json_of};
use crate::store_api::ShopContext;
use crate::store_api::LIVE_VERSION_ID;

/// The largest quantity a product may be bought in when it sets no maximum.
pub const DEFAULT_MAX_PURCHASE: i64 = 100;

/// Which associations to load besides the ones every product carries (cover,
/// manufacturer, options, delivery time, unit, tax).
#[derive(Debug, Default, Clone, Copy)]
pub struct Load {
    pub media: bool,
    pub properties: bool,
}

/// Columns read from `product`, with their JSON names.
const COLUMNS: &[(&str, &str)] = &[
    ("id", "id"),
    ("parent_id", "parentId"),
    ("product_number", "productNumber"),
    ("type", "type"),
    ("manufacturer_id", "manufacturerId"),
    ("manufacturer_number", "manufacturerNumber"),
    ("ean", "ean"),
    ("tax_id", "taxId"),
    ("unit_id", "unitId"),
    ("delivery_time_id", "deliveryTimeId"),
    ("cover_id", "coverId"),
    ("cms_page_id", "cmsPageId"),
    ("active", "active"),
    ("stock", "stock"),
    ("available_stock", "availableStock"),
    ("is_closeout", "isCloseout"),
    ("restock_time", "restockTime"),
    ("shipping_free", "shippingFree"),
    ("min_purchase", "minPurchase"),
    ("max_purchase", "maxPurchase"),
    ("purchase_steps", "purchaseSteps"),
    ("purchase_unit", "purchaseUnit"),
    ("reference_unit", "referenceUnit"),
    ("width", "width"),
    ("height", "height"),
    ("length", "length"),
    ("weight", "weight"),
    ("mark_as_topseller", "markAsTopseller"),
    ("sales", "sales"),
    ("rating_average", "ratingAverage"),
    ("release_date", "releaseDate"),
    ("child_count", "childCount"),
    ("display_group", "displayGroup"),
    ("created_at", "createdAt"),
    ("updated_at", "updatedAt"),
    ("price_net", "priceNet"),
    ("price_gross", "priceGross"),
    ("list_price_net", "listPriceNet"),
    ("list_price_gross", "listPriceGross"),
];
const BOOLEANS: &[&str] = &["active", "isCloseout", "shippingFree", "markAsTopseller"];
const INTERNAL: &[&str] = &["priceNet", "priceGross", "listPriceNet", "listPriceGross"];

pub const TEXT_FIELDS: &[(&str, &str)] = &[
    ("name", "name"),
    ("description", "description"),
    ("keywords", "keywords"),
    ("meta_title", "metaTitle"),
    ("meta_description", "metaDescription"),
    ("pack_unit", "packUnit"),
    ("pack_unit_plural", "packUnitPlural"),
];
const NAME: &[(&str, &str)] = &[("name", "name")];
const UNIT_FIELDS: &[(&str, &str)] = &[("short_code", "shortCode"), ("name", "name")];
const MANUFACTURER_FIELDS: &[(&str, &str)] = &[("name", "name"), ("description", "description")];

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

fn string_list(map: &HashMap<String, Vec<String>>, id: &str) -> Value {
    json!(map.get(id).cloned().unwrap_or_default())
}

/// Pairs `(owner, other)` of a join table for the owners `ids`.
fn pairs(
    conn: &Connection,
    sql: &str,
    ids: &[String],
) -> rusqlite::Result<HashMap<String, Vec<String>>> {
    let mut statement = conn.prepare_cached(sql)?;
    let mut found: HashMap<String, Vec<String>> = HashMap::new();
    for row in statement.query_map([json_ids(ids)], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })? {
        let (owner, other) = row?;
        found.entry(owner).or_default().push(other);
    }
    Ok(found)
}

fn unique(lists: impl Iterator<Item = String>) -> Vec<String> {
    let mut seen = HashSet::new();
    lists.filter(|id| seen.insert(id.clone())).collect()
}

/// Loads the products `ids` (in that order; unknown ids are left out).
pub fn load(
    conn: &Connection,
    ctx: &ShopContext,
    ids: &[String],
    load: Load,
) -> rusqlite::Result<Vec<Value>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let chain = &ctx.languages;
    let columns: Vec<&str> = COLUMNS.iter().map(|(c, _)| *c).collect();
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {} FROM product WHERE id IN (SELECT value FROM json_each(?1))",
        columns.join(", ")
    ))?;
    let mut rows: HashMap<String, Map<String, Value>> = HashMap::new();
    let mut query = statement.query([json_ids(ids)])?;
    while let Some(r) = query.next()? {
        let mut row = Map::new();
        for (index, (_, name)) in COLUMNS.iter().enumerate() {
            let mut value = json_of(r.get_ref(index)?);
            if BOOLEANS.contains(name) {
                value = Value::Bool(value.as_i64() == Some(1));
            }
            row.insert((*name).to_owned(), value);
        }
        rows.insert(text(&row["id"]).unwrap_or_default(), row);
    }
    let found: Vec<String> = ids
        .iter()
        .filter(|id| rows.contains_key(*id))
        .cloned()
        .collect();
    let parents: Vec<String> = unique(rows.values().filter_map(|r| text(&r["parentId"])));
    let with_parents: Vec<String> = unique(found.iter().cloned().chain(parents.iter().cloned()));

    let texts = translation::load(
        conn,
        "product_translation",
        "product_id",
        TEXT_FIELDS,
        &with_parents,
        chain,
    )?;

    let mut taxes: HashMap<String, Tax> = HashMap::new();
    let mut tax_statement = conn.prepare_cached("SELECT id, tax_rate, name FROM tax")?;
    for tax in tax_statement.query_map([], |r| {
        Ok(Tax {
            id: r.get(0)?,
            rate: r.get(1)?,
            name: r.get(2)?,
        })
    })? {
        let tax = tax?;
        taxes.insert(tax.id.clone(), tax);
    }
    let currency_id: Option<String> = conn
        .query_row(
            "SELECT id FROM currency WHERE is_system_default = 1",
            [],
            |r| r.get(0),
        )
        .ok();

    let unit_ids = unique(rows.values().filter_map(|r| text(&r["unitId"])));
    let unit_texts = translation::load(
        conn,
        "unit_translation",
        "unit_id",
        UNIT_FIELDS,
        &unit_ids,
        chain,
    )?;
    let delivery_ids = unique(rows.values().filter_map(|r| text(&r["deliveryTimeId"])));
    let delivery_texts = translation::load(
        conn,
        "delivery_time_translation",
        "delivery_time_id",
        NAME,
        &delivery_ids,
        chain,
    )?;
    let mut delivery_times: HashMap<String, Value> = HashMap::new();
    let mut delivery_statement =
        conn.prepare_cached("SELECT id, min, max, unit FROM delivery_time WHERE id IN (SELECT value FROM json_each(?1))")?;
    for row in delivery_statement.query_map([json_ids(&delivery_ids)], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, String>(3)?,
        ))
    })? {
        let (id, min, max, unit) = row?;
        let translated = translation::get(&delivery_texts, &id, NAME);
        delivery_times.insert(
            id.clone(),
            json!({ "id": id, "name": translated["name"], "min": min, "max": max, "unit": unit, "translated": translated, "apiAlias": "delivery_time" }),
        );
    }

    let manufacturer_ids = unique(rows.values().filter_map(|r| text(&r["manufacturerId"])));
    let manufacturers = load_manufacturers(conn, ctx, &manufacturer_ids)?;
    // Product media: the covers, or all media when asked.
    let mut product_media: HashMap<String, Vec<Value>> = HashMap::new();
    let cover_ids = unique(rows.values().filter_map(|r| text(&r["coverId"])));
    let mut media_statement = conn.prepare_cached(if load.media {
        "SELECT id, product_id, media_id, position FROM product_media WHERE product_id IN (SELECT value FROM json_each(?1)) ORDER BY position"
    } else {
        "SELECT id, product_id, media_id, position FROM product_media WHERE id IN (SELECT value FROM json_each(?1))"
    })?;
    let media_rows = media_statement
        .query_map(
            [json_ids(if load.media { &found } else { &cover_ids })],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                ))
            },
        )?
        .collect::<Result<Vec<_>, _>>()?;
    let media_ids = unique(media_rows.iter().map(|m| m.2.clone()));
    let media = media::entity::load(conn, chain, &ctx.base_url, &media_ids)?;
    let mut covers: HashMap<String, Value> = HashMap::new();
    for (id, product_id, media_id, position) in media_rows {
        let entry = json!({
            "id": id, "productId": product_id, "mediaId": media_id, "position": position,
            "media": media.get(&media_id).cloned().unwrap_or(Value::Null), "apiAlias": "product_media",
        });
        covers.insert(id, entry.clone());
        product_media.entry(product_id).or_default().push(entry);
    }

    let option_ids =
        pairs(conn, "SELECT product_id, option_id FROM product_option WHERE product_id IN (SELECT value FROM json_each(?1))", &found)?;
    let property_ids =
        pairs(conn, "SELECT product_id, option_id FROM product_property WHERE product_id IN (SELECT value FROM json_each(?1))", &found)?;
    let category_ids =
        pairs(conn, "SELECT product_id, category_id FROM product_category WHERE product_id IN (SELECT value FROM json_each(?1))", &found)?;
    let category_tree = pairs(
        conn,
        "SELECT product_id, category_id FROM product_category_tree WHERE product_id IN (SELECT value FROM json_each(?1))",
        &found,
    )?;
    let wanted_options = unique(
        option_ids
            .values()
            .flatten()
            .cloned()
            .chain(if load.properties {
                property_ids.values().flatten().cloned().collect()
            } else {
                Vec::new()
            }),
    );
    let options = property::load_options(conn, chain, &wanted_options)?;

    // Advanced prices per quantity.
    let mut tiers: HashMap<String, Vec<(i64, Option<i64>, f64)>> = HashMap::new();
    let mut tier_statement = conn.prepare_cached(
        "SELECT product_id, quantity_start, quantity_end, price_gross FROM product_price
         WHERE product_id IN (SELECT value FROM json_each(?1)) ORDER BY quantity_start",
    )?;
    for row in tier_statement.query_map([json_ids(&found)], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, Option<i64>>(2)?,
            r.get::<_, f64>(3)?,
        ))
    })? {
        let (product_id, start, end, gross) = row?;
        tiers
            .entry(product_id)
            .or_default()
            .push((start, end, gross));
    }
    // The cheapest price of the last 30 days (EU price indication directive).
    let mut regulation: HashMap<String, f64> = HashMap::new();
    let mut history_statement = conn.prepare_cached(
        "SELECT product_id, MIN(price_gross) FROM product_price_history
         WHERE product_id IN (SELECT value FROM json_each(?1)) AND valid_from >= ?2 GROUP BY product_id",
    )?;
    let since = (time::OffsetDateTime::now_utc() - time::Duration::days(30))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default();
    for row in history_statement.query_map(rusqlite::params![json_ids(&found), since], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, f64>(1)?))
    })? {
        let (product_id, gross) = row?;
        regulation.insert(product_id, gross);
    }
    // Cheapest variant of each parent.
    let mut cheapest: HashMap<String, (String, f64, f64)> = HashMap::new();
    let mut cheapest_statement = conn.prepare_cached(
        "SELECT c.parent_id,
                (SELECT v.id FROM product v WHERE v.parent_id = c.parent_id AND v.active = 1 ORDER BY v.price_gross, v.product_number LIMIT 1),
                MIN(c.price_gross), MAX(c.price_gross)
         FROM product c WHERE c.parent_id IN (SELECT value FROM json_each(?1)) AND c.active = 1 GROUP BY c.parent_id",
    )?;
    for row in cheapest_statement.query_map([json_ids(&found)], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, f64>(2)?,
            r.get::<_, f64>(3)?,
        ))
    })? {
        let (parent, variant, min, max) = row?;
        cheapest.insert(parent, (variant, min, max));
    }
    let seo_urls = if ctx.include_seo_urls {
        seo_url::load_for(conn, ctx, "frontend.detail.page", &found)?
    } else {
        HashMap::new()
    };
    let now = time::OffsetDateTime::now_utc();

    let mut products = Vec::with_capacity(found.len());
    for id in &found {
        let Some(mut product) = rows.remove(id) else {
            continue;
        };
        // Texts: the variant's own, else its parent's.
        let own = translation::get(&texts, id, TEXT_FIELDS);
        let parent_texts =
            text(&product["parentId"]).map(|p| translation::get(&texts, &p, TEXT_FIELDS));
        let mut translated = Map::new();
        for (_, name) in TEXT_FIELDS {
            let value = match (&own[*name], &parent_texts) {
                (Value::Null, Some(parent)) => parent[*name].clone(),
                (value, _) => value.clone(),
            };
            product.insert((*name).to_owned(), value.clone());
            translated.insert((*name).to_owned(), value);
        }
        product.insert("translated".into(), Value::Object(translated));

        let tax = text(&product["taxId"])
            .and_then(|t| taxes.get(&t))
            .cloned()
            .unwrap_or(Tax {
                id: String::new(),
                rate: 0.0,
                name: String::new(),
            });
        let gross = product["priceGross"].as_f64().unwrap_or(0.0);
        let net = product["priceNet"].as_f64().unwrap_or(0.0);
        let list_gross = product["listPriceGross"].as_f64();
        let list_net = product["listPriceNet"].as_f64();
        let unit = text(&product["unitId"])
            .map(|u| (u.clone(), translation::get(&unit_texts, &u, UNIT_FIELDS)));
        let reference = match (
            product["purchaseUnit"].as_f64(),
            product["referenceUnit"].as_f64(),
            &unit,
        ) {
            (Some(purchase_unit), Some(reference_unit), Some((_, unit))) => Some(Reference {
                purchase_unit,
                reference_unit,
                unit_name: unit["name"].as_str().unwrap_or_default().to_owned(),
            }),
            _ => None,
        };
        let regulation_gross = regulation.get(id).copied().map(|r| r.min(gross));
        let calculated = price::calculated(
            gross,
            1,
            &tax,
            list_gross,
            regulation_gross,
            reference.as_ref(),
        );
        let product_tiers = tiers.get(id).cloned().unwrap_or_default();
        let calculated_prices: Vec<Value> = product_tiers
            .iter()
            .map(|(start, end, tier_gross)| {
                price::calculated(
                    *tier_gross,
                    end.unwrap_or(*start),
                    &tax,
                    list_gross,
                    None,
                    reference.as_ref(),
                )
            })
            .collect();
        let mut cheapest_price = match cheapest.get(id) {
            Some((variant, min, max)) => {
                let mut price = price::calculated(*min, 1, &tax, None, None, reference.as_ref());
                price["hasRange"] = json!(min != max || !product_tiers.is_empty());
                price["variantId"] = json!(variant);
                price
            }
            None => {
                let mut price = calculated.clone();
                price["hasRange"] = json!(!product_tiers.is_empty());
                price["variantId"] = Value::Null;
                price
            }
        };
        cheapest_price["apiAlias"] = json!("calculated_cheapest_price");
        product.insert("calculatedPrice".into(), calculated);
        product.insert("calculatedPrices".into(), json!(calculated_prices));
        product.insert("calculatedCheapestPrice".into(), cheapest_price);
        product.insert(
            "price".into(),
            json!([{
                "currencyId": currency_id,
                "gross": gross,
                "net": net,
                "linked": true,
                "listPrice": list_gross.map(|g| json!({ "currencyId": currency_id, "gross": g, "net": list_net, "linked": true, "apiAlias": "price" })),
                "percentage": list_gross.filter(|l| *l > gross).map(|l| json!({ "gross": price::round((l - gross) / l * 100.0), "net": price::round((l - gross) / l * 100.0) })),
                "regulationPrice": regulation_gross.map(|g| json!({ "currencyId": currency_id, "gross": g, "net": price::round(g / (1.0 + tax.rate / 100.0)), "linked": true, "apiAlias": "price" })),
                "apiAlias": "price",
            }]),
        );
        product.insert("tax".into(), json!({ "id": tax.id, "taxRate": tax.rate, "name": tax.name, "position": 1, "apiAlias": "tax" }));
        for internal in INTERNAL {
            product.remove(*internal);
        }

        let stock = product["availableStock"].as_i64().unwrap_or(0);
        let min_purchase = product["minPurchase"].as_i64().unwrap_or(1);
        let closeout = product["isCloseout"].as_bool().unwrap_or(false);
        let max_purchase = product["maxPurchase"]
            .as_i64()
            .unwrap_or(DEFAULT_MAX_PURCHASE);
        product.insert(
            "available".into(),
            json!(!closeout || stock >= min_purchase),
        );
        product.insert(
            "calculatedMaxPurchase".into(),
            json!(if closeout {
                max_purchase.min(stock.max(0))
            } else {
                max_purchase
            }),
        );
        let is_new = product["releaseDate"]
            .as_str()
            .and_then(|d| {
                time::OffsetDateTime::parse(d, &time::format_description::well_known::Rfc3339).ok()
            })
            .is_some_and(|d| d <= now && now - d <= time::Duration::days(30));
        product.insert("isNew".into(), json!(is_new));
        product.insert("versionId".into(), json!(LIVE_VERSION_ID));
        product.insert(
            "parentVersionId".into(),
            if product["parentId"].is_null() {
                Value::Null
            } else {
                json!(LIVE_VERSION_ID)
            },
        );
        product.insert(
            "unit".into(),
            unit.map(|(unit_id, texts)| {
                json!({ "id": unit_id, "shortCode": texts["shortCode"], "name": texts["name"], "translated": texts, "apiAlias": "unit" })
            })
            .unwrap_or(Value::Null),
        );
        product.insert(
            "deliveryTime".into(),
            text(&product["deliveryTimeId"])
                .and_then(|d| delivery_times.get(&d).cloned())
                .unwrap_or(Value::Null),
        );
        product.insert(
            "manufacturer".into(),
            text(&product["manufacturerId"])
                .and_then(|m| manufacturers.get(&m).cloned())
                .unwrap_or(Value::Null),
        );
        product.insert(
            "cover".into(),
            text(&product["coverId"])
                .and_then(|c| covers.get(&c).cloned())
                .unwrap_or(Value::Null),
        );
        if load.media {
            product.insert(
                "media".into(),
                json!(product_media.get(id).cloned().unwrap_or_default()),
            );
        }
        let mut product_options: Vec<Value> = option_ids
            .get(id)
            .into_iter()
            .flatten()
            .filter_map(|o| options.get(o).cloned())
            .collect();
        property::sort_options(&mut product_options);
        product.insert("options".into(), json!(product_options));
        product.insert("optionIds".into(), string_list(&option_ids, id));
        product.insert("propertyIds".into(), string_list(&property_ids, id));
        if load.properties {
            let mut properties: Vec<Value> = property_ids
                .get(id)
                .into_iter()
                .flatten()
                .filter_map(|o| options.get(o).cloned())
                .collect();
            property::sort_options(&mut properties);
            product.insert("properties".into(), json!(properties));
        }
        product.insert("categoryIds".into(), string_list(&category_ids, id));
        product.insert("categoryTree".into(), string_list(&category_tree, id));
        if ctx.include_seo_urls {
            product.insert(
                "seoUrls".into(),
                json!(seo_urls.get(id).cloned().unwrap_or_default()),
            );
        }
        product.insert("seoCategory".into(), Value::Null);
        product.insert(
            "states".into(),
            json!(if product["type"] == json!("digital") {
                vec!["is-download"]
            } else {
                Vec::<&str>::new()
            }),
        );
        product.insert("apiAlias".into(), json!("product"));
        products.push(Value::Object(product));
    }
    Ok(products)
}

/// Manufacturers by id, with their logo.
pub fn load_manufacturers(
    conn: &Connection,
    ctx: &ShopContext,
    ids: &[String],
) -> rusqlite::Result<HashMap<String, Value>> {
    let texts = translation::load(
        conn,
        "product_manufacturer_translation",
        "product_manufacturer_id",
        MANUFACTURER_FIELDS,
        ids,
        &ctx.languages,
    )?;
    let mut statement =
        conn.prepare_cached("SELECT id, link, media_id FROM product_manufacturer WHERE id IN (SELECT value FROM json_each(?1))")?;
    let rows = statement
        .query_map([json_ids(ids)], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, Option<String>>(2)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let media_ids = unique(rows.iter().filter_map(|r| r.2.clone()));
    let media = media::entity::load(conn, &ctx.languages, &ctx.base_url, &media_ids)?;
    Ok(rows
        .into_iter()
        .map(|(id, link, media_id)| {
            let translated = translation::get(&texts, &id, MANUFACTURER_FIELDS);
            let manufacturer = json!({
                "id": id, "link": link, "mediaId": media_id,
                "name": translated["name"], "description": translated["description"],
                "media": media_id.as_ref().and_then(|m| media.get(m)).cloned().unwrap_or(Value::Null),
                "translated": translated, "apiAlias": "product_manufacturer",
            });
            (id, manufacturer)
        })
        .collect())
}
