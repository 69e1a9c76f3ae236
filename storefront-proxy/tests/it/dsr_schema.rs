//! Responses of the DSR endpoints validated against the reference schemas
//! (`shared/reference/dsr-openapi.json`) with a JSON Schema validator.

use crate::dsr_support;

use dsr_support::*;
use protocol::action::{Action, Interaction, ProductPayload};
use protocol::frame::Event;
use protocol::state::DynamicPage;
use serde_json::{json, Value};

#[tokio::test]
async fn responses_validate_against_the_reference() {
    let reference = reference();
    let live = start().await;
    let (guide, id, guide_join) = live.guide_joins("demo").await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    assert_valid(&reference, "storeApi", "JoinAppointmentResponse", &join);
    assert_valid(
        &reference,
        "adminApi",
        "JoinAppointmentResponse",
        &guide_join,
    );
    let client = token_of(&join);
    let product = live.product_ids(1).await.remove(0);
    let (_, _) = live
        .post(
            &format!("/store-api/dsr/appointment/collection/liked/{product}"),
            &client,
            json!({}),
        )
        .await;
    let (_, _) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &client,
            json!({"items": [{"referencedId": product}]}),
        )
        .await;

    let (_, _) = live
        .post(
            "/store-api/dsr/interaction",
            &client,
            json!({"name": "product.viewed", "payload": {"productId": product}}),
        )
        .await;
    let (_, body) = live
        .get("/store-api/dsr/appointment/collection/liked", &client)
        .await;
    assert_valid(
        &reference,
        "storeApi",
        "AttendeeProductCollectionResponse",
        &body,
    );
    let (_, body) = live
        .get("/store-api/dsr/appointment/collection/last-seen", &client)
        .await;
    assert_valid(
        &reference,
        "storeApi",
        "AttendeeProductCollectionLastSeenResponse",
        &body,
    );
    let (_, body) = live
        .get("/store-api/dsr/appointment/demo/basic-setting", &As::Nobody)
        .await;
    assert_valid(
        &reference,
        "storeApi",
        "AppointmentBasicSettingResponse",
        &body,
    );
    let (_, body) = live
        .patch(
            &format!("/store-api/dsr/appointment/{id}/attendee/respond-invitation"),
            &client,
            json!({"answer": "maybe"}),
        )
        .await;
    assert_valid(
        &reference,
        "storeApi",
        "AttendeeRespondInvitationResponse",
        &body,
    );
    let structure = live.structure(&client).await;
    assert_valid(&reference, "storeApi", "PresentationStructure", &structure);
    for entry in structure["navigation"].as_array().unwrap() {
        let url = format!(
            "/store-api/dsr/appointment/presentation/{}/slide/{}",
            entry["groupId"].as_str().unwrap(),
            entry["sectionId"].as_str().unwrap()
        );
        let (status, mut body) = live.get(&url, &client).await;
        assert_eq!(status, 200);
        // The reference contradicts itself here: `PresentationCmsPage` is all of
        // `DsrPresentationCmsPage` (pickedProductIds an object) and an array-or-null.
        let picked = body["extensions"]["cmsPageRelation"]
            .as_object_mut()
            .unwrap()
            .remove("pickedProductIds")
            .unwrap();
        assert!(picked.is_array());
        assert_valid(&reference, "storeApi", "PresentationSlideData", &body);
        let (_, body) = live
            .post(&format!("{url}/products"), &client, json!({"limit": 2}))
            .await;
        assert_valid(&reference, "storeApi", "ProductListingResult", &body);
    }
    let (_, body) = live
        .post(
            "/store-api/dsr/product-listing",
            &client,
            json!({"limit": 3, "interaction": true}),
        )
        .await;
    assert_valid(&reference, "storeApi", "ProductListingResult", &body);
    let (_, body) = live
        .get("/store-api/dsr/shop-pages/privacy", &As::Nobody)
        .await;
    assert_valid(&reference, "storeApi", "CmsPage", &body);
    let (_, body) = live
        .get(&format!("/store-api/dsr/product/{product}"), &client)
        .await;
    assert_valid(&reference, "storeApi", "ProductPageResult", &body);

    let (_, body) = live
        .post("/api/search/dsr-appointment-attendee", &guide, json!({}))
        .await;
    for attendee in body["data"].as_array().unwrap() {
        assert_valid(&reference, "adminApi", "DsrAppointmentAttendee", attendee);
    }
    let (_, body) = live
        .post(
            "/api/search/dsr-attendee-product-collection",
            &guide,
            json!({}),
        )
        .await;
    assert!(!body["data"].as_array().unwrap().is_empty());
    for entry in body["data"].as_array().unwrap() {
        assert_valid(
            &reference,
            "adminApi",
            "DsrAttendeeProductCollection",
            entry,
        );
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

/// The reference's known mistakes about the live state, patched here (its own examples,
/// and the original, send what we send):
/// - `StateForGuides` types `clients`, `inactiveClients` and `guides` as arrays of
///   strings; the example (and every DSR frontend) has objects keyed by attendee id.
/// - `GuidePresentationStateResponse` names the guides' part `stateForClients`
///   (typed `StateForGuides`); its example calls it `stateForGuides`.
fn state_reference() -> Value {
    let mut reference = reference();
    let participants = json!({
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "required": ["attendeeId", "attendeeName", "videoUserId", "hasJoined"],
            "properties": {
                "attendeeId": { "type": "string", "pattern": "^[0-9a-f]{32}$" },
                "attendeeName": { "type": ["string", "null"] },
                "videoUserId": { "type": ["string", "null"] },
                "hasJoined": { "type": "boolean" },
            },
        },
    });
    let guides = &mut reference["adminApi"]["schemas"]["StateForGuides"]["properties"];
    for list in ["clients", "inactiveClients", "guides"] {
        guides[list] = participants.clone();
    }
    let response =
        &mut reference["adminApi"]["schemas"]["GuidePresentationStateResponse"]["properties"];
    let part = response
        .as_object_mut()
        .unwrap()
        .remove("stateForClients")
        .unwrap();
    response["stateForGuides"] = part;
    reference
}

