//! Newsletter recipients. `subscribe` stores the address as `notSet` and mails a
//! confirmation link `{storefrontUrl}/newsletter-subscribe?em={sha1(email)}&hash={hash}`;
//! `confirm` with both makes it `optIn`; `unsubscribe` makes it `optOut`. A logged-in
//! customer subscribing their own address needs no confirmation (`direct`).

use axum::extract::State;
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Map, Value};
use sha1::{Digest, Sha1};

use crate::account::address::text;
use crate::account::logged_in::Registered;
use crate::account::profile::{raw, success};
use crate::account::session::is_email;
use crate::error::{ApiError, ApiResult, Violation};
use crate::mail::{self, text::Lang};
use crate::security::{ClientAddr, Throttle};
use crate::state::App;
use crate::storage::{is_id, new_id, now_rfc3339};
use crate::store_api::RequestParams;
use crate::store_api::ShopContext;

/// The `em` parameter of a confirmation link: the lowercase hex SHA-1 of the address.
pub fn email_hash(email: &str) -> String {
    format!("{:x}", Sha1::digest(email.to_lowercase().as_bytes()))
}

fn recipient_not_found(identifier: &str, value: &str) -> ApiError {
    ApiError::bad_request(
        "CONTENT__NEWSLETTER_RECIPIENT_NOT_FOUND",
        format!(
            "The NewsletterRecipient with the identifier \"{identifier}\" - {value} was not found."
        ),
    )
}

/// A required, well-formed email address (lowercase).
fn email(body: &Map<String, Value>, violations: &mut Vec<Violation>) -> String {
    let email = text(body, "email", "", violations)
        .map(|e| e.to_lowercase())
        .unwrap_or_default();
    if email.is_empty() {
        if !violations.iter().any(|v| v.pointer == "/email") {
            violations.push(Violation::blank("/email"));
        }
    } else if !is_email(&email) {
        violations.push(Violation::new(
            "VIOLATION::INVALID_EMAIL_FORMAT_ERROR",
            "/email",
            "This value is not a valid email address.",
        ));
    }
    email
}

/// A name without links (Shopware refuses URLs in names of public forms).
pub fn name(
    body: &Map<String, Value>,
    key: &str,
    violations: &mut Vec<Violation>,
) -> Option<String> {
    let value = text(body, key, "", violations)?;
    if value.contains("http://") || value.contains("https://") {
        violations.push(Violation::new(
            "VIOLATION::REGEX_FAILED_ERROR",
            format!("/{key}"),
            "This value is not valid.",
        ));
    }
    Some(value)
}

/// An optional id field that must name a row of `table`.
pub fn known_id(
    conn: &Connection,
    body: &Map<String, Value>,
    key: &str,
    table: &str,
    violations: &mut Vec<Violation>,
) -> rusqlite::Result<Option<String>> {
    let id = match body.get(key) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(id)) if id.is_empty() => return Ok(None),
        Some(Value::String(id)) => id.to_lowercase(),
        Some(_) => {
            violations.push(Violation::new(
                "VIOLATION::INVALID_TYPE_ERROR",
                format!("/{key}"),
                "This value should be of type string.",
            ));
            return Ok(None);
        }
    };
    let exists = is_id(&id)
        && conn.query_row(
            &format!("SELECT EXISTS(SELECT 1 FROM {table} WHERE id = ?1)"),
            [&id],
            |r| r.get(0),
        )?;
    if !exists {
        violations.push(Violation::new(
            "VIOLATION::NO_SUCH_CHOICE_ERROR",
            format!("/{key}"),
            "The selected value does not exist.",
        ));
        return Ok(None);
    }
    Ok(Some(id))
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Choice {
    Subscribe,
    Direct,
    Unsubscribe,
}

