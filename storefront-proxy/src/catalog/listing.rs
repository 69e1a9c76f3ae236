//! Product listings (`product_listing`): a category's products, search results and
//! search suggestions, with the listing filters (price, properties, manufacturer,
//! rating, free shipping), the sortings of spec section 9, pagination (default limit
//! 10) and aggregations.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, LazyLock, Mutex};

use axum::extract::{Path, State};
use axum::Json;
use rusqlite::{Connection, OptionalExtension};
use serde_json::{json, Map, Value};

use super::criteria::{self, Criteria, Sql};
use super::query::{self, Selection};
use super::{invalid_id, listing_index, load_of, product, property};
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::translation;
use crate::storage::{is_id, json_ids};
use crate::store_api::RequestParams;
use crate::store_api::ShopContext;

/// Products per page when the request sets no limit (spec section 9).
pub const DEFAULT_LIMIT: i64 = 10;

/// The sortings clients may ask for by key (`order`), with their `ORDER BY`.
/// `{t}` is the table alias (`query::listing_alias`).
const SORTINGS: &[(&str, &str, bool)] = &[
    (
        "name-asc",
        "COALESCE(tc.name, tf.name) COLLATE NOCASE ASC",
        true,
    ),
    (
        "name-desc",
        "COALESCE(tc.name, tf.name) COLLATE NOCASE DESC",
        true,
    ),
    ("price-asc", "{t}.listing_price ASC", false),
    ("price-desc", "{t}.listing_price DESC", false),
    ("topseller", "{t}.sales DESC", false),
    ("newest", "{t}.release_date DESC", false),
    ("score", "s.score ASC", false),
];

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    Category,
    Search,
    Suggest,
}

/// A parsed listing request.
#[derive(Debug)]
pub struct ListingRequest {
    kind: Kind,
    criteria: Criteria,
    sorting: Option<String>,
    manufacturers: Vec<String>,
    properties: Vec<String>,
    min_price: Option<f64>,
    max_price: Option<f64>,
    rating: Option<i64>,
    shipping_free: bool,
    /// `manufacturer-filter`, `price-filter`, `rating-filter`, `shipping-free-filter`,
    /// `property-filter`: false drops the filter and its aggregation.
    enabled: BTreeMap<&'static str, bool>,
    no_aggregations: bool,
    only_aggregations: bool,
    search: Option<String>,
}

fn id_list(value: Option<&Value>) -> Vec<String> {
    let items: Vec<String> = match value {
        Some(Value::String(s)) => s.split('|').map(str::to_owned).collect(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    // Ids that are not ids cannot match anything; Shopware drops them too.
    items
        .into_iter()
        .map(|s| s.trim().to_lowercase())
        .filter(|s| is_id(s))
        .collect()
}

fn non_negative(params: &Map<String, Value>, key: &str) -> Result<Option<f64>, ApiError> {
    match params.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(value) => criteria::number(value)
            .filter(|n| *n >= 0.0)
            .map(Some)
            .ok_or_else(|| {
                ApiError::bad_request(
                    "FRAMEWORK__INVALID_LISTING_FILTER",
                    format!("{key} must be a number of at least 0."),
                )
                .at(&format!("/{key}"))
            }),
    }
}

/// The listing sorting `order` names, if any (`score` only for a search).
fn requested_sorting(params: &Map<String, Value>, kind: Kind) -> Result<Option<String>, ApiError> {
    Ok(match params.get("order").filter(|v| !v.is_null()) {
        Some(Value::String(key)) if !key.is_empty() => {
            if !SORTINGS.iter().any(|(k, _, _)| k == key)
                || (key == "score" && kind == Kind::Category)
            {
                return Err(ApiError::bad_request(
                    "PRODUCT__SORTING_NOT_FOUND",
                    format!("Could not find sorting with key \"{key}\""),
                )
                .at("/order"));
            }
            Some(key.clone())
        }
        Some(Value::String(_)) => None,
        Some(_) => {
            return Err(ApiError::bad_request(
                "PRODUCT__SORTING_NOT_FOUND",
                "The order must be a sorting key.",
            )
            .at("/order"))
        }
        None => None,
    })
}

/// The search term of a search or suggestion (required there), `None` for a category.
fn search_term(params: &Map<String, Value>, kind: Kind) -> Result<Option<String>, ApiError> {
    Ok(match kind {
        Kind::Category => None,
        Kind::Search | Kind::Suggest => {
            let term = params
                .get("search")
                .and_then(|v| v.as_str())
                .map(str::trim)
                .filter(|t| !t.is_empty());
            Some(
                term.ok_or_else(|| {
                    ApiError::bad_request(
                        "FRAMEWORK__MISSING_REQUEST_PARAMETER",
                        "Parameter \"search\" is missing.",
                    )
                    .at("/search")
                })?
                .to_owned(),
            )
        }
    })
}

/// The `rating` filter: at least this many stars, 0 to 5.
fn rating(params: &Map<String, Value>) -> Result<Option<i64>, ApiError> {
    Ok(match params.get("rating") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.is_empty() => None,
        Some(value) => Some(
            criteria::integer(value)
                .filter(|r| (0..=5).contains(r))
                .ok_or_else(|| {
                    ApiError::bad_request(
                        "FRAMEWORK__INVALID_LISTING_FILTER",
                        "rating must be a number from 0 to 5.",
                    )
                    .at("/rating")
                })?,
        ),
    })
}

