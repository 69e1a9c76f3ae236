//! Discounts a guide gives one cart (the live room's `add-cart-discount` and temporary
//! cart, `dsr::discount`): a line item of type `discount` whose `referenced_id` holds
//! this definition as JSON. The calculation takes it from what is left of the goods
//! after promotions, so a total never goes below zero.

use serde::{Deserialize, Serialize};

/// The id of the one guide's discount line item of a cart.
pub const LINE_ITEM_ID: &str = "dsr-discount";
/// The id the temporary discount shows under in the temporary cart.
pub const TEMP_LINE_ITEM_ID: &str = "dsr-temp-discount";
/// Limits: a percentage is 0 to 100; an absolute discount at most this much.
pub const MAX_ABSOLUTE: f64 = 1_000_000.0;
/// At most this many line items one discount applies to.
pub const MAX_ITEMS: usize = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Percentage,
    Absolute,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Discount {
    pub discount_type: Kind,
    pub discount_value: f64,
    /// The product line items it applies to; empty: the whole cart.
    pub applied_item_ids: Vec<String>,
}

impl Discount {
    pub fn parse(text: &str) -> Option<Discount> {
        serde_json::from_str(text).ok()
    }

    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The amount off `base` (the goods it applies to), never more than `base`.
    pub fn amount(&self, base: f64) -> f64 {
        let base = base.max(0.0);
        match self.discount_type {
            Kind::Percentage => base * self.discount_value.clamp(0.0, 100.0) / 100.0,
            Kind::Absolute => self.discount_value.clamp(0.0, MAX_ABSOLUTE).min(base),
        }
    }
}
