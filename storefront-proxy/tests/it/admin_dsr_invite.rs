//! Appointment names per language (Admin API `translations`, shown to each viewer in
//! their language with the default language as fallback) and invitations by e-mail
//! (one mail per address in the outbox, with a calendar file and answer links), against
//! a real shop on a real SQLite file.

use crate::admin_support;
use crate::common;

use std::collections::HashMap;

use admin_support::*;
use base64::Engine;
use icalendar::{Calendar, Component};
use serde_json::{json, Value};

async fn language_ids(shop: &Shop) -> (String, String) {
    (shop.language("en-GB").await, shop.language("de-DE").await)
}

async fn store(
    shop: &Shop,
    method: reqwest::Method,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (u16, Value) {
    let (status, body, _) = shop.call(method, path, headers, body).await;
    (status, body)
}

async fn appointment(shop: &Shop, token: &str, path: &str, extra: Value) -> String {
    let presentation = create(
        shop,
        "dsr-presentation",
        token,
        json!({"name": format!("Slides for {path}")}),
    )
    .await;
    let mut body =
        json!({"presentationId": presentation["id"], "presentationPath": path, "mode": "guided"});
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    create(shop, "dsr-appointment", token, body).await["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn appointment_names_are_kept_per_language_and_shown_in_the_viewers_language() {
    let shop = common::start().await;
    let token = admin(&shop).await;
    let (en, de) = language_ids(&shop).await;

    let id = appointment(
        &shop,
        &token,
        "autumn-live",
        json!({"name": "Autumn live", "translations": {"de-DE": {"name": "Herbst live"}}}),
    )
    .await;
    let read = get(&shop, &format!("/dsr-appointment/{id}"), &token)
        .await
        .body["data"]
        .clone();
    assert_eq!(read["name"], "Autumn live", "{read}");
    let names: HashMap<String, Value> = read["translations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["languageId"].as_str().unwrap().to_owned(),
                t["name"].clone(),
            )
        })
        .collect();
    assert_eq!(names[&de], "Herbst live");
    assert_eq!(names[&en], "Autumn live");

    // The room's answers name it in the viewer's language.
    for (language, expected) in [(&de, "Herbst live"), (&en, "Autumn live")] {
        let headers = [("sw-language-id", language.as_str())];
        let (status, setting) = store(
            &shop,
            reqwest::Method::GET,
            "/dsr/appointment/autumn-live/basic-setting",
            &headers,
            None,
        )
        .await;
        assert_eq!(status, 200, "{setting}");
        assert_eq!(setting["appointmentName"], expected);
        let (status, joined) = store(
            &shop,
            reqwest::Method::POST,
            "/dsr/appointment/autumn-live/join-as-client",
            &headers,
            Some(json!({"attendeeName": "Ada"})),
        )
        .await;
        assert_eq!(status, 200, "{joined}");
        assert_eq!(joined["appointmentName"], expected);
        let (_, upcoming) = store(
            &shop,
            reqwest::Method::GET,
            "/dsr/appointments",
            &headers,
            None,
        )
        .await;
        let listed = upcoming["elements"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["id"] == id.as_str())
            .unwrap()
            .clone();
        assert_eq!(listed["name"], expected);
    }

    // Renamed in German only: English stays; a name given only in German falls back to
    // the default language's for English viewers.
    let renamed = patch(
        &shop,
        &format!("/dsr-appointment/{id}"),
        &token,
        json!({"translations": {"de-DE": {"name": "Herbst – live!"}}}),
    )
    .await;
    assert_eq!(renamed.status, 204, "{}", renamed.body);
    let headers = [("sw-language-id", de.as_str())];
    let (_, setting) = store(
        &shop,
        reqwest::Method::GET,
        "/dsr/appointment/autumn-live/basic-setting",
        &headers,
        None,
    )
    .await;
    assert_eq!(setting["appointmentName"], "Herbst – live!");
    let only_default = appointment(
        &shop,
        &token,
        "english-only",
        json!({"name": "English only"}),
    )
    .await;
    let (_, setting) = store(
        &shop,
        reqwest::Method::GET,
        "/dsr/appointment/english-only/basic-setting",
        &headers,
        None,
    )
    .await;
    assert_eq!(setting["appointmentName"], "English only");
    // The default name changes with its translation; the guide's search sees it.
    assert_eq!(
        patch(
            &shop,
            &format!("/dsr-appointment/{only_default}"),
            &token,
            json!({"name": "Still English"})
        )
        .await
        .status,
        204
    );
    let found = post(
        &shop,
        "/search/dsr-appointment",
        &token,
        json!({"filter": [{"type": "equals", "field": "name", "value": "Still English"}]}),
    )
    .await;
    assert_eq!(found.body["total"], 1, "{}", found.body);

    // A name only in German is refused: the default language needs one.
    let presentation = create(&shop, "dsr-presentation", &token, json!({"name": "x"})).await;
    let nameless = post(
        &shop,
        "/dsr-appointment",
        &token,
        json!({"presentationId": presentation["id"], "presentationPath": "nameless", "translations": {"de-DE": {"name": "Nur deutsch"}}}),
    )
    .await;
    assert_eq!(nameless.status, 400, "{}", nameless.body);
    assert_eq!(pointers(&nameless.body), ["/0/name"]);
    let too_long = post(
        &shop,
        "/dsr-appointment",
        &token,
        json!({"presentationId": presentation["id"], "presentationPath": "long", "name": "x".repeat(256)}),
    )
    .await;
    assert_eq!(pointers(&too_long.body), ["/0/name"]);
}

