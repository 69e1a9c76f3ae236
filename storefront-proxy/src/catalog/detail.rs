//! `POST /store-api/product/{id}`: one product with all its associations, and the
//! configurator of its variants (property groups whose options tell whether they
//! combine with the shown variant's other options).

use std::collections::HashSet;

use axum::extract::{Path, State};
use axum::Json;
use rusqlite::{Connection, OptionalExtension};
use serde_json::{json, Value};

use super::{criteria, invalid_id, product, product_not_found, property, query};
use crate::error::ApiResult;
use crate::state::App;
use crate::storage::is_id;
use crate::storage::translation::LanguageChain;
use crate::store_api::RequestParams;
use crate::store_api::ShopContext;

/// The variant a request for a parent shows: an available one, the cheapest first.
fn best_variant(conn: &Connection, parent_id: &str) -> rusqlite::Result<Option<String>> {
    conn.query_row(
        "SELECT id FROM product WHERE parent_id = ?1 AND active = 1
         ORDER BY (is_closeout = 0 OR available_stock >= min_purchase) DESC, price_gross, product_number LIMIT 1",
        [parent_id],
        |r| r.get(0),
    )
    .optional()
}

/// Property groups of the parent's configurator settings with their options, each
/// marked `combinable` when a variant has it together with the selected options of
/// the other groups.
pub fn configurator(
    conn: &Connection,
    chain: &LanguageChain,
    parent_id: &str,
    selected: &[String],
) -> rusqlite::Result<Vec<Value>> {
    let mut statement =
        conn.prepare_cached("SELECT option_id FROM product_configurator_setting WHERE product_id = ?1 ORDER BY position")?;
    let option_ids = statement
        .query_map([parent_id], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    let mut variants_statement = conn.prepare_cached(
        "SELECT v.id, po.option_id FROM product v JOIN product_option po ON po.product_id = v.id WHERE v.parent_id = ?1 AND v.active = 1",
    )?;
    let mut variants: std::collections::HashMap<String, HashSet<String>> =
        std::collections::HashMap::new();
    for row in variants_statement.query_map([parent_id], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })? {
        let (variant, option) = row?;
        variants.entry(variant).or_default().insert(option);
    }
    let mut groups = property::groups_with_options(conn, chain, &option_ids)?;
    for group in &mut groups {
        let group_id = group["id"].clone();
        let Some(options) = group["options"].as_array_mut() else {
            continue;
        };
        let option_group: Vec<String> = options
            .iter()
            .filter_map(|o| o["id"].as_str().map(str::to_owned))
            .collect();
        // The selected options of the other groups.
        let others: Vec<&String> = selected
            .iter()
            .filter(|s| !option_group.contains(s))
            .collect();
        for option in options.iter_mut() {
            let id = option["id"].as_str().unwrap_or_default().to_owned();
            let combinable = variants
                .values()
                .any(|set| set.contains(&id) && others.iter().all(|o| set.contains(*o)));
            option["combinable"] = json!(combinable);
            option["groupId"] = group_id.clone();
            // Shopware sends the option's group association, null where not loaded
            // (the option sits inside its group here).
            if option.get("group").is_none() {
                option["group"] = Value::Null;
            }
        }
    }
    Ok(groups)
}

pub async fn detail(
    ctx: ShopContext,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let id = id.to_lowercase();
    if !is_id(&id) {
        return Err(invalid_id(&id, "/productId"));
    }
    let mut criteria = criteria::parse(&params, "product", &query::product_field)?;
    let includes = std::mem::take(&mut criteria.includes);
    let skip_configurator = params
        .get("skipConfigurator")
        .and_then(criteria::boolean)
        .unwrap_or(false);
    let requested = id.clone();
    let found = app
        .db
        .read(move |conn| {
            let row: Option<(Option<String>, i64)> = conn
                .query_row("SELECT parent_id, child_count FROM product WHERE id = ?1 AND active = 1", [&requested], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
                .optional()?;
            let Some((parent_id, child_count)) = row else { return Ok(None) };
            let (shown, parent) = match parent_id {
                Some(parent) => (requested.clone(), Some(parent)),
                None if child_count > 0 => match best_variant(conn, &requested)? {
                    Some(variant) => (variant, Some(requested.clone())),
                    None => (requested.clone(), None),
                },
                None => (requested.clone(), None),
            };
            let load = product::Load { media: true, properties: true };
            let Some(product) = product::load(conn, &ctx, &[shown], load)?.into_iter().next() else { return Ok(None) };
            let configurator = match (&parent, skip_configurator) {
                (Some(parent), false) => {
                    let selected: Vec<String> =
                        product["optionIds"].as_array().into_iter().flatten().filter_map(|o| o.as_str().map(str::to_owned)).collect();
                    Value::Array(configurator(conn, &ctx.languages, parent, &selected)?)
                }
                _ => json!([]),
            };
            Ok(Some(json!({ "product": product, "configurator": configurator, "apiAlias": "product_detail" })))
        })
        .await?;
    let mut body = found.ok_or_else(|| product_not_found(&id))?;
    criteria::apply_includes(&mut body, &includes);
    Ok(Json(body))
}
