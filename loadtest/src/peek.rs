//! Reading the hub's frames cheaply: what an attendee needs of a frame (a slide change's
//! send time, `seq` and `prev`, a ping's nonce, the kind of an engagement event) found in
//! its first bytes without parsing it ([`peek`]), and the slide change's section id that
//! carries its send time ([`section_id`]).

use protocol::frame::ServerFrame;
use tokio_tungstenite::tungstenite::Message;

/// The section id of slide change `alias` sent at `sent_us` (Unix microseconds).
pub(crate) fn section_id(alias: u32, sent_us: u64) -> String {
    format!("{alias:08x}{sent_us:024x}")
}

/// What an attendee task needs of a frame, found without parsing it: the load generator
/// shares the machine's two cores with the hub, so every microsecond it spends per
/// frame is taken from the hub. JSON frames of the hub start with their `type`, and an
/// event's `kind` comes first in it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Peek {
    /// A slide change: its alias and its send time, from its section id.
    Slide {
        alias: u32,
        sent_us: u64,
        seq: u64,
        prev: u64,
    },
    /// Any other state event.
    Event {
        seq: u64,
        prev: u64,
        kind: Kind,
    },
    Ping(u64),
    /// A room's reaction sums (volatile).
    Reactions,
    /// The `ack` of the request with this `ref`.
    Ack(u32),
    /// An `error` frame, with the `ref` of the request it refuses.
    Refused(Option<u32>),
    Other,
}

/// The kinds of state events the engagement mode looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Chat,
    PollCreated,
    PollOpened,
    PollClosed,
    Other,
}

/// The unsigned number right after `"key":` in `text`.
fn number_after(text: &str, key: &str) -> Option<u64> {
    let start = text.find(key)? + key.len();
    let digits = text[start..].bytes().take_while(u8::is_ascii_digit).count();
    text[start..start + digits].parse().ok()
}

/// The string right after `"key":"` in `text`, up to the next quote (for texts the
/// load generator wrote itself, which hold no quote).
fn string_after<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let start = text.find(key)? + key.len();
    let len = text[start..].find('"')?;
    Some(&text[start..start + len])
}

/// The texts of a chat event's messages in their order (one for `chatMessagePosted`,
/// each of a `chatMessagesPosted` batch): the strings after each `"text":"`, for texts
/// the load generator wrote itself (no quote, no `"text":` inside).
pub(crate) fn chat_texts(text: &str) -> impl Iterator<Item = &str> {
    const KEY: &str = r#""text":""#;
    text.match_indices(KEY)
        .filter_map(|(at, _)| string_after(&text[at..], KEY))
}

