//! Reading any [`Definition`]'s rows as Admin API JSON, and its criteria: every
//! column, translated field and association filter is a criteria field; nothing else.

use std::collections::HashMap;
use std::sync::OnceLock;

use rusqlite::Connection;
use serde_json::{Map, Value};

use super::definition::{Definition, Kind};
use crate::admin::search::Entity;
use crate::catalog::criteria::{self, Criteria, Expr, Field, Kind as FieldKind};
use crate::error::ApiError;
use crate::storage::json_ids;
use crate::storage::translation::json_of;

/// The rows `ids` (those that exist), in the order of `ids`.
pub fn load(conn: &Connection, def: &Definition, ids: &[String]) -> rusqlite::Result<Vec<Value>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let columns: Vec<&str> = def.columns.iter().map(|c| c.column).collect();
    let select = if columns.is_empty() {
        String::new()
    } else {
        format!(", {}", columns.join(", "))
    };
    let mut statement = conn.prepare(&format!(
        "SELECT id{select} FROM {} WHERE id IN (SELECT value FROM json_each(?1))",
        def.table
    ))?;
    let mut found: HashMap<String, Map<String, Value>> = statement
        .query_map([json_ids(ids)], |r| {
            let id: String = r.get(0)?;
            let mut entity = Map::new();
            entity.insert("id".into(), Value::from(id.clone()));
            for (n, column) in def.columns.iter().enumerate() {
                let value = json_of(r.get_ref(n + 1)?);
                let value = match (column.kind, &value) {
                    (Kind::Bool, Value::Number(n)) => Value::Bool(n.as_i64() == Some(1)),
                    _ => value,
                };
                entity.insert(column.name.into(), value);
            }
            Ok((id, entity))
        })?
        .collect::<Result<_, _>>()?;
    if let Some(translation) = &def.translation {
        let default_language = super::write::default_language(conn)?;
        let fields: Vec<&str> = translation.fields.iter().map(|c| c.column).collect();
        let mut statement = conn.prepare(&format!(
            "SELECT {key}, language_id, {fields} FROM {table} WHERE {key} IN (SELECT value FROM json_each(?1)) ORDER BY language_id",
            key = translation.key,
            table = translation.table,
            fields = fields.join(", "),
        ))?;
        let mut rows = statement.query([json_ids(ids)])?;
        let mut lists: HashMap<String, Vec<Value>> = HashMap::new();
        while let Some(r) = rows.next()? {
            let id: String = r.get(0)?;
            let language: String = r.get(1)?;
            let mut entry = Map::new();
            entry.insert("languageId".into(), Value::from(language.clone()));
            for (n, column) in translation.fields.iter().enumerate() {
                entry.insert(column.name.into(), json_of(r.get_ref(n + 2)?));
            }
            if language == default_language {
                if let Some(entity) = found.get_mut(&id) {
                    for column in translation.fields {
                        entity.insert(column.name.into(), entry[column.name].clone());
                    }
                }
            }
            lists.entry(id).or_default().push(Value::Object(entry));
        }
        for (id, entity) in &mut found {
            for column in translation.fields {
                entity.entry(column.name).or_insert(Value::Null);
            }
            let translated: Map<String, Value> = translation
                .fields
                .iter()
                .map(|c| (c.name.to_owned(), entity[c.name].clone()))
                .collect();
            entity.insert("translated".into(), Value::Object(translated));
            entity.insert(
                "translations".into(),
                Value::Array(lists.remove(id).unwrap_or_default()),
            );
        }
    }
    for extra in def.extras {
        let mut values = (extra.read)(conn, ids)?;
        for (id, entity) in &mut found {
            entity.insert(extra.name.into(), values.remove(id).unwrap_or(Value::Null));
        }
    }
    let mut entities: Vec<Value> = ids
        .iter()
        .filter_map(|id| found.remove(id))
        .map(|mut entity| {
            entity.insert("apiAlias".into(), Value::from(def.name));
            Value::Object(entity)
        })
        .collect();
    if let Some(complete) = super::entities::complete(def.name) {
        complete(conn, &mut entities)?;
    }
    Ok(entities)
}

