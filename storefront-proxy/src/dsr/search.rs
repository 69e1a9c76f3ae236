//! The guide's entity searches and the attendee product collection resource:
//! `POST /api/search/dsr-appointment-attendee`, `/api/search/dsr-attendee-product-collection`,
//! `/api/search/product`, `/api/search/order-customer` (Shopware criteria, see
//! `admin::search`) and
//! `/api/dsr-attendee-product-collection[/{id}]` (GET, POST, PATCH, DELETE).

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension, Row};
use serde_json::{json, Value};

use super::appointment::Appointment;
use super::attendee::Attendee;
use super::interaction::{change_collections, publish_changes, CollectionChange};
use crate::admin::search::{self, Entity};
use crate::admin::AdminUser;
use crate::catalog::criteria::{Expr, Field, Kind};
use crate::catalog::{load_of, product, query};
use crate::error::{ApiError, ApiResult, Violation};
use crate::state::App;
use crate::storage::{is_id, json_ids, new_id, now_rfc3339};
use crate::store_api::RequestParams;

fn column(expr: &'static str, kind: Kind) -> Option<Field> {
    Some(Field {
        expr: Expr::Column(expr),
        kind,
        translated: false,
    })
}

fn attendee_field(name: &str) -> Option<Field> {
    use Kind::*;
    match name {
        "id" => column("a.id", Id),
        "appointmentId" | "appointment.id" => column("a.appointment_id", Id),
        "customerId" | "customer.id" => column("a.customer_id", Id),
        "userId" | "user.id" => column("a.admin_user_id", Id),
        "videoUserId" => column("a.video_user_id", Text),
        "attendeeName" => column("a.name", Text),
        "attendeeEmail" => column("a.email", Text),
        "type" => column("a.type", Text),
        "invitationStatus" => column("a.invitation_status", Text),
        "joinedAt" | "createdAt" => column("a.joined_at", Date),
        "lastActive" => column("a.last_active_at", Date),
        "updatedAt" => column("a.updated_at", Date),
        "isBlocked" => column("(a.removed_at IS NOT NULL)", Bool),
        "appointment.presentationPath" => column(
            "(SELECT presentation_path FROM appointment x WHERE x.id = a.appointment_id)",
            Text,
        ),
        _ => None,
    }
}

const ATTENDEES: Entity = Entity {
    name: "dsr_appointment_attendee",
    from: "FROM attendee a WHERE 1",
    id: "a.id",
    order: "a.joined_at, a.id",
    field: attendee_field,
};

fn collection_field(name: &str) -> Option<Field> {
    use Kind::*;
    match name {
        "id" => column("c.id", Id),
        "attendeeId" | "attendee.id" => column("c.attendee_id", Id),
        "productId" | "product.id" => column("c.product_id", Id),
        "alias" => column("c.alias", Text),
        "createdAt" => column("c.created_at", Date),
        "attendee.appointmentId" | "attendee.appointment.id" => column(
            "(SELECT appointment_id FROM attendee x WHERE x.id = c.attendee_id)",
            Id,
        ),
        _ => None,
    }
}

const COLLECTIONS: Entity = Entity {
    name: "dsr_attendee_product_collection",
    from: "FROM attendee_product_collection c WHERE 1",
    id: "c.id",
    order: "c.created_at DESC, c.id",
    field: collection_field,
};

const ATTENDEE_COLUMNS: &str = "id, appointment_id, customer_id, admin_user_id, video_user_id, name, email, type, invitation_status,
    joined_at, last_active_at, removed_at, updated_at";

/// Leaves out unset fields: the reference types them without null.
fn without_nulls(mut value: Value) -> Value {
    if let Some(fields) = value.as_object_mut() {
        fields.retain(|_, v| !v.is_null());
    }
    value
}

/// `DsrAppointmentAttendee`.
fn attendee_json(r: &Row) -> rusqlite::Result<Value> {
    Ok(without_nulls(json!({
        "id": r.get::<_, String>(0)?,
        "appointmentId": r.get::<_, String>(1)?,
        "customerId": r.get::<_, Option<String>>(2)?,
        "userId": r.get::<_, Option<String>>(3)?,
        "videoUserId": r.get::<_, Option<String>>(4)?,
        "attendeeName": r.get::<_, Option<String>>(5)?,
        "attendeeEmail": r.get::<_, Option<String>>(6)?,
        "type": r.get::<_, String>(7)?,
        "invitationStatus": r.get::<_, Option<String>>(8)?,
        "joinedAt": r.get::<_, String>(9)?,
        "lastActive": r.get::<_, Option<String>>(10)?,
        "isBlocked": r.get::<_, Option<String>>(11)?.is_some(),
        "createdAt": r.get::<_, String>(9)?,
        "updatedAt": r.get::<_, Option<String>>(12)?,
        "apiAlias": "dsr_appointment_attendee",
    })))
}