/// Reads a listing request from the body and query parameters.
pub fn parse(params: &Map<String, Value>, kind: Kind) -> Result<ListingRequest, ApiError> {
    let mut criteria = criteria::parse(params, "product", &query::product_field)?;
    criteria.limit.get_or_insert(DEFAULT_LIMIT);
    let sorting = requested_sorting(params, kind)?;
    let search = search_term(params, kind)?;
    let flag = |key: &str| params.get(key).is_some();
    let mut enabled = BTreeMap::new();
    for (key, name) in [
        ("manufacturer-filter", "manufacturer"),
        ("price-filter", "price"),
        ("rating-filter", "rating"),
        ("shipping-free-filter", "shipping-free"),
        ("property-filter", "properties"),
    ] {
        enabled.insert(
            name,
            params.get(key).and_then(criteria::boolean).unwrap_or(true),
        );
    }
    let rating = rating(params)?;
    Ok(ListingRequest {
        kind,
        sorting,
        manufacturers: id_list(params.get("manufacturer")),
        properties: id_list(params.get("properties")),
        min_price: non_negative(params, "min-price")?,
        max_price: non_negative(params, "max-price")?.filter(|max| *max > 0.0),
        rating,
        shipping_free: params
            .get("shipping-free")
            .and_then(criteria::boolean)
            .unwrap_or(false),
        enabled,
        no_aggregations: flag("no-aggregations") || kind == Kind::Suggest,
        only_aggregations: flag("only-aggregations"),
        search,
        criteria,
    })
}

fn enabled(request: &ListingRequest, name: &str) -> bool {
    request.enabled.get(name).copied().unwrap_or(true)
}

/// The requested property options by property group (options of one group are
/// alternatives; groups must all match). Unknown options are left out.
fn option_groups(
    conn: &Connection,
    request: &ListingRequest,
) -> rusqlite::Result<BTreeMap<String, Vec<String>>> {
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if !enabled(request, "properties") || request.properties.is_empty() {
        return Ok(groups);
    }
    let mut statement =
        conn.prepare_cached("SELECT property_group_id, id FROM property_group_option WHERE id IN (SELECT value FROM json_each(?1))")?;
    for row in statement.query_map([json_ids(&request.properties)], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })? {
        let (group, option) = row?;
        groups.entry(group).or_default().push(option);
    }
    Ok(groups)
}

