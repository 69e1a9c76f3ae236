//! Who may do what in a live room, and what it makes: one pure function, [`decide`],
//! from the caller, the room's live state and the request to an event with its audience,
//! a volatile event, nothing, or a refusal. Transport (WebSocket frames, HTTP) and side
//! effects (LiveKit, disconnects: see [`super::effects`]) live elsewhere.
//!
//! The room calls [`decide`] under its lock, so the state a decision reads is the state
//! its event is ordered after (a guide-only action cannot slip in after the end).
//!
//! A new action or interaction is one match arm here and a unit test below.

use protocol::action::{Action, Interaction};
use protocol::frame::{ErrorCode, Event, VolatileEvent};
use protocol::internal::Audience;
use protocol::live_state::LiveState;
use protocol::state::{is_id, AttendeeSummary, Id};
use protocol::{CartPermission, HubClaims, Role};

/// Who asks.
#[derive(Debug, Clone, Copy)]
pub enum Caller<'a> {
    /// A participant over its WebSocket, with the claims of its hub token.
    Participant(&'a HubClaims),
    /// storefront-proxy over the internal API (it holds the shared secret).
    Shop,
}

/// What is asked.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// An action of spec section 3 (participants).
    Action(Action),
    /// An interaction of the DSR reference (participants).
    Interaction(Interaction),
    /// A state event the shop decided (`POST /internal/publish`).
    Publish { audience: Audience, event: Event },
    /// A new name or video user id for an attendee (`POST /internal/attendee-profile`);
    /// `None` leaves a field as it is, `Some(None)` clears the video user id.
    Profile { attendee_id: Id, attendee_name: Option<String>, video_user_id: Option<Option<String>> },
}

/// What the room is to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Give the event the next sequence number and send it to `audience`.
    Publish { audience: Audience, event: Event },
    /// Send the event now to `audience`; it has no place in the order and may be dropped.
    Volatile { audience: Audience, event: VolatileEvent },
    /// Nothing changes; the request is acknowledged.
    Nothing,
    /// The request is refused with this error.
    Refuse { code: ErrorCode, message: String },
}

fn publish(audience: Audience, event: Event) -> Decision {
    Decision::Publish { audience, event }
}

fn refuse(code: ErrorCode, message: impl Into<String>) -> Decision {
    Decision::Refuse { code, message: message.into() }
}

/// Decides a request.
pub fn decide(caller: Caller<'_>, state: &LiveState, request: Request) -> Decision {
    match (caller, request) {
        (Caller::Participant(claims), Request::Action(action)) => act(claims, state, action),
        (Caller::Participant(claims), Request::Interaction(interaction)) => interact(claims, interaction),
        (Caller::Shop, Request::Publish { audience, event }) => publish(audience, event),
        (Caller::Shop, Request::Profile { attendee_id, attendee_name, video_user_id }) => {
            profile(state, &attendee_id, attendee_name, video_user_id)
        }
        (Caller::Shop, Request::Action(_) | Request::Interaction(_)) => {
            refuse(ErrorCode::Forbidden, "actions and interactions come from participants")
        }
        (Caller::Participant(_), Request::Publish { .. } | Request::Profile { .. }) => {
            refuse(ErrorCode::Forbidden, "only the shop publishes events directly")
        }
    }
}

