//! `GET /api/_action/dsr/appointment/{id}/report`: the session report for the guide (and
//! admins), during and after a session (issue #19, item 5; #31 items 1-3).
//!
//! Read from what is already kept, no second bookkeeping: the appointment's attendees
//! (who joined when, whose customer or context), their likes in the room and a customer's
//! wishlist additions while in it (counted apart), the carts of every attendee's sessions
//! (the one they joined with and those that followed it: a login or a guest's checkout
//! answers a new token), the shop's orders of the customers those sessions were or became
//! (a guest's checkout registers one; during the session and in the
//! [`AFTER_SESSION_HOURS`] after its end, each order once), and what the hub's reducer
//! kept of the room's ordered log ([`protocol::session::SessionRecord`]: attendance over
//! time, the hub's samples of reactions and cart values, the last one taken as the session
//! ends, chat messages per minute) with its polls. A hub that is down leaves `live` null;
//! the shop's numbers still answer.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use protocol::engagement::polls::PollStatus;
use protocol::engagement::ReactionCounts;
use protocol::session::{AttendancePoint, SessionRecord};
use protocol::state::StateForAll;
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
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:00Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute()
    )
}

/// A product's name in the language (a variant falls back to its parent's), else any.
const PRODUCT_NAME: &str = "COALESCE(
    (SELECT name FROM product_translation WHERE product_id = x.product_id AND language_id = ?2 AND name IS NOT NULL),
    (SELECT t.name FROM product_translation t JOIN product p ON t.product_id = p.parent_id
      WHERE p.id = x.product_id AND t.language_id = ?2 AND t.name IS NOT NULL),
    (SELECT name FROM product_translation WHERE product_id = x.product_id AND name IS NOT NULL LIMIT 1),
    x.product_id)";