fn load_rows(
    conn: &Connection,
    sql: &str,
    ids: &[String],
    f: fn(&Row) -> rusqlite::Result<Value>,
) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn.prepare_cached(sql)?;
    let found: HashMap<String, Value> = statement
        .query_map([json_ids(ids)], f)?
        .map(|row| row.map(|v| (v["id"].as_str().unwrap_or_default().to_owned(), v)))
        .collect::<Result<_, _>>()?;
    Ok(ids.iter().filter_map(|id| found.get(id).cloned()).collect())
}

fn load_attendees(conn: &Connection, ids: &[String]) -> rusqlite::Result<Vec<Value>> {
    load_rows(
        conn,
        &format!(
            "SELECT {ATTENDEE_COLUMNS} FROM attendee WHERE id IN (SELECT value FROM json_each(?1))"
        ),
        ids,
        attendee_json,
    )
}

/// `DsrAttendeeProductCollection`.
fn collection_json(r: &Row) -> rusqlite::Result<Value> {
    Ok(json!({
        "id": r.get::<_, String>(0)?,
        "attendeeId": r.get::<_, String>(1)?,
        "productId": r.get::<_, String>(2)?,
        "alias": r.get::<_, String>(3)?,
        "createdAt": r.get::<_, String>(4)?,
        "apiAlias": "dsr_attendee_product_collection",
    }))
}

fn load_collections(conn: &Connection, ids: &[String]) -> rusqlite::Result<Vec<Value>> {
    load_rows(
        conn,
        "SELECT id, attendee_id, product_id, alias, created_at FROM attendee_product_collection WHERE id IN (SELECT value FROM json_each(?1))",
        ids,
        collection_json,
    )
}

/// The `appointment` association of search results: each record's `appointmentId` as
/// the appointment it names (null when gone).
pub(super) fn attach_appointments(
    conn: &Connection,
    records: &mut [Value],
) -> rusqlite::Result<()> {
    for record in records {
        let id = record["appointmentId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        record["appointment"] = Appointment::by_id(conn, &id)?
            .map(|a| a.to_json())
            .unwrap_or(Value::Null);
    }
    Ok(())
}

/// `POST /api/search/dsr-appointment-attendee` (association `appointment`).
pub async fn attendees(
    _: AdminUser,
    State(app): State<App>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let criteria = search::parse(&params, &ATTENDEES)?;
    let with_appointment = criteria.wants("appointment");
    let body = app
        .db
        .call(move |conn| {
            let (ids, total) = search::select(conn, &ATTENDEES, &criteria)?;
            let mut data = load_attendees(conn, &ids)?;
            if with_appointment {
                attach_appointments(conn, &mut data)?;
            }
            Ok(search::result(total, data))
        })
        .await?;
    Ok(Json(body))
}

/// `POST /api/search/dsr-attendee-product-collection` (associations `product`, `attendee`).
pub async fn collections(
    _: AdminUser,
    State(app): State<App>,
    headers: HeaderMap,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let criteria = search::parse(&params, &COLLECTIONS)?;
    let (with_product, with_attendee) = (criteria.wants("product"), criteria.wants("attendee"));
    let ctx = super::cart::shop_context(&app, &headers, None, None).await?;
    let body = app
        .db
        .call(move |conn| {
            let (ids, total) = search::select(conn, &COLLECTIONS, &criteria)?;
            let mut data = load_collections(conn, &ids)?;
            let ids_of = |key: &str, data: &[Value]| {
                data.iter()
                    .filter_map(|c| c[key].as_str().map(str::to_owned))
                    .collect::<Vec<_>>()
            };
            if with_product {
                let products: HashMap<String, Value> = product::load(
                    conn,
                    &ctx,
                    &ids_of("productId", &data),
                    product::Load::default(),
                )?
                .into_iter()
                .map(|p| (p["id"].as_str().unwrap_or_default().to_owned(), p))
                .collect();
                for c in &mut data {
                    c["product"] = c["productId"]
                        .as_str()
                        .and_then(|id| products.get(id))
                        .cloned()
                        .unwrap_or(Value::Null);
                }
            }
            if with_attendee {
                let attendees: HashMap<String, Value> =
                    load_attendees(conn, &ids_of("attendeeId", &data))?
                        .into_iter()
                        .map(|a| (a["id"].as_str().unwrap_or_default().to_owned(), a))
                        .collect();
                for c in &mut data {
                    c["attendee"] = c["attendeeId"]
                        .as_str()
                        .and_then(|id| attendees.get(id))
                        .cloned()
                        .unwrap_or(Value::Null);
                }
            }
            Ok(search::result(total, data))
        })
        .await?;
    Ok(Json(body))
}

/// `POST /api/search/product`: the catalogue's product criteria (inactive products
/// are not listed), answered in the admin API's shape.
pub async fn products(
    _: AdminUser,
    State(app): State<App>,
    headers: HeaderMap,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut criteria = crate::catalog::criteria::parse(&params, "product", &query::product_field)?;
    criteria.limit.get_or_insert(search::DEFAULT_LIMIT);
    let load = load_of(&criteria);
    let picks_variants = criteria.ids.is_some() || criteria.condition.text.contains("p.parent_id");
    let ctx = super::cart::shop_context(&app, &headers, None, None).await?;
    let body = app
        .db
        .call(move |conn| {
            let selection = query::Selection {
                main_only: !picks_variants,
                ..Default::default()
            };
            let (ids, total) = query::select(conn, &ctx.languages, &selection, &criteria, false)?;
            Ok(search::result(
                total,
                product::load(conn, &ctx, &ids, load)?,
            ))
        })
        .await?;
    Ok(Json(body))
}

fn collection_not_found(id: &str) -> ApiError {
    ApiError::not_found(
        "FRAMEWORK__ENTITY_NOT_FOUND",
        format!("Could not find dsr_attendee_product_collection with id \"{id}\"."),
    )
}

const ALIASES: &[&str] = &["liked", "disliked", "lastSeen"];

fn alias_of(value: &Value) -> Option<&'static str> {
    value
        .as_str()
        .and_then(|a| ALIASES.iter().find(|x| **x == a).copied())
}

