//! Customers as Admin API entities (admins only): the account with its `addresses`
//! (written with it too, as Shopware's nested writes),
//! `group`, default addresses and what it ordered (`orderCount`, `orderTotalAmount`,
//! `lastOrderDate`), and customer groups. A merchant deactivates an account with
//! `active: false`; export and deletion under the GDPR are actions
//! (`admin_api::gdpr`).

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, Transaction};
use serde_json::Value;

use super::related;
use super::settings::COUNTRY;
use crate::admin_api::definition::{
    Access, Column, Definition, Extra, ExtraWrite, Hooks, Translation, ValuesById, Write, NO_HOOKS,
};
use crate::admin_api::write;
use crate::catalog::criteria::Expr;
use crate::error::{ApiError, ApiResult, Violation};
use crate::storage::now_rfc3339;

pub static CUSTOMER_GROUP: Definition = Definition {
    name: "customer_group",
    table: "customer_group",
    columns: &[Column::boolean("displayGross", "display_gross")],
    translation: Some(Translation {
        table: "customer_group_translation",
        key: "customer_group_id",
        fields: &[Column::text("name", "name", 255).required()],
    }),
    extras: &[],
    ignored: &["customFields", "registrationActive"],
    access: Access::GuidesRead,
    hooks: NO_HOOKS,
    inherits_from: None,
};

pub static CUSTOMER_ADDRESS: Definition = Definition {
    name: "customer_address",
    table: "customer_address",
    columns: &[
        Column::id("customerId", "customer_id", "customer").required(),
        Column::id("countryId", "country_id", "country").required(),
        Column::id("countryStateId", "country_state_id", "country_state"),
        Column::id("salutationId", "salutation_id", "salutation"),
        Column::text("title", "title", 100),
        Column::text("firstName", "first_name", 255).required(),
        Column::text("lastName", "last_name", 255).required(),
        Column::text("company", "company", 255),
        Column::text("department", "department", 255),
        Column::text("street", "street", 255).required(),
        Column::text("zipcode", "zipcode", 50),
        Column::text("city", "city", 255).required(),
        Column::text("phoneNumber", "phone_number", 40),
        Column::text("additionalAddressLine1", "additional_address_line1", 255),
        Column::text("additionalAddressLine2", "additional_address_line2", 255),
        Column::text("createdAt", "created_at", 64).read_only(),
        Column::text("updatedAt", "updated_at", 64).read_only(),
    ],
    translation: None,
    extras: &[Extra {
        name: "country",
        write: ExtraWrite::ReadOnly,
        read: read_address_country,
        filter: None,
    }],
    ignored: &["customFields", "vatId", "hash"],
    access: Access::AdminsOnly,
    hooks: Hooks {
        prepare: dates,
        ..NO_HOOKS
    },
    inherits_from: None,
};

fn read_address_country(conn: &Connection, ids: &[String]) -> ValuesById {
    related::one(
        conn,
        &COUNTRY,
        "SELECT id, country_id FROM customer_address WHERE id IN (SELECT value FROM json_each(?1))",
        ids,
    )
}

fn dates(_: &Transaction, w: &mut Write) -> ApiResult<()> {
    if w.creating {
        w.set("created_at", now_rfc3339());
    } else {
        w.set("updated_at", now_rfc3339());
    }
    Ok(())
}

