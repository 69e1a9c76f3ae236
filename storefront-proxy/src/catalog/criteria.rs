//! Shopware search criteria (`ids`, `filter`, `post-filter`, `sort`, `limit`, `page`,
//! `term`, `includes`, `associations`, `total-count-mode`) turned into one SQL query
//! with bound parameters. Field names come from a whitelist per entity; anything else
//! is a Shopware-shaped 400 with a JSON pointer.

use std::collections::HashMap;

use rusqlite::types::Value as SqlValue;
use rusqlite::Connection;
use serde_json::{Map, Value};

use crate::error::ApiError;

/// The largest page size a client may ask for.
pub const MAX_LIMIT: i64 = 500;
/// Filters nest (multi, not) at most this deep.
const MAX_DEPTH: usize = 8;
/// A multi (or not) filter joins at most this many queries: SQLite refuses an expression
/// deeper than 1,000, and [`MAX_DEPTH`] levels of this many stay below that.
const MAX_QUERIES: usize = 100;

/// How a field's values compare.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    Id,
    Text,
    Number,
    Bool,
    Date,
}

/// Where a field lives.
#[derive(Debug, Clone, Copy)]
pub enum Expr {
    /// An SQL expression over the main row (alias `p` for products).
    Column(&'static str),
    /// A to-many relation: `EXISTS (SELECT 1 FROM {table} m WHERE m.{key} = {owner} AND m.{column} …)`.
    Membership {
        table: &'static str,
        key: &'static str,
        owner: &'static str,
        column: &'static str,
    },
}

#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub expr: Expr,
    pub kind: Kind,
    /// The expression needs the translation joins (`tc`, `tf`).
    pub translated: bool,
}

/// SQL text with named parameters (`:p1`, `:p2`, …, plus fixed names bound by the
/// caller), so parts can be composed in any order.
#[derive(Debug, Default, Clone)]
pub struct Sql {
    pub text: String,
    pub params: Vec<(String, SqlValue)>,
    pub uses_translation: bool,
}

impl Sql {
    pub fn push(&mut self, text: &str) -> &mut Self {
        self.text.push_str(text);
        self
    }

    /// Appends a placeholder for `value`.
    pub fn bind(&mut self, value: impl Into<SqlValue>) -> &mut Self {
        let name = format!(":p{}", self.params.len() + 1);
        self.text.push_str(&name);
        self.params.push((name, value.into()));
        self
    }

    /// Binds a fixed name (`:lang`) used in the text.
    pub fn set(&mut self, name: &str, value: impl Into<SqlValue>) {
        self.params.push((name.to_owned(), value.into()));
    }

    pub fn append(&mut self, other: &Sql) {
        self.text.push_str(&other.text);
        // Renumber the other's positional parameters after ours.
        let mut text = std::mem::take(&mut self.text);
        let offset = self
            .params
            .iter()
            .filter(|(n, _)| n.starts_with(":p"))
            .count();
        let mut renamed = Vec::new();
        let tail_start = text.len() - other.text.len();
        let mut tail = text.split_off(tail_start);
        // Replace from the highest number down so `:p1` does not clip `:p12`.
        let mut positional: Vec<&(String, SqlValue)> = other
            .params
            .iter()
            .filter(|(n, _)| n.starts_with(":p"))
            .collect();
        positional.sort_by_key(|(n, _)| std::cmp::Reverse(n[2..].parse::<usize>().unwrap_or(0)));
        for (name, value) in positional {
            let number: usize = name[2..].parse().unwrap_or(0);
            let new_name = format!(":q{}", number + offset);
            tail = tail.replace(name.as_str(), &new_name);
            renamed.push((new_name, value.clone()));
        }
        let tail = tail.replace(":q", ":p");
        text.push_str(&tail);
        self.text = text;
        for (name, value) in renamed {
            self.params.push((name.replacen(":q", ":p", 1), value));
        }
        for (name, value) in other.params.iter().filter(|(n, _)| !n.starts_with(":p")) {
            self.params.push((name.clone(), value.clone()));
        }
        self.uses_translation |= other.uses_translation;
    }

