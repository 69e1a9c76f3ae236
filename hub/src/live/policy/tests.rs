use protocol::action::MAX_LISTING_PRODUCTS;
use protocol::action::{
    DynamicPageClosedPayload, Empty, GuideHoveredPayload, PageViewedPayload, ProductPayload,
    TogglePayload, ViewModePayload,
};
use protocol::engagement::{ChatSettings, MAX_CHAT_MESSAGE_CHARS};
use protocol::state::{DynamicPage, ViewMode};
use protocol::{AttendeeStatus, ConnectionState};

use super::*;

/// The clock of these tests (unix milliseconds).
const NOW: u64 = 1_800_000_000_000;

const GUIDE: &str = "99999999999999999999999999999999";
const ADA: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const BOB: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const ID: &str = "0123456789abcdef0123456789abcdef";

fn claims(sub: &str, role: Role) -> HubClaims {
    HubClaims {
        sub: sub.into(),
        apt: ID.into(),
        role,
        name: None,
        exp: u64::MAX,
    }
}

/// An open poll, its one answer being [`ID`], in [`running`] (a draft poll [`ID`] is too).
const OPEN_POLL: &str = "0000000000000000000000000000000f";

fn running() -> LiveState {
    let mut state = LiveState::default();
    state.apply(&Event::PresentationStarted {
        started_at: "2026-01-05T10:00:00Z".into(),
    });
    let new = || NewPoll {
        question: "Which?".into(),
        answers: vec!["A".into(), "B".into()],
        multiple: false,
        slide: None,
    };
    state.apply(&Event::PollCreated {
        poll: new().into_poll(ID.into(), [BOB.into(), ADA.into()]),
    });
    state.apply(&Event::PollCreated {
        poll: new().into_poll(OPEN_POLL.into(), [ID.into(), BOB.into()]),
    });
    state.apply(&Event::PollOpened {
        poll_id: OPEN_POLL.into(),
    });
    state.apply(&Event::QuestionAsked {
        question: bobs_question(),
    });
    state
}

/// Bob's question [`QUESTION`] in [`running`].
const QUESTION: &str = "000000000000000000000000000000e1";

fn bobs_question() -> Question {
    Question {
        question_id: QUESTION.into(),
        attendee_id: BOB.into(),
        attendee_name: Some("Bob".into()),
        role: Role::Client,
        text: "Why?".into(),
        asked_at: 1,
        status: QuestionStatus::Open,
        votes: 0,
    }
}

fn ended() -> LiveState {
    let mut state = running();
    state.apply(&Event::PresentationEnded {
        ended_at: "2026-01-05T11:00:00Z".into(),
    });
    state
}

fn as_guide(state: &LiveState, action: Action) -> Decision {
    decide(
        Caller::Participant(&claims(GUIDE, Role::Guide)),
        state,
        Request::Action(action),
        NOW,
    )
}

fn as_client(state: &LiveState, action: Action) -> Decision {
    decide(
        Caller::Participant(&claims(ADA, Role::Client)),
        state,
        Request::Action(action),
        NOW,
    )
}

fn code(decision: &Decision) -> Option<ErrorCode> {
    match decision {
        Decision::Refuse { code, .. } => Some(*code),
        _ => None,
    }
}

/// One of each action, and each one's place: a new variant fails to compile in
/// `index` until it is listed, and the coverage assertion fails until it is here.
fn every_action() -> Vec<Action> {
    let id = || Some(BOB.to_owned());
    vec![
        Action::SwitchSlide {
            page_id: ID.into(),
            section_id: ID.into(),
            slide_alias: 2,
        },
        Action::LoadSlide {
            page_id: ID.into(),
            section_id: ID.into(),
        },
        Action::LoadProductList {},
        Action::LoadListingProducts {
            page_id: ID.into(),
            section_id: ID.into(),
        },
        Action::UpdateListingProducts {
            page_id: ID.into(),
            section_id: ID.into(),
            product_ids: vec![ID.into()],
        },
        Action::LoadCart { attendee_id: id() },
        Action::AddToCart {
            attendee_id: id(),
            product_id: ID.into(),
            quantity: 1,
        },
        Action::RemoveFromCart {
            attendee_id: id(),
            line_item_id: ID.into(),
        },
        Action::UpdateProductQuantity {
            attendee_id: id(),
            line_item_id: ID.into(),
            quantity: 3,
        },
        Action::LoadLikeList { attendee_id: id() },
        Action::RemoveFromLikeList {
            attendee_id: id(),
            product_id: ID.into(),
        },
        Action::LoadLastSeen { attendee_id: id() },
        Action::LoadProductReviews {
            product_id: ID.into(),
        },
        Action::MuteAll { muted: true },
        Action::SetLocked { locked: true },
        Action::RequestCartPermission {
            attendee_id: BOB.into(),
        },
        Action::SetCartPermission { granted: true },
        Action::SendChatMessage {
            text: "hello".into(),
        },
        Action::DeleteChatMessage {
            message_id: ID.into(),
        },
        Action::PinChatMessage {
            message_id: Some(ID.into()),
        },
        Action::SetChatSettings {
            settings: ChatSettings {
                closed: true,
                slow_mode_seconds: 5,
                links_allowed: false,
            },
        },
        Action::SetChatBlockedWords {
            words: vec!["spam".into()],
        },
        Action::ModerateChatAttendee {
            attendee_id: BOB.into(),
            timeout_minutes: Some(5),
            banned: false,
        },
        Action::SendReaction {
            reaction: Reaction::Heart,
        },
        Action::CreatePoll {
            poll: NewPoll {
                question: "Q?".into(),
                answers: vec!["A".into(), "B".into()],
                multiple: true,
                slide: None,
            },
        },
        Action::OpenPoll { poll_id: ID.into() },
        Action::ClosePoll { poll_id: ID.into() },
        Action::ShowPollResults {
            poll_id: ID.into(),
            shown: true,
        },
        Action::VotePoll {
            poll_id: OPEN_POLL.into(),
            answer_ids: vec![ID.into()],
        },
        Action::AskQuestion {
            text: "hello?".into(),
        },
        Action::VoteQuestion {
            question_id: QUESTION.into(),
            voted: true,
        },
        Action::MarkQuestion {
            question_id: QUESTION.into(),
            status: QuestionStatus::Answering,
        },
        Action::DismissQuestion {
            question_id: QUESTION.into(),
        },
    ]
}

