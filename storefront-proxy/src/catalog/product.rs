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

type Texts = HashMap<String, Map<String, Value>>;
/// Ids linked to each product (options, properties, categories).
type Links = HashMap<String, Vec<String>>;

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
    let mut rows = load_rows(conn, ids)?;
    let found: Vec<String> = ids
        .iter()
        .filter(|id| rows.contains_key(*id))
        .cloned()
        .collect();
    let related = Related::load(conn, ctx, &rows, &found, load)?;
    let now = time::OffsetDateTime::now_utc();

    let mut products = Vec::with_capacity(found.len());
    for id in &found {
        let Some(product) = rows.remove(id) else {
            continue;
        };
        products.push(related.product(id, product, ctx, load, now));
    }
    Ok(products)
}

/// The `product` rows of `ids` by id, in [`COLUMNS`]' JSON names.
fn load_rows(
    conn: &Connection,
    ids: &[String],
) -> rusqlite::Result<HashMap<String, Map<String, Value>>> {
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
    Ok(rows)
}

/// What the products of one [`load`] are shown with, read once for all of them.
struct Related {
    /// The products' and their parents' texts.
    texts: Texts,
    taxes: HashMap<String, Tax>,
    currency_id: Option<String>,
    unit_texts: Texts,
    delivery_times: HashMap<String, Value>,
    manufacturers: HashMap<String, Value>,
    media: ProductMedia,
    linked: Linked,
    /// The property options of the products' options (and of their properties with
    /// [`Load::properties`]).
    options: HashMap<String, Value>,
    prices: Prices,
    seo_urls: HashMap<String, Vec<Value>>,
}

impl Related {
    fn load(
        conn: &Connection,
        ctx: &ShopContext,
        rows: &HashMap<String, Map<String, Value>>,
        found: &[String],
        load: Load,
    ) -> rusqlite::Result<Related> {
        let chain = &ctx.languages;
        let ids_of = |field: &str| unique(rows.values().filter_map(|r| text(&r[field])));
        let parents = ids_of("parentId");
        let with_parents = unique(found.iter().cloned().chain(parents));
        let texts = translation::load(
            conn,
            "product_translation",
            "product_id",
            TEXT_FIELDS,
            &with_parents,
            chain,
        )?;
        let taxes = load_taxes(conn)?;
        let currency_id = system_currency(conn);
        let unit_texts = translation::load(
            conn,
            "unit_translation",
            "unit_id",
            UNIT_FIELDS,
            &ids_of("unitId"),
            chain,
        )?;
        let delivery_times = load_delivery_times(conn, ctx, &ids_of("deliveryTimeId"))?;
        let manufacturers = load_manufacturers(conn, ctx, &ids_of("manufacturerId"))?;
        // Product media: the covers, or all media when asked.
        let media = if load.media {
            load_media(conn, ctx, found, true)?
        } else {
            load_media(conn, ctx, &ids_of("coverId"), false)?
        };
        let linked = Linked::load(conn, found)?;
        let wanted_options = unique(linked.option_ids.values().flatten().cloned().chain(
            if load.properties {
                linked.property_ids.values().flatten().cloned().collect()
            } else {
                Vec::new()
            },
        ));
        let options = property::load_options(conn, chain, &wanted_options)?;
        let prices = Prices::load(conn, found)?;
        let seo_urls = if ctx.include_seo_urls {
            seo_url::load_for(conn, ctx, "frontend.detail.page", found)?
        } else {
            HashMap::new()
        };
        Ok(Related {
            texts,
            taxes,
            currency_id,
            unit_texts,
            delivery_times,
            manufacturers,
            media,
            linked,
            options,
            prices,
            seo_urls,
        })
    }