/// The listing filters for the in-memory index (`listing_index`), as `filters` has them.
fn index_filters<'a>(
    conn: &Connection,
    request: &'a ListingRequest,
) -> rusqlite::Result<listing_index::Filters<'a>> {
    let price = enabled(request, "price");
    Ok(listing_index::Filters {
        manufacturers: if enabled(request, "manufacturer") {
            &request.manufacturers
        } else {
            &[]
        },
        option_groups: option_groups(conn, request)?,
        min_price: request.min_price.filter(|_| price),
        max_price: request.max_price.filter(|_| price),
        rating: request.rating.filter(|_| enabled(request, "rating")),
        shipping_free: request.shipping_free && enabled(request, "shipping-free"),
    })
}

/// The page of ids and the total from the in-memory index, when the request has
/// nothing the index does not know (generic criteria filters, ids, a term, a
/// criteria sort instead of a sorting key); `None` otherwise.
fn index_select(
    conn: &Connection,
    ctx: &ShopContext,
    request: &ListingRequest,
    category_id: Option<&str>,
    search: Option<&str>,
    sorting: Option<&str>,
) -> rusqlite::Result<Option<(Vec<String>, usize)>> {
    let criteria = &request.criteria;
    let (Some(sorting), Some(limit)) = (sorting, criteria.limit) else {
        return Ok(None);
    };
    if !criteria.condition.text.is_empty() || criteria.ids.is_some() || criteria.term.is_some() {
        return Ok(None);
    }
    let Some((_, order_by, uses_names)) = SORTINGS.iter().find(|(key, _, _)| *key == sorting)
    else {
        return Ok(None);
    };
    let order_by = order_by.replace("{t}", "p");
    let page = listing_index::Page {
        category_id,
        search,
        filters: index_filters(conn, request)?,
        order_by: (sorting != "score").then_some((order_by.as_str(), *uses_names)),
        offset: criteria.offset().max(0) as usize,
        limit: limit.max(0) as usize,
    };
    listing_index::select(conn, &ctx.languages, &page).map(Some)
}

/// The listing filters as SQL over the alias `t` (`p` or the listing index `pct`).
fn filters(conn: &Connection, request: &ListingRequest, t: &str) -> rusqlite::Result<Sql> {
    let id = if t == "pct" { "pct.product_id" } else { "p.id" };
    let mut sql = Sql::default();
    let and = |sql: &mut Sql| {
        if !sql.text.is_empty() {
            sql.push(" AND ");
        }
    };
    if enabled(request, "manufacturer") && !request.manufacturers.is_empty() {
        and(&mut sql);
        sql.push(&format!(
            "{t}.manufacturer_id IN (SELECT value FROM json_each("
        ))
        .bind(json_ids(&request.manufacturers))
        .push("))");
    }
    if enabled(request, "properties") && !request.properties.is_empty() {
        for options in option_groups(conn, request)?.values() {
            and(&mut sql);
            let list = json_ids(options);
            // Products with the option as a property, or whose variants have it.
            sql.push(&format!("{id} IN (SELECT x.product_id FROM product_property x WHERE x.option_id IN (SELECT value FROM json_each("))
                .bind(list.clone())
                .push(")) UNION ALL SELECT v.parent_id FROM product_option x JOIN product v ON v.id = x.product_id WHERE v.active = 1 AND x.option_id IN (SELECT value FROM json_each(")
                .bind(list)
                .push(")))");
        }
    }
    if enabled(request, "price") {
        if let Some(min) = request.min_price {
            and(&mut sql);
            sql.push(&format!("{t}.listing_price >= ")).bind(min);
        }
        if let Some(max) = request.max_price {
            and(&mut sql);
            sql.push(&format!("{t}.listing_price <= ")).bind(max);
        }
    }
    if enabled(request, "rating") {
        if let Some(rating) = request.rating {
            and(&mut sql);
            sql.push(&format!("{t}.rating_average >= ")).bind(rating);
        }
    }
    if enabled(request, "shipping-free") && request.shipping_free {
        and(&mut sql);
        sql.push(&format!("{t}.shipping_free = 1"));
    }
    Ok(sql)
}