fn index(action: &Action) -> usize {
    match action {
        Action::SwitchSlide { .. } => 0,
        Action::LoadSlide { .. } => 1,
        Action::LoadProductList {} => 2,
        Action::LoadListingProducts { .. } => 3,
        Action::UpdateListingProducts { .. } => 4,
        Action::LoadCart { .. } => 5,
        Action::AddToCart { .. } => 6,
        Action::RemoveFromCart { .. } => 7,
        Action::UpdateProductQuantity { .. } => 8,
        Action::LoadLikeList { .. } => 9,
        Action::RemoveFromLikeList { .. } => 10,
        Action::LoadLastSeen { .. } => 11,
        Action::LoadProductReviews { .. } => 12,
        Action::MuteAll { .. } => 13,
        Action::SetLocked { .. } => 14,
        Action::RequestCartPermission { .. } => 15,
        Action::SetCartPermission { .. } => 16,
        Action::SendChatMessage { .. } => 17,
        Action::DeleteChatMessage { .. } => 18,
        Action::PinChatMessage { .. } => 19,
        Action::SetChatSettings { .. } => 20,
        Action::SetChatBlockedWords { .. } => 21,
        Action::ModerateChatAttendee { .. } => 22,
        Action::SendReaction { .. } => 23,
        Action::CreatePoll { .. } => 24,
        Action::OpenPoll { .. } => 25,
        Action::ClosePoll { .. } => 26,
        Action::ShowPollResults { .. } => 27,
        Action::VotePoll { .. } => 28,
        Action::AskQuestion { .. } => 29,
        Action::VoteQuestion { .. } => 30,
        Action::MarkQuestion { .. } => 31,
        Action::DismissQuestion { .. } => 32,
    }
}

fn joined(state: &mut LiveState, attendee_id: &str, role: Role) {
    let attendee = AttendeeSummary {
        attendee_id: attendee_id.into(),
        role,
        attendee_name: None,
        video_user_id: None,
        has_joined: true,
        status: AttendeeStatus::Joined,
        connection: ConnectionState::Lost,
        cart_permission: CartPermission::Missing,
        last_active_at: None,
    };
    state.apply(&Event::AttendeeChanged { attendee });
}

#[test]
fn a_removed_attendee_is_turned_away_for_good() {
    let mut state = running();
    joined(&mut state, ADA, Role::Client);
    assert_eq!(admit(&claims(ADA, Role::Client), &state), Ok(()));
    state.apply(&Event::AttendeeRemoved {
        attendee_id: ADA.into(),
    });
    let removed = Err(TurnedAway {
        close_code: close_code::REMOVED,
        reason: "removed from the appointment",
    });
    assert_eq!(admit(&claims(ADA, Role::Client), &state), removed);
    // Whatever comes after: an unlock, the end, another role in a forged-looking token.
    state.apply(&Event::LockChanged { locked: false });
    state.apply(&Event::PresentationEnded {
        ended_at: "2026-01-05T11:00:00Z".into(),
    });
    assert_eq!(admit(&claims(ADA, Role::Client), &state), removed);
    assert_eq!(admit(&claims(ADA, Role::Guide), &state), removed);
    assert_eq!(
        admit(&claims(BOB, Role::Client), &state),
        Ok(()),
        "only Ada"
    );
}

