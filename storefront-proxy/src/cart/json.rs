//! The edge: the typed cart ([`Cart`]) as Shopware's `Cart` JSON, and its parts as the
//! order stores them.

use serde_json::{json, Map, Value};

use super::model::{
    Cart, CartError, CartPrice, Delivery, DiscountLine, LineItem, Price, ProductLine,
    PromotionLine, TaxAmount,
};
use crate::catalog::purchasable::{DeliveryTime, Purchasable};

fn tax_rules(rates: &[f64]) -> Vec<Value> {
    rates
        .iter()
        .map(|rate| json!({ "taxRate": rate, "percentage": 100, "apiAlias": "cart_tax_rule" }))
        .collect()
}

fn taxes(amounts: &[TaxAmount]) -> Vec<Value> {
    amounts.iter().map(|t| json!({ "tax": t.tax, "taxRate": t.rate, "price": t.price, "apiAlias": "cart_tax_calculated" })).collect()
}

/// A `calculated_price`.
pub fn price(price: &Price) -> Value {
    let list =
        price.list.map(|l| json!({ "price": l.price, "discount": l.discount, "percentage": l.percentage, "apiAlias": "cart_list_price" }));
    json!({
        "unitPrice": price.unit,
        "quantity": price.quantity,
        "totalPrice": price.total,
        "calculatedTaxes": taxes(&price.taxes),
        "taxRules": tax_rules(&price.rules),
        "referencePrice": null,
        "listPrice": list,
        "regulationPrice": null,
        "apiAlias": "calculated_price",
    })
}

/// A product's delivery time as the cart carries it (`cart_delivery_time`: no id).
fn delivery_time(time: Option<&DeliveryTime>) -> Value {
    time.map_or(
        Value::Null,
        |time| json!({ "name": time.name, "min": time.min, "max": time.max, "unit": time.unit, "apiAlias": "cart_delivery_time" }),
    )
}

fn delivery_information(product: &Purchasable) -> Value {
    json!({
        "stock": product.stock,
        "weight": product.weight,
        "freeDelivery": product.shipping_free,
        "restockTime": product.restock_time,
        "deliveryTime": delivery_time(product.delivery_time.as_ref()),
        "height": product.height,
        "width": product.width,
        "length": product.length,
        "apiAlias": "cart_delivery_information",
    })
}

/// A product line's `priceDefinition` (`cart_price_quantity`).
pub fn price_definition(line: &ProductLine) -> Value {
    json!({
        "price": line.price.unit,
        "quantity": line.quantity,
        "isCalculated": true,
        "taxRules": tax_rules(&[line.product.tax.rate]),
        "listPrice": line.product.list_price,
        "referencePriceDefinition": null,
        "type": "quantity",
        "apiAlias": "cart_price_quantity",
    })
}

fn product_payload(product: &Purchasable) -> Value {
    let options: Vec<Value> = product
        .options
        .iter()
        .map(|o| json!({ "group": o.group, "option": o.option }))
        .collect();
    json!({
        "productNumber": product.number,
        "manufacturerId": product.manufacturer_id,
        "taxId": product.tax_id,
        "isCloseout": product.closeout,
        "options": options,
        "isNew": product.is_new,
        "markAsTopseller": product.top_seller,
        "shippingFree": product.shipping_free,
    })
}

/// `states` of a line: a product is a download or physical.
pub fn states(line: &LineItem) -> Value {
    match line {
        LineItem::Product(line) if line.product.digital => json!(["is-download"]),
        LineItem::Product(_) => json!(["is-physical"]),
        _ => json!([]),
    }
}

/// The `payload` of a line.
pub fn payload(line: &LineItem) -> Value {
    match line {
        LineItem::Product(line) => product_payload(&line.product),
        LineItem::Promotion(line) => json!({
            "code": line.code, "promotionId": line.promotion.id, "discountType": line.promotion.kind, "value": line.promotion.value,
        }),
        LineItem::Discount(line) => json!({
            "discountType": line.discount.discount_type,
            "value": line.discount.discount_value,
            "appliedItemIds": line.discount.applied_item_ids,
        }),
    }
}

fn product_line(line: &ProductLine, item: &LineItem) -> Value {
    let rules = &line.rules;
    json!({
        "id": line.id,
        "referencedId": line.product.id,
        "label": line.label(),
        "quantity": line.quantity,
        "type": "product",
        "good": true,
        "removable": true,
        "stackable": true,
        "modified": false,
        "description": null,
        "cover": line.product.cover,
        "price": price(&line.price),
        "priceDefinition": price_definition(line),
        "quantityInformation": {
            "minPurchase": rules.min, "maxPurchase": rules.max, "purchaseSteps": rules.steps,
            "apiAlias": "cart_line_item_quantity_information",
        },
        "deliveryInformation": delivery_information(&line.product),
        "payload": payload(item),
        "states": states(item),
        "uniqueIdentifier": line.id,
        "apiAlias": "cart_line_item",
    })
}

/// A line that is no good: a promotion or a discount.
fn reduction_line(
    item: &LineItem,
    referenced_id: &str,
    label: &str,
    description: Option<&str>,
    removable: bool,
) -> Value {
    json!({
        "id": item.id(),
        "referencedId": referenced_id,
        "label": label,
        "quantity": 1,
        "type": match item { LineItem::Promotion(_) => "promotion", _ => "discount" },
        "good": false,
        "removable": removable,
        "stackable": false,
        "modified": false,
        "description": description,
        "price": price(item.price()),
        "payload": payload(item),
        "states": [],
        "uniqueIdentifier": item.id(),
        "apiAlias": "cart_line_item",
    })
}

