//! The `order` entity with its snapshot (line items, addresses, customer, prices),
//! transactions, deliveries and documents, and `POST /store-api/order`: the caller's
//! orders with criteria, newest first.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Map, Value};

use super::state::{Locale, Machine};
use crate::account::logged_in::not_logged_in;
use crate::catalog::criteria::{self, Expr, Field, Kind, Sql};
use crate::checkout::methods;
use crate::error::{ApiError, ApiResult};
use crate::security::{ClientAddr, Throttle};
use crate::settings::{load_currencies, load_salutations};
use crate::state::App;
use crate::storage::json_ids;
use crate::store_api::ShopContext;
use crate::store_api::LIVE_VERSION_ID;
use crate::store_api::{search_result, RequestParams};

/// Transaction states from which the customer may still choose another payment method.
pub const PAYMENT_CHANGEABLE: &[&str] = &["open", "failed", "cancelled", "reminded", "unconfirmed"];

/// The id of a document type (stable, derived from its name).
pub fn document_type_id(technical_name: &str) -> String {
    Machine::Order.state_id(&format!("document_type/{technical_name}"))
}

fn json_column(text: Option<String>) -> Value {
    text.and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null)
}

/// The order's date (`orderDate`) from its date and time.
fn date_of(date_time: &str) -> String {
    date_time.get(..10).unwrap_or(date_time).to_owned()
}

fn addresses(conn: &Connection, ctx: &ShopContext, order_id: &str) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn.prepare_cached(
        "SELECT id, country_id, country_state_id, salutation_id, title, first_name, last_name, company, department, street, zipcode,
                city, phone_number, additional_address_line1, additional_address_line2, created_at
         FROM order_address WHERE order_id = ?1 ORDER BY created_at, id",
    )?;
    let rows = statement
        .query_map([order_id], |r| {
            Ok(json!({
                "id": r.get::<_, String>(0)?,
                "versionId": LIVE_VERSION_ID,
                "orderId": order_id,
                "orderVersionId": LIVE_VERSION_ID,
                "countryId": r.get::<_, String>(1)?,
                "countryStateId": r.get::<_, Option<String>>(2)?,
                "salutationId": r.get::<_, Option<String>>(3)?,
                "title": r.get::<_, Option<String>>(4)?,
                "firstName": r.get::<_, String>(5)?,
                "lastName": r.get::<_, String>(6)?,
                "company": r.get::<_, Option<String>>(7)?,
                "department": r.get::<_, Option<String>>(8)?,
                "street": r.get::<_, String>(9)?,
                "zipcode": r.get::<_, Option<String>>(10)?,
                "city": r.get::<_, String>(11)?,
                "phoneNumber": r.get::<_, Option<String>>(12)?,
                "additionalAddressLine1": r.get::<_, Option<String>>(13)?,
                "additionalAddressLine2": r.get::<_, Option<String>>(14)?,
                "createdAt": r.get::<_, String>(15)?,
                "updatedAt": null,
                "vatId": null,
                "customFields": null,
                "apiAlias": "order_address",
            }))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    crate::account::address::with_references(conn, &ctx.languages, rows)
}

/// The downloads of a line item; `granted` once the order is paid.
fn downloads(conn: &Connection, line_item_id: &str, granted: bool) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn.prepare_cached(
        "SELECT id, media_id, position, file_name, file_extension, mime_type, length(content), created_at
         FROM order_line_item_download WHERE order_line_item_id = ?1 ORDER BY position, id",
    )?;
    let rows = statement.query_map([line_item_id], |r| {
        let media_id: String = r.get(1)?;
        let (file_name, extension): (String, String) = (r.get(3)?, r.get(4)?);
        Ok(json!({
            "id": r.get::<_, String>(0)?,
            "versionId": LIVE_VERSION_ID,
            "orderLineItemId": line_item_id,
            "orderLineItemVersionId": LIVE_VERSION_ID,
            "mediaId": media_id,
            "position": r.get::<_, i64>(2)?,
            "accessGranted": granted,
            "createdAt": r.get::<_, String>(7)?,
            "media": {
                "id": media_id,
                // Private: served only by the order download call, never by a URL.
                "path": format!("private/{media_id}/{file_name}.{extension}"),
                "fileName": file_name,
                "fileExtension": extension,
                "mimeType": r.get::<_, String>(5)?,
                "fileSize": r.get::<_, i64>(6)?,
                "private": true,
                "hasFile": true,
                "url": "",
                "apiAlias": "media",
            },
            "apiAlias": "order_line_item_download",
        }))
    })?;
    rows.collect()
}