#[test]
fn a_removal_ends_the_attendees_connections_and_nothing_else_does() {
    let removal = Event::AttendeeRemoved {
        attendee_id: ADA.into(),
    };
    assert_eq!(ends_connections(&removal), Some((ADA, close_code::REMOVED)));
    assert_eq!(
        ends_connections(&Event::LockChanged { locked: true }),
        None,
        "a lock keeps who is in"
    );
}

#[test]
fn only_clients_are_rate_limited_and_only_their_reload_hints_coalesce() {
    assert!(is_rate_limited(Role::Client) && !is_rate_limited(Role::Guide));
    for action in every_action() {
        let hint = matches!(
            as_client(&running(), action.clone()),
            Decision::Publish {
                event: Event::Reload { .. },
                ..
            }
        );
        assert_eq!(coalesces(Role::Client, &action), hint, "{}", action.key());
        assert!(!coalesces(Role::Guide, &action), "{}", action.key());
    }
}

#[test]
fn a_lock_keeps_out_clients_who_had_not_joined_before_it() {
    let mut state = running();
    joined(&mut state, ADA, Role::Client);
    state.apply(&Event::LockChanged { locked: true });
    let locked = Err(TurnedAway {
        close_code: close_code::LOCKED,
        reason: "the appointment is locked",
    });
    assert_eq!(
        admit(&claims(ADA, Role::Client), &state),
        Ok(()),
        "Ada had joined: she may come back"
    );
    assert_eq!(
        admit(&claims(BOB, Role::Client), &state),
        locked,
        "Bob never connected"
    );
    assert_eq!(
        admit(&claims(GUIDE, Role::Guide), &state),
        Ok(()),
        "guides always may"
    );
    state.apply(&Event::LockChanged { locked: false });
    assert_eq!(admit(&claims(BOB, Role::Client), &state), Ok(()));
}

#[test]
fn the_action_list_covers_every_action() {
    let mut seen: Vec<usize> = every_action().iter().map(index).collect();
    seen.sort();
    assert_eq!(seen, (0..33).collect::<Vec<_>>());
}

#[test]
fn guide_only_actions_are_refused_to_clients_and_after_the_end() {
    for action in every_action().into_iter().filter(Action::is_guide_only) {
        let refused = as_client(&running(), action.clone());
        assert_eq!(
            code(&refused),
            Some(ErrorCode::Forbidden),
            "{}",
            action.key()
        );
        assert_eq!(
            refused,
            refuse(
                ErrorCode::Forbidden,
                format!("only a guide may send {}", action.key())
            )
        );
        assert_eq!(
            code(&as_guide(&ended(), action.clone())),
            Some(ErrorCode::PresentationEnded),
            "{}",
            action.key()
        );
        assert!(
            matches!(
                as_guide(&running(), action.clone()),
                Decision::Publish { .. }
            ),
            "{}",
            action.key()
        );
        // A client is refused for its role even after the end.
        assert_eq!(
            code(&as_client(&ended(), action.clone())),
            Some(ErrorCode::Forbidden),
            "{}",
            action.key()
        );
    }
}

#[test]
fn attendee_actions_are_open_to_both_roles_even_after_the_end() {
    for action in every_action().into_iter().filter(|a| !a.is_guide_only()) {
        if matches!(
            action,
            Action::AskQuestion { .. } | Action::VoteQuestion { .. }
        ) {
            // Questions are for the presentation: after its end they are refused.
            assert_eq!(
                code(&as_client(&running(), action.clone())),
                None,
                "{}",
                action.key()
            );
            assert_eq!(
                code(&as_client(&ended(), action.clone())),
                Some(ErrorCode::PresentationEnded),
                "{}",
                action.key()
            );
            assert_eq!(
                code(&as_guide(&ended(), action.clone())),
                Some(ErrorCode::PresentationEnded),
                "{}",
                action.key()
            );
            continue;
        }
        for state in [running(), ended()] {
            assert_eq!(
                code(&as_guide(&state, action.clone())),
                None,
                "{}",
                action.key()
            );
            assert_eq!(
                code(&as_client(&state, action.clone())),
                None,
                "{}",
                action.key()
            );
        }
    }
}

#[test]
fn room_wide_actions_go_to_everyone() {
    let state = running();
    let slide = as_guide(
        &state,
        Action::SwitchSlide {
            page_id: ID.into(),
            section_id: ID.into(),
            slide_alias: 2,
        },
    );
    assert_eq!(
        slide,
        publish(
            Audience::Everyone,
            Event::SlideSwitched {
                page_id: ID.into(),
                section_id: ID.into(),
                slide_alias: 2
            }
        )
    );
    for action in &every_action()[1..5] {
        assert_eq!(
            as_guide(&state, action.clone()),
            publish(
                Audience::Everyone,
                Event::Reload {
                    action: action.clone()
                }
            )
        );
    }
    assert_eq!(
        as_guide(&state, Action::MuteAll { muted: true }),
        publish(Audience::Everyone, Event::MuteAllChanged { muted: true })
    );
    assert_eq!(
        as_guide(&state, Action::SetLocked { locked: false }),
        publish(Audience::Everyone, Event::LockChanged { locked: false })
    );
}

