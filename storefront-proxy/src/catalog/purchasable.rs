//! A product as the cart, the order and the shopping lists need it: what it costs at a
//! quantity, whether and how many can be bought, how it ships, what the line shows.
//! Loaded for a batch of ids by [`load`] (a fixed set of queries whatever the number of
//! ids: the product rows with tax, delivery time and cover joined, then their names,
//! advanced prices, options and cover media); typed, so no caller reads product JSON.

use std::collections::{HashMap, HashSet};

use rusqlite::{Connection, Row};
use serde_json::Value;

use super::price::Tax;
use super::product::DEFAULT_MAX_PURCHASE;
use super::property;
use crate::media;
use crate::storage::json_ids;
use crate::storage::translation;
use crate::store_api::ShopContext;

/// How long delivery takes (`delivery_time`), with its translated name.
#[derive(Debug, Clone, PartialEq)]
pub struct DeliveryTime {
    pub name: Option<String>,
    pub min: i64,
    pub max: i64,
    pub unit: String,
}

/// One advanced price: `price` per item up to `quantity` items.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tier {
    pub quantity: i64,
    pub price: f64,
}

/// A variant's option as a line names it: its group's name and its own.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionName {
    pub group: Option<String>,
    pub option: Option<String>,
}

/// A product that can be put in a cart.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Purchasable {
    pub id: String,
    pub number: String,
    /// The translated name, the parent's when the variant has none.
    pub name: Option<String>,
    pub active: bool,
    pub digital: bool,
    pub manufacturer_id: Option<String>,
    pub tax_id: Option<String>,
    pub tax: Tax,
    /// Gross unit price.
    pub price: f64,
    /// Gross list price, when it is above the price.
    pub list_price: Option<f64>,
    /// Advanced prices by quantity, ascending.
    pub tiers: Vec<Tier>,
    /// Available stock.
    pub stock: i64,
    pub closeout: bool,
    pub restock_time: Option<i64>,
    pub shipping_free: bool,
    pub min_purchase: i64,
    pub max_purchase: Option<i64>,
    pub purchase_steps: i64,
    pub width: Option<f64>,
    pub height: Option<f64>,
    pub length: Option<f64>,
    pub weight: Option<f64>,
    pub top_seller: bool,
    /// Released within the last 30 days.
    pub is_new: bool,
    /// A parent with variants is not bought itself.
    pub child_count: i64,
    pub delivery_time: Option<DeliveryTime>,
    /// The cover's media entity, as the store API answers it.
    pub cover: Option<Value>,
    /// Ordered by group position, group, option position and name.
    pub options: Vec<OptionName>,
}

impl Purchasable {
    /// Whether it may be put on a shopping list: active, and no parent of variants.
    pub fn listable(&self) -> bool {
        self.active && self.child_count == 0
    }

    /// Whether it can be bought at all (a closeout needs its minimum in stock).
    pub fn available(&self) -> bool {
        !self.closeout || self.stock >= self.min_purchase
    }

    /// The most one order may take: the product's maximum, for a closeout also the stock.
    pub fn calculated_max_purchase(&self) -> i64 {
        let max = self.max_purchase.unwrap_or(DEFAULT_MAX_PURCHASE);
        if self.closeout {
            max.min(self.stock.max(0))
        } else {
            max
        }
    }

    /// The gross unit price for `quantity`: the advanced price tier it falls in (the
    /// last one above all tiers), else the price.
    pub fn unit_price(&self, quantity: i64) -> f64 {
        match self
            .tiers
            .iter()
            .find(|t| t.quantity >= quantity)
            .or(self.tiers.last())
        {
            Some(tier) => tier.price,
            None => self.price,
        }
    }
}

/// The product row's columns (`p` the product, `t` its tax, `d` its delivery time,
/// `m` its cover's product media row).
const COLUMNS: &str = "p.id, p.parent_id, p.product_number, p.type, p.manufacturer_id, p.tax_id,
    t.id, t.tax_rate, t.name, p.price_gross, p.list_price_gross, p.available_stock, p.is_closeout, p.restock_time,
    p.shipping_free, p.min_purchase, p.max_purchase, p.purchase_steps, p.width, p.height, p.length, p.weight,
    p.mark_as_topseller, p.release_date, p.child_count, d.id, d.min, d.max, d.unit, m.media_id, p.active";

/// What the product row holds besides the [`Purchasable`]: ids to look up next.
struct Keys {
    parent_id: Option<String>,
    delivery_time_id: Option<String>,
    cover_media_id: Option<String>,
}

fn is_new(release_date: Option<String>, now: time::OffsetDateTime) -> bool {
    release_date
        .and_then(|d| {
            time::OffsetDateTime::parse(&d, &time::format_description::well_known::Rfc3339).ok()
        })
        .is_some_and(|d| d <= now && now - d <= time::Duration::days(30))
}