fn line_items(conn: &Connection, order_id: &str, granted: bool) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn.prepare_cached(
        "SELECT id, identifier, referenced_id, product_id, promotion_id, type, label, description, quantity, unit_price, total_price,
                good, position, price, price_definition, payload, cover, states, created_at
         FROM order_line_item WHERE order_id = ?1 ORDER BY position, id",
    )?;
    let rows = statement
        .query_map([order_id], |r| {
            let cover = json_column(r.get(16)?);
            Ok(json!({
                "id": r.get::<_, String>(0)?,
                "versionId": LIVE_VERSION_ID,
                "orderId": order_id,
                "orderVersionId": LIVE_VERSION_ID,
                "identifier": r.get::<_, String>(1)?,
                "referencedId": r.get::<_, Option<String>>(2)?,
                "productId": r.get::<_, Option<String>>(3)?,
                "productVersionId": r.get::<_, Option<String>>(3)?.map(|_| LIVE_VERSION_ID),
                "promotionId": r.get::<_, Option<String>>(4)?,
                "type": r.get::<_, String>(5)?,
                "label": r.get::<_, String>(6)?,
                "description": r.get::<_, Option<String>>(7)?,
                "quantity": r.get::<_, i64>(8)?,
                "unitPrice": r.get::<_, f64>(9)?,
                "totalPrice": r.get::<_, f64>(10)?,
                "good": r.get::<_, bool>(11)?,
                "removable": true,
                "stackable": r.get::<_, String>(5)? == "product",
                "position": r.get::<_, i64>(12)?,
                "price": json_column(r.get(13)?),
                "priceDefinition": json_column(r.get(14)?),
                "payload": json_column(r.get(15)?),
                "coverId": cover["id"].clone(),
                "cover": cover,
                "states": json_column(r.get(17)?),
                "createdAt": r.get::<_, String>(18)?,
                "updatedAt": null,
                "parentId": null,
                "children": [],
                "customFields": null,
                "translated": {},
                "apiAlias": "order_line_item",
            }))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|mut item| {
            let id = item["id"].as_str().unwrap_or_default().to_owned();
            item["downloads"] = json!(downloads(conn, &id, granted)?);
            Ok(item)
        })
        .collect()
}

fn transactions(
    conn: &Connection,
    ctx: &ShopContext,
    locale: Locale,
    order_id: &str,
) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn.prepare_cached(
        "SELECT id, payment_method_id, amount, state, created_at, updated_at FROM order_transaction WHERE order_id = ?1 ORDER BY rowid",
    )?;
    let rows = statement
        .query_map([order_id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, Option<String>>(5)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|(id, method_id, amount, state, created, updated)| {
            let method = methods::load_payment_methods(conn, &ctx.languages, Some(&method_id))?
                .into_iter()
                .next()
                .unwrap_or(Value::Null);
            Ok(json!({
                "id": id,
                "versionId": LIVE_VERSION_ID,
                "orderId": order_id,
                "orderVersionId": LIVE_VERSION_ID,
                "paymentMethodId": method_id,
                "amount": json_column(Some(amount)),
                "validationData": null,
                "stateId": Machine::Transaction.state_id(&state),
                "stateMachineState": Machine::Transaction.state(&state, locale),
                "paymentMethod": method,
                "captures": [],
                "customFields": null,
                "createdAt": created,
                "updatedAt": updated,
                "apiAlias": "order_transaction",
            }))
        })
        .collect()
}