/// The listing's base (category or search, main products) as SQL over the alias `p`
/// (in a category, the listing index under that alias), for aggregations.
fn base(selection: &Selection, chain: &translation::LanguageChain) -> Sql {
    let mut sql = Sql::default();
    if let Some(category) = &selection.category_id {
        sql.push("FROM product_category_tree p WHERE p.category_id = ")
            .bind(category.clone())
            .push(" AND p.main = 1");
        return sql;
    }
    sql.push("FROM product p");
    if let Some(search) = &selection.search {
        sql.push(
            " WHERE p.active = 1 AND p.parent_id IS NULL AND p.id IN (SELECT product_id FROM product_search WHERE product_search MATCH ",
        )
        .bind(search.clone())
        .push(" AND language_id IN (")
        .bind(chain.current.clone())
        .push(", ")
        .bind(chain.fallback.clone())
        .push("))");
    } else {
        sql.push(" WHERE p.active = 1 AND p.parent_id IS NULL");
    }
    sql
}

/// What a listing's aggregations read from its base (a category or a search term,
/// without the request's filters): price and rating statistics, the manufacturers and
/// property options present. Scanning a base of 100,000 products takes tens of
/// milliseconds, so these are kept between requests for as long as
/// `catalog_version` (moved by triggers on every change they depend on) stays put.
#[derive(Debug, Default)]
struct BaseFacts {
    stats: Stats,
    manufacturers: Vec<String>,
    options: Vec<String>,
    /// The manufacturer aggregation's entities, by name, once a listing asked for them,
    /// with the base URL their logos' URLs were made with.
    manufacturer_entities: Mutex<Option<(String, Arc<Vec<Value>>)>>,
    /// The properties aggregation's filterable groups with their options, once asked for.
    property_groups: Mutex<Option<Arc<Vec<Value>>>>,
}

/// Price min, max, avg, sum; rating max; shipping-free max.
type Stats = (
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<i64>,
);

/// Cached facts per database file and base, with the catalogue version they were read at.
type FactsCache = HashMap<String, (i64, Arc<BaseFacts>)>;
static BASE_FACTS: LazyLock<Mutex<FactsCache>> = LazyLock::new(Mutex::default);
/// Bases kept at most (search terms are as many as users type).
const BASE_FACTS_KEPT: usize = 512;

fn base_facts(
    conn: &Connection,
    selection: &Selection,
    chain: &translation::LanguageChain,
) -> rusqlite::Result<Arc<BaseFacts>> {
    let version: i64 = conn.query_row("SELECT n FROM catalog_version WHERE id = 1", [], |r| {
        r.get(0)
    })?;
    let key = format!(
        "{}\n{:?}\n{:?}\n{}\n{}",
        conn.path().unwrap_or_default(),
        selection.category_id,
        selection.search,
        chain.current,
        chain.fallback
    );
    if let Some((at, facts)) = BASE_FACTS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&key)
    {
        if *at == version {
            return Ok(facts.clone());
        }
    }
    // A category's facts are read once per catalogue version for every shopper: outside
    // the request's time budget (#29 item 8). A search's are not (any term makes new ones).
    if selection.search.is_none() {
        return crate::storage::budget::outside_budget(conn, || {
            read_base_facts(conn, selection, chain, key, version)
        });
    }
    read_base_facts(conn, selection, chain, key, version)
}

