//! `GET /api/_action/dsr/appointment/{id}/report`: the session report for the guide (and
//! admins), during and after a session (issue #19, item 5).
//!
//! Read from what is already kept, no second bookkeeping: the appointment's attendees
//! (who joined when, whose customer or context), their liked products (a guest's likes in
//! the room, a customer's wishlist additions while in it) and carts, the
//! shop's orders of those customers (during the session and in the
//! [`AFTER_SESSION_HOURS`] after its end), and the hub's live state of the room (who is
//! connected now, the chat's retained messages). A hub that is down leaves `live` null;
//! the shop's numbers still answer.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use protocol::state::Snapshot;
use rusqlite::{params, Connection};
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use super::appointment::{self, Appointment};
use crate::admin::AdminUser;
use crate::error::ApiResult;
use crate::state::App;
use crate::storage::{is_id, now_rfc3339};

/// Orders placed up to this long after the session's end still count for it.
pub const AFTER_SESSION_HOURS: i64 = 48;

fn parse(at: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(at, &Rfc3339).ok()
}

fn format(at: OffsetDateTime) -> String {
    at.format(&Rfc3339).unwrap_or_default()
}

/// The minute a timestamp falls in, as RFC 3339 (`…T12:34:00Z`).
fn minute_of(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:00Z", at.year(), u8::from(at.month()), at.day(), at.hour(), at.minute())
}

/// A product's name in the language (a variant falls back to its parent's), else any.
const PRODUCT_NAME: &str = "COALESCE(
    (SELECT name FROM product_translation WHERE product_id = x.product_id AND language_id = ?2 AND name IS NOT NULL),
    (SELECT t.name FROM product_translation t JOIN product p ON t.product_id = p.parent_id
      WHERE p.id = x.product_id AND t.language_id = ?2 AND t.name IS NOT NULL),
    (SELECT name FROM product_translation WHERE product_id = x.product_id AND name IS NOT NULL LIMIT 1),
    x.product_id)";

struct Attendee {
    id: String,
    name: Option<String>,
    joined_at: String,
}

struct Order {
    attendee_id: String,
    order_number: String,
    ordered_at: String,
    amount_total: f64,
    currency: String,
}

/// Everything the report reads from the shop's database, in one read.
fn read(conn: &Connection, appointment: &Appointment, language_id: &str) -> rusqlite::Result<Value> {
    let mut statement =
        conn.prepare("SELECT id, name, joined_at FROM attendee WHERE appointment_id = ?1 AND type = 'CLIENT' ORDER BY joined_at, id")?;
    let attendees = statement
        .query_map([&appointment.id], |r| Ok(Attendee { id: r.get(0)?, name: r.get(1)?, joined_at: r.get(2)? }))?
        .collect::<Result<Vec<_>, _>>()?;

    // The session: from its start (or the first join) to its end (or now).
    let first_join = attendees.iter().filter_map(|a| parse(&a.joined_at)).min();
    let from = appointment.started_at.as_deref().and_then(parse).or(first_join);
    let ended = appointment.ended_at.as_deref().and_then(parse);
    let orders_until = ended.map(|end| end + time::Duration::hours(AFTER_SESSION_HOURS));

    // Attendance: how many attendees had joined by each minute someone joined.
    let mut joined_by_minute: BTreeMap<String, u64> = BTreeMap::new();
    for at in attendees.iter().filter_map(|a| parse(&a.joined_at)) {
        *joined_by_minute.entry(minute_of(at)).or_default() += 1;
    }
    let mut total = 0;
    let attendance: Vec<Value> = joined_by_minute
        .into_iter()
        .map(|(minute, joined)| {
            total += joined;
            json!({ "minute": minute, "joined": joined, "joinedTotal": total })
        })
        .collect();

    let mut likes = conn.prepare(&format!(
        "SELECT x.product_id, {PRODUCT_NAME}, COUNT(*) FROM (
           SELECT c.attendee_id, c.product_id FROM attendee_product_collection c JOIN attendee a ON a.id = c.attendee_id
           WHERE a.appointment_id = ?1 AND a.type = 'CLIENT' AND c.alias = 'liked'
           UNION
           SELECT a.id, p.product_id FROM attendee a
           JOIN customer_wishlist w ON w.customer_id = a.customer_id
           JOIN customer_wishlist_product p ON p.wishlist_id = w.id
           WHERE a.appointment_id = ?1 AND a.type = 'CLIENT' AND julianday(p.created_at) >= julianday(a.joined_at)
             AND (?3 IS NULL OR julianday(p.created_at) <= julianday(?3))
         ) x
         GROUP BY x.product_id ORDER BY COUNT(*) DESC, x.product_id"
    ))?;
    let likes = likes
        .query_map(params![appointment.id, language_id, appointment.ended_at], |r| {
            Ok(json!({ "productId": r.get::<_, String>(0)?, "name": r.get::<_, String>(1)?, "likes": r.get::<_, i64>(2)? }))
        })?
        .collect::<Result<Vec<_>, _>>()?;

    let mut carts = conn.prepare(&format!(
        "SELECT x.product_id, {PRODUCT_NAME}, SUM(x.quantity), COUNT(DISTINCT x.token) FROM
           (SELECT c.token, c.referenced_id AS product_id, c.quantity FROM cart_line_item c JOIN attendee a ON a.context_token = c.token
            WHERE a.appointment_id = ?1 AND a.type = 'CLIENT' AND c.type = 'product') x
         GROUP BY x.product_id ORDER BY SUM(x.quantity) DESC, x.product_id"
    ))?;
    let carts = carts
        .query_map(params![appointment.id, language_id], |r| {
            Ok(json!({
                "productId": r.get::<_, String>(0)?, "name": r.get::<_, String>(1)?,
                "quantity": r.get::<_, i64>(2)?, "attendees": r.get::<_, i64>(3)?,
            }))
        })?
        .collect::<Result<Vec<_>, _>>()?;

    // Orders of the attendees' customers: the customer they joined as, or the one their
    // context became (a guest who checked out, or logged in later).
    let mut orders = conn.prepare(
        "SELECT DISTINCT a.id, o.id, o.order_number, o.order_date_time, o.amount_total, c.iso_code
         FROM attendee a
         LEFT JOIN store_context s ON s.token = a.context_token
         JOIN shop_order o ON o.customer_id IN (a.customer_id, s.customer_id)
         JOIN currency c ON c.id = o.currency_id
         WHERE a.appointment_id = ?1 AND a.type = 'CLIENT'
         ORDER BY o.order_date_time, o.order_number",
    )?;
    let mut seen = std::collections::BTreeSet::new();
    let mut placed: Vec<(Order, bool, String)> = Vec::new();
    let rows = orders.query_map([&appointment.id], |r| {
        Ok((
            r.get::<_, String>(1)?,
            Order { attendee_id: r.get(0)?, order_number: r.get(2)?, ordered_at: r.get(3)?, amount_total: r.get(4)?, currency: r.get(5)? },
        ))
    })?;
    for row in rows {
        let (order_id, order) = row?;
        let Some(at) = parse(&order.ordered_at) else { continue };
        let Some(from) = from else { continue };
        if at < from || orders_until.is_some_and(|until| at > until) || !seen.insert(order_id) {
            continue;
        }
        let after = ended.is_some_and(|end| at > end);
        placed.push((order, after, minute_of(at)));
    }
    let names: BTreeMap<&str, Option<&str>> = attendees.iter().map(|a| (a.id.as_str(), a.name.as_deref())).collect();
    let buyers: std::collections::BTreeSet<&str> = placed.iter().map(|(o, _, _)| o.attendee_id.as_str()).collect();
    let revenue: BTreeMap<String, f64> = placed.iter().fold(BTreeMap::new(), |mut sums, (o, _, _)| {
        *sums.entry(o.currency.clone()).or_default() += o.amount_total;
        sums
    });
    let orders: Vec<Value> = placed
        .iter()
        .map(|(o, after, _)| {
            json!({
                "orderNumber": o.order_number, "orderedAt": o.ordered_at, "amountTotal": o.amount_total,
                "currency": o.currency, "attendeeId": o.attendee_id, "attendeeName": names.get(o.attendee_id.as_str()).copied().flatten(),
                "afterSession": after,
            })
        })
        .collect();
    let clients = attendees.len();
    Ok(json!({
        "appointment": { "id": appointment.id, "name": appointment.name, "startedAt": appointment.started_at, "endedAt": appointment.ended_at },
        "window": { "from": from.map(format), "to": ended.map(format), "ordersUntil": orders_until.map(format), "afterSessionHours": AFTER_SESSION_HOURS },
        "attendees": clients,
        "attendance": attendance,
        "likes": likes,
        "carts": carts,
        "orders": orders,
        "revenue": revenue.into_iter().map(|(currency, amount)| json!({ "currency": currency, "amount": amount })).collect::<Vec<_>>(),
        "conversion": {
            "attendees": clients,
            "buyers": buyers.len(),
            "rate": if clients == 0 { 0.0 } else { buyers.len() as f64 / clients as f64 },
        },
    }))
}

