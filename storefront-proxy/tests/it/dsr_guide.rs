//! The guide's tools over the admin API: criteria searches, attendee product
//! collections, instant listings, widgets and the attendee's cart on their behalf.

use crate::dsr_support;

use dsr_support::*;
use protocol::action::Action;
use protocol::frame::{Collection, Event};
use reqwest::Method;
use serde_json::{json, Value};

struct Room {
    live: Live,
    guide: As,
    appointment_id: String,
    guide_join: Value,
}

async fn room() -> Room {
    let live = start().await;
    let guide = As::Guide(live.admin_token().await);
    let appointment_id = live.appointment_id(&guide, "demo").await;
    let guide_join = live.join_as_guide(&guide, &appointment_id).await;
    Room {
        live,
        guide,
        appointment_id,
        guide_join,
    }
}

fn ids(body: &Value) -> Vec<String> {
    body["data"]
        .as_array()
        .unwrap_or_else(|| panic!("{body}"))
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn attendee_searches_take_shopware_criteria() {
    let Room {
        live,
        guide,
        appointment_id,
        ..
    } = room().await;
    let ada = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let bob = live.join_as_client("demo", &As::Nobody, "Bob").await;
    let customer = live.customer_login().await;
    let other = live
        .join_as_client("demo-customers", &As::Store(customer), "Cleo")
        .await;
    let url = "/api/search/dsr-appointment-attendee";

    let (status, body) = live
        .post(url, &guide, json!({"filter": [{"type": "equals", "field": "appointmentId", "value": appointment_id}, {"type": "equals", "field": "type", "value": "CLIENT"}], "sort": [{"field": "attendeeName", "order": "DESC"}], "total-count-mode": 1}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        ids(&body),
        [
            bob["attendeeId"].as_str().unwrap(),
            ada["attendeeId"].as_str().unwrap()
        ]
    );
    assert_eq!(body["total"], 2);
    assert_eq!(body["data"][0]["apiAlias"], "dsr_appointment_attendee");
    assert_eq!(body["data"][0]["type"], "CLIENT");

    let (_, body) = live.post(url, &guide, json!({"filter": [{"type": "contains", "field": "dsr_appointment_attendee.attendeeName", "value": "le"}], "associations": {"appointment": {}}})).await;
    assert_eq!(ids(&body), [other["attendeeId"].as_str().unwrap()]);
    assert_eq!(
        body["data"][0]["appointment"]["presentationPath"],
        "demo-customers"
    );
    assert!(body["data"][0]["customerId"].is_string());

    let (_, body) = live
        .post(url, &guide, json!({"filter": [{"type": "multi", "operator": "or", "queries": [{"type": "equalsAny", "field": "attendeeName", "value": ["Ada", "Cleo"]}, {"type": "equals", "field": "type", "value": "GUIDE"}]}, {"type": "not", "queries": [{"type": "equals", "field": "appointment.presentationPath", "value": "demo-customers"}]}], "sort": [{"field": "joinedAt"}]}))
        .await;
    assert_eq!(body["total"], 2, "{body}");
    let (_, body) = live.post(url, &guide, json!({"filter": [{"type": "range", "field": "joinedAt", "parameters": {"gte": "2000-01-01"}}], "limit": 1, "page": 2, "total-count-mode": "exact"})).await;
    assert_eq!(body["data"].as_array().unwrap().len(), 1);
    assert_eq!(body["total"], 4, "three clients and the guide");
    let (_, body) = live.post(url, &guide, json!({"filter": [{"type": "equals", "field": "attendeeName", "value": "x' OR 1=1 --"}]})).await;
    assert_eq!(body["total"], 0, "values are bound, never SQL");

    for (criteria, pointer, code) in [
        (
            json!({"filter": [{"type": "equals", "field": "contextToken", "value": "x"}]}),
            "/filter/0/field",
            "FRAMEWORK__INVALID_FILTER_QUERY",
        ),
        (
            json!({"sort": [{"field": "secret"}]}),
            "/sort/0/field",
            "FRAMEWORK__INVALID_SORT_QUERY",
        ),
        (
            json!({"filter": [{"type": "fuzzy", "field": "type", "value": "x"}]}),
            "/filter/0/type",
            "FRAMEWORK__INVALID_FILTER_QUERY",
        ),
        (
            json!({"limit": -1}),
            "/limit",
            "FRAMEWORK__INVALID_LIMIT_QUERY",
        ),
        (
            json!({"total-count-mode": "sometimes"}),
            "/total-count-mode",
            "FRAMEWORK__INVALID_TOTAL_COUNT_MODE",
        ),
        (
            json!({"term": "Ada"}),
            "/term",
            "FRAMEWORK__INVALID_CRITERIA_TERM",
        ),
    ] {
        let (status, error) = live.post(url, &guide, criteria).await;
        assert_eq!(status, 400, "{error}");
        assert_eq!(error["errors"][0]["source"]["pointer"], pointer, "{error}");
        assert_eq!(error["errors"][0]["code"], code);
    }
    let (status, _) = live.send_raw(Method::POST, url, &guide, "{nope").await;
    assert_eq!(status, 400);

    // Products, with the catalogue's criteria.
    let (status, body) = live.post("/api/search/product", &guide, json!({"filter": [{"type": "range", "field": "stock", "parameters": {"gt": 0}}], "sort": [{"field": "name"}], "limit": 5, "total-count-mode": "exact"})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"].as_array().unwrap().len(), 5);
    assert!(body["total"].as_u64().unwrap() >= 5);
    assert_eq!(body["data"][0]["apiAlias"], "product");
    let (status, _) = live
        .post(
            "/api/search/product",
            &guide,
            json!({"filter": [{"type": "equals", "field": "password", "value": 1}]}),
        )
        .await;
    assert_eq!(status, 400);

    // In the guide's language (`sw-language-id`), as the German cockpit asks.
    let flannel =
        json!({"filter": [{"type": "equals", "field": "productNumber", "value": "SR10003"}]});
    let (_, english) = live
        .post("/api/search/product", &guide, flannel.clone())
        .await;
    assert_eq!(
        english["data"][0]["translated"]["name"], "Flannel shirt",
        "{english}"
    );
    let german = live.language_id("de-DE").await;
    let in_language = |id: &str| {
        live.request(Method::POST, "/api/search/product", &guide)
            .header("sw-language-id", id)
            .json(&flannel)
    };
    let response = in_language(&german).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["data"][0]["translated"]["name"], "Flanellhemd",
        "{body}"
    );
    for unknown in ["0123456789abcdef0123456789abcdef", "not-a-language"] {
        let response = in_language(unknown).send().await.unwrap();
        assert_eq!(response.status(), 412, "{unknown}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(
            body["errors"][0]["code"], "SYSTEM__SALES_CHANNEL_LANGUAGE_NOT_AVAILABLE_EXCEPTION",
            "{body}"
        );
    }
}

#[tokio::test]
async fn attendee_product_collections_as_a_resource() {
    let Room {
        live,
        guide,
        guide_join,
        ..
    } = room().await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let client = token_of(&join);
    let attendee_id = join["attendeeId"].as_str().unwrap().to_owned();
    let mut guide_socket = connect(&live, &guide_join).await;
    let products = live.product_ids(3).await;

    let (status, _) = live
        .post(
            &format!(
                "/store-api/dsr/appointment/collection/liked/{}",
                products[0]
            ),
            &client,
            json!({}),
        )
        .await;
    assert_eq!(status, 204);
    let (status, body, headers) = live
        .call(
            Method::POST,
            "/api/dsr-attendee-product-collection",
            &guide,
            Some(json!({"attendeeId": attendee_id, "productId": products[1], "alias": "liked"})),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    let location = headers
        .get("location")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    wait_for(&mut guide_socket, |e| match e {
        Event::AttendeeCollectionChanged {
            product_id,
            collection: Collection::Liked,
            added: true,
            ..
        } if *product_id == products[1] => Some(()),
        _ => None,
    })
    .await;
    let (_, liked) = live
        .get("/store-api/dsr/appointment/collection/liked", &client)
        .await;
    assert_eq!(
        liked["collection"]["liked"].as_array().unwrap().len(),
        2,
        "{liked}"
    );

    let (status, body) = live
        .post("/api/search/dsr-attendee-product-collection", &guide, json!({"filter": [{"type": "equals", "field": "attendeeId", "value": attendee_id}, {"type": "equals", "field": "alias", "value": "liked"}], "associations": {"product": {}, "attendee": {}}, "sort": [{"field": "productId"}]}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["total"], 2);
    let entry = &body["data"][0];
    assert_eq!(entry["apiAlias"], "dsr_attendee_product_collection");
    assert_eq!(entry["product"]["id"], entry["productId"]);
    assert_eq!(entry["attendee"]["attendeeName"], "Ada");

    let (status, body) = live.get(&location, &guide).await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["id"].as_str().unwrap().to_owned();
    assert_eq!(body["data"]["productId"], products[1]);
    let (status, _) = live
        .patch(&location, &guide, json!({"alias": "disliked"}))
        .await;
    assert_eq!(status, 204);
    let (_, disliked) = live
        .get("/store-api/dsr/appointment/collection/disliked", &client)
        .await;
    assert_eq!(disliked["collection"]["disliked"], json!([products[1]]));
    let (status, body) = live
        .patch(&location, &guide, json!({"alias": "hated"}))
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["errors"][0]["source"]["pointer"], "/alias");
    let (status, body) = live
        .get("/api/dsr-attendee-product-collection?limit=1", &guide)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"].as_array().unwrap().len(), 1);

    for (body, pointer) in [
        (
            json!({"productId": products[2], "alias": "liked"}),
            "/attendeeId",
        ),
        (
            json!({"attendeeId": attendee_id, "productId": "x", "alias": "liked"}),
            "/productId",
        ),
        (
            json!({"attendeeId": attendee_id, "productId": products[2], "alias": "loved"}),
            "/alias",
        ),
    ] {
        let (status, error) = live
            .post("/api/dsr-attendee-product-collection", &guide, body)
            .await;
        assert_eq!(status, 400, "{error}");
        assert_eq!(error["errors"][0]["source"]["pointer"], pointer);
    }
    let (status, error) = live
        .post(
            "/api/dsr-attendee-product-collection",
            &guide,
            json!({"attendeeId": "f".repeat(32), "productId": products[2], "alias": "liked"}),
        )
        .await;
    assert_eq!(status, 404, "{error}");
    let (status, _) = live
        .post(
            "/api/dsr-attendee-product-collection",
            &guide,
            json!({"attendeeId": attendee_id, "productId": products[0], "alias": "liked"}),
        )
        .await;
    assert_eq!(status, 400, "already liked");

    let (status, _, _) = live.call(Method::DELETE, &location, &guide, None).await;
    assert_eq!(status, 204);
    let (status, body) = live
        .get(
            &format!("/api/dsr-attendee-product-collection/{id}"),
            &guide,
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "FRAMEWORK__ENTITY_NOT_FOUND");
    let (_, disliked) = live
        .get("/store-api/dsr/appointment/collection/disliked", &client)
        .await;
    assert_eq!(disliked["collection"]["disliked"], json!([]));
}

/// A client in the room, the structure it sees, the demo's instant-listing layout and
/// the first slide's group (where new listings go after).
struct ListingSetUp {
    client: As,
    client_socket: Socket,
    structure: Value,
    layout: Value,
    welcome: String,
}

async fn listing_set_up(live: &Live) -> ListingSetUp {
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let client = token_of(&join);
    let client_socket = connect(live, &join).await;
    let structure = live.structure(&client).await;
    let layout = structure["navigation"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["groupName"] == "Instant listing")
        .unwrap()
        .clone();
    let welcome = structure["navigation"][0]["groupId"]
        .as_str()
        .unwrap()
        .to_owned();
    ListingSetUp {
        client,
        client_socket,
        structure,
        layout,
        welcome,
    }
}

#[tokio::test]
async fn instant_listings_need_a_layout_and_reach_the_room() {
    let Room {
        live,
        guide,
        appointment_id,
        ..
    } = room().await;
    let ListingSetUp {
        client,
        mut client_socket,
        structure,
        layout,
        welcome,
    } = listing_set_up(&live).await;
    let slides_before = structure["navigation"].as_array().unwrap().len();
    let products = live.product_ids(3).await;
    let url = format!("/api/_action/dsr/appointment/{appointment_id}/instant-listing");
    let pages = || {
        live.db()
            .query_row("SELECT COUNT(*) FROM presentation_page", [], |r| {
                r.get::<_, i64>(0)
            })
            .unwrap()
    };
    let pages_before = pages();

    // Half a layout: 'The layout does not exist', and nothing is created.
    for (body, pointer) in [
        (
            json!({"productIds": products, "pageId": layout["cmsPageId"]}),
            "/slideId",
        ),
        (
            json!({"productIds": products, "slideId": layout["sectionId"]}),
            "/pageId",
        ),
    ] {
        let (status, error) = live.post(&url, &guide, body).await;
        assert_eq!(status, 400, "{error}");
        assert_error(&error, 400, "DIGITAL_SALES_ROOMS__LAYOUT_NOT_FOUND");
        assert_eq!(error["errors"][0]["detail"], "The layout does not exist");
        assert_eq!(error["errors"][0]["source"]["pointer"], pointer);
    }
    let (status, error) =
        live.post(&url, &guide, json!({"productIds": products, "pageId": layout["cmsPageId"], "slideId": "f".repeat(32)})).await;
    assert_eq!(status, 404, "{error}");
    assert_eq!(error["errors"][0]["detail"], "The layout does not exist");
    for body in [
        json!({"pageId": layout["cmsPageId"], "slideId": layout["sectionId"]}),
        json!({"productIds": ["x"], "pageId": layout["cmsPageId"], "slideId": layout["sectionId"]}),
        json!({"productIds": ["f".repeat(32)], "pageId": layout["cmsPageId"], "slideId": layout["sectionId"]}),
    ] {
        let (status, error) = live.post(&url, &guide, body).await;
        assert!(status == 400 || status == 404, "{error}");
    }
    let (status, _) = live.send_raw(Method::POST, &url, &guide, "[").await;
    assert_eq!(status, 400);
    assert_eq!(pages(), pages_before, "refused listings created nothing");

    let body = json!({"productIds": products, "currentPageGroupId": welcome, "pageName": "Picks for Ada", "pageId": layout["cmsPageId"], "slideId": layout["sectionId"]});
    let (status, created) = live.post(&url, &guide, body).await;
    assert_eq!(status, 201, "{created}");
    // Right after the welcome page's two slides.
    assert_eq!(created["index"], 3);
    let group = wait_for(&mut client_socket, |e| match e {
        Event::Reload {
            action:
                Action::LoadSlide {
                    page_id,
                    section_id,
                },
        } if *section_id == layout["sectionId"] => Some(page_id.clone()),
        _ => None,
    })
    .await;
    let structure = live.structure(&client).await;
    let navigation = structure["navigation"].as_array().unwrap();
    assert_eq!(navigation.len(), slides_before + 1);
    assert_eq!(navigation[2]["groupId"], group);
    assert_eq!(navigation[2]["groupName"], "Picks for Ada");
    assert_eq!(navigation[2]["isInstantListing"], true);
    assert_eq!(navigation[2]["pickedProductsCount"], 3);
    let (status, slide) = live
        .get(
            &format!(
                "/store-api/dsr/appointment/presentation/{group}/slide/{}",
                layout["sectionId"].as_str().unwrap()
            ),
            &client,
        )
        .await;
    assert_eq!(status, 200, "{slide}");
    assert_eq!(
        slide["extensions"]["cmsPageRelation"]["pickedProductIds"],
        json!(products)
    );

    // Another appointment's attendees do not see it.
    let customer = live.customer_login().await;
    let other = token_of(
        &live
            .join_as_client("demo-customers", &As::Store(customer), "Cleo")
            .await,
    );
    assert_eq!(
        live.structure(&other).await["navigation"]
            .as_array()
            .unwrap()
            .len(),
        slides_before
    );
    let (status, _) = live
        .get(
            &format!(
                "/store-api/dsr/appointment/presentation/{group}/slide/{}",
                layout["sectionId"].as_str().unwrap()
            ),
            &other,
        )
        .await;
    assert_eq!(status, 404);

    // Changing its products.
    let extra = live.product_ids(5).await.pop().unwrap();
    let (status, updated) = live
        .patch(&url, &guide, json!({"currentPageGroupId": group, "addProductIds": [extra], "removeProductIds": [products[0]], "pageId": layout["cmsPageId"], "slideId": layout["sectionId"]}))
        .await;
    assert_eq!(status, 200, "{updated}");
    assert_eq!(
        updated["pickedProductIds"],
        json!([products[1], products[2], extra])
    );
    assert_eq!(updated["title"], "Picks for Ada");
    let shown = wait_for(&mut client_socket, |e| match e {
        Event::Reload {
            action: Action::UpdateListingProducts { product_ids, .. },
        } => Some(product_ids.len()),
        _ => None,
    })
    .await;
    assert_eq!(shown, 3);
    // As documented: without a layout the listing keeps its own.
    let (status, updated) =
        live.patch(&url, &guide, json!({"currentPageGroupId": group, "addProductIds": [products[0]], "removeProductIds": []})).await;
    assert_eq!(status, 200, "{updated}");
    assert_eq!(
        updated["pickedProductIds"],
        json!([products[1], products[2], extra, products[0]])
    );
    let (status, error) =
        live.patch(&url, &guide, json!({"currentPageGroupId": group, "addProductIds": [extra], "pageId": layout["cmsPageId"]})).await;
    assert_eq!(status, 400);
    assert_eq!(error["errors"][0]["detail"], "The layout does not exist");
    let (status, _) = live
        .patch(
            &url,
            &guide,
            json!({"currentPageGroupId": welcome, "addProductIds": [extra], "pageId": layout["cmsPageId"], "slideId": layout["sectionId"]}),
        )
        .await;
    assert_eq!(status, 404, "only instant listings are edited");

    // As the official document has it (productIds, currentPageGroupId and pageName
    // only): the presentation's default listing layout, right after the named page.
    let body = json!({"productIds": [products[0]], "currentPageGroupId": welcome, "pageName": "Documented"});
    let (status, created) = live.post(&url, &guide, body).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["index"], 3);
    let navigation = live.structure(&client).await["navigation"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(navigation[2]["groupName"], "Documented");
    assert_eq!(navigation[2]["cmsPageId"], layout["cmsPageId"]);
    assert_eq!(navigation[2]["sectionId"], layout["sectionId"]);
}

#[tokio::test]
async fn the_guide_edits_a_cart_only_with_permission_and_widgets_add_up() {
    let Room {
        live,
        guide,
        appointment_id,
        guide_join,
    } = room().await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let client = token_of(&join);
    let attendee_id = join["attendeeId"].as_str().unwrap().to_owned();
    let channel = join["salesChannelId"].as_str().unwrap().to_owned();
    let mut client_socket = connect(&live, &join).await;
    let mut guide_socket = connect(&live, &guide_join).await;
    let products = live.product_ids(2).await;
    let cart_url = format!("/api/_proxy/store-api/{channel}/checkout/cart");
    let item_url = format!("{cart_url}/line-item?attendeeId={attendee_id}");
    let add = json!({"items": [{"type": "product", "referencedId": products[0], "quantity": 2}]});

    // The attendee's own cart change reaches the guide.
    let (status, cart) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &client,
            json!({"items": [{"type": "product", "referencedId": products[1]}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    let (count, total) = wait_for(&mut guide_socket, |e| match e {
        Event::AttendeeCartChanged {
            attendee_id: who,
            line_item_count,
            total_price,
        } if *who == attendee_id => Some((*line_item_count, *total_price)),
        _ => None,
    })
    .await;
    assert_eq!(count, 1);
    assert_eq!(total, cart["price"]["totalPrice"].as_f64().unwrap());

    // Refused before the attendee grants it.
    let (status, body) = live.post(&item_url, &guide, add.clone()).await;
    assert_eq!(status, 403, "{body}");
    assert_error(
        &body,
        403,
        "DIGITAL_SALES_ROOMS__ATTENDEE_CART_PERMISSION_MISSING",
    );
    let (status, _, _) = live
        .call(
            Method::GET,
            &cart_url,
            &As::Guide(live.admin_token().await),
            None,
        )
        .await;
    assert_eq!(status, 400, "no attendee named");
    grant_cart_permission(&mut client_socket).await;

    // Allowed after: by attendee id, or with the attendee's context token.
    let (status, cart) = live.post(&item_url, &guide, add.clone()).await;
    assert_eq!(status, 200, "{cart}");
    assert_eq!(cart["lineItems"].as_array().unwrap().len(), 2);
    let (count, _) = wait_for(&mut guide_socket, |e| match e {
        Event::AttendeeCartChanged {
            attendee_id: who,
            line_item_count,
            total_price,
        } if *who == attendee_id => Some((*line_item_count, *total_price)),
        _ => None,
    })
    .await;
    assert_eq!(count, 2);
    let As::Store(token) = &client else {
        unreachable!()
    };
    let response = live
        .http
        .get(format!("{}{cart_url}", live.base))
        .header(
            "authorization",
            match &guide {
                As::Guide(b) => format!("Bearer {b}"),
                _ => unreachable!(),
            },
        )
        .header("sw-context-token", token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let (_, own) = live.get("/store-api/checkout/cart", &client).await;
    assert_eq!(
        own["lineItems"].as_array().unwrap().len(),
        2,
        "the attendee's own cart changed"
    );
    let (status, cart) = live
        .patch(
            &item_url,
            &guide,
            json!({"items": [{"id": products[0], "quantity": 3}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    let (status, body) = live.post(&item_url, &guide, json!({"items": []})).await;
    assert_eq!(status, 400, "{body}");
    let (status, _, _) = live
        .call(
            Method::DELETE,
            &format!("{item_url}&ids[]={}", products[1]),
            &guide,
            None,
        )
        .await;
    assert_eq!(status, 200);

    // Widgets: likes, last seen, carts.
    let (status, _) = live
        .post(
            &format!(
                "/store-api/dsr/appointment/collection/liked/{}",
                products[1]
            ),
            &client,
            json!({}),
        )
        .await;
    assert_eq!(status, 204);
    let (status, _) = live
        .post(
            "/store-api/dsr/interaction",
            &client,
            json!({"name": "product.viewed", "payload": {"productId": products[0]}}),
        )
        .await;
    assert_eq!(status, 200);
    let widget =
        |name: &str| format!("/api/_action/dsr/appointment/{appointment_id}/widgets/{name}");
    for name in ["wishlist", "wishlist-statistics"] {
        let (status, body) = live.get(&widget(name), &guide).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["total"], 1);
        assert_eq!(body["products"][0]["id"], products[1]);
        assert_eq!(
            body["products"][0]["customFields"]["wishlistAttendeeIds"],
            json!([attendee_id])
        );
    }
    let (_, body) = live.get(&widget("last-seen-statistics"), &guide).await;
    assert_eq!(body["products"][0]["id"], products[0], "{body}");
    let (_, body) = live
        .get(
            &format!("{}?attendeeId={}", widget("wishlist"), "f".repeat(32)),
            &guide,
        )
        .await;
    assert_eq!(body["total"], 0);
    let (status, body) = live.get(&widget("cart-statistics"), &guide).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["apiAlias"], "cart");
    assert_eq!(body["lineItems"].as_array().unwrap().len(), 1);
    assert_eq!(body["lineItems"][0]["referencedId"], products[0]);
    assert_eq!(body["lineItems"][0]["quantity"], 3);
    assert_eq!(
        body["lineItems"][0]["payload"]["attendeeIds"],
        json!([attendee_id])
    );
    let (_, own) = live.get("/store-api/checkout/cart", &client).await;
    assert_eq!(body["price"]["totalPrice"], own["price"]["totalPrice"]);
    let (status, _) = live
        .get(
            &format!("{}?sort=secret", widget("cart-statistics")),
            &guide,
        )
        .await;
    assert_eq!(status, 400);
    let (_, insights) = live.get(&widget("attendee-insights"), &guide).await;
    assert_eq!(
        insights["attendees"][&attendee_id]["productCount"], 3,
        "{insights}"
    );
    assert_eq!(insights["attendees"][&attendee_id]["lineItemCount"], 1);
    assert_eq!(insights["currencySymbol"], "€");
    let (_, insights) = live.get(&widget("cart-insights"), &guide).await;
    assert_eq!(insights["productCount"], 3, "{insights}");
    assert_eq!(
        insights["topProducts"]["byQuantity"][0]["productId"],
        products[0]
    );
    let (status, body) = live
        .get(
            &format!(
                "/api/_action/dsr/appointment/{}/widgets/wishlist",
                "f".repeat(32)
            ),
            &guide,
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_FOUND");
}

#[tokio::test]
async fn the_guide_finds_who_ordered() {
    let Room { live, guide, .. } = room().await;
    let customer = As::Store(live.customer_login().await);
    let product = live.product_ids(1).await.remove(0);
    let (status, cart) = live
        .post(
            "/store-api/checkout/cart/line-item",
            &customer,
            json!({"items": [{"type": "product", "referencedId": product}]}),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    let (status, order) = live
        .post("/store-api/checkout/order", &customer, json!({"tos": true}))
        .await;
    assert_eq!(status, 200, "{order}");
    let customer_id = order["orderCustomer"]["customerId"]
        .as_str()
        .unwrap()
        .to_owned();

    let criteria = json!({"filter": [{"type": "equalsAny", "field": "customerId", "value": [customer_id]}], "associations": {"order": {}}});
    let (status, found) = live
        .post("/api/search/order-customer", &guide, criteria)
        .await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["total"], 1);
    assert_eq!(found["data"][0]["email"], "demo@example.com");
    assert_eq!(
        found["data"][0]["order"]["orderNumber"],
        order["orderNumber"]
    );

    let (status, body) = live
        .post(
            "/api/search/order-customer",
            &guide,
            json!({"filter": [{"type": "equals", "field": "password", "value": "x"}]}),
        )
        .await;
    assert_eq!(status, 400, "fields outside the list are refused: {body}");
    let (status, _) = live
        .post("/api/search/order-customer", &customer, json!({}))
        .await;
    assert_eq!(status, 401, "a store context is no admin");
}

#[tokio::test]
async fn a_published_instant_listing_is_deleted_and_attendees_reload() {
    let Room {
        live,
        guide,
        appointment_id,
        ..
    } = room().await;
    let ListingSetUp {
        client,
        mut client_socket,
        structure,
        layout,
        welcome,
    } = listing_set_up(&live).await;
    let before: Vec<Value> = structure["navigation"].as_array().unwrap().clone();
    let url = format!("/api/_action/dsr/appointment/{appointment_id}/instant-listing");
    let body = json!({"productIds": live.product_ids(2).await, "currentPageGroupId": welcome, "pageName": "Gone soon", "pageId": layout["cmsPageId"], "slideId": layout["sectionId"]});
    let (status, created) = live.post(&url, &guide, body).await;
    assert_eq!(status, 201, "{created}");
    let group = live.structure(&client).await["navigation"][2]["groupId"]
        .as_str()
        .unwrap()
        .to_owned();

    // Only an instant listing of this appointment, by a guide, with a valid id.
    let (status, error, _) = delete(&live, &format!("{url}/{welcome}"), &guide).await;
    assert_eq!(status, 404, "{error}");
    assert_error(
        &error,
        404,
        "DIGITAL_SALES_ROOMS__PRESENTATION_PAGE_NOT_FOUND",
    );
    let (status, _, _) = delete(&live, &format!("{url}/not-an-id"), &guide).await;
    assert_eq!(status, 400);
    let (status, _, _) = delete(&live, &format!("{url}/{group}"), &client).await;
    assert_eq!(status, 401);
    let other = live.appointment_id(&guide, "demo-customers").await;
    let (status, _, _) = delete(
        &live,
        &format!("/api/_action/dsr/appointment/{other}/instant-listing/{group}"),
        &guide,
    )
    .await;
    assert_eq!(
        status, 404,
        "another appointment's listing is not this one's"
    );
    assert_eq!(
        live.structure(&client).await["navigation"]
            .as_array()
            .unwrap()
            .len(),
        before.len() + 1,
        "refusals deleted nothing"
    );

    let (status, _, _) = delete(&live, &format!("{url}/{group}"), &guide).await;
    assert_eq!(status, 204);
    let reloaded = wait_for(&mut client_socket, |e| match e {
        Event::Reload {
            action: Action::LoadSlide { page_id, .. },
        } if *page_id == group => Some(page_id.clone()),
        _ => None,
    })
    .await;
    assert_eq!(reloaded, group);
    let after = live.structure(&client).await["navigation"]
        .as_array()
        .unwrap()
        .clone();
    let groups = |slides: &[Value]| {
        slides
            .iter()
            .map(|s| (s["groupId"].clone(), s["index"].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        groups(&after),
        groups(&before),
        "the presentation is as before the listing, numbered as before"
    );
    let (status, _, _) = delete(&live, &format!("{url}/{group}"), &guide).await;
    assert_eq!(status, 404, "deleted once");
}

async fn delete(live: &Live, path: &str, who: &As) -> (u16, Value, reqwest::header::HeaderMap) {
    live.call(Method::DELETE, path, who, None).await
}

#[tokio::test]
async fn saved_products_are_kept_per_appointment_in_order() {
    let Room {
        live,
        guide,
        appointment_id,
        ..
    } = room().await;
    let url = format!("/api/_action/dsr/appointment/{appointment_id}/saved-products");
    let products = live.product_ids(3).await;
    let (status, body) = live.get(&url, &guide).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"total": 0, "productIds": [], "elements": []}));

    // Refused: no list, an empty one, a bad id, an unknown product, not a guide; nothing saved.
    for (request, expected) in [
        (json!({}), 400),
        (json!({"productIds": []}), 400),
        (json!({"productIds": ["x"]}), 400),
        (json!({"productIds": [products[0], "f".repeat(32)]}), 404),
    ] {
        let (status, error) = live.post(&url, &guide, request).await;
        assert_eq!(status, expected, "{error}");
        assert!(error["errors"][0]["code"].is_string(), "{error}");
    }
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let (status, _) = live
        .post(&url, &token_of(&join), json!({"productIds": [products[0]]}))
        .await;
    assert_eq!(status, 401);
    assert_eq!(live.get(&url, &guide).await.1["total"], 0);

    let (status, body) = live
        .post(
            &url,
            &guide,
            json!({"productIds": [products[1], products[0]]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, body) = live
        .post(
            &url,
            &guide,
            json!({"productIds": [products[0], products[2]]}),
        )
        .await;
    assert_eq!(
        body["productIds"],
        json!([products[1], products[0], products[2]]),
        "already saved ones keep their place"
    );
    // Another appointment has its own.
    let other = live.appointment_id(&guide, "demo-customers").await;
    assert_eq!(
        live.get(
            &format!("/api/_action/dsr/appointment/{other}/saved-products"),
            &guide
        )
        .await
        .1["total"],
        0
    );

    let (status, _, _) = live
        .call(
            Method::DELETE,
            &format!("{url}/{}", products[0]),
            &guide,
            None,
        )
        .await;
    assert_eq!(status, 204);
    let (status, error, _) = live
        .call(
            Method::DELETE,
            &format!("{url}/{}", products[0]),
            &guide,
            None,
        )
        .await;
    assert_eq!(status, 404, "{error}");
    assert_eq!(
        live.get(&url, &guide).await.1["productIds"],
        json!([products[1], products[2]])
    );
    let (status, _, _) = live.call(Method::DELETE, &url, &guide, None).await;
    assert_eq!(status, 204);
    assert_eq!(live.get(&url, &guide).await.1["total"], 0);
    let (status, _) = live
        .get(
            &format!(
                "/api/_action/dsr/appointment/{}/saved-products",
                "f".repeat(32)
            ),
            &guide,
        )
        .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn saved_products_are_reordered_and_noted_by_the_guide() {
    let Room {
        live,
        guide,
        appointment_id,
        ..
    } = room().await;
    let url = format!("/api/_action/dsr/appointment/{appointment_id}/saved-products");
    let p = live.product_ids(3).await;
    live.post(&url, &guide, json!({"productIds": [p[0], p[1], p[2]]}))
        .await;
    let patch = |product: &str, body: Value| {
        let path = format!("{url}/{product}");
        let live = &live;
        let guide = &guide;
        async move {
            let (status, body, _) = live.call(Method::PATCH, &path, guide, Some(body)).await;
            (status, body)
        }
    };

    // Moved last to first, then the first to past the end (clamped to the last place).
    let (status, body) = patch(&p[2], json!({"position": 0})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["productIds"], json!([p[2], p[0], p[1]]));
    let (_, body) = patch(&p[2], json!({"position": 99})).await;
    assert_eq!(body["productIds"], json!([p[0], p[1], p[2]]));

    // A note, trimmed; kept when only the place changes; cleared by "" and by null.
    let (status, body) = patch(&p[1], json!({"note": "  Ask about the size  "})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["elements"][1],
        json!({"productId": p[1], "position": 1, "note": "Ask about the size"})
    );
    let (_, body) = patch(&p[1], json!({"position": 0})).await;
    assert_eq!(
        body["elements"][0],
        json!({"productId": p[1], "position": 0, "note": "Ask about the size"})
    );
    assert_eq!(live.get(&url, &guide).await.1, body, "kept as answered");
    let (_, body) = patch(&p[1], json!({"note": ""})).await;
    assert_eq!(body["elements"][0]["note"], Value::Null);
    patch(&p[1], json!({"note": "again"})).await;
    let (_, body) = patch(&p[1], json!({"note": null})).await;
    assert_eq!(body["elements"][0]["note"], Value::Null);

    // Refused, nothing changed: nothing to change, a bad position, a note too long, not a
    // text, a product not saved, a bad id, an unknown appointment, an attendee.
    let before = live.get(&url, &guide).await.1;
    let too_long = "x".repeat(storefront_proxy::dsr::saved_products::MAX_NOTE_CHARS + 1);
    for (product, request, expected) in [
        (p[0].clone(), json!({}), 400),
        (p[0].clone(), json!({"position": -1}), 400),
        (p[0].clone(), json!({"position": "first"}), 400),
        (p[0].clone(), json!({"note": too_long}), 400),
        (p[0].clone(), json!({"note": 5, "position": 0}), 400),
        ("f".repeat(32), json!({"position": 0}), 404),
        ("not-an-id".to_owned(), json!({"position": 0}), 400),
    ] {
        let (status, error) = patch(&product, request.clone()).await;
        assert_eq!(status, expected, "{request}: {error}");
        assert!(error["errors"][0]["code"].is_string(), "{error}");
    }
    let (status, _, _) = live
        .call(
            Method::PATCH,
            &format!(
                "/api/_action/dsr/appointment/{}/saved-products/{}",
                "f".repeat(32),
                p[0]
            ),
            &guide,
            Some(json!({"position": 0})),
        )
        .await;
    assert_eq!(status, 404);
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let (status, _, _) = live
        .call(
            Method::PATCH,
            &format!("{url}/{}", p[0]),
            &token_of(&join),
            Some(json!({"position": 2})),
        )
        .await;
    assert_eq!(status, 401);
    assert_eq!(live.get(&url, &guide).await.1, before, "nothing changed");
}

#[tokio::test]
async fn saved_products_stop_at_the_limit() {
    let Room {
        live,
        guide,
        appointment_id,
        ..
    } = room().await;
    let url = format!("/api/_action/dsr/appointment/{appointment_id}/saved-products");
    let limit = storefront_proxy::dsr::saved_products::MAX_SAVED_PRODUCTS;
    let products: Vec<String> = {
        let db = live.db();
        let mut statement = db
            .prepare("SELECT id FROM product WHERE active = 1 ORDER BY id LIMIT ?1")
            .unwrap();
        let ids = statement
            .query_map([limit as i64 + 1], |r| r.get(0))
            .unwrap();
        ids.map(Result::unwrap).collect()
    };
    assert_eq!(products.len(), limit + 1, "the demo has enough products");
    let (status, error) = live
        .post(&url, &guide, json!({"productIds": products}))
        .await;
    assert_eq!(status, 400, "{error}");
    assert_error(&error, 400, storefront_proxy::dsr::saved_products::TOO_MANY);
    assert_eq!(live.get(&url, &guide).await.1["total"], 0, "all or nothing");
}
