//! Creating, updating and deleting any [`Definition`]'s rows inside a caller's
//! transaction: every field of the payload checked against its column (type, length,
//! range, choice, referenced row, uniqueness), all violations of a record answered
//! together with their JSON pointers, nothing written when one fails.

use rusqlite::types::Value as SqlValue;
use rusqlite::{params_from_iter, OptionalExtension, Transaction};
use serde_json::{Map, Value};

use super::definition::{Column, Definition, ExtraWrite, Kind, Write};
use crate::error::{ApiError, ApiResult, Violation};
use crate::storage::{is_id, new_id};

/// The shop's default language (the sales channel's), where untranslated writes go.
pub fn default_language(tx: &rusqlite::Connection) -> rusqlite::Result<String> {
    tx.query_row(
        "SELECT language_id FROM sales_channel ORDER BY rowid LIMIT 1",
        [],
        |r| r.get(0),
    )
}

/// A language by id or by code (`de-DE`), as Shopware's `translations` keys allow.
fn language(tx: &Transaction, key: &str) -> rusqlite::Result<Option<String>> {
    tx.query_row(
        "SELECT id FROM language WHERE id = ?1 OR code = ?1",
        [key],
        |r| r.get(0),
    )
    .optional()
}

pub fn exists(tx: &rusqlite::Connection, table: &str, id: &str) -> rusqlite::Result<bool> {
    tx.query_row(
        &format!("SELECT EXISTS(SELECT 1 FROM {table} WHERE id = ?1)"),
        [id],
        |r| r.get(0),
    )
}

pub fn not_found(def: &Definition, id: &str) -> ApiError {
    ApiError::not_found(
        "FRAMEWORK__ENTITY_NOT_FOUND",
        format!("Could not find {} with id \"{id}\".", def.name),
    )
}

/// Creates a row from `payload` (its `id` if it has one, else a new one); answers the id.
pub fn create(
    tx: &Transaction,
    def: &Definition,
    payload: &Value,
    pointer: &str,
) -> ApiResult<String> {
    let payload = object(payload, pointer)?;
    let id = match payload.get("id") {
        None | Some(Value::Null) => new_id(),
        Some(Value::String(id)) if is_id(id) => {
            if exists(tx, def.table, id)? {
                return Err(ApiError::Violations(vec![Violation::new(
                    "FRAMEWORK__WRITE_DUPLICATE_ID",
                    format!("{pointer}/id"),
                    format!("A {} with id \"{id}\" exists already.", def.name),
                )]));
            }
            id.clone()
        }
        Some(_) => return Err(invalid_id(pointer)),
    };
    write(tx, def, id.clone(), true, payload, pointer)?;
    Ok(id)
}

/// Updates the fields of `payload` on the row `id` (404 when there is none).
pub fn update(
    tx: &Transaction,
    def: &Definition,
    id: &str,
    payload: &Value,
    pointer: &str,
) -> ApiResult<()> {
    let payload = object(payload, pointer)?;
    if !exists(tx, def.table, id)? {
        return Err(not_found(def, id));
    }
    write(tx, def, id.to_owned(), false, payload, pointer)
}

/// Updates the row of the payload's `id` if there is one, else creates it.
pub fn upsert(
    tx: &Transaction,
    def: &Definition,
    payload: &Value,
    pointer: &str,
) -> ApiResult<String> {
    match payload.get("id").and_then(Value::as_str) {
        Some(id) if is_id(id) && exists(tx, def.table, id)? => {
            update(tx, def, id, payload, pointer)?;
            Ok(id.to_owned())
        }
        _ => create(tx, def, payload, pointer),
    }
}

/// Deletes the row `id`; `false` when there is none. A row other rows still need
/// (an ordered product, a guide's attendee) is refused with 409.
pub fn delete(tx: &Transaction, def: &Definition, id: &str) -> ApiResult<bool> {
    if !exists(tx, def.table, id)? {
        return Ok(false);
    }
    let follow_up = (def.hooks.before_delete)(tx, id)?;
    match tx.execute(&format!("DELETE FROM {} WHERE id = ?1", def.table), [id]) {
        Ok(_) => {}
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            return Err(ApiError::new(
                axum::http::StatusCode::CONFLICT,
                "FRAMEWORK__DELETE_RESTRICTED",
                format!(
                    "The {} with id \"{id}\" is still used by other records and cannot be deleted.",
                    def.name
                ),
            ));
        }
        Err(e) => return Err(e.into()),
    }
    for other in follow_up {
        (def.hooks.after_write)(tx, &other)?;
    }
    Ok(true)
}

fn object<'a>(payload: &'a Value, pointer: &str) -> ApiResult<&'a Map<String, Value>> {
    payload.as_object().ok_or_else(|| {
        ApiError::Violations(vec![Violation::new(
            "VIOLATION::TYPE_ERROR",
            pointer.to_owned(),
            "A record must be a JSON object.",
        )])
    })
}