/// `GET /api/dsr-attendee-product-collection` (criteria in the query: limit, page).
pub async fn list_collections(
    user: AdminUser,
    state: State<App>,
    headers: HeaderMap,
    params: RequestParams,
) -> ApiResult<Json<Value>> {
    collections(user, state, headers, params).await
}

/// `GET /api/dsr-attendee-product-collection/{id}`
pub async fn read_collection(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let key = id.clone();
    let found = app
        .db
        .call(move |conn| Ok(load_collections(conn, &[key])?))
        .await?;
    let data = found
        .into_iter()
        .next()
        .ok_or_else(|| collection_not_found(&id))?;
    Ok(Json(json!({ "data": data })))
}

async fn attendee_of(app: &App, id: String) -> ApiResult<Option<Attendee>> {
    Ok(app
        .db
        .call(move |conn| Ok(Attendee::by_id(conn, &id)?))
        .await?)
}

/// `POST /api/dsr-attendee-product-collection`: `attendeeId`, `productId`, `alias`
/// (liked, disliked, lastSeen), optional `id`; 204 with the `Location` of the entry.
pub async fn create_collection(
    _: AdminUser,
    State(app): State<App>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let mut violations = Vec::new();
    let id_field = |key: &str, violations: &mut Vec<Violation>| match body
        .get(key)
        .and_then(Value::as_str)
        .map(str::to_lowercase)
    {
        Some(id) if is_id(&id) => Some(id),
        None if body.get(key).is_none_or(Value::is_null) => {
            violations.push(Violation::blank(format!("/{key}")));
            None
        }
        _ => {
            violations.push(Violation::new(
                "FRAMEWORK__INVALID_UUID",
                format!("/{key}"),
                "The value is not a valid id.",
            ));
            None
        }
    };
    let attendee_id = id_field("attendeeId", &mut violations);
    let product_id = id_field("productId", &mut violations);
    let alias = alias_of(body.get("alias").unwrap_or(&Value::Null));
    if alias.is_none() {
        violations.push(Violation::new(
            "VIOLATION::NO_SUCH_CHOICE_ERROR",
            "/alias",
            "The alias must be liked, disliked or lastSeen.",
        ));
    }
    let entry_id = match body.get("id") {
        None | Some(Value::Null) => new_id(),
        Some(value) => match value.as_str().map(str::to_lowercase) {
            Some(id) if is_id(&id) => id,
            _ => {
                violations.push(Violation::new(
                    "FRAMEWORK__INVALID_UUID",
                    "/id",
                    "The value is not a valid id.",
                ));
                String::new()
            }
        },
    };
    let (Some(attendee_id), Some(product_id), Some(alias), true) =
        (attendee_id, product_id, alias, violations.is_empty())
    else {
        return Err(ApiError::Violations(violations));
    };
    let attendee = attendee_of(&app, attendee_id.clone())
        .await?
        .ok_or_else(super::attendee::not_found)?;
    let (e, a, p) = (entry_id.clone(), attendee_id, product_id.clone());
    let created = app
        .db
        .call(move |conn| {
            if !super::listing::product_exists(conn, &p)? {
                return Ok(Err(crate::catalog::product_not_found(&p)));
            }
            let taken: bool = conn.query_row(
                "SELECT EXISTS(SELECT 1 FROM attendee_product_collection WHERE id = ?1 OR (attendee_id = ?2 AND alias = ?3 AND product_id = ?4))",
                params![e, a, alias, p],
                |r| r.get(0),
            )?;
            if taken {
                return Ok(Err(ApiError::bad_request("FRAMEWORK__DUPLICATE_ENTRY", "The attendee has this product in this collection already.")));
            }
            conn.execute(
                "INSERT INTO attendee_product_collection (id, attendee_id, alias, product_id, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![e, a, alias, p, now_rfc3339()],
            )?;
            Ok(Ok(()))
        })
        .await?;
    created?;
    publish_changes(&app, &attendee, vec![(alias, product_id, true)]);
    let mut response = StatusCode::NO_CONTENT.into_response();
    if let Ok(location) = format!("/api/dsr-attendee-product-collection/{entry_id}").parse() {
        response.headers_mut().insert("location", location);
    }
    Ok(response)
}