    /// Prepares the statement and binds the parameters it uses.
    pub fn query_map<T>(
        &self,
        conn: &Connection,
        f: impl FnMut(&rusqlite::Row) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<Vec<T>> {
        let mut statement = conn.prepare_cached(&self.text)?;
        for (name, value) in &self.params {
            if let Some(index) = statement.parameter_index(name)? {
                statement.raw_bind_parameter(index, value)?;
            }
        }
        let rows = statement.raw_query().mapped(f);
        rows.collect()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum TotalCountMode {
    /// The total is the number of elements of the page.
    #[default]
    None,
    Exact,
    /// Counts up to what the next pages need.
    NextPages,
}

#[derive(Debug, Default)]
pub struct Criteria {
    pub ids: Option<Vec<String>>,
    /// `filter` and `post-filter`, already SQL (`AND`ed), empty when none.
    pub condition: Sql,
    /// `ORDER BY` terms, empty when none.
    pub order: Sql,
    pub limit: Option<i64>,
    pub page: i64,
    pub term: Option<String>,
    pub includes: HashMap<String, Vec<String>>,
    pub associations: Map<String, Value>,
    pub total_count_mode: TotalCountMode,
}

impl Criteria {
    pub fn offset(&self) -> i64 {
        self.limit.map(|limit| (self.page - 1) * limit).unwrap_or(0)
    }

    pub fn wants(&self, association: &str) -> bool {
        self.associations.contains_key(association)
    }
}

fn invalid(code: &'static str, pointer: &str, detail: impl Into<String>) -> ApiError {
    ApiError::bad_request(code, detail).at(pointer)
}

/// An integer from a JSON number or a numeric string.
pub fn integer(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A number from a JSON number or a numeric string.
pub fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok().filter(|f: &f64| f.is_finite()),
        _ => None,
    }
}

/// A boolean from `true`, `1`, `"1"`, `"true"` and their opposites.
pub fn boolean(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => n.as_i64().filter(|i| *i == 0 || *i == 1).map(|i| i == 1),
        Value::String(s) => match s.as_str() {
            "1" | "true" => Some(true),
            "0" | "false" | "" => Some(false),
            _ => None,
        },
        Value::Null => None,
        _ => None,
    }
}

/// Parses the criteria of `params`. `resolve` maps a field name (without the entity
/// prefix) to its column; `entity` is the prefix clients may put before field names.
pub fn parse(
    params: &Map<String, Value>,
    entity: &str,
    resolve: &dyn Fn(&str) -> Option<Field>,
) -> Result<Criteria, ApiError> {
    let mut criteria = Criteria {
        page: 1,
        ..Criteria::default()
    };
    if let Some(ids) = params.get("ids") {
        criteria.ids = Some(parse_ids(ids)?);
    }
    if let Some(limit) = params.get("limit").filter(|v| !v.is_null()) {
        criteria.limit = Some(parse_limit(limit)?);
    }
    for key in ["page", "p"] {
        if let Some(page) = params.get(key).filter(|v| !v.is_null()) {
            criteria.page = integer(page).filter(|p| *p >= 1).ok_or_else(|| {
                invalid(
                    "FRAMEWORK__INVALID_PAGE_QUERY",
                    &format!("/{key}"),
                    "The page parameter must be a positive integer greater or equal than 1.",
                )
            })?;
            break;
        }
    }
    if let Some(term) = params.get("term").filter(|v| !v.is_null()) {
        let term = term.as_str().ok_or_else(|| {
            invalid(
                "FRAMEWORK__INVALID_CRITERIA_TERM",
                "/term",
                "The term must be a string.",
            )
        })?;
        if !term.trim().is_empty() {
            criteria.term = Some(term.trim().to_owned());
        }
    }
    criteria.condition = parse_filters(params, entity, resolve)?;
    if let Some(sorts) = params.get("sort").filter(|v| !v.is_null()) {
        criteria.order = parse_sort(sorts, entity, resolve)?;
    }
    if let Some(includes) = params.get("includes").filter(|v| !v.is_null()) {
        criteria.includes = parse_includes(includes)?;
    }
    match params.get("associations") {
        None | Some(Value::Null) => {}
        Some(Value::Object(associations)) => criteria.associations = associations.clone(),
        Some(Value::Array(a)) if a.is_empty() => {}
        Some(_) => {
            return Err(invalid(
                "FRAMEWORK__INVALID_CRITERIA_ASSOCIATIONS",
                "/associations",
                "The associations must be an object.",
            ))
        }
    }
    if let Some(mode) = params.get("total-count-mode").filter(|v| !v.is_null()) {
        criteria.total_count_mode = parse_total_count_mode(mode)?;
    }
    Ok(criteria)
}

/// `ids`: a list or `|`-separated string of UUIDs.
fn parse_ids(ids: &Value) -> Result<Vec<String>, ApiError> {
    let list: Vec<String> = match ids {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_str().map(str::to_lowercase).ok_or_else(|| {
                    invalid(
                        "FRAMEWORK__INVALID_CRITERIA_IDS",
                        &format!("/ids/{i}"),
                        "Every id must be a string.",
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        Value::String(s) => s
            .split('|')
            .filter(|s| !s.is_empty())
            .map(str::to_lowercase)
            .collect(),
        _ => {
            return Err(invalid(
                "FRAMEWORK__INVALID_CRITERIA_IDS",
                "/ids",
                "The ids must be an array of strings.",
            ))
        }
    };
    // As Shopware's criteria: every id must be a UUID.
    if let Some(at) = list.iter().position(|id| !crate::storage::is_id(id)) {
        return Err(invalid(
            "FRAMEWORK__INVALID_CRITERIA_IDS",
            &format!("/ids/{at}"),
            format!("Value is not a valid UUID: {}", list[at]),
        ));
    }
    Ok(list)
}

fn parse_limit(limit: &Value) -> Result<i64, ApiError> {
    let limit = integer(limit).filter(|l| *l >= 1).ok_or_else(|| {
        invalid(
            "FRAMEWORK__INVALID_LIMIT_QUERY",
            "/limit",
            "The limit parameter must be a positive integer greater or equal than 1.",
        )
    })?;
    if limit > MAX_LIMIT {
        return Err(invalid(
            "FRAMEWORK__INVALID_LIMIT_QUERY",
            "/limit",
            format!("The limit must not be greater than {MAX_LIMIT}."),
        ));
    }
    Ok(limit)
}

/// `filter` and `post-filter`, `AND`ed.
fn parse_filters(
    params: &Map<String, Value>,
    entity: &str,
    resolve: &dyn Fn(&str) -> Option<Field>,
) -> Result<Sql, ApiError> {
    let mut condition = Sql::default();
    for key in ["filter", "post-filter"] {
        let Some(filters) = params.get(key).filter(|v| !v.is_null()) else {
            continue;
        };
        let Value::Array(filters) = filters else {
            return Err(invalid(
                "FRAMEWORK__INVALID_FILTER_QUERY",
                &format!("/{key}"),
                "The filter must be an array.",
            ));
        };
        for (index, filter) in filters.iter().enumerate() {
            if !condition.text.is_empty() {
                condition.push(" AND ");
            }
            compile_filter(
                filter,
                &format!("/{key}/{index}"),
                entity,
                resolve,
                &mut condition,
                0,
            )?;
        }
    }
    Ok(condition)
}

/// `sort`: a list of sortings, or the query string form.
fn parse_sort(
    sorts: &Value,
    entity: &str,
    resolve: &dyn Fn(&str) -> Option<Field>,
) -> Result<Sql, ApiError> {
    let sorts: Vec<Value> = match sorts {
        Value::Array(items) => items.clone(),
        // The query string form: `sort=-price,name`.
        Value::String(s) => s
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| match s.strip_prefix('-') {
                Some(field) => serde_json::json!({ "field": field, "order": "DESC" }),
                None => serde_json::json!({ "field": s, "order": "ASC" }),
            })
            .collect(),
        _ => {
            return Err(invalid(
                "FRAMEWORK__INVALID_SORT_QUERY",
                "/sort",
                "The sort must be an array.",
            ))
        }
    };
    let mut order = Sql::default();
    for (index, sort) in sorts.iter().enumerate() {
        let pointer = format!("/sort/{index}");
        let name = sort.get("field").and_then(Value::as_str).ok_or_else(|| {
            invalid(
                "FRAMEWORK__INVALID_SORT_QUERY",
                &pointer,
                "A sorting needs a field.",
            )
        })?;
        let field = field_of(
            name,
            entity,
            resolve,
            &format!("{pointer}/field"),
            "FRAMEWORK__INVALID_SORT_QUERY",
        )?;
        let Expr::Column(expr) = field.expr else {
            return Err(invalid(
                "FRAMEWORK__INVALID_SORT_QUERY",
                &format!("{pointer}/field"),
                format!("Sorting by {name} is not supported."),
            ));
        };
        let direction = match sort
            .get("order")
            .filter(|o| !o.is_null())
            .map(|o| o.as_str().map(str::to_uppercase))
        {
            None => "ASC",
            Some(Some(order)) if order == "ASC" => "ASC",
            Some(Some(order)) if order == "DESC" => "DESC",
            Some(_) => {
                let given = sort.get("order").map(Value::to_string).unwrap_or_default();
                return Err(invalid(
                    "FRAMEWORK__INVALID_SORT_DIRECTION",
                    &format!("{pointer}/order"),
                    format!("The sort direction {given} is invalid."),
                ));
            }
        };
        if !order.text.is_empty() {
            order.push(", ");
        }
        let collation = if field.kind == Kind::Text {
            " COLLATE NOCASE"
        } else {
            ""
        };
        order.push(&format!("{expr}{collation} {direction}"));
        order.uses_translation |= field.translated;
    }
    Ok(order)
}

fn parse_includes(includes: &Value) -> Result<HashMap<String, Vec<String>>, ApiError> {
    let Value::Object(includes) = includes else {
        return Err(invalid(
            "FRAMEWORK__INVALID_CRITERIA_INCLUDES",
            "/includes",
            "The includes must be an object of field lists.",
        ));
    };
    let mut found = HashMap::new();
    for (alias, fields) in includes {
        let fields = match fields {
            Value::Array(items) => items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            Value::String(s) => s.split(',').map(str::to_owned).collect(),
            _ => {
                return Err(invalid(
                    "FRAMEWORK__INVALID_CRITERIA_INCLUDES",
                    &format!("/includes/{alias}"),
                    "The includes must be field lists.",
                ))
            }
        };
        found.insert(alias.clone(), fields);
    }
    Ok(found)
}

fn parse_total_count_mode(mode: &Value) -> Result<TotalCountMode, ApiError> {
    Ok(match mode {
        Value::String(s) if s == "none" || s == "0" => TotalCountMode::None,
        Value::String(s) if s == "exact" || s == "1" => TotalCountMode::Exact,
        Value::String(s) if s == "next-pages" || s == "2" => TotalCountMode::NextPages,
        Value::Number(n) if n.as_i64() == Some(0) => TotalCountMode::None,
        Value::Number(n) if n.as_i64() == Some(1) => TotalCountMode::Exact,
        Value::Number(n) if n.as_i64() == Some(2) => TotalCountMode::NextPages,
        _ => {
            return Err(invalid(
                "FRAMEWORK__INVALID_TOTAL_COUNT_MODE",
                "/total-count-mode",
                "The total-count-mode must be none, exact or next-pages.",
            ))
        }
    })
}

fn field_of(
    name: &str,
    entity: &str,
    resolve: &dyn Fn(&str) -> Option<Field>,
    pointer: &str,
    code: &'static str,
) -> Result<Field, ApiError> {
    let prefix = format!("{entity}.");
    let short = name.strip_prefix(&prefix).unwrap_or(name);
    resolve(short).ok_or_else(|| {
        invalid(
            code,
            pointer,
            format!(
                "Field \"{name}\" in entity \"{entity}\" was not found or cannot be used here."
            ),
        )
    })
}

/// The SQL value of a filter value for a field of `kind`.
fn sql_value(value: &Value, kind: Kind, pointer: &str) -> Result<SqlValue, ApiError> {
    let bad = || {
        invalid(
            "FRAMEWORK__INVALID_FILTER_QUERY",
            pointer,
            format!("The value {value} does not fit the field."),
        )
    };
    Ok(match kind {
        Kind::Id => SqlValue::Text(value.as_str().ok_or_else(bad)?.to_lowercase()),
        Kind::Text | Kind::Date => match value {
            Value::String(s) => SqlValue::Text(s.clone()),
            Value::Number(n) => SqlValue::Text(n.to_string()),
            _ => return Err(bad()),
        },
        Kind::Number => SqlValue::Real(number(value).ok_or_else(bad)?),
        Kind::Bool => SqlValue::Integer(boolean(value).ok_or_else(bad)? as i64),
    })
}

fn json_list(values: &[SqlValue]) -> String {
    Value::Array(
        values
            .iter()
            .map(|v| match v {
                SqlValue::Text(s) => Value::from(s.clone()),
                SqlValue::Real(f) => Value::from(*f),
                SqlValue::Integer(i) => Value::from(*i),
                _ => Value::Null,
            })
            .collect(),
    )
    .to_string()
}

fn like_pattern(text: &str, prefix: bool, suffix: bool) -> String {
    let escaped = text
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    format!(
        "{}{escaped}{}",
        if suffix { "%" } else { "" },
        if prefix { "%" } else { "" }
    )
}

fn compile_filter(
    filter: &Value,
    pointer: &str,
    entity: &str,
    resolve: &dyn Fn(&str) -> Option<Field>,
    sql: &mut Sql,
    depth: usize,
) -> Result<(), ApiError> {
    if depth > MAX_DEPTH {
        return Err(invalid(
            "FRAMEWORK__INVALID_FILTER_QUERY",
            pointer,
            "Filters are nested too deeply.",
        ));
    }
    let Value::Object(filter) = filter else {
        return Err(invalid(
            "FRAMEWORK__INVALID_FILTER_QUERY",
            pointer,
            "A filter must be an object.",
        ));
    };
    let kind = filter.get("type").and_then(Value::as_str).ok_or_else(|| {
        invalid(
            "FRAMEWORK__INVALID_FILTER_QUERY",
            &format!("{pointer}/type"),
            "A filter needs a type.",
        )
    })?;
    if kind == "multi" || kind == "not" {
        let not = kind == "not";
        return compile_multi(filter, not, pointer, entity, resolve, sql, depth);
    }
    let name = filter.get("field").and_then(Value::as_str).ok_or_else(|| {
        invalid(
            "FRAMEWORK__INVALID_FILTER_QUERY",
            &format!("{pointer}/field"),
            "A filter needs a field.",
        )
    })?;
    let field = field_of(
        name,
        entity,
        resolve,
        &format!("{pointer}/field"),
        "FRAMEWORK__INVALID_FILTER_QUERY",
    )?;
    sql.uses_translation |= field.translated;
    let (comparison, negate_membership) = comparison(filter, kind, field, pointer)?;
    push_comparison(sql, field.expr, comparison, negate_membership);
    Ok(())
}

/// A `multi` (or `not`) filter: its queries joined by its operator, in parentheses.
fn compile_multi(
    filter: &Map<String, Value>,
    not: bool,
    pointer: &str,
    entity: &str,
    resolve: &dyn Fn(&str) -> Option<Field>,
    sql: &mut Sql,
    depth: usize,
) -> Result<(), ApiError> {
    let operator = filter
        .get("operator")
        .and_then(Value::as_str)
        .map(str::to_lowercase)
        .unwrap_or_else(|| "and".into());
    let joiner = match operator.as_str() {
        "and" | "&&" => " AND ",
        "or" | "||" => " OR ",
        _ => {
            return Err(invalid(
                "FRAMEWORK__INVALID_FILTER_QUERY",
                &format!("{pointer}/operator"),
                format!("The operator {operator} is invalid."),
            ))
        }
    };
    let Some(Value::Array(queries)) = filter.get("queries") else {
        return Err(invalid(
            "FRAMEWORK__INVALID_FILTER_QUERY",
            &format!("{pointer}/queries"),
            "A multi filter needs queries.",
        ));
    };
    if queries.len() > MAX_QUERIES {
        return Err(invalid(
            "FRAMEWORK__INVALID_FILTER_QUERY",
            &format!("{pointer}/queries"),
            format!("A multi filter joins at most {MAX_QUERIES} queries."),
        ));
    }
    sql.push(if not { "NOT (" } else { "(" });
    if queries.is_empty() {
        sql.push("1");
    }
    for (index, query) in queries.iter().enumerate() {
        if index > 0 {
            sql.push(joiner);
        }
        sql.push("(");
        compile_filter(
            query,
            &format!("{pointer}/queries/{index}"),
            entity,
            resolve,
            sql,
            depth + 1,
        )?;
        sql.push(")");
    }
    sql.push(")");
    Ok(())
}

/// The comparison of a field filter, as SQL after the field expression (or inside
/// EXISTS; `__FIELD__` stands for the field), and whether a membership is negated
/// instead (`equals` null).
fn comparison(
    filter: &Map<String, Value>,
    kind: &str,
    field: Field,
    pointer: &str,
) -> Result<(Sql, bool), ApiError> {
    let value_pointer = format!("{pointer}/value");
    let mut comparison = Sql::default();
    match kind {
        "equals" => {
            let value = filter.get("value").unwrap_or(&Value::Null);
            if value.is_null() {
                match field.expr {
                    Expr::Column(_) => {
                        comparison.push(" IS NULL");
                    }
                    Expr::Membership { .. } => return Ok((comparison, true)),
                }
            } else {
                comparison
                    .push(" = ")
                    .bind(sql_value(value, field.kind, &value_pointer)?);
            }
        }
        "equalsAny" => {
            let values: Vec<Value> = match filter.get("value") {
                Some(Value::Array(values)) => values.clone(),
                Some(Value::String(s)) => s.split('|').map(|v| Value::from(v.to_owned())).collect(),
                _ => {
                    return Err(invalid(
                        "FRAMEWORK__INVALID_FILTER_QUERY",
                        &value_pointer,
                        "equalsAny needs a list of values.",
                    ))
                }
            };
            let values = values
                .iter()
                .enumerate()
                .map(|(i, v)| sql_value(v, field.kind, &format!("{value_pointer}/{i}")))
                .collect::<Result<Vec<_>, _>>()?;
            comparison
                .push(" IN (SELECT value FROM json_each(")
                .bind(json_list(&values))
                .push("))");
        }
        "contains" | "prefix" | "suffix" => {
            if !matches!(field.kind, Kind::Text | Kind::Id | Kind::Date) {
                return Err(invalid(
                    "FRAMEWORK__INVALID_FILTER_QUERY",
                    pointer,
                    format!("{kind} needs a text field."),
                ));
            }
            let text = match filter.get("value") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Number(n)) => n.to_string(),
                _ => {
                    return Err(invalid(
                        "FRAMEWORK__INVALID_FILTER_QUERY",
                        &value_pointer,
                        format!("{kind} needs a text value."),
                    ))
                }
            };
            let pattern = like_pattern(&text, kind != "suffix", kind != "prefix");
            comparison.push(" LIKE ").bind(pattern).push(" ESCAPE '\\'");
        }
        "range" => comparison = range(filter, field, pointer)?,
        other => {
            return Err(invalid(
                "FRAMEWORK__INVALID_FILTER_QUERY",
                &format!("{pointer}/type"),
                format!("The filter type {other} is not supported."),
            ))
        }
    }
    Ok((comparison, false))
}

/// A `range` filter's comparison: `gte`, `gt`, `lte`, `lt`, at least one.
fn range(filter: &Map<String, Value>, field: Field, pointer: &str) -> Result<Sql, ApiError> {
    if !matches!(field.kind, Kind::Number | Kind::Date) {
        return Err(invalid(
            "FRAMEWORK__INVALID_FILTER_QUERY",
            pointer,
            "range needs a number or date field.",
        ));
    }
    let Some(Value::Object(parameters)) = filter.get("parameters") else {
        return Err(invalid(
            "FRAMEWORK__INVALID_FILTER_QUERY",
            &format!("{pointer}/parameters"),
            "range needs parameters.",
        ));
    };
    let mut comparison = Sql::default();
    let mut first = true;
    for (key, op) in [("gte", ">="), ("gt", ">"), ("lte", "<="), ("lt", "<")] {
        let Some(value) = parameters.get(key).filter(|v| !v.is_null()) else {
            continue;
        };
        let value = sql_value(value, field.kind, &format!("{pointer}/parameters/{key}"))?;
        if !first {
            comparison.push(" AND __FIELD__");
        }
        comparison.push(&format!(" {op} ")).bind(value);
        first = false;
    }
    if first {
        return Err(invalid(
            "FRAMEWORK__INVALID_FILTER_QUERY",
            &format!("{pointer}/parameters"),
            "range needs gte, gt, lte or lt.",
        ));
    }
    Ok(comparison)
}

/// The field and its comparison into `sql`: a column compared in place, a membership
/// as `EXISTS` (or `NOT EXISTS`) of a row that compares.
fn push_comparison(sql: &mut Sql, expr: Expr, mut comparison: Sql, negate_membership: bool) {
    match expr {
        Expr::Column(expr) => {
            comparison.text = comparison.text.replace("__FIELD__", expr);
            sql.push("(").push(expr);
            sql.append(&comparison);
            sql.push(")");
        }
        Expr::Membership {
            table,
            key,
            owner,
            column,
        } => {
            // `m`, not the admin searches' own alias `x`, so `owner` names the outer row.
            let target = format!("m.{column}");
            comparison.text = comparison.text.replace("__FIELD__", &target);
            sql.push(if negate_membership {
                "NOT EXISTS ("
            } else {
                "EXISTS ("
            });
            sql.push(&format!("SELECT 1 FROM {table} m WHERE m.{key} = {owner}"));
            if !negate_membership {
                sql.push(&format!(" AND {target}"));
                sql.append(&comparison);
            }
            sql.push(")");
        }
    }
}

/// Keeps only the included fields of every object whose `apiAlias` has an entry in
/// `includes` (Shopware's `includes`), at any depth.
pub fn apply_includes(value: &mut Value, includes: &HashMap<String, Vec<String>>) {
    if includes.is_empty() {
        return;
    }
    match value {
        Value::Object(map) => {
            if let Some(fields) = map
                .get("apiAlias")
                .and_then(Value::as_str)
                .and_then(|alias| includes.get(alias))
            {
                let fields = fields.clone();
                map.retain(|key, _| key == "apiAlias" || fields.iter().any(|f| f == key));
            }
            for child in map.values_mut() {
                apply_includes(child, includes);
            }
        }
        Value::Array(items) => {
            for item in items {
                apply_includes(item, includes);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(name: &str) -> Option<Field> {
        match name {
            "stock" => Some(Field {
                expr: Expr::Column("p.stock"),
                kind: Kind::Number,
                translated: false,
            }),
            "name" => Some(Field {
                expr: Expr::Column("p.name"),
                kind: Kind::Text,
                translated: true,
            }),
            _ => None,
        }
    }

    #[test]
    fn appended_parameters_are_renumbered() {
        let params = serde_json::json!({"filter": [
            {"type": "range", "field": "stock", "parameters": {"gte": 1, "lt": 9}},
            {"type": "multi", "operator": "or", "queries": [
                {"type": "equals", "field": "product.name", "value": "a"},
                {"type": "contains", "field": "name", "value": "50%"}
            ]}
        ]});
        let criteria = parse(params.as_object().unwrap(), "product", &resolve).unwrap();
        let sql = &criteria.condition;
        assert_eq!(sql.text, "(p.stock >= :p1 AND p.stock < :p2) AND (((p.name = :p3)) OR ((p.name LIKE :p4 ESCAPE '\\')))");
        assert_eq!(sql.params.len(), 4);
        assert_eq!(
            sql.params[3],
            (":p4".to_owned(), SqlValue::Text("%50\\%%".into()))
        );
        assert!(sql.uses_translation);
    }

    #[test]
    fn unknown_fields_and_bad_limits_are_client_errors() {
        for params in [
            serde_json::json!({"filter": [{"type": "equals", "field": "secret", "value": 1}]}),
            serde_json::json!({"limit": 0}),
            serde_json::json!({"limit": "ten"}),
            serde_json::json!({"sort": [{"field": "stock", "order": "sideways"}]}),
            serde_json::json!({"sort": [{"field": "stock", "order": 5}]}),
            serde_json::json!({"ids": ["not-an-id"]}),
            serde_json::json!({"ids": "0123456789abcdef0123456789abcdef|x"}),
            serde_json::json!({"filter": [{"type": "range", "field": "stock", "parameters": {}}]}),
        ] {
            assert!(
                parse(params.as_object().unwrap(), "product", &resolve).is_err(),
                "{params}"
            );
        }
    }
}