fn from_row(r: &Row, now: time::OffsetDateTime) -> rusqlite::Result<(Purchasable, Keys)> {
    let price: f64 = r.get(9)?;
    let delivery_time = match r.get::<_, Option<String>>(25)? {
        Some(_) => Some(DeliveryTime {
            name: None,
            min: r.get(26)?,
            max: r.get(27)?,
            unit: r.get(28)?,
        }),
        None => None,
    };
    let product = Purchasable {
        id: r.get(0)?,
        number: r.get(2)?,
        digital: r.get::<_, Option<String>>(3)?.as_deref() == Some("digital"),
        manufacturer_id: r.get(4)?,
        tax_id: r.get(5)?,
        tax: Tax {
            id: r.get::<_, Option<String>>(6)?.unwrap_or_default(),
            rate: r.get::<_, Option<f64>>(7)?.unwrap_or(0.0),
            name: r.get::<_, Option<String>>(8)?.unwrap_or_default(),
        },
        price,
        list_price: r.get::<_, Option<f64>>(10)?.filter(|list| *list > price),
        stock: r.get(11)?,
        closeout: r.get::<_, i64>(12)? == 1,
        restock_time: r.get(13)?,
        shipping_free: r.get::<_, i64>(14)? == 1,
        min_purchase: r.get(15)?,
        max_purchase: r.get(16)?,
        purchase_steps: r.get(17)?,
        width: r.get(18)?,
        height: r.get(19)?,
        length: r.get(20)?,
        weight: r.get(21)?,
        top_seller: r.get::<_, i64>(22)? == 1,
        is_new: is_new(r.get(23)?, now),
        child_count: r.get(24)?,
        active: r.get::<_, i64>(30)? == 1,
        delivery_time,
        ..Purchasable::default()
    };
    let keys = Keys {
        parent_id: r.get(1)?,
        delivery_time_id: r.get(25)?,
        cover_media_id: r.get(29)?,
    };
    Ok((product, keys))
}

fn rows(conn: &Connection, ids: &[String]) -> rusqlite::Result<Vec<(Purchasable, Keys)>> {
    let now = time::OffsetDateTime::now_utc();
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM product p LEFT JOIN tax t ON t.id = p.tax_id
         LEFT JOIN delivery_time d ON d.id = p.delivery_time_id LEFT JOIN product_media m ON m.id = p.cover_id
         WHERE p.id IN (SELECT value FROM json_each(?1))"
    ))?;
    let found = statement
        .query_map([json_ids(ids)], |r| from_row(r, now))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(found)
}

fn unique<'a>(ids: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut seen = HashSet::new();
    ids.filter(|id| seen.insert(*id)).cloned().collect()
}

/// Advanced prices per product: each tier up to its end (open tiers up to their start).
fn tiers(conn: &Connection, ids: &[String]) -> rusqlite::Result<HashMap<String, Vec<Tier>>> {
    let mut statement = conn.prepare_cached(
        "SELECT product_id, COALESCE(quantity_end, quantity_start), price_gross FROM product_price
         WHERE product_id IN (SELECT value FROM json_each(?1)) ORDER BY quantity_start",
    )?;
    let mut found: HashMap<String, Vec<Tier>> = HashMap::new();
    for row in statement.query_map([json_ids(ids)], |r| {
        Ok((
            r.get::<_, String>(0)?,
            Tier {
                quantity: r.get(1)?,
                price: r.get(2)?,
            },
        ))
    })? {
        let (product_id, tier) = row?;
        found.entry(product_id).or_default().push(tier);
    }
    Ok(found)
}

/// The option names of each product, in the catalogue's order.
fn options(
    conn: &Connection,
    ctx: &ShopContext,
    ids: &[String],
) -> rusqlite::Result<HashMap<String, Vec<OptionName>>> {
    let mut statement =
        conn.prepare_cached("SELECT product_id, option_id FROM product_option WHERE product_id IN (SELECT value FROM json_each(?1))")?;
    let pairs = statement.query_map([json_ids(ids)], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })?;
    let pairs = pairs.collect::<Result<Vec<_>, _>>()?;
    let options = property::load_options(
        conn,
        &ctx.languages,
        &unique(pairs.iter().map(|(_, option)| option)),
    )?;
    let mut by_product: HashMap<String, Vec<Value>> = HashMap::new();
    for (product_id, option_id) in pairs {
        if let Some(option) = options.get(&option_id) {
            by_product
                .entry(product_id)
                .or_default()
                .push(option.clone());
        }
    }
    let text = |value: &Value| value.as_str().map(str::to_owned);
    Ok(by_product
        .into_iter()
        .map(|(product_id, mut options)| {
            property::sort_options(&mut options);
            let names = options
                .iter()
                .map(|o| OptionName {
                    group: text(&o["group"]["translated"]["name"]),
                    option: text(&o["translated"]["name"]),
                })
                .collect();
            (product_id, names)
        })
        .collect())
}

