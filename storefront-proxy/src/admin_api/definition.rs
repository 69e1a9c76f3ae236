//! What an Admin API entity is made of: its table, its columns with their validation,
//! its translated fields, its associations and the hooks that keep derived data (the
//! storefront's listing index, search index, category paths) in step. One
//! [`Definition`] per entity; the routes, the sync endpoint and the criteria are
//! generic over them (`write.rs`, `read.rs`).

use std::collections::HashMap;

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, Transaction};
use serde_json::{Map, Value};

use crate::admin::oauth::Role;
use crate::catalog::criteria::Expr;
use crate::error::{ApiResult, Violation};

/// How a column's JSON value is checked and stored.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// A string of at most `max` characters.
    Text {
        max: usize,
    },
    Int {
        min: i64,
        max: i64,
    },
    Float {
        min: f64,
    },
    Bool,
    /// The id of a row of `table` that must exist.
    Id {
        table: &'static str,
    },
    /// One of a fixed list of strings.
    Choice(&'static [&'static str]),
    /// An RFC 3339 date and time (`2026-11-26T10:00:00+00:00`).
    Date,
}

/// One column of an entity's table (or of its translation table).
#[derive(Debug, Clone, Copy)]
pub struct Column {
    /// The JSON name (camelCase, as Shopware names it).
    pub name: &'static str,
    pub column: &'static str,
    pub kind: Kind,
    /// Needed on create.
    pub required: bool,
    /// No two rows share a value.
    pub unique: bool,
    /// Answered but never written by a client (derived, or set by the server).
    pub read_only: bool,
    /// May be set to null (text, ids, dates and decimals may unless required).
    pub nullable: bool,
    /// HTML, stored as `crate::rich_text::clean` leaves it (a text column).
    pub rich_text: bool,
}

impl Column {
    pub const fn new(name: &'static str, column: &'static str, kind: Kind) -> Column {
        Column {
            name,
            column,
            kind,
            required: false,
            unique: false,
            read_only: false,
            nullable: false,
            rich_text: false,
        }
    }
    pub const fn text(name: &'static str, column: &'static str, max: usize) -> Column {
        Column::new(name, column, Kind::Text { max })
    }
    pub const fn int(name: &'static str, column: &'static str, min: i64, max: i64) -> Column {
        Column::new(name, column, Kind::Int { min, max })
    }
    pub const fn float(name: &'static str, column: &'static str) -> Column {
        Column::new(name, column, Kind::Float { min: 0.0 })
    }
    pub const fn boolean(name: &'static str, column: &'static str) -> Column {
        Column::new(name, column, Kind::Bool)
    }
    pub const fn id(name: &'static str, column: &'static str, table: &'static str) -> Column {
        Column::new(name, column, Kind::Id { table })
    }
    pub const fn choice(
        name: &'static str,
        column: &'static str,
        values: &'static [&'static str],
    ) -> Column {
        Column::new(name, column, Kind::Choice(values))
    }
    pub const fn date(name: &'static str, column: &'static str) -> Column {
        Column::new(name, column, Kind::Date)
    }
    pub const fn required(self) -> Column {
        Column {
            required: true,
            ..self
        }
    }
    pub const fn unique(self) -> Column {
        Column {
            unique: true,
            ..self
        }
    }
    pub const fn nullable(self) -> Column {
        Column {
            nullable: true,
            ..self
        }
    }
    pub const fn read_only(self) -> Column {
        Column {
            read_only: true,
            ..self
        }
    }
    /// A text column of HTML, sanitised on write.
    pub const fn rich_text(self) -> Column {
        Column {
            rich_text: true,
            ..self
        }
    }
}

/// The translated fields of an entity: one row per entity and language in `table`,
/// keyed by `key` and `language_id`.
#[derive(Debug, Clone, Copy)]
pub struct Translation {
    pub table: &'static str,
    pub key: &'static str,
    pub fields: &'static [Column],
}

/// Columns of the entity's own row, or the violations of the value.
pub type ColumnsOf = Result<Vec<(&'static str, SqlValue)>, Vec<Violation>>;

/// An association's values by entity id.
pub type ValuesById = rusqlite::Result<HashMap<String, Value>>;

/// How an association field is written.
#[derive(Clone, Copy)]
pub enum ExtraWrite {
    /// Turns the value into columns of the entity's own row (a product's `price`).
    Columns(fn(&Value, &str) -> ColumnsOf),
    /// Writes other tables once the row exists (a product's `categories`): the
    /// transaction, the entity id, the value and its JSON pointer.
    After(fn(&Transaction, &str, &Value, &str) -> ApiResult<()>),
    /// Answered only (a media file's `url`).
    ReadOnly,
}

/// A field that is not a plain column: an association or a value spread over
/// several columns.
#[derive(Clone, Copy)]
pub struct Extra {
    pub name: &'static str,
    pub write: ExtraWrite,
    /// The field's value for each of the ids (absent ids get none).
    pub read: fn(&Connection, &[String]) -> ValuesById,
    /// Criteria may filter on `{name}.id` through this relation.
    pub filter: Option<Expr>,
}

/// Who may use an entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Guides may read (they search the catalogue in the live room); admins write.
    GuidesRead,
    /// Admins only, reads included (users).
    AdminsOnly,
    /// Guides read and write too: their own working tools in the live room (interaction templates).
    GuidesWrite,
    /// Admins read; nobody writes through the generic routes (orders change through
    /// their actions; rules and languages are fixed).
    ReadOnly,
}

