//! A contact request: validated, then mailed to the shop owner through the outbox
//! (replies go to the sender).

use axum::extract::State;
use axum::Json;
use serde_json::{json, Map, Value};

use crate::account::address::text;
use crate::account::session::is_email;
use crate::error::{ApiError, ApiResult, Violation};
use crate::mail::{
    self,
    text::{ContactRequest, Lang},
};
use crate::newsletter::recipient::{known_id, name};
use crate::security::{ClientAddr, Throttle};
use crate::settings::load_salutations;
use crate::state::App;
use crate::store_api::RequestParams;
use crate::store_api::ShopContext;

/// The longest message accepted.
pub const MAX_COMMENT_LENGTH: usize = 15_000;

/// The message: required, at most [`MAX_COMMENT_LENGTH`] characters.
fn comment(body: &Map<String, Value>, violations: &mut Vec<Violation>) -> String {
    let comment = match body.get("comment") {
        Some(Value::String(c)) => c.trim().to_owned(),
        None | Some(Value::Null) => String::new(),
        Some(_) => {
            violations.push(Violation::new(
                "VIOLATION::INVALID_TYPE_ERROR",
                "/comment",
                "This value should be of type string.",
            ));
            return String::new();
        }
    };
    if comment.is_empty() {
        violations.push(Violation::blank("/comment"));
    } else if comment.chars().count() > MAX_COMMENT_LENGTH {
        violations.push(Violation::new(
            "VIOLATION::TOO_LONG_ERROR",
            "/comment",
            format!(
                "This value is too long. It should have {MAX_COMMENT_LENGTH} characters or less."
            ),
        ));
    }
    comment
}

/// `POST /store-api/contact-form` (email, subject, comment; salutationId, firstName,
/// lastName, phone optional; navigationId, slotId, cmsPageType, entityName ignored but
/// checked for shape). Answers `contact_form_result`.
/// Throttled per client address (`security::Throttle::Mail`).
pub async fn send(
    ctx: ShopContext,
    client: ClientAddr,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut violations = Vec::new();
    let email = text(&body, "email", "", &mut violations)
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
    let subject = text(&body, "subject", "", &mut violations).unwrap_or_else(|| {
        if !violations.iter().any(|v| v.pointer == "/subject") {
            violations.push(Violation::blank("/subject"));
        }
        String::new()
    });
    let comment = comment(&body, &mut violations);
    let first_name = name(&body, "firstName", &mut violations);
    let last_name = name(&body, "lastName", &mut violations);
    let phone = text(&body, "phone", "", &mut violations);
    for key in ["navigationId", "slotId"] {
        match body.get(key) {
            None | Some(Value::Null) => {}
            Some(Value::String(id)) if crate::storage::is_id(&id.to_lowercase()) => {}
            Some(_) => violations.push(Violation::new(
                "VIOLATION::INVALID_UUID_ERROR",
                format!("/{key}"),
                "This is not a valid UUID.",
            )),
        }
    }
    if violations.is_empty() {
        app.security.throttle(&[(Throttle::Mail, &client.key())])?;
    }
    app.db
        .call(move |conn| {
            let salutation_id =
                known_id(conn, &body, "salutationId", "salutation", &mut violations)?;
            if !violations.is_empty() {
                return Ok(Err(ApiError::Violations(violations)));
            }
            let salutation = match &salutation_id {
                Some(id) => load_salutations(conn, &ctx.languages)?
                    .into_iter()
                    .find(|s| s["id"] == json!(id))
                    .and_then(|s| s["translated"]["displayName"].as_str().map(str::to_owned)),
                None => None,
            };
            let request = ContactRequest {
                salutation: salutation.as_deref(),
                first_name: first_name.as_deref(),
                last_name: last_name.as_deref(),
                email: &email,
                phone: phone.as_deref(),
                subject: &subject,
                comment: &comment,
            };
            let lang = Lang::of(conn, ctx.language_id())?;
            let (_, shop_address) = mail::sender(conn)?;
            mail::send(
                conn,
                mail::text::contact_request(lang, &shop_address, &request),
            )?;
            Ok(Ok(()))
        })
        .await??;
    Ok(Json(
        json!({ "individualSuccessMessage": "", "apiAlias": "contact_form_result" }),
    ))
}