fn invalid_id(pointer: &str) -> ApiError {
    ApiError::Violations(vec![Violation::new(
        "VIOLATION::INVALID_ID",
        format!("{pointer}/id"),
        "An id is 32 lowercase hexadecimal characters.",
    )])
}

fn write(
    tx: &Transaction,
    def: &Definition,
    id: String,
    creating: bool,
    payload: &Map<String, Value>,
    pointer: &str,
) -> ApiResult<()> {
    let mut violations = Vec::new();
    let mut w = Write {
        id,
        creating,
        values: Vec::new(),
        payload: payload.clone(),
        pointer: pointer.to_owned(),
    };
    let default_language = default_language(tx)?;
    // (language id, column, value) of translated fields.
    let mut translations: Vec<(String, &'static str, SqlValue)> = Vec::new();
    let mut afters = Vec::new();
    for (key, value) in payload {
        let at = format!("{pointer}/{key}");
        if key == "id" {
            continue;
        }
        if let Some(column) = def.column(key) {
            if column.read_only {
                violations.push(Violation::new(
                    "FRAMEWORK__WRITE_PROTECTED",
                    at,
                    format!("The field {key} is read-only."),
                ));
            } else {
                match check(tx, column, value, &at) {
                    Ok(v) => w.set(column.column, v),
                    Err(v) => violations.push(v),
                }
            }
        } else if let Some(column) = def.translated(key) {
            match check(tx, column, value, &at) {
                Ok(v) => translations.push((default_language.clone(), column.column, v)),
                Err(v) => violations.push(v),
            }
        } else if key == "translations" && def.translation.is_some() {
            collect_translations(tx, def, value, &at, &mut translations, &mut violations)?;
        } else if let Some(extra) = def.extra(key) {
            match extra.write {
                ExtraWrite::Columns(to_columns) => match to_columns(value, &at) {
                    Ok(columns) => columns.into_iter().for_each(|(c, v)| w.set(c, v)),
                    Err(found) => violations.extend(found),
                },
                ExtraWrite::After(after) => afters.push((after, value.clone(), at)),
                ExtraWrite::ReadOnly => violations.push(Violation::new(
                    "FRAMEWORK__WRITE_PROTECTED",
                    at,
                    format!("The field {key} is read-only."),
                )),
            }
        } else if !def.ignored.contains(&key.as_str()) {
            violations.push(Violation::new(
                "FRAMEWORK__WRITE_UNEXPECTED_FIELD",
                at,
                format!("The field {key} is not a field of {}.", def.name),
            ));
        }
    }
    if creating {
        for column in def.columns.iter().filter(|c| c.required && !c.read_only) {
            if !w.has(column.column)
                && !violations
                    .iter()
                    .any(|v| v.pointer == format!("{pointer}/{}", column.name))
            {
                violations.push(Violation::blank(format!("{pointer}/{}", column.name)));
            }
        }
    }
    for column in def.columns.iter().filter(|c| c.unique) {
        if let Some(value) = w.get(column.column) {
            let taken: bool = tx.query_row(
                &format!(
                    "SELECT EXISTS(SELECT 1 FROM {} WHERE {} = ?1 AND id != ?2)",
                    def.table, column.column
                ),
                rusqlite::params![value, w.id],
                |r| r.get(0),
            )?;
            if taken {
                violations.push(Violation::new(
                    "VIOLATION::DUPLICATE_VALUE",
                    format!("{pointer}/{}", column.name),
                    format!(
                        "The {} \"{}\" is already used by another {}.",
                        column.name,
                        display(value),
                        def.name
                    ),
                ));
            }
        }
    }
    if !violations.is_empty() {
        return Err(ApiError::Violations(violations));
    }
    (def.hooks.prepare)(tx, &mut w)?;
    if creating {
        let mut columns = vec!["id"];
        let mut values = vec![SqlValue::Text(w.id.clone())];
        for (column, value) in &w.values {
            columns.push(column);
            values.push(value.clone());
        }
        let marks: Vec<String> = (1..=values.len()).map(|n| format!("?{n}")).collect();
        tx.execute(
            &format!(
                "INSERT INTO {} ({}) VALUES ({})",
                def.table,
                columns.join(", "),
                marks.join(", ")
            ),
            params_from_iter(values),
        )?;
    } else if !w.values.is_empty() {
        let sets: Vec<String> = w
            .values
            .iter()
            .enumerate()
            .map(|(n, (column, _))| format!("{column} = ?{}", n + 2))
            .collect();
        let mut values = vec![SqlValue::Text(w.id.clone())];
        values.extend(w.values.iter().map(|(_, v)| v.clone()));
        tx.execute(
            &format!("UPDATE {} SET {} WHERE id = ?1", def.table, sets.join(", ")),
            params_from_iter(values),
        )?;
    }
    if let Some(translation) = &def.translation {
        let mut languages: Vec<&String> = translations.iter().map(|(l, _, _)| l).collect();
        languages.dedup();
        let mut done = Vec::new();
        for language in languages {
            if done.contains(&language) {
                continue;
            }
            done.push(language);
            let fields: Vec<&(String, &str, SqlValue)> = translations
                .iter()
                .filter(|(l, _, _)| l == language)
                .collect();
            let columns: Vec<&str> = fields.iter().map(|(_, c, _)| *c).collect();
            let marks: Vec<String> = (3..3 + fields.len()).map(|n| format!("?{n}")).collect();
            let updates: Vec<String> = columns
                .iter()
                .map(|c| format!("{c} = excluded.{c}"))
                .collect();
            let mut values = vec![
                SqlValue::Text(w.id.clone()),
                SqlValue::Text(language.clone()),
            ];
            values.extend(fields.iter().map(|(_, _, v)| v.clone()));
            tx.execute(
                &format!(
                    "INSERT INTO {table} ({key}, language_id, {columns}) VALUES (?1, ?2, {marks})
                     ON CONFLICT ({key}, language_id) DO UPDATE SET {updates}",
                    table = translation.table,
                    key = translation.key,
                    columns = columns.join(", "),
                    marks = marks.join(", "),
                    updates = updates.join(", "),
                ),
                params_from_iter(values),
            )?;
        }
        if creating {
            let mut missing = Vec::new();
            for column in translation.fields.iter().filter(|c| c.required) {
                let present: bool = tx.query_row(
                    &format!(
                        "SELECT EXISTS(SELECT 1 FROM {} WHERE {} = ?1 AND language_id = ?2 AND {} IS NOT NULL)",
                        translation.table, translation.key, column.column
                    ),
                    [&w.id, &default_language],
                    |r| r.get(0),
                )?;
                if !present && !def.inherits_from.is_some_and(|parent| w.has(parent)) {
                    missing.push(Violation::blank(format!("{pointer}/{}", column.name)));
                }
            }
            if !missing.is_empty() {
                return Err(ApiError::Violations(missing));
            }
        }
    }
    for (after, value, at) in afters {
        after(tx, &w.id, &value, &at)?;
    }
    (def.hooks.after_write)(tx, &w.id)?;
    Ok(())
}

fn display(value: &SqlValue) -> String {
    match value {
        SqlValue::Text(t) => t.clone(),
        SqlValue::Integer(i) => i.to_string(),
        SqlValue::Real(f) => f.to_string(),
        _ => String::new(),
    }
}

/// `translations` as `{"de-DE": {"name": …}}` (keys: language ids or codes) or as
/// `[{"languageId": …, "name": …}]`.
fn collect_translations(
    tx: &Transaction,
    def: &Definition,
    value: &Value,
    pointer: &str,
    into: &mut Vec<(String, &'static str, SqlValue)>,
    violations: &mut Vec<Violation>,
) -> ApiResult<()> {
    let entries: Vec<(String, String, &Map<String, Value>)> = match value {
        Value::Object(map) => map
            .iter()
            .filter_map(|(key, fields)| {
                fields
                    .as_object()
                    .map(|f| (key.clone(), format!("{pointer}/{key}"), f))
            })
            .collect(),
        Value::Array(list) => list
            .iter()
            .enumerate()
            .filter_map(|(n, fields)| {
                let fields = fields.as_object()?;
                let key = fields
                    .get("languageId")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                Some((key, format!("{pointer}/{n}"), fields))
            })
            .collect(),
        _ => {
            violations.push(Violation::new(
                "VIOLATION::TYPE_ERROR",
                pointer.to_owned(),
                "translations must be an object or a list.",
            ));
            return Ok(());
        }
    };
    for (key, at, fields) in entries {
        let Some(language) = language(tx, &key)? else {
            violations.push(Violation::new(
                "VIOLATION::ENTITY_DOES_NOT_EXIST",
                format!("{at}/languageId"),
                format!("There is no language \"{key}\"."),
            ));
            continue;
        };
        for (name, value) in fields {
            if name == "languageId" {
                continue;
            }
            let field_at = format!("{at}/{name}");
            match def.translated(name) {
                Some(column) => match check(
                    tx,
                    &Column {
                        required: false,
                        ..*column
                    },
                    value,
                    &field_at,
                ) {
                    Ok(v) => into.push((language.clone(), column.column, v)),
                    Err(v) => violations.push(v),
                },
                None => violations.push(Violation::new(
                    "FRAMEWORK__WRITE_UNEXPECTED_FIELD",
                    field_at,
                    format!(
                        "The field {name} is not a translated field of {}.",
                        def.name
                    ),
                )),
            }
        }
    }
    Ok(())
}

/// The column value of a JSON value, or the violation.
pub fn check(
    tx: &rusqlite::Connection,
    column: &Column,
    value: &Value,
    pointer: &str,
) -> Result<SqlValue, Violation> {
    let violation =
        |code: &'static str, detail: String| Violation::new(code, pointer.to_owned(), detail);
    if value.is_null() {
        let nullable = column.nullable
            || !column.required
                && matches!(
                    column.kind,
                    Kind::Text { .. } | Kind::Id { .. } | Kind::Date | Kind::Float { .. }
                );
        return if nullable {
            Ok(SqlValue::Null)
        } else {
            Err(Violation::new(
                "VIOLATION::IS_BLANK_ERROR",
                pointer.to_owned(),
                "This value should not be null.",
            ))
        };
    }
    match column.kind {
        Kind::Text { max } => {
            let Some(text) = value.as_str() else {
                return Err(violation("VIOLATION::TYPE_ERROR", "This value should be of type string.".into()));
            };
            if column.required && text.trim().is_empty() {
                return Err(Violation::blank(pointer));
            }
            if text.chars().count() > max {
                return Err(violation(
                    "VIOLATION::TOO_LONG_ERROR",
                    format!("This value is too long. It should have {max} characters or less."),
                ));
            }
            Ok(SqlValue::Text(if column.rich_text { crate::rich_text::clean(text) } else { text.to_owned() }))
        }
        Kind::Int { min, max } => {
            let number = value.as_i64().or_else(|| value.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9e15).map(|f| f as i64));
            let Some(number) = number else { return Err(violation("VIOLATION::TYPE_ERROR", "This value should be of type int.".into())) };
            if number < min {
                return Err(violation("VIOLATION::TOO_LOW_ERROR", format!("This value should be {min} or more.")));
            }
            if number > max {
                return Err(violation("VIOLATION::TOO_HIGH_ERROR", format!("This value should be {max} or less.")));
            }
            Ok(SqlValue::Integer(number))
        }
        Kind::Float { min } => {
            let Some(number) = value.as_f64().filter(|f| f.is_finite()) else {
                return Err(violation("VIOLATION::TYPE_ERROR", "This value should be of type float.".into()));
            };
            if number < min {
                return Err(violation("VIOLATION::TOO_LOW_ERROR", format!("This value should be {min} or more.")));
            }
            Ok(SqlValue::Real(number))
        }
        Kind::Bool => match value.as_bool() {
            Some(b) => Ok(SqlValue::Integer(b as i64)),
            None => Err(violation("VIOLATION::TYPE_ERROR", "This value should be of type bool.".into())),
        },
        Kind::Id { table } => {
            let Some(id) = value.as_str().filter(|id| is_id(id)) else {
                return Err(violation("VIOLATION::INVALID_ID", "An id is 32 lowercase hexadecimal characters.".into()));
            };
            match exists(tx, table, id) {
                Ok(true) => Ok(SqlValue::Text(id.to_owned())),
                Ok(false) => Err(violation("VIOLATION::ENTITY_DOES_NOT_EXIST", format!("There is no {table} with id \"{id}\"."))),
                Err(e) => Err(violation("VIOLATION::ENTITY_DOES_NOT_EXIST", e.to_string())),
            }
        }
        Kind::Choice(choices) => match value.as_str().filter(|v| choices.contains(v)) {
            Some(v) => Ok(SqlValue::Text(v.to_owned())),
            None => Err(violation("VIOLATION::NO_SUCH_CHOICE_ERROR", format!("The value should be one of: {}.", choices.join(", ")))),
        },
        Kind::Date => match value.as_str().and_then(parse_date) {
            Some(date) => Ok(SqlValue::Text(date)),
            None => Err(violation(
                "VIOLATION::INVALID_DATE_TIME",
                "This value is not a valid date and time (RFC 3339, e.g. 2026-11-26T10:00:00+00:00).".into(),
            )),
        },
    }
}

/// An RFC 3339 date and time (or a plain date, at midnight UTC), in UTC.
pub fn parse_date(text: &str) -> Option<String> {
    use time::format_description::well_known::Rfc3339;
    let parsed = time::OffsetDateTime::parse(text, &Rfc3339)
        .or_else(|_| time::OffsetDateTime::parse(&format!("{text}T00:00:00Z"), &Rfc3339))
        .or_else(|_| time::OffsetDateTime::parse(&format!("{text}Z"), &Rfc3339))
        .ok()?;
    parsed.to_offset(time::UtcOffset::UTC).format(&Rfc3339).ok()
}
