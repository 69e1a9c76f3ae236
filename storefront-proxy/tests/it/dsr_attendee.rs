//! The attendee's own calls: name and video user (guides see it live), invitation
//! answers, the appointment's basic settings, shop pages; customers join with their
//! own session.

use crate::dsr_support;

use dsr_support::*;
use protocol::frame::{Collection, Event};
use serde_json::json;

#[tokio::test]
async fn renaming_reaches_the_guide_and_bad_names_change_nothing() {
    let live = start().await;
    let (guide, _, guide_join) = live.guide_joins("demo").await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let client = token_of(&join);
    let attendee_id = join["attendeeId"].as_str().unwrap().to_owned();
    let mut guide_socket = connect(&live, &guide_join).await;
    let _client_socket = connect(&live, &join).await;
    // The guide sees the attendee arrive first.
    wait_for(&mut guide_socket, |e| {
        matches!(e, Event::AttendeeChanged { attendee } if attendee.attendee_id == attendee_id)
            .then_some(())
    })
    .await;

    let (status, body) = live
        .patch(
            "/store-api/dsr/appointment/attendee",
            &client,
            json!({"attendeeName": "  Ada L. ", "videoUserId": "v-1"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"],
        json!({"attendeeName": "Ada L.", "videoUserId": "v-1"})
    );
    let summary = wait_for(&mut guide_socket, |e| match e {
        Event::AttendeeChanged { attendee }
            if attendee.attendee_name.as_deref() == Some("Ada L.") =>
        {
            Some(attendee.clone())
        }
        _ => None,
    })
    .await;
    assert_eq!(summary.attendee_id, attendee_id);
    assert_eq!(summary.video_user_id.as_deref(), Some("v-1"));

    for (body, pointer, code) in [
        (
            json!({"attendeeName": ""}),
            "/attendeeName",
            "VIOLATION::IS_BLANK_ERROR",
        ),
        (
            json!({"attendeeName": 7}),
            "/attendeeName",
            "VIOLATION::TYPE_ERROR",
        ),
        (
            json!({"attendeeName": "x".repeat(256)}),
            "/attendeeName",
            "VIOLATION::TOO_LONG_ERROR",
        ),
        (
            json!({"attendeeName": "Bob", "videoUserId": []}),
            "/videoUserId",
            "VIOLATION::TYPE_ERROR",
        ),
    ] {
        let (status, error) = live
            .patch("/store-api/dsr/appointment/attendee", &client, body)
            .await;
        assert_eq!(status, 400, "{error}");
        assert_eq!(error["errors"][0]["source"]["pointer"], pointer);
        assert_eq!(error["errors"][0]["code"], code);
    }
    let (status, _) = live
        .send_raw(
            reqwest::Method::PATCH,
            "/store-api/dsr/appointment/attendee",
            &client,
            "{\"attendeeName\": ",
        )
        .await;
    assert_eq!(status, 400);
    let name: String = live
        .db()
        .query_row(
            "SELECT name FROM attendee WHERE id = ?1",
            [&attendee_id],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(name, "Ada L.", "refused changes left the name alone");

    let (status, body) = live
        .post(
            "/api/search/dsr-appointment-attendee",
            &guide,
            json!({"filter": [{"type": "equals", "field": "id", "value": attendee_id}]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"][0]["attendeeName"], "Ada L.");
    assert_eq!(body["data"][0]["videoUserId"], "v-1");
}

#[tokio::test]
async fn invitations_are_answered_and_validated() {
    let live = start().await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let client = token_of(&join);
    let id = join["id"].as_str().unwrap();
    let url = format!("/store-api/dsr/appointment/{id}/attendee/respond-invitation");
    for answer in ["accepted", "maybe", "declined"] {
        let (status, body) = live
            .patch(
                &url,
                &client,
                json!({"token": "mail-token", "answer": answer}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["answer"], answer);
        assert_eq!(body["appointment"]["id"], id);
        assert_eq!(
            body["appointment"]["status"],
            serde_json::Value::Null,
            "not started yet"
        );
        let stored: String = live
            .db()
            .query_row(
                "SELECT invitation_status FROM attendee WHERE id = ?1",
                [join["attendeeId"].as_str().unwrap()],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(stored, answer);
    }
    // Only the token is required by the document: without an answer the status stays
    // and is answered.
    let (status, body) = live
        .patch(&url, &client, json!({"token": "from-the-mail"}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["answer"], "declined");
    for (body, code) in [
        (
            json!({"answer": "perhaps"}),
            "VIOLATION::NO_SUCH_CHOICE_ERROR",
        ),
        (json!({"answer": 1}), "VIOLATION::NO_SUCH_CHOICE_ERROR"),
    ] {
        let (status, error) = live.patch(&url, &client, body).await;
        assert_eq!(status, 400, "{error}");
        assert_eq!(error["errors"][0]["code"], code);
        assert_eq!(error["errors"][0]["source"]["pointer"], "/answer");
    }
    let stored: String = live
        .db()
        .query_row(
            "SELECT invitation_status FROM attendee WHERE id = ?1",
            [join["attendeeId"].as_str().unwrap()],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        stored, "declined",
        "refused answers and none changed nothing"
    );
    // Another appointment's invitation.
    let guide = As::Guide(live.admin_token().await);
    let other = live.appointment_id(&guide, "demo-customers").await;
    let (status, body) = live
        .patch(
            &format!("/store-api/dsr/appointment/{other}/attendee/respond-invitation"),
            &client,
            json!({"answer": "accepted"}),
        )
        .await;
    assert_eq!(status, 403);
    assert_error(&body, 403, "DIGITAL_SALES_ROOMS__ATTENDEE_NOT_INVITED");
}

#[tokio::test]
async fn basic_settings_and_shop_pages() {
    let live = start().await;
    let (status, body) = live
        .get("/store-api/dsr/appointment/demo/basic-setting", &As::Nobody)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["apiAlias"], "appointment_basic_setting");
    assert_eq!(body["attendeeRestrictionType"], "open");
    assert_eq!(body["mode"], "guided");
    assert_eq!(body["appointmentName"], "Autumn collection live");
    assert_eq!(body["salesChannelName"], "Salesroom Demo");
    // What the pre-join screen checks before it asks for a name (#31 item 10).
    assert_eq!(body["ended"], false);
    assert_eq!(body["accessible"], true);
    let db = live.db();
    db.execute(
        "UPDATE appointment SET accessible_to = '2001-01-01T00:00:00Z' WHERE presentation_path = 'demo'",
        [],
    )
    .unwrap();
    let (_, body) = live
        .get("/store-api/dsr/appointment/demo/basic-setting", &As::Nobody)
        .await;
    assert_eq!(body["accessible"], false, "{body}");
    db.execute(
        "UPDATE appointment SET accessible_to = NULL, ended_at = '2001-01-01T00:00:00Z' WHERE presentation_path = 'demo'",
        [],
    )
    .unwrap();
    let (_, body) = live
        .get("/store-api/dsr/appointment/demo/basic-setting", &As::Nobody)
        .await;
    assert_eq!(
        (&body["ended"], &body["accessible"]),
        (&json!(true), &json!(true)),
        "{body}"
    );
    let (_, body) = live
        .get(
            "/store-api/dsr/appointment/demo-customers/basic-setting",
            &As::Nobody,
        )
        .await;
    assert_eq!(body["attendeeRestrictionType"], "customer");
    let (status, body) = live
        .get(
            "/store-api/dsr/appointment/nowhere/basic-setting",
            &As::Nobody,
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_FOUND");

    let german = live.language_id("de-DE").await;
    for (layout, english, german_text) in [
        (
            "tos",
            "Terms and conditions",
            "Allgemeine Geschäftsbedingungen",
        ),
        (
            "terms",
            "Terms and conditions",
            "Allgemeine Geschäftsbedingungen",
        ),
        ("privacy", "Privacy", "Datenschutz"),
        ("imprint", "Imprint", "Impressum"),
    ] {
        let (status, page) = live
            .get(&format!("/store-api/dsr/shop-pages/{layout}"), &As::Nobody)
            .await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(page["apiAlias"], "cms_page");
        assert_eq!(page["translated"]["name"], english);
        let content = &page["sections"][0]["blocks"][0]["slots"][0]["data"]["content"];
        assert!(content.as_str().unwrap().contains(english), "{content}");
        let (_, page) = live
            .get_in(
                &format!("/store-api/dsr/shop-pages/{layout}"),
                &As::Nobody,
                &german,
            )
            .await;
        assert_eq!(page["translated"]["name"], german_text);
    }
    let (status, body) = live
        .get("/store-api/dsr/shop-pages/secrets", &As::Nobody)
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "DIGITAL_SALES_ROOMS__SHOP_PAGE_NOT_FOUND");
}

#[tokio::test]
async fn a_customer_joins_with_their_own_session() {
    let live = start().await;
    let customer = live.customer_login().await;
    let join = live
        .join_as_client("demo-customers", &As::Store(customer.clone()), "Demo")
        .await;
    assert_eq!(
        join["newContextToken"], customer,
        "the customer's cart and wishlist stay theirs"
    );
    let (status, body) = live
        .post(
            "/store-api/account/customer",
            &As::Store(customer.clone()),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "still logged in: {body}");
    let customer_id: Option<String> = live
        .db()
        .query_row(
            "SELECT customer_id FROM attendee WHERE id = ?1",
            [join["attendeeId"].as_str().unwrap()],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(customer_id.as_deref(), body["id"].as_str());
    // A guest cannot join the customers' appointment.
    let (status, body) = live
        .post(
            "/store-api/dsr/appointment/demo-customers/join-as-client",
            &As::Nobody,
            json!({"attendeeName": "Guest"}),
        )
        .await;
    assert_eq!(status, 403);
    assert_error(&body, 403, "DIGITAL_SALES_ROOMS__APPOINTMENT_RESTRICTED");
}

#[tokio::test]
async fn a_removed_customer_stays_out_after_logging_in_again_and_a_removed_guest_on_that_device() {
    let live = start().await;
    let guide = As::Guide(live.admin_token().await);
    let first_login = live.customer_login().await;
    let join = live
        .join_as_client("demo-customers", &As::Store(first_login.clone()), "Demo")
        .await;
    let guest_join = live.join_as_client("demo", &As::Nobody, "Guest").await;
    for removed in [&join, &guest_join] {
        let (status, body) = live
            .post(
                &format!(
                    "/api/_action/dsr/appointment/attendee/{}/remove",
                    removed["attendeeId"].as_str().unwrap()
                ),
                &guide,
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    // The same session is refused, as before.
    let path = "/store-api/dsr/appointment/demo-customers/join-as-client";
    let (status, body) = live
        .post(
            path,
            &As::Store(first_login.clone()),
            json!({"attendeeName": "Demo"}),
        )
        .await;
    assert_eq!(status, 403);
    assert_error(&body, 403, "DIGITAL_SALES_ROOMS__ATTENDEE_REMOVED");
    // A new login is a new session, and would be a new attendee: the same person.
    let second_login = live.customer_login().await;
    assert_ne!(second_login, first_login);
    let (status, body) = live
        .post(
            path,
            &As::Store(second_login),
            json!({"attendeeName": "Demo again"}),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_error(&body, 403, "DIGITAL_SALES_ROOMS__ATTENDEE_REMOVED");
    // A removed guest stays out on that device (its context token).
    let (status, body) = live
        .post(
            "/store-api/dsr/appointment/demo/join-as-client",
            &token_of(&guest_join),
            json!({"attendeeName": "Guest"}),
        )
        .await;
    assert_eq!(status, 403);
    assert_error(&body, 403, "DIGITAL_SALES_ROOMS__ATTENDEE_REMOVED");
}

#[tokio::test]
async fn a_customers_server_wishlist_reaches_the_guides() {
    let live = start().await;
    let guide = As::Guide(live.admin_token().await);
    let appointment_id = live.appointment_id(&guide, "demo-customers").await;
    let guide_join = live.join_as_guide(&guide, &appointment_id).await;
    let mut guide_socket = connect(&live, &guide_join).await;
    let customer = live.customer_login().await;
    let join = live
        .join_as_client("demo-customers", &As::Store(customer.clone()), "Demo")
        .await;
    let attendee_id = join["attendeeId"].as_str().unwrap().to_owned();
    let product = live.product_ids(1).await.remove(0);

    let (status, body) = live
        .post(
            &format!("/store-api/customer/wishlist/add/{product}"),
            &As::Store(customer.clone()),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let added = wait_for(&mut guide_socket, |e| match e {
        Event::AttendeeCollectionChanged {
            attendee_id: who,
            collection: Collection::Wishlist,
            product_id,
            added,
        } if *who == attendee_id => Some((product_id.clone(), *added)),
        _ => None,
    })
    .await;
    assert_eq!(added, (product.clone(), true));

    let (status, _, _) = live
        .call(
            reqwest::Method::DELETE,
            &format!("/store-api/customer/wishlist/delete/{product}"),
            &As::Store(customer),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let removed = wait_for(&mut guide_socket, |e| match e {
        Event::AttendeeCollectionChanged {
            attendee_id: who,
            collection: Collection::Wishlist,
            product_id,
            added,
        } if *who == attendee_id => Some((product_id.clone(), *added)),
        _ => None,
    })
    .await;
    assert_eq!(removed, (product, false));
}

#[tokio::test]
async fn the_presentation_state_carries_the_attendees_own_cart_permission() {
    let live = start().await;
    let ada = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let cleo = live.join_as_client("demo", &As::Nobody, "Cleo").await;
    let mut ada_socket = connect(&live, &ada).await;
    grant_cart_permission(&mut ada_socket).await;
    let (status, state) = live
        .get(
            "/store-api/dsr/appointment/presentation/state",
            &token_of(&ada),
        )
        .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["stateForClients"]["cartPermission"], "granted");
    let (_, state) = live
        .get(
            "/store-api/dsr/appointment/presentation/state",
            &token_of(&cleo),
        )
        .await;
    assert_eq!(
        state["stateForClients"]["cartPermission"], "missing",
        "each attendee sees only its own"
    );
}
