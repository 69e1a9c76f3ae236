//! The table of Admin API entities: each a [`Definition`] in the file of its domain.

pub mod catalog;
pub mod dsr;
pub mod dsr_records;
pub mod interaction_template;
pub mod media;
pub mod promotion;
pub mod slides;
pub mod user;

use super::definition::Definition;

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
];
