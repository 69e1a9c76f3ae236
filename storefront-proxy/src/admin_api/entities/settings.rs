//! The shop's settings as Admin API entities, over the tables the Store API reads:
//! taxes, currencies, countries and their states, salutations, languages (read),
//! delivery times, payment and shipping methods (a shipping method's `prices` are its
//! flat price and the cart value from which it is free), the sales channel with its
//! domains, media folders and rules (read).

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, Transaction};
use serde_json::{json, Value};

use super::related;
use crate::admin_api::definition::{
    Access, Column, ColumnsOf, Definition, Extra, ExtraWrite, Hooks, Translation, ValuesById,
    Write, NO_HOOKS,
};
use crate::error::{ApiError, ApiResult, Violation};
use crate::storage::now_rfc3339;

pub static TAX: Definition = Definition {
    name: "tax",
    table: "tax",
    columns: &[
        Column::new(
            "taxRate",
            "tax_rate",
            crate::admin_api::definition::Kind::Float { min: 0.0 },
        )
        .required(),
        Column::text("name", "name", 255).required(),
        Column::int("position", "position", 0, 1_000_000),
    ],
    translation: None,
    extras: &[],
    ignored: &["customFields"],
    access: Access::GuidesRead,
    hooks: NO_HOOKS,
    inherits_from: None,
};

pub static CURRENCY: Definition = Definition {
    name: "currency",
    table: "currency",
    columns: &[
        Column::text("isoCode", "iso_code", 3).required().unique(),
        Column::text("symbol", "symbol", 16).required(),
        Column::float("factor", "factor").required(),
        Column::int("position", "position", 0, 1_000_000),
        Column::boolean("isSystemDefault", "is_system_default").read_only(),
    ],
    translation: Some(Translation {
        table: "currency_translation",
        key: "currency_id",
        fields: &[
            Column::text("shortName", "short_name", 255).required(),
            Column::text("name", "name", 255).required(),
        ],
    }),
    extras: &[
        Extra {
            name: "itemRounding",
            write: ExtraWrite::Columns(rounding_columns),
            read: read_rounding,
            filter: None,
        },
        Extra {
            name: "totalRounding",
            write: ExtraWrite::Columns(rounding_columns),
            read: read_rounding,
            filter: None,
        },
    ],
    ignored: &["customFields", "taxFreeFrom"],
    access: Access::GuidesRead,
    hooks: NO_HOOKS,
    inherits_from: None,
};

/// Shopware's `CashRoundingConfig`: only its decimals are kept (the interval follows).
fn rounding_columns(value: &Value, pointer: &str) -> ColumnsOf {
    match value.get("decimals").and_then(Value::as_i64) {
        Some(decimals) if (0..=4).contains(&decimals) => {
            Ok(vec![("decimals", SqlValue::Integer(decimals))])
        }
        _ => Err(vec![Violation::new(
            "VIOLATION::TYPE_ERROR",
            format!("{pointer}/decimals"),
            "decimals is a whole number from 0 to 4.",
        )]),
    }
}

fn read_rounding(conn: &Connection, ids: &[String]) -> ValuesById {
    let mut found = related::values(
        conn,
        "SELECT id, decimals FROM currency WHERE id IN (SELECT value FROM json_each(?1))",
        ids,
    )?;
    for value in found.values_mut() {
        let decimals = value.as_i64().unwrap_or(2);
        *value = json!({
            "decimals": decimals,
            "interval": 10f64.powi(-(decimals as i32)),
            "roundForNet": true,
            "apiAlias": "shopware_core_framework_data_abstraction_layer_pricing_cash_rounding_config",
        });
    }
    Ok(found)
}

pub static COUNTRY_STATE: Definition = Definition {
    name: "country_state",
    table: "country_state",
    columns: &[
        Column::id("countryId", "country_id", "country").required(),
        Column::text("shortCode", "short_code", 32)
            .required()
            .unique(),
        Column::int("position", "position", 0, 1_000_000),
        Column::boolean("active", "active"),
    ],
    translation: Some(Translation {
        table: "country_state_translation",
        key: "country_state_id",
        fields: &[Column::text("name", "name", 255).required()],
    }),
    extras: &[],
    ignored: &["customFields"],
    access: Access::GuidesRead,
    hooks: NO_HOOKS,
    inherits_from: None,
};