fn read_base_facts(
    conn: &Connection,
    selection: &Selection,
    chain: &translation::LanguageChain,
    key: String,
    version: i64,
) -> rusqlite::Result<Arc<BaseFacts>> {
    let from = base(selection, chain);
    let id = if selection.category_id.is_some() {
        "p.product_id"
    } else {
        "p.id"
    };
    let mut stats = Sql::default();
    stats.push("SELECT MIN(p.listing_price), MAX(p.listing_price), AVG(p.listing_price), SUM(p.listing_price), MAX(p.rating_average), MAX(p.shipping_free) ");
    stats.append(&from);
    let stats = stats
        .query_map(conn, |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })?
        .into_iter()
        .next()
        .unwrap_or_default();
    let mut manufacturers = Sql::default();
    manufacturers.push("SELECT DISTINCT p.manufacturer_id ");
    manufacturers.append(&from);
    manufacturers.push(" AND p.manufacturer_id IS NOT NULL");
    let manufacturers = manufacturers.query_map(conn, |r| r.get::<_, String>(0))?;
    let mut options = Sql::default();
    options.push(&format!(
        "SELECT x.option_id FROM product_property x WHERE x.product_id IN (SELECT {id} "
    ));
    options.append(&from);
    options.push(&format!(") UNION SELECT x.option_id FROM product v JOIN product_option x ON x.product_id = v.id WHERE v.active = 1 AND v.parent_id IN (SELECT {id} "));
    options.append(&from);
    options.push(")");
    let options = options.query_map(conn, |r| r.get::<_, String>(0))?;
    let facts = Arc::new(BaseFacts {
        stats,
        manufacturers,
        options,
        manufacturer_entities: Mutex::default(),
        property_groups: Mutex::default(),
    });
    let mut cache = BASE_FACTS.lock().unwrap_or_else(|p| p.into_inner());
    if cache.len() >= BASE_FACTS_KEPT {
        cache.clear();
    }
    cache.insert(key, (version, facts.clone()));
    Ok(facts)
}

fn aggregations(
    conn: &Connection,
    ctx: &ShopContext,
    request: &ListingRequest,
    selection: &Selection,
) -> rusqlite::Result<Value> {
    let facts = base_facts(conn, selection, &ctx.languages)?;
    let mut result = Map::new();
    let (min, max, avg, sum, rating, shipping_free) = facts.stats;
    if enabled(request, "price") {
        result.insert("price".into(), json!({ "min": min, "max": max, "avg": avg, "sum": sum, "apiAlias": "price_aggregation" }));
    }
    if enabled(request, "rating") {
        result.insert(
            "rating".into(),
            json!({ "max": rating, "apiAlias": "rating_aggregation" }),
        );
    }
    if enabled(request, "shipping-free") {
        result.insert(
            "shipping-free".into(),
            json!({ "max": shipping_free.unwrap_or(0), "apiAlias": "shipping-free_aggregation" }),
        );
    }
    if enabled(request, "manufacturer") {
        let manufacturers = manufacturer_entities(conn, ctx, &facts)?;
        result.insert(
            "manufacturer".into(),
            entities_aggregation(&manufacturers, "manufacturer_aggregation"),
        );
    }
    if enabled(request, "properties") {
        let groups = property_groups(conn, ctx, &facts)?;
        result.insert(
            "properties".into(),
            entities_aggregation(&groups, "properties_aggregation"),
        );
    }
    Ok(Value::Object(result))
}

/// `{entities, apiAlias}` with a copy of the kept entities (built directly: `json!`
/// would copy them once more through serde).
fn entities_aggregation(entities: &[Value], alias: &str) -> Value {
    let mut aggregation = Map::new();
    aggregation.insert("entities".into(), Value::Array(entities.to_vec()));
    aggregation.insert("apiAlias".into(), alias.into());
    Value::Object(aggregation)
}

/// The base's manufacturers as entities, sorted by name; read once per base, catalogue
/// version and base URL.
fn manufacturer_entities(
    conn: &Connection,
    ctx: &ShopContext,
    facts: &BaseFacts,
) -> rusqlite::Result<Arc<Vec<Value>>> {
    if let Some((base_url, kept)) = &*facts
        .manufacturer_entities
        .lock()
        .unwrap_or_else(|p| p.into_inner())
    {
        if *base_url == ctx.base_url {
            return Ok(kept.clone());
        }
    }
    let mut manufacturers: Vec<Value> =
        product::load_manufacturers(conn, ctx, &facts.manufacturers)?
            .into_values()
            .collect();
    manufacturers.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    let manufacturers = Arc::new(manufacturers);
    *facts
        .manufacturer_entities
        .lock()
        .unwrap_or_else(|p| p.into_inner()) = Some((ctx.base_url.clone(), manufacturers.clone()));
    Ok(manufacturers)
}

