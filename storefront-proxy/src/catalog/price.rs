//! Prices as the store API shows them (`CalculatedPrice`), with taxes, list price,
//! the cheapest price of the last 30 days (`regulationPrice`) and reference prices.

use serde_json::{json, Value};

/// A tax rate of a product.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tax {
    pub id: String,
    pub rate: f64,
    pub name: String,
}

/// The selling unit against a basic unit (e.g. 0.5 kg sold, price per 1 kg).
#[derive(Debug, Clone)]
pub struct Reference {
    pub purchase_unit: f64,
    pub reference_unit: f64,
    pub unit_name: String,
}

pub fn round(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// A `calculated_price` for `quantity` items at `unit_gross` (tax state gross).
pub fn calculated(
    unit_gross: f64,
    quantity: i64,
    tax: &Tax,
    list_gross: Option<f64>,
    regulation_gross: Option<f64>,
    reference: Option<&Reference>,
) -> Value {
    let total = round(unit_gross * quantity as f64);
    let tax_amount = round(total * tax.rate / (100.0 + tax.rate));
    let list_price = list_gross.filter(|list| *list > unit_gross).map(|list| {
        json!({
            "price": list,
            "discount": round(unit_gross - list),
            "percentage": round((list - unit_gross) / list * 100.0),
            "apiAlias": "cart_list_price",
        })
    });
    let regulation_price = regulation_gross
        .map(|price| json!({ "price": price, "apiAlias": "cart_regulation_price" }));
    let reference_price = reference
        .filter(|r| r.purchase_unit > 0.0 && r.reference_unit > 0.0)
        .map(|r| {
            json!({
                "purchaseUnit": r.purchase_unit,
                "referenceUnit": r.reference_unit,
                "unitName": r.unit_name,
                "price": round(unit_gross / r.purchase_unit * r.reference_unit),
                "listPrice": null,
                "regulationPrice": null,
                "hasRange": false,
                "variantId": null,
                "apiAlias": "cart_price_reference",
            })
        });
    json!({
        "unitPrice": unit_gross,
        "quantity": quantity,
        "totalPrice": total,
        "calculatedTaxes": [{ "tax": tax_amount, "taxRate": tax.rate, "price": total, "apiAlias": "cart_tax_calculated" }],
        "taxRules": [{ "taxRate": tax.rate, "percentage": 100, "apiAlias": "cart_tax_rule" }],
        "referencePrice": reference_price,
        "listPrice": list_price,
        "regulationPrice": regulation_price,
        "apiAlias": "calculated_price",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taxes_list_price_and_reference_price() {
        let tax = Tax {
            id: "t".into(),
            rate: 19.0,
            name: "19%".into(),
        };
        let reference = Reference {
            purchase_unit: 0.5,
            reference_unit: 1.0,
            unit_name: "kg".into(),
        };
        let price = calculated(11.9, 2, &tax, Some(14.9), Some(10.9), Some(&reference));
        assert_eq!(price["totalPrice"], 23.8);
        assert_eq!(price["calculatedTaxes"][0]["tax"], 3.8);
        assert_eq!(price["listPrice"]["discount"], -3.0);
        assert_eq!(price["listPrice"]["percentage"], 20.13);
        assert_eq!(price["regulationPrice"]["price"], 10.9);
        assert_eq!(price["referencePrice"]["price"], 23.8);
        assert!(calculated(10.0, 1, &tax, Some(9.0), None, None)["listPrice"].is_null());
    }
}