fn deliveries(
    conn: &Connection,
    ctx: &ShopContext,
    locale: Locale,
    order_id: &str,
    addresses: &[Value],
) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn.prepare_cached(
        "SELECT id, shipping_order_address_id, shipping_method_id, state, shipping_date_earliest, shipping_date_latest, shipping_costs,
                tracking_codes, created_at
         FROM order_delivery WHERE order_id = ?1 ORDER BY created_at, id",
    )?;
    let rows = statement
        .query_map([order_id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, String>(7)?,
                r.get::<_, String>(8)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|(id, address_id, method_id, state, earliest, latest, costs, tracking, created)| {
            let method = methods::load_shipping_methods(conn, &ctx.languages, Some(&method_id))?.into_iter().next().unwrap_or(Value::Null);
            Ok(json!({
                "id": id,
                "versionId": LIVE_VERSION_ID,
                "orderId": order_id,
                "orderVersionId": LIVE_VERSION_ID,
                "shippingOrderAddressId": address_id,
                "shippingOrderAddressVersionId": LIVE_VERSION_ID,
                "shippingOrderAddress": addresses.iter().find(|a| a["id"] == json!(address_id)).cloned().unwrap_or(Value::Null),
                "shippingMethodId": method_id,
                "shippingMethod": method,
                "stateId": Machine::Delivery.state_id(&state),
                "stateMachineState": Machine::Delivery.state(&state, locale),
                "trackingCodes": json_column(Some(tracking)),
                "shippingDateEarliest": earliest,
                "shippingDateLatest": latest,
                "shippingCosts": json_column(Some(costs)),
                "positions": [],
                "customFields": null,
                "createdAt": created,
                "updatedAt": null,
                "apiAlias": "order_delivery",
            }))
        })
        .collect()
}

/// The documents of an order (without their files).
pub fn documents(
    conn: &Connection,
    locale: Locale,
    order_id: &str,
) -> rusqlite::Result<Vec<Value>> {
    let mut statement = conn.prepare_cached(
        "SELECT id, document_type, document_number, deep_link_code, file_name, created_at, referenced_document_id
         FROM order_document WHERE order_id = ?1 ORDER BY created_at, id",
    )?;
    let rows = statement.query_map([order_id], |r| {
        let kind: String = r.get(1)?;
        let number: String = r.get(2)?;
        let created: String = r.get(5)?;
        let name = super::document_type::type_name(&kind, locale).to_owned();
        Ok(json!({
            "id": r.get::<_, String>(0)?,
            "documentTypeId": document_type_id(&kind),
            "referencedDocumentId": r.get::<_, Option<String>>(6)?,
            "orderId": order_id,
            "orderVersionId": LIVE_VERSION_ID,
            "documentMediaFileId": null,
            "config": {
                "name": kind,
                "title": format!("{name} {number}"),
                "documentNumber": number,
                "documentDate": created,
                "fileName": r.get::<_, String>(4)?,
                "fileType": "pdf",
            },
            "sent": false,
            "static": false,
            "deepLinkCode": r.get::<_, String>(3)?,
            "documentNumber": number,
            "fileType": "pdf",
            "documentType": {
                "id": document_type_id(&kind),
                "technicalName": kind,
                "name": name,
                "translated": { "name": name },
                "apiAlias": "document_type",
            },
            "customFields": null,
            "createdAt": created,
            "updatedAt": null,
            "apiAlias": "document",
        }))
    })?;
    rows.collect()
}

/// The to-many associations of an order (and their primary entries) that are loaded
/// only when criteria name them, as in Shopware; the state, customer, billing address
/// and currency always come along.
#[derive(Debug, Clone, Copy)]
pub struct Associations {
    pub line_items: bool,
    pub deliveries: bool,
    pub primary_delivery: bool,
    pub transactions: bool,
    pub primary_transaction: bool,
    pub documents: bool,
    pub addresses: bool,
}

impl Associations {
    /// Everything (the answer of placing an order).
    pub const ALL: Associations = Associations {
        line_items: true,
        deliveries: true,
        primary_delivery: true,
        transactions: true,
        primary_transaction: true,
        documents: true,
        addresses: true,
    };

    /// The associations criteria ask for (a nested one, `lineItems.downloads`, names its parent).
    pub fn of(criteria: &criteria::Criteria) -> Associations {
        Associations {
            line_items: criteria.wants("lineItems"),
            deliveries: criteria.wants("deliveries"),
            primary_delivery: criteria.wants("primaryOrderDelivery"),
            transactions: criteria.wants("transactions"),
            primary_transaction: criteria.wants("primaryOrderTransaction"),
            documents: criteria.wants("documents"),
            addresses: criteria.wants("addresses"),
        }
    }
}

