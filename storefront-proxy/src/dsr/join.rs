//! Joining an appointment, as guide (admin API) or as client (store API). Both answer
//! the reference `JoinAppointmentResponse` plus `hubUrl` and `hubToken`, the signed
//! session token for the hub's `/ws`.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use protocol::{HubClaims, Role};
use rusqlite::{params, Connection, OptionalExtension};
use serde::Deserialize;
use serde_json::json;

use super::appointment::{self, Appointment};
use crate::admin::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::state::App;
use crate::storage::{new_id, now_rfc3339};
use crate::store_api::{ResolvedSession, SalesChannel, Session, CONTEXT_TOKEN_HEADER};

/// How long a hub session token is valid; clients join again after that.
const HUB_TOKEN_TTL_SECS: u64 = 12 * 3600;
const MAX_NAME_LENGTH: usize = 255;

struct Joined {
    appointment: Appointment,
    sales_channel_name: String,
    attendee_id: String,
    attendee_name: Option<String>,
    context_token: String,
}

/// The hub's address for browsers and a signed session token for `attendee_id` in
/// `appointment_id`: `(hubUrl, hubToken)`.
pub fn hub_session(
    app: &App,
    headers: &HeaderMap,
    role: Role,
    attendee_id: &str,
    appointment_id: &str,
    name: Option<String>,
) -> ApiResult<(String, String)> {
    let exp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(anyhow::Error::from)?
        .as_secs()
        + HUB_TOKEN_TTL_SECS;
    let claims = HubClaims {
        sub: attendee_id.to_owned(),
        apt: appointment_id.to_owned(),
        role,
        name,
        exp,
    };
    let hub_token = claims.sign(&app.hub_secret).map_err(anyhow::Error::from)?;
    let hub_url = app.config.public_hub_url().unwrap_or_else(|| {
        let host = headers
            .get("host")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("127.0.0.1");
        format!("ws://{host}/ws")
    });
    Ok((hub_url, hub_token))
}

fn respond(app: &App, headers: &HeaderMap, role: Role, joined: Joined) -> ApiResult<Response> {
    let (hub_url, hub_token) = hub_session(
        app,
        headers,
        role,
        &joined.attendee_id,
        &joined.appointment.id,
        joined.attendee_name.clone(),
    )?;
    let a = &joined.appointment;
    let body = json!({
        "id": a.id,
        "newContextToken": joined.context_token,
        "attendeeId": joined.attendee_id,
        "salesChannelId": a.sales_channel_id,
        "salesChannelName": joined.sales_channel_name,
        "appointmentName": a.name,
        "presentationGuideMode": a.mode,
        "isPreview": false,
        "attendeeName": joined.attendee_name,
        "videoUserId": null,
        "b2bFeatures": { "quoteManagement": false },
        // Mercure is replaced by the hub; the fields stay for reference clients.
        "mercureSubscriberTopics": [],
        "mercurePublisherTopic": null,
        "JWTMercureSubscriberToken": null,
        "JWTMercurePublisherToken": null,
        "mercureHubPublicUrl": null,
        "hubUrl": hub_url,
        "hubToken": hub_token,
        "apiAlias": "swag_digital_sales_rooms_content_appointment_struct_appointment_join_struct",
    });
    let mut response = Json(body).into_response();
    if let Ok(value) = HeaderValue::from_str(&joined.context_token) {
        response.headers_mut().insert(CONTEXT_TOKEN_HEADER, value);
    }
    Ok(response)
}

/// A fresh shop session for an attendee (cart, wishlist and checkout inside the room).
fn new_context(conn: &Connection, sales_channel_id: &str) -> rusqlite::Result<Session> {
    crate::store_api::ensure_session(conn, sales_channel_id, None, None)
}

/// The token of a guide's shop session in an appointment. Only keys of tokens are
/// stored (`store_api::session`), so a guide who joins again gets the same token back
/// by deriving it again from the server's secret and the guide's attendee id.
fn guide_session(app: &App, attendee_id: &str) -> Session {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(app.hub_secret.as_slice());
    hash.update(b"\0dsr-guide-context\0");
    hash.update(attendee_id.as_bytes());
    let token = format!("{:x}", hash.finalize());
    Session {
        key: crate::store_api::token_key(&token),
        token,
    }
}

/// Stores (or keeps alive) the guide's session `session` in `sales_channel_id`.
fn keep_guide_session(
    conn: &Connection,
    sales_channel_id: &str,
    session: &Session,
) -> rusqlite::Result<()> {
    let now = now_rfc3339();
    conn.execute(
        "INSERT INTO store_context (token, sales_channel_id, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
         ON CONFLICT (token) DO UPDATE SET updated_at = ?3",
        params![session.key, sales_channel_id, now],
    )?;
    Ok(())
}

