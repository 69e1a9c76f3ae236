//! The cart as types: what the calculation steps (`pipeline`) pass on and what the
//! order is placed from. JSON is made of it only at the edge (`json`).

use serde_json::Value;

use super::discount::Discount;
use crate::catalog::price::round;
use crate::catalog::purchasable::Purchasable;

/// A problem found while calculating, answered once in `errors`.
#[derive(Debug, Clone, PartialEq)]
pub struct CartError {
    /// `messageKey`, e.g. `product-not-found`.
    pub message_key: &'static str,
    /// What it is about (line item id or promotion code); the key is both joined.
    pub subject: String,
    /// 0 notice, 10 warning, 20 error.
    pub level: i64,
    pub message: String,
}

impl CartError {
    pub const NOTICE: i64 = 0;
    pub const WARNING: i64 = 10;
    pub const ERROR: i64 = 20;

    pub fn new(message_key: &'static str, subject: &str, level: i64, message: String) -> CartError {
        CartError {
            message_key,
            subject: subject.to_owned(),
            level,
            message,
        }
    }

    /// The key of the error in the cart's `errors`.
    pub fn key(&self) -> String {
        format!("{}{}", self.message_key, self.subject)
    }

    /// A promotion code nobody can redeem now.
    pub fn promotion_not_found(code: &str) -> CartError {
        CartError::new(
            "promotion-not-found",
            code,
            Self::ERROR,
            format!("Promotion with code \"{code}\" could not be found."),
        )
    }
}

/// A line item as the cart stores it (`cart_line_item`).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredItem {
    pub id: String,
    pub kind: String,
    pub referenced_id: String,
    pub quantity: i64,
}

/// What the calculation writes back to the stored cart.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    Remove(String),
    SetQuantity(String, i64),
}

/// A promotion valid now for a code.
#[derive(Debug, Clone, PartialEq)]
pub struct Promotion {
    pub id: String,
    pub name: String,
    /// `percentage` or `absolute`.
    pub kind: String,
    pub value: f64,
}

/// The tax of one rate in a price (`cart_tax_calculated`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TaxAmount {
    pub tax: f64,
    pub rate: f64,
    pub price: f64,
}

impl TaxAmount {
    /// The tax included in the gross `price` at `rate`.
    pub fn of(price: f64, rate: f64) -> TaxAmount {
        TaxAmount {
            tax: round(price * rate / (100.0 + rate)),
            rate,
            price,
        }
    }

    /// A reduction of `share` at `rate` (tax and price negative).
    pub fn reduction(share: f64, rate: f64) -> TaxAmount {
        TaxAmount {
            tax: -round(share * rate / (100.0 + rate)),
            rate,
            price: -share,
        }
    }
}

/// A list price above the price (`cart_list_price`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListPrice {
    pub price: f64,
    pub discount: f64,
    pub percentage: f64,
}

/// A `calculated_price` (gross), without reference or regulation price.
#[derive(Debug, Clone, PartialEq)]
pub struct Price {
    pub unit: f64,
    pub quantity: i64,
    pub total: f64,
    pub taxes: Vec<TaxAmount>,
    /// The tax rates of the rules (100 % each).
    pub rules: Vec<f64>,
    pub list: Option<ListPrice>,
}

impl Price {
    /// `quantity` items at `unit` at one tax `rate`, with the list price when above `unit`.
    pub fn of(unit: f64, quantity: i64, rate: f64, list: Option<f64>) -> Price {
        let total = round(unit * quantity as f64);
        let list = list.filter(|list| *list > unit).map(|list| ListPrice {
            price: list,
            discount: round(unit - list),
            percentage: round((list - unit) / list * 100.0),
        });
        Price {
            unit,
            quantity,
            total,
            taxes: vec![TaxAmount::of(total, rate)],
            rules: vec![rate],
            list,
        }
    }

    /// One reduction of `amount` split into `taxes`.
    pub fn reduction(amount: f64, taxes: Vec<TaxAmount>, rules: Vec<f64>) -> Price {
        Price {
            unit: -amount,
            quantity: 1,
            total: -amount,
            taxes,
            rules,
            list: None,
        }
    }
}

/// How many of a product one line may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuantityRules {
    pub min: i64,
    pub max: i64,
    pub steps: i64,
    /// A closeout's maximum is its stock.
    pub closeout: bool,
}

/// A product line, its quantity fixed by the rules.
#[derive(Debug, Clone, PartialEq)]
pub struct ProductLine {
    pub id: String,
    pub product: Purchasable,
    pub quantity: i64,
    pub rules: QuantityRules,
    pub price: Price,
}

impl ProductLine {
    pub fn label(&self) -> &str {
        self.product.name.as_deref().unwrap_or_default()
    }
}

/// A promotion code's line.
#[derive(Debug, Clone, PartialEq)]
pub struct PromotionLine {
    pub id: String,
    pub code: String,
    pub promotion: Promotion,
    pub price: Price,
}

/// The guide's discount's line.
#[derive(Debug, Clone, PartialEq)]
pub struct DiscountLine {
    pub id: String,
    pub discount: Discount,
    pub price: Price,
}

/// A line of the cart, in the order the cart shows them: products, promotions, discounts.
#[derive(Debug, Clone, PartialEq)]
pub enum LineItem {
    /// Boxed: it carries its whole product.
    Product(Box<ProductLine>),
    Promotion(PromotionLine),
    Discount(DiscountLine),
}

impl LineItem {
    pub fn id(&self) -> &str {
        match self {
            LineItem::Product(line) => &line.id,
            LineItem::Promotion(line) => &line.id,
            LineItem::Discount(line) => &line.id,
        }
    }

    pub fn price(&self) -> &Price {
        match self {
            LineItem::Product(line) => &line.price,
            LineItem::Promotion(line) => &line.price,
            LineItem::Discount(line) => &line.price,
        }
    }
}

/// The one delivery of a cart with goods.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    pub earliest: Option<String>,
    pub latest: Option<String>,
    /// The shipping country's entity (null when the session has none).
    pub country: Value,
    pub costs: Price,
    pub method_id: String,
    /// The shipping method's entity, as `/shipping-method` answers it.
    pub method: Value,
}

/// The cart's total (`cart_price`, gross).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CartPrice {
    pub net: f64,
    pub total: f64,
    pub position: f64,
    pub taxes: Vec<TaxAmount>,
    pub rules: Vec<f64>,
}

/// A calculated cart.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cart {
    pub token: String,
    pub price: CartPrice,
    pub line_items: Vec<LineItem>,
    pub errors: Vec<CartError>,
    pub deliveries: Vec<Delivery>,
}

impl Cart {
    pub fn product_lines(&self) -> impl Iterator<Item = &ProductLine> {
        self.line_items.iter().filter_map(|line| match line {
            LineItem::Product(line) => Some(line.as_ref()),
            _ => None,
        })
    }

    /// The errors an order is refused for (warnings and errors).
    pub fn blocking_errors(&self) -> Vec<&CartError> {
        let mut seen = std::collections::BTreeMap::new();
        for error in &self.errors {
            seen.insert(error.key(), error);
        }
        seen.into_values()
            .filter(|e| e.level >= CartError::WARNING)
            .collect()
    }
}