/// The `shop_order` row of `id` as the order entity, without associations.
fn order_row(conn: &Connection, id: &str, locale: Locale) -> rusqlite::Result<Option<Value>> {
    conn.query_row(
        "SELECT order_number, sales_channel_id, customer_id, language_id, currency_id, state, order_date_time, billing_address_id,
                    price, shipping_costs, amount_total, amount_net, position_price, shipping_total, tax_status, deep_link_code,
                    customer_comment, affiliate_code, campaign_code, order_customer_id, customer_email, customer_first_name,
                    customer_last_name, customer_number, customer_salutation_id, customer_title, customer_company, created_at, updated_at
             FROM shop_order WHERE id = ?1",
        [id],
        |r| {
            let state: String = r.get(5)?;
            let date_time: String = r.get(6)?;
            let customer_id: Option<String> = r.get(2)?;
            Ok(json!({
                "id": id,
                "versionId": LIVE_VERSION_ID,
                "orderNumber": r.get::<_, String>(0)?,
                "salesChannelId": r.get::<_, String>(1)?,
                "languageId": r.get::<_, String>(3)?,
                "currencyId": r.get::<_, String>(4)?,
                "currencyFactor": 1.0,
                "stateId": Machine::Order.state_id(&state),
                "stateMachineState": Machine::Order.state(&state, locale),
                "orderDate": date_of(&date_time),
                "orderDateTime": date_time,
                "billingAddressId": r.get::<_, String>(7)?,
                "billingAddressVersionId": LIVE_VERSION_ID,
                "price": json_column(r.get(8)?),
                "shippingCosts": json_column(r.get(9)?),
                "amountTotal": r.get::<_, f64>(10)?,
                "amountNet": r.get::<_, f64>(11)?,
                "positionPrice": r.get::<_, f64>(12)?,
                "shippingTotal": r.get::<_, f64>(13)?,
                "taxStatus": r.get::<_, String>(14)?,
                "deepLinkCode": r.get::<_, String>(15)?,
                "customerComment": r.get::<_, Option<String>>(16)?,
                "affiliateCode": r.get::<_, Option<String>>(17)?,
                "campaignCode": r.get::<_, Option<String>>(18)?,
                "orderCustomer": {
                    "id": r.get::<_, String>(19)?,
                    "versionId": LIVE_VERSION_ID,
                    "orderId": id,
                    "customerId": customer_id,
                    "email": r.get::<_, String>(20)?,
                    "firstName": r.get::<_, String>(21)?,
                    "lastName": r.get::<_, String>(22)?,
                    "customerNumber": r.get::<_, Option<String>>(23)?,
                    "salutationId": r.get::<_, Option<String>>(24)?,
                    "title": r.get::<_, Option<String>>(25)?,
                    "company": r.get::<_, Option<String>>(26)?,
                    "vatIds": null,
                    "customFields": null,
                    "apiAlias": "order_customer",
                },
                "source": "store-api",
                "taxCalculationType": "horizontal",
                "customFields": null,
                "tags": [],
                "createdAt": r.get::<_, String>(27)?,
                "updatedAt": r.get::<_, Option<String>>(28)?,
                "apiAlias": "order",
            }))
        },
    )
    .optional()
}

