//! Shopware's criteria `aggregations` on the Admin API's searches: `sum`, `avg`, `min`,
//! `max`, `stats`, `count`, `terms` (with one nested metric per bucket, as Shopware's
//! `aggregation` key) and `filter` (its `filter` around one nested aggregation), over
//! any criteria field of the entity that is a column of its row (not a to-many
//! association). Computed in SQL over every row the criteria's filters select (not only
//! the page), answered by name in Shopware's shape
//! (`{"revenue": {"sum": 42.5, "extensions": [], "apiAlias": "revenue_aggregation"}}`).

use rusqlite::types::Value as SqlValue;
use rusqlite::Connection;
use serde_json::{json, Map, Value};

use super::definition::Definition;
use super::read;
use crate::catalog::criteria::{Criteria, Expr, Sql};
use crate::error::ApiError;
use crate::storage::translation::json_of;

/// At most this many aggregations in one search, and buckets in one `terms`.
const MAX_AGGREGATIONS: usize = 20;
const MAX_BUCKETS: i64 = 500;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Sum,
    Avg,
    Min,
    Max,
    Stats,
    Count,
    Terms,
    Filter,
}

/// One aggregation of the criteria, its field resolved to an SQL expression.
#[derive(Debug, Clone)]
pub struct Aggregation {
    name: String,
    kind: Kind,
    /// The field's expression (none for `filter`).
    expr: &'static str,
    /// `terms`: at most this many buckets.
    limit: i64,
    /// `terms`: the metric of each bucket; `filter`: the aggregation it narrows.
    nested: Option<Box<Aggregation>>,
    /// `filter`: its condition.
    condition: Sql,
}

fn invalid(pointer: String, detail: impl Into<String>) -> ApiError {
    ApiError::bad_request("FRAMEWORK__INVALID_AGGREGATION_QUERY", detail).at(&pointer)
}

/// Parses the criteria's `aggregations` (a list; absent or null: none) for `def`; an
/// unknown type or field, a missing name or a name given twice is a 400 at its pointer.
pub fn parse(
    def: &'static Definition,
    params: &Map<String, Value>,
) -> Result<Vec<Aggregation>, ApiError> {
    let list = match params.get("aggregations") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(list)) => list,
        Some(_) => {
            return Err(invalid(
                "/aggregations".into(),
                "The aggregations must be a list.",
            ))
        }
    };
    if list.len() > MAX_AGGREGATIONS {
        return Err(invalid(
            "/aggregations".into(),
            format!("At most {MAX_AGGREGATIONS} aggregations per search."),
        ));
    }
    let mut parsed: Vec<Aggregation> = Vec::new();
    for (n, entry) in list.iter().enumerate() {
        let aggregation = one(def, entry, &format!("/aggregations/{n}"), true)?;
        if parsed
            .iter()
            .any(|other| other.name() == aggregation.name())
        {
            return Err(invalid(
                format!("/aggregations/{n}/name"),
                format!(
                    "The aggregation name \"{}\" is used twice.",
                    aggregation.name()
                ),
            ));
        }
        parsed.push(aggregation);
    }
    Ok(parsed)
}

impl Aggregation {
    /// The name its result is answered under (a `filter`'s: its nested aggregation's).
    fn name(&self) -> &str {
        match (&self.kind, &self.nested) {
            (Kind::Filter, Some(nested)) => nested.name(),
            _ => &self.name,
        }
    }
}

fn one(
    def: &'static Definition,
    entry: &Value,
    pointer: &str,
    top: bool,
) -> Result<Aggregation, ApiError> {
    let at = |key: &str| format!("{pointer}/{key}");
    let Some(entry) = entry.as_object() else {
        return Err(invalid(
            pointer.to_owned(),
            "An aggregation is an object with name, type and field.",
        ));
    };
    let name = entry
        .get("name")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|name| !name.is_empty() && name.len() <= 100)
        .ok_or_else(|| invalid(at("name"), "An aggregation needs a name."))?;
    let kind = match entry.get("type").and_then(Value::as_str) {
        Some("sum") => Kind::Sum,
        Some("avg") => Kind::Avg,
        Some("min") => Kind::Min,
        Some("max") => Kind::Max,
        Some("stats") => Kind::Stats,
        Some("count") => Kind::Count,
        Some("terms") if top => Kind::Terms,
        Some("filter") if top => Kind::Filter,
        other => {
            return Err(invalid(
                at("type"),
                format!(
                    "The aggregation type {} is not supported here (sum, avg, min, max, stats, count; terms and filter at the top).",
                    other
                        .map(|t| format!("\"{t}\""))
                        .unwrap_or_else(|| "(none)".into())
                ),
            ))
        }
    };
    let nested = match entry.get("aggregation") {
        Some(inner) if matches!(kind, Kind::Terms | Kind::Filter) => Some(Box::new(one(
            def,
            inner,
            &at("aggregation"),
            kind == Kind::Filter,
        )?)),
        _ if kind == Kind::Filter => {
            return Err(invalid(
                at("aggregation"),
                "A filter aggregation names the aggregation it narrows.",
            ))
        }
        _ => None,
    };
    let mut condition = Sql::default();
    let mut expr = "";
    if kind == Kind::Filter {
        let filter = entry.get("filter").cloned().unwrap_or(Value::Null);
        let mut params = Map::new();
        params.insert("filter".into(), filter);
        condition = read::parse_criteria(def, &params)
            .map_err(|_| invalid(at("filter"), "The filter of the aggregation is not valid."))?
            .condition;
    } else {
        let field_name = entry
            .get("field")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(at("field"), "An aggregation needs a field."))?;
        expr = match read::field(def, field_name).map(|field| field.expr) {
            Some(Expr::Column(expr)) => expr,
            _ => {
                return Err(invalid(
                    at("field"),
                    format!(
                        "The field \"{field_name}\" of {} cannot be aggregated.",
                        def.name
                    ),
                ))
            }
        };
    }
    let limit = match entry.get("limit") {
        None | Some(Value::Null) => MAX_BUCKETS,
        Some(limit) => limit
            .as_i64()
            .filter(|limit| (1..=MAX_BUCKETS).contains(limit))
            .ok_or_else(|| {
                invalid(
                    at("limit"),
                    format!("The limit is a number from 1 to {MAX_BUCKETS}."),
                )
            })?,
    };
    Ok(Aggregation {
        name: name.to_owned(),
        kind,
        expr,
        limit,
        nested,
        condition,
    })
}

