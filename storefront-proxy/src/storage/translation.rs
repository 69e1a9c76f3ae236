//! Translated fields: one `*_translation` row per entity and language, read along a
//! language chain (the request's language, then the sales channel's default).

use std::collections::HashMap;

use rusqlite::types::ValueRef;
use rusqlite::Connection;
use serde_json::{Map, Value};

use super::json_ids;

/// The languages a text is looked up in, in order.
#[derive(Debug, Clone)]
pub struct LanguageChain {
    pub current: String,
    pub fallback: String,
}

impl LanguageChain {
    /// `languageIdChain` of the context.
    pub fn ids(&self) -> Vec<String> {
        if self.current == self.fallback {
            vec![self.current.clone()]
        } else {
            vec![self.current.clone(), self.fallback.clone()]
        }
    }
}

/// A JSON value of a column.
pub fn json_of(value: ValueRef<'_>) -> Value {
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::from(i),
        ValueRef::Real(f) => Value::from(f),
        ValueRef::Text(t) => Value::from(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(_) => Value::Null,
    }
}

/// Loads the `fields` (column, JSON name) of `table` for the entities `ids` (keyed by
/// `key`), each field from the first language of the chain that has it. Every id with
/// any translation gets every field (null when no language has it).
pub fn load(
    conn: &Connection,
    table: &'static str,
    key: &'static str,
    fields: &[(&'static str, &'static str)],
    ids: &[String],
    chain: &LanguageChain,
) -> rusqlite::Result<HashMap<String, Map<String, Value>>> {
    let mut merged: HashMap<String, Map<String, Value>> = HashMap::new();
    if ids.is_empty() {
        return Ok(merged);
    }
    let columns: Vec<&str> = fields.iter().map(|(column, _)| *column).collect();
    let sql = format!(
        "SELECT {key}, language_id = ?2, {} FROM {table}
         WHERE {key} IN (SELECT value FROM json_each(?1)) AND language_id IN (?2, ?3)",
        columns.join(", ")
    );
    let mut statement = conn.prepare_cached(&sql)?;
    let mut rows = statement.query(rusqlite::params![
        json_ids(ids),
        chain.current,
        chain.fallback
    ])?;
    // Rows of the fallback language first, then the current one overrides.
    let mut current_rows = Vec::new();
    while let Some(row) = rows.next()? {
        let id: String = row.get(0)?;
        let is_current: bool = row.get(1)?;
        let mut values = Map::new();
        for (index, (_, name)) in fields.iter().enumerate() {
            values.insert((*name).to_owned(), json_of(row.get_ref(index + 2)?));
        }
        if is_current && chain.current != chain.fallback {
            current_rows.push((id, values));
        } else {
            merged.insert(id, values);
        }
    }
    for (id, values) in current_rows {
        let entry = merged.entry(id).or_default();
        for (name, value) in values {
            if !value.is_null() || !entry.contains_key(&name) {
                entry.insert(name, value);
            }
        }
    }
    for values in merged.values_mut() {
        for (_, name) in fields {
            values.entry(*name).or_insert(Value::Null);
        }
    }
    Ok(merged)
}

/// The translated fields of one entity, or all-null fields when it has none.
pub fn get(
    map: &HashMap<String, Map<String, Value>>,
    id: &str,
    fields: &[(&'static str, &'static str)],
) -> Map<String, Value> {
    map.get(id).cloned().unwrap_or_else(|| {
        fields
            .iter()
            .map(|(_, name)| ((*name).to_owned(), Value::Null))
            .collect()
    })
}
