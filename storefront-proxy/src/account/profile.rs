//! The logged-in customer changes their account: `POST /store-api/account/change-profile`,
//! `/change-email`, `/change-password` and `/change-payment-method/{paymentMethodId}`.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use rusqlite::{params, OptionalExtension};
use serde_json::{json, Map, Value};

use super::address::{required, text};
use super::logged_in::{LoggedIn, Registered};
use super::session::{end_other_sessions, is_email, new_password_violations};
use crate::error::{ApiError, ApiResult, Violation};
use crate::security::Throttle;
use crate::state::App;
use crate::storage::{is_id, now_rfc3339};
use crate::store_api::RequestParams;

/// Shopware's `SuccessResponse`.
pub fn success() -> Json<Value> {
    Json(json!({ "success": true, "apiAlias": "array_struct" }))
}

fn password_not_correct(pointer: &str) -> Violation {
    Violation::new(
        "VIOLATION::CUSTOMER_PASSWORD_NOT_CORRECT",
        pointer,
        "Your password is wrong",
    )
}

fn not_equal(pointer: &str) -> Violation {
    Violation::new(
        "VIOLATION::NOT_EQUAL_ERROR",
        pointer,
        "This value should be equal to the value it is confirming.",
    )
}

/// A string field as sent (not trimmed: passwords), `None` when absent; other types are
/// a violation.
pub fn raw<'a>(
    body: &'a Map<String, Value>,
    key: &str,
    violations: &mut Vec<Violation>,
) -> Option<&'a str> {
    match body.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => {
            violations.push(Violation::new(
                "VIOLATION::INVALID_TYPE_ERROR",
                format!("/{key}"),
                "This value should be of type string.",
            ));
            None
        }
    }
}

/// Hashes a new password off the async runtime, within the bound on concurrent hashing.
pub async fn hash_password(app: &App, password: String) -> ApiResult<String> {
    app.security
        .passwords
        .hash(password, super::password::hash_password)
        .await
}

/// Whether `password` is the customer's current password.
async fn password_matches(app: &App, customer_id: &str, password: &str) -> ApiResult<bool> {
    let id = customer_id.to_owned();
    let hash: Option<String> = app
        .db
        .call(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT password_hash FROM customer WHERE id = ?1",
                    [&id],
                    |r| r.get(0),
                )
                .optional()?
                .flatten())
        })
        .await?;
    app.security
        .passwords
        .verify(hash, password.to_owned())
        .await
}

/// A birthday part: an integer or a numeric string.
fn birthday_part(
    body: &Map<String, Value>,
    key: &str,
    violations: &mut Vec<Violation>,
) -> Option<i64> {
    match body.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.trim().is_empty() => None,
        Some(value) => match crate::catalog::criteria::integer(value) {
            Some(n) => Some(n),
            None => {
                violations.push(Violation::new(
                    "VIOLATION::INVALID_TYPE_ERROR",
                    format!("/{key}"),
                    "This value should be of type numeric.",
                ));
                None
            }
        },
    }
}

/// The birthday of `birthdayDay`, `birthdayMonth`, `birthdayYear`: all three or none.
fn birthday(body: &Map<String, Value>, violations: &mut Vec<Violation>) -> Option<String> {
    let day = birthday_part(body, "birthdayDay", violations);
    let month = birthday_part(body, "birthdayMonth", violations);
    let year = birthday_part(body, "birthdayYear", violations);
    let (day, month, year) = match (day, month, year) {
        (None, None, None) => return None,
        (Some(d), Some(m), Some(y)) => (d, m, y),
        parts => {
            for (part, key) in [
                (parts.0, "birthdayDay"),
                (parts.1, "birthdayMonth"),
                (parts.2, "birthdayYear"),
            ] {
                if part.is_none() {
                    violations.push(Violation::blank(format!("/{key}")));
                }
            }
            return None;
        }
    };
    let date = (|| {
        let month = time::Month::try_from(u8::try_from(month).ok()?).ok()?;
        time::Date::from_calendar_date(i32::try_from(year).ok()?, month, u8::try_from(day).ok()?)
            .ok()
    })();
    let Some(date) = date.filter(|d| d.year() >= 1900) else {
        violations.push(Violation::new(
            "VIOLATION::INVALID_DATE_ERROR",
            "/birthdayDay",
            "This value is not a valid date.",
        ));
        return None;
    };
    if date > time::OffsetDateTime::now_utc().date() {
        violations.push(Violation::new(
            "VIOLATION::TOO_HIGH_ERROR",
            "/birthdayYear",
            "The birthday must not be in the future.",
        ));
        return None;
    }
    Some(format!(
        "{:04}-{:02}-{:02}",
        date.year(),
        u8::from(date.month()),
        date.day()
    ))
}