pub static COUNTRY: Definition = Definition {
    name: "country",
    table: "country",
    columns: &[
        Column::text("iso", "iso", 2).required().unique(),
        Column::text("iso3", "iso3", 3).required(),
        Column::int("position", "position", 0, 1_000_000),
        Column::boolean("active", "active"),
        Column::boolean("shippingAvailable", "shipping_available"),
        Column::boolean(
            "displayStateInRegistration",
            "display_state_in_registration",
        ),
        Column::boolean("forceStateInRegistration", "force_state_in_registration"),
        Column::boolean("postalCodeRequired", "postal_code_required"),
        Column::boolean("isEu", "is_eu"),
    ],
    translation: Some(Translation {
        table: "country_translation",
        key: "country_id",
        fields: &[Column::text("name", "name", 255).required()],
    }),
    extras: &[Extra {
        name: "states",
        write: ExtraWrite::ReadOnly,
        read: read_states,
        filter: Some(crate::catalog::criteria::Expr::Membership {
            table: "country_state",
            key: "country_id",
            owner: "x.id",
            column: "id",
        }),
    }],
    ignored: &[
        "customFields",
        "addressFormat",
        "customerTax",
        "companyTax",
        "checkVatIdPattern",
        "vatIdRequired",
        "vatIdPattern",
        "checkPostalCodePattern",
        "checkAdvancedPostalCodePattern",
        "advancedPostalCodePattern",
        "defaultPostalCodePattern",
    ],
    access: Access::GuidesRead,
    hooks: NO_HOOKS,
    inherits_from: None,
};

fn read_states(conn: &Connection, ids: &[String]) -> ValuesById {
    related::many(
        conn,
        &COUNTRY_STATE,
        "SELECT country_id, id FROM country_state WHERE country_id IN (SELECT value FROM json_each(?1)) ORDER BY position, short_code",
        ids,
    )
}

pub static SALUTATION: Definition = Definition {
    name: "salutation",
    table: "salutation",
    columns: &[
        Column::text("salutationKey", "salutation_key", 255)
            .required()
            .unique(),
        Column::int("position", "position", 0, 1_000_000),
    ],
    translation: Some(Translation {
        table: "salutation_translation",
        key: "salutation_id",
        fields: &[
            Column::text("displayName", "display_name", 255).required(),
            Column::text("letterName", "letter_name", 255).required(),
        ],
    }),
    extras: &[],
    ignored: &["customFields"],
    access: Access::GuidesRead,
    hooks: NO_HOOKS,
    inherits_from: None,
};

/// Languages are the shop's two (read only: a new language needs its texts).
pub static LANGUAGE: Definition = Definition {
    name: "language",
    table: "language",
    columns: &[
        Column::text("name", "name", 255),
        Column::id("localeId", "locale_id", "locale"),
        Column::id("parentId", "parent_id", "language"),
    ],
    translation: None,
    extras: &[Extra {
        name: "locale",
        write: ExtraWrite::ReadOnly,
        read: read_locale,
        filter: None,
    }],
    ignored: &[],
    access: Access::ReadOnly,
    hooks: NO_HOOKS,
    inherits_from: None,
};

fn read_locale(conn: &Connection, ids: &[String]) -> ValuesById {
    let mut found = related::values(
        conn,
        "SELECT l.id, json_object('id', o.id, 'code', l.code, 'name', o.name, 'territory', o.territory, 'apiAlias', 'locale')
         FROM language l LEFT JOIN locale o ON o.id = l.locale_id WHERE l.id IN (SELECT value FROM json_each(?1))",
        ids,
    )?;
    for value in found.values_mut() {
        if let Some(text) = value.as_str() {
            *value = serde_json::from_str(text).unwrap_or(Value::Null);
        }
    }
    Ok(found)
}

