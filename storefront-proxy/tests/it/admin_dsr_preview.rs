//! `GET /store-api/dsr/presentation/{id}/preview`: the backoffice's "preview as an
//! attendee" answers every slide of a presentation as the room's slide endpoint answers
//! it to attendees, without an appointment or a live room, for admins and guides only.

use crate::dsr_support;

use dsr_support::*;
use serde_json::Value;

#[tokio::test]
async fn the_preview_shows_every_slide_as_attendees_see_it() {
    let live = start().await;
    let guide = As::Guide(live.admin_token().await);
    let appointment = live.appointment_id(&guide, "demo").await;
    let (_, stored) = live
        .get(&format!("/api/dsr-appointment/{appointment}"), &guide)
        .await;
    let presentation = stored["data"]["presentationId"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/store-api/dsr/presentation/{presentation}/preview");

    let (status, preview) = live.get(&path, &guide).await;
    assert_eq!(status, 200, "{preview}");
    let slides = preview["slides"].as_array().unwrap();

    // The attendee's slides, in the same order and with the same content.
    let client = live.join_as_client("demo", &As::Nobody, "Ada").await;
    let attendee = token_of(&client);
    let navigation = live.structure(&attendee).await["navigation"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(slides.len(), navigation.len(), "{preview}");
    for (shown, slide) in slides.iter().zip(&navigation) {
        assert_eq!(
            (&shown["pageId"], &shown["sectionId"]),
            (&slide["groupId"], &slide["sectionId"])
        );
        let (status, seen) = live
            .get(
                &format!(
                    "/store-api/dsr/appointment/presentation/{}/slide/{}",
                    slide["groupId"].as_str().unwrap(),
                    slide["sectionId"].as_str().unwrap()
                ),
                &attendee,
            )
            .await;
        assert_eq!(status, 200, "{seen}");
        assert_eq!(
            shown["data"]["cmsPage"], seen["cmsPage"],
            "slide {}",
            slide["index"]
        );
        assert_eq!(
            shown["data"]["product"],
            seen.get("product").cloned().unwrap_or(Value::Null)
        );
    }

    // In German when asked.
    let german = live.language_id("de-DE").await;
    let (status, in_german) = common_get(&live, &path, &guide, &german).await;
    assert_eq!(status, 200, "{in_german}");
    assert_eq!(in_german["slides"].as_array().unwrap().len(), slides.len());

    // Only the backoffice: no bearer, an attendee's session, bad and unknown ids.
    assert_eq!(live.get(&path, &As::Nobody).await.0, 401);
    assert_eq!(live.get(&path, &attendee).await.0, 401);
    let (status, bad) = live
        .get("/store-api/dsr/presentation/not-an-id/preview", &guide)
        .await;
    assert_eq!(status, 400, "{bad}");
    let (status, unknown) = live
        .get(
            &format!("/store-api/dsr/presentation/{}/preview", "0".repeat(32)),
            &guide,
        )
        .await;
    assert_error(&unknown, 404, "DIGITAL_SALES_ROOMS__PRESENTATION_NOT_FOUND");
    assert_eq!(status, 404);
}

async fn common_get(live: &Live, path: &str, who: &As, language: &str) -> (u16, Value) {
    let response = live
        .request(reqwest::Method::GET, path, who)
        .header("sw-language-id", language)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}
