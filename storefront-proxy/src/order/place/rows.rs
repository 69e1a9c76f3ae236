//! What an order stores of a calculated cart, as typed rows: the check that the cart
//! can be ordered, the order's totals, its line items and its delivery. No SQLite.

use serde_json::{json, Value};

use crate::cart::json;
use crate::cart::model::{Cart, LineItem};

/// Why a cart cannot be ordered.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    Empty,
    /// (`messageKey`, message) of each blocking problem.
    Invalid(Vec<(String, String)>),
}

/// A cart can be ordered with a product and without warnings or errors.
pub fn check(cart: &Cart) -> Result<(), Refusal> {
    if cart.product_lines().next().is_none() {
        return Err(Refusal::Empty);
    }
    let blocking: Vec<(String, String)> = cart
        .blocking_errors()
        .into_iter()
        .map(|e| (e.message_key.to_owned(), e.message.clone()))
        .collect();
    if blocking.is_empty() {
        Ok(())
    } else {
        Err(Refusal::Invalid(blocking))
    }
}

/// The order's prices (`shop_order`).
#[derive(Debug, Clone, PartialEq)]
pub struct Totals {
    /// The cart's `cart_price`.
    pub price: Value,
    /// The delivery's costs (`calculated_price`), zero without a delivery.
    pub shipping_costs: Value,
    pub amount_total: f64,
    pub amount_net: f64,
    pub position_price: f64,
    pub shipping_total: f64,
}

fn zero_costs() -> Value {
    json!({ "unitPrice": 0.0, "quantity": 1, "totalPrice": 0.0, "calculatedTaxes": [], "taxRules": [], "referencePrice": null, "listPrice": null, "regulationPrice": null, "apiAlias": "calculated_price" })
}

pub fn totals(cart: &Cart) -> Totals {
    let delivery = cart.deliveries.first();
    Totals {
        price: json::cart_price(&cart.price),
        shipping_costs: delivery
            .map(|d| json::price(&d.costs))
            .unwrap_or_else(zero_costs),
        amount_total: cart.price.total,
        amount_net: cart.price.net,
        position_price: cart.price.position,
        shipping_total: delivery.map(|d| d.costs.total).unwrap_or(0.0),
    }
}

/// The amount of a transaction: the order total as one `calculated_price`.
pub fn amount(cart: &Cart) -> Value {
    let price = json::cart_price(&cart.price);
    json!({
        "unitPrice": price["totalPrice"],
        "quantity": 1,
        "totalPrice": price["totalPrice"],
        "calculatedTaxes": price["calculatedTaxes"],
        "taxRules": price["taxRules"],
        "referencePrice": null,
        "listPrice": null,
        "regulationPrice": null,
        "apiAlias": "calculated_price",
    })
}

/// One `order_line_item`.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub identifier: String,
    pub referenced_id: String,
    /// The product of a product line (stock is taken from it).
    pub product_id: Option<String>,
    pub promotion_id: Option<String>,
    pub kind: &'static str,
    pub label: String,
    pub description: Option<String>,
    pub quantity: i64,
    pub unit_price: f64,
    pub total_price: f64,
    pub good: bool,
    pub position: i64,
    pub price: Value,
    pub price_definition: Option<Value>,
    pub payload: Value,
    pub cover: Option<Value>,
    pub states: Value,
    /// A digital product: its files are copied to the line.
    pub download: bool,
}

fn line(item: &LineItem, position: i64) -> Line {
    let price = item.price();
    let mut line = Line {
        identifier: item.id().to_owned(),
        referenced_id: String::new(),
        product_id: None,
        promotion_id: None,
        kind: "product",
        label: String::new(),
        description: None,
        quantity: 1,
        unit_price: price.unit,
        total_price: price.total,
        good: false,
        position,
        price: json::price(price),
        price_definition: None,
        payload: json::payload(item),
        cover: None,
        states: json::states(item),
        download: false,
    };
    match item {
        LineItem::Product(product) => {
            line.referenced_id = product.product.id.clone();
            line.product_id = Some(product.product.id.clone());
            line.label = product.label().to_owned();
            line.quantity = product.quantity;
            line.good = true;
            line.price_definition = Some(json::price_definition(product));
            line.cover = product.product.cover.clone().filter(Value::is_object);
            line.download = product.product.digital;
        }
        LineItem::Promotion(promotion) => {
            line.kind = "promotion";
            line.referenced_id = promotion.code.clone();
            line.promotion_id = Some(promotion.promotion.id.clone());
            line.label = promotion.promotion.name.clone();
            line.description = Some(promotion.promotion.name.clone());
        }
        LineItem::Discount(discount) => {
            line.kind = "discount";
            line.referenced_id = discount.id.clone();
            line.label = "Discount".to_owned();
        }
    }
    line
}