type Stored = (String, String, String);

async fn stored(app: &App, id: &str) -> ApiResult<Stored> {
    let key = id.to_owned();
    app.db
        .call(move |conn| {
            Ok(conn
                .query_row("SELECT attendee_id, alias, product_id FROM attendee_product_collection WHERE id = ?1", [key], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .optional()?)
        })
        .await?
        .ok_or_else(|| collection_not_found(id))
}

/// `PATCH /api/dsr-attendee-product-collection/{id}`: a new `alias` or `productId` (204).
pub async fn update_collection(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
    RequestParams(body): RequestParams,
) -> ApiResult<Response> {
    let (attendee_id, old_alias, old_product) = stored(&app, &id).await?;
    let alias = match body.get("alias") {
        None | Some(Value::Null) => ALIASES
            .iter()
            .find(|a| **a == old_alias)
            .copied()
            .unwrap_or("liked"),
        Some(value) => alias_of(value).ok_or_else(|| {
            ApiError::Violations(vec![Violation::new(
                "VIOLATION::NO_SUCH_CHOICE_ERROR",
                "/alias",
                "The alias must be liked, disliked or lastSeen.",
            )])
        })?,
    };
    let product_id = match body.get("productId") {
        None | Some(Value::Null) => old_product.clone(),
        Some(value) => match value.as_str().map(str::to_lowercase) {
            Some(p) if is_id(&p) => p,
            _ => {
                return Err(ApiError::Violations(vec![Violation::new(
                    "FRAMEWORK__INVALID_UUID",
                    "/productId",
                    "The value is not a valid id.",
                )]))
            }
        },
    };
    let attendee = attendee_of(&app, attendee_id)
        .await?
        .ok_or_else(super::attendee::not_found)?;
    let (key, p) = (id.clone(), product_id.clone());
    app.db
        .call(move |conn| {
            if !super::listing::product_exists(conn, &p)? {
                return Ok(Err(crate::catalog::product_not_found(&p)));
            }
            match conn.execute(
                "UPDATE attendee_product_collection SET alias = ?2, product_id = ?3 WHERE id = ?1",
                params![key, alias, p],
            ) {
                Ok(_) => Ok(Ok(())),
                Err(rusqlite::Error::SqliteFailure(e, _))
                    if e.code == rusqlite::ErrorCode::ConstraintViolation =>
                {
                    Ok(Err(ApiError::bad_request(
                        "FRAMEWORK__DUPLICATE_ENTRY",
                        "The attendee has this product in this collection already.",
                    )))
                }
                Err(e) => Err(e.into()),
            }
        })
        .await??;
    let old_alias = ALIASES
        .iter()
        .find(|a| **a == old_alias)
        .copied()
        .unwrap_or("liked");
    let changes: Vec<CollectionChange> =
        vec![(old_alias, old_product, false), (alias, product_id, true)];
    publish_changes(&app, &attendee, changes);
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `DELETE /api/dsr-attendee-product-collection/{id}` (204).
pub async fn delete_collection(
    _: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let (attendee_id, alias, product_id) = stored(&app, &id).await?;
    let attendee = attendee_of(&app, attendee_id.clone())
        .await?
        .ok_or_else(super::attendee::not_found)?;
    let alias = ALIASES
        .iter()
        .find(|a| **a == alias)
        .copied()
        .unwrap_or("liked");
    let changed = change_collections(&app, &attendee_id, vec![(alias, product_id, false)]).await?;
    publish_changes(&app, &attendee, changed);
    Ok(StatusCode::NO_CONTENT.into_response())
}

fn order_customer_field(name: &str) -> Option<Field> {
    use Kind::*;
    match name {
        "id" => column("o.order_customer_id", Id),
        "orderId" | "order.id" => column("o.id", Id),
        "customerId" | "customer.id" => column("o.customer_id", Id),
        "email" => column("o.customer_email", Text),
        "firstName" => column("o.customer_first_name", Text),
        "lastName" => column("o.customer_last_name", Text),
        "customerNumber" => column("o.customer_number", Text),
        "createdAt" | "order.orderDateTime" => column("o.order_date_time", Date),
        "order.orderNumber" => column("o.order_number", Text),
        "order.amountTotal" => column("o.amount_total", Number),
        _ => None,
    }
}

const ORDER_CUSTOMERS: Entity = Entity {
    name: "order_customer",
    from: "FROM shop_order o WHERE 1",
    id: "o.order_customer_id",
    order: "o.order_date_time DESC, o.id",
    field: order_customer_field,
};

/// `POST /api/search/order-customer` (association `order`): who ordered what, e.g.
/// filtered by the customer ids of an appointment's attendees.
pub async fn order_customers(
    _: AdminUser,
    State(app): State<App>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let criteria = search::parse(&params, &ORDER_CUSTOMERS)?;
    let with_order = criteria.wants("order");
    let body = app
        .db
        .call(move |conn| {
            let (ids, total) = search::select(conn, &ORDER_CUSTOMERS, &criteria)?;
            let mut statement = conn.prepare_cached(
                "SELECT order_customer_id, id, customer_id, customer_email, customer_first_name, customer_last_name, customer_number,
                        customer_salutation_id, customer_title, customer_company, created_at, order_number, order_date_time,
                        amount_total, amount_net, shipping_total, state
                 FROM shop_order WHERE order_customer_id IN (SELECT value FROM json_each(?1))",
            )?;
            let mut rows: HashMap<String, Value> = statement
                .query_map([json_ids(&ids)], |r| {
                    let id: String = r.get(0)?;
                    let order_id: String = r.get(1)?;
                    let mut customer = json!({
                        "id": id,
                        "orderId": order_id,
                        "customerId": r.get::<_, Option<String>>(2)?,
                        "email": r.get::<_, String>(3)?,
                        "firstName": r.get::<_, String>(4)?,
                        "lastName": r.get::<_, String>(5)?,
                        "customerNumber": r.get::<_, Option<String>>(6)?,
                        "salutationId": r.get::<_, Option<String>>(7)?,
                        "title": r.get::<_, Option<String>>(8)?,
                        "company": r.get::<_, Option<String>>(9)?,
                        "createdAt": r.get::<_, String>(10)?,
                        "apiAlias": "order_customer",
                    });
                    if with_order {
                        customer["order"] = json!({
                            "id": order_id,
                            "orderNumber": r.get::<_, String>(11)?,
                            "orderDateTime": r.get::<_, String>(12)?,
                            "amountTotal": r.get::<_, f64>(13)?,
                            "amountNet": r.get::<_, f64>(14)?,
                            "shippingTotal": r.get::<_, f64>(15)?,
                            "stateMachineState": { "technicalName": r.get::<_, String>(16)?, "apiAlias": "state_machine_state" },
                            "apiAlias": "order",
                        });
                    }
                    Ok((id, customer))
                })?
                .collect::<Result<_, _>>()?;
            let data = ids.iter().filter_map(|id| rows.remove(id)).collect();
            Ok(search::result(total, data))
        })
        .await?;
    Ok(Json(body))
}
