//! Admin users: admins manage the shop and its users, guides run appointments.
//! Admins only. The password is written (hashed), never answered; a deactivated
//! user's tokens end; the last active admin cannot be deactivated, demoted or deleted.
//!
//! Passwords are hashed before the write's transaction, within the bound on concurrent
//! hashing (`security::Passwords`, as logins): [`Prehashed`] (issue #29, item 3).

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};

use rusqlite::types::Value as SqlValue;
use rusqlite::Transaction;
use serde_json::Value;

use crate::account::password::hash_password;
use crate::admin_api::definition::{Access, Column, Definition, Extra, ExtraWrite, Hooks, Write};
use crate::error::{ApiError, ApiResult, Violation};
use crate::state::App;

/// Shortest and longest password.
pub const PASSWORD_LENGTH: (usize, usize) = (8, 1024);

pub static USER: Definition = Definition {
    name: "user",
    table: "admin_user",
    columns: &[
        Column::text("username", "username", 255)
            .required()
            .unique(),
        Column::text("firstName", "first_name", 255).required(),
        Column::text("lastName", "last_name", 255).required(),
        Column::text("email", "email", 255),
        Column::choice("role", "role", &["admin", "guide"]),
        Column::boolean("active", "active"),
    ],
    translation: None,
    extras: &[Extra {
        name: "password",
        write: ExtraWrite::Columns(password_columns),
        read: no_password,
        filter: None,
    }],
    ignored: &["localeId", "timeZone", "admin"],
    access: Access::AdminsOnly,
    hooks: Hooks {
        prepare,
        after_write,
        before_delete,
    },
    inherits_from: None,
};

/// Whether `password` has an acceptable length (else the write answers a violation).
fn acceptable(password: &str) -> bool {
    let (min, max) = PASSWORD_LENGTH;
    (min..=max).contains(&password.chars().count())
}

thread_local! {
    /// The hashes of the passwords of the write under way on this (the database's)
    /// thread, made before it by [`Prehashed::of`].
    static PREHASHED: RefCell<HashMap<String, VecDeque<String>>> = RefCell::new(HashMap::new());
}

/// The hashes of the new passwords of a write, made before its transaction within the
/// bound on concurrent hashing (a full queue: `429` at once), so that many parallel
/// password writes cost as much as many logins, not more.
#[derive(Default)]
pub struct Prehashed(HashMap<String, VecDeque<String>>);

impl Prehashed {
    /// Hashes the `password` of every record of `def` in `records` (user records only;
    /// a value with a violation is left to the write).
    pub async fn of<'a>(
        app: &App,
        def: &Definition,
        records: impl IntoIterator<Item = &'a Value>,
    ) -> ApiResult<Prehashed> {
        let mut hashes = Prehashed::default();
        if def.name != USER.name {
            return Ok(hashes);
        }
        let passwords: Vec<String> = records
            .into_iter()
            .filter_map(|record| record.get("password").and_then(Value::as_str))
            .filter(|password| acceptable(password))
            .map(str::to_owned)
            .collect();
        for password in passwords {
            let hash = app
                .security
                .passwords
                .hash(password.clone(), hash_password)
                .await?;
            hashes.0.entry(password).or_default().push_back(hash);
        }
        Ok(hashes)
    }

    /// These hashes and `other`'s.
    pub fn merge(&mut self, other: Prehashed) {
        for (password, hashes) in other.0 {
            self.0.entry(password).or_default().extend(hashes);
        }
    }

    /// Runs `write` (on the database's thread) with these hashes at hand.
    pub fn during<R>(self, write: impl FnOnce() -> R) -> R {
        PREHASHED.with(|hashes| *hashes.borrow_mut() = self.0);
        let result = write();
        PREHASHED.with(|hashes| hashes.borrow_mut().clear());
        result
    }

    /// The hash made beforehand for `password`, if any.
    fn take(password: &str) -> Option<String> {
        PREHASHED.with(|hashes| hashes.borrow_mut().get_mut(password)?.pop_front())
    }
}

fn password_columns(
    value: &Value,
    pointer: &str,
) -> Result<Vec<(&'static str, SqlValue)>, Vec<Violation>> {
    let (min, max) = PASSWORD_LENGTH;
    let Some(password) = value.as_str() else {
        return Err(vec![Violation::new(
            "VIOLATION::TYPE_ERROR",
            pointer.to_owned(),
            "This value should be of type string.",
        )]);
    };
    let length = password.chars().count();
    if length < min {
        return Err(vec![Violation::new(
            "VIOLATION::TOO_SHORT_ERROR",
            pointer.to_owned(),
            format!("A password has at least {min} characters."),
        )]);
    }
    if length > max {
        return Err(vec![Violation::new(
            "VIOLATION::TOO_LONG_ERROR",
            pointer.to_owned(),
            format!("A password has at most {max} characters."),
        )]);
    }
    // Hashed beforehand within the bound ([`Prehashed`]); a write that did not (none
    // does) hashes here.
    debug_assert!(acceptable(password));
    if let Some(hash) = Prehashed::take(password) {
        return Ok(vec![("password_hash", SqlValue::Text(hash))]);
    }
    match hash_password(password) {
        Ok(hash) => Ok(vec![("password_hash", SqlValue::Text(hash))]),
        Err(e) => Err(vec![Violation::new(
            "VIOLATION::INVALID_PASSWORD",
            pointer.to_owned(),
            e.to_string(),
        )]),
    }
}

fn no_password(
    _: &rusqlite::Connection,
    _: &[String],
) -> rusqlite::Result<std::collections::HashMap<String, Value>> {
    Ok(Default::default())
}

fn prepare(_: &Transaction, w: &mut Write) -> ApiResult<()> {
    if w.creating && !w.has("password_hash") {
        return Err(ApiError::Violations(vec![Violation::blank(format!(
            "{}/password",
            w.pointer
        ))]));
    }
    Ok(())
}

fn active_admins(tx: &Transaction, except: Option<&str>) -> rusqlite::Result<i64> {
    tx.query_row("SELECT COUNT(*) FROM admin_user WHERE role = 'admin' AND active = 1 AND id != COALESCE(?1, '')", [except], |r| r.get(0))
}

fn last_admin() -> ApiError {
    ApiError::bad_request(
        "ADMIN__LAST_ADMIN",
        "The shop needs at least one active admin: create another admin first.",
    )
}

fn after_write(tx: &Transaction, id: &str) -> ApiResult<()> {
    if active_admins(tx, None)? == 0 {
        return Err(last_admin());
    }
    // A deactivated user is signed out; a new password signs out every session (the
    // trigger `admin_user_password_changed`, migration 0080).
    tx.execute("DELETE FROM admin_token WHERE user_id = ?1 AND (SELECT active FROM admin_user WHERE id = ?1) = 0", [id])?;
    Ok(())
}

fn before_delete(tx: &Transaction, id: &str) -> ApiResult<Vec<String>> {
    if active_admins(tx, Some(id))? == 0 {
        return Err(last_admin());
    }
    Ok(Vec::new())
}
