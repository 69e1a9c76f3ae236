//! Step 6, shipping: one delivery with the session's shipping method, free from its
//! limit or when every product ships free; its tax is the goods' highest rate ("auto").

use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

use super::goods::{Goods, RateKey};
use crate::cart::model::{Delivery, Price};

/// A shipping method as the calculation needs it, with the entity the cart shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Method {
    pub id: String,
    pub gross: f64,
    pub free_from: Option<f64>,
    pub delivery_min: i64,
    pub delivery_max: i64,
    pub delivery_unit: String,
    pub entity: Value,
}

impl Method {
    /// Reads a method entity of `checkout::methods` (the edge where its JSON comes in).
    pub fn of(entity: Value) -> Method {
        let price = &entity["prices"][0];
        let time = &entity["deliveryTime"];
        Method {
            id: entity["id"].as_str().unwrap_or_default().to_owned(),
            gross: price["currencyPrice"][0]["gross"].as_f64().unwrap_or(0.0),
            free_from: price["freeFrom"].as_f64(),
            delivery_min: time["min"].as_i64().unwrap_or(1),
            delivery_max: time["max"].as_i64().unwrap_or(1),
            delivery_unit: time["unit"].as_str().unwrap_or("day").to_owned(),
            entity,
        }
    }
}

/// What shipping costs, at which rate of the goods.
#[derive(Debug, Clone, PartialEq)]
pub struct ShippingCost {
    pub key: RateKey,
    pub cost: f64,
}

/// Days in `n` of a delivery time `unit` (hours count as the same day).
fn days(unit: &str, n: i64) -> i64 {
    match unit {
        "week" => n * 7,
        "month" => n * 30,
        "year" => n * 365,
        "hour" => 0,
        _ => n,
    }
}

fn date(now: OffsetDateTime, days: i64) -> Option<String> {
    (now + Duration::days(days))
        .replace_nanosecond(0)
        .ok()
        .and_then(|d| d.format(&Rfc3339).ok())
}

/// The delivery of `goods` (not empty) by `method` to `country`, and its cost.
pub fn deliver(
    goods: &Goods,
    method: Method,
    country: Value,
    now: OffsetDateTime,
) -> (Delivery, ShippingCost) {
    let free = goods.shipping_free || method.free_from.is_some_and(|limit| goods.total() >= limit);
    let cost = if free { 0.0 } else { method.gross };
    let (key, rate) = goods
        .by_rate
        .iter()
        .max_by(|a, b| a.1.rate.total_cmp(&b.1.rate))
        .map(|(key, g)| (key.clone(), g.rate))
        .unwrap_or_default();
    let delivery = Delivery {
        earliest: date(now, days(&method.delivery_unit, method.delivery_min)),
        latest: date(now, days(&method.delivery_unit, method.delivery_max)),
        country,
        costs: Price::of(cost, 1, rate, None),
        method_id: method.id,
        method: method.entity,
    };
    (delivery, ShippingCost { key, cost })
}

#[cfg(test)]
mod tests {
    use super::super::goods::tests::line;
    use super::*;
    use serde_json::json;

    fn method(free_from: Option<f64>) -> Method {
        Method::of(json!({
            "id": "standard",
            "prices": [{ "freeFrom": free_from, "currencyPrice": [{ "gross": 4.99 }] }],
            "deliveryTime": { "min": 1, "max": 2, "unit": "week" },
        }))
    }

    #[test]
    fn shipping_costs_the_method_price_at_the_highest_rate() {
        let goods = Goods::of(&[line("a", 10.0, 1, 7.0), line("b", 10.0, 1, 19.0)]);
        let now = OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap();
        let (delivery, cost) = deliver(&goods, method(Some(50.0)), json!(null), now);
        assert_eq!(
            cost,
            ShippingCost {
                key: "0019.000".into(),
                cost: 4.99
            }
        );
        assert_eq!(delivery.costs, Price::of(4.99, 1, 19.0, None));
        assert_eq!(delivery.earliest.as_deref(), Some("2023-11-21T22:13:20Z"));
        assert_eq!(delivery.latest.as_deref(), Some("2023-11-28T22:13:20Z"));
        assert_eq!(delivery.method_id, "standard");
    }

    #[test]
    fn shipping_is_free_from_the_limit_or_when_every_product_ships_free() {
        let now = OffsetDateTime::now_utc();
        let goods = Goods::of(&[line("a", 60.0, 1, 19.0)]);
        assert_eq!(
            deliver(&goods, method(Some(50.0)), json!(null), now).1.cost,
            0.0
        );
        assert_eq!(deliver(&goods, method(None), json!(null), now).1.cost, 4.99);
        let mut free = line("b", 1.0, 1, 19.0);
        free.product.shipping_free = true;
        assert_eq!(
            deliver(&Goods::of(&[free]), method(None), json!(null), now)
                .1
                .cost,
            0.0
        );
    }

    #[test]
    fn delivery_times_count_in_days() {
        assert_eq!(
            [
                days("day", 2),
                days("week", 2),
                days("month", 1),
                days("year", 1),
                days("hour", 5)
            ],
            [2, 14, 30, 365, 0]
        );
    }
}