/// What the hub knows now: connected attendees and the chat's retained messages per
/// minute.
fn live_part(snapshot: Snapshot) -> Value {
    let guides = snapshot.state_for_guides.unwrap_or_default();
    let connected = guides
        .clients
        .values()
        .filter(|c| matches!(c.connection, protocol::status::ConnectionState::Connected | protocol::status::ConnectionState::Reconnected))
        .count();
    let mut per_minute: BTreeMap<String, u64> = BTreeMap::new();
    for message in &snapshot.state_for_all.chat.messages {
        if let Ok(at) = OffsetDateTime::from_unix_timestamp_nanos(i128::from(message.sent_at) * 1_000_000) {
            *per_minute.entry(minute_of(at)).or_default() += 1;
        }
    }
    json!({
        "connectedNow": connected,
        "chatMessages": snapshot.state_for_all.chat.messages.len(),
        "chatPerMinute": per_minute.into_iter().map(|(minute, messages)| json!({ "minute": minute, "messages": messages })).collect::<Vec<_>>(),
    })
}

/// `GET /api/_action/dsr/appointment/{id}/report` (admin or guide).
pub async fn report(_: AdminUser, State(app): State<App>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult<Json<Value>> {
    if !is_id(&id) {
        return Err(appointment::not_found());
    }
    let appointment = app.db.call(move |conn| Ok(Appointment::by_id(conn, &id)?)).await?.ok_or_else(appointment::not_found)?;
    let language = headers.get("sw-language-id").and_then(|v| v.to_str().ok()).filter(|v| is_id(v)).map(str::to_owned);
    let live = match app.hub.state(&appointment.id).await {
        Ok(snapshot) => live_part(snapshot),
        Err(error) => {
            tracing::warn!(%error, "the report is without the hub's live numbers");
            Value::Null
        }
    };
    let mut body = app
        .db
        .call(move |conn| {
            let language = match language {
                Some(language) => language,
                None => {
                    conn.query_row("SELECT language_id FROM sales_channel WHERE id = ?1", [&appointment.sales_channel_id], |r| r.get(0))?
                }
            };
            Ok(read(conn, &appointment, &language)?)
        })
        .await?;
    body["live"] = live;
    body["generatedAt"] = json!(now_rfc3339());
    Ok(Json(body))
}