/// `POST /store-api/newsletter/subscribe` (email, option, storefrontUrl, optional
/// names and address). `subscribe` (and `direct`, for anyone but a logged-in customer
/// subscribing their own address) wants a confirmation; subscribing again changes
/// nothing once confirmed and mails the link again while not.
/// Subscriptions are throttled per client address and per address subscribed
/// (`security::Throttle::Mail`).
pub async fn subscribe(
    ctx: ShopContext,
    client: ClientAddr,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut violations = Vec::new();
    let email = email(&body, &mut violations);
    let choice = match body.get("option").and_then(Value::as_str) {
        Some("subscribe") => Some(Choice::Subscribe),
        Some("direct") => Some(Choice::Direct),
        Some("unsubscribe") => Some(Choice::Unsubscribe),
        None if !body.contains_key("option") => {
            violations.push(Violation::blank("/option"));
            None
        }
        _ => {
            violations.push(Violation::new(
                "VIOLATION::NO_SUCH_CHOICE_ERROR",
                "/option",
                "The option must be subscribe, direct or unsubscribe.",
            ));
            None
        }
    };
    if choice == Some(Choice::Unsubscribe) && violations.is_empty() {
        return unsubscribe_email(&app, &ctx, email)
            .await
            .map(|()| Json(json!({ "success": true, "status": "optOut" })));
    }
    let storefront_url = mail::storefront_url(&body, &app.config, &mut violations);
    let first_name = name(&body, "firstName", &mut violations);
    let last_name = name(&body, "lastName", &mut violations);
    let street = text(&body, "street", "", &mut violations);
    let city = text(&body, "city", "", &mut violations);
    let zip_code = text(&body, "zipCode", "", &mut violations);
    if violations.is_empty() {
        app.security.throttle(&[
            (Throttle::Mail, &client.key()),
            (Throttle::MailRecipient, &email),
        ])?;
    }
    let status = app
        .db
        .call(move |conn| {
            let salutation_id = known_id(conn, &body, "salutationId", "salutation", &mut violations)?;
            let language_id = known_id(conn, &body, "languageId", "language", &mut violations)?;
            let (Some(storefront_url), true) = (storefront_url, violations.is_empty()) else {
                return Ok(Err(ApiError::Violations(violations)));
            };
            let language_id = language_id.unwrap_or_else(|| ctx.language_id().to_owned());
            // A logged-in customer's own address needs no confirmation.
            let own_address: bool = match &ctx.token {
                Some(token) => conn.query_row(
                    "SELECT EXISTS(SELECT 1 FROM store_context s JOIN customer c ON c.id = s.customer_id
                     WHERE s.token = ?1 AND c.guest = 0 AND c.active = 1 AND lower(c.email) = ?2)",
                    [token, &email],
                    |r| r.get(0),
                )?,
                None => false,
            };
            let tx = conn.transaction()?;
            let existing: Option<(String, String, String)> = tx
                .query_row(
                    "SELECT id, status, hash FROM newsletter_recipient WHERE sales_channel_id = ?1 AND lower(email) = ?2",
                    [&ctx.sales_channel.id, &email],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .optional()?;
            let current = existing.as_ref().map(|e| e.1.as_str());
            if matches!(current, Some("optIn") | Some("direct")) {
                return Ok(Ok(current.unwrap_or_default().to_owned()));
            }
            let status = if own_address { "direct" } else { "notSet" };
            // A pending subscription keeps its link; a new or renewed one gets a new one.
            let hash = match &existing {
                Some((_, status, hash)) if status == "notSet" => hash.clone(),
                _ => new_id(),
            };
            let now = now_rfc3339();
            tx.execute(
                "INSERT INTO newsletter_recipient (id, sales_channel_id, email, status, hash, language_id, salutation_id, first_name,
                    last_name, street, city, zip_code, confirmed_at, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, CASE WHEN ?4 = 'direct' THEN ?13 END, ?13, ?13)
                 ON CONFLICT (sales_channel_id, lower(email)) DO UPDATE SET
                    status = excluded.status, hash = excluded.hash, language_id = excluded.language_id,
                    salutation_id = COALESCE(excluded.salutation_id, salutation_id), first_name = COALESCE(excluded.first_name, first_name),
                    last_name = COALESCE(excluded.last_name, last_name), street = COALESCE(excluded.street, street),
                    city = COALESCE(excluded.city, city), zip_code = COALESCE(excluded.zip_code, zip_code),
                    confirmed_at = excluded.confirmed_at, updated_at = excluded.updated_at",
                params![
                    new_id(),
                    ctx.sales_channel.id,
                    email,
                    status,
                    hash,
                    language_id,
                    salutation_id,
                    first_name,
                    last_name,
                    street,
                    city,
                    zip_code,
                    now
                ],
            )?;
            let lang = Lang::of(&tx, &language_id)?;
            let mail = if status == "direct" {
                mail::text::newsletter_welcome(lang, &email)
            } else {
                let link = format!("{storefront_url}/newsletter-subscribe?em={}&hash={hash}", email_hash(&email));
                mail::text::newsletter_confirmation(lang, &email, &link)
            };
            mail::send(&tx, mail)?;
            tx.commit()?;
            Ok(Ok(status.to_owned()))
        })
        .await??;
    Ok(Json(json!({ "success": true, "status": status })))
}

