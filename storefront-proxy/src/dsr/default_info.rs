//! `POST /store-api/dsr/account/update-default-info` (the document's
//! `dsrAccountUpdateDefaultInfo`: "mark the customer who was created by admin from DSR
//! has already updated the default info when the customer first login").
//!
//! The session's customer (an account; guests and anonymous sessions get 403
//! `CHECKOUT__CUSTOMER_NOT_LOGGED_IN`) is marked once: `customer.dsr_default_info_updated_at`
//! keeps the first time; calling again changes nothing and answers the same
//! `SuccessResponse`. The mark is read back with the customer
//! (`/store-api/account/customer`): `customFields.dsrDefaultInfoUpdatedAt`, where a
//! Shopware plugin keeps such a flag on the customer (`customFields`), null until marked.
//!
//! This shop has no flow yet in which an admin or guide creates a customer from the
//! room (neither the product spec nor the Admin API here creates customers), so every
//! customer starts unmarked and the storefront may ask any of them once; a customer
//! created that way later starts unmarked the same way.
//! Upstream mode forwards the call as it is.

use axum::extract::State;
use axum::Json;
use rusqlite::params;
use serde_json::Value;

use crate::account::logged_in::Registered;
use crate::account::profile::success;
use crate::error::ApiResult;
use crate::state::App;
use crate::storage::now_rfc3339;

pub async fn update(
    Registered(user): Registered,
    State(app): State<App>,
) -> ApiResult<Json<Value>> {
    app.db
        .call(move |conn| {
            Ok(conn.execute(
                "UPDATE customer SET dsr_default_info_updated_at = ?1 WHERE id = ?2 AND dsr_default_info_updated_at IS NULL",
                params![now_rfc3339(), user.customer_id],
            )?)
        })
        .await?;
    Ok(success())
}