const NAME: &[(&str, &str)] = &[("name", "name")];

/// Loads the products `ids` as purchasables (in that order; unknown ids are left out).
pub fn load(
    conn: &Connection,
    ctx: &ShopContext,
    ids: &[String],
) -> rusqlite::Result<Vec<Purchasable>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut found = rows(conn, ids)?;
    let with_parents = unique(
        found
            .iter()
            .flat_map(|(p, keys)| [Some(&p.id), keys.parent_id.as_ref()])
            .flatten(),
    );
    let names = translation::load(
        conn,
        "product_translation",
        "product_id",
        NAME,
        &with_parents,
        &ctx.languages,
    )?;
    let delivery_ids = unique(
        found
            .iter()
            .filter_map(|(_, keys)| keys.delivery_time_id.as_ref()),
    );
    let delivery_names = translation::load(
        conn,
        "delivery_time_translation",
        "delivery_time_id",
        NAME,
        &delivery_ids,
        &ctx.languages,
    )?;
    let media_ids = unique(
        found
            .iter()
            .filter_map(|(_, keys)| keys.cover_media_id.as_ref()),
    );
    let media = media::entity::load(conn, &ctx.languages, &ctx.base_url, &media_ids)?;
    let product_ids: Vec<String> = found.iter().map(|(p, _)| p.id.clone()).collect();
    let mut tiers = tiers(conn, &product_ids)?;
    let mut options = options(conn, ctx, &product_ids)?;
    let name_of = |id: &str| {
        translation::get(&names, id, NAME)["name"]
            .as_str()
            .map(str::to_owned)
    };
    for (product, keys) in &mut found {
        product.name = name_of(&product.id).or_else(|| keys.parent_id.as_deref().and_then(name_of));
        if let (Some(time), Some(id)) = (&mut product.delivery_time, &keys.delivery_time_id) {
            time.name = translation::get(&delivery_names, id, NAME)["name"]
                .as_str()
                .map(str::to_owned);
        }
        product.cover = keys
            .cover_media_id
            .as_ref()
            .and_then(|id| media.get(id).cloned());
        product.tiers = tiers.remove(&product.id).unwrap_or_default();
        product.options = options.remove(&product.id).unwrap_or_default();
    }
    let mut by_id: HashMap<String, Purchasable> =
        found.into_iter().map(|(p, _)| (p.id.clone(), p)).collect();
    Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn product() -> Purchasable {
        Purchasable {
            id: "p".into(),
            price: 10.0,
            min_purchase: 1,
            purchase_steps: 1,
            stock: 5,
            ..Purchasable::default()
        }
    }

    #[test]
    fn the_unit_price_is_the_tier_the_quantity_falls_in() {
        let mut p = product();
        assert_eq!(p.unit_price(3), 10.0);
        p.tiers = vec![
            Tier {
                quantity: 2,
                price: 9.0,
            },
            Tier {
                quantity: 10,
                price: 8.0,
            },
        ];
        assert_eq!(p.unit_price(1), 9.0);
        assert_eq!(p.unit_price(2), 9.0);
        assert_eq!(p.unit_price(3), 8.0);
        assert_eq!(p.unit_price(50), 8.0);
    }

    #[test]
    fn a_closeout_is_limited_by_its_stock() {
        let mut p = product();
        assert!(p.available());
        assert_eq!(p.calculated_max_purchase(), DEFAULT_MAX_PURCHASE);
        p.closeout = true;
        p.max_purchase = Some(20);
        assert_eq!(p.calculated_max_purchase(), 5);
        p.stock = -2;
        assert_eq!(p.calculated_max_purchase(), 0);
        p.min_purchase = 1;
        assert!(!p.available());
        p.closeout = false;
        assert_eq!(p.calculated_max_purchase(), 20);
    }

    #[test]
    fn only_active_products_without_variants_go_on_lists() {
        let mut p = Purchasable {
            active: true,
            ..product()
        };
        assert!(p.listable());
        p.child_count = 2;
        assert!(!p.listable());
        p = Purchasable {
            active: false,
            ..product()
        };
        assert!(!p.listable());
    }

    #[test]
    fn new_means_released_in_the_last_30_days() {
        let now = time::OffsetDateTime::now_utc();
        let day = |days: i64| {
            (now - time::Duration::days(days))
                .format(&time::format_description::well_known::Rfc3339)
                .ok()
        };
        assert!(is_new(day(3), now));
        assert!(!is_new(day(31), now));
        assert!(!is_new(day(-1), now));
        assert!(!is_new(None, now));
    }
}