#[test]
fn bad_ids_are_refused_as_invalid_payloads() {
    let state = running();
    let bad_slides = [
        Action::SwitchSlide {
            page_id: "nope".into(),
            section_id: ID.into(),
            slide_alias: 1,
        },
        Action::SwitchSlide {
            page_id: ID.into(),
            section_id: ID.to_uppercase(),
            slide_alias: 1,
        },
    ];
    for (action, field) in bad_slides.into_iter().zip(["pageId", "sectionId"]) {
        assert_eq!(
            as_guide(&state, action),
            refuse(
                ErrorCode::InvalidPayload,
                format!("{field} must be 32 lowercase hex characters")
            )
        );
    }
    assert_eq!(
        as_guide(
            &state,
            Action::RequestCartPermission {
                attendee_id: "x".into()
            }
        ),
        refuse(
            ErrorCode::InvalidPayload,
            "attendeeId must be 32 lowercase hex characters"
        )
    );
}

#[test]
fn a_guides_frames_are_validated_like_everyone_elses_and_nothing_is_published() {
    let state = running();
    let invalid = |decision: Decision| {
        assert_eq!(
            code(&decision),
            Some(ErrorCode::InvalidPayload),
            "{decision:?}"
        )
    };
    let listing = |n: usize| Action::UpdateListingProducts {
        page_id: ID.into(),
        section_id: ID.into(),
        product_ids: vec![ID.into(); n],
    };
    assert!(matches!(
        as_guide(&state, listing(MAX_LISTING_PRODUCTS)),
        Decision::Publish { .. }
    ));
    invalid(as_guide(&state, listing(MAX_LISTING_PRODUCTS + 1)));
    invalid(as_guide(
        &state,
        Action::LoadSlide {
            page_id: "../../etc".into(),
            section_id: ID.into(),
        },
    ));
    invalid(as_guide(
        &state,
        Action::LoadCart {
            attendee_id: Some("everyone".into()),
        },
    ));
    invalid(as_client(
        &state,
        Action::AddToCart {
            attendee_id: None,
            product_id: "x".repeat(5000),
            quantity: 1,
        },
    ));
    let by_guide = |interaction| {
        decide(
            Caller::Participant(&claims(GUIDE, Role::Guide)),
            &state,
            Request::Interaction(interaction),
            NOW,
        )
    };
    let page = |page_type: &str| DynamicPage {
        page_id: ID.into(),
        page_type: page_type.into(),
        opened: true,
        position: None,
        product_id: None,
    };
    invalid(by_guide(Interaction::DynamicPageOpened(page(
        &"x".repeat(100_000),
    ))));
    invalid(by_guide(Interaction::DynamicProductPageOpened(page(
        "<img src=x onerror=alert(1)>",
    ))));
    invalid(by_guide(Interaction::GuideHovered(GuideHoveredPayload {
        hovered_element_id: Some("#app".into()),
    })));
    invalid(by_guide(Interaction::ProductViewed(ProductPayload {
        product_id: "nope".into(),
    })));
    // A client's bad frame is still refused for its role first.
    assert_eq!(
        code(&as_client(&state, listing(MAX_LISTING_PRODUCTS + 1))),
        Some(ErrorCode::Forbidden)
    );
}

