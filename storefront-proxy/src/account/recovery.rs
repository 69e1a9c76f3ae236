//! Password recovery: `POST /store-api/account/recovery-password` mails a link with a
//! hash valid for two hours, `/recovery-password-confirm` sets the new password with
//! it, `/customer-recovery-is-expired` tells whether a hash still works.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};

use super::address::text;
use super::profile::{hash_password, raw, success};
use super::session::{is_email, new_password_violations};
use crate::error::{ApiError, ApiResult, Violation};
use crate::mail::{self, text::Lang};
use crate::security::{ClientAddr, Throttle};
use crate::state::App;
use crate::storage::{new_id, now_rfc3339};
use crate::store_api::RequestParams;
use crate::store_api::ShopContext;

/// How long a recovery link works.
pub const RECOVERY_VALIDITY: time::Duration = time::Duration::hours(2);

fn not_found_by_hash(hash: &str) -> ApiError {
    ApiError::not_found(
        "CHECKOUT__CUSTOMER_NOT_FOUND_BY_HASH",
        format!("No matching customer for the hash \"{hash}\" was found."),
    )
}

fn hash_expired(hash: &str) -> ApiError {
    ApiError::new(
        StatusCode::GONE,
        "CHECKOUT__CUSTOMER_RECOVERY_HASH_EXPIRED",
        format!("The hash \"{hash}\" is expired."),
    )
}