fn act(claims: &HubClaims, state: &LiveState, action: Action) -> Decision {
    let guide = claims.role == Role::Guide;
    if action.is_guide_only() {
        if !guide {
            return refuse(ErrorCode::Forbidden, format!("only a guide may send {}", action.key()));
        }
        if state.state_for_all.ended {
            return refuse(ErrorCode::PresentationEnded, "the presentation has ended");
        }
    }
    match action {
        Action::SwitchSlide { page_id, section_id, slide_alias } => {
            if !is_id(&page_id) || !is_id(&section_id) {
                return refuse(ErrorCode::InvalidPayload, "pageId and sectionId must be 32 lowercase hex characters");
            }
            publish(Audience::Everyone, Event::SlideSwitched { page_id, section_id, slide_alias })
        }
        Action::LoadSlide { .. }
        | Action::LoadProductList {}
        | Action::LoadListingProducts { .. }
        | Action::UpdateListingProducts { .. } => publish(Audience::Everyone, Event::Reload { action }),
        // Cart, likes and last-seen live in storefront-proxy; a guide's request goes to
        // the attendee concerned (or a client's to itself) as a reload hint.
        Action::LoadCart { ref attendee_id }
        | Action::AddToCart { ref attendee_id, .. }
        | Action::RemoveFromCart { ref attendee_id, .. }
        | Action::UpdateProductQuantity { ref attendee_id, .. }
        | Action::LoadLikeList { ref attendee_id }
        | Action::RemoveFromLikeList { ref attendee_id, .. }
        | Action::LoadLastSeen { ref attendee_id } => {
            let target = match (guide, attendee_id) {
                (true, Some(id)) => id.clone(),
                _ => claims.sub.clone(),
            };
            publish(Audience::Attendee(target), Event::Reload { action })
        }
        Action::LoadProductReviews { .. } => Decision::Nothing,
        Action::RequestCartPermission { attendee_id } => {
            if !is_id(&attendee_id) {
                return refuse(ErrorCode::InvalidPayload, "attendeeId must be 32 lowercase hex characters");
            }
            let event = Event::CartPermissionChanged { attendee_id: attendee_id.clone(), permission: CartPermission::Requested };
            publish(Audience::Attendee(attendee_id), event)
        }
        Action::SetCartPermission { granted } => {
            // A no (to a request, or taking a grant back) is kept apart from never asked.
            let permission = if granted { CartPermission::Granted } else { CartPermission::Refused };
            let attendee_id = claims.sub.clone();
            publish(Audience::Attendee(attendee_id.clone()), Event::CartPermissionChanged { attendee_id, permission })
        }
        Action::SetLocked { locked } => publish(Audience::Everyone, Event::LockChanged { locked }),
        Action::MuteAll { muted } => publish(Audience::Everyone, Event::MuteAllChanged { muted }),
    }
}

fn interact(claims: &HubClaims, interaction: Interaction) -> Decision {
    let guide = claims.role == Role::Guide;
    if interaction.is_guide_only() && !guide {
        return refuse(ErrorCode::Forbidden, format!("only a guide may send {:?}", interaction.name()));
    }
    match interaction {
        Interaction::GuideHovered(payload) => Decision::Volatile {
            audience: Audience::Everyone,
            event: VolatileEvent::GuideHovered { hovered_element_id: payload.hovered_element_id },
        },
        // The product a guide looks at is the one everyone is shown.
        Interaction::ProductViewed(p) if guide => {
            publish(Audience::Everyone, Event::GuideProductChanged { product_id: Some(p.product_id) })
        }
        Interaction::DynamicPageOpened(page) | Interaction::DynamicProductPageOpened(page) => {
            publish(Audience::Everyone, Event::DynamicPageOpened { page })
        }
        Interaction::DynamicPageClosed(p) => publish(Audience::Everyone, Event::DynamicPageClosed { page_id: p.page_id, all: p.all }),
        Interaction::BroadcastModeToggled(p) => publish(Audience::Everyone, Event::BroadcastModeChanged { active: p.active }),
        Interaction::ViewModeChanged(p) => publish(Audience::Everyone, Event::ViewModeChanged { mode: p.mode }),
        Interaction::ScreenSharingToggled(p) => publish(Audience::Everyone, Event::ScreenSharingChanged { active: p.active }),
        // Recorded by storefront-proxy's dsr/interaction endpoint; nothing live changes.
        Interaction::ProductViewed(_)
        | Interaction::KeepAlive(_)
        | Interaction::QuickviewOpened(_)
        | Interaction::QuickviewClosed(_)
        | Interaction::AttendeeLeave(_)
        | Interaction::RemoteCheckoutAccepted(_)
        | Interaction::RemoteCheckoutDenied(_)
        | Interaction::ProductLiked(_)
        | Interaction::ProductDisliked(_)
        | Interaction::ProductRemovedFromCollection(_)
        | Interaction::PageViewed(_) => Decision::Nothing,
    }
}

/// Merges a new name or video user id into the attendee's live entry, so that presence
/// and cart permission stay as they are now; nothing when the attendee is not in the
/// live list (never connected) or nothing changes.
fn profile(state: &LiveState, attendee_id: &str, attendee_name: Option<String>, video_user_id: Option<Option<String>>) -> Decision {
    let Some(current) = state.participants.get(attendee_id) else { return Decision::Nothing };
    let mut attendee = AttendeeSummary::clone(current);
    if let Some(name) = attendee_name {
        attendee.attendee_name = Some(name);
    }
    if let Some(video) = video_user_id {
        attendee.video_user_id = video;
    }
    if attendee == **current {
        return Decision::Nothing;
    }
    publish(Audience::Guides, Event::AttendeeChanged { attendee })
}
