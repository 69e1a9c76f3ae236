//! Orders as Admin API entities (admins only, read only: states move through the
//! state machine actions, `admin_api::actions`). An order answers the shape the Store
//! API gives it (`order::load`, every association: `lineItems`, `addresses`,
//! `billingAddress`, `deliveries`, `transactions`, `documents`, `currency`,
//! `stateMachineState`, `orderCustomer`), plus `appointmentId` and `appointment`: the
//! live appointment the order was placed in, which criteria may filter on
//! (`appointmentId`, `appointment.id`).
//!
//! Criteria fields beyond the columns follow Shopware's paths:
//! `stateMachineState.technicalName`, `transactions.stateMachineState.technicalName`,
//! `deliveries.stateMachineState.technicalName`, `orderCustomer.email` (and
//! `firstName`, `lastName`, `customerNumber`, `customerId`), `lineItems.productId`,
//! `transactions.paymentMethodId`, `deliveries.shippingMethodId`; `term` searches the
//! number and the customer's name and e-mail. `state_machine_history` is every state
//! change, filterable by `referencedId` and `orderId`.

use std::collections::HashMap;

use rusqlite::Connection;
use serde_json::{json, Value};

use super::related;
use crate::admin_api::definition::{
    Access, Column, Definition, Extra, ExtraWrite, ValuesById, NO_HOOKS,
};
use crate::catalog::criteria::{Expr, Field, Kind};
use crate::order::load::{self, Associations};
use crate::order::state::Locale;
use crate::storage::translation::LanguageChain;
use crate::store_api::{SalesChannel, ShopContext};

pub static ORDER: Definition = Definition {
    name: "order",
    table: "shop_order",
    columns: &[
        Column::text("orderNumber", "order_number", 64).read_only(),
        Column::id("salesChannelId", "sales_channel_id", "sales_channel").read_only(),
        Column::id("languageId", "language_id", "language").read_only(),
        Column::id("currencyId", "currency_id", "currency").read_only(),
        Column::date("orderDateTime", "order_date_time").read_only(),
        Column::float("amountTotal", "amount_total").read_only(),
        Column::float("amountNet", "amount_net").read_only(),
        Column::float("positionPrice", "position_price").read_only(),
        Column::float("shippingTotal", "shipping_total").read_only(),
        Column::text("taxStatus", "tax_status", 32).read_only(),
        Column::text("deepLinkCode", "deep_link_code", 255).read_only(),
        Column::text("customerComment", "customer_comment", 5_000).read_only(),
        Column::text("affiliateCode", "affiliate_code", 255).read_only(),
        Column::text("campaignCode", "campaign_code", 255).read_only(),
        Column::id("billingAddressId", "billing_address_id", "order_address").read_only(),
        Column::id("appointmentId", "appointment_id", "appointment").read_only(),
        Column::text("createdAt", "created_at", 64).read_only(),
        Column::text("updatedAt", "updated_at", 64).read_only(),
    ],
    translation: None,
    extras: &[Extra {
        name: "appointment",
        write: ExtraWrite::ReadOnly,
        read: read_appointment,
        filter: Some(Expr::Column("x.appointment_id")),
    }],
    ignored: &[],
    access: Access::ReadOnly,
    hooks: NO_HOOKS,
    inherits_from: None,
};

fn read_appointment(conn: &Connection, ids: &[String]) -> ValuesById {
    related::one(
        conn,
        &super::dsr::APPOINTMENT,
        "SELECT id, appointment_id FROM shop_order WHERE id IN (SELECT value FROM json_each(?1)) AND appointment_id IS NOT NULL",
        ids,
    )
}

const fn field(expr: Expr, kind: Kind) -> Field {
    Field {
        expr,
        kind,
        translated: false,
    }
}

const fn column(sql: &'static str, kind: Kind) -> Field {
    field(Expr::Column(sql), kind)
}

/// The criteria fields of `order` beyond its columns.
pub static ORDER_FIELDS: &[(&str, Field)] = &[
    (
        "currency.isoCode",
        column(
            "(SELECT c.iso_code FROM currency c WHERE c.id = x.currency_id)",
            Kind::Text,
        ),
    ),
    (
        "stateMachineState.technicalName",
        column("x.state", Kind::Text),
    ),
    (
        "orderCustomer.email",
        column("x.customer_email", Kind::Text),
    ),
    (
        "orderCustomer.firstName",
        column("x.customer_first_name", Kind::Text),
    ),
    (
        "orderCustomer.lastName",
        column("x.customer_last_name", Kind::Text),
    ),
    (
        "orderCustomer.customerNumber",
        column("x.customer_number", Kind::Text),
    ),
    (
        "orderCustomer.customerId",
        column("x.customer_id", Kind::Id),
    ),
    (
        "orderDate",
        column("substr(x.order_date_time, 1, 10)", Kind::Date),
    ),
    (
        "transactions.stateMachineState.technicalName",
        field(
            Expr::Membership {
                table: "order_transaction",
                key: "order_id",
                owner: "x.id",
                column: "state",
            },
            Kind::Text,
        ),
    ),
    (
        "transactions.paymentMethodId",
        field(
            Expr::Membership {
                table: "order_transaction",
                key: "order_id",
                owner: "x.id",
                column: "payment_method_id",
            },
            Kind::Id,
        ),
    ),
    (
        "deliveries.stateMachineState.technicalName",
        field(
            Expr::Membership {
                table: "order_delivery",
                key: "order_id",
                owner: "x.id",
                column: "state",
            },
            Kind::Text,
        ),
    ),
    (
        "deliveries.shippingMethodId",
        field(
            Expr::Membership {
                table: "order_delivery",
                key: "order_id",
                owner: "x.id",
                column: "shipping_method_id",
            },
            Kind::Id,
        ),
    ),
    (
        "lineItems.productId",
        field(
            Expr::Membership {
                table: "order_line_item",
                key: "order_id",
                owner: "x.id",
                column: "product_id",
            },
            Kind::Id,
        ),
    ),
    (
        "customFields.appointmentId",
        column("x.appointment_id", Kind::Id),
    ),
];

