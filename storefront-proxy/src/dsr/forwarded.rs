//! The live room on an upstream Shopware (`UPSTREAM_URL`). The DSR calls go to the
//! upstream shop, which owns appointments, attendees and presentations; this proxy adds
//! what the upstream does not know about: the hub. From the upstream's own answers it
//! mints the hub session tokens (a client's join, a guide's join with the admin token),
//! remembers whose store session is whose (`attendees`), starts the hub's live state
//! from the upstream's presentation state (`seed`), tells the hub of starts, ends,
//! removals, likes and profile changes the upstream took, and answers the live state
//! from the hub. Carts and wishlists reach the hub through the shop events of the
//! forwarded calls (`crate::upstream::shop_events`) and [`super::RoomRelay`].

pub mod attendees;
pub mod delegation;
pub mod seed;

use axum::body::Bytes;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::Router;
use protocol::frame::Event;
use protocol::internal::{AttendeeProfileRequest, Audience};
use protocol::Role;
use serde_json::{json, Value};

use super::appointment::not_found as appointment_not_found;
use super::attendee::{self, Attendee};
use super::interaction::{publish_changes, CollectionChange};
use super::lifecycle::{client_state_body, guide_state_body};
use crate::error::{ApiError, ApiResult};
use crate::hub_client::hub_unavailable;
use crate::security::{ClientAddr, Volume};
use crate::shop_event::ShopEvent;
use crate::state::App;
use crate::store_api::session::token_key;
use crate::upstream::{self, Answer};

const CONTEXT_TOKEN_HEADER: &str = "sw-context-token";

/// The DSR routes of upstream mode (full paths, `/store-api` and `/api` included); every
/// other shop call is forwarded as it is.
pub fn routes() -> Router<App> {
    Router::new()
        .route(
            "/store-api/dsr/appointment/{presentation_path}/join-as-client",
            post(client_join),
        )
        .route(
            "/store-api/dsr/appointment/presentation/state",
            get(client_state),
        )
        .route("/store-api/dsr/interaction", post(interaction))
        .route(
            "/store-api/dsr/appointment/collection/{alias}/{product_id}",
            post(collection).delete(collection),
        )
        .route(
            "/store-api/dsr/appointment/attendee",
            axum::routing::patch(profile),
        )
        .route(
            "/api/_action/dsr/appointment/{id}/join-as-guide",
            post(guide_join),
        )
        .route("/api/_action/dsr/appointment/{id}/start", post(start))
        .route("/api/_action/dsr/appointment/{id}/end", post(end))
        .route(
            "/api/_action/dsr/appointment/{id}/presentation/state",
            get(guide_state),
        )
        .route(
            "/api/_action/dsr/appointment/{id}/video-room",
            post(passed).delete(delete_video_room),
        )
        .route(
            "/api/_action/dsr/appointment/attendee/{id}/sw-context-token",
            get(context_token),
        )
        .route(
            "/api/_action/dsr/appointment/attendee/{id}/remove",
            post(remove),
        )
        .route(
            "/api/_action/dsr/appointment/attendee/{id}/load-temp-cart",
            get(attendee_cart),
        )
        .route(
            "/api/_action/dsr/appointment/attendee/{id}/add-temp-discount",
            post(attendee_cart),
        )
        .route(
            "/api/_action/dsr/appointment/attendee/{id}/remove-temp-discount",
            post(attendee_cart),
        )
        .route(
            "/api/_action/dsr/appointment/attendee/{id}/apply-temp-discount",
            post(attendee_cart),
        )
        .route(
            "/api/_action/dsr/appointment/attendee/{id}/add-cart-discount",
            post(attendee_cart),
        )
        .route(
            "/api/_proxy/store-api/{sales_channel_id}/checkout/cart",
            any(proxied_cart),
        )
        .route(
            "/api/_proxy/store-api/{sales_channel_id}/checkout/cart/line-item",
            any(proxied_cart),
        )
}

/// A call as it came, its body read.
struct Call {
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
}

