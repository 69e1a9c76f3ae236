//! Round trips through both codecs, and malformed input.

use proptest::prelude::*;
use protocol::action::{
    Action, Empty, GuideHoveredPayload, Interaction, PageViewedPayload, ProductPayload,
};
use protocol::codec::{Codec, Encoded};
use protocol::engagement::polls::{NewPoll, Poll, PollAnswer, PollSlide, PollStatus};
use protocol::engagement::questions::{Question, QuestionStatus};
use protocol::engagement::{ChatMessage, ChatSettings, Reaction, ReactionCounts};
use protocol::frame::{ClientFrame, ErrorCode, Event, Resume, ServerFrame, VolatileEvent};
use protocol::state::{AttendeeSummary, Snapshot, StateForGuides};
use protocol::{AttendeeStatus, CartPermission, ConnectionState, Role};

fn round_trip<T>(codec: Codec, value: &T) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    match codec.encode(value).expect("encodes") {
        Encoded::Text(text) => codec.decode_text(&text).expect("decodes"),
        Encoded::Binary(bytes) => codec.decode_binary(&bytes).expect("decodes"),
    }
}

fn id() -> impl Strategy<Value = String> {
    "[0-9a-f]{32}"
}

fn question_status() -> impl Strategy<Value = QuestionStatus> {
    proptest::sample::select(vec![
        QuestionStatus::Open,
        QuestionStatus::Answering,
        QuestionStatus::Answered,
    ])
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        (id(), id(), any::<u32>()).prop_map(|(page_id, section_id, slide_alias)| {
            Action::SwitchSlide {
                page_id,
                section_id,
                slide_alias,
            }
        }),
        proptest::option::of(id()).prop_map(|attendee_id| Action::LoadCart { attendee_id }),
        (proptest::option::of(id()), id(), 1u32..100).prop_map(
            |(attendee_id, product_id, quantity)| {
                Action::AddToCart {
                    attendee_id,
                    product_id,
                    quantity,
                }
            }
        ),
        Just(Action::LoadProductList {}),
        (id(), id(), proptest::collection::vec(id(), 0..5)).prop_map(
            |(page_id, section_id, product_ids)| {
                Action::UpdateListingProducts {
                    page_id,
                    section_id,
                    product_ids,
                }
            }
        ),
        ".{0,600}".prop_map(|text| Action::SendChatMessage { text }),
        proptest::option::of(id()).prop_map(|message_id| Action::PinChatMessage { message_id }),
        (any::<bool>(), any::<u32>(), any::<bool>()).prop_map(
            |(closed, slow_mode_seconds, links_allowed)| Action::SetChatSettings {
                settings: ChatSettings {
                    closed,
                    slow_mode_seconds,
                    links_allowed
                }
            }
        ),
        proptest::collection::vec(".{0,20}", 0..4)
            .prop_map(|words| Action::SetChatBlockedWords { words }),
        (id(), proptest::option::of(any::<u32>()), any::<bool>()).prop_map(
            |(attendee_id, timeout_minutes, banned)| {
                Action::ModerateChatAttendee {
                    attendee_id,
                    timeout_minutes,
                    banned,
                }
            }
        ),
        proptest::sample::select(Reaction::ALL.to_vec())
            .prop_map(|reaction| Action::SendReaction { reaction }),
        (
            ".{0,200}",
            proptest::collection::vec(".{0,100}", 0..7),
            any::<bool>(),
            proptest::option::of((id(), any::<u32>()))
        )
            .prop_map(|(question, answers, multiple, slide)| Action::CreatePoll {
                poll: NewPoll {
                    question,
                    answers,
                    multiple,
                    slide: slide.map(|(section_id, slide_alias)| PollSlide {
                        section_id,
                        slide_alias
                    })
                }
            }),
        id().prop_map(|poll_id| Action::OpenPoll { poll_id }),
        id().prop_map(|poll_id| Action::ClosePoll { poll_id }),
        (id(), any::<bool>())
            .prop_map(|(poll_id, shown)| Action::ShowPollResults { poll_id, shown }),
        (id(), proptest::collection::vec(id(), 0..7)).prop_map(|(poll_id, answer_ids)| {
            Action::VotePoll {
                poll_id,
                answer_ids,
            }
        }),
        ".{0,400}".prop_map(|text| Action::AskQuestion { text }),
        (id(), any::<bool>())
            .prop_map(|(question_id, voted)| Action::VoteQuestion { question_id, voted }),
        (id(), question_status()).prop_map(|(question_id, status)| Action::MarkQuestion {
            question_id,
            status
        }),
        id().prop_map(|question_id| Action::DismissQuestion { question_id }),
    ]
}