/// A `cart_line_item`.
pub fn line_item(item: &LineItem) -> Value {
    match item {
        LineItem::Product(line) => product_line(line, item),
        LineItem::Promotion(PromotionLine {
            code, promotion, ..
        }) => reduction_line(item, code, &promotion.name, Some(&promotion.name), true),
        LineItem::Discount(DiscountLine { id, .. }) => {
            reduction_line(item, id, "Discount", None, false)
        }
    }
}

/// A `cart_delivery`.
pub fn delivery(delivery: &Delivery) -> Value {
    json!({
        "deliveryDate": { "earliest": delivery.earliest, "latest": delivery.latest, "apiAlias": "cart_delivery_date" },
        "location": { "country": delivery.country, "state": null, "address": null, "apiAlias": "cart_delivery_shipping_location" },
        "positions": [],
        "shippingCosts": price(&delivery.costs),
        "shippingMethod": delivery.method,
        "apiAlias": "cart_delivery",
    })
}

/// The `cart_price`.
pub fn cart_price(price: &CartPrice) -> Value {
    json!({
        "netPrice": price.net,
        "totalPrice": price.total,
        "positionPrice": price.position,
        "rawTotal": price.total,
        "taxStatus": "gross",
        "calculatedTaxes": taxes(&price.taxes),
        "taxRules": tax_rules(&price.rules),
        "apiAlias": "cart_price",
    })
}

/// The errors by key (an empty list when there are none, as Shopware answers).
fn errors(errors: &[CartError]) -> Value {
    let map: Map<String, Value> = errors
        .iter()
        .map(|e| {
            let key = e.key();
            (key.clone(), json!({ "code": 0, "key": key, "level": e.level, "message": e.message, "messageKey": e.message_key }))
        })
        .collect();
    if map.is_empty() {
        json!([])
    } else {
        Value::Object(map)
    }
}

/// The whole `Cart` answer.
pub fn cart(cart: &Cart) -> Value {
    json!({
        "name": "sales-channel",
        "token": cart.token,
        "price": cart_price(&cart.price),
        "lineItems": cart.line_items.iter().map(line_item).collect::<Vec<_>>(),
        "errors": errors(&cart.errors),
        "deliveries": cart.deliveries.iter().map(delivery).collect::<Vec<_>>(),
        "transactions": [],
        "modified": !cart.errors.is_empty(),
        "customerComment": null,
        "affiliateCode": null,
        "campaignCode": null,
        "apiAlias": "cart",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::price::{self as catalog_price, Tax};

    #[test]
    fn a_price_is_the_catalogue_calculated_price() {
        let tax = Tax {
            rate: 19.0,
            ..Tax::default()
        };
        for (unit, quantity, list) in [(11.9, 2, Some(14.9)), (10.0, 1, Some(9.0)), (4.99, 3, None)]
        {
            assert_eq!(
                price(&Price::of(unit, quantity, 19.0, list)),
                catalog_price::calculated(unit, quantity, &tax, list, None, None)
            );
        }
    }

    #[test]
    fn errors_are_keyed_and_an_empty_cart_is_shopware_shaped() {
        let error = CartError::new(
            "min-order-quantity",
            "l1",
            CartError::WARNING,
            "raised".into(),
        );
        let answer = cart(&Cart {
            token: "t".into(),
            errors: vec![error],
            ..Cart::default()
        });
        assert_eq!(answer["errors"]["min-order-quantityl1"]["level"], 10);
        assert_eq!(answer["modified"], true);
        let empty = cart(&Cart::default());
        assert_eq!(empty["errors"], json!([]));
        assert_eq!(empty["price"]["calculatedTaxes"], json!([]));
        assert_eq!(empty["apiAlias"], "cart");
    }

    #[test]
    fn product_lines_carry_their_product() {
        let product = Purchasable {
            id: "p".into(),
            number: "SW1".into(),
            name: Some("Shirt".into()),
            digital: true,
            price: 10.0,
            delivery_time: Some(DeliveryTime {
                name: Some("1-3 days".into()),
                min: 1,
                max: 3,
                unit: "day".into(),
            }),
            ..Purchasable::default()
        };
        let rules = crate::cart::model::QuantityRules {
            min: 1,
            max: 100,
            steps: 1,
            closeout: false,
        };
        let line = ProductLine {
            id: "l".into(),
            product,
            quantity: 2,
            rules,
            price: Price::of(10.0, 2, 0.0, None),
        };
        let answer = line_item(&LineItem::Product(Box::new(line)));
        assert_eq!(answer["referencedId"], "p");
        assert_eq!(answer["label"], "Shirt");
        assert_eq!(answer["states"], json!(["is-download"]));
        assert_eq!(answer["payload"]["productNumber"], "SW1");
        assert_eq!(
            answer["deliveryInformation"]["deliveryTime"]["name"],
            "1-3 days"
        );
        assert_eq!(answer["priceDefinition"]["quantity"], 2);
        assert_eq!(answer["price"]["totalPrice"], 20.0);
    }
}