impl Call {
    async fn read(request: Request) -> ApiResult<Call> {
        let (parts, body) = request.into_parts();
        let body = upstream::read_body(parts.uri.path(), body).await?;
        Ok(Call {
            method: parts.method,
            uri: parts.uri,
            headers: parts.headers,
            body,
        })
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .filter(|v| !v.is_empty())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

fn upstream_of(app: &App) -> ApiResult<&upstream::Upstream> {
    app.upstream.as_ref().ok_or_else(|| {
        ApiError::not_found(
            "FRAMEWORK__ROUTE_NOT_FOUND",
            "No route found for this path.",
        )
    })
}

/// Sends the call upstream as it came.
async fn pass(app: &App, call: &Call) -> ApiResult<Answer> {
    upstream_of(app)?
        .send(
            &call.method,
            upstream::path_and_query(&call.uri),
            &call.headers,
            call.body.clone(),
        )
        .await
}

/// A `GET` of `path` upstream with `headers` (the caller's credentials).
async fn read_upstream(app: &App, path: &str, headers: &HeaderMap) -> Option<Value> {
    let answer = upstream_of(app)
        .ok()?
        .send(&Method::GET, path, headers, Bytes::new())
        .await
        .ok()?;
    answer.status.is_success().then(|| answer.json()).flatten()
}

async fn attendee_by_token(app: &App, token: Option<&str>) -> ApiResult<Option<Attendee>> {
    let Some(key) = token.map(token_key) else {
        return Ok(None);
    };
    Ok(app
        .db
        .call(move |conn| Ok(attendees::by_context_token(conn, &key)?))
        .await?
        .filter(|a| !a.removed))
}

async fn attendee_by_id(app: &App, id: String) -> ApiResult<Option<Attendee>> {
    Ok(app
        .db
        .call(move |conn| Ok(attendees::by_id(conn, &id)?))
        .await?)
}

async fn record(app: &App, attendee: Attendee, name: Option<String>) -> ApiResult<()> {
    app.db
        .call(move |conn| Ok(attendees::record(conn, &attendee, name.as_deref())?))
        .await?;
    Ok(())
}

/// The hub catches up with the upstream's `stateForAll` (a hub that is down is logged:
/// the join goes on, as in embedded mode).
async fn seed_from(app: &App, appointment_id: &str, state: Option<Value>) {
    let Some(all) = state.and_then(|s| s.get("stateForAll").cloned()) else {
        return;
    };
    if let Err(error) = seed::from_upstream(app, appointment_id, &all).await {
        tracing::warn!(%error, appointment = appointment_id, "could not start the hub's live state from the upstream's");
    }
}

/// The join answer's fields this proxy needs: (appointment id, attendee id, context token, name).
fn joined(answer: &Answer) -> Option<(Value, String, String, String, Option<String>)> {
    let body = answer.json()?;
    let text = |name: &str| {
        body.get(name)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let token = text("newContextToken").or_else(|| {
        answer
            .headers
            .get(CONTEXT_TOKEN_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    })?;
    let (id, attendee_id, name) = (text("id")?, text("attendeeId")?, text("attendeeName"));
    Some((body, id, attendee_id, token, name))
}

/// The upstream's join answer with this proxy's hub session in it.
fn with_hub_session(
    app: &App,
    call: &Call,
    answer: Answer,
    mut body: Value,
    role: Role,
    ids: (&str, &str),
    name: Option<String>,
) -> ApiResult<Response> {
    let (appointment_id, attendee_id) = ids;
    let (hub_url, hub_token) =
        super::join::hub_session(app, &call.headers, role, attendee_id, appointment_id, name)?;
    if let Some(fields) = body.as_object_mut() {
        fields.insert("hubUrl".into(), json!(hub_url));
        fields.insert("hubToken".into(), json!(hub_token));
    }
    Ok(answer.with_json(&body).into_response())
}

fn unreadable_join() -> ApiError {
    ApiError::new(
        StatusCode::BAD_GATEWAY,
        "SALESROOM__UPSTREAM_ANSWER_INVALID",
        "The shop's join answer lacks the appointment or attendee.",
    )
}

/// `POST /store-api/dsr/appointment/{presentationPath}/join-as-client`: limited per
/// client address as in embedded mode (`JOINS_PER_MINUTE`, `security::Volume::Join`).
async fn client_join(
    client: ClientAddr,
    State(app): State<App>,
    request: Request,
) -> ApiResult<Response> {
    app.security.quota(Volume::Join, client.0)?;
    let call = Call::read(request).await?;
    let answer = pass(&app, &call).await?;
    if !answer.status.is_success() {
        return Ok(answer.into_response());
    }
    let (body, id, attendee_id, token, name) = joined(&answer).ok_or_else(unreadable_join)?;
    // No one can join while the guide has locked the appointment (live state: the hub).
    match app.hub.client_state(&id).await {
        Ok(state) if state.state_for_all.locked => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "DIGITAL_SALES_ROOMS__APPOINTMENT_LOCKED",
                "The appointment is locked.",
            ));
        }
        Ok(_) => {}
        Err(error) => tracing::warn!(%error, "could not read the lock state from the hub"),
    }
    // Only the upstream session's hash is kept (issue #29, item 4).
    let attendee = Attendee {
        id: attendee_id.clone(),
        appointment_id: id.clone(),
        context_token: token_key(&token),
        removed: false,
        kind: "CLIENT".into(),
    };
    record(&app, attendee, name.clone()).await?;
    let mut headers = HeaderMap::new();
    if let Some(key) = call.headers.get("sw-access-key") {
        headers.insert("sw-access-key", key.clone());
    }
    if let Ok(value) = HeaderValue::from_str(&token) {
        headers.insert(CONTEXT_TOKEN_HEADER, value);
    }
    seed_from(
        &app,
        &id,
        read_upstream(
            &app,
            "/store-api/dsr/appointment/presentation/state",
            &headers,
        )
        .await,
    )
    .await;
    with_hub_session(
        &app,
        &call,
        answer,
        body,
        Role::Client,
        (&id, &attendee_id),
        name,
    )
}

/// The caller's credentials for an admin read upstream.
fn admin_headers(call: &Call) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for name in ["authorization", "sw-language-id"] {
        if let Some(value) = call.headers.get(name) {
            headers.insert(name, value.clone());
        }
    }
    headers
}

