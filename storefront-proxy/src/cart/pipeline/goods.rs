//! Step 3, goods: each product line priced at its quantity (the advanced price tier it
//! falls in), and the goods summed per tax rate for the steps after it.

use std::collections::BTreeMap;

use crate::cart::model::{Price, ProductLine, QuantityRules, StoredItem};
use crate::catalog::purchasable::Purchasable;

/// A tax rate as a map key: text keeps the map ordered by rate and exact.
pub type RateKey = String;

pub fn rate_key(rate: f64) -> RateKey {
    format!("{rate:08.3}")
}

/// The gross goods of one tax rate.
#[derive(Debug, Clone, PartialEq)]
pub struct RateGoods {
    pub gross: f64,
    pub rate: f64,
}

/// What the product lines add up to.
#[derive(Debug, Clone, PartialEq)]
pub struct Goods {
    pub by_rate: BTreeMap<RateKey, RateGoods>,
    /// Each product line: (id, rate, gross total), for discounts on some lines.
    pub lines: Vec<(String, RateKey, f64)>,
    /// Every product ships free (true without products).
    pub shipping_free: bool,
}

impl Goods {
    pub fn of(lines: &[ProductLine]) -> Goods {
        let mut goods = Goods {
            by_rate: BTreeMap::new(),
            lines: Vec::new(),
            shipping_free: true,
        };
        for line in lines {
            let rate = line.product.tax.rate;
            let key = rate_key(rate);
            goods.shipping_free &= line.product.shipping_free;
            goods
                .lines
                .push((line.id.clone(), key.clone(), line.price.total));
            goods
                .by_rate
                .entry(key)
                .or_insert(RateGoods { gross: 0.0, rate })
                .gross += line.price.total;
        }
        goods
    }

    pub fn is_empty(&self) -> bool {
        self.by_rate.is_empty()
    }

    /// The gross total of the goods.
    pub fn total(&self) -> f64 {
        self.by_rate.values().map(|g| g.gross).sum()
    }

    /// The tax rates of the goods, ascending.
    pub fn rates(&self) -> Vec<f64> {
        self.by_rate.values().map(|g| g.rate).collect()
    }
}

/// The line of `item`: `quantity` of `product` at the unit price of that quantity.
pub fn price_line(
    item: StoredItem,
    product: Purchasable,
    quantity: i64,
    rules: QuantityRules,
) -> ProductLine {
    let unit = product.unit_price(quantity);
    let price = Price::of(unit, quantity, product.tax.rate, product.list_price);
    ProductLine {
        id: item.id,
        product,
        quantity,
        rules,
        price,
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use crate::catalog::price::Tax;
    use crate::catalog::purchasable::Tier;

    const RULES: QuantityRules = QuantityRules {
        min: 1,
        max: 100,
        steps: 1,
        closeout: false,
    };

    pub fn line(id: &str, unit: f64, quantity: i64, rate: f64) -> ProductLine {
        let product = Purchasable {
            id: id.into(),
            price: unit,
            tax: Tax {
                rate,
                ..Tax::default()
            },
            ..Purchasable::default()
        };
        let item = StoredItem {
            id: id.into(),
            kind: "product".into(),
            referenced_id: id.into(),
            quantity,
        };
        price_line(item, product, quantity, RULES)
    }

    #[test]
    fn a_line_is_priced_at_the_tier_of_its_quantity() {
        let product = Purchasable {
            price: 10.0,
            list_price: Some(12.0),
            tiers: vec![
                Tier {
                    quantity: 4,
                    price: 10.0,
                },
                Tier {
                    quantity: 9,
                    price: 9.0,
                },
            ],
            tax: Tax {
                rate: 19.0,
                ..Tax::default()
            },
            ..Purchasable::default()
        };
        let item = StoredItem {
            id: "l".into(),
            kind: "product".into(),
            referenced_id: "p".into(),
            quantity: 5,
        };
        let line = price_line(item, product, 5, RULES);
        assert_eq!(line.price.unit, 9.0);
        assert_eq!(line.price.total, 45.0);
        assert_eq!(line.price.taxes[0].tax, 7.18);
        assert_eq!(line.price.list.map(|l| l.percentage), Some(25.0));
    }

    #[test]
    fn goods_are_summed_per_rate_and_ship_free_only_if_every_line_does() {
        let mut free = line("c", 5.0, 1, 19.0);
        free.product.shipping_free = true;
        let goods = Goods::of(&[
            line("a", 10.0, 2, 19.0),
            line("b", 3.0, 1, 7.0),
            free.clone(),
        ]);
        assert_eq!(
            goods.by_rate.keys().collect::<Vec<_>>(),
            ["0007.000", "0019.000"]
        );
        assert_eq!(goods.by_rate["0019.000"].gross, 25.0);
        assert_eq!(goods.total(), 28.0);
        assert_eq!(goods.rates(), [7.0, 19.0]);
        assert!(!goods.shipping_free);
        assert!(Goods::of(&[free]).shipping_free);
        assert!(Goods::of(&[]).is_empty());
    }
}