#[test]
fn an_attendee_action_goes_to_the_attendee_a_guide_names_and_a_client_always_to_itself() {
    let state = running();
    for action in every_action().into_iter().filter(|a| !a.is_guide_only()) {
        let (as_guide, as_client) = (
            as_guide(&state, action.clone()),
            as_client(&state, action.clone()),
        );
        match action {
            Action::LoadProductReviews { .. } => {
                assert_eq!(
                    (as_guide, as_client),
                    (Decision::Nothing, Decision::Nothing)
                );
            }
            Action::SetCartPermission { .. } => {
                // Always the sender's own permission.
                let granted = |id: &str| {
                    publish(
                        Audience::Attendee(id.into()),
                        Event::CartPermissionChanged {
                            attendee_id: id.into(),
                            permission: CartPermission::Granted,
                        },
                    )
                };
                assert_eq!((as_guide, as_client), (granted(GUIDE), granted(ADA)));
            }
            Action::SendChatMessage { .. } => {
                // Always the sender's own message, for the room's next batch (to everyone).
                for (decision, sender) in [(as_guide, GUIDE), (as_client, ADA)] {
                    let Decision::Chat(message) = decision else {
                        panic!("{decision:?}")
                    };
                    assert_eq!(
                        (message.attendee_id.as_str(), message.text.as_str()),
                        (sender, "hello")
                    );
                }
            }
            Action::SendReaction { reaction } => {
                assert_eq!(
                    (as_guide, as_client),
                    (Decision::React(reaction), Decision::React(reaction))
                );
            }
            Action::VotePoll {
                poll_id,
                answer_ids,
            } => {
                // Always the voter's own vote, to the voter (and the guides).
                for (decision, voter) in [(as_guide, GUIDE), (as_client, ADA)] {
                    let event = Event::PollVoted {
                        poll_id: poll_id.clone(),
                        attendee_id: voter.into(),
                        answer_ids: answer_ids.clone(),
                        previous_answer_ids: vec![],
                    };
                    assert_eq!(decision, publish(Audience::Attendee(voter.into()), event));
                }
            }
            Action::AskQuestion { .. } => {
                // Always the asker's own question, to everyone.
                for (decision, asker) in [(as_guide, GUIDE), (as_client, ADA)] {
                    let Decision::Publish {
                        audience: Audience::Everyone,
                        event: Event::QuestionAsked { question },
                    } = decision
                    else {
                        panic!("{decision:?}")
                    };
                    assert_eq!(
                        (
                            question.attendee_id.as_str(),
                            question.text.as_str(),
                            question.votes
                        ),
                        (asker, "hello?", 0)
                    );
                }
            }
            Action::VoteQuestion { question_id, voted } => {
                // Always the voter's own up-vote, to the voter (and the guides).
                for (decision, voter) in [(as_guide, GUIDE), (as_client, ADA)] {
                    let event = Event::QuestionVoted {
                        question_id: question_id.clone(),
                        attendee_id: voter.into(),
                        voted,
                    };
                    assert_eq!(decision, publish(Audience::Attendee(voter.into()), event));
                }
            }
            _ => {
                // The action names Bob: the guide's goes to Bob, Ada's to Ada.
                assert_eq!(
                    as_guide,
                    publish(
                        Audience::Attendee(BOB.into()),
                        Event::Reload {
                            action: action.clone()
                        }
                    )
                );
                assert_eq!(
                    as_client,
                    publish(
                        Audience::Attendee(ADA.into()),
                        Event::Reload {
                            action: action.clone()
                        }
                    )
                );
            }
        }
    }
    // A guide who names nobody acts for itself.
    let own = as_guide(&state, Action::LoadCart { attendee_id: None });
    assert_eq!(
        own,
        publish(
            Audience::Attendee(GUIDE.into()),
            Event::Reload {
                action: Action::LoadCart { attendee_id: None }
            }
        )
    );
}

#[test]
fn cart_permission_is_requested_of_the_attendee_and_a_no_is_refused_not_missing() {
    let state = running();
    let requested = as_guide(
        &state,
        Action::RequestCartPermission {
            attendee_id: BOB.into(),
        },
    );
    assert_eq!(
        requested,
        publish(
            Audience::Attendee(BOB.into()),
            Event::CartPermissionChanged {
                attendee_id: BOB.into(),
                permission: CartPermission::Requested
            }
        )
    );
    let no = as_client(&state, Action::SetCartPermission { granted: false });
    assert_eq!(
        no,
        publish(
            Audience::Attendee(ADA.into()),
            Event::CartPermissionChanged {
                attendee_id: ADA.into(),
                permission: CartPermission::Refused
            }
        )
    );
}

fn every_interaction() -> Vec<Interaction> {
    let product = || ProductPayload {
        product_id: ID.into(),
    };
    let page = || DynamicPage {
        page_id: ID.into(),
        page_type: "product".into(),
        opened: true,
        position: None,
        product_id: None,
    };
    vec![
        Interaction::KeepAlive(Empty {}),
        Interaction::QuickviewOpened(Empty {}),
        Interaction::QuickviewClosed(Empty {}),
        Interaction::AttendeeLeave(Empty {}),
        Interaction::RemoteCheckoutAccepted(Empty {}),
        Interaction::RemoteCheckoutDenied(Empty {}),
        Interaction::ProductViewed(product()),
        Interaction::ProductLiked(product()),
        Interaction::ProductDisliked(product()),
        Interaction::ProductRemovedFromCollection(product()),
        Interaction::DynamicPageOpened(page()),
        Interaction::DynamicPageClosed(DynamicPageClosedPayload {
            page_id: Some(ID.into()),
            all: false,
        }),
        Interaction::DynamicProductPageOpened(page()),
        Interaction::PageViewed(PageViewedPayload {
            page_id: ID.into(),
            section_id: ID.into(),
            slide_alias: 1,
            page_number: None,
        }),
        Interaction::GuideHovered(GuideHoveredPayload {
            hovered_element_id: Some(ID.into()),
        }),
        Interaction::BroadcastModeToggled(TogglePayload { active: true }),
        Interaction::ViewModeChanged(ViewModePayload {
            mode: ViewMode::VideoGrid,
        }),
        Interaction::ScreenSharingToggled(TogglePayload { active: true }),
    ]
}