fn guide_state_path(id: &str) -> String {
    format!("/api/_action/dsr/appointment/{id}/presentation/state")
}

/// `POST /api/_action/dsr/appointment/{id}/join-as-guide` (with the admin token)
async fn guide_join(
    State(app): State<App>,
    Path(id): Path<String>,
    request: Request,
) -> ApiResult<Response> {
    let call = Call::read(request).await?;
    let answer = pass(&app, &call).await?;
    if !answer.status.is_success() {
        return Ok(answer.into_response());
    }
    let (body, appointment_id, attendee_id, token, name) =
        joined(&answer).ok_or_else(unreadable_join)?;
    if appointment_id != id {
        return Err(unreadable_join());
    }
    let attendee = Attendee {
        id: attendee_id.clone(),
        appointment_id: id.clone(),
        context_token: token_key(&token),
        removed: false,
        kind: "GUIDE".into(),
    };
    record(&app, attendee, name.clone()).await?;
    seed_from(
        &app,
        &id,
        read_upstream(&app, &guide_state_path(&id), &admin_headers(&call)).await,
    )
    .await;
    with_hub_session(
        &app,
        &call,
        answer,
        body,
        Role::Guide,
        (&id, &attendee_id),
        name,
    )
}

/// Start or end: the upstream first, then the hub, from the upstream's state with
/// `flag` set (a retry after a hub failure publishes what the hub still lacks).
async fn start_or_end(app: App, id: String, request: Request, flag: &str) -> ApiResult<Response> {
    let call = Call::read(request).await?;
    let answer = pass(&app, &call).await?;
    if !answer.status.is_success() {
        return Ok(answer.into_response());
    }
    let mut all = read_upstream(&app, &guide_state_path(&id), &admin_headers(&call))
        .await
        .and_then(|state| state.get("stateForAll").cloned())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}));
    all[flag] = json!(true);
    seed::from_upstream(&app, &id, &all)
        .await
        .map_err(hub_unavailable)?;
    Ok(answer.into_response())
}

/// `POST /api/_action/dsr/appointment/{id}/start`
async fn start(
    State(app): State<App>,
    Path(id): Path<String>,
    request: Request,
) -> ApiResult<Response> {
    start_or_end(app, id, request, "started").await
}

/// `POST /api/_action/dsr/appointment/{id}/end`
async fn end(
    State(app): State<App>,
    Path(id): Path<String>,
    request: Request,
) -> ApiResult<Response> {
    start_or_end(app, id, request, "ended").await
}

/// `GET /api/_action/dsr/appointment/{id}/presentation/state`: the upstream checks the
/// guide and the appointment; the live state is the hub's.
async fn guide_state(
    State(app): State<App>,
    Path(id): Path<String>,
    request: Request,
) -> ApiResult<Response> {
    let call = Call::read(request).await?;
    let answer = pass(&app, &call).await?;
    if !answer.status.is_success() {
        return Ok(answer.into_response());
    }
    let snapshot = app.hub.state(&id).await.map_err(hub_unavailable)?;
    Ok(answer
        .with_json(&guide_state_body(snapshot))
        .into_response())
}