/// Adds the associations of `order` (`id`) that `with` asks for, and its transactions.
fn add_associations(
    conn: &Connection,
    ctx: &ShopContext,
    locale: Locale,
    id: &str,
    order: &mut Value,
    with: Associations,
) -> rusqlite::Result<()> {
    let currency_id = order["currencyId"].as_str().unwrap_or_default().to_owned();
    order["currency"] = load_currencies(conn, &ctx.languages, Some(&currency_id))?
        .into_iter()
        .next()
        .unwrap_or(Value::Null);
    let salutation_id = order["orderCustomer"]["salutationId"].clone();
    order["orderCustomer"]["salutation"] = load_salutations(conn, &ctx.languages)?
        .into_iter()
        .find(|s| s["id"] == salutation_id)
        .unwrap_or(Value::Null);
    let addresses = addresses(conn, ctx, id)?;
    order["billingAddress"] = addresses
        .iter()
        .find(|a| a["id"] == order["billingAddressId"])
        .cloned()
        .unwrap_or(Value::Null);
    let transactions = transactions(conn, ctx, locale, id)?;
    if with.line_items {
        let paid = transactions
            .last()
            .is_some_and(|t| t["stateMachineState"]["technicalName"] == "paid")
            && order["stateMachineState"]["technicalName"] != "cancelled";
        order["lineItems"] = json!(line_items(conn, id, paid)?);
    }
    if with.deliveries || with.primary_delivery {
        let deliveries = deliveries(conn, ctx, locale, id, &addresses)?;
        order["primaryOrderDeliveryId"] = deliveries
            .first()
            .map(|d| d["id"].clone())
            .unwrap_or(Value::Null);
        if with.primary_delivery {
            order["primaryOrderDelivery"] = deliveries.first().cloned().unwrap_or(Value::Null);
        }
        if with.deliveries {
            order["deliveries"] = json!(deliveries);
        }
    }
    order["primaryOrderTransactionId"] = transactions
        .last()
        .map(|t| t["id"].clone())
        .unwrap_or(Value::Null);
    if with.primary_transaction {
        order["primaryOrderTransaction"] = transactions.last().cloned().unwrap_or(Value::Null);
    }
    if with.addresses {
        order["addresses"] = json!(addresses);
    }
    order["documents"] = if with.documents {
        json!(documents(conn, locale, id)?)
    } else {
        json!([])
    };
    // Read by `payment_changeable`; dropped below unless asked for.
    order["transactions"] = json!(transactions);
    Ok(())
}

/// The orders of `ids` with the associations asked for, in the order of `ids`; states
/// and methods named in the request's language. `documents` (required by the schema)
/// is an empty list when not asked for.
pub fn load(
    conn: &Connection,
    ctx: &ShopContext,
    ids: &[String],
    with: Associations,
) -> rusqlite::Result<Vec<Value>> {
    let locale = Locale::of(conn, ctx.language_id())?;
    let mut orders = Vec::new();
    for id in ids {
        let Some(mut order) = order_row(conn, id, locale)? else {
            continue;
        };
        add_associations(conn, ctx, locale, id, &mut order, with)?;
        orders.push(order);
    }
    Ok(orders)
}

/// Whether the customer may still change the payment method of an order: not
/// cancelled, and its last transaction not paid (or on its way to being paid).
pub fn payment_changeable(order: &Value) -> bool {
    order["stateMachineState"]["technicalName"] != "cancelled"
        && order["transactions"]
            .as_array()
            .and_then(|t| t.last())
            .and_then(|t| t["stateMachineState"]["technicalName"].as_str())
            .is_some_and(|state| PAYMENT_CHANGEABLE.contains(&state))
}

fn order_field(name: &str) -> Option<Field> {
    let column = |expr, kind| {
        Some(Field {
            expr: Expr::Column(expr),
            kind,
            translated: false,
        })
    };
    match name {
        "id" => column("o.id", Kind::Id),
        "orderNumber" => column("o.order_number", Kind::Text),
        "deepLinkCode" => column("o.deep_link_code", Kind::Text),
        "orderDateTime" | "orderDate" => column("o.order_date_time", Kind::Date),
        "amountTotal" => column("o.amount_total", Kind::Number),
        "amountNet" => column("o.amount_net", Kind::Number),
        "createdAt" => column("o.created_at", Kind::Date),
        "stateMachineState.technicalName" => column("o.state", Kind::Text),
        _ => None,
    }
}

/// The value of an `equals` filter on `deepLinkCode` (how a guest finds their order).
fn deep_link_filter(params: &Map<String, Value>) -> Option<String> {
    params.get("filter")?.as_array()?.iter().find_map(|f| {
        let field = f["field"].as_str()?;
        (f["type"] == "equals" && (field == "deepLinkCode" || field == "order.deepLinkCode"))
            .then(|| f["value"].as_str().map(str::to_owned))
            .flatten()
    })
}

/// Who may see which orders: a session's customer their own; without one, a guest
/// who names an order by its deep link code with the order's email and billing postal code.
enum Scope {
    Customer(String),
    Order(String),
}