pub static DELIVERY_TIME: Definition = Definition {
    name: "delivery_time",
    table: "delivery_time",
    columns: &[
        Column::int("min", "min", 0, 1_000_000).required(),
        Column::int("max", "max", 0, 1_000_000).required(),
        Column::choice("unit", "unit", &["hour", "day", "week", "month", "year"]).required(),
    ],
    translation: Some(Translation {
        table: "delivery_time_translation",
        key: "delivery_time_id",
        fields: &[Column::text("name", "name", 255).required()],
    }),
    extras: &[],
    ignored: &["customFields"],
    access: Access::GuidesRead,
    hooks: NO_HOOKS,
    inherits_from: None,
};

/// Shopware's handler classes of the four ways this shop takes payment.
const HANDLERS: &[(&str, &str)] = &[
    (
        "invoice",
        "Shopware\\Core\\Checkout\\Payment\\Cart\\PaymentHandler\\InvoicePayment",
    ),
    (
        "prepayment",
        "Shopware\\Core\\Checkout\\Payment\\Cart\\PaymentHandler\\PrePayment",
    ),
    (
        "cash",
        "Shopware\\Core\\Checkout\\Payment\\Cart\\PaymentHandler\\CashPayment",
    ),
    (
        "online",
        "Shopware\\Core\\Checkout\\Payment\\Cart\\PaymentHandler\\AsyncPayment",
    ),
];

pub static PAYMENT_METHOD: Definition = Definition {
    name: "payment_method",
    table: "payment_method",
    columns: &[
        Column::text("technicalName", "technical_name", 255)
            .required()
            .unique(),
        Column::int("position", "position", 0, 1_000_000),
        Column::boolean("active", "active"),
        Column::boolean("afterOrderEnabled", "after_order_enabled"),
    ],
    translation: Some(Translation {
        table: "payment_method_translation",
        key: "payment_method_id",
        fields: &[
            Column::text("name", "name", 255).required(),
            Column::text("description", "description", 5_000),
        ],
    }),
    extras: &[Extra {
        name: "handlerIdentifier",
        write: ExtraWrite::Columns(handler_columns),
        read: read_handler,
        filter: None,
    }],
    ignored: &[
        "customFields",
        "availabilityRuleId",
        "mediaId",
        "pluginId",
        "shortName",
    ],
    access: Access::GuidesRead,
    hooks: Hooks {
        prepare: payment_defaults,
        ..NO_HOOKS
    },
    inherits_from: None,
};