/// `GET /store-api/dsr/appointment/presentation/state`: the hub's live state for an
/// attendee who joined here; the upstream's answer for anyone else.
async fn client_state(State(app): State<App>, request: Request) -> ApiResult<Response> {
    let call = Call::read(request).await?;
    let Some(attendee) = attendee_by_token(&app, call.header(CONTEXT_TOKEN_HEADER)).await? else {
        return Ok(pass(&app, &call).await?.into_response());
    };
    let snapshot = app
        .hub
        .attendee_state(&attendee.appointment_id, &attendee.id)
        .await
        .map_err(hub_unavailable)?;
    Ok(axum::Json(client_state_body(snapshot)).into_response())
}

/// `POST /store-api/dsr/interaction`: likes, dislikes and views tell the guides.
async fn interaction(State(app): State<App>, request: Request) -> ApiResult<Response> {
    let call = Call::read(request).await?;
    let answer = pass(&app, &call).await?;
    if answer.status.is_success() {
        if let Some(attendee) = attendee_by_token(&app, call.header(CONTEXT_TOKEN_HEADER)).await? {
            let body = call.json();
            let product = body["payload"]["productId"].as_str().map(str::to_owned);
            let changes: Vec<CollectionChange> = match (body["name"].as_str(), product) {
                (Some("product.viewed"), Some(p)) => vec![("lastSeen", p, true)],
                (Some("attendee.product.collection.liked"), Some(p)) => {
                    vec![("liked", p.clone(), true), ("disliked", p, false)]
                }
                (Some("attendee.product.collection.disliked"), Some(p)) => {
                    vec![("disliked", p.clone(), true), ("liked", p, false)]
                }
                (Some("attendee.product.collection.removed"), Some(p)) => {
                    vec![("liked", p.clone(), false), ("disliked", p, false)]
                }
                _ => vec![],
            };
            publish_changes(&app, &attendee, changes);
        }
    }
    Ok(answer.into_response())
}

/// `POST|DELETE /store-api/dsr/appointment/collection/{alias}/{productId}`
async fn collection(
    State(app): State<App>,
    Path((alias, product_id)): Path<(String, String)>,
    request: Request,
) -> ApiResult<Response> {
    let call = Call::read(request).await?;
    let answer = pass(&app, &call).await?;
    if answer.status.is_success() {
        if let Some(attendee) = attendee_by_token(&app, call.header(CONTEXT_TOKEN_HEADER)).await? {
            let (alias, other): (&'static str, &'static str) = match alias.as_str() {
                "liked" => ("liked", "disliked"),
                "disliked" => ("disliked", "liked"),
                _ => return Ok(answer.into_response()),
            };
            let changes = if call.method == Method::POST {
                vec![
                    (alias, product_id.clone(), true),
                    (other, product_id, false),
                ]
            } else {
                vec![(alias, product_id, false)]
            };
            publish_changes(&app, &attendee, changes);
        }
    }
    Ok(answer.into_response())
}

/// `PATCH /store-api/dsr/appointment/attendee`: a new name or video user id reaches
/// the guides' participant list.
async fn profile(State(app): State<App>, request: Request) -> ApiResult<Response> {
    let call = Call::read(request).await?;
    let answer = pass(&app, &call).await?;
    if answer.status.is_success() {
        if let Some(attendee) = attendee_by_token(&app, call.header(CONTEXT_TOKEN_HEADER)).await? {
            let body = call.json();
            let request = AttendeeProfileRequest {
                appointment_id: attendee.appointment_id.clone(),
                attendee_id: attendee.id.clone(),
                attendee_name: body
                    .get("attendeeName")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                video_user_id: body
                    .get("videoUserId")
                    .map(|v| v.as_str().map(str::to_owned)),
            };
            tokio::spawn(async move {
                if let Err(error) = app.hub.update_attendee_profile(&request).await {
                    tracing::warn!(%error, "could not publish an attendee change");
                }
            });
        }
    }
    Ok(answer.into_response())
}