/// The base's filterable property groups with their options; read once per base and
/// catalogue version.
fn property_groups(
    conn: &Connection,
    ctx: &ShopContext,
    facts: &BaseFacts,
) -> rusqlite::Result<Arc<Vec<Value>>> {
    if let Some(kept) = &*facts
        .property_groups
        .lock()
        .unwrap_or_else(|p| p.into_inner())
    {
        return Ok(kept.clone());
    }
    let groups: Vec<Value> = property::groups_with_options(conn, &ctx.languages, &facts.options)?
        .into_iter()
        .filter(|g| g["filterable"].as_bool().unwrap_or(false))
        .collect();
    let groups = Arc::new(groups);
    *facts
        .property_groups
        .lock()
        .unwrap_or_else(|p| p.into_inner()) = Some(groups.clone());
    Ok(groups)
}

/// The sortings offered, with translated labels, by priority.
fn available_sortings(
    conn: &Connection,
    ctx: &ShopContext,
    kind: Kind,
) -> rusqlite::Result<Vec<Value>> {
    const LABEL: &[(&str, &str)] = &[("label", "label")];
    let mut statement = conn.prepare_cached(
        "SELECT id, url_key, priority FROM product_sorting WHERE active = 1 ORDER BY priority DESC",
    )?;
    let rows = statement
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let ids: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let labels = translation::load(
        conn,
        "product_sorting_translation",
        "product_sorting_id",
        LABEL,
        &ids,
        &ctx.languages,
    )?;
    Ok(rows
        .into_iter()
        .filter(|(_, key, _)| kind != Kind::Category || key != "score")
        .map(|(id, key, priority)| {
            let translated = translation::get(&labels, &id, LABEL);
            json!({ "id": id, "key": key, "priority": priority, "label": translated["label"], "translated": translated, "apiAlias": "product_sorting" })
        })
        .collect())
}

/// Runs a listing over a category (`category_id`) or the request's search term.
pub fn run(
    conn: &Connection,
    ctx: &ShopContext,
    request: &ListingRequest,
    category_id: Option<&str>,
) -> Result<Value, ApiError> {
    let search = match &request.search {
        Some(term) => match query::match_expression(term) {
            Some(expression) => Some(expression),
            // A term without words finds nothing.
            None => return Ok(empty(request)),
        },
        None => None,
    };
    let alias = query::listing_alias(category_id.is_some());
    let (sorting, order) = listing_order(request, alias);
    let selection = Selection {
        category_id: category_id.map(str::to_owned),
        search,
        filters: filters(conn, request, alias)?,
        order,
        main_only: true,
    };
    let (elements, total) = if request.only_aggregations {
        (Vec::new(), 0)
    } else {
        let fast = index_select(
            conn,
            ctx,
            request,
            category_id,
            selection.search.as_deref(),
            sorting.as_deref(),
        )?;
        let (ids, total) = match fast {
            Some(found) => found,
            None => query::select(conn, &ctx.languages, &selection, &request.criteria, true)?,
        };
        (
            product::load(conn, ctx, &ids, load_of(&request.criteria))?,
            total,
        )
    };
    let aggregations = if request.no_aggregations {
        json!([])
    } else {
        aggregations(conn, ctx, request, &selection)?
    };
    let available_sortings = if request.kind == Kind::Suggest {
        Vec::new()
    } else {
        available_sortings(conn, ctx, request.kind)?
    };
    let current_filters = current_filters(conn, ctx, request, category_id)?;
    let mut body = json!({
        "elements": elements,
        "aggregations": aggregations,
        "page": request.criteria.page,
        "limit": request.criteria.limit,
        "entity": "product",
        "total": total,
        "sorting": sorting,
        "currentFilters": current_filters,
        "availableSortings": available_sortings,
        "apiAlias": "product_listing",
    });
    criteria::apply_includes(&mut body, &request.criteria.includes);
    Ok(body)
}