fn handler_columns(value: &Value, pointer: &str) -> ColumnsOf {
    let found = value.as_str().and_then(|v| {
        HANDLERS
            .iter()
            .find(|(short, class)| v == *class || v == *short)
    });
    match found {
        Some((short, _)) => Ok(vec![("handler", SqlValue::Text((*short).to_owned()))]),
        None => Err(vec![Violation::new(
            "VIOLATION::NO_SUCH_CHOICE_ERROR",
            pointer.to_owned(),
            format!(
                "The value should be one of: {}.",
                HANDLERS
                    .iter()
                    .map(|(_, c)| *c)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )]),
    }
}

fn read_handler(conn: &Connection, ids: &[String]) -> ValuesById {
    let mut found = related::values(
        conn,
        "SELECT id, handler FROM payment_method WHERE id IN (SELECT value FROM json_each(?1))",
        ids,
    )?;
    for value in found.values_mut() {
        let short = value.as_str().unwrap_or_default().to_owned();
        *value = HANDLERS
            .iter()
            .find(|(s, _)| *s == short)
            .map(|(_, class)| Value::from(*class))
            .unwrap_or(Value::Null);
    }
    Ok(found)
}

fn payment_defaults(_: &Transaction, w: &mut Write) -> ApiResult<()> {
    if w.creating && !w.has("handler") {
        w.set("handler", "invoice".to_owned());
    }
    Ok(())
}

pub static SHIPPING_METHOD: Definition = Definition {
    name: "shipping_method",
    table: "shipping_method",
    columns: &[
        Column::text("technicalName", "technical_name", 255)
            .required()
            .unique(),
        Column::int("position", "position", 0, 1_000_000),
        Column::boolean("active", "active"),
        Column::id("deliveryTimeId", "delivery_time_id", "delivery_time").required(),
    ],
    translation: Some(Translation {
        table: "shipping_method_translation",
        key: "shipping_method_id",
        fields: &[
            Column::text("name", "name", 255).required(),
            Column::text("description", "description", 5_000),
        ],
    }),
    extras: &[
        Extra {
            name: "prices",
            write: ExtraWrite::Columns(price_columns),
            read: read_prices,
            filter: None,
        },
        Extra {
            name: "deliveryTime",
            write: ExtraWrite::ReadOnly,
            read: read_delivery_time,
            filter: None,
        },
    ],
    ignored: &[
        "customFields",
        "availabilityRuleId",
        "mediaId",
        "taxType",
        "taxId",
        "trackingUrl",
        "tags",
    ],
    access: Access::GuidesRead,
    hooks: Hooks {
        prepare: shipping_defaults,
        ..NO_HOOKS
    },
    inherits_from: None,
};

/// `prices`: Shopware's price matrix by cart value (`calculation` 2). The first
/// price's gross amount is what a delivery costs; a later price of 0 from a cart
/// value on (`quantityStart`) makes it free from there.
fn price_columns(value: &Value, pointer: &str) -> ColumnsOf {
    let Some(prices) = value.as_array().filter(|p| !p.is_empty()) else {
        return Err(vec![Violation::new(
            "VIOLATION::TYPE_ERROR",
            pointer.to_owned(),
            "prices must be a list with at least one price.",
        )]);
    };
    let gross_of = |price: &Value| {
        price["currencyPrice"]
            .as_array()
            .and_then(|list| list.first())
            .and_then(|p| p["gross"].as_f64())
            .filter(|g| g.is_finite() && *g >= 0.0)
    };
    let mut violations = Vec::new();
    for (n, price) in prices.iter().enumerate() {
        let start = &price["quantityStart"];
        if !start.is_null() && start.as_f64().is_none_or(|v| !v.is_finite() || v < 0.0) {
            violations.push(Violation::new(
                "VIOLATION::TYPE_ERROR",
                format!("{pointer}/{n}/quantityStart"),
                "A price starts at a cart value of 0 or more.",
            ));
        }
        if gross_of(price).is_none() {
            violations.push(Violation::new(
                "VIOLATION::TYPE_ERROR",
                format!("{pointer}/{n}/currencyPrice/0/gross"),
                "A price has a gross amount of 0 or more.",
            ));
        }
    }
    if !violations.is_empty() {
        return Err(violations);
    }
    let cost = gross_of(&prices[0]).unwrap_or(0.0);
    let free_from = prices.iter().skip(1).find_map(|price| {
        let start = price["quantityStart"].as_f64()?;
        (gross_of(price) == Some(0.0) && start > 0.0).then_some(start)
    });
    Ok(vec![
        ("price_gross", SqlValue::Real(cost)),
        (
            "free_from",
            free_from.map_or(SqlValue::Null, SqlValue::Real),
        ),
    ])
}

fn read_prices(conn: &Connection, ids: &[String]) -> ValuesById {
    let currency: Option<String> = conn
        .query_row(
            "SELECT id FROM currency ORDER BY is_system_default DESC, position LIMIT 1",
            [],
            |r| r.get(0),
        )
        .ok();
    let mut statement = conn.prepare_cached(
        "SELECT id, price_gross, free_from FROM shipping_method WHERE id IN (SELECT value FROM json_each(?1))",
    )?;
    let rows = statement.query_map([crate::storage::json_ids(ids)], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, f64>(1)?,
            r.get::<_, Option<f64>>(2)?,
        ))
    })?;
    let price = |method: &str, n: u32, start: f64, end: Option<f64>, gross: f64| {
        json!({
            "id": crate::order::state::Machine::Order.state_id(&format!("shipping_method_price/{method}/{n}")),
            "shippingMethodId": method,
            "ruleId": null,
            "calculation": 2,
            "calculationRuleId": null,
            "quantityStart": start,
            "quantityEnd": end,
            "currencyPrice": [{
                "currencyId": currency,
                "gross": gross,
                "net": gross,
                "linked": false,
                "apiAlias": "price",
            }],
            "customFields": null,
            "apiAlias": "shipping_method_price",
        })
    };
    let mut found = std::collections::HashMap::new();
    for row in rows {
        let (id, gross, free_from) = row?;
        let mut list = vec![price(&id, 0, 0.0, free_from, gross)];
        if let Some(from) = free_from {
            list.push(price(&id, 1, from, None, 0.0));
        }
        found.insert(id, Value::Array(list));
    }
    Ok(found)
}