impl Access {
    pub fn may_read(self, role: Role) -> bool {
        role == Role::Admin || !matches!(self, Access::AdminsOnly | Access::ReadOnly)
    }

    pub fn may_write(self, role: Role) -> bool {
        self != Access::ReadOnly && (role == Role::Admin || self == Access::GuidesWrite)
    }
}

/// One row being written: its id, whether it is new, the columns to set, and the
/// client's payload (for hooks that look at more than columns).
pub struct Write {
    pub id: String,
    pub creating: bool,
    pub values: Vec<(&'static str, SqlValue)>,
    pub payload: Map<String, Value>,
    /// The JSON pointer of the record (`/0`, `/write-product/3`).
    pub pointer: String,
}

impl Write {
    /// Sets a column, replacing a value set before.
    pub fn set(&mut self, column: &'static str, value: impl Into<SqlValue>) {
        let value = value.into();
        match self.values.iter_mut().find(|(c, _)| *c == column) {
            Some(entry) => entry.1 = value,
            None => self.values.push((column, value)),
        }
    }

    pub fn get(&self, column: &str) -> Option<&SqlValue> {
        self.values
            .iter()
            .find(|(c, _)| *c == column)
            .map(|(_, v)| v)
    }

    pub fn has(&self, column: &str) -> bool {
        self.get(column).is_some()
    }

    /// A violation at a field of this record.
    pub fn violation(
        &self,
        code: &'static str,
        field: &str,
        detail: impl Into<String>,
    ) -> Violation {
        Violation::new(code, format!("{}/{field}", self.pointer), detail)
    }
}

/// What runs around the generic write.
#[derive(Clone, Copy)]
pub struct Hooks {
    /// Before the row is written: derived columns, defaults, checks across fields.
    pub prepare: fn(&Transaction, &mut Write) -> ApiResult<()>,
    /// After the row, its translations and associations are written.
    pub after_write: fn(&Transaction, &str) -> ApiResult<()>,
    /// Before a row is deleted; answers ids to hand to `after_write` once it is gone
    /// (a variant's parent).
    pub before_delete: fn(&Transaction, &str) -> ApiResult<Vec<String>>,
}

fn nothing_to_prepare(_: &Transaction, _: &mut Write) -> ApiResult<()> {
    Ok(())
}
fn nothing_after(_: &Transaction, _: &str) -> ApiResult<()> {
    Ok(())
}
fn nothing_before_delete(_: &Transaction, _: &str) -> ApiResult<Vec<String>> {
    Ok(Vec::new())
}

pub const NO_HOOKS: Hooks = Hooks {
    prepare: nothing_to_prepare,
    after_write: nothing_after,
    before_delete: nothing_before_delete,
};

/// An Admin API entity.
pub struct Definition {
    /// Shopware's entity name (`product_manufacturer`); the URL uses it with dashes
    /// (`/api/product-manufacturer`).
    pub name: &'static str,
    pub table: &'static str,
    pub columns: &'static [Column],
    pub translation: Option<Translation>,
    pub extras: &'static [Extra],
    /// Fields Shopware clients send that this shop has no use for; accepted and
    /// dropped (any other unknown field is a 400).
    pub ignored: &'static [&'static str],
    pub access: Access,
    pub hooks: Hooks,
    /// A row with this column set (a variant's `parent_id`) inherits its required
    /// translated fields.
    pub inherits_from: Option<&'static str>,
}

impl Definition {
    /// The URL segment: `product-manufacturer`.
    pub fn url_name(&self) -> String {
        self.name.replace('_', "-")
    }

    pub fn column(&self, name: &str) -> Option<&'static Column> {
        self.columns.iter().find(|c| c.name == name)
    }

    pub fn translated(&self, name: &str) -> Option<&'static Column> {
        self.translation
            .as_ref()
            .and_then(|t| t.fields.iter().find(|c| c.name == name))
    }

    pub fn extra(&self, name: &str) -> Option<&'static Extra> {
        self.extras.iter().find(|e| e.name == name)
    }
}
