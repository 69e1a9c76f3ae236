//! The cart calculation as small typed steps, none of which touches SQLite: `lines`
//! (products found and available) → `quantity` (minimum, steps, maximum) → `goods`
//! (line prices, sums per tax rate) → `promotions` → `discounts` (the guide's) →
//! `shipping` → `totals`. `calculate` loads what they need, runs them and stores the
//! [`Change`]s they report; `json` answers the result.

pub mod discounts;
pub mod goods;
pub mod lines;
pub mod promotions;
pub mod quantity;
pub mod shipping;
pub mod totals;

use std::collections::HashMap;

use serde_json::Value;
use time::OffsetDateTime;

use self::goods::Goods;
use self::lines::Report;
use self::promotions::Taken;
use crate::cart::discount::Discount;
use crate::cart::model::{Cart, CartError, Change, LineItem, Promotion, StoredItem};
use crate::catalog::purchasable::Purchasable;

/// What the calculation starts from.
#[derive(Debug, Default)]
pub struct Input {
    pub token: String,
    /// Errors found before (the request's, the addresses').
    pub errors: Vec<CartError>,
    pub items: Vec<StoredItem>,
    /// The products of the product lines.
    pub products: Vec<Purchasable>,
    /// The promotions redeemable now, by code.
    pub promotions: HashMap<String, Promotion>,
}

/// The lines with goods and reductions, before shipping and totals.
#[derive(Debug)]
pub struct Reduced {
    token: String,
    lines: Vec<LineItem>,
    goods: Goods,
    taken: Taken,
    report: Report,
}

impl Reduced {
    /// Whether the cart holds goods (only then is there a delivery).
    pub fn has_goods(&self) -> bool {
        !self.goods.is_empty()
    }
}

/// The session's shipping method and country, for a cart with goods.
#[derive(Debug, Clone)]
pub struct Shipping {
    pub method: shipping::Method,
    pub country: Value,
}

/// Steps 1 to 5: product lines, quantities, goods, promotions and discounts.
pub fn reduce(input: Input) -> Reduced {
    let Input {
        token,
        errors,
        items,
        products,
        promotions,
    } = input;
    let mut report = Report {
        errors,
        changes: Vec::new(),
    };
    let sorted = lines::sort(items, &products, &mut report);
    let mut product_lines = Vec::new();
    for (item, product) in sorted.products {
        let rules = quantity::rules_of(&product);
        let name = product.name.clone().unwrap_or_default();
        let quantity = quantity::apply(rules, item.quantity, &item.id, &name, &mut report.errors);
        if quantity != item.quantity {
            report
                .changes
                .push(Change::SetQuantity(item.id.clone(), quantity));
        }
        product_lines.push(goods::price_line(item, product, quantity, rules));
    }
    let goods = Goods::of(&product_lines);
    let mut lines: Vec<LineItem> = product_lines
        .into_iter()
        .map(|line| LineItem::Product(Box::new(line)))
        .collect();
    let mut taken = Taken::new();
    for item in sorted.promotions {
        match promotions.get(&item.referenced_id).cloned() {
            Some(promotion) => lines.push(LineItem::Promotion(promotions::apply(
                &goods, item, promotion, &mut taken,
            ))),
            None => report.remove(
                &item.id,
                Some(CartError::promotion_not_found(&item.referenced_id)),
            ),
        }
    }
    for item in sorted.discounts {
        match Discount::parse(&item.referenced_id) {
            Some(discount) => lines.push(LineItem::Discount(discounts::apply(
                &goods, item.id, discount, &mut taken,
            ))),
            None => report.remove(&item.id, None),
        }
    }
    Reduced {
        token,
        lines,
        goods,
        taken,
        report,
    }
}

