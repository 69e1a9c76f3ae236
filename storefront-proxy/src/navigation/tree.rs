//! `POST /store-api/navigation/{activeId}/{rootId}`: the categories below a root, `depth`
//! levels deep plus the branch of the active category, as a tree (`buildTree`, the
//! default) or a flat list. `main-navigation` names the sales channel's root.

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::Json;
use rusqlite::OptionalExtension;
use serde_json::{json, Value};

use super::category::{self, resolve_alias};
use crate::catalog::criteria;
use crate::catalog::invalid_id;
use crate::catalog::listing::category_not_found;
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::{is_id, json_ids};
use crate::store_api::RequestParams;
use crate::store_api::ShopContext;

const MAX_DEPTH: i64 = 10;

fn check_id(id: &str, pointer: &str) -> Result<(), ApiError> {
    if is_id(&id.to_lowercase())
        || matches!(
            id,
            "main-navigation" | "footer-navigation" | "service-navigation" | "home"
        )
    {
        Ok(())
    } else {
        Err(invalid_id(id, pointer))
    }
}

pub async fn navigation(
    ctx: ShopContext,
    State(app): State<App>,
    Path((active_id, root_id)): Path<(String, String)>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    check_id(&active_id, "/activeId")?;
    check_id(&root_id, "/rootId")?;
    let depth = match params.get("depth").filter(|v| !v.is_null()) {
        Some(value) => criteria::integer(value)
            .filter(|d| (1..=MAX_DEPTH).contains(d))
            .ok_or_else(|| {
                ApiError::bad_request(
                    "FRAMEWORK__INVALID_REQUEST_PARAMETER",
                    format!("depth must be a number from 1 to {MAX_DEPTH}."),
                )
                .at("/depth")
            })?,
        None => 2,
    };
    let build_tree = match params.get("buildTree") {
        None | Some(Value::Null) => true,
        Some(Value::Array(_)) | Some(Value::Object(_)) => true,
        Some(value) => criteria::boolean(value).unwrap_or(true),
    };
    let mut includes_only = serde_json::Map::new();
    if let Some(includes) = params.get("includes") {
        includes_only.insert("includes".into(), includes.clone());
    }
    let includes = criteria::parse(&includes_only, "category", &|_| None)?.includes;
    let body = app
        .db
        .read(move |conn| {
            let channel = ctx.sales_channel.id.clone();
            let Some(root) = resolve_alias(conn, &channel, &root_id)? else { return Ok(Ok(Vec::new())) };
            let active = resolve_alias(conn, &channel, &active_id)?.unwrap_or_else(|| root.clone());
            let root_row: Option<(String, i64)> = conn
                .query_row("SELECT path, level FROM category WHERE id = ?1 AND active = 1", [&root], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            let Some((root_path, root_level)) = root_row else { return Ok(Err(category_not_found(&root_id))) };
            let prefix = format!("{root_path}{}{root}|", if root_path.is_empty() { "|" } else { "" });
            // The active category's branch below the root: its ancestors and itself.
            let active_path: Option<String> =
                conn.query_row("SELECT path FROM category WHERE id = ?1", [&active], |r| r.get(0)).optional()?;
            let mut branch: Vec<String> = active_path.unwrap_or_default().split('|').filter(|s| !s.is_empty()).map(str::to_owned).collect();
            branch.push(active.clone());
            let mut statement = conn.prepare_cached(
                "SELECT id FROM category WHERE active = 1 AND visible = 1 AND substr(path, 1, length(?1)) = ?1
                 AND (level <= ?2 OR parent_id IN (SELECT value FROM json_each(?3)))
                 ORDER BY level, position",
            )?;
            let ids = statement
                .query_map(rusqlite::params![prefix, root_level + depth, json_ids(&branch)], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            let categories = category::load(conn, &ctx, &ids)?;
            if !build_tree {
                return Ok(Ok(categories));
            }
            Ok(Ok(tree(categories, &root)))
        })
        .await??;
    let mut body = Value::Array(body);
    criteria::apply_includes(&mut body, &includes);
    Ok(Json(body))
}

/// Nests categories under their parents; answers the root's children.
fn tree(categories: Vec<Value>, root: &str) -> Vec<Value> {
    let mut by_parent: HashMap<String, Vec<Value>> = HashMap::new();
    for category in categories {
        let parent = category["parentId"].as_str().unwrap_or_default().to_owned();
        by_parent.entry(parent).or_default().push(category);
    }
    fn attach(parent: &str, by_parent: &mut HashMap<String, Vec<Value>>) -> Vec<Value> {
        let mut children = by_parent.remove(parent).unwrap_or_default();
        children.sort_by_key(|c| c["position"].as_i64().unwrap_or(0));
        for child in &mut children {
            let id = child["id"].as_str().unwrap_or_default().to_owned();
            child["children"] = json!(attach(&id, by_parent));
        }
        children
    }
    attach(root, &mut by_parent)
}
