//! A guide and two attendees run the demo appointment end to end over REST and the
//! hub's WebSocket: join, start, follow slides, like, fill carts, an instant listing,
//! the guide's widgets, the end; afterwards the attendees keep cart and likes.

use crate::dsr_support;

use dsr_support::*;
use protocol::action::Action;
use protocol::frame::Event;
use serde_json::json;

#[tokio::test]
async fn a_guide_and_two_attendees_run_the_demo() {
    let live = start().await;
    let Session {
        guide,
        id,
        ada,
        cleo,
        ada_join,
        mut guide_socket,
        mut ada_socket,
        mut cleo_socket,
        ..
    } = live.running_demo().await;
    wait_for(&mut cleo_socket, |e| {
        matches!(e, Event::PresentationStarted { .. }).then_some(())
    })
    .await;

    // The guide moves to the product detail slide; both attendees load it.
    let structure = live.structure(&ada).await;
    let spotlight = structure["navigation"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["groupName"] == "Product spotlight")
        .unwrap()
        .clone();
    let (page_id, section_id) = (
        spotlight["groupId"].as_str().unwrap().to_owned(),
        spotlight["sectionId"].as_str().unwrap().to_owned(),
    );
    send_action(
        &mut guide_socket,
        Action::SwitchSlide {
            page_id: page_id.clone(),
            section_id: section_id.clone(),
            slide_alias: spotlight["index"].as_u64().unwrap() as u32,
        },
    )
    .await;
    let mut product = String::new();
    for (socket, token) in [(&mut ada_socket, &ada), (&mut cleo_socket, &cleo)] {
        let (page, section) = wait_for(socket, |e| match e {
            Event::SlideSwitched {
                page_id,
                section_id,
                ..
            } => Some((page_id.clone(), section_id.clone())),
            _ => None,
        })
        .await;
        let (status, slide) = live
            .get(
                &format!("/store-api/dsr/appointment/presentation/{page}/slide/{section}"),
                token,
            )
            .await;
        assert_eq!(status, 200, "{slide}");
        product = slide["product"]["id"].as_str().unwrap().to_owned();
    }

    // Ada likes it and buys it; Cleo buys two.
    let (status, _) = live
        .post(
            &format!("/store-api/dsr/appointment/collection/liked/{product}"),
            &ada,
            json!({}),
        )
        .await;
    assert_eq!(status, 204);
    for (token, quantity) in [(&ada, 1), (&cleo, 2)] {
        let (status, cart) = live
            .post(
                "/store-api/checkout/cart/line-item",
                token,
                json!({"items": [{"type": "product", "referencedId": product, "quantity": quantity}]}),
            )
            .await;
        assert_eq!(status, 200, "{cart}");
    }
    let mut carts = 0;
    while carts < 2 {
        wait_for(&mut guide_socket, |e| {
            matches!(e, Event::AttendeeCartChanged { .. }).then_some(())
        })
        .await;
        carts += 1;
    }
    let (_, statistics) = live
        .get(
            &format!("/api/_action/dsr/appointment/{id}/widgets/cart-statistics"),
            &guide,
        )
        .await;
    assert_eq!(statistics["lineItems"][0]["quantity"], 3, "{statistics}");
    let (_, wishlist) = live
        .get(
            &format!("/api/_action/dsr/appointment/{id}/widgets/wishlist"),
            &guide,
        )
        .await;
    assert_eq!(
        wishlist["products"][0]["customFields"]["wishlistAttendeeIds"],
        json!([ada_join["attendeeId"]])
    );

    // An instant listing of the liked product.
    let layout = structure["navigation"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["isInstantListing"] == true)
        .unwrap()
        .clone();
    let (status, created) = live
        .post(
            &format!("/api/_action/dsr/appointment/{id}/instant-listing"),
            &guide,
            json!({"productIds": [product], "currentPageGroupId": page_id, "pageId": layout["cmsPageId"], "slideId": layout["sectionId"]}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let group = wait_for(&mut cleo_socket, |e| match e {
        Event::Reload {
            action: Action::LoadSlide { page_id, .. },
        } => Some(page_id.clone()),
        _ => None,
    })
    .await;
    let (_, listing) = live
        .post(
            "/store-api/dsr/product-listing",
            &cleo,
            json!({"currentPageGroupId": group}),
        )
        .await;
    assert_eq!(listing["extensions"]["allIds"]["data"], json!([product]));

    let (status, _) = live
        .post(
            &format!("/api/_action/dsr/appointment/{id}/end"),
            &guide,
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    wait_for(&mut ada_socket, |e| {
        matches!(e, Event::PresentationEnded { .. }).then_some(())
    })
    .await;
    // After the end, cart and likes are still there.
    let (_, cart) = live.get("/store-api/checkout/cart", &cleo).await;
    assert_eq!(cart["lineItems"][0]["quantity"], 2);
    let (status, liked) = live
        .get("/store-api/dsr/appointment/collection/liked", &ada)
        .await;
    assert_eq!(status, 200);
    assert_eq!(liked["collection"]["liked"], json!([product]));
}