fn guest_scope(
    conn: &Connection,
    ctx: &ShopContext,
    params: &Map<String, Value>,
) -> rusqlite::Result<Result<Scope, ApiError>> {
    if let Some(customer) = session_customer(conn, ctx)? {
        return Ok(Ok(Scope::Customer(customer)));
    }
    let Some(code) = deep_link_filter(params) else {
        return Ok(Err(not_logged_in()));
    };
    let found: Option<(String, bool, String, Option<String>)> = conn
        .query_row(
            "SELECT o.id, COALESCE(c.guest, 1), o.customer_email, a.zipcode FROM shop_order o
             LEFT JOIN customer c ON c.id = o.customer_id LEFT JOIN order_address a ON a.id = o.billing_address_id
             WHERE o.deep_link_code = ?1 AND o.sales_channel_id = ?2",
            [&code, &ctx.sales_channel.id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?;
    let Some((order_id, guest, email, zipcode)) = found else {
        return Ok(Err(wrong_guest_credentials()));
    };
    Ok(guest_check(params, guest, &email, zipcode.as_deref()).map(|()| Scope::Order(order_id)))
}

/// A lookup of an order by its deep link code (a guest's, with the order's e-mail and
/// postal code): throttled with growing waits per client address and per code, so that
/// neither codes nor postal codes can be guessed; one that succeeds does not count.
pub struct GuestLookup {
    security: std::sync::Arc<crate::security::Security>,
    keys: [(Throttle, String); 2],
}

impl GuestLookup {
    /// Counts the lookup of `code` by `client`, or refuses it (429, with the wait).
    pub fn start(app: &App, client: &ClientAddr, code: String) -> ApiResult<GuestLookup> {
        let lookup = GuestLookup {
            security: app.security.clone(),
            keys: [
                (Throttle::GuestOrder, client.key()),
                (Throttle::GuestOrderCode, code),
            ],
        };
        lookup.security.throttle(&lookup.keys())?;
        Ok(lookup)
    }

    fn keys(&self) -> [(Throttle, &str); 2] {
        self.keys
            .each_ref()
            .map(|(throttle, subject)| (*throttle, subject.as_str()))
    }

    /// The lookup's `result`; one that succeeded is taken back.
    pub fn end<T>(lookup: Option<GuestLookup>, result: ApiResult<T>) -> ApiResult<T> {
        if let (Some(lookup), Ok(_)) = (&lookup, &result) {
            lookup.security.release(&lookup.keys());
        }
        result
    }
}

/// A guest's proof of an order: its email and billing postal code in `params`.
/// Accounts with a password log in instead.
pub fn guest_check(
    params: &Map<String, Value>,
    guest: bool,
    email: &str,
    zipcode: Option<&str>,
) -> Result<(), ApiError> {
    if !guest {
        return Err(not_logged_in());
    }
    let given = |key: &str| {
        params
            .get(key)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    let (Some(given_email), Some(given_zipcode)) = (given("email"), given("zipcode")) else {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "CHECKOUT__GUEST_NOT_AUTHENTICATED",
            "Guest not authenticated.",
        ));
    };
    if !given_email.eq_ignore_ascii_case(email)
        || zipcode.map(str::trim) != Some(given_zipcode.as_str())
    {
        return Err(wrong_guest_credentials());
    }
    Ok(())
}

/// The active customer of a session, if any.
pub fn session_customer(conn: &Connection, ctx: &ShopContext) -> rusqlite::Result<Option<String>> {
    let Some(token) = &ctx.token else {
        return Ok(None);
    };
    conn.query_row(
        "SELECT c.id FROM store_context s JOIN customer c ON c.id = s.customer_id WHERE s.token = ?1 AND s.sales_channel_id = ?2 AND c.active = 1",
        [token, &ctx.sales_channel.id],
        |r| r.get(0),
    )
    .optional()
}

fn wrong_guest_credentials() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "CHECKOUT__WRONG_GUEST_CREDENTIALS",
        "Wrong credentials for guest authentication.",
    )
}

