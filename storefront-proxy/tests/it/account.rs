//! Accounts against a real shop: login and logout of the demo customer,
//! registration (also as guest), addresses, and switching the session's context.

use crate::common;

use common::{assert_error, elements, start, Shop};
use reqwest::Method;
use serde_json::{json, Value};

async fn login(shop: &Shop, username: &str, password: &str) -> (u16, Value, Option<String>) {
    let (status, body, headers) = shop
        .call(
            Method::POST,
            "/account/login",
            &[],
            Some(json!({"username": username, "password": password})),
        )
        .await;
    (
        status,
        body,
        headers
            .get("sw-context-token")
            .map(|v| v.to_str().unwrap().to_owned()),
    )
}

async fn demo_token(shop: &Shop) -> String {
    let (status, body, token) = login(shop, "demo@example.com", "salesroom").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["contextToken"], token.clone().unwrap().as_str());
    token.unwrap()
}

async fn germany(shop: &Shop) -> (String, String) {
    let (_, countries) = shop
        .post("/country", json!({"associations": {"states": {}}}))
        .await;
    let germany = elements(&countries)
        .into_iter()
        .find(|c| c["iso"] == "DE")
        .unwrap();
    let bavaria = germany["states"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["shortCode"] == "DE-BY")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    (germany["id"].as_str().unwrap().to_owned(), bavaria)
}

