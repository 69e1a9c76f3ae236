//! Step 4, promotions: each redeemable code takes a percentage or an amount off the
//! goods (never more than the goods), split over the tax rates in proportion.

use std::collections::BTreeMap;

use super::goods::{Goods, RateKey};
use crate::cart::model::{Price, Promotion, PromotionLine, StoredItem, TaxAmount};
use crate::catalog::price::round;

/// What reductions took so far from each tax rate's goods.
pub type Taken = BTreeMap<RateKey, f64>;

/// The amount `promotion` takes off `goods_total`.
pub fn amount(promotion: &Promotion, goods_total: f64) -> f64 {
    round(match promotion.kind.as_str() {
        "percentage" => goods_total * promotion.value / 100.0,
        _ => promotion.value.min(goods_total),
    })
}

/// The line of the promotion code `item`, recording what it took in `taken`.
pub fn apply(
    goods: &Goods,
    item: StoredItem,
    promotion: Promotion,
    taken: &mut Taken,
) -> PromotionLine {
    let total = goods.total();
    let discount = amount(&promotion, total);
    let mut taxes = Vec::new();
    for (key, rate_goods) in &goods.by_rate {
        let share = if total > 0.0 {
            round(discount * rate_goods.gross / total)
        } else {
            0.0
        };
        *taken.entry(key.clone()).or_default() += share;
        taxes.push(TaxAmount::reduction(share, rate_goods.rate));
    }
    let price = Price::reduction(discount, taxes, goods.rates());
    PromotionLine {
        id: item.id,
        code: item.referenced_id,
        promotion,
        price,
    }
}

#[cfg(test)]
mod tests {
    use super::super::goods::tests::line;
    use super::*;

    fn promotion(kind: &str, value: f64) -> Promotion {
        Promotion {
            id: "p".into(),
            name: "Spring".into(),
            kind: kind.into(),
            value,
        }
    }

    fn item() -> StoredItem {
        StoredItem {
            id: "p".into(),
            kind: "promotion".into(),
            referenced_id: "SPRING".into(),
            quantity: 1,
        }
    }

    #[test]
    fn a_percentage_is_split_over_the_rates_in_proportion() {
        let goods = Goods::of(&[line("a", 30.0, 1, 19.0), line("b", 10.0, 1, 7.0)]);
        let mut taken = Taken::new();
        let line = apply(&goods, item(), promotion("percentage", 10.0), &mut taken);
        assert_eq!(
            (line.price.unit, line.price.total, line.price.quantity),
            (-4.0, -4.0, 1)
        );
        assert_eq!(
            line.price.taxes,
            [
                TaxAmount {
                    tax: -0.07,
                    rate: 7.0,
                    price: -1.0
                },
                TaxAmount {
                    tax: -0.48,
                    rate: 19.0,
                    price: -3.0
                }
            ]
        );
        assert_eq!(taken.values().copied().collect::<Vec<_>>(), [1.0, 3.0]);
        assert_eq!(line.code, "SPRING");
    }

    #[test]
    fn an_absolute_promotion_takes_at_most_the_goods() {
        let goods = Goods::of(&[line("a", 15.0, 1, 19.0)]);
        assert_eq!(amount(&promotion("absolute", 20.0), goods.total()), 15.0);
        assert_eq!(amount(&promotion("absolute", 5.555), goods.total()), 5.56);
        let line = apply(
            &goods,
            item(),
            promotion("absolute", 20.0),
            &mut Taken::new(),
        );
        assert_eq!(line.price.total, -15.0);
    }
}