pub static CUSTOMER: Definition = Definition {
    name: "customer",
    table: "customer",
    columns: &[
        Column::id("groupId", "group_id", "customer_group"),
        Column::id("salesChannelId", "sales_channel_id", "sales_channel"),
        Column::id("languageId", "language_id", "language"),
        Column::text("customerNumber", "customer_number", 255).unique(),
        Column::id("salutationId", "salutation_id", "salutation"),
        Column::text("title", "title", 100),
        Column::text("firstName", "first_name", 255).required(),
        Column::text("lastName", "last_name", 255).required(),
        Column::text("email", "email", 254).required(),
        Column::text("company", "company", 255),
        Column::choice("accountType", "account_type", &["private", "business"]),
        Column::boolean("guest", "guest").read_only(),
        Column::boolean("active", "active"),
        Column::text("birthday", "birthday", 32),
        // Checked after the write (`check_defaults`): they may name an address of the
        // same payload's `addresses`.
        Column::text("defaultBillingAddressId", "default_billing_address_id", 32),
        Column::text(
            "defaultShippingAddressId",
            "default_shipping_address_id",
            32,
        ),
        Column::text("firstLogin", "first_login", 64).read_only(),
        Column::text("lastLogin", "last_login", 64).read_only(),
        Column::text("createdAt", "created_at", 64).read_only(),
        Column::text("updatedAt", "updated_at", 64).read_only(),
    ],
    translation: None,
    extras: &[
        Extra {
            name: "addresses",
            write: ExtraWrite::After(write_addresses),
            read: read_addresses,
            filter: Some(Expr::Membership {
                table: "customer_address",
                key: "customer_id",
                owner: "x.id",
                column: "id",
            }),
        },
        Extra {
            name: "group",
            write: ExtraWrite::ReadOnly,
            read: read_group,
            filter: None,
        },
        Extra {
            name: "defaultBillingAddress",
            write: ExtraWrite::ReadOnly,
            read: read_billing,
            filter: None,
        },
        Extra {
            name: "defaultShippingAddress",
            write: ExtraWrite::ReadOnly,
            read: read_shipping,
            filter: None,
        },
        Extra {
            name: "orderCount",
            write: ExtraWrite::ReadOnly,
            read: read_order_count,
            filter: None,
        },
        Extra {
            name: "orderTotalAmount",
            write: ExtraWrite::ReadOnly,
            read: read_order_total,
            filter: None,
        },
        Extra {
            name: "lastOrderDate",
            write: ExtraWrite::ReadOnly,
            read: read_last_order,
            filter: None,
        },
    ],
    ignored: &[
        "customFields",
        "tags",
        "vatIds",
        "affiliateCode",
        "campaignCode",
    ],
    access: Access::AdminsOnly,
    hooks: Hooks {
        prepare: customer_defaults,
        after_write: check_defaults,
        ..NO_HOOKS
    },
    inherits_from: None,
};

fn read_addresses(conn: &Connection, ids: &[String]) -> ValuesById {
    related::many(
        conn,
        &CUSTOMER_ADDRESS,
        "SELECT customer_id, id FROM customer_address WHERE customer_id IN (SELECT value FROM json_each(?1)) ORDER BY created_at, id",
        ids,
    )
}

/// `addresses` written with the customer (each created or updated by its `id`); the
/// first becomes the default billing and shipping address where none is set.
fn write_addresses(
    tx: &Transaction,
    customer_id: &str,
    value: &Value,
    pointer: &str,
) -> ApiResult<()> {
    let Some(list) = value.as_array() else {
        return Err(ApiError::Violations(vec![Violation::new(
            "VIOLATION::TYPE_ERROR",
            pointer.to_owned(),
            "addresses must be a list of addresses.",
        )]));
    };
    for (n, address) in list.iter().enumerate() {
        let at = format!("{pointer}/{n}");
        let mut address = address.clone();
        let Some(fields) = address.as_object_mut() else {
            return Err(ApiError::Violations(vec![Violation::new(
                "VIOLATION::TYPE_ERROR",
                at,
                "An address must be a JSON object.",
            )]));
        };
        fields.insert("customerId".into(), Value::from(customer_id));
        if let Some(id) = fields.get("id").and_then(Value::as_str) {
            let other: bool = tx.query_row(
                "SELECT EXISTS(SELECT 1 FROM customer_address WHERE id = ?1 AND customer_id != ?2)",
                [id, customer_id],
                |r| r.get(0),
            )?;
            if other {
                return Err(ApiError::Violations(vec![Violation::new(
                    "VIOLATION::ENTITY_DOES_NOT_EXIST",
                    format!("{at}/id"),
                    "This address belongs to another customer.",
                )]));
            }
        }
        write::upsert(tx, &CUSTOMER_ADDRESS, &address, &at)?;
    }
    tx.execute(
        "UPDATE customer SET
             default_billing_address_id = COALESCE(default_billing_address_id,
                 (SELECT id FROM customer_address WHERE customer_id = ?1 ORDER BY created_at, rowid LIMIT 1)),
             default_shipping_address_id = COALESCE(default_shipping_address_id,
                 (SELECT id FROM customer_address WHERE customer_id = ?1 ORDER BY created_at, rowid LIMIT 1))
         WHERE id = ?1",
        [customer_id],
    )?;
    Ok(())
}

/// The default addresses are the customer's own.
fn check_defaults(tx: &Transaction, id: &str) -> ApiResult<()> {
    let wrong: Option<String> = tx.query_row(
        "SELECT CASE
             WHEN default_billing_address_id IS NOT NULL AND NOT EXISTS(
                 SELECT 1 FROM customer_address a WHERE a.id = c.default_billing_address_id AND a.customer_id = c.id)
             THEN 'defaultBillingAddressId'
             WHEN default_shipping_address_id IS NOT NULL AND NOT EXISTS(
                 SELECT 1 FROM customer_address a WHERE a.id = c.default_shipping_address_id AND a.customer_id = c.id)
             THEN 'defaultShippingAddressId'
         END FROM customer c WHERE c.id = ?1",
        [id],
        |r| r.get(0),
    )?;
    match wrong {
        Some(field) => Err(ApiError::Violations(vec![Violation::new(
            "VIOLATION::ENTITY_DOES_NOT_EXIST",
            format!("/{field}"),
            "A default address is one of the customer's addresses.",
        )])),
        None => Ok(()),
    }
}

