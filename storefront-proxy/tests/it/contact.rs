//! The contact form against a real shop: validation, and the mail to the shop owner
//! in the real outbox.

use crate::common;
use crate::extras;

use common::{assert_error, elements, start};
use extras::*;
use serde_json::json;

#[tokio::test]
async fn a_contact_request_reaches_the_shop_owner() {
    let shop = start().await;
    let (_, salutations) = shop.get("/salutation", &[]).await;
    let mr = elements(&salutations)
        .into_iter()
        .find(|s| s["salutationKey"] == "mr")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let request = json!({
        "salutationId": mr, "firstName": "Alan", "lastName": "Turing", "email": "Alan@Example.com", "phone": "+44 1234",
        "subject": "Question about <b>sizes</b>", "comment": "Does the shirt come in XXL?\nThanks <script>alert(1)</script>",
        "slotId": "0123456789abcdef0123456789abcdef", "cmsPageType": "page",
    });
    let (status, body) = shop.post("/contact-form", request).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({"individualSuccessMessage": "", "apiAlias": "contact_form_result"})
    );
    let mails = outbox(&shop);
    assert_eq!(mails.len(), 1);
    let mail = &mails[0];
    assert_eq!(mail.to, "shop@salesroom.example");
    assert_eq!(mail.subject, "Contact form: Question about <b>sizes</b>");
    assert!(
        mail.text.contains("Mr. Alan Turing <alan@example.com>"),
        "{}",
        mail.text
    );
    assert!(
        mail.text.contains("+44 1234") && mail.text.contains("Does the shirt come in XXL?"),
        "{}",
        mail.text
    );
    assert!(
        mail.html.contains("&lt;script&gt;") && !mail.html.contains("<script>"),
        "the HTML part escapes: {}",
        mail.html
    );
    let eml = eml_files(&shop);
    assert_eq!(eml.len(), 1);
    assert!(
        eml[0].contains("Reply-To: <alan@example.com>")
            || eml[0].contains("Reply-To: alan@example.com"),
        "{}",
        eml[0]
    );

    // Names are optional; the texts follow the request's language.
    let german = shop.language("de-DE").await;
    let (status, _) = shop
        .post_with(
            "/contact-form",
            &[("sw-language-id", &german)],
            json!({"email": "b@example.com", "subject": "Frage", "comment": "Gibt es Gutscheine?"}),
        )
        .await;
    assert_eq!(status, 200);
    let mails = outbox(&shop);
    assert_eq!(mails[1].subject, "Kontaktformular: Frage");
    assert!(mails[1].text.contains("Telefon: -"), "{}", mails[1].text);
}

#[tokio::test]
async fn bad_contact_requests_are_refused_and_send_nothing() {
    let shop = start().await;
    let (status, body) = shop.post("/contact-form", json!({})).await;
    assert_eq!(status, 400, "{body}");
    for pointer in ["/email", "/subject", "/comment"] {
        assert!(
            has_violation(&body, pointer, "VIOLATION::IS_BLANK_ERROR"),
            "{pointer}: {body}"
        );
    }
    let (status, body) = shop
        .post(
            "/contact-form",
            json!({"email": "nope", "subject": "x".repeat(256), "comment": "y".repeat(15_001), "firstName": "http://spam.example",
                   "lastName": ["list"], "salutationId": "0123456789abcdef0123456789abcdef", "navigationId": "not-an-id"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        has_violation(&body, "/email", "VIOLATION::INVALID_EMAIL_FORMAT_ERROR"),
        "{body}"
    );
    assert!(
        has_violation(&body, "/subject", "VIOLATION::TOO_LONG_ERROR"),
        "{body}"
    );
    assert!(
        has_violation(&body, "/comment", "VIOLATION::TOO_LONG_ERROR"),
        "{body}"
    );
    assert!(
        has_violation(&body, "/firstName", "VIOLATION::REGEX_FAILED_ERROR"),
        "{body}"
    );
    assert!(
        has_violation(&body, "/lastName", "VIOLATION::INVALID_TYPE_ERROR"),
        "{body}"
    );
    assert!(
        has_violation(&body, "/salutationId", "VIOLATION::NO_SUCH_CHOICE_ERROR"),
        "{body}"
    );
    assert!(
        has_violation(&body, "/navigationId", "VIOLATION::INVALID_UUID_ERROR"),
        "{body}"
    );
    let (status, body) = post_raw(&shop, "/contact-form", None, "not json").await;
    assert_eq!(status, 400);
    assert_error(&body, 400, "FRAMEWORK__INVALID_REQUEST_BODY");
    let (status, _) = post_raw(&shop, "/contact-form", None, "\"a string\"").await;
    assert_eq!(status, 400);
    assert!(outbox(&shop).is_empty() && eml_files(&shop).is_empty());
}