/// Steps 6 and 7: the delivery (with `shipping`, for a cart with goods) and the totals;
/// the cart and what to store of it.
pub fn finish(
    reduced: Reduced,
    shipping: Option<Shipping>,
    now: OffsetDateTime,
) -> (Cart, Vec<Change>) {
    let Reduced {
        token,
        lines,
        goods,
        taken,
        report,
    } = reduced;
    let delivered = shipping
        .filter(|_| !goods.is_empty())
        .map(|s| shipping::deliver(&goods, s.method, s.country, now));
    let price = totals::total(&goods, &taken, delivered.as_ref().map(|(_, cost)| cost));
    let deliveries = delivered
        .into_iter()
        .map(|(delivery, _)| delivery)
        .collect();
    let cart = Cart {
        token,
        price,
        line_items: lines,
        errors: report.errors,
        deliveries,
    };
    (cart, report.changes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::price::Tax;
    use serde_json::json;

    fn item(id: &str, kind: &str, referenced_id: &str, quantity: i64) -> StoredItem {
        StoredItem {
            id: id.into(),
            kind: kind.into(),
            referenced_id: referenced_id.into(),
            quantity,
        }
    }

    fn shirt() -> Purchasable {
        Purchasable {
            id: "shirt".into(),
            name: Some("Shirt".into()),
            price: 20.0,
            tax: Tax {
                rate: 19.0,
                ..Tax::default()
            },
            min_purchase: 1,
            purchase_steps: 1,
            max_purchase: Some(5),
            ..Purchasable::default()
        }
    }

    fn input(items: Vec<StoredItem>) -> Input {
        let spring = Promotion {
            id: "p".into(),
            name: "Spring".into(),
            kind: "percentage".into(),
            value: 10.0,
        };
        Input {
            token: "t".into(),
            items,
            products: vec![shirt()],
            promotions: HashMap::from([("SPRING".to_owned(), spring)]),
            ..Input::default()
        }
    }

    fn shipping() -> Shipping {
        let method = json!({ "id": "m", "prices": [{ "currencyPrice": [{ "gross": 5.0 }] }], "deliveryTime": { "min": 1, "max": 3, "unit": "day" } });
        Shipping {
            method: shipping::Method::of(method),
            country: json!({ "iso": "DE" }),
        }
    }

    #[test]
    fn the_steps_make_a_cart_and_report_what_to_store() {
        let discount = r#"{"discountType":"absolute","discountValue":10.0,"appliedItemIds":[]}"#;
        let items = vec![
            item("shirt", "product", "shirt", 9),
            item("p", "promotion", "SPRING", 1),
            item("gone", "promotion", "WINTER", 1),
            item("dsr-discount", "discount", discount, 1),
            item("broken", "discount", "{", 1),
        ];
        let reduced = reduce(input(items));
        assert!(reduced.has_goods());
        let (cart, changes) = finish(reduced, Some(shipping()), OffsetDateTime::now_utc());
        assert_eq!(
            cart.line_items.iter().map(LineItem::id).collect::<Vec<_>>(),
            ["shirt", "p", "dsr-discount"]
        );
        assert_eq!(
            cart.line_items
                .iter()
                .map(|l| l.price().total)
                .collect::<Vec<_>>(),
            [100.0, -10.0, -10.0]
        );
        assert_eq!((cart.price.total, cart.price.position), (85.0, 80.0));
        assert_eq!(cart.deliveries[0].costs.total, 5.0);
        assert_eq!(
            changes,
            [
                Change::SetQuantity("shirt".into(), 5),
                Change::Remove("gone".into()),
                Change::Remove("broken".into())
            ]
        );
        let keys: Vec<String> = cart.errors.iter().map(CartError::key).collect();
        assert_eq!(
            keys,
            ["max-order-quantityshirt", "promotion-not-foundWINTER"]
        );
    }

    #[test]
    fn a_cart_without_goods_has_no_delivery() {
        let reduced = reduce(input(vec![item("p", "promotion", "SPRING", 1)]));
        assert!(!reduced.has_goods());
        let (cart, changes) = finish(reduced, Some(shipping()), OffsetDateTime::now_utc());
        assert!(cart.deliveries.is_empty());
        assert_eq!(cart.line_items[0].price().total, -0.0);
        assert_eq!(cart.price.total, 0.0);
        assert!(changes.is_empty());
    }
}