/// The customer and whether the recovery of `hash` has expired; `None` when unknown.
fn find(conn: &Connection, hash: &str) -> rusqlite::Result<Option<(String, bool)>> {
    let row: Option<(String, String)> = conn
        .query_row(
            "SELECT customer_id, created_at FROM customer_recovery WHERE hash = ?1",
            [hash],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    Ok(row.map(|(customer_id, created)| {
        let created =
            time::OffsetDateTime::parse(&created, &time::format_description::well_known::Rfc3339)
                .ok();
        let expired = created
            .is_none_or(|created| time::OffsetDateTime::now_utc() - created > RECOVERY_VALIDITY);
        (customer_id, expired)
    }))
}

/// `POST /store-api/account/recovery-password` (email, storefrontUrl). Answers success
/// whether or not the address has an account, so it tells nobody who is a customer.
/// Throttled per client address and per recipient (`security::Throttle::Mail`).
pub async fn send_mail(
    ctx: ShopContext,
    client: ClientAddr,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut violations = Vec::new();
    let email = text(&body, "email", "", &mut violations).map(|e| e.to_lowercase());
    match &email {
        None => violations.push(Violation::blank("/email")),
        Some(email) if !is_email(email) => violations.push(Violation::new(
            "VIOLATION::INVALID_EMAIL_FORMAT_ERROR",
            "/email",
            "This value is not a valid email address.",
        )),
        Some(_) => {}
    }
    let storefront_url = mail::storefront_url(&body, &app.config, &mut violations);
    let (Some(email), Some(storefront_url), true) = (email, storefront_url, violations.is_empty())
    else {
        return Err(ApiError::Violations(violations));
    };
    app.security.throttle(&[
        (Throttle::Mail, &client.key()),
        (Throttle::MailRecipient, &email),
    ])?;
    app.db
        .call(move |conn| {
            let customer: Option<(String, String, String)> = conn
                .query_row(
                    "SELECT id, first_name, last_name FROM customer
                     WHERE lower(email) = ?1 AND guest = 0 AND active = 1 AND password_hash IS NOT NULL",
                    [&email],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .optional()?;
            let Some((customer_id, first_name, last_name)) = customer else {
                tracing::info!("password recovery asked for an address without an account");
                return Ok(());
            };
            let hash = new_id();
            let tx = conn.transaction()?;
            tx.execute(
                "INSERT INTO customer_recovery (id, customer_id, hash, created_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (customer_id) DO UPDATE SET hash = excluded.hash, created_at = excluded.created_at",
                params![new_id(), customer_id, hash, now_rfc3339()],
            )?;
            let lang = Lang::of(&tx, ctx.language_id())?;
            let link = format!("{storefront_url}/account/recover/password?hash={hash}");
            mail::send(&tx, mail::text::password_recovery(lang, &email, &format!("{first_name} {last_name}"), &link))?;
            tx.commit()?;
            Ok(())
        })
        .await?;
    Ok(success())
}

/// The `hash` of a request body, a violation when blank.
fn hash_of(body: &serde_json::Map<String, Value>, violations: &mut Vec<Violation>) -> String {
    let hash = raw(body, "hash", violations)
        .map(str::trim)
        .unwrap_or_default()
        .to_owned();
    if hash.is_empty() && !violations.iter().any(|v| v.pointer == "/hash") {
        violations.push(Violation::blank("/hash"));
    }
    hash
}

/// `POST /store-api/account/recovery-password-confirm` (hash, newPassword,
/// newPasswordConfirm): the new password; the hash then no longer works, and the
/// customer's sessions (but the caller's) are logged out.
pub async fn confirm(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut violations = Vec::new();
    let hash = hash_of(&body, &mut violations);
    let new_password = raw(&body, "newPassword", &mut violations).map(str::to_owned);
    let confirmation = raw(&body, "newPasswordConfirm", &mut violations).map(str::to_owned);
    new_password_violations(new_password.as_deref(), "/newPassword", &mut violations);
    if new_password.is_some() && confirmation != new_password {
        violations.push(Violation::new(
            "VIOLATION::NOT_EQUAL_ERROR",
            "/newPasswordConfirm",
            "This value should be equal to the value it is confirming.",
        ));
    }
    if !violations.is_empty() {
        return Err(ApiError::Violations(violations));
    }
    // Unknown and expired hashes are refused before the (slow) hashing.
    let lookup = hash.clone();
    let found = app.db.call(move |conn| Ok(find(conn, &lookup)?)).await?;
    match found {
        None => return Err(not_found_by_hash(&hash)),
        Some((_, true)) => return Err(hash_expired(&hash)),
        Some((_, false)) => {}
    }
    let password_hash = hash_password(&app, new_password.unwrap_or_default()).await?;
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            // Checked again inside the transaction: the hash is used once.
            let customer_id = match find(&tx, &hash)? {
                None => return Ok(Err(not_found_by_hash(&hash))),
                Some((_, true)) => return Ok(Err(hash_expired(&hash))),
                Some((customer_id, false)) => customer_id,
            };
            tx.execute(
                "UPDATE customer SET password_hash = ?1, updated_at = ?2 WHERE id = ?3",
                params![password_hash, now_rfc3339(), customer_id],
            )?;
            tx.execute(
                "DELETE FROM customer_recovery WHERE customer_id = ?1",
                [&customer_id],
            )?;
            super::session::end_other_sessions(&tx, &customer_id, ctx.token.as_deref())?;
            tx.commit()?;
            Ok(Ok(()))
        })
        .await??;
    Ok(success())
}

/// `POST /store-api/account/customer-recovery-is-expired` (hash).
pub async fn is_expired(
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut violations = Vec::new();
    let hash = hash_of(&body, &mut violations);
    if !hash.is_empty() && hash.chars().count() != 32 {
        violations.push(Violation::new(
            "VIOLATION::NOT_EQUAL_LENGTH_ERROR",
            "/hash",
            "This value should have exactly 32 characters.",
        ));
    }
    if !violations.is_empty() {
        return Err(ApiError::Violations(violations));
    }
    let lookup = hash.clone();
    let found = app.db.call(move |conn| Ok(find(conn, &lookup)?)).await?;
    let Some((_, expired)) = found else {
        return Err(not_found_by_hash(&hash));
    };
    Ok(Json(
        json!({ "isExpired": expired, "apiAlias": "array_struct" }),
    ))
}