fn number(value: SqlValue) -> Value {
    match value {
        SqlValue::Integer(n) => Value::from(n as f64),
        SqlValue::Real(x) => Value::from(x),
        // `min` and `max` of a text or a date.
        SqlValue::Text(text) => Value::from(text),
        _ => Value::Null,
    }
}

/// `SELECT` columns of a metric over `expr`, read back by [`metric_of`].
fn metric_columns(expr: &str) -> String {
    format!("TOTAL({expr}), AVG({expr}), MIN({expr}), MAX({expr}), COUNT(DISTINCT {expr})")
}

/// A metric's result from the five columns of [`metric_columns`] from `first`.
fn metric_of(
    aggregation: &Aggregation,
    row: &rusqlite::Row,
    first: usize,
) -> rusqlite::Result<Value> {
    let value = |n: usize| -> rusqlite::Result<Value> { Ok(number(row.get(first + n)?)) };
    let result = match aggregation.kind {
        Kind::Sum => json!({ "sum": value(0)? }),
        Kind::Avg => json!({ "avg": value(1)? }),
        Kind::Min => json!({ "min": value(2)? }),
        Kind::Max => json!({ "max": value(3)? }),
        Kind::Count => json!({ "count": row.get::<_, i64>(first + 4)? }),
        _ => json!({ "min": value(2)?, "max": value(3)?, "avg": value(1)?, "sum": value(0)? }),
    };
    Ok(shaped(aggregation, result))
}

fn shaped(aggregation: &Aggregation, mut result: Value) -> Value {
    if let Value::Object(result) = &mut result {
        result.insert("extensions".into(), json!([]));
        result.insert(
            "apiAlias".into(),
            Value::from(format!("{}_aggregation", aggregation.name)),
        );
    }
    result
}

/// Computes `aggregations` over every row `criteria` selects of `def`.
pub fn compute(
    conn: &Connection,
    def: &'static Definition,
    criteria: &Criteria,
    aggregations: &[Aggregation],
) -> rusqlite::Result<Map<String, Value>> {
    let rows = crate::admin::search::rows_of(read::entity(def), criteria);
    let mut answer = Map::new();
    for aggregation in aggregations {
        answer.insert(
            aggregation.name().to_owned(),
            compute_one(conn, &rows, aggregation)?,
        );
    }
    Ok(answer)
}

/// One aggregation over `rows` (` FROM … WHERE …`).
fn compute_one(
    conn: &Connection,
    rows: &Sql,
    aggregation: &Aggregation,
) -> rusqlite::Result<Value> {
    let expr = aggregation.expr;
    let mut query = Sql::default();
    match (aggregation.kind, &aggregation.nested) {
        (Kind::Filter, Some(nested)) => {
            let mut narrowed = rows.clone();
            if !aggregation.condition.text.is_empty() {
                narrowed.push(" AND (");
                narrowed.append(&aggregation.condition);
                narrowed.push(")");
            }
            compute_one(conn, &narrowed, nested)
        }
        (Kind::Terms, nested) => {
            let metric = nested
                .as_ref()
                .map(|nested| format!(", {}", metric_columns(nested.expr)))
                .unwrap_or_default();
            query.push(&format!("SELECT {expr}, COUNT(*){metric}"));
            query.append(rows);
            query
                .push(&format!(
                    " AND {expr} IS NOT NULL GROUP BY {expr} ORDER BY COUNT(*) DESC, {expr} LIMIT "
                ))
                .bind(aggregation.limit);
            let buckets = query.query_map(conn, |r| {
                let mut bucket = Map::new();
                let key = match json_of(r.get_ref(0)?) {
                    Value::String(key) => key,
                    other => other.to_string(),
                };
                bucket.insert("key".into(), Value::from(key));
                bucket.insert("count".into(), Value::from(r.get::<_, i64>(1)?));
                if let Some(nested) = nested {
                    bucket.insert(nested.name.clone(), metric_of(nested, r, 2)?);
                }
                bucket.insert("extensions".into(), json!([]));
                bucket.insert("apiAlias".into(), Value::from("aggregation_bucket"));
                Ok(Value::Object(bucket))
            })?;
            Ok(shaped(aggregation, json!({ "buckets": buckets })))
        }
        _ => {
            query.push(&format!("SELECT {}", metric_columns(expr)));
            query.append(rows);
            let mut rows = query.query_map(conn, |r| metric_of(aggregation, r, 0))?;
            Ok(rows.pop().unwrap_or(Value::Null))
        }
    }
}