/// `POST /store-api/account/change-profile`: salutation, title, names, birthday, and
/// the account type (a business account needs a company and at least one VAT id).
pub async fn change_profile(
    user: LoggedIn,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut violations = Vec::new();
    let first_name = required(&body, "firstName", "", &mut violations);
    let last_name = required(&body, "lastName", "", &mut violations);
    let title = text(&body, "title", "", &mut violations);
    let salutation_id = text(&body, "salutationId", "", &mut violations).map(|s| s.to_lowercase());
    let birthday = birthday(&body, &mut violations);
    let account_type = match body.get("accountType") {
        None | Some(Value::Null) => "private".to_owned(),
        Some(Value::String(t)) if t == "private" || t == "business" => t.clone(),
        Some(_) => {
            violations.push(Violation::new(
                "VIOLATION::NO_SUCH_CHOICE_ERROR",
                "/accountType",
                "The account type must be private or business.",
            ));
            "private".to_owned()
        }
    };
    // Fields not sent stay as they are.
    let has = |key: &str| body.contains_key(key);
    let (set_salutation, set_title, set_account) =
        (has("salutationId"), has("title"), has("accountType"));
    let set_birthday = ["birthdayDay", "birthdayMonth", "birthdayYear"]
        .iter()
        .any(|k| has(k));
    let business = account_type == "business";
    let company = if business {
        Some(required(&body, "company", "", &mut violations))
    } else {
        None
    };
    let vat_ids: Option<Vec<String>> = match body.get("vatIds") {
        _ if !business => None,
        None | Some(Value::Null) => {
            violations.push(Violation::blank("/vatIds"));
            None
        }
        Some(Value::Array(items)) if items.is_empty() => {
            violations.push(Violation::new(
                "VIOLATION::TOO_FEW_ERROR",
                "/vatIds",
                "This collection should contain 1 element or more.",
            ));
            None
        }
        Some(Value::Array(items)) => {
            let mut ids = Vec::new();
            for (i, item) in items.iter().enumerate() {
                match item.as_str().map(str::trim) {
                    Some(id) if !id.is_empty() && id.len() <= 255 => ids.push(id.to_owned()),
                    _ => violations.push(Violation::new(
                        "VIOLATION::INVALID_TYPE_ERROR",
                        format!("/vatIds/{i}"),
                        "Every VAT id must be a non-empty string.",
                    )),
                }
            }
            Some(ids)
        }
        Some(_) => {
            violations.push(Violation::new(
                "VIOLATION::INVALID_TYPE_ERROR",
                "/vatIds",
                "This value should be of type array.",
            ));
            None
        }
    };
    app.db
        .call(move |conn| {
            if let Some(salutation) = &salutation_id {
                let exists: bool = conn.query_row(
                    "SELECT EXISTS(SELECT 1 FROM salutation WHERE id = ?1)",
                    [salutation],
                    |r| r.get(0),
                )?;
                if !exists {
                    violations.push(Violation::new(
                        "VIOLATION::NO_SUCH_CHOICE_ERROR",
                        "/salutationId",
                        "The selected salutation does not exist.",
                    ));
                }
            }
            if !violations.is_empty() {
                return Ok(Err(ApiError::Violations(violations)));
            }
            let vat_ids = vat_ids.map(|ids| json!(ids).to_string());
            conn.execute(
                "UPDATE customer SET first_name = ?1, last_name = ?2,
                    salutation_id = CASE WHEN ?3 THEN ?4 ELSE salutation_id END,
                    title = CASE WHEN ?5 THEN ?6 ELSE title END,
                    birthday = CASE WHEN ?7 THEN ?8 ELSE birthday END,
                    account_type = CASE WHEN ?9 THEN ?10 ELSE account_type END,
                    company = CASE WHEN ?9 THEN ?11 ELSE company END,
                    vat_ids = CASE WHEN ?9 THEN ?12 ELSE vat_ids END,
                    updated_at = ?13
                 WHERE id = ?14",
                params![
                    first_name,
                    last_name,
                    set_salutation,
                    salutation_id,
                    set_title,
                    title,
                    set_birthday,
                    birthday,
                    set_account,
                    account_type,
                    company,
                    vat_ids,
                    now_rfc3339(),
                    user.customer_id
                ],
            )?;
            Ok(Ok(()))
        })
        .await??;
    Ok(success())
}

