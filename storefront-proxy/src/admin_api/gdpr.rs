//! What a customer may ask for under the GDPR (admins only):
//!
//! - `POST /api/_action/customer/{id}/gdpr-export`: everything the shop keeps about
//!   the customer as one JSON document: the account (`customer`), its `addresses`, its
//!   `orders` (as the Admin API answers them), its `wishlist` and its `newsletter`
//!   subscription;
//! - `POST /api/_action/customer/{id}/anonymize`: the account is deleted (addresses,
//!   wishlist, sessions' logins, newsletter subscription and the mails sent to it with
//!   it); its orders stay
//!   for the books, their snapshots with the name, e-mail address, phone number and
//!   customer number replaced. Answers `{"success": true, "anonymizedOrders": n}`.

use axum::extract::{Path, State};
use axum::routing::post;
use axum::{Json, Router};
use rusqlite::{params, Connection};
use serde_json::{json, Value};

use super::entities::customer::{CUSTOMER, CUSTOMER_ADDRESS};
use super::entities::order::ORDER;
use super::{in_transaction, read, write};
use crate::admin::AdminUser;
use crate::error::ApiResult;
use crate::state::App;
use crate::storage::{is_id, json_ids, now_rfc3339};

pub fn routes() -> Router<App> {
    Router::new()
        .route("/_action/customer/{id}/gdpr-export", post(export))
        .route("/_action/customer/{id}/anonymize", post(anonymize))
}

/// The name an anonymised order keeps.
const ANONYMOUS: &str = "Anonymous";

fn checked(user: &AdminUser, id: &str) -> ApiResult<String> {
    super::authorize(user, &CUSTOMER, true)?;
    let id = id.to_lowercase();
    if !is_id(&id) {
        return Err(write::not_found(&CUSTOMER, &id));
    }
    Ok(id)
}

fn ids_of(conn: &Connection, sql: &str, id: &str) -> rusqlite::Result<Vec<String>> {
    let mut statement = conn.prepare(sql)?;
    let rows = statement.query_map([id], |r| r.get(0))?;
    rows.collect()
}

fn gdpr_export(conn: &Connection, id: &str) -> ApiResult<Value> {
    let Some(customer) = read::load(conn, &CUSTOMER, &[id.to_owned()])?.pop() else {
        return Err(write::not_found(&CUSTOMER, id));
    };
    let address_ids = ids_of(
        conn,
        "SELECT id FROM customer_address WHERE customer_id = ?1 ORDER BY created_at, id",
        id,
    )?;
    let order_ids = ids_of(
        conn,
        "SELECT id FROM shop_order WHERE customer_id = ?1 ORDER BY order_date_time, id",
        id,
    )?;
    let mut statement = conn.prepare(
        "SELECT p.product_id, x.product_number, COALESCE(t.name, ''), p.created_at
         FROM customer_wishlist w JOIN customer_wishlist_product p ON p.wishlist_id = w.id
         JOIN product x ON x.id = p.product_id
         LEFT JOIN product_translation t ON t.product_id = x.id AND t.language_id = (SELECT language_id FROM sales_channel ORDER BY rowid LIMIT 1)
         WHERE w.customer_id = ?1 ORDER BY p.created_at, p.id",
    )?;
    let wishlist: Vec<Value> = statement
        .query_map([id], |r| {
            Ok(json!({
                "productId": r.get::<_, String>(0)?,
                "productNumber": r.get::<_, String>(1)?,
                "name": r.get::<_, String>(2)?,
                "createdAt": r.get::<_, String>(3)?,
            }))
        })?
        .collect::<Result<_, _>>()?;
    let email = customer["email"].as_str().unwrap_or_default().to_owned();
    let mut statement = conn.prepare(
        "SELECT email, status, first_name, last_name, street, zip_code, city, confirmed_at, created_at
         FROM newsletter_recipient WHERE lower(email) = lower(?1)",
    )?;
    let newsletter: Vec<Value> = statement
        .query_map([&email], |r| {
            Ok(json!({
                "email": r.get::<_, String>(0)?,
                "status": r.get::<_, String>(1)?,
                "firstName": r.get::<_, Option<String>>(2)?,
                "lastName": r.get::<_, Option<String>>(3)?,
                "street": r.get::<_, Option<String>>(4)?,
                "zipCode": r.get::<_, Option<String>>(5)?,
                "city": r.get::<_, Option<String>>(6)?,
                "confirmedAt": r.get::<_, Option<String>>(7)?,
                "createdAt": r.get::<_, String>(8)?,
            }))
        })?
        .collect::<Result<_, _>>()?;
    Ok(json!({
        "exportedAt": now_rfc3339(),
        "customer": customer,
        "addresses": read::load(conn, &CUSTOMER_ADDRESS, &address_ids)?,
        "orders": read::load(conn, &ORDER, &order_ids)?,
        "wishlist": wishlist,
        "newsletter": newsletter.into_iter().next(),
    }))
}

async fn export(
    user: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let id = checked(&user, &id)?;
    let answer = app
        .db
        .read(move |conn| Ok(gdpr_export(conn, &id)))
        .await??;
    Ok(Json(answer))
}

async fn anonymize(
    user: AdminUser,
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let id = checked(&user, &id)?;
    let orders = in_transaction(&app, move |tx| {
        let email: Option<String> = {
            use rusqlite::OptionalExtension;
            tx.query_row("SELECT email FROM customer WHERE id = ?1", [&id], |r| {
                r.get(0)
            })
            .optional()?
        };
        let Some(email) = email else {
            return Err(write::not_found(&CUSTOMER, &id));
        };
        let order_ids = ids_of(tx, "SELECT id FROM shop_order WHERE customer_id = ?1", &id)?;
        for order_id in &order_ids {
            tx.execute(
                "UPDATE shop_order SET customer_email = ?2, customer_first_name = ?3, customer_last_name = ?3,
                        customer_title = NULL, customer_number = NULL, customer_salutation_id = NULL, updated_at = ?4
                 WHERE id = ?1",
                params![order_id, format!("anonymous-{}@anonymous.invalid", &order_id[..8]), ANONYMOUS, now_rfc3339()],
            )?;
        }
        tx.execute(
            "UPDATE order_address SET first_name = ?2, last_name = ?2, title = NULL, phone_number = NULL, salutation_id = NULL
             WHERE order_id IN (SELECT value FROM json_each(?1))",
            params![json_ids(&order_ids), ANONYMOUS],
        )?;
        tx.execute(
            "DELETE FROM newsletter_recipient WHERE lower(email) = lower(?1)",
            [&email],
        )?;
        tx.execute(
            "UPDATE store_context SET customer_id = NULL WHERE customer_id = ?1",
            [&id],
        )?;
        tx.execute(
            "UPDATE attendee SET customer_id = NULL WHERE customer_id = ?1",
            [&id],
        )?;
        tx.execute(
            "UPDATE product_review SET customer_id = NULL WHERE customer_id = ?1",
            [&id],
        )?;
        tx.execute("DELETE FROM customer WHERE id = ?1", [&id])?;
        // Last: the mails sent to the customer (rows and files).
        crate::mail::forget(tx, &email)?;
        tracing::info!(customer_id = %id, orders = order_ids.len(), "customer anonymised");
        Ok(order_ids.len())
    })
    .await?;
    Ok(Json(json!({ "success": true, "anonymizedOrders": orders })))
}
