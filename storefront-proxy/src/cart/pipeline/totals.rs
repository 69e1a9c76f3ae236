//! Step 7, totals: per tax rate what the goods come to after reductions (never below
//! zero) plus shipping at its rate, the taxes in it, and the cart's total.

use super::goods::Goods;
use super::promotions::Taken;
use super::shipping::ShippingCost;
use crate::cart::model::{CartPrice, TaxAmount};
use crate::catalog::price::round;

pub fn total(goods: &Goods, taken: &Taken, shipping: Option<&ShippingCost>) -> CartPrice {
    let mut taxes = Vec::new();
    let mut tax_total = 0.0;
    let mut position_price = 0.0;
    for (key, rate_goods) in &goods.by_rate {
        let shipped = shipping
            .filter(|s| &s.key == key)
            .map(|s| s.cost)
            .unwrap_or(0.0);
        let price =
            round((rate_goods.gross - taken.get(key).copied().unwrap_or(0.0)).max(0.0) + shipped);
        let tax = TaxAmount::of(price, rate_goods.rate);
        tax_total += tax.tax;
        position_price += price;
        taxes.push(tax);
    }
    let total_price = round(position_price);
    let shipping_total = shipping.map(|s| s.cost).unwrap_or(0.0);
    CartPrice {
        net: round(total_price - tax_total),
        total: total_price,
        position: round(position_price - shipping_total),
        taxes,
        rules: goods.rates(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::goods::tests::line;
    use super::*;

    #[test]
    fn the_total_is_goods_less_reductions_plus_shipping() {
        let goods = Goods::of(&[line("a", 100.0, 1, 19.0), line("b", 10.0, 2, 7.0)]);
        let taken = Taken::from([("0019.000".to_owned(), 10.0)]);
        let shipping = ShippingCost {
            key: "0019.000".into(),
            cost: 5.0,
        };
        let price = total(&goods, &taken, Some(&shipping));
        assert_eq!(price.total, 115.0);
        assert_eq!(price.position, 110.0);
        assert_eq!(
            price.taxes,
            [
                TaxAmount {
                    tax: 1.31,
                    rate: 7.0,
                    price: 20.0
                },
                TaxAmount {
                    tax: 15.17,
                    rate: 19.0,
                    price: 95.0
                }
            ]
        );
        assert_eq!(price.net, 98.52);
        assert_eq!(price.rules, [7.0, 19.0]);
    }

    #[test]
    fn reductions_never_take_a_rate_below_zero() {
        let goods = Goods::of(&[line("a", 10.0, 1, 19.0)]);
        let price = total(&goods, &Taken::from([("0019.000".to_owned(), 12.0)]), None);
        assert_eq!((price.total, price.position, price.net), (0.0, 0.0, 0.0));
        assert_eq!(
            total(&Goods::of(&[]), &Taken::new(), None),
            CartPrice::default()
        );
    }
}