fn read_group(conn: &Connection, ids: &[String]) -> ValuesById {
    related::one(
        conn,
        &CUSTOMER_GROUP,
        "SELECT id, group_id FROM customer WHERE id IN (SELECT value FROM json_each(?1))",
        ids,
    )
}

fn read_billing(conn: &Connection, ids: &[String]) -> ValuesById {
    related::one(
        conn,
        &CUSTOMER_ADDRESS,
        "SELECT id, default_billing_address_id FROM customer WHERE id IN (SELECT value FROM json_each(?1)) AND default_billing_address_id IS NOT NULL",
        ids,
    )
}

fn read_shipping(conn: &Connection, ids: &[String]) -> ValuesById {
    related::one(
        conn,
        &CUSTOMER_ADDRESS,
        "SELECT id, default_shipping_address_id FROM customer WHERE id IN (SELECT value FROM json_each(?1)) AND default_shipping_address_id IS NOT NULL",
        ids,
    )
}

fn read_order_count(conn: &Connection, ids: &[String]) -> ValuesById {
    related::values(
        conn,
        "SELECT c.id, (SELECT COUNT(*) FROM shop_order o WHERE o.customer_id = c.id) FROM customer c WHERE c.id IN (SELECT value FROM json_each(?1))",
        ids,
    )
}

fn read_order_total(conn: &Connection, ids: &[String]) -> ValuesById {
    related::values(
        conn,
        "SELECT c.id, (SELECT COALESCE(SUM(o.amount_total), 0.0) FROM shop_order o WHERE o.customer_id = c.id AND o.state != 'cancelled') FROM customer c WHERE c.id IN (SELECT value FROM json_each(?1))",
        ids,
    )
}

fn read_last_order(conn: &Connection, ids: &[String]) -> ValuesById {
    related::values(
        conn,
        "SELECT customer_id, MAX(order_date_time) FROM shop_order WHERE customer_id IN (SELECT value FROM json_each(?1)) GROUP BY customer_id",
        ids,
    )
}

/// A new customer gets the sales channel's defaults and the next customer number; an
/// e-mail address belongs to one account.
fn customer_defaults(tx: &Transaction, w: &mut Write) -> ApiResult<()> {
    if let Some(SqlValue::Text(email)) = w.get("email") {
        let email = email.trim().to_owned();
        if !email.contains('@') || email.contains(char::is_whitespace) {
            return Err(ApiError::Violations(vec![w.violation(
                "VIOLATION::INVALID_EMAIL_FORMAT_ERROR",
                "email",
                "This value is not a valid email address.",
            )]));
        }
        let taken: bool = tx.query_row(
            "SELECT EXISTS(SELECT 1 FROM customer WHERE lower(email) = lower(?1) AND guest = 0 AND id != ?2)",
            [&email, &w.id],
            |r| r.get(0),
        )?;
        if taken {
            return Err(ApiError::Violations(vec![w.violation(
                "VIOLATION::CUSTOMER_EMAIL_NOT_UNIQUE",
                "email",
                format!("The email address {email} is already in use"),
            )]));
        }
        w.set("email", email);
    }
    if w.creating {
        let (channel, language, group): (String, String, Option<String>) = tx.query_row(
            "SELECT id, language_id, customer_group_id FROM sales_channel ORDER BY rowid LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        if !w.has("sales_channel_id") {
            w.set("sales_channel_id", channel);
        }
        if !w.has("language_id") {
            w.set("language_id", language);
        }
        if !w.has("group_id") {
            let group = match group {
                Some(group) => group,
                None => tx.query_row(
                    "SELECT id FROM customer_group ORDER BY rowid LIMIT 1",
                    [],
                    |r| r.get(0),
                )?,
            };
            w.set("group_id", group);
        }
        if !w.has("customer_number") {
            let number: i64 = tx.query_row(
                "SELECT COALESCE(MAX(CAST(customer_number AS INTEGER)), 10000) + 1 FROM customer",
                [],
                |r| r.get(0),
            )?;
            w.set("customer_number", number.to_string());
        }
        w.set("created_at", now_rfc3339());
    } else {
        w.set("updated_at", now_rfc3339());
    }
    Ok(())
}