    /// The product `id` of its row `product`, as the Store API shows it.
    fn product(
        &self,
        id: &str,
        mut product: Map<String, Value>,
        ctx: &ShopContext,
        load: Load,
        now: time::OffsetDateTime,
    ) -> Value {
        self.translate(id, &mut product);
        let unit = text(&product["unitId"]).map(|u| {
            (
                u.clone(),
                translation::get(&self.unit_texts, &u, UNIT_FIELDS),
            )
        });
        self.price(id, &mut product, unit.as_ref().map(|(_, texts)| texts));
        stock_and_version(&mut product, now);
        product.insert(
            "unit".into(),
            unit.map(|(unit_id, texts)| {
                json!({ "id": unit_id, "shortCode": texts["shortCode"], "name": texts["name"], "translated": texts, "apiAlias": "unit" })
            })
            .unwrap_or(Value::Null),
        );
        self.associations(id, &mut product, ctx, load);
        product.insert("apiAlias".into(), json!("product"));
        Value::Object(product)
    }

    /// Texts: the variant's own, else its parent's.
    fn translate(&self, id: &str, product: &mut Map<String, Value>) {
        let own = translation::get(&self.texts, id, TEXT_FIELDS);
        let parent_texts =
            text(&product["parentId"]).map(|p| translation::get(&self.texts, &p, TEXT_FIELDS));
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
    }

    /// The calculated prices (per piece, per tier, the cheapest), the stored `price` and
    /// the tax; the price columns of the row go.
    fn price(&self, id: &str, product: &mut Map<String, Value>, unit: Option<&Map<String, Value>>) {
        let tax = text(&product["taxId"])
            .and_then(|t| self.taxes.get(&t))
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
        let reference = reference_of(product, unit);
        let regulation_gross = self
            .prices
            .regulation
            .get(id)
            .copied()
            .map(|r| r.min(gross));
        let calculated = price::calculated(
            gross,
            1,
            &tax,
            list_gross,
            regulation_gross,
            reference.as_ref(),
        );
        let product_tiers = self.prices.tiers.get(id).cloned().unwrap_or_default();
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
        let cheapest_price = self.cheapest_price(
            id,
            &calculated,
            &tax,
            reference.as_ref(),
            !product_tiers.is_empty(),
        );
        product.insert("calculatedPrice".into(), calculated);
        product.insert("calculatedPrices".into(), json!(calculated_prices));
        product.insert("calculatedCheapestPrice".into(), cheapest_price);
        let currency_id = &self.currency_id;
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
    }

    /// `calculatedCheapestPrice`: of a parent its cheapest variant's, else `calculated`.
    fn cheapest_price(
        &self,
        id: &str,
        calculated: &Value,
        tax: &Tax,
        reference: Option<&Reference>,
        has_tiers: bool,
    ) -> Value {
        let mut cheapest_price = match self.prices.cheapest.get(id) {
            Some((variant, min, max)) => {
                let mut price = price::calculated(*min, 1, tax, None, None, reference);
                price["hasRange"] = json!(min != max || has_tiers);
                price["variantId"] = json!(variant);
                price
            }
            None => {
                let mut price = calculated.clone();
                price["hasRange"] = json!(has_tiers);
                price["variantId"] = Value::Null;
                price
            }
        };
        cheapest_price["apiAlias"] = json!("calculated_cheapest_price");
        cheapest_price
    }