#[tokio::test]
async fn the_demo_customer_logs_in_and_out() {
    let shop = start().await;
    let (status, body, _) = login(&shop, "demo@example.com", "wrong-password").await;
    assert_eq!(status, 401);
    assert_error(&body, 401, "CHECKOUT__CUSTOMER_AUTH_BAD_CREDENTIALS");
    let (status, _, _) = login(&shop, "nobody@example.com", "salesroom").await;
    assert_eq!(status, 401);

    let token = demo_token(&shop).await;
    let (status, customer) = shop
        .post_with(
            "/account/customer",
            &[("sw-context-token", &token)],
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{customer}");
    assert_eq!(customer["apiAlias"], "customer");
    assert_eq!(customer["email"], "demo@example.com");
    assert_eq!(customer["guest"], false);
    assert_eq!(customer["defaultBillingAddress"]["country"]["iso"], "DE");
    assert_eq!(customer["activeShippingAddress"]["city"], "Berlin");
    assert_eq!(customer["group"]["name"], "Standard customer group");
    let (_, context) = shop.get("/context", &[("sw-context-token", &token)]).await;
    assert_eq!(context["customer"]["id"], customer["id"]);
    assert_eq!(context["shippingLocation"]["address"]["city"], "Berlin");

    // A customers-only appointment lets the logged-in customer in.
    let (status, joined) = shop
        .post_with(
            "/dsr/appointment/demo-customers/join-as-client",
            &[("sw-context-token", &token)],
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{joined}");

    let (status, body, headers) = shop
        .call(
            Method::POST,
            "/account/logout",
            &[("sw-context-token", &token)],
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let fresh = headers["sw-context-token"].to_str().unwrap();
    assert_ne!(fresh, token);
    let (status, body) = shop
        .post_with(
            "/account/customer",
            &[("sw-context-token", &token)],
            json!({}),
        )
        .await;
    assert_eq!(status, 403);
    assert_error(&body, 403, "CHECKOUT__CUSTOMER_NOT_LOGGED_IN");
    let (status, _) = shop
        .post_with(
            "/account/customer",
            &[("sw-context-token", fresh)],
            json!({}),
        )
        .await;
    assert_eq!(status, 403);
    let (status, _) = shop.post("/account/customer", json!({})).await;
    assert_eq!(status, 403);
    let (status, _, _) = shop.call(Method::POST, "/account/logout", &[], None).await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn registration_validates_everything_and_logs_in() {
    let shop = start().await;
    let (country, state) = germany(&shop).await;
    let (status, body) =
        shop.post("/account/register", json!({"email": "not-an-email", "password": "short", "billingAddress": {"city": "Berlin"}})).await;
    assert_eq!(status, 400, "{body}");
    let errors = body["errors"].as_array().unwrap();
    let pointer_codes: Vec<(String, String)> = errors
        .iter()
        .map(|e| {
            (
                e["source"]["pointer"].as_str().unwrap().to_owned(),
                e["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        pointer_codes.contains(&("/password".into(), "VIOLATION::TOO_SHORT_ERROR".into())),
        "{pointer_codes:?}"
    );
    assert!(
        pointer_codes.contains(&("/firstName".into(), "VIOLATION::IS_BLANK_ERROR".into())),
        "{pointer_codes:?}"
    );

    let valid = json!({
        "email": "ada@example.com",
        "password": "correct horse battery",
        "firstName": "Ada",
        "lastName": "Lovelace",
        "acceptedDataProtection": true,
        "storefrontUrl": shop.base,
        "billingAddress": {"street": "Main Street 1", "zipcode": "80331", "city": "Munich", "countryId": country, "countryStateId": state},
    });
    let mut bad = valid.clone();
    bad["email"] = json!("ada-at-example.com");
    bad["billingAddress"]["street"] = json!("");
    bad["billingAddress"]["countryId"] = json!("0123456789abcdef0123456789abcdef");
    let (status, body) = shop.post("/account/register", bad).await;
    assert_eq!(status, 400, "{body}");
    let pointers: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["source"]["pointer"].as_str().unwrap())
        .collect();
    assert!(
        pointers.contains(&"/email")
            && pointers.contains(&"/billingAddress/street")
            && pointers.contains(&"/billingAddress/countryId"),
        "{pointers:?}"
    );

    let mut taken = valid.clone();
    taken["email"] = json!("Demo@Example.com");
    let (status, body) = shop.post("/account/register", taken).await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "VIOLATION::CUSTOMER_EMAIL_NOT_UNIQUE");
    // Nothing of the refused registrations was written.
    let (status, _, _) = login(&shop, "ada@example.com", "correct horse battery").await;
    assert_eq!(status, 401);

    let (status, customer, headers) = shop
        .call(Method::POST, "/account/register", &[], Some(valid.clone()))
        .await;
    assert_eq!(status, 200, "{customer}");
    assert_eq!(customer["firstName"], "Ada");
    assert_eq!(
        customer["defaultBillingAddress"]["firstName"], "Ada",
        "address names default to the customer's"
    );
    assert_eq!(
        customer["defaultBillingAddress"]["countryState"]["shortCode"],
        "DE-BY"
    );
    assert_eq!(
        customer["defaultShippingAddressId"],
        customer["defaultBillingAddressId"]
    );
    let token = headers["sw-context-token"].to_str().unwrap();
    let (_, me) = shop
        .post_with(
            "/account/customer",
            &[("sw-context-token", token)],
            json!({}),
        )
        .await;
    assert_eq!(me["email"], "ada@example.com");
    let (status, _, _) = login(&shop, "ADA@example.com", "correct horse battery").await;
    assert_eq!(status, 200);
    let (status, _) = shop.post("/account/register", valid).await;
    assert_eq!(status, 400, "the email is taken now");

    // Guests need no password, may reuse an email, and cannot log in.
    let guest = json!({
        "guest": true, "email": "guest@example.com", "firstName": "Gus", "lastName": "Guest",
        "billingAddress": {"street": "Side Street 2", "zipcode": "10115", "city": "Berlin", "countryId": country},
    });
    let (status, first) = shop.post("/account/register", guest.clone()).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["guest"], true);
    let (status, second) = shop.post("/account/register", guest).await;
    assert_eq!(status, 200, "{second}");
    assert_ne!(first["id"], second["id"]);
    let (status, _, _) = login(&shop, "guest@example.com", "").await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn addresses_are_listed_created_updated_defaulted_and_deleted() {
    let shop = start().await;
    let token = demo_token(&shop).await;
    let auth = [("sw-context-token", token.as_str())];
    let (country, state) = germany(&shop).await;
    let (status, list) = shop
        .post_with("/account/list-address", &auth, json!({}))
        .await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(elements(&list).len(), 1);
    let original = elements(&list)[0]["id"].as_str().unwrap().to_owned();
    assert_eq!(elements(&list)[0]["isDefaultBillingAddress"], true);

    let (status, body) = shop
        .post_with("/account/address", &auth, json!({"firstName": "Dana", "lastName": "Demo", "street": "Elm 3", "countryId": country}))
        .await;
    assert_eq!(status, 400);
    let pointers: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["source"]["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(pointers, ["/city", "/zipcode"]);
    assert_eq!(body["errors"][0]["code"], "VIOLATION::IS_BLANK_ERROR");

    let new_address = json!({"firstName": "Dana", "lastName": "Demo", "street": "Elm 3", "zipcode": "80331", "city": "Munich", "countryId": country, "countryStateId": state});
    let (status, created) = shop
        .post_with("/account/address", &auth, new_address.clone())
        .await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["apiAlias"], "customer_address");
    assert_eq!(created["country"]["iso"], "DE");
    assert_eq!(created["countryState"]["name"], "Bavaria");
    let id = created["id"].as_str().unwrap().to_owned();

    let mut changed = new_address.clone();
    changed["street"] = json!("Elm 5");
    let (status, updated) = shop
        .call(
            Method::PATCH,
            &format!("/account/address/{id}"),
            &auth,
            Some(changed),
        )
        .await
        .into_pair();
    assert_eq!(status, 200, "{updated}");
    assert_eq!(updated["street"], "Elm 5");

    let (status, _) = shop
        .call(
            Method::PATCH,
            &format!("/account/address/default-billing/{id}"),
            &auth,
            None,
        )
        .await
        .into_pair();
    assert_eq!(status, 200);
    let (_, me) = shop.post_with("/account/customer", &auth, json!({})).await;
    assert_eq!(me["defaultBillingAddressId"], id.as_str());
    assert_eq!(me["defaultShippingAddressId"], original.as_str());

    let (status, body) = shop
        .call(
            Method::DELETE,
            &format!("/account/address/{id}"),
            &auth,
            None,
        )
        .await
        .into_pair();
    assert_eq!(status, 400);
    assert_error(&body, 400, "CHECKOUT__CUSTOMER_ADDRESS_IS_DEFAULT");
    let (status, _) = shop
        .call(
            Method::PATCH,
            &format!("/account/address/default-billing/{original}"),
            &auth,
            None,
        )
        .await
        .into_pair();
    assert_eq!(status, 200);
    let (status, _) = shop
        .call(
            Method::DELETE,
            &format!("/account/address/{id}"),
            &auth,
            None,
        )
        .await
        .into_pair();
    assert_eq!(status, 204);
    let (_, list) = shop
        .post_with("/account/list-address", &auth, json!({}))
        .await;
    assert_eq!(elements(&list).len(), 1);

    // Someone else's address, and no login.
    let (status, body) = shop
        .call(
            Method::DELETE,
            "/account/address/0123456789abcdef0123456789abcdef",
            &auth,
            None,
        )
        .await
        .into_pair();
    assert_eq!(status, 404);
    assert_error(&body, 404, "CHECKOUT__CUSTOMER_ADDRESS_NOT_FOUND");
    let (status, _) = shop.post("/account/list-address", json!({})).await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn context_patch_switches_language_and_addresses() {
    let shop = start().await;
    let german = shop.language("de-DE").await;
    let (_, _, headers) = shop.call(Method::GET, "/context", &[], None).await;
    let token = headers["sw-context-token"].to_str().unwrap().to_owned();
    let auth = [("sw-context-token", token.as_str())];
    let (status, body) = shop
        .call(
            Method::PATCH,
            "/context",
            &auth,
            Some(json!({"languageId": german})),
        )
        .await
        .into_pair();
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["contextToken"], token.as_str());
    let (_, products) = shop
        .post_with(
            "/product",
            &auth,
            json!({"filter": [{"type": "equals", "field": "productNumber", "value": "SR10001"}]}),
        )
        .await;
    assert_eq!(products["elements"][0]["translated"]["name"], "Leinenhemd");
    let (_, context) = shop.get("/context", &auth).await;
    assert_eq!(context["languageInfo"]["localeCode"], "de-DE");

    for bad in [
        json!({"languageId": "0123456789abcdef0123456789abcdef"}),
        json!({"currencyId": "nope"}),
        json!({"paymentMethodId": "0123456789abcdef0123456789abcdef"}),
    ] {
        let (status, body) = shop
            .call(Method::PATCH, "/context", &auth, Some(bad.clone()))
            .await
            .into_pair();
        assert_eq!(status, 400, "{bad}: {body}");
    }
    let (status, body) = shop
        .call(
            Method::PATCH,
            "/context",
            &auth,
            Some(json!({"billingAddressId": "0123456789abcdef0123456789abcdef"})),
        )
        .await
        .into_pair();
    assert_eq!(status, 403);
    assert_error(&body, 403, "CHECKOUT__CUSTOMER_NOT_LOGGED_IN");

    let customer_token = demo_token(&shop).await;
    let auth = [("sw-context-token", customer_token.as_str())];
    let (country, _) = germany(&shop).await;
    let (_, second) = shop
        .post_with(
            "/account/address",
            &auth,
            json!({"firstName": "D", "lastName": "Demo", "street": "Oak 1", "zipcode": "20095", "city": "Hamburg", "countryId": country}),
        )
        .await;
    let second = second["id"].as_str().unwrap();
    let (status, _) = shop
        .call(
            Method::PATCH,
            "/context",
            &auth,
            Some(json!({"shippingAddressId": second})),
        )
        .await
        .into_pair();
    assert_eq!(status, 200);
    let (_, me) = shop.post_with("/account/customer", &auth, json!({})).await;
    assert_eq!(me["activeShippingAddress"]["city"], "Hamburg");
    assert_eq!(me["defaultShippingAddress"]["city"], "Berlin");
}

trait IntoPair {
    fn into_pair(self) -> (u16, Value);
}

impl IntoPair for (u16, Value, reqwest::header::HeaderMap) {
    fn into_pair(self) -> (u16, Value) {
        (self.0, self.1)
    }
}