/// The filters the listing applied (`currentFilters`).
fn current_filters(
    conn: &Connection,
    ctx: &ShopContext,
    request: &ListingRequest,
    category_id: Option<&str>,
) -> rusqlite::Result<Value> {
    let navigation_id = match category_id {
        Some(id) => Some(id.to_owned()),
        None => conn
            .query_row(
                "SELECT navigation_category_id FROM sales_channel WHERE id = ?1",
                [&ctx.sales_channel.id],
                |r| r.get(0),
            )
            .optional()?
            .flatten(),
    };
    let mut current_filters = json!({
        "navigationId": navigation_id,
        "manufacturer": request.manufacturers,
        "price": { "min": request.min_price.unwrap_or(0.0), "max": request.max_price.unwrap_or(0.0) },
        "rating": request.rating,
        "shipping-free": request.shipping_free,
        "properties": request.properties,
    });
    if let Some(term) = &request.search {
        current_filters["search"] = json!(term);
    }
    Ok(current_filters)
}

/// The listing's sorting (the one asked for, else by name in a category and by score
/// in a search, unless the criteria sort) and its `ORDER BY` over the table `alias`.
fn listing_order(request: &ListingRequest, alias: &str) -> (Option<String>, Option<Sql>) {
    let sorting = request.sorting.clone().or_else(|| {
        match (request.kind, request.criteria.order.text.is_empty()) {
            (Kind::Category, true) => Some("name-asc".to_owned()),
            (_, true) => Some("score".to_owned()),
            (_, false) => None,
        }
    });
    let order = sorting
        .as_ref()
        .and_then(|key| SORTINGS.iter().find(|(k, _, _)| k == key))
        .map(|(_, sql, names)| {
            let mut order = Sql::default();
            order.push(&sql.replace("{t}", alias));
            order.uses_translation = *names;
            order
        });
    (sorting, order)
}

/// The answer for a search term without words.
fn empty(request: &ListingRequest) -> Value {
    json!({
        "elements": [],
        "aggregations": [],
        "page": request.criteria.page,
        "limit": request.criteria.limit,
        "entity": "product",
        "total": 0,
        "sorting": request.sorting,
        "currentFilters": {
            "navigationId": null, "manufacturer": [], "price": { "min": 0, "max": 0 }, "rating": null,
            "shipping-free": false, "properties": [], "search": request.search,
        },
        "availableSortings": [],
        "apiAlias": "product_listing",
    })
}

pub fn category_not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "CONTENT__CATEGORY_NOT_FOUND",
        format!("Category \"{id}\" not found."),
    )
}

/// `POST /store-api/product-listing/{categoryId}`
pub async fn category_listing(
    ctx: ShopContext,
    State(app): State<App>,
    Path(category_id): Path<String>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let category_id = category_id.to_lowercase();
    if !is_id(&category_id) {
        return Err(invalid_id(&category_id, "/categoryId"));
    }
    let request = parse(&params, Kind::Category)?;
    let body = app
        .db
        .read(move |conn| {
            let exists: bool = conn.query_row(
                "SELECT EXISTS(SELECT 1 FROM category WHERE id = ?1 AND active = 1)",
                [&category_id],
                |r| r.get(0),
            )?;
            if !exists {
                return Ok(Err(category_not_found(&category_id)));
            }
            Ok(run(conn, &ctx, &request, Some(&category_id)))
        })
        .await??;
    Ok(Json(body))
}

/// `POST /store-api/search?search=…`
pub async fn search(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let request = parse(&params, Kind::Search)?;
    let body = app
        .db
        .read(move |conn| Ok(run(conn, &ctx, &request, None)))
        .await??;
    Ok(Json(body))
}

/// `POST /store-api/search-suggest`: the first matches, without aggregations.
pub async fn suggest(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let request = parse(&params, Kind::Suggest)?;
    let body = app
        .db
        .read(move |conn| Ok(run(conn, &ctx, &request, None)))
        .await??;
    Ok(Json(body))
}
