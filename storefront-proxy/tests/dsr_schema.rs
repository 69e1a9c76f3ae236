//! Responses of the DSR endpoints validated against the reference schemas
//! (`shared/reference/dsr-openapi.json`) with a JSON Schema validator.

mod dsr_support;

use dsr_support::*;
use serde_json::json;

#[tokio::test]
async fn responses_validate_against_the_reference() {
    let reference = reference();
    let live = start().await;
    let guide = As::Guide(live.admin_token().await);
    let id = live.appointment_id(&guide, "demo").await;
    let guide_join = live.join_as_guide(&guide, &id).await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    assert_valid(&reference, "storeApi", "JoinAppointmentResponse", &join);
    assert_valid(&reference, "adminApi", "JoinAppointmentResponse", &guide_join);
    let client = token_of(&join);
    let product = live.product_ids(1).await.remove(0);
    let (_, _) = live.post(&format!("/store-api/dsr/appointment/collection/liked/{product}"), &client, json!({})).await;
    let (_, _) = live.post("/store-api/checkout/cart/line-item", &client, json!({"items": [{"referencedId": product}]})).await;

    let (_, _) = live.post("/store-api/dsr/interaction", &client, json!({"name": "product.viewed", "payload": {"productId": product}})).await;
    let (_, body) = live.get("/store-api/dsr/appointment/collection/liked", &client).await;
    assert_valid(&reference, "storeApi", "AttendeeProductCollectionResponse", &body);
    let (_, body) = live.get("/store-api/dsr/appointment/collection/last-seen", &client).await;
    assert_valid(&reference, "storeApi", "AttendeeProductCollectionLastSeenResponse", &body);
    let (_, body) = live.get("/store-api/dsr/appointment/demo/basic-setting", &As::Nobody).await;
    assert_valid(&reference, "storeApi", "AppointmentBasicSettingResponse", &body);
    let (_, body) = live.patch(&format!("/store-api/dsr/appointment/{id}/attendee/respond-invitation"), &client, json!({"answer": "maybe"})).await;
    assert_valid(&reference, "storeApi", "AttendeeRespondInvitationResponse", &body);
    let structure = live.structure(&client).await;
    assert_valid(&reference, "storeApi", "PresentationStructure", &structure);
    for entry in structure["navigation"].as_array().unwrap() {
        let url = format!("/store-api/dsr/appointment/presentation/{}/slide/{}", entry["groupId"].as_str().unwrap(), entry["sectionId"].as_str().unwrap());
        let (status, mut body) = live.get(&url, &client).await;
        assert_eq!(status, 200);
        // The reference contradicts itself here: `PresentationCmsPage` is all of
        // `DsrPresentationCmsPage` (pickedProductIds an object) and an array-or-null.
        let picked = body["extensions"]["cmsPageRelation"].as_object_mut().unwrap().remove("pickedProductIds").unwrap();
        assert!(picked.is_array());
        assert_valid(&reference, "storeApi", "PresentationSlideData", &body);
        let (_, body) = live.post(&format!("{url}/products"), &client, json!({"limit": 2})).await;
        assert_valid(&reference, "storeApi", "ProductListingResult", &body);
    }
    let (_, body) = live.post("/store-api/dsr/product-listing", &client, json!({"limit": 3, "interaction": true})).await;
    assert_valid(&reference, "storeApi", "ProductListingResult", &body);
    let (_, body) = live.get("/store-api/dsr/shop-pages/privacy", &As::Nobody).await;
    assert_valid(&reference, "storeApi", "CmsPage", &body);
    let (_, body) = live.get(&format!("/store-api/dsr/product/{product}"), &client).await;
    assert_valid(&reference, "storeApi", "ProductPageResult", &body);

    let (_, body) = live.post("/api/search/dsr-appointment-attendee", &guide, json!({})).await;
    for attendee in body["data"].as_array().unwrap() {
        assert_valid(&reference, "adminApi", "DsrAppointmentAttendee", attendee);
    }
    let (_, body) = live.post("/api/search/dsr-attendee-product-collection", &guide, json!({})).await;
    assert!(!body["data"].as_array().unwrap().is_empty());
    for entry in body["data"].as_array().unwrap() {
        assert_valid(&reference, "adminApi", "DsrAttendeeProductCollection", entry);
    }
    let widget = |name: &str| format!("/api/_action/dsr/appointment/{id}/widgets/{name}");
    let (_, body) = live.get(&widget("attendee-insights"), &guide).await;
    assert_valid(&reference, "adminApi", "GetAttendeeInsightsResponse", &body);
    let (_, body) = live.get(&widget("cart-insights"), &guide).await;
    assert_valid(&reference, "adminApi", "GetCartInsightsResponse", &body);
    for name in ["wishlist-statistics", "last-seen-statistics"] {
        let (_, body) = live.get(&widget(name), &guide).await;
        assert_valid(&reference, "adminApi", "WidgetProductListing", &body);
    }
    let (_, body) = live.get(&widget("cart-statistics"), &guide).await;
    assert_valid(&reference, "adminApi", "Cart", &body);
}