/// Both state endpoints, validated (formats too) and with every field of the reference.
async fn check_states(
    live: &Live,
    reference: &Value,
    guide: &As,
    appointment_id: &str,
    client: &As,
) -> (Value, Value) {
    let (status, client_state) = live
        .get("/store-api/dsr/appointment/presentation/state", client)
        .await;
    assert_eq!(status, 200, "{client_state}");
    assert_valid_with_formats(
        reference,
        "storeApi",
        "ClientPresentationStateResponse",
        &client_state,
    );
    assert_every_field(
        reference,
        "storeApi",
        "StateForClients",
        &client_state["stateForClients"],
    );
    let (status, guide_state) = live
        .get(
            &format!("/api/_action/dsr/appointment/{appointment_id}/presentation/state"),
            guide,
        )
        .await;
    assert_eq!(status, 200, "{guide_state}");
    assert_valid_with_formats(
        reference,
        "adminApi",
        "GuidePresentationStateResponse",
        &guide_state,
    );
    assert_every_field(
        reference,
        "adminApi",
        "GuidePresentationStateResponse",
        &guide_state,
    );
    assert_every_field(
        reference,
        "adminApi",
        "StateForGuides",
        &guide_state["stateForGuides"],
    );
    assert_eq!(
        client_state["stateForAll"], guide_state["stateForAll"],
        "everyone sees the same stateForAll"
    );
    (
        client_state["stateForAll"].clone(),
        guide_state["stateForGuides"].clone(),
    )
}