/// What a guide's interaction makes; a new interaction fails to compile here.
fn expected_for_guide(interaction: &Interaction) -> Decision {
    let page = || DynamicPage {
        page_id: ID.into(),
        page_type: "product".into(),
        opened: true,
        position: None,
        product_id: None,
    };
    match interaction {
        Interaction::KeepAlive(_)
        | Interaction::QuickviewOpened(_)
        | Interaction::QuickviewClosed(_)
        | Interaction::AttendeeLeave(_)
        | Interaction::RemoteCheckoutAccepted(_)
        | Interaction::RemoteCheckoutDenied(_)
        | Interaction::ProductLiked(_)
        | Interaction::ProductDisliked(_)
        | Interaction::ProductRemovedFromCollection(_)
        | Interaction::PageViewed(_) => Decision::Nothing,
        Interaction::ProductViewed(_) => publish(
            Audience::Everyone,
            Event::GuideProductChanged {
                product_id: Some(ID.into()),
            },
        ),
        Interaction::DynamicPageOpened(_) | Interaction::DynamicProductPageOpened(_) => publish(
            Audience::Everyone,
            Event::DynamicPageOpened { page: page() },
        ),
        Interaction::DynamicPageClosed(_) => publish(
            Audience::Everyone,
            Event::DynamicPageClosed {
                page_id: Some(ID.into()),
                all: false,
            },
        ),
        Interaction::GuideHovered(_) => Decision::Volatile {
            audience: Audience::Everyone,
            event: VolatileEvent::GuideHovered {
                hovered_element_id: Some(ID.into()),
            },
        },
        Interaction::BroadcastModeToggled(_) => publish(
            Audience::Everyone,
            Event::BroadcastModeChanged { active: true },
        ),
        Interaction::ViewModeChanged(_) => publish(
            Audience::Everyone,
            Event::ViewModeChanged {
                mode: ViewMode::VideoGrid,
            },
        ),
        Interaction::ScreenSharingToggled(_) => publish(
            Audience::Everyone,
            Event::ScreenSharingChanged { active: true },
        ),
    }
}

#[test]
fn every_interaction_makes_what_it_should_for_a_guide_and_a_client() {
    let interactions = every_interaction();
    let mut names: Vec<String> = interactions
        .iter()
        .map(|i| format!("{:?}", i.name()))
        .collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 18, "one of each interaction");
    let guide = claims(GUIDE, Role::Guide);
    let client = claims(ADA, Role::Client);
    for interaction in interactions {
        for state in [running(), ended()] {
            let by_guide = decide(
                Caller::Participant(&guide),
                &state,
                Request::Interaction(interaction.clone()),
                NOW,
            );
            assert_eq!(
                by_guide,
                expected_for_guide(&interaction),
                "{:?}",
                interaction.name()
            );
            let by_client = decide(
                Caller::Participant(&client),
                &state,
                Request::Interaction(interaction.clone()),
                NOW,
            );
            let expected = if interaction.is_guide_only() {
                refuse(
                    ErrorCode::Forbidden,
                    format!("only a guide may send {:?}", interaction.name()),
                )
            } else {
                // A client's product view is recorded by the shop, and moves nobody.
                Decision::Nothing
            };
            assert_eq!(by_client, expected, "{:?}", interaction.name());
        }
    }
}

#[test]
fn the_shop_publishes_as_asked_and_participants_cannot() {
    let state = running();
    let event = Event::AttendeeRemoved {
        attendee_id: BOB.into(),
    };
    let request = Request::Publish {
        audience: Audience::Guides,
        event: event.clone(),
    };
    assert_eq!(
        decide(Caller::Shop, &ended(), request.clone(), NOW),
        publish(Audience::Guides, event)
    );
    let guide = claims(GUIDE, Role::Guide);
    assert_eq!(
        code(&decide(Caller::Participant(&guide), &state, request, NOW)),
        Some(ErrorCode::Forbidden)
    );
    assert_eq!(
        code(&decide(
            Caller::Shop,
            &state,
            Request::Action(Action::SetLocked { locked: true }),
            NOW
        )),
        Some(ErrorCode::Forbidden)
    );
}

