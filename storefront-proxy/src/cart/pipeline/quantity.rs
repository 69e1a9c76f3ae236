//! Step 2, quantity rules: a product line's quantity raised to the minimum, onto the
//! purchase steps and down to the maximum (a closeout's stock), each fix reported.

use crate::cart::model::{CartError, QuantityRules};
use crate::catalog::purchasable::Purchasable;

/// The rules of `product`: minimum and steps at least 1, maximum at least the minimum.
pub fn rules_of(product: &Purchasable) -> QuantityRules {
    let min = product.min_purchase.max(1);
    QuantityRules {
        min,
        max: product.calculated_max_purchase().max(min),
        steps: product.purchase_steps.max(1),
        closeout: product.closeout,
    }
}

/// The quantity the rules allow for `requested` of line `id` (shown as `name`).
pub fn apply(
    rules: QuantityRules,
    requested: i64,
    id: &str,
    name: &str,
    errors: &mut Vec<CartError>,
) -> i64 {
    let QuantityRules {
        min,
        max,
        steps,
        closeout,
    } = rules;
    let mut quantity = requested;
    if quantity < min {
        quantity = min;
        let message = format!("The quantity of {name} was raised to the minimum of {min}.");
        errors.push(CartError::new(
            "min-order-quantity",
            id,
            CartError::WARNING,
            message,
        ));
    }
    if (quantity - min) % steps != 0 {
        quantity = min + (quantity - min) / steps * steps;
        let message =
            format!("{name} is sold in steps of {steps}; the quantity was set to {quantity}.");
        errors.push(CartError::new(
            "purchase-steps-quantity",
            id,
            CartError::WARNING,
            message,
        ));
    }
    if quantity > max {
        quantity = min + (max - min) / steps * steps;
        let key = if closeout {
            "product-stock-reached"
        } else {
            "max-order-quantity"
        };
        let message =
            format!("Only {quantity} of {name} can be ordered; the quantity was reduced.");
        errors.push(CartError::new(key, id, CartError::WARNING, message));
    }
    quantity
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: QuantityRules = QuantityRules {
        min: 2,
        max: 11,
        steps: 3,
        closeout: false,
    };

    fn fixed(rules: QuantityRules, requested: i64) -> (i64, Vec<&'static str>) {
        let mut errors = Vec::new();
        let quantity = apply(rules, requested, "l", "Shirt", &mut errors);
        (quantity, errors.iter().map(|e| e.message_key).collect())
    }

    #[test]
    fn quantities_follow_minimum_steps_and_maximum() {
        assert_eq!(fixed(RULES, 5), (5, vec![]));
        assert_eq!(fixed(RULES, 1), (2, vec!["min-order-quantity"]));
        assert_eq!(fixed(RULES, 7), (5, vec!["purchase-steps-quantity"]));
        assert_eq!(fixed(RULES, 14), (11, vec!["max-order-quantity"]));
        assert_eq!(
            fixed(RULES, 40),
            (11, vec!["purchase-steps-quantity", "max-order-quantity"])
        );
        assert_eq!(
            fixed(
                QuantityRules {
                    closeout: true,
                    ..RULES
                },
                14
            ),
            (11, vec!["product-stock-reached"])
        );
    }

    #[test]
    fn the_messages_name_the_product_and_the_new_quantity() {
        let mut errors = Vec::new();
        apply(RULES, 7, "l", "Shirt", &mut errors);
        assert_eq!(
            errors[0].message,
            "Shirt is sold in steps of 3; the quantity was set to 5."
        );
        assert_eq!(errors[0].key(), "purchase-steps-quantityl");
        assert_eq!(errors[0].level, CartError::WARNING);
    }

    #[test]
    fn rules_never_go_below_one_or_below_the_minimum() {
        let product = Purchasable {
            min_purchase: 0,
            purchase_steps: 0,
            max_purchase: Some(0),
            ..Default::default()
        };
        assert_eq!(
            rules_of(&product),
            QuantityRules {
                min: 1,
                max: 1,
                steps: 1,
                closeout: false
            }
        );
    }
}
