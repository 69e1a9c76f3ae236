//! Associations answered as whole entities of another [`Definition`]: a country's
//! `states`, a customer's `addresses` and `group`. A query pairs each owner id with the
//! ids of its related rows; the rows are read as that definition reads them.

use std::collections::HashMap;

use rusqlite::Connection;
use serde_json::Value;

use crate::admin_api::definition::{Definition, ValuesById};
use crate::admin_api::read;
use crate::storage::json_ids;

/// (owner id, related id) pairs of `pairs` (an SQL query with `?1` the owners as a JSON
/// list), in its order.
fn pairs(
    conn: &Connection,
    pairs: &str,
    ids: &[String],
) -> rusqlite::Result<Vec<(String, String)>> {
    let mut statement = conn.prepare_cached(pairs)?;
    let rows = statement.query_map([json_ids(ids)], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

fn loaded(
    conn: &Connection,
    def: &Definition,
    pairs: &[(String, String)],
) -> rusqlite::Result<HashMap<String, Value>> {
    let mut related: Vec<String> = pairs.iter().map(|(_, r)| r.clone()).collect();
    related.sort();
    related.dedup();
    Ok(read::load(conn, def, &related)?
        .into_iter()
        .filter_map(|entity| Some((entity["id"].as_str()?.to_owned(), entity)))
        .collect())
}

/// A to-many association: a list for every owner (empty when it has none).
pub fn many(conn: &Connection, def: &Definition, sql: &str, ids: &[String]) -> ValuesById {
    let pairs = pairs(conn, sql, ids)?;
    let entities = loaded(conn, def, &pairs)?;
    let mut lists: HashMap<String, Vec<Value>> =
        ids.iter().map(|id| (id.clone(), Vec::new())).collect();
    for (owner, related) in pairs {
        if let (Some(list), Some(entity)) = (lists.get_mut(&owner), entities.get(&related)) {
            list.push(entity.clone());
        }
    }
    Ok(lists
        .into_iter()
        .map(|(id, list)| (id, Value::Array(list)))
        .collect())
}

/// A to-one association: the entity, or null.
pub fn one(conn: &Connection, def: &Definition, sql: &str, ids: &[String]) -> ValuesById {
    let pairs = pairs(conn, sql, ids)?;
    let entities = loaded(conn, def, &pairs)?;
    let mut found: HashMap<String, Value> =
        ids.iter().map(|id| (id.clone(), Value::Null)).collect();
    for (owner, related) in pairs {
        if let Some(entity) = entities.get(&related) {
            found.insert(owner, entity.clone());
        }
    }
    Ok(found)
}

/// A value computed per owner by `sql` (`SELECT owner_id, value …`), null where none.
pub fn values(conn: &Connection, sql: &str, ids: &[String]) -> ValuesById {
    let mut statement = conn.prepare_cached(sql)?;
    let rows = statement.query_map([json_ids(ids)], |r| {
        Ok((
            r.get::<_, String>(0)?,
            crate::storage::translation::json_of(r.get_ref(1)?),
        ))
    })?;
    let mut found: HashMap<String, Value> =
        ids.iter().map(|id| (id.clone(), Value::Null)).collect();
    for row in rows {
        let (id, value) = row?;
        found.insert(id, value);
    }
    Ok(found)
}