    /// Delivery time, manufacturer, media, options, properties, categories, SEO URLs
    /// and states.
    fn associations(
        &self,
        id: &str,
        product: &mut Map<String, Value>,
        ctx: &ShopContext,
        load: Load,
    ) {
        let by_field = |field: &str, map: &HashMap<String, Value>| {
            text(&product[field])
                .and_then(|key| map.get(&key).cloned())
                .unwrap_or(Value::Null)
        };
        let delivery_time = by_field("deliveryTimeId", &self.delivery_times);
        let manufacturer = by_field("manufacturerId", &self.manufacturers);
        let cover = by_field("coverId", &self.media.covers);
        product.insert("deliveryTime".into(), delivery_time);
        product.insert("manufacturer".into(), manufacturer);
        product.insert("cover".into(), cover);
        if load.media {
            product.insert(
                "media".into(),
                json!(self.media.by_product.get(id).cloned().unwrap_or_default()),
            );
        }
        let options_of = |links: &Links| {
            let mut options: Vec<Value> = links
                .get(id)
                .into_iter()
                .flatten()
                .filter_map(|o| self.options.get(o).cloned())
                .collect();
            property::sort_options(&mut options);
            json!(options)
        };
        product.insert("options".into(), options_of(&self.linked.option_ids));
        product.insert("optionIds".into(), string_list(&self.linked.option_ids, id));
        product.insert(
            "propertyIds".into(),
            string_list(&self.linked.property_ids, id),
        );
        if load.properties {
            product.insert("properties".into(), options_of(&self.linked.property_ids));
        }
        product.insert(
            "categoryIds".into(),
            string_list(&self.linked.category_ids, id),
        );
        product.insert(
            "categoryTree".into(),
            string_list(&self.linked.category_tree, id),
        );
        if ctx.include_seo_urls {
            product.insert(
                "seoUrls".into(),
                json!(self.seo_urls.get(id).cloned().unwrap_or_default()),
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
    }
}

/// Availability, the largest quantity that may be bought, whether the product is new,
/// and its version ids.
fn stock_and_version(product: &mut Map<String, Value>, now: time::OffsetDateTime) {
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
}

/// The reference price's units, when the product has them and a unit.
fn reference_of(
    product: &Map<String, Value>,
    unit: Option<&Map<String, Value>>,
) -> Option<Reference> {
    match (
        product["purchaseUnit"].as_f64(),
        product["referenceUnit"].as_f64(),
        unit,
    ) {
        (Some(purchase_unit), Some(reference_unit), Some(unit)) => Some(Reference {
            purchase_unit,
            reference_unit,
            unit_name: unit["name"].as_str().unwrap_or_default().to_owned(),
        }),
        _ => None,
    }
}

fn system_currency(conn: &Connection) -> Option<String> {
    conn.query_row(
        "SELECT id FROM currency WHERE is_system_default = 1",
        [],
        |r| r.get(0),
    )
    .ok()
}

/// The ids linked to each product of a page.
struct Linked {
    option_ids: Links,
    property_ids: Links,
    category_ids: Links,
    category_tree: Links,
}

impl Linked {
    fn load(conn: &Connection, found: &[String]) -> rusqlite::Result<Linked> {
        let in_products = |table: &str, column: &str| {
            pairs(
                conn,
                &format!("SELECT product_id, {column} FROM {table} WHERE product_id IN (SELECT value FROM json_each(?1))"),
                found,
            )
        };
        Ok(Linked {
            option_ids: in_products("product_option", "option_id")?,
            property_ids: in_products("product_property", "option_id")?,
            category_ids: in_products("product_category", "category_id")?,
            category_tree: in_products("product_category_tree", "category_id")?,
        })
    }
}

fn load_taxes(conn: &Connection) -> rusqlite::Result<HashMap<String, Tax>> {
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
    Ok(taxes)
}

/// Delivery times by id, translated.
fn load_delivery_times(
    conn: &Connection,
    ctx: &ShopContext,
    delivery_ids: &[String],
) -> rusqlite::Result<HashMap<String, Value>> {
    let delivery_texts = translation::load(
        conn,
        "delivery_time_translation",
        "delivery_time_id",
        NAME,
        delivery_ids,
        &ctx.languages,
    )?;
    let mut delivery_times: HashMap<String, Value> = HashMap::new();
    let mut delivery_statement =
        conn.prepare_cached("SELECT id, min, max, unit FROM delivery_time WHERE id IN (SELECT value FROM json_each(?1))")?;
    for row in delivery_statement.query_map([json_ids(delivery_ids)], |r| {
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
    Ok(delivery_times)
}

/// `product_media` rows with their media.
struct ProductMedia {
    /// By the row's id (a product's `coverId` names one).
    covers: HashMap<String, Value>,
    /// Every row of a product (with [`Load::media`]).
    by_product: HashMap<String, Vec<Value>>,
}

/// `product_media` with their media. `ids` are products (`all`: every medium of each)
/// or `product_media` ids (the covers).
fn load_media(
    conn: &Connection,
    ctx: &ShopContext,
    ids: &[String],
    all: bool,
) -> rusqlite::Result<ProductMedia> {
    let mut media_statement = conn.prepare_cached(if all {
        "SELECT id, product_id, media_id, position FROM product_media WHERE product_id IN (SELECT value FROM json_each(?1)) ORDER BY position"
    } else {
        "SELECT id, product_id, media_id, position FROM product_media WHERE id IN (SELECT value FROM json_each(?1))"
    })?;
    let media_rows = media_statement
        .query_map([json_ids(ids)], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let media_ids = unique(media_rows.iter().map(|m| m.2.clone()));
    let media = media::entity::load(conn, &ctx.languages, &ctx.base_url, &media_ids)?;
    let mut covers: HashMap<String, Value> = HashMap::new();
    let mut product_media: HashMap<String, Vec<Value>> = HashMap::new();
    for (id, product_id, media_id, position) in media_rows {
        let entry = json!({
            "id": id, "productId": product_id, "mediaId": media_id, "position": position,
            "media": media.get(&media_id).cloned().unwrap_or(Value::Null), "apiAlias": "product_media",
        });
        covers.insert(id, entry.clone());
        product_media.entry(product_id).or_default().push(entry);
    }
    Ok(ProductMedia {
        covers,
        by_product: product_media,
    })
}

/// Advanced prices, the cheapest price of the last 30 days and the cheapest variant of
/// the products of a page.
struct Prices {
    /// `(quantity start, quantity end, gross)` per product, by quantity.
    tiers: HashMap<String, Vec<(i64, Option<i64>, f64)>>,
    /// The cheapest price of the last 30 days (EU price indication directive).
    regulation: HashMap<String, f64>,
    /// Of each parent: its cheapest active variant, and the lowest and highest price.
    cheapest: HashMap<String, (String, f64, f64)>,
}

impl Prices {
    fn load(conn: &Connection, found: &[String]) -> rusqlite::Result<Prices> {
        let mut tiers: HashMap<String, Vec<(i64, Option<i64>, f64)>> = HashMap::new();
        let mut tier_statement = conn.prepare_cached(
            "SELECT product_id, quantity_start, quantity_end, price_gross FROM product_price
             WHERE product_id IN (SELECT value FROM json_each(?1)) ORDER BY quantity_start",
        )?;
        for row in tier_statement.query_map([json_ids(found)], |r| {
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
        let mut regulation: HashMap<String, f64> = HashMap::new();
        let mut history_statement = conn.prepare_cached(
            "SELECT product_id, MIN(price_gross) FROM product_price_history
             WHERE product_id IN (SELECT value FROM json_each(?1)) AND valid_from >= ?2 GROUP BY product_id",
        )?;
        let since = (time::OffsetDateTime::now_utc() - time::Duration::days(30))
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default();
        for row in history_statement.query_map(rusqlite::params![json_ids(found), since], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, f64>(1)?))
        })? {
            let (product_id, gross) = row?;
            regulation.insert(product_id, gross);
        }
        let mut cheapest: HashMap<String, (String, f64, f64)> = HashMap::new();
        let mut cheapest_statement = conn.prepare_cached(
            "SELECT c.parent_id,
                    (SELECT v.id FROM product v WHERE v.parent_id = c.parent_id AND v.active = 1 ORDER BY v.price_gross, v.product_number LIMIT 1),
                    MIN(c.price_gross), MAX(c.price_gross)
             FROM product c WHERE c.parent_id IN (SELECT value FROM json_each(?1)) AND c.active = 1 GROUP BY c.parent_id",
        )?;
        for row in cheapest_statement.query_map([json_ids(found)], |r| {
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
        Ok(Prices {
            tiers,
            regulation,
            cheapest,
        })
    }
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