fn read_delivery_time(conn: &Connection, ids: &[String]) -> ValuesById {
    related::one(
        conn,
        &DELIVERY_TIME,
        "SELECT id, delivery_time_id FROM shipping_method WHERE id IN (SELECT value FROM json_each(?1))",
        ids,
    )
}

fn shipping_defaults(_: &Transaction, w: &mut Write) -> ApiResult<()> {
    if w.creating && !w.has("price_gross") {
        w.set("price_gross", 0.0);
    }
    Ok(())
}

pub static SALES_CHANNEL_DOMAIN: Definition = Definition {
    name: "sales_channel_domain",
    table: "sales_channel_domain",
    columns: &[
        Column::text("url", "url", 255).required().unique(),
        Column::id("salesChannelId", "sales_channel_id", "sales_channel").required(),
        Column::id("languageId", "language_id", "language").required(),
        Column::id("currencyId", "currency_id", "currency"),
        Column::text("createdAt", "created_at", 64).read_only(),
    ],
    translation: None,
    extras: &[],
    ignored: &[
        "customFields",
        "snippetSetId",
        "hreflangUseOnlyLocale",
        "measurementUnits",
    ],
    access: Access::GuidesRead,
    hooks: Hooks {
        prepare: domain_checks,
        ..NO_HOOKS
    },
    inherits_from: None,
};

fn domain_checks(_: &Transaction, w: &mut Write) -> ApiResult<()> {
    if let Some(SqlValue::Text(url)) = w.get("url") {
        if !(url.starts_with("https://") || url.starts_with("http://")) || url.contains(' ') {
            return Err(ApiError::Violations(vec![w.violation(
                "VIOLATION::INVALID_URL_ERROR",
                "url",
                "A domain is an http:// or https:// URL.",
            )]));
        }
    }
    if w.creating {
        w.set("created_at", now_rfc3339());
    }
    Ok(())
}

/// Shopware's id of the storefront sales channel type.
const STOREFRONT_TYPE_ID: &str = "8a243080f92e4c719546314b577cf82b";

pub static SALES_CHANNEL: Definition = Definition {
    name: "sales_channel",
    table: "sales_channel",
    columns: &[
        Column::text("name", "name", 255).required(),
        Column::text("accessKey", "access_key", 255).read_only(),
        Column::id("languageId", "language_id", "language").required(),
        Column::id("customerGroupId", "customer_group_id", "customer_group"),
        Column::id("currencyId", "currency_id", "currency"),
        Column::id("paymentMethodId", "payment_method_id", "payment_method"),
        Column::id("shippingMethodId", "shipping_method_id", "shipping_method"),
        Column::id("countryId", "country_id", "country"),
        Column::id("navigationCategoryId", "navigation_category_id", "category"),
        Column::int(
            "navigationCategoryDepth",
            "navigation_category_depth",
            1,
            10,
        ),
        Column::id("footerCategoryId", "footer_category_id", "category"),
    ],
    translation: None,
    extras: &[
        Extra {
            name: "typeId",
            write: ExtraWrite::ReadOnly,
            read: read_type,
            filter: None,
        },
        Extra {
            name: "domains",
            write: ExtraWrite::ReadOnly,
            read: read_domains,
            filter: Some(crate::catalog::criteria::Expr::Membership {
                table: "sales_channel_domain",
                key: "sales_channel_id",
                owner: "x.id",
                column: "id",
            }),
        },
        Extra {
            name: "languages",
            write: ExtraWrite::After(write_languages),
            read: read_languages,
            filter: None,
        },
        Extra {
            name: "paymentMethods",
            write: ExtraWrite::ReadOnly,
            read: read_payment_methods,
            filter: None,
        },
        Extra {
            name: "shippingMethods",
            write: ExtraWrite::ReadOnly,
            read: read_shipping_methods,
            filter: None,
        },
    ],
    ignored: &[
        "customFields",
        "active",
        "homeEnabled",
        "shortName",
        "translations",
    ],
    access: Access::GuidesRead,
    hooks: Hooks {
        prepare: sales_channel_defaults,
        after_write: default_language_offered,
        ..NO_HOOKS
    },
    inherits_from: None,
};

