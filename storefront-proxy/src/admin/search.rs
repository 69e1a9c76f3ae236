//! Shopware criteria for the admin API's entity searches (`POST /api/search/{entity}`):
//! the catalogue's criteria parser (filters equals, equalsAny, contains, prefix,
//! suffix, range, multi, not; sort; limit; page; total-count-mode; ids) over one table
//! per entity with a whitelist of fields. Every value is a bound parameter; a field
//! outside the whitelist is a 400 in Shopware's shape.

use rusqlite::Connection;
use serde_json::{json, Map, Value};

use crate::catalog::criteria::{self, Criteria, Field, Sql, TotalCountMode};
use crate::error::ApiError;
use crate::storage::json_ids;

/// Admin searches answer this many rows when the criteria set no limit.
pub const DEFAULT_LIMIT: i64 = 25;

/// A searchable entity.
pub struct Entity {
    /// The entity name clients may put before field names (`dsr_appointment_attendee`).
    pub name: &'static str,
    /// `FROM … WHERE …`: the table with its alias and the rows any search may see.
    pub from: &'static str,
    /// The id expression (`a.id`).
    pub id: &'static str,
    /// The order after the criteria's sortings (unique, so pages are stable).
    pub order: &'static str,
    pub field: fn(&str) -> Option<Field>,
}

/// Parses the criteria of a search body; `term` is not supported on these entities.
pub fn parse(params: &Map<String, Value>, entity: &Entity) -> Result<Criteria, ApiError> {
    let mut criteria = criteria::parse(params, entity.name, &entity.field)?;
    if criteria.term.is_some() {
        return Err(ApiError::bad_request(
            "FRAMEWORK__INVALID_CRITERIA_TERM",
            format!("Searching {} by term is not supported.", entity.name),
        )
        .at("/term"));
    }
    criteria.limit.get_or_insert(DEFAULT_LIMIT);
    Ok(criteria)
}

/// The page of ids the criteria select, in order, and the total of the criteria's
/// total-count mode.
pub fn select(
    conn: &Connection,
    entity: &Entity,
    criteria: &Criteria,
) -> rusqlite::Result<(Vec<String>, usize)> {
    let conditions = rows_of(entity, criteria);
    let mut query = Sql::default();
    query.push(&format!("SELECT {}", entity.id));
    query.append(&conditions);
    query.push(" ORDER BY ");
    if !criteria.order.text.is_empty() {
        query.append(&criteria.order);
        query.push(", ");
    }
    query.push(entity.order);
    let limit = criteria.limit.unwrap_or(DEFAULT_LIMIT);
    query
        .push(" LIMIT ")
        .bind(limit)
        .push(" OFFSET ")
        .bind(criteria.offset());
    let ids = query.query_map(conn, |r| r.get::<_, String>(0))?;
    let total = match criteria.total_count_mode {
        TotalCountMode::None => criteria.offset() as usize + ids.len(),
        TotalCountMode::Exact | TotalCountMode::NextPages => {
            let mut count = Sql::default();
            count.push("SELECT COUNT(*)");
            count.append(&conditions);
            count
                .query_map(conn, |r| r.get::<_, i64>(0))?
                .first()
                .copied()
                .unwrap_or(0) as usize
        }
    };
    Ok((ids, total))
}

/// ` FROM … WHERE …`: every row the criteria select (ids and filters), on any page.
pub fn rows_of(entity: &Entity, criteria: &Criteria) -> Sql {
    let mut conditions = Sql::default();
    conditions.push(" ").push(entity.from);
    if let Some(ids) = &criteria.ids {
        conditions
            .push(&format!(
                " AND {} IN (SELECT value FROM json_each(",
                entity.id
            ))
            .bind(json_ids(ids))
            .push("))");
    }
    if !criteria.condition.text.is_empty() {
        conditions.push(" AND (");
        conditions.append(&criteria.condition);
        conditions.push(")");
    }
    conditions
}

/// The admin API's JSON search answer.
pub fn result(total: usize, data: Vec<Value>) -> Value {
    json!({ "total": total, "data": data, "aggregations": [] })
}

/// The admin API's JSON search answer with the criteria's aggregations (Shopware's
/// `aggregations` object by name; `[]` when none were asked for, as Shopware answers).
pub fn result_with(total: usize, data: Vec<Value>, aggregations: Map<String, Value>) -> Value {
    let aggregations = if aggregations.is_empty() {
        json!([])
    } else {
        Value::Object(aggregations)
    };
    json!({ "total": total, "data": data, "aggregations": aggregations })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::criteria::{Expr, Kind};

    fn field(name: &str) -> Option<Field> {
        match name {
            "name" => Some(Field {
                expr: Expr::Column("t.name"),
                kind: Kind::Text,
                translated: false,
            }),
            "rank" => Some(Field {
                expr: Expr::Column("t.rank"),
                kind: Kind::Number,
                translated: false,
            }),
            _ => None,
        }
    }

    const THINGS: Entity = Entity {
        name: "thing",
        from: "FROM thing t WHERE 1",
        id: "t.id",
        order: "t.id",
        field,
    };

    #[test]
    fn filters_sorts_pages_and_counts_with_bound_values() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE thing (id TEXT PRIMARY KEY, name TEXT, rank INTEGER);
             INSERT INTO thing VALUES ('a', 'Apple', 3), ('b', 'Banana', 1), ('c', 'Cherry''); DROP TABLE thing; --', 2);",
        )
        .unwrap();
        let params = json!({
            "filter": [{"type": "multi", "operator": "or", "queries": [
                {"type": "contains", "field": "thing.name", "value": "an"},
                {"type": "range", "field": "rank", "parameters": {"gte": 2}}
            ]}],
            "sort": [{"field": "rank", "order": "DESC"}],
            "limit": 2, "page": 1, "total-count-mode": "exact"
        });
        let criteria = parse(params.as_object().unwrap(), &THINGS).unwrap();
        let (ids, total) = select(&conn, &THINGS, &criteria).unwrap();
        assert_eq!(ids, ["a", "c"]);
        assert_eq!(total, 3);
        let params = json!({"filter": [{"type": "equals", "field": "name", "value": "Cherry'); DROP TABLE thing; --"}]});
        let (ids, _) = select(
            &conn,
            &THINGS,
            &parse(params.as_object().unwrap(), &THINGS).unwrap(),
        )
        .unwrap();
        assert_eq!(ids, ["c"]);
        let params = json!({"filter": [{"type": "equals", "field": "password", "value": "x"}]});
        assert!(parse(params.as_object().unwrap(), &THINGS).is_err());
    }
}
