//! Cart calculation: line items checked against the catalogue (existence, stock,
//! minimum, maximum, purchase steps; adjustments are written back and reported once
//! as cart errors), prices per quantity, promotion discounts split over tax rates,
//! and the cart total.

use std::collections::BTreeMap;

use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde_json::{json, Map, Value};

use super::discount::Discount;
use crate::catalog::price::{self, round, Tax};
use crate::catalog::product;
use crate::checkout::methods;
use crate::storage::now_rfc3339;
use crate::storage::translation;
use crate::store_api::ShopContext;

/// A problem found while calculating, answered once in `errors`.
#[derive(Debug, Clone)]
pub struct CartError {
    /// `messageKey`, e.g. `product-not-found`.
    pub message_key: &'static str,
    /// What it is about (line item id or promotion code); the key is both joined.
    pub subject: String,
    /// 0 notice, 10 warning, 20 error.
    pub level: i64,
    pub message: String,
}

#[derive(Debug, Clone)]
pub struct StoredItem {
    pub id: String,
    pub kind: String,
    pub referenced_id: String,
    pub quantity: i64,
}

pub fn load_items(conn: &Connection, token: &str) -> rusqlite::Result<Vec<StoredItem>> {
    let mut statement =
        conn.prepare_cached("SELECT id, type, referenced_id, quantity FROM cart_line_item WHERE token = ?1 ORDER BY position")?;
    let rows = statement
        .query_map([token], |r| Ok(StoredItem { id: r.get(0)?, kind: r.get(1)?, referenced_id: r.get(2)?, quantity: r.get(3)? }))?;
    rows.collect()
}

/// Creates the cart row of `token` if missing.
pub fn ensure_cart(tx: &Transaction, token: &str) -> rusqlite::Result<()> {
    let now = now_rfc3339();
    tx.execute(
        "INSERT INTO cart (token, created_at, updated_at) VALUES (?1, ?2, ?2) ON CONFLICT (token) DO UPDATE SET updated_at = ?2",
        params![token, now],
    )?;
    Ok(())
}

/// Adds `quantity` of an item, or to the item with the same id.
pub fn add_item(tx: &Transaction, token: &str, id: &str, kind: &str, referenced_id: &str, quantity: i64) -> rusqlite::Result<()> {
    ensure_cart(tx, token)?;
    tx.execute(
        "INSERT INTO cart_line_item (token, id, type, referenced_id, quantity, position)
         VALUES (?1, ?2, ?3, ?4, ?5, (SELECT COALESCE(MAX(position), 0) + 1 FROM cart_line_item WHERE token = ?1))
         ON CONFLICT (token, id) DO UPDATE SET quantity = CASE WHEN type IN ('promotion', 'discount') THEN 1 ELSE MIN(quantity + excluded.quantity, 1000000) END",
        params![token, id, kind, referenced_id, quantity],
    )?;
    Ok(())
}

/// Moves the items of the carts of `from` into the cart of `to` (quantities of the
/// same item add up). Used when a guest logs in.
pub fn merge(tx: &Transaction, from: &[String], to: &str) -> rusqlite::Result<()> {
    for source in from.iter().filter(|t| t.as_str() != to) {
        for item in load_items(tx, source)? {
            add_item(tx, to, &item.id, &item.kind, &item.referenced_id, item.quantity)?;
        }
        tx.execute("DELETE FROM cart WHERE token = ?1", [source])?;
    }
    Ok(())
}

fn remove(conn: &Connection, token: &str, id: &str) -> rusqlite::Result<()> {
    conn.execute("DELETE FROM cart_line_item WHERE token = ?1 AND id = ?2", [token, id])?;
    Ok(())
}