#[test]
fn a_profile_change_merges_into_the_live_entry_and_skips_what_changes_nothing() {
    let mut state = running();
    let entry = AttendeeSummary {
        attendee_id: ADA.into(),
        role: Role::Client,
        attendee_name: Some("Ada".into()),
        video_user_id: Some("v1".into()),
        has_joined: true,
        status: AttendeeStatus::Joined,
        connection: ConnectionState::Connected,
        cart_permission: CartPermission::Granted,
        last_active_at: None,
    };
    state.apply(&Event::AttendeeChanged {
        attendee: entry.clone(),
    });
    let profile =
        |attendee_id: &str, attendee_name: Option<&str>, video_user_id: Option<Option<&str>>| {
            let request = Request::Profile {
                attendee_id: attendee_id.into(),
                attendee_name: attendee_name.map(Into::into),
                video_user_id: video_user_id.map(|v| v.map(Into::into)),
            };
            decide(Caller::Shop, &state, request, NOW)
        };
    let renamed = AttendeeSummary {
        attendee_name: Some("Ada L.".into()),
        video_user_id: None,
        ..entry.clone()
    };
    assert_eq!(
        profile(ADA, Some("Ada L."), Some(None)),
        publish(
            Audience::Guides,
            Event::AttendeeChanged { attendee: renamed }
        )
    );
    assert_eq!(
        profile(ADA, Some("Ada"), None),
        Decision::Nothing,
        "nothing changes"
    );
    assert_eq!(
        profile(BOB, Some("Bob"), None),
        Decision::Nothing,
        "not in the live list"
    );
}

fn chat_code(
    state: &LiveState,
    sender: &str,
    role: Role,
    text: &str,
    now: u64,
) -> Option<ErrorCode> {
    code(&chat(&claims(sender, role), state, text, now))
}

fn posted(state: &mut LiveState, sender: &str, role: Role, text: &str, now: u64) {
    match chat(&claims(sender, role), state, text, now) {
        Decision::Chat(message) => state.apply(&Event::ChatMessagesPosted {
            messages: vec![message],
        }),
        other => panic!("not posted: {other:?}"),
    }
}

fn moderated(state: &mut LiveState, action: Action) {
    match as_guide(state, action) {
        Decision::Publish { event, .. } => state.apply(&event),
        other => panic!("not published: {other:?}"),
    }
}

#[test]
fn chat_text_is_refused_when_empty_or_too_long_for_everyone() {
    let state = running();
    for role in [Role::Client, Role::Guide] {
        assert_eq!(
            chat_code(&state, ADA, role, "   \n ", 0),
            Some(ErrorCode::ChatEmpty)
        );
        assert_eq!(
            chat_code(&state, ADA, role, "\u{202e}", 0),
            Some(ErrorCode::ChatEmpty)
        );
        assert_eq!(
            chat_code(
                &state,
                ADA,
                role,
                &"x".repeat(MAX_CHAT_MESSAGE_CHARS + 1),
                0
            ),
            Some(ErrorCode::ChatTooLong)
        );
        assert_eq!(
            chat_code(&state, ADA, role, &"<".repeat(10 * 1024), 0),
            Some(ErrorCode::ChatTooLong)
        );
        assert_eq!(
            chat_code(&state, ADA, role, &"x".repeat(MAX_CHAT_MESSAGE_CHARS), 0),
            None
        );
    }
}

#[test]
fn a_ban_a_time_out_a_closed_chat_and_blocked_words_refuse_attendees_but_not_guides() {
    let now = 1_000_000;
    let mut state = running();
    moderated(
        &mut state,
        Action::ModerateChatAttendee {
            attendee_id: ADA.into(),
            timeout_minutes: Some(2),
            banned: false,
        },
    );
    let muted_until = state.chat_moderation.muted_until[ADA];
    assert_eq!(muted_until, NOW + 120_000);
    assert_eq!(
        chat_code(&state, ADA, Role::Client, "hi", muted_until - 1),
        Some(ErrorCode::ChatMuted)
    );
    assert_eq!(
        chat_code(&state, ADA, Role::Client, "hi", muted_until),
        None,
        "the time-out ends"
    );
    assert_eq!(
        chat_code(&state, BOB, Role::Client, "hi", now),
        None,
        "only Ada is timed out"
    );
    moderated(
        &mut state,
        Action::ModerateChatAttendee {
            attendee_id: ADA.into(),
            timeout_minutes: None,
            banned: true,
        },
    );
    assert_eq!(
        chat_code(&state, ADA, Role::Client, "hi", now),
        Some(ErrorCode::ChatBanned)
    );
    moderated(
        &mut state,
        Action::ModerateChatAttendee {
            attendee_id: ADA.into(),
            timeout_minutes: None,
            banned: false,
        },
    );
    assert_eq!(
        chat_code(&state, ADA, Role::Client, "hi", now),
        None,
        "the ban is lifted"
    );

    moderated(
        &mut state,
        Action::SetChatBlockedWords {
            words: vec![" Spam ".into()],
        },
    );
    assert_eq!(state.chat_moderation.blocked_words, vec!["Spam".to_owned()]);
    assert_eq!(
        chat_code(&state, ADA, Role::Client, "cheap SPAM here", now),
        Some(ErrorCode::ChatBlockedWord)
    );
    assert_eq!(
        chat_code(&state, GUIDE, Role::Guide, "no spam please", now),
        None
    );

    let settings = ChatSettings {
        closed: true,
        slow_mode_seconds: 0,
        links_allowed: false,
    };
    moderated(&mut state, Action::SetChatSettings { settings });
    assert_eq!(
        chat_code(&state, ADA, Role::Client, "hi", now),
        Some(ErrorCode::ChatClosed)
    );
    assert_eq!(
        chat_code(&state, GUIDE, Role::Guide, "hi", now),
        None,
        "a guide speaks in a closed chat"
    );
}