/// The outbox's mails to `to`, as files.
fn mails_to(shop: &Shop, to: &str) -> Vec<String> {
    let dir = shop.dir.path().join("mail");
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return found;
    };
    for entry in entries {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        if text.contains(&format!("<{to}>")) {
            found.push(text);
        }
    }
    found
}

/// The `.ics` attachment of a mail, decoded.
fn calendar_of(eml: &str) -> String {
    let start = eml
        .find("Content-Type: text/calendar")
        .expect("a calendar attachment");
    let part = &eml[start..];
    let body_start = part
        .find("\r\n\r\n")
        .map(|n| n + 4)
        .or_else(|| part.find("\n\n").map(|n| n + 2))
        .unwrap();
    let headers = &part[..body_start];
    let body = &part[body_start..];
    let body = &body[..body.find("\n--").unwrap_or(body.len())];
    if headers.to_lowercase().contains("base64") {
        let compact: String = body.chars().filter(|c| !c.is_whitespace()).collect();
        String::from_utf8(
            base64::engine::general_purpose::STANDARD
                .decode(compact)
                .unwrap(),
        )
        .unwrap()
    } else {
        // The part ends with the line break before the boundary.
        body.trim_end().to_owned()
    }
}

/// The mail's parts as text: base64 parts decoded, quoted-printable soft breaks and `=3D` undone.
fn decoded_text(eml: &str) -> String {
    let mut out = String::new();
    for part in eml.split("\n--") {
        let Some(split) = part
            .find("\r\n\r\n")
            .map(|n| (n, 4))
            .or_else(|| part.find("\n\n").map(|n| (n, 2)))
        else {
            continue;
        };
        let (headers, body) = (&part[..split.0], &part[split.0 + split.1..]);
        if headers
            .to_lowercase()
            .contains("content-transfer-encoding: base64")
        {
            let compact: String = body.chars().filter(|c| !c.is_whitespace()).collect();
            if let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(compact) {
                out.push_str(&String::from_utf8_lossy(&bytes));
            }
        } else {
            out.push_str(
                &body
                    .replace("=\r\n", "")
                    .replace("=\n", "")
                    .replace("=3D", "="),
            );
        }
    }
    out
}

