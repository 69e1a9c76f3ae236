//! The hub's live state of an appointment starts from the upstream shop's presentation
//! state: what the upstream knows and the hub does not yet (the appointment's settings,
//! that it started or ended, the slide it shows) is published to the hub. What the hub
//! already holds wins: live changes happen in the hub, not upstream.

use protocol::frame::{AppointmentSettings, Event};
use protocol::internal::Audience;
use protocol::state::StateForAll;
use serde_json::Value;

use crate::hub_client::HubError;
use crate::state::App;
use crate::storage::now_rfc3339;

/// The events that bring a hub at `hub` up to the upstream's `stateForAll` (`upstream`).
pub fn catch_up(hub: &StateForAll, upstream: &Value) -> Vec<Event> {
    let mut events = Vec::new();
    // The settings, as the upstream has them (fields it lacks keep the hub's).
    let mut merged = serde_json::to_value(settings_of(hub)).unwrap_or_default();
    if let (Some(fields), Some(upstream)) = (merged.as_object_mut(), upstream.as_object()) {
        for (key, value) in fields.iter_mut() {
            if let Some(given) = upstream.get(key) {
                *value = given.clone();
            }
        }
    }
    if let Ok(settings) = serde_json::from_value::<AppointmentSettings>(merged) {
        if settings != settings_of(hub) {
            events.push(Event::AppointmentConfigured { settings });
        }
    }
    let flag = |name: &str| upstream.get(name).and_then(Value::as_bool).unwrap_or(false);
    let text = |name: &str| {
        upstream
            .get(name)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    if flag("started") && !hub.started && !hub.ended {
        events.push(Event::PresentationStarted {
            started_at: text("startedAt").unwrap_or_else(now_rfc3339),
        });
    }
    if flag("ended") && !hub.ended {
        events.push(Event::PresentationEnded {
            ended_at: text("endedAt").unwrap_or_else(now_rfc3339),
        });
    }
    if hub.current_page_id.is_none() {
        if let (Some(page_id), Some(section_id)) = (text("currentPageId"), text("currentSectionId"))
        {
            let slide_alias = upstream
                .get("currentSlideAlias")
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok())
                .unwrap_or(1);
            events.push(Event::SlideSwitched {
                page_id,
                section_id,
                slide_alias,
            });
        }
    }
    events
}

fn settings_of(state: &StateForAll) -> AppointmentSettings {
    AppointmentSettings {
        appointment_mode: state.appointment_mode,
        video_audio_settings: state.video_audio_settings,
        attendee_restriction_type: state.attendee_restriction_type,
        accessible_from: state.accessible_from.clone(),
        accessible_to: state.accessible_to.clone(),
        product_detail_default_page_id: state.product_detail_default_page_id.clone(),
        quickview_page_id: state.quickview_page_id.clone(),
        product_listing_default_page_id: state.product_listing_default_page_id.clone(),
    }
}

/// Publishes to the hub what it lacks of the upstream's `stateForAll`.
pub async fn from_upstream(
    app: &App,
    appointment_id: &str,
    upstream: &Value,
) -> Result<(), HubError> {
    let hub = app.hub.state(appointment_id).await?;
    for event in catch_up(&hub.state_for_all, upstream) {
        app.hub
            .publish(appointment_id, Audience::Everyone, event)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fresh() -> StateForAll {
        serde_json::from_value(json!({
            "currentGuideProductId": null, "lastActiveGuideSection": null, "currentPageId": null, "currentSectionId": null,
            "currentSlideAlias": 0, "currentSlideData": null, "currentDynamicPage": null, "started": false, "running": false,
            "ended": false, "startedAt": null, "endedAt": null, "accessibleFrom": null, "accessibleTo": null,
            "appointmentMode": "guided", "videoAudioSettings": "none", "videoRoomUrl": "", "attendeeRestrictionType": "open",
            "productDetailDefaultPageId": null, "quickviewPageId": null, "productListingDefaultPageId": null,
            "broadcastMode": false, "viewMode": "presentation", "allowScreenSharing": false, "locked": false,
            "mutedAll": false, "extensions": []
        }))
        .unwrap()
    }

    #[test]
    fn a_fresh_hub_takes_what_the_upstream_knows() {
        let upstream = json!({
            "started": true, "startedAt": "2026-11-26T10:00:00+00:00", "ended": false,
            "currentPageId": "a".repeat(32), "currentSectionId": "b".repeat(32), "currentSlideAlias": 3,
            "videoAudioSettings": "both", "quickviewPageId": "c".repeat(32)
        });
        let events = catch_up(&fresh(), &upstream);
        assert_eq!(events.len(), 3, "{events:?}");
        let Event::AppointmentConfigured { settings } = &events[0] else {
            panic!("{events:?}")
        };
        assert_eq!(
            settings.quickview_page_id.as_deref(),
            Some("c".repeat(32).as_str())
        );
        assert_eq!(
            events[1],
            Event::PresentationStarted {
                started_at: "2026-11-26T10:00:00+00:00".into()
            }
        );
        assert_eq!(
            events[2],
            Event::SlideSwitched {
                page_id: "a".repeat(32),
                section_id: "b".repeat(32),
                slide_alias: 3
            }
        );
    }

    #[test]
    fn what_the_hub_holds_wins() {
        let mut hub = fresh();
        hub.started = true;
        hub.current_page_id = Some("d".repeat(32));
        let upstream = json!({ "started": true, "currentPageId": "a".repeat(32), "currentSectionId": "b".repeat(32) });
        assert_eq!(catch_up(&hub, &upstream), vec![]);
    }
}