/// The criteria fields and the search's `FROM` of every entity, built once: the SQL
/// expressions are `&'static str` (the criteria parser keeps them), so they are made
/// from the definitions one time and kept.
struct Searchable {
    entity: Entity,
    fields: HashMap<&'static str, Field>,
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

fn never(_: &str) -> Option<Field> {
    None
}

fn searchable(def: &'static Definition) -> &'static Searchable {
    static ALL: OnceLock<std::sync::Mutex<HashMap<&'static str, &'static Searchable>>> =
        OnceLock::new();
    let all = ALL.get_or_init(Default::default);
    let mut all = all.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    all.entry(def.name).or_insert_with(|| {
        let mut fields = HashMap::new();
        fields.insert("id", Field { expr: Expr::Column("x.id"), kind: FieldKind::Id, translated: false });
        for column in def.columns {
            fields.insert(
                column.name,
                Field { expr: Expr::Column(leak(format!("x.{}", column.column))), kind: kind_of(column.kind), translated: false },
            );
        }
        let mut from = format!("FROM {} x", def.table);
        if let Some(translation) = &def.translation {
            from.push_str(&format!(
                " LEFT JOIN {} tr ON tr.{} = x.id AND tr.language_id = (SELECT language_id FROM sales_channel ORDER BY rowid LIMIT 1)",
                translation.table, translation.key
            ));
            for column in translation.fields {
                fields.insert(
                    column.name,
                    Field { expr: Expr::Column(leak(format!("tr.{}", column.column))), kind: kind_of(column.kind), translated: false },
                );
            }
        }
        from.push_str(" WHERE 1");
        for (name, field) in super::entities::fields(def.name) {
            fields.insert(name, *field);
        }
        for extra in def.extras {
            if let Some(expr) = extra.filter {
                fields.insert(leak(format!("{}.id", extra.name)), Field { expr, kind: FieldKind::Id, translated: false });
            }
        }
        let entity = Entity { name: def.name, from: leak(from), id: "x.id", order: "x.id", field: never };
        Box::leak(Box::new(Searchable { entity, fields }))
    })
}

fn kind_of(kind: Kind) -> FieldKind {
    match kind {
        Kind::Text { .. } | Kind::Choice(_) => FieldKind::Text,
        Kind::Int { .. } | Kind::Float { .. } => FieldKind::Number,
        Kind::Bool => FieldKind::Bool,
        Kind::Id { .. } => FieldKind::Id,
        Kind::Date => FieldKind::Date,
    }
}

/// Parses Shopware criteria (filter, sort, page, limit, ids, total-count-mode) for
/// `def`; an unknown field is a 400 with its pointer.
pub fn parse_criteria(
    def: &'static Definition,
    params: &Map<String, Value>,
) -> Result<Criteria, ApiError> {
    let searchable = searchable(def);
    let mut criteria = criteria::parse(params, def.name, &|name: &str| {
        searchable.fields.get(name).copied()
    })?;
    if let Some(term) = criteria.term.take() {
        let searched = super::entities::term(def.name);
        if searched.is_empty() {
            return Err(ApiError::bad_request(
                "FRAMEWORK__INVALID_CRITERIA_TERM",
                format!("Searching {} by term is not supported.", def.name),
            )
            .at("/term"));
        }
        // Every word of the term in one of the searched fields.
        for word in term.split_whitespace().take(8) {
            let pattern = format!(
                "%{}%",
                word.replace('\\', "\\\\")
                    .replace('%', "\\%")
                    .replace('_', "\\_")
            );
            let condition = &mut criteria.condition;
            if !condition.text.is_empty() {
                condition.push(" AND ");
            }
            condition.push("(");
            for (n, expr) in searched.iter().enumerate() {
                if n > 0 {
                    condition.push(" OR ");
                }
                condition
                    .push(expr)
                    .push(" LIKE ")
                    .bind(pattern.clone())
                    .push(" ESCAPE '\\'");
            }
            condition.push(")");
        }
    }
    criteria
        .limit
        .get_or_insert(crate::admin::search::DEFAULT_LIMIT);
    Ok(criteria)
}

/// A criteria field of `def` (`order.amountTotal` or `amountTotal`), as filters and
/// sortings name it.
pub(super) fn field(def: &'static Definition, name: &str) -> Option<Field> {
    let name = name
        .strip_prefix(def.name)
        .and_then(|rest| rest.strip_prefix('.'))
        .unwrap_or(name);
    searchable(def).fields.get(name).copied()
}

/// The search's `Entity` of `def` (its `FROM`, id and order).
pub(super) fn entity(def: &'static Definition) -> &'static Entity {
    &searchable(def).entity
}

/// The page of ids and the total of the criteria.
pub fn select(
    conn: &Connection,
    def: &'static Definition,
    criteria: &Criteria,
) -> rusqlite::Result<(Vec<String>, usize)> {
    crate::admin::search::select(conn, &searchable(def).entity, criteria)
}