#[tokio::test]
async fn invitations_are_mailed_with_a_calendar_file_and_answer_links() {
    let shop = common::start().await;
    let token = admin(&shop).await;
    let (_, de) = language_ids(&shop).await;
    let id = appointment(
        &shop,
        &token,
        "kites-live",
        json!({
            "name": "Kites live", "translations": {"de-DE": {"name": "Drachen live"}},
            "accessibleFrom": "2026-12-01T18:00:00+01:00", "accessibleTo": "2026-12-01T19:30:00+01:00",
        }),
    )
    .await;

    // Bad addresses: each named, nothing sent.
    let bad = post(
        &shop,
        &format!("/_action/dsr/appointment/{id}/invite"),
        &token,
        json!({"emails": ["ada@example.com", "not-an-address", 7]}),
    )
    .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(pointers(&bad.body), ["/emails/1", "/emails/2"]);
    assert_eq!(
        bad.body["errors"][0]["code"],
        "VIOLATION::INVALID_EMAIL_FORMAT_ERROR"
    );
    assert!(
        mails_to(&shop, "ada@example.com").is_empty(),
        "a refused request sends nothing"
    );
    let empty = post(
        &shop,
        &format!("/_action/dsr/appointment/{id}/invite"),
        &token,
        json!({"emails": []}),
    )
    .await;
    assert_eq!(pointers(&empty.body), ["/emails"]);
    let many: Vec<String> = (0..51).map(|n| format!("a{n}@example.com")).collect();
    let too_many = post(
        &shop,
        &format!("/_action/dsr/appointment/{id}/invite"),
        &token,
        json!({"emails": many}),
    )
    .await;
    assert_eq!(
        too_many.body["errors"][0]["code"], "VIOLATION::TOO_MANY_ELEMENTS_ERROR",
        "{}",
        too_many.body
    );
    let unknown = post(
        &shop,
        &format!("/_action/dsr/appointment/{}/invite", "0".repeat(32)),
        &token,
        json!({"emails": ["a@example.com"]}),
    )
    .await;
    assert_error(
        &unknown.body,
        404,
        "DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_FOUND",
    );

    // Customers and anonymous callers may not invite; a guide may (guides run the
    // appointments) but may not change the appointment itself.
    let anonymous = api(
        &shop,
        reqwest::Method::POST,
        &format!("/_action/dsr/appointment/{id}/invite"),
        None,
        Some(json!({"emails": ["a@example.com"]})),
    )
    .await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.body);
    create(
        &shop,
        "user",
        &token,
        json!({"username": "gina", "firstName": "Gina", "lastName": "Guide", "email": "gina@example.com", "role": "guide", "password": "guide-pass-1"}),
    )
    .await;
    let guide = admin_support::token(&shop, "gina", "guide-pass-1")
        .await
        .unwrap();
    let sent = post(
        &shop,
        &format!("/_action/dsr/appointment/{id}/invite"),
        &guide,
        json!({"emails": [" Ada@Example.com ", "bob@example.com", "ada@example.com"], "languageId": de}),
    )
    .await;
    assert_eq!(sent.status, 200, "{}", sent.body);
    assert_eq!(sent.body["total"], 2, "one mail per address: {}", sent.body);
    let refused = patch(
        &shop,
        &format!("/dsr-appointment/{id}"),
        &guide,
        json!({"name": "Mine now"}),
    )
    .await;
    assert_eq!(refused.status, 403, "{}", refused.body);

    // The mail: German, with the answer links and a calendar file that parses.
    let mails = mails_to(&shop, "ada@example.com");
    assert_eq!(mails.len(), 1);
    let eml = &mails[0];
    let ics = calendar_of(eml);
    let calendar: Calendar = ics.parse().unwrap_or_else(|e| panic!("{e}: {ics}"));
    let event = calendar
        .components
        .iter()
        .find_map(|c| c.as_event())
        .expect("one VEVENT");
    assert_eq!(
        event.get_uid(),
        Some(format!("{id}@salesroom.example").as_str())
    );
    assert_eq!(event.get_summary(), Some("Drachen live"));
    assert!(
        ics.contains("DTSTART:20261201T170000Z") && ics.contains("DTEND:20261201T183000Z"),
        "{ics}"
    );
    let url = event.get_url().unwrap().to_owned();
    assert!(
        url.starts_with(&format!("{}/invitation/kites-live?token=", shop.base)),
        "{url}"
    );
    let mail_token = url.split("token=").nth(1).unwrap().to_owned();
    let body_text = decoded_text(eml);
    for answer in ["accepted", "maybe", "declined"] {
        assert!(
            body_text.contains(&format!("token={mail_token}&answer={answer}"))
                || body_text.contains(&format!("token={mail_token}&amp;answer={answer}")),
            "{answer}: {eml}"
        );
    }

    // Answering through the mail's link is Ada's answer; the admin sees it. (Joining,
    // which answering needs, waits for the access window: open it now.)
    assert_eq!(
        patch(
            &shop,
            &format!("/dsr-appointment/{id}"),
            &token,
            json!({"accessibleFrom": "2026-01-01T00:00:00Z"})
        )
        .await
        .status,
        204
    );
    let (status, joined, _) = shop
        .call(
            reqwest::Method::POST,
            "/dsr/appointment/kites-live/join-as-client",
            &[],
            Some(json!({"attendeeName": "Ada"})),
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    let context = joined["newContextToken"].as_str().unwrap();
    let (status, answered, _) = shop
        .call(
            reqwest::Method::PATCH,
            &format!("/dsr/appointment/{id}/attendee/respond-invitation"),
            &[("sw-context-token", context)],
            Some(json!({"answer": "maybe", "token": mail_token})),
        )
        .await;
    assert_eq!(status, 200, "{answered}");
    let list = get(
        &shop,
        &format!("/_action/dsr/appointment/{id}/invitations"),
        &token,
    )
    .await;
    assert_eq!(list.status, 200, "{}", list.body);
    let by_email: HashMap<String, Value> = list.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["email"].as_str().unwrap().to_owned(), i.clone()))
        .collect();
    assert_eq!(by_email["ada@example.com"]["answer"], "maybe");
    assert_eq!(by_email["ada@example.com"]["attendeeName"], "Ada");
    assert_eq!(by_email["bob@example.com"]["answer"], Value::Null);

    // No start, no calendar entry: refused at the field.
    let presentation = create(&shop, "dsr-presentation", &token, json!({"name": "y"})).await;
    let open = create(
        &shop,
        "dsr-appointment",
        &token,
        json!({"name": "Open", "presentationId": presentation["id"], "presentationPath": "open"}),
    )
    .await;
    let no_start = post(
        &shop,
        &format!(
            "/_action/dsr/appointment/{}/invite",
            open["id"].as_str().unwrap()
        ),
        &token,
        json!({"emails": ["c@example.com"]}),
    )
    .await;
    assert_eq!(no_start.status, 400, "{}", no_start.body);
    assert_eq!(pointers(&no_start.body), ["/accessibleFrom"]);
}