#[test]
fn slow_mode_and_the_chat_rate_hold_each_attendee_apart() {
    let mut state = running();
    let t = 5_000_000;
    for i in 0..5 {
        posted(&mut state, ADA, Role::Client, "hi", t + i * 100);
    }
    assert_eq!(
        chat_code(&state, ADA, Role::Client, "hi", t + 500),
        Some(ErrorCode::ChatRateLimited)
    );
    assert_eq!(
        chat_code(&state, ADA, Role::Client, "hi", t + 10_000),
        None,
        "the window has passed"
    );
    assert_eq!(
        chat_code(&state, BOB, Role::Client, "hi", t + 500),
        None,
        "per attendee"
    );
    for i in 0..10 {
        posted(&mut state, GUIDE, Role::Guide, "hi", t + i);
    }
    moderated(
        &mut state,
        Action::SetChatSettings {
            settings: ChatSettings {
                slow_mode_seconds: 30,
                ..Default::default()
            },
        },
    );
    assert_eq!(
        chat_code(&state, ADA, Role::Client, "hi", t + 20_000),
        Some(ErrorCode::ChatSlowMode)
    );
    assert_eq!(
        chat_code(&state, ADA, Role::Client, "hi", t + 400 + 30_000),
        None
    );
    posted(&mut state, BOB, Role::Client, "first", t + 40_000);
    assert_eq!(
        chat_code(&state, BOB, Role::Client, "second", t + 40_001),
        Some(ErrorCode::ChatSlowMode)
    );
    assert_eq!(
        chat_code(&state, GUIDE, Role::Guide, "hi", t + 1),
        None,
        "guides are not slowed"
    );
}

#[test]
fn moderation_is_the_guides_only() {
    let state = running();
    let moderation = [
        Action::DeleteChatMessage {
            message_id: ID.into(),
        },
        Action::PinChatMessage { message_id: None },
        Action::SetChatSettings {
            settings: ChatSettings::default(),
        },
        Action::SetChatBlockedWords { words: vec![] },
        Action::ModerateChatAttendee {
            attendee_id: BOB.into(),
            timeout_minutes: None,
            banned: true,
        },
    ];
    for action in moderation {
        assert!(action.is_guide_only(), "{}", action.key());
        assert_eq!(
            code(&as_client(&state, action.clone())),
            Some(ErrorCode::Forbidden),
            "{}",
            action.key()
        );
    }
    let invalid = |action| code(&as_guide(&state, action));
    let timeout = |minutes| Action::ModerateChatAttendee {
        attendee_id: BOB.into(),
        timeout_minutes: Some(minutes),
        banned: false,
    };
    assert_eq!(invalid(timeout(0)), Some(ErrorCode::InvalidPayload));
    assert_eq!(invalid(timeout(1441)), Some(ErrorCode::InvalidPayload));
    assert_eq!(
        invalid(Action::SetChatBlockedWords {
            words: vec!["x".repeat(41)]
        }),
        Some(ErrorCode::InvalidPayload)
    );
    assert_eq!(
        invalid(Action::SetChatBlockedWords {
            words: vec!["w".into(); 201]
        }),
        Some(ErrorCode::InvalidPayload)
    );
    let slow = Action::SetChatSettings {
        settings: ChatSettings {
            slow_mode_seconds: 3601,
            ..Default::default()
        },
    };
    assert_eq!(invalid(slow), Some(ErrorCode::InvalidPayload));
    // A time-out goes to the attendee concerned (and the guides); the words to guides only.
    assert!(
        matches!(as_guide(&state, timeout(3)), Decision::Publish { audience: Audience::Attendee(id), .. } if id == BOB)
    );
    let words = as_guide(
        &state,
        Action::SetChatBlockedWords {
            words: vec!["x".into()],
        },
    );
    assert!(matches!(
        words,
        Decision::Publish {
            audience: Audience::Guides,
            ..
        }
    ));
}

#[test]
fn a_message_carries_the_live_name_and_the_cleaned_text() {
    let mut state = running();
    joined(&mut state, ADA, Role::Client);
    let Decision::Chat(message) = chat(
        &claims(ADA, Role::Client),
        &state,
        " \u{202e}<b>hi</b> ",
        42,
    ) else {
        panic!("not posted")
    };
    assert_eq!(message.text, "<b>hi</b>");
    assert_eq!(message.sent_at, 42);
    assert_eq!(message.attendee_name, state.participants[ADA].attendee_name);
    assert!(protocol::state::is_id(&message.message_id));
}