/// A promotion valid now for `code`: (id, name, type, value).
pub fn promotion(conn: &Connection, ctx: &ShopContext, code: &str) -> rusqlite::Result<Option<(String, String, String, f64)>> {
    let now = now_rfc3339();
    let found: Option<(String, String, f64)> = conn
        .query_row(
            "SELECT id, discount_type, discount_value FROM promotion WHERE code = ?1 AND active = 1
             AND (valid_from IS NULL OR valid_from <= ?2) AND (valid_until IS NULL OR valid_until >= ?2)
             AND (max_redemptions_global IS NULL
                  OR max_redemptions_global > (SELECT COUNT(DISTINCT o.order_id) FROM order_line_item o WHERE o.promotion_id = promotion.id))",
            [code, &now],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let Some((id, kind, value)) = found else { return Ok(None) };
    const NAME: &[(&str, &str)] = &[("name", "name")];
    let names = translation::load(conn, "promotion_translation", "promotion_id", NAME, std::slice::from_ref(&id), &ctx.languages)?;
    let name = translation::get(&names, &id, NAME)["name"].as_str().unwrap_or(code).to_owned();
    Ok(Some((id, name, kind, value)))
}

fn tax_of(product: &Value) -> Tax {
    Tax {
        id: product["tax"]["id"].as_str().unwrap_or_default().to_owned(),
        rate: product["tax"]["taxRate"].as_f64().unwrap_or(0.0),
        name: product["tax"]["name"].as_str().unwrap_or_default().to_owned(),
    }
}

/// The unit price for `quantity`: the advanced price tier it falls in, else the price.
fn unit_price(product: &Value, quantity: i64) -> f64 {
    let tiers = product["calculatedPrices"].as_array().cloned().unwrap_or_default();
    if tiers.is_empty() {
        return product["calculatedPrice"]["unitPrice"].as_f64().unwrap_or(0.0);
    }
    tiers
        .iter()
        .find(|t| t["quantity"].as_i64().unwrap_or(0) >= quantity)
        .or(tiers.last())
        .and_then(|t| t["unitPrice"].as_f64())
        .unwrap_or(0.0)
}

fn adjust(message_key: &'static str, id: &str, level: i64, message: String, errors: &mut Vec<CartError>) {
    errors.push(CartError { message_key, subject: id.to_owned(), level, message });
}

/// Recalculates the cart of `token`, writing quantity fixes and removals back, and
/// answers the `Cart` with `errors` (those found now, plus `reported`).
pub fn calculate(conn: &mut Connection, ctx: &ShopContext, token: &str, errors: Vec<CartError>) -> rusqlite::Result<Value> {
    calculate_with(conn, ctx, token, errors, Vec::new())
}

/// [`calculate`], with `extra` items counted as if they were in the cart (not stored):
/// the live room's temporary cart, a cart with the guide's draft discount.
pub fn calculate_with(
    conn: &mut Connection,
    ctx: &ShopContext,
    token: &str,
    mut errors: Vec<CartError>,
    extra: Vec<StoredItem>,
) -> rusqlite::Result<Value> {
    let tx = conn.transaction()?;
    errors.extend(super::checks::address_errors(&tx, token)?);
    let mut items = load_items(&tx, token)?;
    items.extend(extra);
    let product_ids: Vec<String> = items.iter().filter(|i| i.kind == "product").map(|i| i.referenced_id.clone()).collect();
    let products = product::load(&tx, ctx, &product_ids, product::Load::default())?;
    let mut line_items = Vec::new();
    // Gross totals of goods per tax rate (rate as text keeps the map ordered and exact).
    let mut by_rate: BTreeMap<String, (f64, Tax)> = BTreeMap::new();
    let mut promotions = Vec::new();
    let mut discounts = Vec::new();
    // Each product line: (id, tax rate key, gross total), for discounts on some lines.
    let mut product_lines: Vec<(String, String, f64)> = Vec::new();
    let mut all_shipping_free = true;
    for item in items {
        if item.kind == "promotion" {
            promotions.push(item);
            continue;
        }
        if item.kind == "discount" {
            discounts.push(item);
            continue;
        }
        let product = products.iter().find(|p| p["id"] == json!(item.referenced_id));
        let Some(product) = product.filter(|p| p["childCount"].as_i64().unwrap_or(0) == 0) else {
            remove(&tx, token, &item.id)?;
            adjust("product-not-found", &item.id, 20, "The product could not be found.".into(), &mut errors);
            continue;
        };
        let name = product["translated"]["name"].as_str().unwrap_or_default().to_owned();
        if product["available"] == json!(false) || product["calculatedMaxPurchase"].as_i64() == Some(0) {
            remove(&tx, token, &item.id)?;
            adjust("product-out-of-stock", &item.id, 20, format!("The product {name} is no longer available."), &mut errors);
            continue;
        }
        let min = product["minPurchase"].as_i64().unwrap_or(1).max(1);
        let steps = product["purchaseSteps"].as_i64().unwrap_or(1).max(1);
        let max = product["calculatedMaxPurchase"].as_i64().unwrap_or(product::DEFAULT_MAX_PURCHASE).max(min);
        let closeout = product["isCloseout"].as_bool().unwrap_or(false);
        let mut quantity = item.quantity;
        if quantity < min {
            quantity = min;
            adjust("min-order-quantity", &item.id, 10, format!("The quantity of {name} was raised to the minimum of {min}."), &mut errors);
        }
        if (quantity - min) % steps != 0 {
            quantity = min + (quantity - min) / steps * steps;
            adjust(
                "purchase-steps-quantity",
                &item.id,
                10,
                format!("{name} is sold in steps of {steps}; the quantity was set to {quantity}."),
                &mut errors,
            );
        }
        if quantity > max {
            quantity = min + (max - min) / steps * steps;
            let key = if closeout { "product-stock-reached" } else { "max-order-quantity" };
            adjust(key, &item.id, 10, format!("Only {quantity} of {name} can be ordered; the quantity was reduced."), &mut errors);
        }
        if quantity != item.quantity {
            tx.execute("UPDATE cart_line_item SET quantity = ?1 WHERE token = ?2 AND id = ?3", params![quantity, token, item.id])?;
        }
        all_shipping_free &= product["shippingFree"].as_bool().unwrap_or(false);
        let tax = tax_of(product);
        let unit = unit_price(product, quantity);
        let list = product["calculatedPrice"]["listPrice"]["price"].as_f64();
        let line_price = price::calculated(unit, quantity, &tax, list, None, None);
        let total = line_price["totalPrice"].as_f64().unwrap_or(0.0);
        let rate_key = format!("{:08.3}", tax.rate);
        product_lines.push((item.id.clone(), rate_key.clone(), total));
        let entry = by_rate.entry(rate_key).or_insert((0.0, tax.clone()));
        entry.0 += total;
        line_items.push(json!({
            "id": item.id,
            "referencedId": item.referenced_id,
            "label": name,
            "quantity": quantity,
            "type": "product",
            "good": true,
            "removable": true,
            "stackable": true,
            "modified": false,
            "description": null,
            "cover": product["cover"]["media"],
            "price": line_price,
            "priceDefinition": {
                "price": unit,
                "quantity": quantity,
                "isCalculated": true,
                "taxRules": [{ "taxRate": tax.rate, "percentage": 100, "apiAlias": "cart_tax_rule" }],
                "listPrice": list,
                "referencePriceDefinition": null,
                "type": "quantity",
                "apiAlias": "cart_price_quantity",
            },
            "quantityInformation": { "minPurchase": min, "maxPurchase": max, "purchaseSteps": steps, "apiAlias": "cart_line_item_quantity_information" },
            "deliveryInformation": {
                "stock": product["availableStock"],
                "weight": product["weight"],
                "freeDelivery": product["shippingFree"],
                "restockTime": product["restockTime"],
                "deliveryTime": cart_delivery_time(&product["deliveryTime"]),
                "height": product["height"],
                "width": product["width"],
                "length": product["length"],
                "apiAlias": "cart_delivery_information",
            },
            "payload": {
                "productNumber": product["productNumber"],
                "manufacturerId": product["manufacturerId"],
                "taxId": product["taxId"],
                "isCloseout": product["isCloseout"],
                "options": product["options"].as_array().into_iter().flatten().map(|o| json!({ "group": o["group"]["translated"]["name"], "option": o["translated"]["name"] })).collect::<Vec<_>>(),
                "isNew": product["isNew"],
                "markAsTopseller": product["markAsTopseller"],
                "shippingFree": product["shippingFree"],
            },
            "states": if product["type"] == json!("digital") { json!(["is-download"]) } else { json!(["is-physical"]) },
            "uniqueIdentifier": item.id,
            "apiAlias": "cart_line_item",
        }));
    }

    let goods: f64 = by_rate.values().map(|(gross, _)| gross).sum();
    let mut discounts_by_rate: BTreeMap<String, f64> = BTreeMap::new();
    for item in promotions {
        let Some((promotion_id, name, kind, value)) = promotion(&tx, ctx, &item.referenced_id)? else {
            remove(&tx, token, &item.id)?;
            adjust(
                "promotion-not-found",
                &item.referenced_id,
                20,
                format!("Promotion with code \"{}\" could not be found.", item.referenced_id),
                &mut errors,
            );
            continue;
        };
        let discount = round(match kind.as_str() {
            "percentage" => goods * value / 100.0,
            _ => value.min(goods),
        });
        // The discount reduces each tax rate's goods in proportion.
        let mut taxes = Vec::new();
        for (key, (gross, tax)) in &by_rate {
            let share = if goods > 0.0 { round(discount * gross / goods) } else { 0.0 };
            *discounts_by_rate.entry(key.clone()).or_default() += share;
            taxes.push(json!({ "tax": -round(share * tax.rate / (100.0 + tax.rate)), "taxRate": tax.rate, "price": -share, "apiAlias": "cart_tax_calculated" }));
        }
        line_items.push(json!({
            "id": item.id,
            "referencedId": item.referenced_id,
            "label": name,
            "quantity": 1,
            "type": "promotion",
            "good": false,
            "removable": true,
            "stackable": false,
            "modified": false,
            "description": name,
            "price": {
                "unitPrice": -discount,
                "quantity": 1,
                "totalPrice": -discount,
                "calculatedTaxes": taxes,
                "taxRules": by_rate.values().map(|(_, t)| json!({ "taxRate": t.rate, "percentage": 100, "apiAlias": "cart_tax_rule" })).collect::<Vec<_>>(),
                "referencePrice": null,
                "listPrice": null,
                "regulationPrice": null,
                "apiAlias": "calculated_price",
            },
            "payload": { "code": item.referenced_id, "promotionId": promotion_id, "discountType": kind, "value": value },
            "states": [],
            "uniqueIdentifier": item.id,
            "apiAlias": "cart_line_item",
        }));
    }
    for item in discounts {
        let Some(discount) = Discount::parse(&item.referenced_id) else {
            remove(&tx, token, &item.id)?;
            continue;
        };
        // What it applies to per tax rate, never more than promotions left of it.
        let mut base: BTreeMap<String, f64> = BTreeMap::new();
        for (id, key, total) in &product_lines {
            if discount.applied_item_ids.is_empty() || discount.applied_item_ids.contains(id) {
                *base.entry(key.clone()).or_default() += total;
            }
        }
        for (key, amount) in base.iter_mut() {
            let left = by_rate.get(key).map(|(gross, _)| *gross).unwrap_or(0.0) - discounts_by_rate.get(key).copied().unwrap_or(0.0);
            *amount = amount.min(left).max(0.0);
        }
        let base_total: f64 = base.values().sum();
        let amount = round(discount.amount(base_total));
        let mut taxes = Vec::new();
        for (key, part) in &base {
            let (_, tax) = &by_rate[key];
            let share = if base_total > 0.0 { round(amount * part / base_total) } else { 0.0 };
            *discounts_by_rate.entry(key.clone()).or_default() += share;
            taxes.push(json!({ "tax": -round(share * tax.rate / (100.0 + tax.rate)), "taxRate": tax.rate, "price": -share, "apiAlias": "cart_tax_calculated" }));
        }
        line_items.push(json!({
            "id": item.id,
            "referencedId": item.id,
            "label": "Discount",
            "quantity": 1,
            "type": "discount",
            "good": false,
            "removable": false,
            "stackable": false,
            "modified": false,
            "description": null,
            "price": {
                "unitPrice": -amount,
                "quantity": 1,
                "totalPrice": -amount,
                "calculatedTaxes": taxes,
                "taxRules": base.keys().map(|k| json!({ "taxRate": by_rate[k].1.rate, "percentage": 100, "apiAlias": "cart_tax_rule" })).collect::<Vec<_>>(),
                "referencePrice": null,
                "listPrice": null,
                "regulationPrice": null,
                "apiAlias": "calculated_price",
            },
            "payload": {
                "discountType": discount.discount_type,
                "value": discount.discount_value,
                "appliedItemIds": discount.applied_item_ids,
            },
            "states": [],
            "uniqueIdentifier": item.id,
            "apiAlias": "cart_line_item",
        }));
    }
    // One delivery with the session's shipping method; free from its limit, or when
    // every product ships free. Its tax is the highest rate of the goods ("auto").
    let mut deliveries = Vec::new();
    let mut shipping_total = 0.0;
    let mut shipping_tax: Option<(String, Tax, f64)> = None;
    if !by_rate.is_empty() {
        let (_, shipping_id) = methods::chosen(&tx, ctx, Some(token))?;
        let method = match &shipping_id {
            Some(id) => methods::load_shipping_methods(&tx, &ctx.languages, Some(id))?.into_iter().next(),
            None => None,
        };
        if let Some(method) = method {
            let price = &method["prices"][0];
            let free_from = price["freeFrom"].as_f64();
            let gross = price["currencyPrice"][0]["gross"].as_f64().unwrap_or(0.0);
            let cost = if all_shipping_free || free_from.is_some_and(|limit| goods >= limit) { 0.0 } else { gross };
            let (key, (_, tax)) =
                by_rate.iter().max_by(|a, b| a.1 .1.rate.total_cmp(&b.1 .1.rate)).map(|(k, v)| (k.clone(), v.clone())).unwrap_or_default();
            let costs = price::calculated(cost, 1, &tax, None, None, None);
            shipping_total = cost;
            shipping_tax = Some((key, tax, cost));
            let country_id: Option<String> = tx.query_row(
                "SELECT COALESCE(s.country_id, c.country_id) FROM store_context s JOIN sales_channel c ON c.id = s.sales_channel_id WHERE s.token = ?1",
                [token],
                |r| r.get(0),
            ).optional()?.flatten();
            let country = match &country_id {
                Some(id) => {
                    crate::settings::load_countries(&tx, &ctx.languages, Some(id), false)?.into_iter().next().unwrap_or(Value::Null)
                }
                None => Value::Null,
            };
            let (min, max, unit) = (
                method["deliveryTime"]["min"].as_i64().unwrap_or(1),
                method["deliveryTime"]["max"].as_i64().unwrap_or(1),
                method["deliveryTime"]["unit"].as_str().unwrap_or("day").to_owned(),
            );
            let days = |n: i64| match unit.as_str() {
                "week" => n * 7,
                "month" => n * 30,
                "year" => n * 365,
                "hour" => 0,
                _ => n,
            };
            let date = |n: i64| {
                (time::OffsetDateTime::now_utc() + time::Duration::days(days(n)))
                    .replace_nanosecond(0)
                    .ok()
                    .and_then(|d| d.format(&time::format_description::well_known::Rfc3339).ok())
            };
            deliveries.push(json!({
                "deliveryDate": { "earliest": date(min), "latest": date(max), "apiAlias": "cart_delivery_date" },
                "location": { "country": country, "state": null, "address": null, "apiAlias": "cart_delivery_shipping_location" },
                "positions": [],
                "shippingCosts": costs,
                "shippingMethod": method,
                "apiAlias": "cart_delivery",
            }));
        }
    }
    tx.commit()?;

    let mut calculated_taxes = Vec::new();
    let mut tax_total = 0.0;
    let mut position_price = 0.0;
    for (key, (gross, tax)) in &by_rate {
        let shipping = shipping_tax.as_ref().filter(|(k, _, _)| k == key).map(|(_, _, cost)| *cost).unwrap_or(0.0);
        let price = round((gross - discounts_by_rate.get(key).copied().unwrap_or(0.0)).max(0.0) + shipping);
        let amount = round(price * tax.rate / (100.0 + tax.rate));
        tax_total += amount;
        position_price += price;
        calculated_taxes.push(json!({ "tax": amount, "taxRate": tax.rate, "price": price, "apiAlias": "cart_tax_calculated" }));
    }
    let total_price = round(position_price);
    let position_price = round(position_price - shipping_total);
    let error_map: Map<String, Value> = errors
        .iter()
        .map(|e| {
            let key = format!("{}{}", e.message_key, e.subject);
            (key.clone(), json!({ "code": 0, "key": key, "level": e.level, "message": e.message, "messageKey": e.message_key }))
        })
        .collect();
    Ok(json!({
        "name": "sales-channel",
        "token": token,
        "price": {
            "netPrice": round(total_price - tax_total),
            "totalPrice": total_price,
            "positionPrice": position_price,
            "rawTotal": total_price,
            "taxStatus": "gross",
            "calculatedTaxes": calculated_taxes,
            "taxRules": by_rate.values().map(|(_, t)| json!({ "taxRate": t.rate, "percentage": 100, "apiAlias": "cart_tax_rule" })).collect::<Vec<_>>(),
            "apiAlias": "cart_price",
        },
        "lineItems": line_items,
        "errors": if error_map.is_empty() { json!([]) } else { Value::Object(error_map) },
        "deliveries": deliveries,
        "transactions": [],
        "modified": !errors.is_empty(),
        "customerComment": null,
        "affiliateCode": null,
        "campaignCode": null,
        "apiAlias": "cart",
    }))
}

/// A product's delivery time as the cart carries it (`cart_delivery_time`: no id).
fn cart_delivery_time(time: &Value) -> Value {
    if !time.is_object() {
        return Value::Null;
    }
    json!({
        "name": time["translated"]["name"].as_str().or(time["name"].as_str()),
        "min": time["min"],
        "max": time["max"],
        "unit": time["unit"],
        "apiAlias": "cart_delivery_time",
    })
}