fn sales_channel_name(conn: &Connection, id: &str) -> rusqlite::Result<String> {
    conn.query_row("SELECT name FROM sales_channel WHERE id = ?1", [id], |r| {
        r.get(0)
    })
}

/// `POST /api/_action/dsr/appointment/{id}/join-as-guide`
pub async fn as_guide(
    user: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let language = appointment::request_language(&headers);
    let app_for_join = app.clone();
    let joined = app
        .db
        .call(move |conn| {
            let tx = conn.transaction()?;
            let Some(appointment) = Appointment::by_id(&tx, &id)? else { return Ok(None) };
            let appointment = appointment.in_language(&tx, language.as_deref())?;
            let existing: Option<(String, String)> = tx
                .query_row(
                    "SELECT id, context_token FROM attendee WHERE appointment_id = ?1 AND admin_user_id = ?2",
                    params![appointment.id, user.id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            let (attendee_id, context_token) = match existing {
                Some((attendee_id, _)) => {
                    let session = guide_session(&app_for_join, &attendee_id);
                    keep_guide_session(&tx, &appointment.sales_channel_id, &session)?;
                    tx.execute(
                        "UPDATE attendee SET last_active_at = ?1, context_token = ?3 WHERE id = ?2",
                        params![now_rfc3339(), attendee_id, session.key],
                    )?;
                    (attendee_id, session.token)
                }
                None => {
                    let attendee_id = new_id();
                    let session = guide_session(&app_for_join, &attendee_id);
                    keep_guide_session(&tx, &appointment.sales_channel_id, &session)?;
                    tx.execute(
                        "INSERT INTO attendee (id, appointment_id, type, name, admin_user_id, context_token, joined_at)
                         VALUES (?1, ?2, 'GUIDE', ?3, ?4, ?5, ?6)",
                        params![attendee_id, appointment.id, user.display_name, user.id, session.key, now_rfc3339()],
                    )?;
                    (attendee_id, session.token)
                }
            };
            let sales_channel_name = sales_channel_name(&tx, &appointment.sales_channel_id)?;
            tx.commit()?;
            Ok(Some(Joined { appointment, sales_channel_name, attendee_id, attendee_name: Some(user.display_name), context_token }))
        })
        .await?
        .ok_or_else(appointment::not_found)?;
    // The hub shows the appointment's settings; a hub that is down or slow does not
    // stop or delay the guide's getting in (the settings follow with the start).
    let settings = super::lifecycle::settings(&joined.appointment);
    app.hub.publish_later(
        &joined.appointment.id,
        protocol::internal::Audience::Everyone,
        protocol::frame::Event::AppointmentConfigured { settings },
    );
    respond(&app, &headers, Role::Guide, joined)
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct JoinAsClient {
    attendee_name: Option<String>,
}

/// `POST /store-api/dsr/appointment/{presentationPath}/join-as-client`. A request that
/// carries the context token of an earlier join to the same appointment rejoins as
/// the same attendee.
/// Joins are limited per client address (`JOINS_PER_MINUTE`, `security::Volume::Join`).
#[allow(clippy::too_many_arguments)]
pub async fn as_client(
    channel: SalesChannel,
    session: ResolvedSession,
    client: crate::security::ClientAddr,
    State(app): State<App>,
    Path(presentation_path): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> ApiResult<Response> {
    app.security
        .quota(crate::security::Volume::Join, client.0)?;
    let name = attendee_name(&body)?;
    let language = appointment::request_language(&headers);
    let locked = is_locked(&app, &presentation_path).await?;
    let join = ClientJoin {
        presentation_path,
        channel,
        name,
        language,
        locked,
        context_token: session.key,
        client_token: session.token,
    };
    let joined = app.db.call(move |conn| join_client(conn, join)).await??;
    respond(&app, &headers, Role::Client, joined)
}

/// The attendee name of a client's join (the body is optional), trimmed.
fn attendee_name(body: &[u8]) -> ApiResult<Option<String>> {
    let request: JoinAsClient = if body.iter().all(u8::is_ascii_whitespace) {
        JoinAsClient::default()
    } else {
        serde_json::from_slice(body).map_err(|e| {
            ApiError::bad_request(
                "FRAMEWORK__INVALID_REQUEST_BODY",
                format!("The request body is not valid: {e}"),
            )
        })?
    };
    let name = request
        .attendee_name
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty());
    if name
        .as_ref()
        .is_some_and(|n| n.chars().count() > MAX_NAME_LENGTH)
    {
        return Err(ApiError::bad_request(
            "VIOLATION::TOO_LONG_ERROR",
            format!("The maximum length allowed is {MAX_NAME_LENGTH} characters."),
        )
        .at("/attendeeName"));
    }
    Ok(name)
}

/// Whether the guide has locked the appointment (live state: the hub). No one new can
/// join then; someone who already joined comes back (`join_client`).
async fn is_locked(app: &App, presentation_path: &str) -> ApiResult<bool> {
    let path = presentation_path.to_owned();
    let mut locked = false;
    if let Some(found) = app
        .db
        .call(move |conn| Ok(Appointment::by_path(conn, &path)?))
        .await?
    {
        match app.hub.client_state(&found.id).await {
            Ok(state) => locked = state.state_for_all.locked,
            Err(error) => tracing::warn!(%error, "could not read the lock state from the hub"),
        }
    }
    Ok(locked)
}

/// A client's join as `join_client` takes it.
struct ClientJoin {
    presentation_path: String,
    channel: SalesChannel,
    name: Option<String>,
    language: Option<String>,
    locked: bool,
    /// The key of the request's store session, and the client's own token of it.
    context_token: Option<String>,
    client_token: Option<String>,
}

/// A client joins (or rejoins) in one transaction: refused when the appointment is not
/// the channel's, the client may not join or was removed, or the room is locked to
/// newcomers.
fn join_client(conn: &mut Connection, join: ClientJoin) -> anyhow::Result<ApiResult<Joined>> {
    let tx = conn.transaction()?;
    let Some(appointment) = Appointment::by_path(&tx, &join.presentation_path)? else {
        return Ok(Err(appointment::not_found()));
    };
    let appointment = appointment.in_language(&tx, join.language.as_deref())?;
    if appointment.sales_channel_id != join.channel.id {
        return Ok(Err(appointment::not_found()));
    }
    let context_token = join.context_token;
    if let Err(refused) = may_join(&tx, &appointment, context_token.as_deref())? {
        return Ok(Err(refused));
    }
    let existing = match &context_token {
        Some(token) => earlier_join(&tx, &appointment.id, token)?,
        None => None,
    };
    if existing.as_ref().is_some_and(|join| join.removed) {
        return Ok(Err(removed()));
    }
    let existing = existing.map(|join| (join.id, join.name));
    // A logged-in customer joins with their own session (their cart and
    // wishlist); a guest gets a session of its own.
    let customer = match &context_token {
        Some(token) => customer_session(&tx, token, &appointment.sales_channel_id)?,
        None => None,
    };
    // Removal holds for the person: a removed customer who logs in again (a new
    // context token, so a new attendee) is refused as well.
    if let Some((_, customer_id)) = &customer {
        if was_removed(&tx, &appointment.id, customer_id)? {
            return Ok(Err(removed()));
        }
    }
    // A locked room takes back who already joined: the same session, or the same
    // customer logged in again.
    if join.locked
        && !(existing.is_some() || customer_joined(&tx, &appointment.id, customer.as_ref())?)
    {
        return Ok(Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "DIGITAL_SALES_ROOMS__APPOINTMENT_LOCKED",
            "The appointment is locked.",
        )));
    }
    // The answer carries the client's own token (only its key is stored).
    let client = match (context_token, join.client_token) {
        (Some(key), Some(token)) => Some(Session { key, token }),
        _ => None,
    };
    let (attendee_id, attendee_name, context_token) = record_client(
        &tx,
        &appointment.id,
        &appointment.sales_channel_id,
        join.name,
        existing,
        customer,
        client,
    )?;
    tx.commit()?;
    Ok(Ok(Joined {
        appointment,
        sales_channel_name: join.channel.name,
        attendee_id,
        attendee_name,
        context_token,
    }))
}

/// An earlier join of the same session to the appointment.
struct EarlierJoin {
    id: String,
    name: Option<String>,
    removed: bool,
}

/// The attendee of an earlier join of the session `context_token`: id, name and when it
/// was removed.
fn earlier_join(
    conn: &Connection,
    appointment_id: &str,
    context_token: &str,
) -> rusqlite::Result<Option<EarlierJoin>> {
    conn.query_row(
        "SELECT id, name, removed_at FROM attendee WHERE appointment_id = ?1 AND context_token = ?2 AND type = 'CLIENT'",
        params![appointment_id, context_token],
        |r| {
            Ok(EarlierJoin {
                id: r.get(0)?,
                name: r.get(1)?,
                removed: r.get::<_, Option<String>>(2)?.is_some(),
            })
        },
    )
    .optional()
}

/// The session key and customer of `context_token` when a customer is logged in with it.
fn customer_session(
    conn: &Connection,
    context_token: &str,
    sales_channel_id: &str,
) -> rusqlite::Result<Option<(String, String)>> {
    conn.query_row(
        "SELECT token, customer_id FROM store_context WHERE token = ?1 AND sales_channel_id = ?2 AND customer_id IS NOT NULL",
        params![context_token, sales_channel_id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
}

/// Whether the customer of `customer` (session key, customer id) joined the appointment
/// before (in any session).
fn customer_joined(
    conn: &Connection,
    appointment_id: &str,
    customer: Option<&(String, String)>,
) -> rusqlite::Result<bool> {
    let Some((_, customer_id)) = customer else {
        return Ok(false);
    };
    Ok(conn
        .query_row(
            "SELECT 1 FROM attendee WHERE appointment_id = ?1 AND customer_id = ?2 AND type = 'CLIENT'",
            params![appointment_id, customer_id],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// The attendee of the join: the earlier one renamed, or a new one with the customer's
/// session (when the client is in it) or a new guest session. Answers its id, name and
/// the client's token.
fn record_client(
    conn: &Connection,
    appointment_id: &str,
    sales_channel_id: &str,
    name: Option<String>,
    existing: Option<(String, Option<String>)>,
    customer: Option<(String, String)>,
    client: Option<Session>,
) -> rusqlite::Result<(String, Option<String>, String)> {
    Ok(match (existing, client) {
        (Some((id, old_name)), Some(session)) => {
            let name = name.or(old_name);
            conn.execute(
                "UPDATE attendee SET name = ?1, last_active_at = ?2 WHERE id = ?3",
                params![name, now_rfc3339(), id],
            )?;
            (id, name, session.token)
        }
        (_, client) => {
            let (session, customer_id) = match (customer, client) {
                (Some((key, customer_id)), Some(session)) if session.key == key => {
                    (session, Some(customer_id))
                }
                _ => (new_context(conn, sales_channel_id)?, None),
            };
            let id = new_id();
            conn.execute(
                "INSERT INTO attendee (id, appointment_id, type, name, context_token, joined_at, customer_id)
                 VALUES (?1, ?2, 'CLIENT', ?3, ?4, ?5, ?6)",
                params![id, appointment_id, name, session.key, now_rfc3339(), customer_id],
            )?;
            (id, name, session.token)
        }
    })
}

fn removed() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "DIGITAL_SALES_ROOMS__ATTENDEE_REMOVED",
        "You were removed from this appointment.",
    )
}

/// Whether the guide removed this customer from the appointment (under any of their
/// attendee ids).
fn was_removed(
    conn: &Connection,
    appointment_id: &str,
    customer_id: &str,
) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM attendee WHERE appointment_id = ?1 AND customer_id = ?2 AND removed_at IS NOT NULL)",
        params![appointment_id, customer_id],
        |r| r.get(0),
    )
}

/// The access rules of an appointment for a client: ended, outside its window, or for
/// customers only.
fn may_join(
    conn: &Connection,
    appointment: &Appointment,
    context_token: Option<&str>,
) -> rusqlite::Result<Result<(), ApiError>> {
    let refused = |code, detail: &str| Ok(Err(ApiError::new(StatusCode::FORBIDDEN, code, detail)));
    if appointment.ended_at.is_some() {
        return refused(
            "DIGITAL_SALES_ROOMS__APPOINTMENT_ENDED",
            "The appointment has ended.",
        );
    }
    let now = now_rfc3339();
    if appointment
        .accessible_from
        .as_deref()
        .is_some_and(|from| now.as_str() < from)
        || appointment
            .accessible_to
            .as_deref()
            .is_some_and(|to| now.as_str() > to)
    {
        return refused(
            "DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_ACCESSIBLE",
            "The appointment is not accessible at this time.",
        );
    }
    if appointment.attendee_restriction_type == "customer" {
        let customer: Option<String> = match context_token {
            Some(token) => conn
                .query_row(
                    "SELECT customer_id FROM store_context WHERE token = ?1",
                    [token],
                    |r| r.get(0),
                )
                .optional()?
                .flatten(),
            None => None,
        };
        if customer.is_none() {
            return refused(
                "DIGITAL_SALES_ROOMS__APPOINTMENT_RESTRICTED",
                "This appointment is for logged-in customers only.",
            );
        }
    }
    Ok(Ok(()))
}
