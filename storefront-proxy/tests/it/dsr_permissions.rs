//! Who may call which DSR endpoint: every endpoint against no token, a guest attendee,
//! a customer attendee, another appointment's attendee, a removed attendee, the guide,
//! and a store context token on admin routes; each refusal in Shopware's error shape.

use crate::dsr_support;

use dsr_support::*;
use reqwest::Method;
use serde_json::{json, Value};

const NOT_ATTENDEE: &str = "DIGITAL_SALES_ROOMS__ATTENDEE_NOT_FOUND";
const UNAUTHORIZED: &str = "FRAMEWORK__UNAUTHORIZED";

/// One expected answer: a status, and for refusals the error code.
#[derive(Clone, Copy)]
struct Expect(u16, Option<&'static str>);

const OK: Expect = Expect(200, None);
const NO_CONTENT: Expect = Expect(204, None);
const NOT_ATTENDEE_403: Expect = Expect(403, Some(NOT_ATTENDEE));
const UNAUTHORIZED_401: Expect = Expect(401, Some(UNAUTHORIZED));

async fn check(
    live: &Live,
    method: Method,
    path: &str,
    body: &Value,
    who: &As,
    label: &str,
    expect: Expect,
) {
    let (status, answer, _) = live
        .call(
            method.clone(),
            path,
            who,
            Some(body.clone()).filter(|b| !b.is_null()),
        )
        .await;
    assert_eq!(status, expect.0, "{label} {method} {path}: {answer}");
    if let Some(code) = expect.1 {
        assert_error(&answer, expect.0, code);
    }
}

#[tokio::test]
async fn store_endpoints_serve_their_attendees_only() {
    let live = start().await;
    let guide = As::Guide(live.admin_token().await);
    let demo = live.appointment_id(&guide, "demo").await;
    let guest_join = live.join_as_client("demo", &As::Nobody, "Guest").await;
    let guest = token_of(&guest_join);
    let customer_join = live
        .join_as_client(
            "demo-customers",
            &As::Store(live.customer_login().await),
            "Customer",
        )
        .await;
    let customer = token_of(&customer_join);
    let removed_join = live.join_as_client("demo", &As::Nobody, "Gone").await;
    let removed = token_of(&removed_join);
    let (status, _) = live
        .post(
            &format!(
                "/api/_action/dsr/appointment/attendee/{}/remove",
                removed_join["attendeeId"].as_str().unwrap()
            ),
            &guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    let stranger = As::Store("0".repeat(64));

    let structure = live.structure(&guest).await;
    let first = &structure["navigation"][0];
    let slide = format!(
        "/store-api/dsr/appointment/presentation/{}/slide/{}",
        first["groupId"].as_str().unwrap(),
        first["sectionId"].as_str().unwrap()
    );
    let product = live.product_ids(1).await.remove(0);
    let invitation = format!("/store-api/dsr/appointment/{demo}/attendee/respond-invitation");

    // (method, path, body, guest, customer of the other appointment)
    let endpoints: Vec<(Method, String, Value, Expect, Expect)> = vec![
        (
            Method::GET,
            "/store-api/dsr/appointment/presentation".into(),
            json!(null),
            OK,
            OK,
        ),
        (Method::GET, slide.clone(), json!(null), OK, OK),
        (
            Method::POST,
            format!("{slide}/products"),
            json!({"limit": 1}),
            OK,
            OK,
        ),
        (
            Method::GET,
            "/store-api/dsr/appointment/presentation/state".into(),
            json!(null),
            OK,
            OK,
        ),
        (
            Method::PATCH,
            "/store-api/dsr/appointment/attendee".into(),
            json!({"attendeeName": "New name"}),
            OK,
            OK,
        ),
        (
            Method::PATCH,
            invitation.clone(),
            json!({"answer": "accepted"}),
            OK,
            Expect(403, Some("DIGITAL_SALES_ROOMS__ATTENDEE_NOT_INVITED")),
        ),
        (
            Method::POST,
            "/store-api/dsr/product-listing".into(),
            json!({"limit": 1}),
            OK,
            OK,
        ),
        (
            Method::POST,
            "/store-api/dsr/product-listing".into(),
            json!({"appointmentIdToSync": demo}),
            OK,
            Expect(403, Some("DIGITAL_SALES_ROOMS__APPOINTMENT_MISMATCH")),
        ),
        (
            Method::POST,
            "/store-api/dsr/interaction".into(),
            json!({"name": "product.viewed", "payload": {"productId": product}}),
            OK,
            OK,
        ),
        (
            Method::GET,
            "/store-api/dsr/appointment/collection/liked".into(),
            json!(null),
            OK,
            OK,
        ),
        (
            Method::POST,
            format!("/store-api/dsr/appointment/collection/liked/{product}"),
            json!({}),
            NO_CONTENT,
            NO_CONTENT,
        ),
        (
            Method::DELETE,
            format!("/store-api/dsr/appointment/collection/liked/{product}"),
            json!({}),
            NO_CONTENT,
            NO_CONTENT,
        ),
        (
            Method::GET,
            "/store-api/dsr/appointment/collection/last-seen".into(),
            json!(null),
            OK,
            OK,
        ),
        (
            Method::GET,
            format!("/store-api/dsr/quickview/{product}"),
            json!(null),
            OK,
            OK,
        ),
        (
            Method::GET,
            format!(
                "/store-api/dsr/quickview/{product}/{}",
                first["cmsPageId"].as_str().unwrap()
            ),
            json!(null),
            OK,
            OK,
        ),
        (
            Method::GET,
            format!("/store-api/dsr/product/{product}"),
            json!(null),
            OK,
            OK,
        ),
    ];
    for (method, path, body, for_guest, for_customer) in &endpoints {
        check(
            &live,
            method.clone(),
            path,
            body,
            &As::Nobody,
            "no token",
            NOT_ATTENDEE_403,
        )
        .await;
        check(
            &live,
            method.clone(),
            path,
            body,
            &stranger,
            "unknown token",
            NOT_ATTENDEE_403,
        )
        .await;
        check(
            &live,
            method.clone(),
            path,
            body,
            &removed,
            "removed attendee",
            NOT_ATTENDEE_403,
        )
        .await;
        check(
            &live,
            method.clone(),
            path,
            body,
            &guide,
            "guide bearer on the store API",
            NOT_ATTENDEE_403,
        )
        .await;
        check(
            &live,
            method.clone(),
            path,
            body,
            &guest,
            "guest attendee",
            *for_guest,
        )
        .await;
        check(
            &live,
            method.clone(),
            path,
            body,
            &customer,
            "customer attendee of the other appointment",
            *for_customer,
        )
        .await;
        // Without the access key the store API answers nothing.
        let response = live
            .http
            .request(method.clone(), format!("{}{path}", live.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 401, "{path} without access key");
    }
    // Open to everyone with the access key: the settings before joining, shop pages.
    for path in [
        "/store-api/dsr/appointment/demo/basic-setting",
        "/store-api/dsr/shop-pages/privacy",
    ] {
        for who in [&As::Nobody, &guest, &customer, &removed] {
            check(&live, Method::GET, path, &json!(null), who, "anyone", OK).await;
        }
    }
    // Joining: guests only where the appointment is open to them.
    check(
        &live,
        Method::POST,
        "/store-api/dsr/appointment/demo-customers/join-as-client",
        &json!({"attendeeName": "x"}),
        &As::Nobody,
        "guest",
        Expect(403, Some("DIGITAL_SALES_ROOMS__APPOINTMENT_RESTRICTED")),
    )
    .await;
    check(
        &live,
        Method::POST,
        "/store-api/dsr/appointment/demo/join-as-client",
        &json!({}),
        &removed,
        "removed",
        Expect(403, Some("DIGITAL_SALES_ROOMS__ATTENDEE_REMOVED")),
    )
    .await;

    // Instant listings of one appointment are not the other's.
    let layout = structure["navigation"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["isInstantListing"] == true)
        .unwrap()
        .clone();
    let (status, _) = live
        .post(
            &format!("/api/_action/dsr/appointment/{demo}/instant-listing"),
            &guide,
            json!({"productIds": [product], "pageId": layout["cmsPageId"], "slideId": layout["sectionId"]}),
        )
        .await;
    assert_eq!(status, 201);
    let group = live.structure(&guest).await["navigation"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()["groupId"]
        .as_str()
        .unwrap()
        .to_owned();
    let listing = format!(
        "/store-api/dsr/appointment/presentation/{group}/slide/{}",
        layout["sectionId"].as_str().unwrap()
    );
    check(
        &live,
        Method::GET,
        &listing,
        &json!(null),
        &guest,
        "guest",
        OK,
    )
    .await;
    check(
        &live,
        Method::GET,
        &listing,
        &json!(null),
        &customer,
        "other appointment",
        Expect(404, Some("DIGITAL_SALES_ROOMS__SLIDE_NOT_FOUND")),
    )
    .await;
    check(
        &live,
        Method::POST,
        "/store-api/dsr/product-listing",
        &json!({"currentPageGroupId": group}),
        &customer,
        "other appointment",
        Expect(
            404,
            Some("DIGITAL_SALES_ROOMS__PRESENTATION_PAGE_NOT_FOUND"),
        ),
    )
    .await;
}

#[tokio::test]
async fn admin_endpoints_need_the_guides_bearer_token() {
    let live = start().await;
    let guide = As::Guide(live.admin_token().await);
    let demo = live.appointment_id(&guide, "demo").await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let store_token = join["newContextToken"].as_str().unwrap().to_owned();
    let attendee = join["attendeeId"].as_str().unwrap().to_owned();
    let channel = join["salesChannelId"].as_str().unwrap().to_owned();
    let structure = live.structure(&token_of(&join)).await;
    let layout = structure["navigation"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["isInstantListing"] == true)
        .unwrap()
        .clone();
    let product = live.product_ids(1).await.remove(0);
    let widget = |name: &str| format!("/api/_action/dsr/appointment/{demo}/widgets/{name}");
    let permission = Expect(
        403,
        Some("DIGITAL_SALES_ROOMS__ATTENDEE_CART_PERMISSION_MISSING"),
    );
    let entry = "c".repeat(32);

    // (method, path, body, what the guide gets)
    let endpoints: Vec<(Method, String, Value, Expect)> = vec![
        (Method::POST, "/api/search/dsr-appointment".into(), json!({}), OK),
        (Method::POST, "/api/search/dsr-appointment-attendee".into(), json!({}), OK),
        (Method::POST, "/api/search/dsr-attendee-product-collection".into(), json!({}), OK),
        (Method::POST, "/api/search/product".into(), json!({"limit": 1}), OK),
        (Method::POST, "/api/search/order-customer".into(), json!({"limit": 1}), OK),
        (Method::GET, "/api/dsr-attendee-product-collection".into(), json!(null), OK),
        (
            Method::POST,
            "/api/dsr-attendee-product-collection".into(),
            json!({"id": entry, "attendeeId": attendee, "productId": product, "alias": "liked"}),
            NO_CONTENT,
        ),
        (Method::GET, format!("/api/dsr-attendee-product-collection/{entry}"), json!(null), OK),
        (Method::PATCH, format!("/api/dsr-attendee-product-collection/{entry}"), json!({"alias": "disliked"}), NO_CONTENT),
        (Method::DELETE, format!("/api/dsr-attendee-product-collection/{entry}"), json!(null), NO_CONTENT),
        (
            Method::GET,
            format!("/api/dsr-attendee-product-collection/{entry}"),
            json!(null),
            Expect(404, Some("FRAMEWORK__ENTITY_NOT_FOUND")),
        ),
        (Method::POST, format!("/api/_action/dsr/appointment/{demo}/join-as-guide"), json!({}), OK),
        (Method::GET, format!("/api/_action/dsr/appointment/{demo}/presentation/state"), json!(null), OK),
        (Method::GET, format!("/api/_action/dsr/appointment/attendee/{attendee}/sw-context-token"), json!(null), permission),
        (
            Method::POST,
            format!("/api/_action/dsr/appointment/{demo}/instant-listing"),
            json!({"productIds": [product], "pageId": layout["cmsPageId"], "slideId": layout["sectionId"]}),
            Expect(201, None),
        ),
        (
            Method::PATCH,
            format!("/api/_action/dsr/appointment/{demo}/instant-listing"),
            // The presentation's own listing page is no instant listing of this appointment.
            json!({"currentPageGroupId": layout["groupId"], "addProductIds": [product], "removeProductIds": []}),
            Expect(404, Some("DIGITAL_SALES_ROOMS__PRESENTATION_PAGE_NOT_FOUND")),
        ),
        (Method::GET, widget("wishlist"), json!(null), OK),
        (Method::GET, widget("wishlist-statistics"), json!(null), OK),
        (Method::GET, widget("last-seen-statistics"), json!(null), OK),
        (Method::GET, widget("cart-statistics"), json!(null), OK),
        (Method::GET, widget("cart-insights"), json!(null), OK),
        (Method::GET, widget("attendee-insights"), json!(null), OK),
        (Method::GET, format!("/api/_proxy/store-api/{channel}/checkout/cart?attendeeId={attendee}"), json!(null), permission),
        (
            Method::POST,
            format!("/api/_proxy/store-api/{channel}/checkout/cart/line-item?attendeeId={attendee}"),
            json!({"items": [{"referencedId": product}]}),
            permission,
        ),
        (
            Method::PATCH,
            format!("/api/_proxy/store-api/{channel}/checkout/cart/line-item?attendeeId={attendee}"),
            json!({"items": [{"id": product, "quantity": 2}]}),
            permission,
        ),
        (
            Method::DELETE,
            format!("/api/_proxy/store-api/{channel}/checkout/cart/line-item?attendeeId={attendee}&ids[]={product}"),
            json!(null),
            permission,
        ),
        (Method::POST, format!("/api/_action/dsr/appointment/{demo}/start"), json!({}), NO_CONTENT),
        (Method::POST, format!("/api/_action/dsr/appointment/attendee/{attendee}/remove"), json!({}), OK),
        (Method::POST, format!("/api/_action/dsr/appointment/{demo}/end"), json!({}), OK),
    ];
    for (method, path, body, for_guide) in &endpoints {
        check(
            &live,
            method.clone(),
            path,
            body,
            &As::Nobody,
            "no token",
            UNAUTHORIZED_401,
        )
        .await;
        check(
            &live,
            method.clone(),
            path,
            body,
            &As::Store(store_token.clone()),
            "store context token",
            UNAUTHORIZED_401,
        )
        .await;
        check(
            &live,
            method.clone(),
            path,
            body,
            &As::Guide(store_token.clone()),
            "store context token as bearer",
            UNAUTHORIZED_401,
        )
        .await;
        check(
            &live,
            method.clone(),
            path,
            body,
            &As::Guide("expired".into()),
            "unknown bearer",
            UNAUTHORIZED_401,
        )
        .await;
        check(
            &live,
            method.clone(),
            path,
            body,
            &guide,
            "guide",
            *for_guide,
        )
        .await;
    }
}
