//! Paying an order: `GET|POST /store-api/handle-payment` and, for the asynchronous
//! "pay online" method, the hosted payment page `GET|POST /payment/pay-online/{token}`
//! (English or German) that marks the transaction paid or cancelled and sends the
//! customer on to `finishUrl` or `errorUrl`. A token is used once and belongs to one
//! transaction. Invoice, prepayment and cash on delivery are synchronous: the
//! transaction stays open and there is nothing to redirect to.

use axum::extract::rejection::FormRejection;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::{Form, Json};
use rusqlite::{params, OptionalExtension};
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::load::owned;
use super::manage::required_id;
use super::state::{Locale, Machine};
use crate::account::logged_in::LoggedIn;
use crate::error::{ApiError, ApiResult, Violation};
use crate::state::App;
use crate::storage::{new_id, now_rfc3339};
use crate::store_api::RequestParams;

const MAX_URL_LENGTH: usize = 2048;

/// A return URL: absolute http(s), or a path on this origin (`/…`, not `//…`).
fn return_url(body: &Map<String, Value>, key: &str) -> Result<Option<String>, Violation> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(url)) if url.trim().is_empty() => Ok(None),
        Some(Value::String(url)) => {
            let url = url.trim();
            let path = url.starts_with('/') && !url.starts_with("//");
            let absolute = url.starts_with("http://") || url.starts_with("https://");
            if url.len() > MAX_URL_LENGTH
                || !(path || absolute)
                || url.chars().any(char::is_whitespace)
            {
                Err(Violation::new(
                    "VIOLATION::INVALID_URL_ERROR",
                    format!("/{key}"),
                    "This value is not a valid URL.",
                ))
            } else {
                Ok(Some(url.to_owned()))
            }
        }
        Some(_) => Err(Violation::new(
            "VIOLATION::INVALID_TYPE_ERROR",
            format!("/{key}"),
            "This value should be of type string.",
        )),
    }
}

fn invalid_order(id: &str) -> ApiError {
    ApiError::not_found(
        "CHECKOUT__INVALID_ORDER_ID",
        format!("The order with id {id} is invalid or could not be found."),
    )
}

/// `GET|POST /store-api/handle-payment` with `orderId`, `finishUrl`, `errorUrl`:
/// `{redirectUrl}`, the hosted page for "pay online", else null.
pub async fn handle(
    user: LoggedIn,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Json<Value>> {
    let order_id = required_id(&body, "orderId")?;
    let mut violations = Vec::new();
    let finish_url = return_url(&body, "finishUrl").unwrap_or_else(|v| {
        violations.push(v);
        None
    });
    let error_url = return_url(&body, "errorUrl").unwrap_or_else(|v| {
        violations.push(v);
        None
    });
    if !violations.is_empty() {
        return Err(ApiError::Violations(violations));
    }
    let base_url = user.ctx.base_url.clone();
    let redirect = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(order) = owned(&tx, &user.customer_id, &order_id)? else { return Ok(Err(invalid_order(&order_id))) };
            let Some((transaction_id, state, method_id)) = order.transaction else { return Ok(Err(invalid_order(&order_id))) };
            if order.state == "cancelled" {
                return Ok(Err(ApiError::bad_request("SYSTEM__ILLEGAL_STATE_TRANSITION", "The order is cancelled and cannot be paid.")));
            }
            // A failed or cancelled payment may be tried again: the transaction reopens.
            if state == "failed" || state == "cancelled" {
                tx.execute("UPDATE order_transaction SET state = 'open', updated_at = ?2 WHERE id = ?1", params![transaction_id, now_rfc3339()])?;
                super::transition::record(&tx, Machine::Transaction, &transaction_id, (&state, "reopen", "open"), None)?;
            } else if let Err(error) = Machine::Transaction.check(&state, "paid") {
                return Ok(Err(error));
            }
            let handler: String = tx.query_row("SELECT handler FROM payment_method WHERE id = ?1", [&method_id], |r| r.get(0))?;
            let redirect = if handler == "online" {
                let token = new_id() + &new_id();
                // The page speaks the order's language (the one it was placed in), not the
                // language the customer happens to browse in now.
                let order_language: String =
                    tx.query_row("SELECT o.language_id FROM order_transaction x JOIN shop_order o ON o.id = x.order_id WHERE x.id = ?1", [&transaction_id], |r| r.get(0))?;
                let locale = Locale::of(&tx, &order_language)?;
                tx.execute(
                    "INSERT INTO payment_token (token, transaction_id, finish_url, error_url, locale, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![token, transaction_id, finish_url, error_url, locale.code(), now_rfc3339()],
                )?;
                Some(format!("{base_url}/payment/pay-online/{token}"))
            } else {
                None
            };
            tx.commit()?;
            Ok(Ok(redirect))
        })
        .await??;
    Ok(Json(
        json!({ "redirectUrl": redirect, "apiAlias": "handle_payment_method_route_response" }),
    ))
}