/// Issue #31, item 5: an appointment planned in Europe/Berlin keeps its instant and its
/// zone; the invitation mail and calendar file name the time in that zone (winter and
/// summer time alike), and an unknown zone is refused at its field.
#[tokio::test]
async fn an_appointment_keeps_its_time_zone_and_mails_name_its_times_in_it() {
    let shop = common::start().await;
    let token = admin(&shop).await;
    let (_, de) = language_ids(&shop).await;
    let winter = appointment(
        &shop,
        &token,
        "berlin-winter",
        json!({"name": "Winter live", "timeZone": "Europe/Berlin",
               "accessibleFrom": "2026-12-01T17:00:00Z", "accessibleTo": "2026-12-01T18:30:00Z"}),
    )
    .await;
    let read = get(&shop, &format!("/dsr-appointment/{winter}"), &token)
        .await
        .body["data"]
        .clone();
    assert_eq!(read["timeZone"], "Europe/Berlin", "{read}");
    let from = read["accessibleFrom"].as_str().unwrap();
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(from).unwrap(),
        chrono::DateTime::parse_from_rfc3339("2026-12-01T17:00:00Z").unwrap(),
        "the instant is kept: {read}"
    );
    // Older appointments (and ones made without a zone) are planned in UTC.
    let plain = appointment(&shop, &token, "plain-utc", json!({"name": "Plain"})).await;
    let plain = get(&shop, &format!("/dsr-appointment/{plain}"), &token)
        .await
        .body["data"]
        .clone();
    assert_eq!(plain["timeZone"], "UTC", "{plain}");

    let bad = patch(
        &shop,
        &format!("/dsr-appointment/{winter}"),
        &token,
        json!({"timeZone": "Europe/Atlantis"}),
    )
    .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(pointers(&bad.body), ["/0/timeZone"]);
    assert_eq!(
        bad.body["errors"][0]["code"],
        "VIOLATION::INVALID_TIME_ZONE"
    );

    // The English mail and its calendar file: 18:00 in Berlin (UTC+1 in December).
    let sent = post(
        &shop,
        &format!("/_action/dsr/appointment/{winter}/invite"),
        &token,
        json!({"emails": ["winter@example.com"]}),
    )
    .await;
    assert_eq!(sent.status, 200, "{}", sent.body);
    let eml = &mails_to(&shop, "winter@example.com")[0];
    let text = decoded_text(eml);
    assert!(
        text.contains("on 2026-12-01 18:00 (Europe/Berlin)."),
        "{text}"
    );
    assert!(!text.contains("(UTC)"), "{text}");
    let ics = calendar_of(eml);
    assert!(
        ics.contains("DTSTART:20261201T170000Z") && ics.contains("DTEND:20261201T183000Z"),
        "{ics}"
    );
    assert!(ics.contains("X-WR-TIMEZONE:Europe/Berlin"), "{ics}");
    let calendar: Calendar = ics.parse().unwrap_or_else(|e| panic!("{e}: {ics}"));
    let event = calendar
        .components
        .iter()
        .find_map(|c| c.as_event())
        .unwrap();
    assert!(
        event
            .get_description()
            .unwrap()
            .contains("2026-12-01 18:00 (Europe/Berlin)"),
        "{ics}"
    );

    // Summer time (UTC+2) in German: still 18:00 in Berlin.
    let summer = appointment(
        &shop,
        &token,
        "berlin-summer",
        json!({"name": "Summer live", "timeZone": "Europe/Berlin",
               "accessibleFrom": "2027-07-01T16:00:00Z"}),
    )
    .await;
    let sent = post(
        &shop,
        &format!("/_action/dsr/appointment/{summer}/invite"),
        &token,
        json!({"emails": ["sommer@example.com"], "languageId": de}),
    )
    .await;
    assert_eq!(sent.status, 200, "{}", sent.body);
    let text = decoded_text(&mails_to(&shop, "sommer@example.com")[0]);
    assert!(
        text.contains("am 01.07.2027 18:00 (Europe/Berlin) eingeladen."),
        "{text}"
    );

    // The room's public answers carry the zone too.
    let (status, setting) = store(
        &shop,
        reqwest::Method::GET,
        "/dsr/appointment/berlin-winter/basic-setting",
        &[],
        None,
    )
    .await;
    assert_eq!(status, 200, "{setting}");
    assert_eq!(setting["timeZone"], "Europe/Berlin");
    assert_eq!(setting["accessibleFrom"], read["accessibleFrom"]);
}