fn interaction() -> impl Strategy<Value = Interaction> {
    prop_oneof![
        Just(Interaction::KeepAlive(Empty {})),
        id().prop_map(|product_id| Interaction::ProductLiked(ProductPayload { product_id })),
        proptest::option::of(id()).prop_map(|hovered_element_id| Interaction::GuideHovered(
            GuideHoveredPayload { hovered_element_id }
        )),
        (id(), id(), any::<u32>(), proptest::option::of(any::<u32>())).prop_map(
            |(page_id, section_id, slide_alias, page_number)| {
                Interaction::PageViewed(PageViewedPayload {
                    page_id,
                    section_id,
                    slide_alias,
                    page_number,
                })
            }
        ),
    ]
}

fn client_frame() -> impl Strategy<Value = ClientFrame> {
    prop_oneof![
        proptest::option::of(any::<u64>().prop_map(|n| n >> 12)).prop_map(|last_seq| {
            ClientFrame::Hello {
                last_seq,
                epoch: last_seq.map(|n| n.to_string()),
            }
        }),
        (proptest::option::of(any::<u32>()), action())
            .prop_map(|(r#ref, action)| ClientFrame::Action { r#ref, action }),
        (proptest::option::of(any::<u32>()), interaction())
            .prop_map(|(r#ref, interaction)| ClientFrame::Interaction { r#ref, interaction }),
        any::<u64>().prop_map(|nonce| ClientFrame::Ping { nonce }),
    ]
}

fn server_frame() -> impl Strategy<Value = ServerFrame> {
    prop_oneof![
        (any::<u64>(), id(), id(), any::<u32>()).prop_map(
            |(seq, page_id, section_id, slide_alias)| {
                ServerFrame::Event {
                    seq,
                    prev: seq.saturating_sub(1),
                    event: Event::SlideSwitched {
                        page_id,
                        section_id,
                        slide_alias,
                    },
                }
            }
        ),
        (any::<u32>(), proptest::option::of(any::<u64>()))
            .prop_map(|(r#ref, seq)| ServerFrame::Ack { r#ref, seq }),
        ".{0,40}".prop_map(|message| ServerFrame::error(Some(7), ErrorCode::Forbidden, message)),
        proptest::option::of(id()).prop_map(|hovered_element_id| ServerFrame::Volatile {
            event: VolatileEvent::GuideHovered { hovered_element_id }
        }),
        (
            any::<u64>(),
            id(),
            id(),
            proptest::option::of(".{0,30}"),
            ".{1,500}",
            any::<u64>()
        )
            .prop_map(
                |(seq, message_id, attendee_id, attendee_name, text, sent_at)| ServerFrame::Event {
                    seq,
                    prev: seq.saturating_sub(1),
                    event: Event::ChatMessagePosted {
                        message: ChatMessage {
                            message_id,
                            attendee_id,
                            attendee_name,
                            role: Role::Client,
                            text,
                            sent_at
                        }
                    },
                }
            ),
        (
            any::<u64>(),
            id(),
            proptest::option::of(any::<u64>()),
            any::<bool>()
        )
            .prop_map(|(seq, attendee_id, muted_until, banned)| {
                ServerFrame::Event {
                    seq,
                    prev: seq.saturating_sub(1),
                    event: Event::ChatAttendeeModerated {
                        attendee_id,
                        muted_until,
                        banned,
                    },
                }
            }),
        (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(heart, clap, fire)| {
            ServerFrame::Volatile {
                event: VolatileEvent::Reactions {
                    counts: ReactionCounts {
                        heart,
                        clap,
                        fire,
                        ..Default::default()
                    },
                },
            }
        }),
        proptest::sample::select(vec![
            ErrorCode::ChatMuted,
            ErrorCode::ChatTooLong,
            ErrorCode::ChatBlockedWord,
            ErrorCode::ChatSlowMode
        ])
        .prop_map(|code| ServerFrame::error(Some(3), code, "refused")),
        (
            any::<u64>(),
            id(),
            ".{1,200}",
            proptest::collection::vec((id(), ".{1,100}", any::<u32>()), 2..7),
            any::<bool>(),
            any::<u32>()
        )
            .prop_map(|(seq, poll_id, question, answers, multiple, voters)| {
                ServerFrame::Event {
                    seq,
                    prev: seq.saturating_sub(1),
                    event: Event::PollCreated {
                        poll: Poll {
                            poll_id,
                            question,
                            counts: answers.iter().map(|a| a.2).collect(),
                            answers: answers
                                .into_iter()
                                .map(|(answer_id, text, _)| PollAnswer { answer_id, text })
                                .collect(),
                            multiple,
                            slide: None,
                            status: PollStatus::Open,
                            results_shown: multiple,
                            voters,
                        },
                    },
                }
            }),
        (
            any::<u64>(),
            id(),
            id(),
            proptest::collection::vec(id(), 0..7),
            proptest::collection::vec(id(), 0..7)
        )
            .prop_map(
                |(seq, poll_id, attendee_id, answer_ids, previous_answer_ids)| ServerFrame::Event {
                    seq,
                    prev: seq.saturating_sub(1),
                    event: Event::PollVoted {
                        poll_id,
                        attendee_id,
                        answer_ids,
                        previous_answer_ids
                    },
                }
            ),
        (
            any::<u64>(),
            id(),
            proptest::collection::vec(any::<u32>(), 2..7),
            any::<u32>()
        )
            .prop_map(|(seq, poll_id, counts, voters)| {
                ServerFrame::Event {
                    seq,
                    prev: seq.saturating_sub(1),
                    event: Event::PollClosed {
                        poll_id,
                        counts,
                        voters,
                    },
                }
            }),
        (
            id(),
            proptest::collection::vec(any::<u32>(), 2..7),
            any::<u32>()
        )
            .prop_map(|(poll_id, counts, voters)| ServerFrame::Volatile {
                event: VolatileEvent::PollCounts {
                    poll_id,
                    counts,
                    voters
                }
            }),
        proptest::sample::select(vec![
            ErrorCode::PollClosed,
            ErrorCode::PollUnknownAnswer,
            ErrorCode::PollSingleChoice,
            ErrorCode::PollNotFound,
            ErrorCode::PollLimit
        ])
        .prop_map(|code| ServerFrame::error(Some(4), code, "refused")),
        (
            any::<u64>(),
            id(),
            id(),
            proptest::option::of(".{0,60}"),
            ".{1,300}",
            any::<u64>(),
            question_status(),
            any::<u32>()
        )
            .prop_map(
                |(seq, question_id, attendee_id, attendee_name, text, asked_at, status, votes)| {
                    ServerFrame::Event {
                        seq,
                        prev: seq.saturating_sub(1),
                        event: Event::QuestionAsked {
                            question: Question {
                                question_id,
                                attendee_id,
                                attendee_name,
                                role: Role::Client,
                                text,
                                asked_at,
                                status,
                                votes,
                            },
                        },
                    }
                }
            ),
        (any::<u64>(), id(), id(), any::<bool>()).prop_map(
            |(seq, question_id, attendee_id, voted)| ServerFrame::Event {
                seq,
                prev: seq.saturating_sub(1),
                event: Event::QuestionVoted {
                    question_id,
                    attendee_id,
                    voted
                },
            }
        ),
        (any::<u64>(), id(), question_status()).prop_map(|(seq, question_id, status)| {
            ServerFrame::Event {
                seq,
                prev: seq.saturating_sub(1),
                event: Event::QuestionMarked {
                    question_id,
                    status,
                },
            }
        }),
        (any::<u64>(), id()).prop_map(|(seq, question_id)| ServerFrame::Event {
            seq,
            prev: seq.saturating_sub(1),
            event: Event::QuestionDismissed { question_id },
        }),
        proptest::collection::btree_map(id(), any::<u32>(), 0..20).prop_map(|votes| {
            ServerFrame::Volatile {
                event: VolatileEvent::QuestionVotes { votes },
            }
        }),
        proptest::sample::select(vec![
            ErrorCode::QuestionEmpty,
            ErrorCode::QuestionTooLong,
            ErrorCode::QuestionRateLimited,
            ErrorCode::QuestionBanned,
            ErrorCode::QuestionNotFound,
            ErrorCode::QuestionOwnVote,
            ErrorCode::QuestionLimit
        ])
        .prop_map(|code| ServerFrame::error(Some(5), code, "refused")),
    ]
}

proptest! {
    #[test]
    fn client_frames_round_trip(frame in client_frame()) {
        prop_assert_eq!(&round_trip(Codec::Json, &frame), &frame);
        prop_assert_eq!(&round_trip(Codec::MsgPack, &frame), &frame);
    }

    #[test]
    fn server_frames_round_trip(frame in server_frame()) {
        prop_assert_eq!(&round_trip(Codec::Json, &frame), &frame);
        prop_assert_eq!(&round_trip(Codec::MsgPack, &frame), &frame);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = Codec::MsgPack.decode_binary::<ClientFrame>(&bytes);
        if let Ok(text) = std::str::from_utf8(&bytes) {
            let _ = Codec::Json.decode_text::<ClientFrame>(text);
        }
    }
}

#[test]
fn welcome_with_guide_snapshot_round_trips() {
    let attendee = AttendeeSummary {
        attendee_id: "a".repeat(32),
        role: Role::Client,
        attendee_name: Some("Ada".into()),
        video_user_id: None,
        has_joined: true,
        status: AttendeeStatus::Joined,
        connection: ConnectionState::Connected,
        cart_permission: CartPermission::Granted,
        last_active_at: Some("2026-11-25T10:00:00Z".into()),
    };
    let mut guides = StateForGuides::default();
    guides
        .clients
        .insert(attendee.attendee_id.clone(), attendee);
    let mut snapshot = Snapshot {
        state_for_guides: Some(guides),
        ..Default::default()
    };
    snapshot.state_for_all.current_slide_alias = 3;
    snapshot
        .state_for_all
        .extensions
        .push(serde_json::json!({"any": [1, "two"]}));
    let frame = ServerFrame::Welcome {
        appointment_id: "b".repeat(32),
        attendee_id: "c".repeat(32),
        role: Role::Guide,
        seq: 42,
        epoch: "e1".into(),
        resume: Resume::Snapshot,
        snapshot: Some(Box::new(snapshot)),
        heartbeat_ms: 15_000,
        participant_pages: Some(1),
    };
    assert_eq!(round_trip(Codec::Json, &frame), frame);
    assert_eq!(round_trip(Codec::MsgPack, &frame), frame);
    let ServerFrame::Welcome {
        snapshot: Some(snapshot),
        ..
    } = &frame
    else {
        unreachable!()
    };
    let participants = snapshot
        .state_for_guides
        .as_ref()
        .unwrap()
        .clients
        .values()
        .cloned()
        .collect();
    let page = ServerFrame::Participants {
        page: 1,
        pages: 1,
        participants,
    };
    assert_eq!(round_trip(Codec::Json, &page), page);
    assert_eq!(round_trip(Codec::MsgPack, &page), page);
}

#[test]
fn wire_shape_uses_reference_names() {
    let json = serde_json::to_value(ClientFrame::Interaction {
        r#ref: None,
        interaction: Interaction::ProductViewed(ProductPayload {
            product_id: "d".repeat(32),
        }),
    })
    .unwrap();
    assert_eq!(json["type"], "interaction");
    assert_eq!(json["interaction"]["name"], "product.viewed");
    assert_eq!(json["interaction"]["payload"]["productId"], "d".repeat(32));

    let state = serde_json::to_value(Snapshot::default()).unwrap();
    for field in [
        "currentGuideProductId",
        "currentSlideAlias",
        "broadcastMode",
        "videoAudioSettings",
        "attendeeRestrictionType",
    ] {
        assert!(
            state["stateForAll"].get(field).is_some(),
            "stateForAll.{field} missing"
        );
    }
    assert_eq!(state["stateForAll"]["viewMode"], "presentation");
    assert_eq!(
        state["stateForClients"]["hoveredElementId"],
        serde_json::Value::Null
    );
    assert_eq!(
        state["stateForAll"]["chat"]["settings"]["slowModeSeconds"],
        0
    );
    let muted = serde_json::to_value(ServerFrame::error(None, ErrorCode::ChatMuted, "x")).unwrap();
    assert_eq!(muted["code"], "CHAT_MUTED");
    let reaction = serde_json::to_value(ClientFrame::Action {
        r#ref: None,
        action: Action::SendReaction {
            reaction: Reaction::Heart,
        },
    })
    .unwrap();
    assert_eq!(
        reaction["action"],
        serde_json::json!({"key": "sendReaction", "payload": {"reaction": "heart"}})
    );

    let hello: ClientFrame = serde_json::from_str(r#"{"type":"hello","lastSeq":17}"#).unwrap();
    assert_eq!(
        hello,
        ClientFrame::Hello {
            last_seq: Some(17),
            epoch: None
        }
    );
    let empty: ClientFrame = serde_json::from_str(
        r#"{"type":"interaction","interaction":{"name":"keep.alive","payload":{}}}"#,
    )
    .unwrap();
    assert_eq!(
        empty,
        ClientFrame::Interaction {
            r#ref: None,
            interaction: Interaction::KeepAlive(Empty {})
        }
    );
}

#[test]
fn malformed_frames_are_errors() {
    let bad_json = [
        "",
        "{",
        "null",
        "[]",
        r#"{"type":"nope"}"#,
        r#"{"type":"hello","lastSeq":-1}"#,
        r#"{"type":"action","action":{"key":"switchSlide","payload":{"pageId":1}}}"#,
        r#"{"type":"action","action":{"key":"teleport","payload":{}}}"#,
        r#"{"type":"interaction","interaction":{"name":"product.viewed","payload":{}}}"#,
        r#"{"type":"ping"}"#,
    ];
    for text in bad_json {
        assert!(
            Codec::Json.decode_text::<ClientFrame>(text).is_err(),
            "accepted {text:?}"
        );
    }
    for bytes in [
        &[][..],
        &[0xc1][..],
        &[0x92, 0x01][..],
        &[0x81, 0xa4, b't', b'y', b'p', b'e', 0x01][..],
    ] {
        assert!(
            Codec::MsgPack.decode_binary::<ClientFrame>(bytes).is_err(),
            "accepted {bytes:?}"
        );
    }
    assert!(Codec::Json.decode_binary::<ClientFrame>(b"{}").is_err());
    assert!(Codec::MsgPack.decode_text::<ClientFrame>("{}").is_err());
}

#[test]
fn subprotocols_select_codecs() {
    assert_eq!(
        Codec::from_subprotocol("salesroom.v1.json"),
        Some(Codec::Json)
    );
    assert_eq!(
        Codec::from_subprotocol("salesroom.v1.msgpack"),
        Some(Codec::MsgPack)
    );
    assert_eq!(Codec::from_subprotocol("mqtt"), None);
}

#[test]
fn borrowing_frames_encode_exactly_like_server_frames() {
    use protocol::frame::{EventFrame, VolatileFrame};
    let event = Event::SlideSwitched {
        page_id: "a".repeat(32),
        section_id: "b".repeat(32),
        slide_alias: 4,
    };
    let volatile = VolatileEvent::GuideHovered {
        hovered_element_id: Some("c".repeat(32)),
    };
    for codec in [Codec::Json, Codec::MsgPack] {
        let owned = codec
            .encode(&ServerFrame::Event {
                seq: 9,
                prev: 7,
                event: event.clone(),
            })
            .unwrap();
        let borrowed = codec
            .encode(&EventFrame {
                seq: 9,
                prev: 7,
                event: &event,
            })
            .unwrap();
        assert_eq!(owned, borrowed);
        let owned = codec
            .encode(&ServerFrame::Volatile {
                event: volatile.clone(),
            })
            .unwrap();
        let borrowed = codec.encode(&VolatileFrame { event: &volatile }).unwrap();
        assert_eq!(owned, borrowed);
    }
}