/// What the hosted page shows about a token.
struct Visit {
    transaction_id: String,
    transaction_state: String,
    order_number: String,
    amount: f64,
    /// The order's currency: its symbol and decimals.
    currency: Currency,
    finish_url: Option<String>,
    error_url: Option<String>,
    locale: Locale,
    used: bool,
    order_cancelled: bool,
}

fn visit(conn: &rusqlite::Connection, token: &str) -> rusqlite::Result<Option<Visit>> {
    conn.query_row(
        "SELECT t.transaction_id, x.state, o.order_number, o.amount_total, t.finish_url, t.error_url, t.locale, t.used_at IS NOT NULL,
                o.state = 'cancelled', COALESCE(c.symbol, '€'), COALESCE(c.decimals, 2)
         FROM payment_token t JOIN order_transaction x ON x.id = t.transaction_id JOIN shop_order o ON o.id = x.order_id
         LEFT JOIN currency c ON c.id = o.currency_id
         WHERE t.token = ?1",
        [token],
        |r| {
            Ok(Visit {
                transaction_id: r.get(0)?,
                transaction_state: r.get(1)?,
                order_number: r.get(2)?,
                amount: r.get(3)?,
                finish_url: r.get(4)?,
                error_url: r.get(5)?,
                locale: Locale::from_code(&r.get::<_, String>(6)?),
                used: r.get(7)?,
                order_cancelled: r.get(8)?,
                currency: Currency {
                    symbol: r.get(9)?,
                    decimals: r.get::<_, i64>(10)?.clamp(0, 4) as usize,
                },
            })
        },
    )
    .optional()
}

/// A currency as the hosted page shows amounts in it.
struct Currency {
    symbol: String,
    decimals: usize,
}