/// `GET /api/_action/dsr/appointment/attendee/{id}/sw-context-token`: only while the
/// attendee granted cart access (the hub's live state says so); the upstream, asked with
/// the guide's credentials, gives the attendee's session token, and the guide gets a
/// delegated token for their cart instead (`delegation`; issue #29, item 5).
async fn context_token(
    State(app): State<App>,
    Path(id): Path<String>,
    request: Request,
) -> ApiResult<Response> {
    let call = Call::read(request).await?;
    let attendee = attendee_by_id(&app, id)
        .await?
        .filter(|a| a.kind == "CLIENT")
        .ok_or_else(attendee::not_found)?;
    delegation::require_cart_permission(&app, &attendee).await?;
    let answer = pass(&app, &call).await?;
    if !answer.status.is_success() {
        return Ok(answer.into_response());
    }
    let upstream_token = upstream_context_token(&answer)?;
    let token = delegation::mint(&app, &attendee, &upstream_token).await?;
    Ok(answer
        .with_json(&json!({ "attendee-sw-context-token": token }))
        .into_response())
}

/// The attendee's session token in the upstream's `…/sw-context-token` answer.
fn upstream_context_token(answer: &Answer) -> ApiResult<String> {
    answer
        .json()
        .and_then(|body| {
            body.get("attendee-sw-context-token")
                .and_then(Value::as_str)
                .filter(|token| !token.is_empty())
                .map(str::to_owned)
        })
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_GATEWAY,
                "SALESROOM__UPSTREAM_ANSWER_INVALID",
                "The shop's answer lacks the attendee's context token.",
            )
        })
}

/// The attendee's upstream session token, asked of the upstream with the guide's
/// credentials (this proxy keeps only its hash).
async fn ask_context_token(app: &App, call: &Call, attendee_id: &str) -> ApiResult<String> {
    let answer = upstream_of(app)?
        .send(
            &Method::GET,
            &format!("/api/_action/dsr/appointment/attendee/{attendee_id}/sw-context-token"),
            &admin_headers(call),
            Bytes::new(),
        )
        .await?;
    if !answer.status.is_success() {
        return Err(delegation_refused_upstream(answer));
    }
    upstream_context_token(&answer)
}

/// The upstream's refusal, as it answered it.
fn delegation_refused_upstream(answer: Answer) -> ApiError {
    let entry = answer
        .json()
        .and_then(|body| body["errors"][0]["code"].as_str().map(str::to_owned));
    tracing::info!(status = %answer.status, code = ?entry, "the upstream refused the attendee's context token");
    if answer.status == StatusCode::NOT_FOUND {
        attendee::not_found()
    } else {
        attendee::permission_missing()
    }
}

/// `POST /api/_action/dsr/appointment/attendee/{id}/remove`: the hub closes the
/// attendee out once the upstream removed them.
async fn remove(
    State(app): State<App>,
    Path(id): Path<String>,
    request: Request,
) -> ApiResult<Response> {
    let call = Call::read(request).await?;
    let answer = pass(&app, &call).await?;
    if answer.status.is_success() {
        if let Some(attendee) = attendee_by_id(&app, id.clone()).await? {
            app.db
                .call(move |conn| Ok(attendees::mark_removed(conn, &id)?))
                .await?;
            let event = Event::AttendeeRemoved {
                attendee_id: attendee.id.clone(),
            };
            app.hub
                .publish(&attendee.appointment_id, Audience::Everyone, event)
                .await
                .map_err(hub_unavailable)?;
        }
    }
    Ok(answer.into_response())
}

/// A call of a path this router follows up on some methods only, passed as it is.
async fn passed(State(app): State<App>, request: Request) -> ApiResult<Response> {
    let call = Call::read(request).await?;
    Ok(pass(&app, &call).await?.into_response())
}

