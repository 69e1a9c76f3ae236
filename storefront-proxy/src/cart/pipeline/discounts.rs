//! Step 5, discounts: the live room guide's discount (`cart::discount`), taken from
//! what promotions left of the goods it applies to, so no total goes below zero.

use std::collections::BTreeMap;

use super::goods::{Goods, RateKey};
use super::promotions::Taken;
use crate::cart::discount::Discount;
use crate::cart::model::{DiscountLine, Price, TaxAmount};
use crate::catalog::price::round;

/// What `discount` applies to per tax rate: its lines' goods, at most what is left.
pub fn base(goods: &Goods, discount: &Discount, taken: &Taken) -> BTreeMap<RateKey, f64> {
    let mut base: BTreeMap<RateKey, f64> = BTreeMap::new();
    for (id, key, total) in &goods.lines {
        if discount.applied_item_ids.is_empty() || discount.applied_item_ids.contains(id) {
            *base.entry(key.clone()).or_default() += total;
        }
    }
    for (key, amount) in base.iter_mut() {
        let left = goods.by_rate.get(key).map(|g| g.gross).unwrap_or(0.0)
            - taken.get(key).copied().unwrap_or(0.0);
        *amount = amount.min(left).max(0.0);
    }
    base
}

/// The line `id` of `discount`, recording what it took in `taken`.
pub fn apply(goods: &Goods, id: String, discount: Discount, taken: &mut Taken) -> DiscountLine {
    let base = base(goods, &discount, taken);
    let base_total: f64 = base.values().sum();
    let amount = round(discount.amount(base_total));
    let mut taxes = Vec::new();
    for (key, part) in &base {
        let rate = goods.by_rate[key].rate;
        let share = if base_total > 0.0 {
            round(amount * part / base_total)
        } else {
            0.0
        };
        *taken.entry(key.clone()).or_default() += share;
        taxes.push(TaxAmount::reduction(share, rate));
    }
    let rules = base.keys().map(|key| goods.by_rate[key].rate).collect();
    DiscountLine {
        id,
        discount,
        price: Price::reduction(amount, taxes, rules),
    }
}

#[cfg(test)]
mod tests {
    use super::super::goods::tests::line;
    use super::*;
    use crate::cart::discount::Kind;

    fn discount(kind: Kind, value: f64, items: &[&str]) -> Discount {
        Discount {
            discount_type: kind,
            discount_value: value,
            applied_item_ids: items.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn a_discount_on_some_lines_takes_from_their_rates_only() {
        let goods = Goods::of(&[line("a", 20.0, 1, 19.0), line("b", 10.0, 1, 7.0)]);
        let mut taken = Taken::new();
        let line = apply(
            &goods,
            "d".into(),
            discount(Kind::Percentage, 50.0, &["b"]),
            &mut taken,
        );
        assert_eq!(line.price.total, -5.0);
        assert_eq!(line.price.rules, [7.0]);
        assert_eq!(
            line.price.taxes,
            [TaxAmount {
                tax: -0.33,
                rate: 7.0,
                price: -5.0
            }]
        );
        assert_eq!(taken["0007.000"], 5.0);
    }

    #[test]
    fn a_discount_takes_only_what_promotions_left() {
        let goods = Goods::of(&[line("a", 20.0, 1, 19.0)]);
        let mut taken = Taken::from([("0019.000".to_owned(), 15.0)]);
        let line = apply(
            &goods,
            "d".into(),
            discount(Kind::Absolute, 100.0, &[]),
            &mut taken,
        );
        assert_eq!(line.price.total, -5.0);
        assert_eq!(taken["0019.000"], 20.0);
        let nothing_left = apply(
            &goods,
            "e".into(),
            discount(Kind::Absolute, 1.0, &[]),
            &mut taken,
        );
        assert_eq!(nothing_left.price.total, -0.0);
    }
}