/// `POST /store-api/order`: the caller's orders (filter, ids, sort, limit, page;
/// newest first by default) and, with `checkPromotion`, whether each one's payment
/// method may still be changed. Without a customer: the guest order of a
/// `deepLinkCode` filter, given its `email` and `zipcode`.
pub async fn list(
    ctx: ShopContext,
    client: ClientAddr,
    State(app): State<App>,
    RequestParams(params): RequestParams,
) -> ApiResult<Json<Value>> {
    let mut criteria = criteria::parse(&params, "order", &order_field)?;
    let guest_lookup =
        deep_link_filter(&params).map(|code| GuestLookup::start(&app, &client, code));
    let guest_lookup = guest_lookup.transpose()?;
    let check_payment = params
        .get("checkPromotion")
        .and_then(criteria::boolean)
        .unwrap_or(false);
    let page = criteria.page;
    let limit = criteria.limit;
    let includes = std::mem::take(&mut criteria.includes);
    let with = Associations::of(&criteria);
    let found = app
        .db
        .call(move |conn| {
            let scope = match guest_scope(conn, &ctx, &params)? {
                Ok(scope) => scope,
                Err(error) => return Ok(Err(error)),
            };
            let mut from = Sql::default();
            match scope {
                Scope::Customer(customer_id) => from
                    .push("FROM shop_order o WHERE o.customer_id = ")
                    .bind(customer_id),
                Scope::Order(order_id) => {
                    from.push("FROM shop_order o WHERE o.id = ").bind(order_id)
                }
            };
            from.push(" AND o.sales_channel_id = ")
                .bind(ctx.sales_channel.id.clone());
            if let Some(ids) = &criteria.ids {
                from.push(" AND o.id IN (SELECT value FROM json_each(")
                    .bind(json_ids(ids))
                    .push("))");
            }
            if !criteria.condition.text.is_empty() {
                from.push(" AND (");
                from.append(&criteria.condition);
                from.push(")");
            }
            let mut query = Sql::default();
            query.push("SELECT o.id ");
            query.append(&from);
            query.push(" ORDER BY ");
            if criteria.order.text.is_empty() {
                query.push("o.order_date_time DESC, o.order_number DESC");
            } else {
                query.append(&criteria.order);
                query.push(", o.order_number DESC");
            }
            query
                .push(" LIMIT ")
                .bind(criteria.limit.unwrap_or(-1))
                .push(" OFFSET ")
                .bind(criteria.offset());
            let ids = query.query_map(conn, |r| r.get::<_, String>(0))?;
            let mut count = Sql::default();
            count.push("SELECT COUNT(*) ");
            count.append(&from);
            let total = count
                .query_map(conn, |r| r.get::<_, i64>(0))?
                .first()
                .copied()
                .unwrap_or(0) as usize;
            Ok(Ok((load(conn, &ctx, &ids, with)?, total)))
        })
        .await?;
    let (mut orders, total) = GuestLookup::end(guest_lookup, found)?;
    let changeable: serde_json::Map<String, Value> = if check_payment {
        orders
            .iter()
            .map(|o| {
                (
                    o["id"].as_str().unwrap_or_default().to_owned(),
                    json!(payment_changeable(o)),
                )
            })
            .collect()
    } else {
        serde_json::Map::new()
    };
    if !with.transactions {
        for order in &mut orders {
            if let Some(order) = order.as_object_mut() {
                order.remove("transactions");
            }
        }
    }
    let mut result = search_result("order", orders, total, page, limit);
    criteria::apply_includes(&mut result, &includes);
    Ok(Json(
        json!({ "orders": result, "paymentChangeable": changeable, "apiAlias": "order_route_response" }),
    ))
}

/// The order `order_id` of `customer_id`: its state, and its last transaction (id,
/// state, payment method).
pub struct Owned {
    pub state: String,
    pub language_id: String,
    pub transaction: Option<(String, String, String)>,
}

pub fn owned(
    conn: &Connection,
    customer_id: &str,
    order_id: &str,
) -> rusqlite::Result<Option<Owned>> {
    let order: Option<(String, String)> = conn
        .query_row(
            "SELECT state, language_id FROM shop_order WHERE id = ?1 AND customer_id = ?2",
            params![order_id, customer_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((state, language_id)) = order else {
        return Ok(None);
    };
    let transaction = conn
        .query_row(
            "SELECT id, state, payment_method_id FROM order_transaction WHERE order_id = ?1 ORDER BY rowid DESC LIMIT 1",
            [order_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    Ok(Some(Owned {
        state,
        language_id,
        transaction,
    }))
}