/// An amount as the shop's pages show it (`Intl.NumberFormat` with style currency, as
/// `web/src/lib/format.ts` does): English `€1,234.50`, German `1.234,50 €`. A symbol of
/// letters (`CHF`) is set apart by a space in English too.
fn money_text(amount: f64, currency: &Currency, locale: Locale) -> String {
    let (group, decimal) = match locale {
        Locale::En => (',', '.'),
        Locale::De => ('.', ','),
    };
    let fixed = format!("{:.*}", currency.decimals, amount.abs());
    let (whole, fraction) = fixed.split_once('.').unwrap_or((&fixed, ""));
    let mut grouped = String::new();
    for (index, digit) in whole.chars().enumerate() {
        if index > 0 && (whole.len() - index).is_multiple_of(3) {
            grouped.push(group);
        }
        grouped.push(digit);
    }
    if !fraction.is_empty() {
        grouped.push(decimal);
        grouped.push_str(fraction);
    }
    let sign = if amount < 0.0 && fixed.chars().any(|c| c != '0' && c != '.') {
        "-"
    } else {
        ""
    };
    let symbol = &currency.symbol;
    match locale {
        Locale::De => format!("{sign}{grouped}\u{a0}{symbol}"),
        Locale::En if symbol.chars().all(char::is_alphabetic) => {
            format!("{sign}{symbol}\u{a0}{grouped}")
        }
        Locale::En => format!("{sign}{symbol}{grouped}"),
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The hosted pages' look: the shop's colours, font, top bar and buttons (the same
/// tokens as `web/src/styles.css`), inlined so the page needs nothing else.
const HOSTED_PAGE_CSS: &str = include_str!("hosted-page.css");

fn page(locale: Locale, status: StatusCode, title: &str, body: &str) -> Response {
    let lang = locale.code();
    let home = match locale {
        Locale::En => "/",
        Locale::De => "/de-DE",
    };
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} · Salesroom</title><style>{HOSTED_PAGE_CSS}</style></head>\
         <body><header class=\"topbar\"><a class=\"topbar__brand\" href=\"{home}\">Salesroom</a></header>\
         <main class=\"page\"><section class=\"card\"><h1>{title}</h1>{body}</section></main></body></html>",
        title = escape(title)
    );
    (status, [(header::CACHE_CONTROL, "no-store")], Html(html)).into_response()
}

fn gone(locale: Locale) -> Response {
    match locale {
        Locale::En => page(
            locale,
            StatusCode::GONE,
            "Payment link no longer valid",
            "<p>This payment link has already been used or is unknown.</p>",
        ),
        Locale::De => page(
            locale,
            StatusCode::GONE,
            "Zahlungslink nicht mehr gültig",
            "<p>Dieser Zahlungslink wurde bereits verwendet oder ist unbekannt.</p>",
        ),
    }
}

fn unknown() -> Response {
    page(
        Locale::En,
        StatusCode::NOT_FOUND,
        "Payment link not found",
        "<p>This payment link is unknown. / Dieser Zahlungslink ist unbekannt.</p>",
    )
}

/// `GET /payment/pay-online/{token}`: the hosted payment page with "Pay" and "Cancel".
pub async fn show(State(app): State<App>, Path(token): Path<String>) -> ApiResult<Response> {
    let (found, token) = app
        .db
        .call(move |conn| Ok((visit(conn, &token)?, token)))
        .await?;
    let Some(visit) = found else {
        return Ok(unknown());
    };
    if visit.used || visit.order_cancelled || visit.transaction_state != "open" {
        return Ok(gone(visit.locale));
    }
    let amount = money_text(visit.amount, &visit.currency, visit.locale);
    let (title, text, pay, cancel) = match visit.locale {
        Locale::En => (
            "Pay online",
            format!("Order {} — amount due: {amount}", visit.order_number),
            "Pay",
            "Cancel",
        ),
        Locale::De => (
            "Online bezahlen",
            format!("Bestellung {} — zu zahlen: {amount}", visit.order_number),
            "Bezahlen",
            "Abbrechen",
        ),
    };
    let token = escape(&token);
    let body = format!(
        "<p>{}</p><form method=\"post\" action=\"/payment/pay-online/{token}\"><input type=\"hidden\" name=\"action\" value=\"pay\"><button class=\"button button--primary\" type=\"submit\">{pay}</button></form>\
         <form method=\"post\" action=\"/payment/pay-online/{token}\"><input type=\"hidden\" name=\"action\" value=\"cancel\"><button class=\"button\" type=\"submit\">{cancel}</button></form>",
        escape(&text)
    );
    Ok(page(visit.locale, StatusCode::OK, title, &body))
}

#[derive(Debug, Deserialize)]
pub struct Decision {
    action: String,
}

/// `POST /payment/pay-online/{token}` with `action=pay|cancel`: uses the token, moves
/// the transaction to paid or cancelled, and redirects (303) to the finish or error URL.
pub async fn decide(
    State(app): State<App>,
    Path(token): Path<String>,
    form: Result<Form<Decision>, FormRejection>,
) -> ApiResult<Response> {
    let target = match form.as_ref().map(|f| f.action.as_str()) {
        Ok("pay") => "paid",
        Ok("cancel") => "cancelled",
        _ => {
            return Ok(page(
                Locale::En,
                StatusCode::BAD_REQUEST,
                "Bad request",
                "<p>Choose Pay or Cancel. / Bitte Bezahlen oder Abbrechen wählen.</p>",
            ))
        }
    };
    let outcome = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(visit) = visit(&tx, &token)? else { return Ok(Err(unknown())) };
            if visit.used || visit.order_cancelled || Machine::Transaction.check(&visit.transaction_state, target).is_err() {
                return Ok(Err(gone(visit.locale)));
            }
            let now = now_rfc3339();
            tx.execute("UPDATE payment_token SET used_at = ?2 WHERE token = ?1", params![token, now])?;
            tx.execute(
                "UPDATE order_transaction SET state = ?2, updated_at = ?3 WHERE id = ?1",
                params![visit.transaction_id, target, now],
            )?;
            let action = if target == "paid" { "paid" } else { "cancel" };
            super::transition::record(&tx, Machine::Transaction, &visit.transaction_id, (&visit.transaction_state, action, target), None)?;
            tx.commit()?;
            tracing::info!(transaction_id = %visit.transaction_id, state = target, "online payment decided");
            Ok(Ok(visit))
        })
        .await?;
    let visit = match outcome {
        Ok(visit) => visit,
        Err(page) => return Ok(page),
    };
    let (url, locale) = if target == "paid" {
        (visit.finish_url, visit.locale)
    } else {
        (visit.error_url, visit.locale)
    };
    Ok(match url {
        Some(url) => (StatusCode::SEE_OTHER, [(header::LOCATION, url)]).into_response(),
        None => match (target, locale) {
            ("paid", Locale::En) => page(
                locale,
                StatusCode::OK,
                "Thank you",
                "<p>Your payment was received.</p>",
            ),
            ("paid", Locale::De) => page(
                locale,
                StatusCode::OK,
                "Vielen Dank",
                "<p>Ihre Zahlung ist eingegangen.</p>",
            ),
            (_, Locale::En) => page(
                locale,
                StatusCode::OK,
                "Payment cancelled",
                "<p>The order has not been paid.</p>",
            ),
            (_, Locale::De) => page(
                locale,
                StatusCode::OK,
                "Zahlung abgebrochen",
                "<p>Die Bestellung wurde nicht bezahlt.</p>",
            ),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::{money_text, Currency, Locale};

    #[test]
    fn amounts_are_written_as_the_shop_writes_them() {
        let euro = Currency {
            symbol: "€".into(),
            decimals: 2,
        };
        assert_eq!(money_text(1234.5, &euro, Locale::En), "€1,234.50");
        assert_eq!(money_text(1234.5, &euro, Locale::De), "1.234,50\u{a0}€");
        assert_eq!(money_text(1234567.891, &euro, Locale::En), "€1,234,567.89");
        assert_eq!(money_text(999.999, &euro, Locale::De), "1.000,00\u{a0}€");
        assert_eq!(money_text(12.0, &euro, Locale::En), "€12.00");
        assert_eq!(money_text(-5.5, &euro, Locale::De), "-5,50\u{a0}€");
        let franc = Currency {
            symbol: "CHF".into(),
            decimals: 2,
        };
        assert_eq!(money_text(1500.0, &franc, Locale::En), "CHF\u{a0}1,500.00");
        assert_eq!(money_text(1500.0, &franc, Locale::De), "1.500,00\u{a0}CHF");
        let yen = Currency {
            symbol: "¥".into(),
            decimals: 0,
        };
        assert_eq!(money_text(123456.4, &yen, Locale::En), "¥123,456");
    }
}
