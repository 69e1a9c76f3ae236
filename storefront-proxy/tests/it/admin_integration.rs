//! The Admin API driven the way an integration (an ERP, a fulfilment service) drives
//! Shopware's, against a real hub and shop: it reads taxes and currencies, imports a
//! product with prices through `_action/sync`, finds the orders of a live appointment,
//! moves one through payment and shipping along the state machine, creates and
//! downloads its documents, and cancels it with its stock back; the customer's account
//! shows every new state. Also the GDPR export and anonymisation of a customer.

use reqwest::Method;
use serde_json::{json, Value};

use crate::common::assert_error;
use crate::dsr_support::{start, token_of, As, Live};

/// The fields Shopware's Admin API document requires of an entity (adminApiSchema.json).
fn assert_required(entity: &Value, required: &[&str]) {
    for field in required {
        assert!(
            entity.get(*field).is_some_and(|v| !v.is_null()),
            "{field} missing in {entity}"
        );
    }
}

async fn admin_post(live: &Live, admin: &As, path: &str, body: Value) -> Value {
    let (status, answer) = live.post(&format!("/api{path}"), admin, body).await;
    assert_eq!(status, 200, "POST {path}: {answer}");
    answer
}

async fn search(live: &Live, admin: &As, entity: &str, criteria: Value) -> Vec<Value> {
    admin_post(live, admin, &format!("/search/{entity}"), criteria).await["data"]
        .as_array()
        .unwrap()
        .clone()
}