/// `POST /store-api/newsletter/confirm` (hash, em): the double opt-in.
pub async fn confirm(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut violations = Vec::new();
    let hash = raw(&body, "hash", &mut violations)
        .map(str::trim)
        .unwrap_or_default()
        .to_owned();
    let em = raw(&body, "em", &mut violations)
        .map(|e| e.trim().to_lowercase())
        .unwrap_or_default();
    for (value, pointer) in [(&hash, "/hash"), (&em, "/em")] {
        if value.is_empty() && !violations.iter().any(|v| v.pointer == pointer) {
            violations.push(Violation::blank(pointer));
        }
    }
    if !violations.is_empty() {
        return Err(ApiError::Violations(violations));
    }
    app.db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let found: Option<(String, String, String, Option<String>)> = tx
                .query_row(
                    "SELECT id, email, status, language_id FROM newsletter_recipient WHERE hash = ?1 AND sales_channel_id = ?2",
                    [&hash, &ctx.sales_channel.id],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .optional()?;
            let Some((id, email, status, language_id)) = found.filter(|f| email_hash(&f.1) == em && f.2 != "optOut") else {
                return Ok(Err(recipient_not_found("hash", &hash)));
            };
            if status == "notSet" {
                let now = now_rfc3339();
                tx.execute(
                    "UPDATE newsletter_recipient SET status = 'optIn', confirmed_at = ?1, updated_at = ?1 WHERE id = ?2",
                    params![now, id],
                )?;
                let lang = Lang::of(&tx, language_id.as_deref().unwrap_or(ctx.language_id()))?;
                mail::send(&tx, mail::text::newsletter_welcome(lang, &email))?;
            }
            tx.commit()?;
            Ok(Ok(()))
        })
        .await??;
    Ok(success())
}

async fn unsubscribe_email(app: &App, ctx: &ShopContext, email: String) -> ApiResult<()> {
    let channel = ctx.sales_channel.id.clone();
    app.db
        .call(move |conn| {
            // A new hash: old confirmation links no longer subscribe.
            let changed = conn.execute(
                "UPDATE newsletter_recipient SET status = 'optOut', hash = ?1, updated_at = ?2 WHERE sales_channel_id = ?3 AND lower(email) = ?4",
                params![new_id(), now_rfc3339(), channel, email],
            )?;
            Ok(if changed == 0 { Err(recipient_not_found("email", &email)) } else { Ok(()) })
        })
        .await?
}

/// `POST /store-api/newsletter/unsubscribe` (email).
pub async fn unsubscribe(
    ctx: ShopContext,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut violations = Vec::new();
    let email = email(&body, &mut violations);
    if !violations.is_empty() {
        return Err(ApiError::Violations(violations));
    }
    unsubscribe_email(&app, &ctx, email).await?;
    Ok(success())
}

/// `GET|POST /store-api/account/newsletter-recipient`: the logged-in customer's status,
/// `undefined` when the address never subscribed. The body (criteria) must be JSON but
/// selects nothing: there is one recipient per address.
pub async fn status(
    Registered(user): Registered,
    State(app): State<App>,
    RequestParams(_criteria): RequestParams,
) -> ApiResult<Json<Value>> {
    let status: Option<String> = app
        .db
        .call(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT r.status FROM newsletter_recipient r JOIN customer c ON lower(c.email) = lower(r.email)
                     WHERE c.id = ?1 AND r.sales_channel_id = ?2",
                    [&user.customer_id, &user.ctx.sales_channel.id],
                    |r| r.get(0),
                )
                .optional()?)
        })
        .await?;
    Ok(Json(
        json!({ "status": status.as_deref().unwrap_or("undefined"), "apiAlias": "account_newsletter_recipient" }),
    ))
}
