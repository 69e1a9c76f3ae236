//! A presentation's slides written through the Admin API (`pages` of
//! `dsr-presentation`): product listing (picked products or a category), product
//! detail, any CMS layout, order, notes per language; and the live room shows them so.

use crate::dsr_support;

use dsr_support::*;
use serde_json::{json, Value};

fn kinds(pages: &Value) -> Vec<String> {
    pages
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn slides_are_built_reordered_and_shown_in_the_room() {
    let live = start().await;
    let admin = As::Guide(live.admin_token().await);
    let products = live.product_ids(3).await;
    let en = live.language_id("en-GB").await;
    let de = live.language_id("de-DE").await;
    let layout: String = live
        .db()
        .query_row(
            "SELECT id FROM cms_page WHERE type = 'landingpage' ORDER BY rowid LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let category: String = live
        .db()
        .query_row("SELECT category_id FROM product_category GROUP BY category_id ORDER BY count(*) DESC LIMIT 1", [], |r| r.get(0))
        .unwrap();

    let (status, created) = live
        .post(
            "/api/dsr-presentation?_response=basic",
            &admin,
            json!({"name": "Built in the backoffice", "pages": [
                {"kind": "productListing", "title": "Picked", "productIds": [products[0], products[1]],
                 "notes": {"en-GB": "Say hello", "de-DE": "<p><strong>Begrüßen</strong> &amp; <a href=\"https://example.com/\">zeigen</a></p>"}},
                {"kind": "productDetail", "title": "The star", "productId": products[2],
                 "notes": {"en-GB": "<style>body{display:none}</style><form action=\"https://evil.example\"><input name=\"password\"></form><svg onload=\"alert(1)\"></svg><p style=\"position:fixed\" onclick=\"alert(2)\">Smile</p><a href=\"javascript:alert(3)\">x</a>"}},
                {"kind": "cms", "title": "Our story", "cmsPageId": layout},
            ]}),
        )
        .await;
    assert_eq!(status, 200, "{created}");
    let presentation = created["data"]["id"].as_str().unwrap().to_owned();
    let (_, read) = live
        .get(&format!("/api/dsr-presentation/{presentation}"), &admin)
        .await;
    let pages = read["data"]["pages"].clone();
    assert_eq!(
        kinds(&pages),
        ["productListing", "productDetail", "cms"],
        "{pages}"
    );
    assert_eq!(pages[0]["productIds"], json!([products[0], products[1]]));
    // Plain text is kept as a paragraph; HTML (the backoffice's rich text) as the
    // allow-list leaves it (#29 item 7): links get rel, styles, forms, SVG and handlers go.
    assert_eq!(pages[0]["notes"][&en], "<p>Say hello</p>");
    assert_eq!(
        pages[0]["notes"][&de],
        "<p><strong>Begrüßen</strong> &amp; <a href=\"https://example.com/\" rel=\"noopener noreferrer\">zeigen</a></p>"
    );
    assert_eq!(
        pages[1]["notes"][&en],
        "<p>Smile</p><a rel=\"noopener noreferrer\">x</a>"
    );
    assert_eq!(pages[1]["productId"], products[2].as_str());
    assert_eq!(pages[2]["cmsPageId"], layout.as_str());

    // Reordered (the detail slide first), a listing by category, German notes changed.
    let ids: Vec<&str> = pages
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    let (status, body) = live
        .patch(
            &format!("/api/dsr-presentation/{presentation}"),
            &admin,
            json!({"pages": [
                {"id": ids[1]},
                {"id": ids[0], "kind": "productListing", "categoryId": category, "notes": {"de-DE": "Hallo zusammen"}},
                {"id": ids[2]},
            ]}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    let (_, read) = live
        .get(&format!("/api/dsr-presentation/{presentation}"), &admin)
        .await;
    let pages = read["data"]["pages"].clone();
    assert_eq!(
        kinds(&pages),
        ["productDetail", "productListing", "cms"],
        "{pages}"
    );
    assert_eq!(pages[1]["notes"][&de], "<p>Hallo zusammen</p>");
    assert!(
        pages[1]["productIds"].as_array().unwrap().len() > 2,
        "the category's products: {pages}"
    );

    // Bad slides: each named at its field; nothing changes.
    let (status, bad) = live
        .patch(
            &format!("/api/dsr-presentation/{presentation}"),
            &admin,
            json!({"pages": [
                {"kind": "productDetail", "productId": "0".repeat(32)},
                {"kind": "slideshow"},
                {"kind": "productListing"},
                {"kind": "cms", "cmsPageId": layout, "notes": {"xx-XX": "?"}},
            ]}),
        )
        .await;
    assert_eq!(status, 400, "{bad}");
    let pointers: Vec<&str> = bad["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["source"]["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(
        pointers,
        [
            "/0/pages/0/productId",
            "/0/pages/1/kind",
            "/0/pages/2/productIds",
            "/0/pages/3/notes/xx-XX"
        ],
        "{bad}"
    );
    let (_, unchanged) = live
        .get(&format!("/api/dsr-presentation/{presentation}"), &admin)
        .await;
    assert_eq!(unchanged["data"]["pages"], pages);

    // The room: an appointment with this presentation shows the slides in this order,
    // the guide with the notes.
    let (status, appointment) = live
        .post(
            "/api/dsr-appointment?_response=basic",
            &admin,
            json!({"name": "Backoffice show", "presentationId": presentation, "presentationPath": "backoffice-show"}),
        )
        .await;
    assert_eq!(status, 200, "{appointment}");
    let appointment_id = appointment["data"]["id"].as_str().unwrap();
    let guide_join = live.join_as_guide(&admin, appointment_id).await;
    let structure = live.structure(&token_of(&guide_join)).await;
    let groups: Vec<&str> = structure["navigation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["groupId"].as_str().unwrap())
        .collect();
    let mut order: Vec<&str> = Vec::new();
    for group in groups {
        if order.last() != Some(&group) {
            order.push(group);
        }
    }
    let page_ids: Vec<&str> = pages
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(order, page_ids, "{structure}");
    let listing = structure["navigation"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["groupId"] == page_ids[1])
        .unwrap();
    assert_eq!(listing["notes"].as_array().unwrap().len(), 1, "{listing}");
    let client = live
        .join_as_client("backoffice-show", &As::Nobody, "Ada")
        .await;
    let theirs = live.structure(&token_of(&client)).await;
    assert_eq!(
        theirs["navigation"].as_array().unwrap().len(),
        structure["navigation"].as_array().unwrap().len()
    );

    // Removing a page removes the layout made for it, never a shared one.
    let (status, _) = live
        .patch(
            &format!("/api/dsr-presentation/{presentation}"),
            &admin,
            json!({"pages": [{"id": page_ids[2]}]}),
        )
        .await;
    assert_eq!(status, 204);
    let made: i64 = live
        .db()
        .query_row(
            "SELECT count(*) FROM cms_page WHERE name LIKE 'slide:%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(made, 0);
    let shared: bool = live
        .db()
        .query_row(
            "SELECT EXISTS(SELECT 1 FROM cms_page WHERE id = ?1)",
            [&layout],
            |r| r.get(0),
        )
        .unwrap();
    assert!(shared);
}

#[tokio::test]
async fn cms_layouts_are_listed_read_only() {
    let live = start().await;
    let admin = As::Guide(live.admin_token().await);
    let (status, found) = live
        .post(
            "/api/search/cms-page",
            &admin,
            json!({"filter": [{"type": "equals", "field": "type", "value": "landingpage"}]}),
        )
        .await;
    assert_eq!(status, 200, "{found}");
    assert!(found["total"].as_i64().unwrap() >= 1, "{found}");
    let id = found["data"][0]["id"].as_str().unwrap();
    let (status, refused) = live
        .post(
            "/api/cms-page",
            &admin,
            json!({"name": "x", "type": "page"}),
        )
        .await;
    assert!(status == 400 || status == 405, "{status} {refused}");
    let (status, _, _) = live
        .call(
            reqwest::Method::DELETE,
            &format!("/api/cms-page/{id}"),
            &admin,
            None,
        )
        .await;
    assert_eq!(status, 405);
}

/// The room's structure as `who` sees it in the language `language_id`.
async fn structure_in(live: &Live, who: &As, language_id: &str) -> Value {
    let response = live
        .request(
            reqwest::Method::GET,
            "/store-api/dsr/appointment/presentation",
            who,
        )
        .header("sw-language-id", language_id)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

fn group_names(structure: &Value) -> Vec<(String, String)> {
    let mut names: Vec<(String, String)> = Vec::new();
    for slide in structure["navigation"].as_array().unwrap() {
        let pair = (
            slide["groupName"].as_str().unwrap_or_default().to_owned(),
            slide["sectionName"].as_str().unwrap_or_default().to_owned(),
        );
        if names.last() != Some(&pair) {
            names.push(pair);
        }
    }
    names
}

#[tokio::test]
async fn slide_titles_are_kept_per_language_and_shown_in_the_viewers() {
    let live = start().await;
    let admin = As::Guide(live.admin_token().await);
    let products = live.product_ids(2).await;
    let en = live.language_id("en-GB").await;
    let de = live.language_id("de-DE").await;
    let (status, created) = live
        .post(
            "/api/dsr-presentation?_response=basic",
            &admin,
            json!({"name": "Titles", "pages": [
                {"kind": "productListing", "title": "Picked", "productIds": [products[0]],
                 "titles": {"en-GB": "Our picks", "de-DE": "Unsere Auswahl"}},
                {"kind": "productDetail", "title": "The star", "productId": products[1], "titles": {"en-GB": "The star"}},
            ]}),
        )
        .await;
    assert_eq!(status, 200, "{created}");
    let presentation = created["data"]["id"].as_str().unwrap().to_owned();
    let (_, read) = live
        .get(&format!("/api/dsr-presentation/{presentation}"), &admin)
        .await;
    let pages = read["data"]["pages"].clone();
    assert_eq!(
        pages[0]["titles"],
        json!({en.clone(): "Our picks", de.clone(): "Unsere Auswahl"}),
        "{pages}"
    );
    assert_eq!(pages[1]["titles"], json!({en.clone(): "The star"}));

    let (status, appointment) = live
        .post(
            "/api/dsr-appointment?_response=basic",
            &admin,
            json!({"name": "Titles show", "presentationId": presentation, "presentationPath": "titles-show"}),
        )
        .await;
    assert_eq!(status, 200, "{appointment}");
    let client = token_of(&live.join_as_client("titles-show", &As::Nobody, "Ada").await);
    // German where there is a German title, else the default language's (English).
    assert_eq!(
        group_names(&structure_in(&live, &client, &de).await),
        [
            ("Unsere Auswahl".into(), "Unsere Auswahl".into()),
            ("The star".into(), "The star".into())
        ]
    );
    assert_eq!(
        group_names(&structure_in(&live, &client, &en).await),
        [
            ("Our picks".into(), "Our picks".into()),
            ("The star".into(), "The star".into())
        ]
    );

    // The German title removed (empty text) and the English one removed (null): the
    // title written without a language is next.
    let ids: Vec<&str> = pages
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    let (status, body) = live
        .patch(
            &format!("/api/dsr-presentation/{presentation}"),
            &admin,
            json!({"pages": [{"id": ids[0], "titles": {"de-DE": "", "en-GB": null}}, {"id": ids[1]}]}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(
        group_names(&structure_in(&live, &client, &de).await)[0].0,
        "Picked"
    );

    // Refused, nothing changed: an unknown language, a title too long, not an object.
    let (_, before) = live
        .get(&format!("/api/dsr-presentation/{presentation}"), &admin)
        .await;
    let (status, bad) = live
        .patch(
            &format!("/api/dsr-presentation/{presentation}"),
            &admin,
            json!({"pages": [
                {"id": ids[0], "titles": {"xx-XX": "?"}},
                {"id": ids[1], "titles": {"de-DE": "x".repeat(300)}},
                {"kind": "productDetail", "productId": products[1], "titles": "Titel"},
            ]}),
        )
        .await;
    assert_eq!(status, 400, "{bad}");
    let pointers: Vec<&str> = bad["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["source"]["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(
        pointers,
        [
            "/0/pages/0/titles/xx-XX",
            "/0/pages/1/titles/de-DE",
            "/0/pages/2/titles"
        ],
        "{bad}"
    );
    let (_, after) = live
        .get(&format!("/api/dsr-presentation/{presentation}"), &admin)
        .await;
    assert_eq!(after, before);
}

#[tokio::test]
async fn the_demo_slides_and_groups_are_named_in_the_viewers_language() {
    let live = start().await;
    let en = live.language_id("en-GB").await;
    let de = live.language_id("de-DE").await;
    let client = token_of(&live.join_as_client("demo", &As::Nobody, "Ada").await);
    let german = group_names(&structure_in(&live, &client, &de).await);
    assert_eq!(
        german[0],
        (
            "Willkommen".into(),
            "Willkommen zur Herbstkollektion".into()
        ),
        "{german:?}"
    );
    assert!(
        german.contains(&("Fragen und Dank".into(), "Vielen Dank".into())),
        "{german:?}"
    );
    let english = group_names(&structure_in(&live, &client, &en).await);
    assert_eq!(
        english[0],
        ("Welcome".into(), "Welcome to the autumn collection".into()),
        "{english:?}"
    );
    // A slide without a German name falls back to the default language's (English) name.
    live.db()
        .execute(
            "DELETE FROM cms_section_translation WHERE name = 'Vielen Dank'",
            [],
        )
        .unwrap();
    let german = group_names(&structure_in(&live, &client, &de).await);
    assert!(
        german.contains(&("Fragen und Dank".into(), "Thank you".into())),
        "{german:?}"
    );
}

/// The slot types and the texts (in the viewer's language) of a slide's content.
fn slide_content(slide: &Value) -> (Vec<String>, Vec<String>) {
    let mut types = Vec::new();
    let mut texts = Vec::new();
    for section in slide["cmsPage"]["sections"].as_array().unwrap() {
        for block in section["blocks"].as_array().unwrap() {
            for slot in block["slots"].as_array().unwrap() {
                types.push(slot["type"].as_str().unwrap().to_owned());
                if let Some(text) = slot["data"]["content"].as_str() {
                    texts.push(text.to_owned());
                }
            }
        }
    }
    (types, texts)
}

#[tokio::test]
async fn text_image_and_product_slides_are_made_without_a_layout() {
    let live = start().await;
    let admin = As::Guide(live.admin_token().await);
    let products = live.product_ids(2).await;
    let en = live.language_id("en-GB").await;
    let de = live.language_id("de-DE").await;
    let media: String = live
        .db()
        .query_row("SELECT id FROM media ORDER BY rowid LIMIT 1", [], |r| {
            r.get(0)
        })
        .unwrap();
    let (status, created) = live
        .post(
            "/api/dsr-presentation?_response=basic",
            &admin,
            json!({"name": "Made from texts", "pages": [
                {"kind": "text", "title": "Welcome", "texts": {"en-GB": "Hello all", "de-DE": "<p>Hallo <em>alle</em></p><script>x()</script>"}},
                {"kind": "image", "title": "A picture", "mediaId": media},
                {"kind": "textImage", "title": "Intro", "mediaId": media, "texts": {"en-GB": "Look at this"}},
                {"kind": "productText", "title": "Our star", "productId": products[0], "texts": {"en-GB": "Light and strong"}},
                {"kind": "productListing", "title": "All kites", "productIds": [products[1]]},
            ]}),
        )
        .await;
    assert_eq!(status, 200, "{created}");
    let presentation = created["data"]["id"].as_str().unwrap().to_owned();
    let (_, read) = live
        .get(&format!("/api/dsr-presentation/{presentation}"), &admin)
        .await;
    let pages = read["data"]["pages"].clone();
    assert_eq!(
        kinds(&pages),
        [
            "text",
            "image",
            "textImage",
            "productText",
            "productListing"
        ],
        "{pages}"
    );
    assert_eq!(
        pages[0]["texts"],
        json!({en.clone(): "<p>Hello all</p>", de.clone(): "<p>Hallo <em>alle</em></p>"})
    );
    assert_eq!(pages[1]["mediaId"], media.as_str());
    assert_eq!(pages[2]["mediaId"], media.as_str());
    assert_eq!(
        pages[2]["texts"],
        json!({en.clone(): "<p>Look at this</p>"})
    );
    assert_eq!(pages[3]["productId"], products[0].as_str());

    // The room shows them: a text, an image, an image beside a text, a product beside a
    // text; every title of these (and of the listing) is for everyone.
    let (status, _) = live
        .post(
            "/api/dsr-appointment?_response=basic",
            &admin,
            json!({"name": "Texts show", "presentationId": presentation, "presentationPath": "texts-show"}),
        )
        .await;
    assert_eq!(status, 200);
    let client = token_of(&live.join_as_client("texts-show", &As::Nobody, "Ada").await);
    let structure = structure_in(&live, &client, &de).await;
    let navigation = structure["navigation"].as_array().unwrap();
    assert_eq!(navigation.len(), 5, "{structure}");
    assert!(
        navigation.iter().all(|n| n["titled"] == true),
        "{structure}"
    );
    let mut shown = Vec::new();
    for slide in navigation {
        let (status, body) = live
            .get_in(
                &format!(
                    "/store-api/dsr/appointment/presentation/{}/slide/{}",
                    slide["groupId"].as_str().unwrap(),
                    slide["sectionId"].as_str().unwrap()
                ),
                &client,
                &de,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        shown.push(slide_content(&body));
    }
    assert_eq!(
        shown[0],
        (
            vec!["text".to_owned()],
            vec!["<p>Hallo <em>alle</em></p>".to_owned()]
        )
    );
    assert_eq!(shown[1].0, ["image"]);
    assert_eq!(shown[2].0, ["image", "text"]);
    // No German text: the default language's.
    assert_eq!(shown[2].1, ["<p>Look at this</p>"]);
    assert_eq!(shown[3].0, ["product-box", "text"]);

    // A kind changes, and a text is rewritten; bad content slides are named at their field.
    let ids: Vec<&str> = pages
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    let (status, body) = live
        .patch(
            &format!("/api/dsr-presentation/{presentation}"),
            &admin,
            json!({"pages": [
                {"id": ids[0], "kind": "text", "texts": {"en-GB": "Welcome back"}},
                {"id": ids[4], "kind": "textImage", "mediaId": media, "texts": {"en-GB": "Was a listing"}},
            ]}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    let (_, read) = live
        .get(&format!("/api/dsr-presentation/{presentation}"), &admin)
        .await;
    let pages = read["data"]["pages"].clone();
    assert_eq!(kinds(&pages), ["text", "textImage"], "{pages}");
    assert_eq!(pages[0]["texts"][&en], "<p>Welcome back</p>");
    assert_eq!(pages[1]["texts"][&en], "<p>Was a listing</p>");
    let made: i64 = live
        .db()
        .query_row(
            "SELECT count(*) FROM cms_page WHERE name LIKE 'slide:%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        made, 2,
        "the pages made for removed or changed slides are gone"
    );

    let (status, bad) = live
        .patch(
            &format!("/api/dsr-presentation/{presentation}"),
            &admin,
            json!({"pages": [
                {"kind": "text", "texts": {"en-GB": "  "}},
                {"kind": "image"},
                {"kind": "productText", "texts": {"en-GB": "x"}},
                {"kind": "textImage", "mediaId": "0".repeat(32), "texts": {"xx-XX": "?"}},
            ]}),
        )
        .await;
    assert_eq!(status, 400, "{bad}");
    let pointers: Vec<&str> = bad["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["source"]["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(
        pointers,
        [
            "/0/pages/0/texts",
            "/0/pages/1/mediaId",
            "/0/pages/2/productId",
            "/0/pages/3/mediaId",
            "/0/pages/3/texts/xx-XX"
        ],
        "{bad}"
    );
}