/// The guide deletes the appointment's video room: this proxy's hub deletes the LiveKit
/// room (its video tokens name it) before the upstream drops its record; a hub that does
/// not answer: 503, and the upstream is not asked. Creating one and searching the records
/// are the upstream's alone and pass as they are.
async fn delete_video_room(
    State(app): State<App>,
    Path(id): Path<String>,
    request: Request,
) -> ApiResult<Response> {
    let call = Call::read(request).await?;
    if !protocol::state::is_id(&id) {
        return Ok(pass(&app, &call).await?.into_response());
    }
    // Only for a guide of an appointment the upstream knows, asked with the guide's own
    // credentials (an Admin API search, which Shopware and the embedded shop answer).
    let mut headers = call.headers.clone();
    headers.insert(
        axum::http::header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    let query = Bytes::from(json!({ "ids": [id], "limit": 1 }).to_string());
    let found = upstream_of(&app)?
        .send(
            &Method::POST,
            "/api/search/dsr-appointment",
            &headers,
            query,
        )
        .await?;
    if !found.status.is_success() {
        return Ok(found.into_response());
    }
    if found
        .json()
        .and_then(|body| body["data"].as_array().map(Vec::len))
        .unwrap_or(0)
        == 0
    {
        return Err(appointment_not_found());
    }
    app.hub
        .delete_video_room(&id)
        .await
        .map_err(hub_unavailable)?;
    Ok(pass(&app, &call).await?.into_response())
}

/// The guide's discounts for an attendee (`load-temp-cart`, `…-temp-discount`,
/// `add-cart-discount`): only with the attendee's cart permission (this proxy's hub
/// knows it); a change of the cart itself (applied, or a cart discount) is the
/// attendee's cart change.
async fn attendee_cart(
    State(app): State<App>,
    Path(id): Path<String>,
    request: Request,
) -> ApiResult<Response> {
    let call = Call::read(request).await?;
    let attendee = attendee_by_id(&app, id)
        .await?
        .filter(|a| a.kind == "CLIENT")
        .ok_or_else(attendee::not_found)?;
    delegation::require_cart_permission(&app, &attendee).await?;
    let answer = pass(&app, &call).await?;
    let path = call.uri.path();
    if answer.status.is_success()
        && (path.ends_with("/apply-temp-discount") || path.ends_with("/add-cart-discount"))
    {
        if let Some(cart) = answer.json().filter(|cart| cart.get("lineItems").is_some()) {
            app.events
                .emit(ShopEvent::cart_changed(&attendee.context_token, &cart))
                .await;
        }
    }
    Ok(answer.into_response())
}

/// The guide's proxied cart of an attendee (`sw-context-token` header: a delegated
/// token or the attendee's session; or the `attendeeId` parameter): only with the
/// attendee's cart permission; the call goes upstream with the attendee's session (a
/// delegated token's sealed one, else asked of the upstream with the guide's
/// credentials). A change is the attendee's cart change.
async fn proxied_cart(State(app): State<App>, request: Request) -> ApiResult<Response> {
    let mut call = Call::read(request).await?;
    let attendee_id = axum::extract::Query::<Vec<(String, String)>>::try_from_uri(&call.uri)
        .ok()
        .and_then(|q| {
            q.0.into_iter()
                .find(|(k, _)| k == "attendeeId")
                .map(|(_, v)| v)
        });
    let (attendee, upstream_token) =
        match (
            call.header(CONTEXT_TOKEN_HEADER).map(str::to_owned),
            attendee_id,
        ) {
            (Some(token), _) if super::delegation::is_delegated(&token) => {
                let delegated = delegation::resolve(&app, &token).await?;
                (delegated.attendee, delegated.upstream_token)
            }
            (Some(token), _) => {
                let attendee = attendee_by_token(&app, Some(token.as_str()))
                    .await?
                    .filter(|a| a.kind == "CLIENT")
                    .ok_or_else(attendee::not_found)?;
                delegation::require_cart_permission(&app, &attendee).await?;
                (attendee, token)
            }
            (None, Some(id)) => {
                let attendee = attendee_by_id(&app, id)
                    .await?
                    .filter(|a| a.kind == "CLIENT")
                    .ok_or_else(attendee::not_found)?;
                delegation::require_cart_permission(&app, &attendee).await?;
                let token = ask_context_token(&app, &call, &attendee.id).await?;
                (attendee, token)
            }
            (None, None) => return Err(ApiError::bad_request(
                "DIGITAL_SALES_ROOMS__ATTENDEE_MISSING",
                "Name the attendee with the sw-context-token header or the attendeeId parameter.",
            )),
        };
    if let Ok(value) = HeaderValue::from_str(&upstream_token) {
        call.headers.insert(CONTEXT_TOKEN_HEADER, value);
    }
    let answer = pass(&app, &call).await?;
    if answer.status.is_success() && call.method != Method::GET {
        if let Some(cart) = answer.json().filter(|cart| cart.get("lineItems").is_some()) {
            app.events
                .emit(ShopEvent::cart_changed(&attendee.context_token, &cart))
                .await;
        }
    }
    Ok(answer.into_response())
}