/// What `message` is, read from its first bytes (see [`Peek`]).
pub(crate) fn peek(message: &Message) -> Peek {
    let Message::Text(text) = message else {
        return Peek::Other;
    };
    let text = text.as_str();
    if text.starts_with(r#"{"type":"event""#) {
        // The frame's own seq and prev come before its event.
        let (Some(seq), Some(prev)) = (
            number_after(text, r#""seq":"#),
            number_after(text, r#""prev":"#),
        ) else {
            return Peek::Other;
        };
        const KIND: &str = r#""kind":""#;
        let kind_at = text.find(KIND).map_or(text.len(), |at| at + KIND.len());
        let kind_name = &text[kind_at..];
        if kind_name.starts_with(r#"slideSwitched""#) {
            const KEY: &str = r#""sectionId":""#;
            let slide = text
                .find(KEY)
                .and_then(|at| text.get(at + KEY.len()..at + KEY.len() + 32))
                .and_then(|id| {
                    Some(Peek::Slide {
                        alias: u32::from_str_radix(&id[..8], 16).ok()?,
                        sent_us: u64::from_str_radix(&id[8..], 16).ok()?,
                        seq,
                        prev,
                    })
                });
            return slide.unwrap_or(Peek::Event {
                seq,
                prev,
                kind: Kind::Other,
            });
        }
        let kind = [
            (r#"chatMessagesPosted""#, Kind::Chat),
            (r#"chatMessagePosted""#, Kind::Chat),
            (r#"pollCreated""#, Kind::PollCreated),
            (r#"pollOpened""#, Kind::PollOpened),
            (r#"pollClosed""#, Kind::PollClosed),
        ]
        .into_iter()
        .find_map(|(name, kind)| kind_name.starts_with(name).then_some(kind))
        .unwrap_or(Kind::Other);
        Peek::Event { seq, prev, kind }
    } else if text.starts_with(r#"{"type":"ping""#) {
        number_after(text, r#""nonce":"#).map_or(Peek::Other, Peek::Ping)
    } else if text.starts_with(r#"{"type":"volatile","event":{"kind":"reactions""#) {
        Peek::Reactions
    } else if text.starts_with(r#"{"type":"ack""#) {
        number_after(text, r#""ref":"#).map_or(Peek::Other, |r| Peek::Ack(r as u32))
    } else if text.starts_with(r#"{"type":"error""#) {
        Peek::Refused(number_after(text, r#""ref":"#).map(|r| r as u32))
    } else {
        Peek::Other
    }
}

/// A frame of the hub, parsed in full (for the rare frames whose content matters).
pub(crate) fn decode(message: &Message) -> Option<ServerFrame> {
    match message {
        Message::Text(text) => serde_json::from_str(text.as_str()).ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engagement::{self, CHAT_REF, VOTE_REF};
    use protocol::frame::{ClientFrame, Event, ServerFrame};

    fn text(frame: &ServerFrame) -> Message {
        Message::text(serde_json::to_string(frame).unwrap())
    }

    #[test]
    fn peek_finds_the_slide_and_its_send_time_and_the_ping_nonce_of_real_frames() {
        let sent_us = 1_795_000_000_123_456;
        let slide = ServerFrame::Event {
            seq: 7,
            prev: 6,
            event: Event::SlideSwitched {
                page_id: "a".repeat(32),
                section_id: section_id(42, sent_us),
                slide_alias: 42,
            },
        };
        assert!(
            protocol::state::is_id(&section_id(42, sent_us)),
            "a section id the hub accepts"
        );
        assert_eq!(
            peek(&text(&slide)),
            Peek::Slide {
                alias: 42,
                sent_us,
                seq: 7,
                prev: 6
            }
        );
        let lock = ServerFrame::Event {
            seq: 8,
            prev: 7,
            event: Event::LockChanged { locked: true },
        };
        assert_eq!(
            peek(&text(&lock)),
            Peek::Event {
                seq: 8,
                prev: 7,
                kind: Kind::Other
            }
        );
        assert_eq!(
            peek(&text(&ServerFrame::Ping { nonce: 123456789 })),
            Peek::Ping(123456789)
        );
        assert_eq!(peek(&text(&ServerFrame::Pong { nonce: 1 })), Peek::Other);
        assert_eq!(peek(&Message::binary(vec![1, 2, 3])), Peek::Other);
        assert_eq!(
            peek(&text(&ServerFrame::Ack {
                r#ref: VOTE_REF,
                seq: Some(9)
            })),
            Peek::Ack(VOTE_REF)
        );
        assert_eq!(
            peek(&text(&ServerFrame::Ack {
                r#ref: CHAT_REF,
                seq: None
            })),
            Peek::Ack(CHAT_REF)
        );
        let refused = ServerFrame::error(
            Some(VOTE_REF),
            protocol::frame::ErrorCode::PollClosed,
            "the poll is not open",
        );
        assert_eq!(peek(&text(&refused)), Peek::Refused(Some(VOTE_REF)));
        let refused =
            ServerFrame::error(None, protocol::frame::ErrorCode::RateLimited, "slow down");
        assert_eq!(peek(&text(&refused)), Peek::Refused(None));
    }

    #[test]
    fn peek_finds_the_engagement_frames_and_the_chat_text() {
        use protocol::engagement::polls::{NewPoll, PollStatus};
        use protocol::engagement::{ChatMessage, ReactionCounts};
        use protocol::frame::VolatileEvent;
        let chat = ChatMessage {
            message_id: "a".repeat(32),
            attendee_id: "b".repeat(32),
            attendee_name: Some("Load 7 \"kind\":\"pollClosed\"".into()),
            role: protocol::Role::Client,
            text: engagement::chat_text(12),
            sent_at: 1,
        };
        let batch: Vec<ChatMessage> = (13..16)
            .map(|k| ChatMessage {
                text: engagement::chat_text(k),
                ..chat.clone()
            })
            .collect();
        let posted = text(&ServerFrame::Event {
            seq: 3,
            prev: 2,
            event: Event::ChatMessagePosted { message: chat },
        });
        assert_eq!(
            peek(&posted),
            Peek::Event {
                seq: 3,
                prev: 2,
                kind: Kind::Chat
            }
        );
        let Message::Text(posted) = &posted else {
            unreachable!()
        };
        assert_eq!(
            chat_texts(posted.as_str()).collect::<Vec<_>>(),
            ["load chat 12"]
        );
        let batch = text(&ServerFrame::Event {
            seq: 9,
            prev: 3,
            event: Event::ChatMessagesPosted { messages: batch },
        });
        assert_eq!(
            peek(&batch),
            Peek::Event {
                seq: 9,
                prev: 3,
                kind: Kind::Chat
            }
        );
        let Message::Text(batch) = &batch else {
            unreachable!()
        };
        assert_eq!(
            chat_texts(batch.as_str()).collect::<Vec<_>>(),
            ["load chat 13", "load chat 14", "load chat 15"]
        );
        let new = NewPoll {
            question: "Q?".into(),
            answers: vec!["A".into(), "B".into()],
            multiple: false,
            slide: None,
        };
        let poll = new.into_poll("c".repeat(32), ["d".repeat(32), "e".repeat(32)]);
        assert_eq!(poll.status, PollStatus::Draft);
        let id = poll.poll_id.clone();
        let kinds = [
            (Event::PollCreated { poll }, Kind::PollCreated),
            (
                Event::PollOpened {
                    poll_id: id.clone(),
                },
                Kind::PollOpened,
            ),
            (
                Event::PollClosed {
                    poll_id: id.clone(),
                    counts: vec![1, 2],
                    voters: 3,
                },
                Kind::PollClosed,
            ),
            (
                Event::ChatMessageDeleted {
                    message_id: id.clone(),
                },
                Kind::Other,
            ),
        ];
        for (event, kind) in kinds {
            assert_eq!(
                peek(&text(&ServerFrame::Event {
                    seq: 5,
                    prev: 4,
                    event
                })),
                Peek::Event {
                    seq: 5,
                    prev: 4,
                    kind
                }
            );
        }
        let sums = ServerFrame::Volatile {
            event: VolatileEvent::Reactions {
                counts: ReactionCounts {
                    heart: 3,
                    ..Default::default()
                },
            },
        };
        assert_eq!(peek(&text(&sums)), Peek::Reactions);
        let counts = ServerFrame::Volatile {
            event: VolatileEvent::PollCounts {
                poll_id: id,
                counts: vec![1],
                voters: 1,
            },
        };
        assert_eq!(peek(&text(&counts)), Peek::Other);
        // What the attendee answers is a pong the hub accepts.
        let pong: ClientFrame = serde_json::from_str(r#"{"type":"pong","nonce":5}"#).unwrap();
        assert_eq!(pong, ClientFrame::Pong { nonce: 5 });
    }
}