/// The demo customer joins the demo appointment and orders `quantity` of `product`
/// from the room; answers the order (as the Store API placed it).
async fn order_in_the_room(live: &Live, product: &str, quantity: i64) -> Value {
    let customer = live.customer_login().await;
    let join = live
        .join_as_client("demo", &As::Store(customer), "Cleo")
        .await;
    let attendee = token_of(&join);
    let (status, cart) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &attendee,
            json!({"items": [{"type": "product", "referencedId": product, "quantity": quantity}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    let (status, order) = live
        .post("/store-api/checkout/order", &attendee, json!({}))
        .await;
    assert_eq!(status, 200, "{order}");
    order
}

async fn stock_of(live: &Live, admin: &As, product: &str) -> i64 {
    let (status, body) = live.get(&format!("/api/product/{product}"), admin).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["stock"].as_i64().unwrap()
}

#[tokio::test]
async fn an_integration_reads_settings_imports_products_and_fulfils_an_appointments_order() {
    let live = start().await;
    let admin = As::Guide(live.admin_token().await);

    // Taxes and currencies, as an ERP maps them.
    let taxes = search(
        &live,
        &admin,
        "tax",
        json!({"sort": [{"field": "taxRate", "order": "DESC"}]}),
    )
    .await;
    assert!(!taxes.is_empty());
    for tax in &taxes {
        assert_required(tax, &["id", "taxRate", "name"]);
    }
    let standard = taxes[0]["id"].as_str().unwrap().to_owned();
    let currencies = search(
        &live,
        &admin,
        "currency",
        json!({"filter": [{"type": "equals", "field": "isoCode", "value": "EUR"}]}),
    )
    .await;
    assert_eq!(currencies.len(), 1, "{currencies:?}");
    assert_required(
        &currencies[0],
        &[
            "id",
            "factor",
            "symbol",
            "isoCode",
            "itemRounding",
            "totalRounding",
            "shortName",
            "name",
        ],
    );
    assert_eq!(currencies[0]["itemRounding"]["decimals"], 2);
    let euro = currencies[0]["id"].as_str().unwrap().to_owned();
    for entity in [
        "country",
        "salutation",
        "sales-channel",
        "payment-method",
        "shipping-method",
        "rule",
        "media-folder",
    ] {
        let (status, body) = live
            .post(
                &format!("/api/search/{entity}"),
                &admin,
                json!({"limit": 5}),
            )
            .await;
        assert_eq!(status, 200, "{entity}: {body}");
    }
    let channels = search(&live, &admin, "sales-channel", json!({})).await;
    assert_required(
        &channels[0],
        &["id", "typeId", "languageId", "accessKey", "name"],
    );
    assert!(!channels[0]["paymentMethods"].as_array().unwrap().is_empty());
    let shipping = search(&live, &admin, "shipping-method", json!({"limit": 1})).await;
    assert!(
        shipping[0]["prices"][0]["currencyPrice"][0]["gross"]
            .as_f64()
            .is_some(),
        "{}",
        shipping[0]
    );

    // A product imported with its price.
    let imported = admin_post(
        &live,
        &admin,
        "/_action/sync",
        json!([{"key": "products", "entity": "product", "action": "upsert", "payload": [{
            "productNumber": "ERP-1", "name": "Imported lamp", "active": true, "stock": 10, "taxId": standard,
            "price": [{"currencyId": euro, "gross": 59.5, "net": 50.0, "linked": true}],
        }]}]),
    )
    .await;
    let product = imported["data"]["product"][0].as_str().unwrap().to_owned();
    assert_eq!(stock_of(&live, &admin, &product).await, 10);

    // The guide runs the demo appointment; the customer buys the lamp in it.
    let (_guide, appointment, _) = live.guide_joins("demo").await;
    let placed = order_in_the_room(&live, &product, 2).await;
    let order_id = placed["id"].as_str().unwrap().to_owned();
    assert_eq!(stock_of(&live, &admin, &product).await, 8);

    // The integration finds the orders of the appointment.
    let found = search(
        &live,
        &admin,
        "order",
        json!({
            "filter": [{"type": "equals", "field": "appointmentId", "value": appointment}],
            "sort": [{"field": "orderDateTime", "order": "DESC"}],
        }),
    )
    .await;
    assert_eq!(found.len(), 1, "{found:?}");
    let order = &found[0];
    assert_eq!(order["id"], json!(order_id));
    assert_required(
        order,
        &[
            "id",
            "billingAddressId",
            "currencyId",
            "languageId",
            "salesChannelId",
            "orderDateTime",
            "currencyFactor",
            "stateId",
            "itemRounding",
            "totalRounding",
        ],
    );
    assert_eq!(order["appointment"]["id"], json!(appointment));
    assert_eq!(order["stateMachineState"]["technicalName"], "open");
    assert_eq!(order["lineItems"][0]["quantity"], 2);
    let by_term = search(
        &live,
        &admin,
        "order",
        json!({"term": order["orderNumber"]}),
    )
    .await;
    assert_eq!(by_term.len(), 1);
    let open_payments = search(
        &live,
        &admin,
        "order",
        json!({"filter": [{"type": "equals", "field": "transactions.stateMachineState.technicalName", "value": "open"}, {"type": "equals", "field": "appointment.id", "value": appointment}]}),
    )
    .await;
    assert_eq!(open_payments.len(), 1);
    let transaction = order["transactions"][0]["id"].as_str().unwrap().to_owned();
    let delivery = order["deliveries"][0]["id"].as_str().unwrap().to_owned();

    // Paid, then shipped, along Shopware's state machines.
    let (status, allowed) = live
        .get(
            &format!("/api/_action/state-machine/order_transaction/{transaction}/state"),
            &admin,
        )
        .await;
    assert_eq!(status, 200, "{allowed}");
    let actions: Vec<&str> = allowed["transitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["actionName"].as_str().unwrap())
        .collect();
    assert!(
        actions.contains(&"paid") && actions.contains(&"cancel"),
        "{actions:?}"
    );
    let paid = admin_post(
        &live,
        &admin,
        &format!("/_action/order_transaction/{transaction}/state/paid"),
        json!({}),
    )
    .await;
    assert_eq!(paid["technicalName"], "paid");
    let (status, again) = live
        .post(
            &format!("/api/_action/order_transaction/{transaction}/state/paid"),
            &admin,
            json!({}),
        )
        .await;
    assert_error(&again, 400, "SYSTEM__ILLEGAL_STATE_TRANSITION");
    assert_eq!(status, 400);
    let shipped = admin_post(
        &live,
        &admin,
        &format!("/_action/order_delivery/{delivery}/state/ship"),
        json!({}),
    )
    .await;
    assert_eq!(shipped["technicalName"], "shipped");
    let processing = admin_post(
        &live,
        &admin,
        &format!("/_action/order/{order_id}/state/process"),
        json!({}),
    )
    .await;
    assert_eq!(processing["technicalName"], "in_progress");

    // The customer's account shows the new states.
    let customer = As::Store(live.customer_login().await);
    let (status, mine) = live
        .post(
            "/store-api/order",
            &customer,
            json!({"associations": {"transactions": {}, "deliveries": {}}}),
        )
        .await;
    assert_eq!(status, 200, "{mine}");
    let mine = mine["orders"]["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == json!(order_id))
        .unwrap()
        .clone();
    assert_eq!(mine["stateMachineState"]["technicalName"], "in_progress");
    assert_eq!(
        mine["transactions"][0]["stateMachineState"]["technicalName"],
        "paid"
    );
    assert_eq!(
        mine["deliveries"][0]["stateMachineState"]["technicalName"],
        "shipped"
    );

    // Every change is in the history.
    let history = search(
        &live,
        &admin,
        "state-machine-history",
        json!({"filter": [{"type": "equals", "field": "orderId", "value": order_id}], "sort": [{"field": "createdAt", "order": "ASC"}]}),
    )
    .await;
    let steps: Vec<(&str, &str)> = history
        .iter()
        .map(|h| {
            (
                h["entityName"].as_str().unwrap(),
                h["transitionActionName"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        steps,
        [
            ("order_transaction", "paid"),
            ("order_delivery", "ship"),
            ("order", "process")
        ]
    );
    assert_eq!(history[0]["toStateMachineState"]["technicalName"], "paid");

    // The invoice: created and downloaded.
    let invoice = admin_post(
        &live,
        &admin,
        &format!("/_action/order/{order_id}/document/invoice"),
        json!({}),
    )
    .await;
    let (document, code) = (
        invoice["documentId"].as_str().unwrap(),
        invoice["documentDeepLink"].as_str().unwrap(),
    );
    let response = live
        .request(
            Method::GET,
            &format!("/api/_action/document/{document}/{code}?download=1"),
            &admin,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/pdf");
    assert!(response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment"));
    assert!(response.bytes().await.unwrap().starts_with(b"%PDF-"));
    let (status, wrong) = live
        .get(
            &format!("/api/_action/document/{document}/not-the-code"),
            &admin,
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&wrong, 404, "DOCUMENT__DOCUMENT_NOT_FOUND");
    let (status, unknown) = live
        .post(
            &format!("/api/_action/order/{order_id}/document/receipt"),
            &admin,
            json!({}),
        )
        .await;
    assert_eq!(status, 400);
    assert_error(&unknown, 400, "DOCUMENT__INVALID_GENERATOR_TYPE");

    // Cancelled: the stock comes back; a cancellation invoice refers to the invoice.
    let cancelled = admin_post(
        &live,
        &admin,
        &format!("/_action/order/{order_id}/state/cancel"),
        json!({}),
    )
    .await;
    assert_eq!(cancelled["technicalName"], "cancelled");
    assert_eq!(stock_of(&live, &admin, &product).await, 10);
    let storno = admin_post(
        &live,
        &admin,
        "/_action/order/document/storno/create",
        json!([{"orderId": order_id}]),
    )
    .await;
    assert_eq!(storno["errors"], json!({}), "{storno}");
    let (status, detail) = live.get(&format!("/api/order/{order_id}"), &admin).await;
    assert_eq!(status, 200);
    let types: Vec<&str> = detail["data"]["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["documentType"]["technicalName"].as_str().unwrap())
        .collect();
    assert_eq!(
        types.iter().filter(|t| **t == "invoice").count(),
        2,
        "the order's own and the merchant's: {types:?}"
    );
    assert!(types.contains(&"storno"));

    // Orders are changed through their actions only.
    let (status, refused, _) = live
        .call(
            Method::PATCH,
            &format!("/api/order/{order_id}"),
            &admin,
            Some(json!({"orderNumber": "X"})),
        )
        .await;
    assert_eq!(status, 403, "{refused}");
    let (status, _) = live
        .post(
            &format!("/api/_action/order/{}/state/cancel", "0".repeat(32)),
            &admin,
            json!({}),
        )
        .await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn a_customer_is_exported_and_anonymised_and_their_orders_stay() {
    let live = start().await;
    let admin = As::Guide(live.admin_token().await);
    let zoe = live.register_zoe().await;
    let product = live.product_ids(1).await.remove(0);
    let (status, cart) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &zoe,
            json!({"items": [{"type": "product", "referencedId": product, "quantity": 1}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    let (status, order) = live
        .post("/store-api/checkout/order", &zoe, json!({}))
        .await;
    assert_eq!(status, 200, "{order}");
    let (status, wished) = live
        .post(
            &format!("/store-api/customer/wishlist/add/{product}"),
            &zoe,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{wished}");

    let customers = search(
        &live,
        &admin,
        "customer",
        json!({"term": "zoe@example.com", "associations": {"addresses": {}}}),
    )
    .await;
    assert_eq!(customers.len(), 1);
    let customer = customers[0]["id"].as_str().unwrap().to_owned();
    assert_eq!(customers[0]["orderCount"], 1);
    assert_eq!(customers[0]["addresses"].as_array().unwrap().len(), 1);

    let export = admin_post(
        &live,
        &admin,
        &format!("/_action/customer/{customer}/gdpr-export"),
        json!({}),
    )
    .await;
    assert_eq!(export["customer"]["email"], "zoe@example.com");
    assert_eq!(export["orders"][0]["id"], order["id"]);
    assert_eq!(export["wishlist"][0]["productId"], json!(product));
    assert_eq!(export["addresses"].as_array().unwrap().len(), 1);

    let mails = |live: &Live| -> i64 {
        live.db()
            .query_row(
                "SELECT COUNT(*) FROM mail WHERE recipient = 'zoe@example.com'",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    let (status, body) = live
        .post(
            "/store-api/account/recovery-password",
            &As::Nobody,
            json!({"email": "zoe@example.com", "storefrontUrl": live.base}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(mails(&live), 1, "a recovery mail");
    let done = admin_post(
        &live,
        &admin,
        &format!("/_action/customer/{customer}/anonymize"),
        json!({}),
    )
    .await;
    assert_eq!(done["anonymizedOrders"], 1);
    assert_eq!(mails(&live), 0);
    let (status, gone) = live.get(&format!("/api/customer/{customer}"), &admin).await;
    assert_eq!(status, 404, "{gone}");
    let (status, kept) = live
        .get(
            &format!("/api/order/{}", order["id"].as_str().unwrap()),
            &admin,
        )
        .await;
    assert_eq!(status, 200, "{kept}");
    let snapshot = &kept["data"]["orderCustomer"];
    assert_ne!(snapshot["email"], "zoe@example.com");
    assert_eq!(snapshot["firstName"], "Anonymous");
    assert!(
        !kept["data"].to_string().contains("Zoe"),
        "{}",
        kept["data"]
    );
    let (status, _) = live
        .post(
            &format!("/api/_action/customer/{customer}/gdpr-export"),
            &admin,
            json!({}),
        )
        .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn the_merchant_changes_settings_and_deactivates_a_customer() {
    let live = start().await;
    let admin = As::Guide(live.admin_token().await);

    // Shipping: cost and the cart value from which it is free, as Shopware's price matrix.
    let method = search(&live, &admin, "shipping-method", json!({"limit": 1})).await[0].clone();
    let id = method["id"].as_str().unwrap();
    let prices = json!([
        {"calculation": 2, "quantityStart": 0, "currencyPrice": [{"gross": 7.5, "net": 7.5, "linked": false}]},
        {"calculation": 2, "quantityStart": 80, "currencyPrice": [{"gross": 0, "net": 0, "linked": false}]},
    ]);
    let (status, body) = live
        .patch(
            &format!("/api/shipping-method/{id}"),
            &admin,
            json!({"prices": prices}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    let (_, read) = live
        .get(&format!("/api/shipping-method/{id}"), &admin)
        .await;
    let read = &read["data"]["prices"];
    assert_eq!(read[0]["currencyPrice"][0]["gross"], 7.5);
    assert_eq!(read[1]["quantityStart"], 80.0);
    let (status, refused) = live
        .patch(
            &format!("/api/shipping-method/{id}"),
            &admin,
            json!({"prices": [{"currencyPrice": [{"gross": 5}]}, {"quantityStart": "lots", "currencyPrice": [{"gross": 0}]}]}),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(
        refused["errors"][0]["source"]["pointer"],
        "/0/prices/1/quantityStart"
    );

    // A tax rate, a domain (a URL or nothing), a payment method switched off.
    let (status, created) = live
        .post(
            "/api/tax?_response=basic",
            &admin,
            json!({"name": "Reduced 5 %", "taxRate": 5.0}),
        )
        .await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["data"]["taxRate"], 5.0);
    let channel = search(&live, &admin, "sales-channel", json!({})).await[0].clone();
    let (status, refused) = live
        .post(
            "/api/sales-channel-domain",
            &admin,
            json!({"url": "not a url", "salesChannelId": channel["id"], "languageId": channel["languageId"]}),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    let (status, _) = live
        .post(
            "/api/sales-channel-domain",
            &admin,
            json!({"url": "https://shop.example.com", "salesChannelId": channel["id"], "languageId": channel["languageId"]}),
        )
        .await;
    assert_eq!(status, 204);
    let channels = search(&live, &admin, "sales-channel", json!({})).await;
    assert_eq!(channels[0]["domains"][0]["url"], "https://shop.example.com");
    let (status, refused) = live
        .patch(
            &format!("/api/rule/{}", "1e4a3b2c5d6e4f708192a3b4c5d6e7f8"),
            &admin,
            json!({"name": "x"}),
        )
        .await;
    assert_eq!(status, 403, "{refused}");

    // A customer imported with their address, as an ERP does in one nested write.
    let germany = search(
        &live,
        &admin,
        "country",
        json!({"filter": [{"type": "equals", "field": "iso", "value": "DE"}]}),
    )
    .await[0]["id"]
        .clone();
    let address = "0123456789abcdef0123456789abcd01";
    let imported = admin_post(
        &live,
        &admin,
        "/_action/sync",
        json!([{"key": "customers", "entity": "customer", "action": "upsert", "payload": [{
            "firstName": "Erp", "lastName": "Import", "email": "erp@example.com",
            "defaultBillingAddressId": address, "defaultShippingAddressId": address,
            "addresses": [{"id": address, "firstName": "Erp", "lastName": "Import", "street": "Kai 1", "zipcode": "20457", "city": "Hamburg", "countryId": germany}],
        }]}]),
    )
    .await;
    let imported = imported["data"]["customer"][0].as_str().unwrap().to_owned();
    let (_, read) = live.get(&format!("/api/customer/{imported}"), &admin).await;
    assert_eq!(
        read["data"]["defaultBillingAddress"]["city"], "Hamburg",
        "{read}"
    );
    assert_eq!(read["data"]["addresses"].as_array().unwrap().len(), 1);
    assert!(read["data"]["customerNumber"].as_str().is_some());
    let (status, refused) = live
        .patch(
            &format!("/api/customer/{imported}"),
            &admin,
            json!({"defaultBillingAddressId": "0123456789abcdef0123456789abcd99"}),
        )
        .await;
    assert_eq!(status, 400, "{refused}");

    // A deactivated customer cannot log in any more.
    let customers = search(
        &live,
        &admin,
        "customer",
        json!({"filter": [{"type": "equals", "field": "email", "value": "demo@example.com"}]}),
    )
    .await;
    let customer = customers[0]["id"].as_str().unwrap();
    let (status, _) = live
        .patch(
            &format!("/api/customer/{customer}"),
            &admin,
            json!({"active": false}),
        )
        .await;
    assert_eq!(status, 204);
    let (status, refused, _) = live
        .call(
            Method::POST,
            "/store-api/account/login",
            &As::Nobody,
            Some(json!({"username": "demo@example.com", "password": "salesroom"})),
        )
        .await;
    assert_ne!(status, 200, "{refused}");
}

/// Shopware's criteria `aggregations` on an Admin API search (the dashboard's revenue):
/// computed over every order the filters select, not only the page, answered by name.
#[tokio::test]
async fn order_searches_answer_sum_count_and_terms_aggregations_over_every_page() {
    let live = start().await;
    let admin = As::Guide(live.admin_token().await);
    let products = live.product_ids(2).await;
    let (_guide, appointment, _) = live.guide_joins("demo").await;
    let first = order_in_the_room(&live, &products[0], 1).await;
    let second = order_in_the_room(&live, &products[1], 2).await;
    let revenue = first["amountTotal"].as_f64().unwrap() + second["amountTotal"].as_f64().unwrap();

    let answer = admin_post(
        &live,
        &admin,
        "/search/order",
        json!({
            "limit": 1,
            "filter": [{"type": "equals", "field": "appointmentId", "value": appointment}],
            "aggregations": [
                {"name": "revenue", "type": "sum", "field": "amountTotal"},
                {"name": "orders", "type": "count", "field": "id"},
                {"name": "states", "type": "terms", "field": "stateMachineState.technicalName"},
                {"name": "totals", "type": "stats", "field": "order.amountTotal"},
                {"name": "not-cancelled", "type": "filter",
                 "filter": [{"type": "not", "operator": "and", "queries": [{"type": "equals", "field": "stateMachineState.technicalName", "value": "cancelled"}]}],
                 "aggregation": {"name": "per-currency", "type": "terms", "field": "currency.isoCode",
                                 "aggregation": {"name": "revenue", "type": "sum", "field": "amountTotal"}}},
            ],
        }),
    )
    .await;
    assert_eq!(answer["data"].as_array().unwrap().len(), 1, "{answer}");
    let aggregations = &answer["aggregations"];
    let sum = aggregations["revenue"]["sum"].as_f64().unwrap();
    assert!(
        (sum - revenue).abs() < 0.001,
        "{sum} != {revenue}: {answer}"
    );
    assert_eq!(aggregations["revenue"]["apiAlias"], "revenue_aggregation");
    assert_eq!(aggregations["orders"]["count"], 2, "{aggregations}");
    assert_eq!(
        aggregations["states"]["buckets"],
        json!([{"key": "open", "count": 2, "extensions": [], "apiAlias": "aggregation_bucket"}])
    );
    let currencies = aggregations["per-currency"]["buckets"].as_array().unwrap();
    assert_eq!(currencies.len(), 1, "{aggregations}");
    assert_eq!(currencies[0]["key"], "EUR");
    assert_eq!(currencies[0]["count"], 2);
    let per_currency = currencies[0]["revenue"]["sum"].as_f64().unwrap();
    assert!((per_currency - revenue).abs() < 0.001, "{aggregations}");
    let max = aggregations["totals"]["max"].as_f64().unwrap();
    let highest = first["amountTotal"]
        .as_f64()
        .unwrap()
        .max(second["amountTotal"].as_f64().unwrap());
    assert!((max - highest).abs() < 0.001, "{aggregations}");

    // Filters narrow them; no match sums to 0; without aggregations the answer keeps `[]`.
    let none = admin_post(
        &live,
        &admin,
        "/search/order",
        json!({
            "filter": [{"type": "equals", "field": "orderNumber", "value": "no such order"}],
            "aggregations": [{"name": "revenue", "type": "sum", "field": "amountTotal"}],
        }),
    )
    .await;
    assert_eq!(none["aggregations"]["revenue"]["sum"], 0.0, "{none}");
    // A cancelled order leaves the filtered revenue.
    let order_id = first["id"].as_str().unwrap();
    let (status, body) = live
        .post(
            &format!("/api/_action/order/{order_id}/state/cancel"),
            &admin,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let after = admin_post(
        &live,
        &admin,
        "/search/order",
        json!({"aggregations": [{"name": "kept", "type": "filter",
            "filter": [{"type": "not", "operator": "and", "queries": [{"type": "equals", "field": "stateMachineState.technicalName", "value": "cancelled"}]}],
            "aggregation": {"name": "revenue", "type": "sum", "field": "amountTotal"}}]}),
    )
    .await;
    let kept = after["aggregations"]["revenue"]["sum"].as_f64().unwrap();
    assert!(
        (kept - second["amountTotal"].as_f64().unwrap()).abs() < 0.001,
        "{after}"
    );
    let plain = admin_post(&live, &admin, "/search/order", json!({})).await;
    assert_eq!(plain["aggregations"], json!([]));

    // An unknown type, an unknown field or a to-many association: 400 at its pointer.
    for (aggregation, pointer) in [
        (
            json!({"name": "x", "type": "median", "field": "amountTotal"}),
            "/aggregations/0/type",
        ),
        (
            json!({"name": "x", "type": "sum", "field": "password"}),
            "/aggregations/0/field",
        ),
        (
            json!({"name": "x", "type": "terms", "field": "transactions.stateMachineState.technicalName"}),
            "/aggregations/0/field",
        ),
        (
            json!({"type": "sum", "field": "amountTotal"}),
            "/aggregations/0/name",
        ),
    ] {
        let (status, refused) = live
            .post(
                "/api/search/order",
                &admin,
                json!({"aggregations": [aggregation]}),
            )
            .await;
        assert_eq!(status, 400, "{refused}");
        assert_eq!(
            refused["errors"][0]["code"],
            "FRAMEWORK__INVALID_AGGREGATION_QUERY"
        );
        assert_eq!(
            refused["errors"][0]["source"]["pointer"], pointer,
            "{refused}"
        );
    }
}