fn read_type(_: &Connection, ids: &[String]) -> ValuesById {
    Ok(ids
        .iter()
        .map(|id| (id.clone(), Value::from(STOREFRONT_TYPE_ID)))
        .collect())
}

fn read_domains(conn: &Connection, ids: &[String]) -> ValuesById {
    related::many(
        conn,
        &SALES_CHANNEL_DOMAIN,
        "SELECT sales_channel_id, id FROM sales_channel_domain WHERE sales_channel_id IN (SELECT value FROM json_each(?1)) ORDER BY created_at, url",
        ids,
    )
}

fn read_languages(conn: &Connection, ids: &[String]) -> ValuesById {
    related::many(
        conn,
        &LANGUAGE,
        "SELECT s.id, l.id FROM sales_channel s JOIN language l
           ON l.id = s.language_id OR l.id IN (SELECT language_id FROM sales_channel_language WHERE sales_channel_id = s.id)
         WHERE s.id IN (SELECT value FROM json_each(?1)) ORDER BY l.code",
        ids,
    )
}

/// Every payment method is offered in the one storefront (active ones at checkout).
fn read_payment_methods(conn: &Connection, ids: &[String]) -> ValuesById {
    related::many(
        conn,
        &PAYMENT_METHOD,
        "SELECT s.id, p.id FROM sales_channel s, payment_method p WHERE s.id IN (SELECT value FROM json_each(?1)) ORDER BY p.position, p.technical_name",
        ids,
    )
}

fn read_shipping_methods(conn: &Connection, ids: &[String]) -> ValuesById {
    related::many(
        conn,
        &SHIPPING_METHOD,
        "SELECT s.id, m.id FROM sales_channel s, shipping_method m WHERE s.id IN (SELECT value FROM json_each(?1)) ORDER BY m.position, m.technical_name",
        ids,
    )
}

/// `languages`: the languages the storefront offers, all of them (the list replaces the
/// one before, as a product's `categories` do); each an installed language.
fn write_languages(tx: &Transaction, id: &str, value: &Value, pointer: &str) -> ApiResult<()> {
    let ids = super::catalog::referenced_ids(tx, value, pointer, "language", "id")?;
    if ids.is_empty() {
        return Err(no_default_language(id));
    }
    Ok(super::catalog::replace_links(
        tx,
        "sales_channel_language",
        "sales_channel_id",
        "language_id",
        id,
        &ids,
    )?)
}