/// The order's line items, positions from 1.
pub fn lines(cart: &Cart) -> Vec<Line> {
    cart.line_items
        .iter()
        .enumerate()
        .map(|(index, item)| line(item, index as i64 + 1))
        .collect()
}

/// The order's delivery (`order_delivery`).
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    pub method_id: String,
    pub earliest: Option<String>,
    pub latest: Option<String>,
    pub costs: Value,
}

pub fn delivery(cart: &Cart) -> Option<Delivery> {
    cart.deliveries.first().map(|d| Delivery {
        method_id: d.method_id.clone(),
        earliest: d.earliest.clone(),
        latest: d.latest.clone(),
        costs: json::price(&d.costs),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::discount::{Discount, Kind};
    use crate::cart::model::{
        CartError, CartPrice, DiscountLine, Price, ProductLine, Promotion, PromotionLine,
        QuantityRules,
    };
    use crate::catalog::purchasable::Purchasable;

    fn cart() -> Cart {
        let product = Purchasable {
            id: "p".into(),
            name: Some("Shirt".into()),
            digital: true,
            ..Purchasable::default()
        };
        let rules = QuantityRules {
            min: 1,
            max: 10,
            steps: 1,
            closeout: false,
        };
        let promotion = Promotion {
            id: "promo".into(),
            name: "Spring".into(),
            kind: "absolute".into(),
            value: 5.0,
        };
        let discount = Discount {
            discount_type: Kind::Absolute,
            discount_value: 1.0,
            applied_item_ids: vec![],
        };
        Cart {
            token: "t".into(),
            price: CartPrice {
                net: 12.61,
                total: 15.0,
                position: 15.0,
                taxes: vec![],
                rules: vec![19.0],
            },
            line_items: vec![
                LineItem::Product(Box::new(ProductLine {
                    id: "l".into(),
                    product,
                    quantity: 2,
                    rules,
                    price: Price::of(10.0, 2, 19.0, None),
                })),
                LineItem::Promotion(PromotionLine {
                    id: "promo".into(),
                    code: "SPRING".into(),
                    promotion,
                    price: Price::reduction(4.0, vec![], vec![19.0]),
                }),
                LineItem::Discount(DiscountLine {
                    id: "dsr-discount".into(),
                    discount,
                    price: Price::reduction(1.0, vec![], vec![19.0]),
                }),
            ],
            ..Cart::default()
        }
    }

    #[test]
    fn lines_keep_what_each_kind_needs() {
        let lines = lines(&cart());
        let product = &lines[0];
        assert_eq!(
            (
                product.kind,
                product.product_id.as_deref(),
                product.quantity,
                product.position
            ),
            ("product", Some("p"), 2, 1)
        );
        assert!(product.download && product.good && product.price_definition.is_some());
        assert_eq!(product.total_price, 20.0);
        let promotion = &lines[1];
        assert_eq!(
            (
                promotion.kind,
                promotion.referenced_id.as_str(),
                promotion.promotion_id.as_deref()
            ),
            ("promotion", "SPRING", Some("promo"))
        );
        assert_eq!(promotion.description.as_deref(), Some("Spring"));
        assert_eq!(
            (
                lines[2].kind,
                lines[2].label.as_str(),
                lines[2].total_price,
                lines[2].position
            ),
            ("discount", "Discount", -1.0, 3)
        );
    }

    #[test]
    fn an_order_needs_products_and_no_warnings() {
        assert_eq!(check(&Cart::default()), Err(Refusal::Empty));
        let mut cart = cart();
        assert_eq!(check(&cart), Ok(()));
        cart.errors.push(CartError::new(
            "notice",
            "x",
            CartError::NOTICE,
            "fine".into(),
        ));
        assert_eq!(check(&cart), Ok(()));
        cart.errors.push(CartError::new(
            "min-order-quantity",
            "l",
            CartError::WARNING,
            "raised".into(),
        ));
        assert_eq!(
            check(&cart),
            Err(Refusal::Invalid(vec![(
                "min-order-quantity".into(),
                "raised".into()
            )]))
        );
    }

    #[test]
    fn without_a_delivery_shipping_costs_nothing() {
        let totals = totals(&cart());
        assert_eq!(
            (
                totals.amount_total,
                totals.amount_net,
                totals.shipping_total
            ),
            (15.0, 12.61, 0.0)
        );
        assert_eq!(totals.shipping_costs["totalPrice"], 0.0);
        assert_eq!(amount(&cart())["totalPrice"], 15.0);
        assert!(delivery(&cart()).is_none());
    }
}
