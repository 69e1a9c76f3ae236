//! The table of Admin API entities: each a [`Definition`] in the file of its domain.

pub mod catalog;
pub mod customer;
pub mod dsr;
pub mod dsr_records;
pub mod interaction_template;
pub mod media;
pub mod order;
pub mod promotion;
pub mod related;
pub mod settings;
pub mod slides;
pub mod user;

use rusqlite::Connection;
use serde_json::Value;

use super::definition::Definition;
use crate::catalog::criteria::Field;

/// Every entity the generic routes and the sync endpoint serve.
pub static ALL: &[&Definition] = &[
    &catalog::PRODUCT,
    &catalog::CATEGORY,
    &catalog::PRODUCT_MANUFACTURER,
    &catalog::PROPERTY_GROUP,
    &catalog::PROPERTY_GROUP_OPTION,
    &promotion::PROMOTION,
    &media::MEDIA,
    &user::USER,
    &dsr::APPOINTMENT,
    &dsr::PRESENTATION,
    &dsr::CMS_PAGE,
    &interaction_template::INTERACTION_TEMPLATE,
    &dsr_records::INTERACTION,
    &dsr_records::PRESENTATION_CMS_PAGE,
    &dsr_records::CMS_SLIDE,
    &dsr_records::APPOINTMENT_REQUEST,
    &settings::TAX,
    &settings::CURRENCY,
    &settings::COUNTRY,
    &settings::COUNTRY_STATE,
    &settings::SALUTATION,
    &settings::LANGUAGE,
    &settings::DELIVERY_TIME,
    &settings::PAYMENT_METHOD,
    &settings::SHIPPING_METHOD,
    &settings::SALES_CHANNEL,
    &settings::SALES_CHANNEL_DOMAIN,
    &settings::MEDIA_FOLDER,
    &settings::RULE,
    &customer::CUSTOMER,
    &customer::CUSTOMER_ADDRESS,
    &customer::CUSTOMER_GROUP,
    &order::ORDER,
    &order::STATE_MACHINE_HISTORY,
];

/// Criteria fields of an entity beyond its columns and `{association}.id`s: paths
/// into its associations, as Shopware names them (`orderCustomer.email`).
pub fn fields(name: &str) -> &'static [(&'static str, Field)] {
    match name {
        "order" => order::ORDER_FIELDS,
        _ => &[],
    }
}

/// The SQL expressions over the row (`x`) that criteria's `term` searches; none: the
/// entity refuses a term.
pub fn term(name: &str) -> &'static [&'static str] {
    match name {
        "order" => order::ORDER_TERM,
        "customer" => &[
            "x.customer_number",
            "x.email",
            "x.first_name",
            "x.last_name",
            "(x.first_name || ' ' || x.last_name)",
            "x.company",
        ],
        _ => &[],
    }
}

/// Completes entities after their columns and extras are read: fields that come from
/// one load of many rows (an order's Store API shape).
pub type Complete = fn(&Connection, &mut [Value]) -> rusqlite::Result<()>;

pub fn complete(name: &str) -> Option<Complete> {
    match name {
        "order" => Some(order::complete_orders),
        "state_machine_history" => Some(order::complete_history),
        _ => None,
    }
}