#[tokio::test]
async fn presentation_states_have_every_field_of_the_reference() {
    let reference = state_reference();
    let live = start().await;
    let (guide, id, guide_join) = live.guide_joins("demo").await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let client = token_of(&join);
    let mut guide_socket = connect(&live, &guide_join).await;
    let _client_socket = connect(&live, &join).await;

    // Before the start: no dynamic page is open, so there is none (the reference
    // types it as an object, never null).
    let (all, guides) = check_states(&live, &reference, &guide, &id, &client).await;
    assert!(all.get("currentDynamicPage").is_none(), "{all}");
    let every_but_the_page: Vec<&String> = reference["storeApi"]["schemas"]["StateForAll"]
        ["properties"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| *k != "currentDynamicPage")
        .collect();
    for key in every_but_the_page {
        assert!(
            all.get(key.as_str()).is_some(),
            "stateForAll lacks {key}: {all}"
        );
    }
    assert_eq!(
        (
            all["started"].clone(),
            all["running"].clone(),
            all["startedAt"].clone()
        ),
        (json!(false), json!(false), Value::Null)
    );
    assert_eq!(all["appointmentMode"], "guided");
    assert!(
        guides["guides"]
            .get(guide_join["attendeeId"].as_str().unwrap())
            .is_some(),
        "{guides}"
    );
    assert!(
        guides["clients"]
            .get(join["attendeeId"].as_str().unwrap())
            .is_some(),
        "{guides}"
    );

    // Running, on a slide, with a product page open and a product highlighted.
    let (status, _) = live
        .post(
            &format!("/api/_action/dsr/appointment/{id}/start"),
            &guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 204);
    let structure = live.structure(&client).await;
    let second = &structure["navigation"][1];
    let (page_id, section_id) = (
        second["groupId"].as_str().unwrap().to_owned(),
        second["sectionId"].as_str().unwrap().to_owned(),
    );
    send_action(
        &mut guide_socket,
        Action::SwitchSlide {
            page_id: page_id.clone(),
            section_id: section_id.clone(),
            slide_alias: 2,
        },
    )
    .await;
    let product = live.product_ids(1).await.remove(0);
    send_interaction(
        &mut guide_socket,
        Interaction::ProductViewed(ProductPayload {
            product_id: product.clone(),
        }),
    )
    .await;
    let page = DynamicPage {
        page_id: product.clone(),
        page_type: "productDetail".into(),
        opened: true,
        position: Some(1),
        product_id: Some(product.clone()),
    };
    send_interaction(
        &mut guide_socket,
        Interaction::DynamicProductPageOpened(page),
    )
    .await;
    wait_for(&mut guide_socket, |e| {
        matches!(e, Event::DynamicPageOpened { .. }).then_some(())
    })
    .await;

    let (all, _) = check_states(&live, &reference, &guide, &id, &client).await;
    assert_every_field(&reference, "storeApi", "StateForAll", &all);
    assert_eq!(
        (
            all["started"].clone(),
            all["running"].clone(),
            all["ended"].clone()
        ),
        (json!(true), json!(true), json!(false))
    );
    assert!(all["startedAt"].is_string(), "{all}");
    assert_eq!(
        (
            all["currentPageId"].as_str(),
            all["currentSectionId"].as_str(),
            all["currentSlideAlias"].as_u64()
        ),
        (Some(&*page_id), Some(&*section_id), Some(2))
    );
    assert_eq!(all["currentGuideProductId"], json!(product));
    assert_eq!(all["currentDynamicPage"]["pageId"], json!(product));
    assert_eq!(all["currentDynamicPage"]["type"], "productDetail");

    // Ended.
    let (status, _) = live
        .post(
            &format!("/api/_action/dsr/appointment/{id}/end"),
            &guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    wait_for(&mut guide_socket, |e| {
        matches!(e, Event::PresentationEnded { .. }).then_some(())
    })
    .await;
    let (all, _) = check_states(&live, &reference, &guide, &id, &client).await;
    assert_eq!(
        (all["running"].clone(), all["ended"].clone()),
        (json!(false), json!(true))
    );
    assert!(all["endedAt"].is_string(), "{all}");
}