/// What `term` searches in orders.
pub static ORDER_TERM: &[&str] = &[
    "x.order_number",
    "x.customer_email",
    "x.customer_first_name",
    "x.customer_last_name",
    "(x.customer_first_name || ' ' || x.customer_last_name)",
    "x.customer_number",
];

/// The shop's default sales channel and language, as a Store API context: the Admin
/// API answers texts (state names, methods, countries) in the shop's language.
pub fn admin_context(conn: &Connection) -> rusqlite::Result<ShopContext> {
    let (id, name, language_id): (String, String, String) = conn.query_row(
        "SELECT id, name, language_id FROM sales_channel ORDER BY rowid LIMIT 1",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    Ok(ShopContext {
        sales_channel: SalesChannel {
            id,
            name,
            language_id: language_id.clone(),
        },
        languages: LanguageChain {
            current: language_id.clone(),
            fallback: language_id,
        },
        token: None,
        client_token: None,
        base_url: String::new(),
        include_seo_urls: false,
    })
}

/// Completes loaded orders with the Store API's order shape (every association).
pub fn complete_orders(conn: &Connection, entities: &mut [Value]) -> rusqlite::Result<()> {
    let ids: Vec<String> = entities
        .iter()
        .filter_map(|e| e["id"].as_str().map(str::to_owned))
        .collect();
    if ids.is_empty() {
        return Ok(());
    }
    let ctx = admin_context(conn)?;
    let mut full: HashMap<String, Value> = load::load(conn, &ctx, &ids, Associations::ALL)?
        .into_iter()
        .filter_map(|order| Some((order["id"].as_str()?.to_owned(), order)))
        .collect();
    for entity in entities.iter_mut() {
        let Some(id) = entity["id"].as_str().map(str::to_owned) else {
            continue;
        };
        let (Some(order), Some(target)) = (full.remove(&id), entity.as_object_mut()) else {
            continue;
        };
        if let Value::Object(fields) = order {
            for (key, value) in fields {
                target.entry(key).or_insert(value);
            }
        }
        let appointment_id = target.get("appointmentId").cloned().unwrap_or(Value::Null);
        target.insert(
            "customFields".into(),
            if appointment_id.is_null() {
                Value::Null
            } else {
                json!({ "appointmentId": appointment_id })
            },
        );
        let rounding = json!({ "decimals": 2, "interval": 0.01, "roundForNet": true });
        target.entry("itemRounding").or_insert(rounding.clone());
        target.entry("totalRounding").or_insert(rounding);
    }
    Ok(())
}

pub static STATE_MACHINE_HISTORY: Definition = Definition {
    name: "state_machine_history",
    table: "state_machine_history",
    columns: &[
        Column::text("entityName", "entity_name", 64).read_only(),
        Column::id("referencedId", "referenced_id", "shop_order").read_only(),
        Column::id("orderId", "order_id", "shop_order").read_only(),
        Column::text("transitionActionName", "action_name", 64).read_only(),
        Column::id("userId", "user_id", "admin_user").read_only(),
        Column::text("createdAt", "created_at", 64).read_only(),
    ],
    translation: None,
    extras: &[],
    ignored: &[],
    access: Access::ReadOnly,
    hooks: NO_HOOKS,
    inherits_from: None,
};

/// Completes history entries with their states (`fromStateMachineState`, …) and user.
pub fn complete_history(conn: &Connection, entities: &mut [Value]) -> rusqlite::Result<()> {
    let order_ids: Vec<String> = entities
        .iter()
        .filter_map(|e| e["orderId"].as_str().map(str::to_owned))
        .collect();
    let language: String = conn.query_row(
        "SELECT language_id FROM sales_channel ORDER BY rowid LIMIT 1",
        [],
        |r| r.get(0),
    )?;
    let locale = Locale::of(conn, &language)?;
    let mut found: HashMap<String, Value> =
        crate::order::transition::history(conn, &order_ids, locale)?
            .into_iter()
            .filter_map(|(_, entry)| Some((entry["id"].as_str()?.to_owned(), entry)))
            .collect();
    for entity in entities.iter_mut() {
        let Some(id) = entity["id"].as_str().map(str::to_owned) else {
            continue;
        };
        if let (Some(Value::Object(fields)), Some(target)) =
            (found.remove(&id), entity.as_object_mut())
        {
            for (key, value) in fields {
                target.entry(key).or_insert(value);
            }
        }
    }
    Ok(())
}