/// The store sessions of the appointment's client attendees (`?1`): the one each joined
/// with, and every session that followed it (`store_context_successor`), with the customer
/// each began with. Opens a `WITH RECURSIVE`.
const SESSIONS: &str = "WITH RECURSIVE sessions(attendee_id, token, customer_id) AS (
    SELECT id, context_token, customer_id FROM attendee WHERE appointment_id = ?1 AND type = 'CLIENT'
    UNION
    SELECT s.attendee_id, f.successor, f.customer_id
    FROM sessions s JOIN store_context_successor f ON f.token = s.token)";

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
fn read(
    conn: &Connection,
    appointment: &Appointment,
    language_id: &str,
) -> rusqlite::Result<Value> {
    let mut statement =
        conn.prepare("SELECT id, name, joined_at FROM attendee WHERE appointment_id = ?1 AND type = 'CLIENT' ORDER BY joined_at, id")?;
    let attendees = statement
        .query_map([&appointment.id], |r| {
            Ok(Attendee {
                id: r.get(0)?,
                name: r.get(1)?,
                joined_at: r.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;

    // The session: from its start (or the first join) to its end (or now).
    let first_join = attendees.iter().filter_map(|a| parse(&a.joined_at)).min();
    let from = appointment
        .started_at
        .as_deref()
        .and_then(parse)
        .or(first_join);
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

    // Likes in the room and wishlist hearts, each counted per product (an attendee who did
    // both counts once in each): a customer's heart goes to their wishlist, a guest's is a
    // like of the room; neither is added to the other.
    let mut likes = conn.prepare(&format!(
        "SELECT x.product_id, {PRODUCT_NAME}, SUM(x.liked), SUM(x.wishlisted) FROM (
           SELECT DISTINCT c.attendee_id, c.product_id, 1 AS liked, 0 AS wishlisted
           FROM attendee_product_collection c JOIN attendee a ON a.id = c.attendee_id
           WHERE a.appointment_id = ?1 AND a.type = 'CLIENT' AND c.alias = 'liked'
           UNION
           SELECT DISTINCT a.id, p.product_id, 0, 1 FROM attendee a
           JOIN customer_wishlist w ON w.customer_id = a.customer_id
           JOIN customer_wishlist_product p ON p.wishlist_id = w.id
           WHERE a.appointment_id = ?1 AND a.type = 'CLIENT' AND julianday(p.created_at) >= julianday(a.joined_at)
             AND (?3 IS NULL OR julianday(p.created_at) <= julianday(?3))
         ) x
         GROUP BY x.product_id ORDER BY SUM(x.liked) DESC, SUM(x.wishlisted) DESC, x.product_id"
    ))?;
    let likes = likes
        .query_map(
            params![appointment.id, language_id, appointment.ended_at],
            |r| {
                Ok(json!({
                    "productId": r.get::<_, String>(0)?, "name": r.get::<_, String>(1)?,
                    "likes": r.get::<_, i64>(2)?, "wishlist": r.get::<_, i64>(3)?,
                }))
            },
        )?
        .collect::<Result<Vec<_>, _>>()?;

    // Every attendee's carts, whether or not they let the guides see them (the per-person
    // view asks for the permission; these sums do not name anyone): the cart of the session
    // they joined with and of the sessions that followed it (a login or a guest's checkout
    // answers a new token, and the cart goes along).
    let mut carts = conn.prepare(&format!(
        "{SESSIONS}
         SELECT x.product_id, {PRODUCT_NAME}, SUM(x.quantity), COUNT(DISTINCT x.attendee_id) FROM
           (SELECT c.referenced_id AS product_id, c.quantity, MIN(s.attendee_id) AS attendee_id
            FROM cart_line_item c JOIN sessions s ON s.token = c.token
            WHERE c.type = 'product' GROUP BY c.token, c.id) x
         GROUP BY x.product_id ORDER BY SUM(x.quantity) DESC, x.product_id"
    ))?;
    let in_carts = carts
        .query_map(params![appointment.id, language_id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;

    // The orders of every attendee, guest or customer, each counted once: the customer they
    // joined as, and every customer their session became (a guest who registered at the
    // checkout, in the room or in the checkout tab it opened, or who logged in later).
    let mut orders = conn.prepare(&format!(
        "{SESSIONS},
         customers(attendee_id, customer_id) AS (
           SELECT attendee_id, customer_id FROM sessions WHERE customer_id IS NOT NULL
           UNION
           SELECT s.attendee_id, c.customer_id FROM sessions s JOIN store_context c ON c.token = s.token
           WHERE c.customer_id IS NOT NULL)
         SELECT a.id, o.id, o.order_number, o.order_date_time, o.amount_total, cur.iso_code
         FROM customers x
         JOIN attendee a ON a.id = x.attendee_id
         JOIN shop_order o ON o.customer_id = x.customer_id
         JOIN currency cur ON cur.id = o.currency_id
         ORDER BY o.order_date_time, o.order_number, a.joined_at, a.id"
    ))?;
    let mut seen = std::collections::BTreeSet::new();
    let mut counted: Vec<String> = Vec::new();
    let mut placed: Vec<(Order, bool, String)> = Vec::new();
    let rows = orders.query_map([&appointment.id], |r| {
        Ok((
            r.get::<_, String>(1)?,
            Order {
                attendee_id: r.get(0)?,
                order_number: r.get(2)?,
                ordered_at: r.get(3)?,
                amount_total: r.get(4)?,
                currency: r.get(5)?,
            },
        ))
    })?;
    for row in rows {
        let (order_id, order) = row?;
        let Some(at) = parse(&order.ordered_at) else {
            continue;
        };
        let Some(from) = from else { continue };
        if at < from
            || orders_until.is_some_and(|until| at > until)
            || !seen.insert(order_id.clone())
        {
            continue;
        }
        let after = ended.is_some_and(|end| at > end);
        counted.push(order_id);
        placed.push((order, after, minute_of(at)));
    }
    // Cart additions per product: what is in the attendees' carts now, and what left them
    // in the orders counted for the session.
    let mut ordered_items =
        conn.prepare("SELECT COALESCE(product_id, referenced_id), SUM(quantity) FROM order_line_item WHERE order_id = ?1 AND type = 'product' GROUP BY 1")?;
    let mut per_product: BTreeMap<String, (String, i64, i64, i64)> = BTreeMap::new();
    for (product_id, name, quantity, attendees) in in_carts {
        per_product.insert(product_id, (name, quantity, attendees, 0));
    }
    let mut ordered_products = std::collections::BTreeSet::new();
    for order_id in &counted {
        let rows = ordered_items.query_map([order_id], |r| {
            Ok((r.get::<_, Option<String>>(0)?, r.get::<_, i64>(1)?))
        })?;
        for row in rows {
            let (Some(product_id), quantity) = row? else {
                continue;
            };
            ordered_products.insert(product_id.clone());
            per_product
                .entry(product_id)
                .or_insert_with(|| (String::new(), 0, 0, 0))
                .3 += quantity;
        }
    }
    let mut name_of = conn.prepare(&format!(
        "SELECT {PRODUCT_NAME} FROM (SELECT ?1 AS product_id) x"
    ))?;
    for product_id in ordered_products {
        if let Some(entry) = per_product.get_mut(&product_id).filter(|e| e.0.is_empty()) {
            entry.0 = name_of.query_row(params![product_id, language_id], |r| r.get(0))?;
        }
    }
    let mut carts: Vec<(String, (String, i64, i64, i64))> = per_product.into_iter().collect();
    carts.sort_by(|a, b| {
        (b.1 .1 + b.1 .3)
            .cmp(&(a.1 .1 + a.1 .3))
            .then_with(|| a.0.cmp(&b.0))
    });
    let carts: Vec<Value> = carts
        .into_iter()
        .map(|(product_id, (name, quantity, attendees, ordered))| {
            json!({ "productId": product_id, "name": name, "quantity": quantity, "attendees": attendees, "ordered": ordered })
        })
        .collect();
    let names: BTreeMap<&str, Option<&str>> = attendees
        .iter()
        .map(|a| (a.id.as_str(), a.name.as_deref()))
        .collect();
    let buyers: std::collections::BTreeSet<&str> = placed
        .iter()
        .map(|(o, _, _)| o.attendee_id.as_str())
        .collect();
    let revenue: BTreeMap<String, f64> =
        placed.iter().fold(BTreeMap::new(), |mut sums, (o, _, _)| {
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

/// Viewers over the session's window `[from, to]`, from the attendance points (each
/// holds from its time until the next): the most connected at once, and the
/// time-weighted average of the connected.
fn viewers(points: &[AttendancePoint], from: Option<OffsetDateTime>, to: OffsetDateTime) -> Value {
    let mut timed: Vec<(OffsetDateTime, &AttendancePoint)> = points
        .iter()
        .filter_map(|p| parse(&p.at).map(|at| (at, p)))
        .collect();
    // In time order (a stable sort: points of one second keep their order).
    timed.sort_by_key(|(at, _)| *at);
    let Some(from) = from.or_else(|| timed.first().map(|(at, _)| *at)) else {
        return json!({ "peak": 0, "average": 0.0 });
    };
    // The count at `from` (the last point at or before it), then every change up to `to`.
    let at_start = timed
        .iter()
        .rev()
        .find(|(at, _)| *at <= from)
        .map_or(0, |(_, p)| p.connected);
    let mut steps: Vec<(OffsetDateTime, u32)> = vec![(from, at_start)];
    steps.extend(
        timed
            .iter()
            .filter(|(at, _)| *at > from && *at <= to)
            .map(|(at, p)| (*at, p.connected)),
    );
    let peak = steps.iter().map(|(_, c)| *c).max().unwrap_or(0);
    let span = (to - from).as_seconds_f64();
    let average = if span <= 0.0 {
        f64::from(steps.last().map_or(0, |(_, c)| *c))
    } else {
        let mut weighted = 0.0;
        for (i, (at, connected)) in steps.iter().enumerate() {
            let until = steps.get(i + 1).map_or(to, |(next, _)| *next);
            weighted += f64::from(*connected) * (until - *at).as_seconds_f64();
        }
        weighted / span
    };
    // Two decimals are plenty for a count of viewers.
    json!({ "peak": peak, "average": (average * 100.0).round() / 100.0 })
}

/// What the hub kept of the session ([`SessionRecord`]) and its polls, for the window
/// `[from, to]`.
fn live_part(
    all: &StateForAll,
    session: &SessionRecord,
    from: Option<OffsetDateTime>,
    to: OffsetDateTime,
) -> Value {
    let chat_per_minute: Vec<Value> = session
        .chat_per_minute
        .iter()
        .filter_map(|(minute, messages)| {
            let at = OffsetDateTime::from_unix_timestamp(i64::try_from(*minute).ok()? * 60).ok()?;
            Some(json!({ "minute": minute_of(at), "messages": messages }))
        })
        .collect();
    let mut reactions = ReactionCounts::default();
    let mut reactions_per_minute: BTreeMap<String, u64> = BTreeMap::new();
    let mut cart_value = Vec::new();
    for sample in &session.samples {
        reactions.add(sample.reactions);
        if let Some(at) = parse(&sample.at) {
            *reactions_per_minute.entry(minute_of(at)).or_default() += sample
                .reactions
                .to_array()
                .iter()
                .map(|n| u64::from(*n))
                .sum::<u64>();
        }
        cart_value.push(json!({ "at": sample.at, "value": sample.cart_value }));
    }
    let polls: Vec<Value> = all
        .polls
        .iter()
        .filter(|p| p.status != PollStatus::Draft)
        .map(|p| {
            let answers: Vec<Value> = p
                .answers
                .iter()
                .enumerate()
                .map(|(i, a)| json!({ "answerId": a.answer_id, "text": a.text, "votes": p.counts.get(i).copied().unwrap_or(0) }))
                .collect();
            json!({ "pollId": p.poll_id, "question": p.question, "multiple": p.multiple, "status": p.status, "voters": p.voters, "answers": answers })
        })
        .collect();
    json!({
        "connectedNow": session.connected,
        "joinedNow": session.joined,
        "viewers": viewers(&session.attendance, from, to),
        "attendance": session.attendance.iter().map(|p| json!({ "at": p.at, "joined": p.joined, "connected": p.connected })).collect::<Vec<_>>(),
        "chatMessages": session.chat_per_minute.values().map(|n| u64::from(*n)).sum::<u64>(),
        "chatPerMinute": chat_per_minute,
        "reactions": {
            "total": reactions.to_array().iter().map(|n| u64::from(*n)).sum::<u64>(),
            "byKind": reactions,
            "perMinute": reactions_per_minute.into_iter().map(|(minute, total)| json!({ "minute": minute, "reactions": total })).collect::<Vec<_>>(),
        },
        "cartValue": cart_value,
        "polls": polls,
    })
}

/// `GET /api/_action/dsr/appointment/{id}/report` (admin or guide).
pub async fn report(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    if !is_id(&id) {
        return Err(appointment::not_found());
    }
    let appointment = app
        .db
        .call(move |conn| Ok(Appointment::by_id(conn, &id)?))
        .await?
        .ok_or_else(appointment::not_found)?;
    let language = headers
        .get("sw-language-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| is_id(v))
        .map(str::to_owned);
    let live = match tokio::try_join!(
        app.hub.client_state(&appointment.id),
        app.hub.session(&appointment.id)
    ) {
        Ok((snapshot, session)) => Some((snapshot.state_for_all, session)),
        Err(error) => {
            tracing::warn!(%error, "the report is without the hub's live numbers");
            None
        }
    };
    let mut body = app
        .db
        .call(move |conn| {
            let language = match language {
                Some(language) => language,
                None => conn.query_row(
                    "SELECT language_id FROM sales_channel WHERE id = ?1",
                    [&appointment.sales_channel_id],
                    |r| r.get(0),
                )?,
            };
            // Its name in the report's language, as its products' names.
            let appointment = appointment.in_language(conn, Some(&language))?;
            Ok(read(conn, &appointment, &language)?)
        })
        .await?;
    let from = body["window"]["from"].as_str().and_then(parse);
    let to = body["window"]["to"]
        .as_str()
        .and_then(parse)
        .unwrap_or_else(OffsetDateTime::now_utc);
    body["live"] = live.map_or(Value::Null, |(all, session)| {
        live_part(&all, &session, from, to)
    });
    body["generatedAt"] = json!(now_rfc3339());
    Ok(Json(body))
}