/// `POST /store-api/account/change-email`: a new, unused address, confirmed, with the
/// current password. Guests cannot.
pub async fn change_email(
    Registered(user): Registered,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut violations = Vec::new();
    let email = required(&body, "email", "", &mut violations).to_lowercase();
    let confirmation =
        text(&body, "emailConfirmation", "", &mut violations).map(|e| e.to_lowercase());
    let password = raw(&body, "password", &mut violations)
        .unwrap_or_default()
        .to_owned();
    if !email.is_empty() && !is_email(&email) {
        violations.push(Violation::new(
            "VIOLATION::INVALID_EMAIL_FORMAT_ERROR",
            "/email",
            "This value is not a valid email address.",
        ));
    }
    if confirmation.as_deref() != Some(email.as_str()) {
        violations.push(not_equal("/emailConfirmation"));
    }
    if password.is_empty() {
        violations.push(Violation::blank("/password"));
    } else if !password_matches(&app, &user.customer_id, &password).await? {
        violations.push(password_not_correct("/password"));
    }
    app.db
        .call(move |conn| {
            if is_email(&email) {
                let taken: bool = conn.query_row(
                    "SELECT EXISTS(SELECT 1 FROM customer WHERE lower(email) = ?1 AND guest = 0 AND id != ?2)",
                    [&email, &user.customer_id],
                    |r| r.get(0),
                )?;
                if taken {
                    violations.push(Violation::new(
                        "VIOLATION::CUSTOMER_EMAIL_NOT_UNIQUE",
                        "/email",
                        format!("The email address {email} is already in use"),
                    ));
                }
            }
            if !violations.is_empty() {
                return Ok(Err(ApiError::Violations(violations)));
            }
            conn.execute("UPDATE customer SET email = ?1, updated_at = ?2 WHERE id = ?3", params![email, now_rfc3339(), user.customer_id])?;
            Ok(Ok(()))
        })
        .await??;
    Ok(success())
}

/// `POST /store-api/account/change-password`: the current password and a new one,
/// twice. Guests cannot.
pub async fn change_password(
    Registered(user): Registered,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut violations = Vec::new();
    let password = raw(&body, "password", &mut violations)
        .unwrap_or_default()
        .to_owned();
    let new_password = raw(&body, "newPassword", &mut violations).map(str::to_owned);
    let confirm = raw(&body, "newPasswordConfirm", &mut violations).map(str::to_owned);
    new_password_violations(new_password.as_deref(), "/newPassword", &mut violations);
    if new_password.is_some() && confirm != new_password {
        violations.push(not_equal("/newPasswordConfirm"));
    }
    if password.is_empty() {
        violations.push(Violation::blank("/password"));
    } else {
        // Wrong current passwords wait longer and longer, per account (as logins do).
        let keys = [(Throttle::PasswordChange, user.customer_id.as_str())];
        app.security.throttle(&keys)?;
        if password_matches(&app, &user.customer_id, &password).await? {
            app.security.forget(&keys);
        } else {
            violations.push(password_not_correct("/password"));
        }
    }
    if !violations.is_empty() {
        return Err(ApiError::Violations(violations));
    }
    let hash = hash_password(&app, new_password.unwrap_or_default()).await?;
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "UPDATE customer SET password_hash = ?1, updated_at = ?2 WHERE id = ?3",
                params![hash, now_rfc3339(), user.customer_id],
            )?;
            end_other_sessions(&tx, &user.customer_id, Some(&user.token))?;
            tx.commit()?;
            Ok(())
        })
        .await?;
    Ok(success())
}

fn unknown_payment_method(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "CHECKOUT__CUSTOMER_CHANGE_PAYMENT_METHOD_NOT_FOUND",
        format!("Change Payment to method {id} not possible."),
    )
}

/// `POST /store-api/account/change-payment-method/{paymentMethodId}`: the customer's
/// default payment method and the session's, at once (guests too).
pub async fn change_payment_method(
    user: LoggedIn,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let id = id.to_lowercase();
    if !is_id(&id) {
        return Err(crate::catalog::invalid_id(&id, "/paymentMethodId"));
    }
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let active: bool = tx.query_row(
                "SELECT EXISTS(SELECT 1 FROM payment_method WHERE id = ?1 AND active = 1)",
                [&id],
                |r| r.get(0),
            )?;
            if !active {
                return Ok(Err(unknown_payment_method(&id)));
            }
            let now = now_rfc3339();
            tx.execute(
                "UPDATE customer SET default_payment_method_id = ?1, updated_at = ?2 WHERE id = ?3",
                params![id, now, user.customer_id],
            )?;
            tx.execute(
                "UPDATE store_context SET payment_method_id = ?1, updated_at = ?2 WHERE token = ?3",
                params![id, now, user.token],
            )?;
            tx.commit()?;
            Ok(Ok(()))
        })
        .await??;
    Ok(success())
}
