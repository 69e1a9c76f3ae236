//! Slides, slide products, the room's product listing, quick view and product pages,
//! against a real proxy and hub over a real SQLite file.

use crate::dsr_support;

use dsr_support::*;
use serde_json::{json, Value};

/// The navigation entry whose group is named `group` (and, if given, whose section is).
fn slide<'a>(structure: &'a Value, group: &str, section: Option<&str>) -> &'a Value {
    structure["navigation"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["groupName"] == group && section.is_none_or(|s| n["sectionName"] == s))
        .unwrap_or_else(|| panic!("no slide {group} in {structure}"))
}

fn slots(cms_page: &Value) -> Vec<Value> {
    cms_page["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| {
            s["blocks"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|b| b["slots"].as_array().unwrap().clone())
        })
        .collect()
}

fn slide_url(entry: &Value) -> String {
    format!(
        "/store-api/dsr/appointment/presentation/{}/slide/{}",
        entry["groupId"].as_str().unwrap(),
        entry["sectionId"].as_str().unwrap()
    )
}

/// A GET in German (`sw-language-id`).
async fn in_german(live: &Live, path: &str, who: &As) -> Value {
    let german = live.language_id("de-DE").await;
    let (status, body) = live.get_in(path, who, &german).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// The HTML of a note slot.
fn note_html(note: &Value) -> &str {
    note["translated"]["config"]["content"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("a note without content: {note}"))
}

#[tokio::test]
async fn guides_get_the_slide_notes_in_their_language_and_attendees_never() {
    let reference = reference();
    let live = start().await;
    let (_, _, guide_join) = live.guide_joins("demo").await;
    let guide_store = token_of(&guide_join);
    let client = token_of(&live.join_as_client("demo", &As::Nobody, "Ada").await);

    let structure = live.structure(&guide_store).await;
    assert_valid(&reference, "storeApi", "PresentationStructure", &structure);
    let welcome = slide(
        &structure,
        "Welcome",
        Some("Welcome to the autumn collection"),
    );
    let notes = welcome["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "{welcome}");
    let note = &notes[0];
    for (field, value) in [
        ("type", "notes"),
        ("slot", "content"),
        ("apiAlias", "cms_slot"),
    ] {
        assert_eq!(note[field], value, "{note}");
    }
    assert!(
        note["id"].is_string() && note["blockId"].is_string(),
        "{note}"
    );
    assert_eq!(note["config"], note["translated"]["config"]);
    assert!(
        note_html(note).contains("<strong>SALESROOM10</strong>"),
        "{note}"
    );
    // Several slides have notes; one has none.
    let with_notes = structure["navigation"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| !n["notes"].as_array().unwrap().is_empty())
        .count();
    assert!(with_notes >= 4, "{structure}");
    assert_eq!(
        slide(&structure, "Questions and thanks", Some("Your questions"))["notes"],
        json!([])
    );

    // In German.
    let german = in_german(
        &live,
        "/store-api/dsr/appointment/presentation",
        &guide_store,
    )
    .await;
    assert_valid(&reference, "storeApi", "PresentationStructure", &german);
    let german_note = &slide(
        &german,
        "Willkommen",
        Some("Willkommen zur Herbstkollektion"),
    )["notes"][0];
    assert_eq!(german_note["id"], note["id"]);
    assert!(
        note_html(german_note).contains("Begrüßen Sie alle"),
        "{german_note}"
    );

    // An attendee's structure has the same slides without any notes.
    let theirs = live.structure(&client).await;
    assert_valid(&reference, "storeApi", "PresentationStructure", &theirs);
    let slides = |s: &Value| {
        s["navigation"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["sectionId"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(slides(&theirs), slides(&structure));
    assert!(
        theirs["navigation"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["notes"] == json!([])),
        "{theirs}"
    );

    // Notes are never part of a slide's content, for anyone.
    for entry in structure["navigation"].as_array().unwrap() {
        for who in [&guide_store, &client] {
            let (status, body) = live.get(&slide_url(entry), who).await;
            assert_eq!(status, 200, "{body}");
            let text = body.to_string();
            assert!(!text.contains("\"notes\""), "{entry}: {body}");
            for note in entry["notes"].as_array().unwrap() {
                assert!(!text.contains(note["blockId"].as_str().unwrap()), "{body}");
            }
        }
    }
}

#[tokio::test]
async fn every_slide_resolves_with_its_content_and_products() {
    let live = start().await;
    let client = token_of(&live.join_as_client("demo", &As::Nobody, "Ada").await);
    let structure = live.structure(&client).await;
    let navigation = structure["navigation"].as_array().unwrap();
    assert!(navigation.len() >= 5, "{structure}");
    for entry in navigation {
        let (status, body) = live.get(&slide_url(entry), &client).await;
        assert_eq!(status, 200, "{entry}: {body}");
        let sections = body["cmsPage"]["sections"].as_array().unwrap();
        assert_eq!(sections.len(), 1, "only the requested slide");
        assert_eq!(sections[0]["id"], entry["sectionId"]);
        assert_eq!(sections[0]["apiAlias"], "cms_section");
        assert!(
            !sections[0]["blocks"].as_array().unwrap().is_empty(),
            "the slide has content: {body}"
        );
        assert_eq!(
            body["extensions"]["cmsPageRelation"]["id"],
            entry["groupId"]
        );
        assert_eq!(
            body["extensions"]["cmsPageRelation"]["cmsPageId"],
            entry["cmsPageId"]
        );
    }

    // Text slide in German.
    let welcome = slide(
        &structure,
        "Welcome",
        Some("Welcome to the autumn collection"),
    );
    let body = in_german(&live, &slide_url(welcome), &client).await;
    let text = slots(&body["cmsPage"])
        .into_iter()
        .find(|s| s["type"] == "text")
        .unwrap();
    assert!(
        text["data"]["content"]
            .as_str()
            .unwrap()
            .contains("Herbstkollektion"),
        "{text}"
    );

    // Product slider with product data.
    let (_, body) = live
        .get(
            &slide_url(slide(&structure, "Welcome", Some("Our bestsellers"))),
            &client,
        )
        .await;
    let slider = slots(&body["cmsPage"])
        .into_iter()
        .find(|s| s["type"] == "product-slider")
        .unwrap();
    let products = slider["data"]["products"].as_array().unwrap();
    assert_eq!(products.len(), 4, "{slider}");
    assert_eq!(products[0]["apiAlias"], "product");

    // Product detail slide: product, configurator and the buy box.
    let (_, body) = live
        .get(
            &slide_url(slide(&structure, "Product spotlight", None)),
            &client,
        )
        .await;
    assert_eq!(body["product"]["apiAlias"], "product", "{body}");
    assert!(body["configurator"].is_array());
    let buy_box = slots(&body["cmsPage"])
        .into_iter()
        .find(|s| s["type"] == "buy-box")
        .unwrap();
    assert_eq!(buy_box["data"]["product"]["id"], body["product"]["id"]);

    // Listing slide: its picked products.
    let listing = slide(&structure, "Instant listing", None);
    let (_, body) = live.get(&slide_url(listing), &client).await;
    let slot = slots(&body["cmsPage"])
        .into_iter()
        .find(|s| s["type"] == "product-listing")
        .unwrap();
    let picked = body["extensions"]["cmsPageRelation"]["pickedProductIds"]
        .as_array()
        .unwrap()
        .clone();
    assert!(!picked.is_empty());
    let shown: Vec<Value> = slot["data"]["listing"]["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].clone())
        .collect();
    assert_eq!(shown, picked, "picked products in their order");
}

#[tokio::test]
async fn slide_products_take_criteria() {
    let live = start().await;
    let client = token_of(&live.join_as_client("demo", &As::Nobody, "Ada").await);
    let structure = live.structure(&client).await;
    let listing = slide(&structure, "Instant listing", None);
    let url = format!("{}/products", slide_url(listing));
    let (status, all) = live.post(&url, &client, json!({})).await;
    assert_eq!(status, 200, "{all}");
    assert_eq!(all["apiAlias"], "product_listing");
    assert_eq!(all["limit"], 36, "the room's page size");
    let total = all["total"].as_u64().unwrap();
    assert!(total >= 4);
    let ids: Vec<Value> = all["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].clone())
        .collect();

    let (_, page2) = live
        .post(&url, &client, json!({"limit": 2, "page": 2}))
        .await;
    assert_eq!(page2["total"].as_u64().unwrap(), total);
    let second: Vec<Value> = page2["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].clone())
        .collect();
    assert_eq!(second, ids[2..4]);

    let (_, sorted) = live
        .post(
            &url,
            &client,
            json!({"sort": [{"field": "name", "order": "DESC"}]}),
        )
        .await;
    let names: Vec<String> = sorted["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["translated"]["name"].as_str().unwrap().to_lowercase())
        .collect();
    let mut expected = names.clone();
    expected.sort_by(|a, b| b.cmp(a));
    assert_eq!(names, expected);

    let first = ids[0].as_str().unwrap();
    let (_, filtered) = live
        .post(
            &url,
            &client,
            json!({"filter": [{"type": "equals", "field": "id", "value": first}]}),
        )
        .await;
    assert_eq!(filtered["total"], 1);

    // Likes come with `interaction`.
    let (status, _) = live
        .post(
            &format!("/store-api/dsr/appointment/collection/liked/{first}"),
            &client,
            json!({}),
        )
        .await;
    assert_eq!(status, 204);
    let (_, liked) = live
        .post(&url, &client, json!({"interaction": true, "limit": 1}))
        .await;
    assert_eq!(
        liked["elements"][0]["extensions"]["interaction"]["liked"], true,
        "{liked}"
    );

    for (body, pointer) in [
        (json!({"limit": 0}), "/limit"),
        (
            json!({"filter": [{"type": "equals", "field": "secret", "value": 1}]}),
            "/filter/0/field",
        ),
        (json!({"interaction": "maybe"}), "/interaction"),
    ] {
        let (status, error) = live.post(&url, &client, body).await;
        assert_eq!(status, 400, "{error}");
        assert_eq!(error["errors"][0]["source"]["pointer"], pointer, "{error}");
    }
    // Product slots of a non-listing slide.
    let (_, slider) = live
        .post(
            &format!(
                "{}/products",
                slide_url(slide(&structure, "Welcome", Some("Our bestsellers")))
            ),
            &client,
            json!({}),
        )
        .await;
    assert_eq!(slider["total"], 4, "{slider}");
}

#[tokio::test]
async fn missing_products_and_unknown_slides_are_refused() {
    let live = start().await;
    let client = token_of(&live.join_as_client("demo", &As::Nobody, "Ada").await);
    let structure = live.structure(&client).await;
    let detail = slide(&structure, "Product spotlight", None).clone();
    let listing = slide(&structure, "Instant listing", None).clone();

    let (status, body) = live
        .get(
            &format!(
                "/store-api/dsr/appointment/presentation/{}/slide/{}",
                detail["groupId"].as_str().unwrap(),
                listing["sectionId"].as_str().unwrap()
            ),
            &client,
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "DIGITAL_SALES_ROOMS__SLIDE_NOT_FOUND");
    let (status, body) =
        live.get("/store-api/dsr/appointment/presentation/not-an-id/slide/ffffffffffffffffffffffffffffffff", &client).await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "FRAMEWORK__INVALID_UUID");

    // The product of the detail slide and every picked product go away.
    let conn = live.db();
    let product: String = conn
        .query_row(
            "SELECT product_id FROM presentation_page WHERE id = ?1",
            [detail["groupId"].as_str().unwrap()],
            |r| r.get(0),
        )
        .unwrap();
    conn.execute("UPDATE product SET active = 0 WHERE id = ?1", [&product])
        .unwrap();
    let (status, body) = live.get(&slide_url(&detail), &client).await;
    assert_eq!(status, 404, "{body}");
    assert_error(
        &body,
        404,
        "DIGITAL_SALES_ROOMS__PRESENTATION_CMS_PAGE_MISSING_PRODUCT_EXCEPTION",
    );
    conn.execute(
        "UPDATE product SET active = 0 WHERE id IN (SELECT value FROM json_each((SELECT picked_product_ids FROM presentation_page WHERE id = ?1)))",
        [listing["groupId"].as_str().unwrap()],
    )
    .unwrap();
    let (status, body) = live.get(&slide_url(&listing), &client).await;
    assert_eq!(status, 404, "{body}");
    assert_error(
        &body,
        404,
        "DIGITAL_SALES_ROOMS__PRESENTATION_CMS_PAGE_MISSING_PRODUCTS_EXCEPTION",
    );
}

#[tokio::test]
async fn the_room_listing_pages_by_36_and_names_all_ids() {
    let live = start().await;
    let join = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let client = token_of(&join);
    let (status, listing) = live
        .post("/store-api/dsr/product-listing", &client, json!({}))
        .await;
    assert_eq!(status, 200, "{listing}");
    assert_eq!(listing["limit"], 36);
    let total = listing["total"].as_u64().unwrap();
    assert!(total >= 60, "the demo catalogue: {total}");
    assert_eq!(listing["elements"].as_array().unwrap().len(), 36);
    let all = listing["extensions"]["allIds"]["data"].as_array().unwrap();
    assert_eq!(all.len() as u64, total, "every id of the listing");
    let (_, without) = live
        .post(
            "/store-api/dsr/product-listing",
            &client,
            json!({"loadAllIds": false}),
        )
        .await;
    assert!(
        without["extensions"]["allIds"].is_null(),
        "{}",
        without["extensions"]
    );

    let picked = live.product_ids(3).await;
    let reversed: Vec<String> = picked.iter().rev().cloned().collect();
    let (_, listing) = live
        .post(
            "/store-api/dsr/product-listing",
            &client,
            json!({"productIds": reversed}),
        )
        .await;
    let ids: Vec<String> = listing["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids, reversed, "the given products, in their order");
    assert_eq!(listing["extensions"]["allIds"]["data"], json!(reversed));

    // Variants follow their main product.
    let conn = live.db();
    let parent: String = conn
        .query_row(
            "SELECT id FROM product WHERE child_count > 0 AND active = 1 LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let variants: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM product WHERE parent_id = ?1 AND active = 1",
            [&parent],
            |r| r.get(0),
        )
        .unwrap();
    let (_, listing) = live
        .post(
            "/store-api/dsr/product-listing",
            &client,
            json!({"productIds": [parent], "loadVariants": true}),
        )
        .await;
    let elements = listing["elements"].as_array().unwrap();
    assert_eq!(elements.len() as i64, 1 + variants);
    assert!(elements[1..].iter().all(|v| v["parentId"] == json!(parent)));

    // The products of a presentation page.
    let structure = live.structure(&client).await;
    let group = slide(&structure, "Instant listing", None)["groupId"]
        .as_str()
        .unwrap()
        .to_owned();
    let (_, listing) = live
        .post(
            "/store-api/dsr/product-listing",
            &client,
            json!({"currentPageGroupId": group, "interaction": true}),
        )
        .await;
    assert!(listing["total"].as_u64().unwrap() >= 4);
    assert_eq!(
        listing["elements"][0]["extensions"]["interaction"]["liked"],
        false
    );

    let (status, body) = live
        .post(
            "/store-api/dsr/product-listing",
            &client,
            json!({"appointmentIdToSync": join["id"]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = live
        .post(
            "/store-api/dsr/product-listing",
            &client,
            json!({"appointmentIdToSync": "f".repeat(32)}),
        )
        .await;
    assert_eq!(status, 403);
    assert_error(&body, 403, "DIGITAL_SALES_ROOMS__APPOINTMENT_MISMATCH");
    for (body, pointer) in [
        (json!({"productIds": ["nope"]}), "/productIds/0"),
        (json!({"productIds": 5}), "/productIds"),
        (json!({"loadVariants": "x"}), "/loadVariants"),
        (json!({"currentPageGroupId": "x"}), "/currentPageGroupId"),
    ] {
        let (status, error) = live
            .post("/store-api/dsr/product-listing", &client, body)
            .await;
        assert_eq!(status, 400, "{error}");
        assert_eq!(error["errors"][0]["source"]["pointer"], pointer, "{error}");
    }
    let (status, error) = live
        .post(
            "/store-api/dsr/product-listing",
            &client,
            json!({"currentPageGroupId": "f".repeat(32)}),
        )
        .await;
    assert_eq!(status, 404, "{error}");
}

#[tokio::test]
async fn quickview_and_product_pages() {
    let live = start().await;
    let client = token_of(&live.join_as_client("demo", &As::Nobody, "Ada").await);
    let structure = live.structure(&client).await;
    let layout = slide(&structure, "Product spotlight", None)["cmsPageId"]
        .as_str()
        .unwrap()
        .to_owned();
    let product = live.product_ids(1).await.remove(0);

    let (status, body) = live
        .get(
            &format!("/store-api/dsr/quickview/{product}/{layout}"),
            &client,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["product"]["id"], product);
    assert_eq!(body["cmsPage"]["id"], layout);
    let buy_box = slots(&body["cmsPage"])
        .into_iter()
        .find(|s| s["type"] == "buy-box")
        .unwrap();
    assert_eq!(buy_box["data"]["product"]["id"], product);
    assert!(body["configurator"].is_null(), "a product without variants");

    let (status, body) = live
        .get(&format!("/store-api/dsr/quickview/{product}"), &client)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["product"]["id"], product);

    let (status, body) = live
        .get(&format!("/store-api/dsr/product/{product}"), &client)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["product"]["id"], product);
    assert_eq!(body["apiAlias"], "product_page_result");

    let unknown = "f".repeat(32);
    let (status, body) = live
        .get(&format!("/store-api/dsr/product/{unknown}"), &client)
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CONTENT__PRODUCT_NOT_FOUND");
    let (status, body) = live
        .get(
            &format!("/store-api/dsr/quickview/{product}/{unknown}"),
            &client,
        )
        .await;
    assert_eq!(status, 404);
    assert_error(&body, 404, "CONTENT__CMS_PAGE_NOT_FOUND");
    let (status, _) = live.get("/store-api/dsr/quickview/xyz", &client).await;
    assert_eq!(status, 400);
}