/// The default language (`languageId`) stays one the storefront offers: switched off, or
/// a default outside the list, is refused as Shopware's `SalesChannelValidator` refuses
/// it. A new sales channel without `languages` offers its default.
fn default_language_offered(tx: &Transaction, id: &str) -> ApiResult<()> {
    let (default, offered, any): (String, bool, bool) = tx.query_row(
        "SELECT s.language_id,
                EXISTS(SELECT 1 FROM sales_channel_language l WHERE l.sales_channel_id = s.id AND l.language_id = s.language_id),
                EXISTS(SELECT 1 FROM sales_channel_language l WHERE l.sales_channel_id = s.id)
         FROM sales_channel s WHERE s.id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    if offered {
        return Ok(());
    }
    if !any {
        tx.execute(
            "INSERT INTO sales_channel_language (sales_channel_id, language_id) VALUES (?1, ?2)",
            [id, &default],
        )?;
        return Ok(());
    }
    Err(no_default_language(id))
}

fn no_default_language(id: &str) -> ApiError {
    ApiError::bad_request(
        "SYSTEM__NO_GIVEN_DEFAULT_LANGUAGE_ID",
        format!(
            "The default language of the sales channel with id \"{id}\" cannot be switched off: its languageId must be one of its languages."
        ),
    )
}

fn sales_channel_defaults(_: &Transaction, w: &mut Write) -> ApiResult<()> {
    if w.creating {
        let key: String = crate::storage::new_id()[..22].to_uppercase();
        w.set("access_key", format!("SWSC{key}"));
    }
    Ok(())
}

pub static MEDIA_FOLDER: Definition = Definition {
    name: "media_folder",
    table: "media_folder",
    columns: &[
        Column::text("name", "name", 255).required(),
        Column::id("parentId", "parent_id", "media_folder"),
        Column::boolean("useParentConfiguration", "use_parent_configuration"),
        Column::text("createdAt", "created_at", 64).read_only(),
        Column::text("updatedAt", "updated_at", 64).read_only(),
    ],
    translation: None,
    extras: &[Extra {
        name: "childCount",
        write: ExtraWrite::ReadOnly,
        read: read_child_count,
        filter: None,
    }],
    ignored: &["customFields", "configurationId", "defaultFolderId"],
    access: Access::GuidesRead,
    hooks: Hooks {
        prepare: folder_dates,
        ..NO_HOOKS
    },
    inherits_from: None,
};

fn read_child_count(conn: &Connection, ids: &[String]) -> ValuesById {
    related::values(
        conn,
        "SELECT f.id, (SELECT COUNT(*) FROM media_folder c WHERE c.parent_id = f.id) FROM media_folder f WHERE f.id IN (SELECT value FROM json_each(?1))",
        ids,
    )
}

fn folder_dates(tx: &Transaction, w: &mut Write) -> ApiResult<()> {
    if w.creating {
        w.set("created_at", now_rfc3339());
    } else {
        w.set("updated_at", now_rfc3339());
    }
    // A folder cannot be inside itself (or one of its own subfolders).
    if let Some(SqlValue::Text(parent)) = w.get("parent_id") {
        let inside_itself: bool = tx.query_row(
            "WITH RECURSIVE up(id) AS (SELECT ?1 UNION SELECT f.parent_id FROM media_folder f JOIN up ON f.id = up.id WHERE f.parent_id IS NOT NULL)
             SELECT EXISTS(SELECT 1 FROM up WHERE id = ?2)",
            [parent, &w.id],
            |r| r.get(0),
        )?;
        if inside_itself {
            return Err(ApiError::Violations(vec![w.violation(
                "VIOLATION::INVALID_PARENT",
                "parentId",
                "A folder cannot be inside itself.",
            )]));
        }
    }
    Ok(())
}

pub static RULE: Definition = Definition {
    name: "rule",
    table: "rule",
    columns: &[
        Column::text("name", "name", 255).required(),
        Column::int("priority", "priority", 0, 1_000_000).required(),
        Column::text("description", "description", 5_000),
        Column::text("createdAt", "created_at", 64).read_only(),
    ],
    translation: None,
    extras: &[],
    ignored: &[],
    access: Access::ReadOnly,
    hooks: NO_HOOKS,
    inherits_from: None,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipping_prices_become_a_cost_and_a_free_from() {
        let columns = price_columns(
            &json!([
                {"quantityStart": 0, "currencyPrice": [{"gross": 4.9}]},
                {"quantityStart": 50, "currencyPrice": [{"gross": 0}]}
            ]),
            "/0/prices",
        )
        .unwrap();
        assert_eq!(
            columns,
            vec![
                ("price_gross", SqlValue::Real(4.9)),
                ("free_from", SqlValue::Real(50.0))
            ]
        );
        let refused = price_columns(
            &json!([{"currencyPrice": [{"gross": 5}]}, {"quantityStart": "lots", "currencyPrice": [{"gross": 0}]}]),
            "/0/prices",
        )
        .unwrap_err();
        assert_eq!(refused[0].pointer, "/0/prices/1/quantityStart");
    }
}
