//! Live engagement (issue #19) over real sockets: a real hub on port 0 with its SQLite
//! file, tokio-tungstenite clients in JSON and MessagePack. Chat order, resume, the late
//! joiner's last 100, every refusal, moderation reaching everyone, reactions coalesced.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::{start, Client};
use hub::testing::{token, ADA, BOB, CAROL, GUIDE};
use protocol::action::Action;
use protocol::codec::Codec;
use protocol::engagement::{
    ChatMessage, ChatSettings, Reaction, ReactionCounts, CHAT_BATCH_MS, CHAT_HISTORY,
    MAX_CHAT_BATCH, REACTION_TICK_MS,
};
use protocol::frame::{ClientFrame, ErrorCode, Event, Resume, ServerFrame, VolatileEvent};
use protocol::Role;

impl Client {
    async fn say(&mut self, text: &str) -> u32 {
        self.act(Action::SendChatMessage { text: text.into() })
            .await
    }

    /// The next chat event, skipping presence, acks and volatile frames; checks `prev`
    /// chains without a gap.
    async fn next_chat(&mut self) -> (u64, Event) {
        self.next_event(|event| {
            matches!(
                event,
                Event::ChatMessagePosted { .. }
                    | Event::ChatMessagesPosted { .. }
                    | Event::ChatMessageDeleted { .. }
                    | Event::ChatMessagePinned { .. }
                    | Event::ChatSettingsChanged { .. }
                    | Event::ChatBlockedWordsChanged { .. }
                    | Event::ChatAttendeeModerated { .. }
            )
        })
        .await
    }

    async fn next_message(&mut self) -> ChatMessage {
        self.next_messages(1).await.remove(0)
    }

    /// The next `n` chat messages, from as many batches (`chatMessagesPosted`) as they
    /// came in; a batch reaching past the `n`-th fails.
    async fn next_messages(&mut self, n: usize) -> Vec<ChatMessage> {
        self.next_batches(n).await.0
    }

    /// The next `n` chat messages and the number of events that carried them.
    async fn next_batches(&mut self, n: usize) -> (Vec<ChatMessage>, usize) {
        let (mut messages, mut events) = (Vec::new(), 0);
        while messages.len() < n {
            match self.next_chat().await {
                (_, Event::ChatMessagesPosted { messages: batch }) => {
                    assert!(
                        !batch.is_empty() && batch.len() <= MAX_CHAT_BATCH,
                        "a batch of {}",
                        batch.len()
                    );
                    messages.extend(batch)
                }
                (_, other) => panic!("expected chat messages, got {other:?}"),
            }
            events += 1;
        }
        assert_eq!(
            messages.len(),
            n,
            "a batch reached past the messages expected"
        );
        (messages, events)
    }
}

#[tokio::test]
async fn chat_is_ordered_for_everyone_resumed_exactly_and_a_late_joiner_gets_the_last_100() {
    let addr = start().await;
    let (mut guide, _) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::Json).await;
    let (mut ada, _) = Client::join(&addr, ADA, Role::Client, "Ada", Codec::Json).await;
    let (mut bob, _) = Client::join(&addr, BOB, Role::Client, "Bob", Codec::MsgPack).await;

    ada.say("hello from Ada").await;
    guide.say("welcome, everyone").await;
    ada.say("a question").await;
    let mut seen = Vec::new();
    for client in [&mut guide, &mut ada, &mut bob] {
        seen.push(client.next_messages(3).await);
    }
    assert!(
        seen.windows(2).all(|w| w[0] == w[1]),
        "one order for everyone, in both codecs"
    );
    let by_text = |text: &str| {
        seen[0]
            .iter()
            .find(|m| m.text == text)
            .cloned()
            .expect("posted")
    };
    let welcome = by_text("welcome, everyone");
    assert_eq!(
        (
            welcome.attendee_id.as_str(),
            welcome.attendee_name.as_deref(),
            welcome.role
        ),
        (GUIDE, Some("Gina"), Role::Guide)
    );
    let hello = by_text("hello from Ada");
    assert_eq!(
        (
            hello.attendee_id.as_str(),
            hello.attendee_name.as_deref(),
            hello.role
        ),
        (ADA, Some("Ada"), Role::Client)
    );
    let ada_order: Vec<&str> = seen[0]
        .iter()
        .filter(|m| m.attendee_id == ADA)
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(
        ada_order,
        ["hello from Ada", "a question"],
        "one sender's messages keep their order"
    );

    // Bob drops out; what he missed comes back through the normal resume.
    let resume_from = (bob.last_seq, bob.epoch.clone());
    drop(bob);
    guide.say("missed 1").await;
    guide.say("missed 2").await;
    guide
        .act(Action::PinChatMessage {
            message_id: Some(hello.message_id.clone()),
        })
        .await;
    ada.next_messages(2).await;
    ada.next_chat().await;
    let mut bob = Client::connect(&addr, &token(BOB, Role::Client, "Bob"), Codec::MsgPack).await;
    bob.last_seq = resume_from.0;
    let (snapshot, resume) = bob.hello(Some(resume_from.clone())).await;
    assert_eq!((snapshot, resume), (None, Resume::Replayed));
    bob.last_seq = resume_from.0;
    let missed: Vec<String> = bob
        .next_messages(2)
        .await
        .into_iter()
        .map(|m| m.text)
        .collect();
    assert_eq!(missed, ["missed 1", "missed 2"]);
    assert_eq!(
        bob.next_chat().await.1,
        Event::ChatMessagePinned {
            message_id: Some(hello.message_id.clone())
        }
    );

    // 120 more (a guide is held to no chat rate): a late joiner gets the last 100, in
    // order, and the pin.
    for i in 0..120 {
        guide.say(&format!("message {i}")).await;
    }
    let (texts, events) = ada.next_batches(120).await;
    assert_eq!(texts.last().map(|m| m.text.as_str()), Some("message 119"));
    assert!(
        (2..120).contains(&events),
        "120 messages sent at once come in a few batches of at most {MAX_CHAT_BATCH}: {events}"
    );
    let (_carol, snapshot) =
        Client::join(&addr, CAROL, Role::Client, "Carol", Codec::MsgPack).await;
    let chat = snapshot.state_for_all.chat;
    assert_eq!(chat.messages.len(), CHAT_HISTORY);
    let texts: Vec<String> = chat.messages.iter().map(|m| m.text.clone()).collect();
    let expected: Vec<String> = (20..120).map(|i| format!("message {i}")).collect();
    assert_eq!(texts, expected);
    assert_eq!(
        chat.pinned.map(|m| m.text),
        Some("hello from Ada".into()),
        "the pin outlives the message's place in the history"
    );
}

/// Two seconds of chat in rounds a little longer than a batch: each round a guide's burst
/// and one message from each attendee.
async fn chat_rounds(
    guide: &mut Client,
    ada: &mut Client,
    bob: &mut Client,
    rounds: usize,
) -> Vec<String> {
    let mut sent = Vec::new();
    for round in 0..rounds {
        for i in 0..8 {
            let text = format!("round {round} guide {i}");
            guide.say(&text).await;
            sent.push(text);
            if i == 3 {
                ada.say(&format!("round {round} ada")).await;
                bob.say(&format!("round {round} bob")).await;
            }
        }
        tokio::time::sleep(Duration::from_millis(CHAT_BATCH_MS + 100)).await;
    }
    sent
}

#[tokio::test]
async fn batches_keep_one_order_in_both_codecs_a_resume_between_them_gets_the_rest_once_and_ids_still_work(
) {
    let addr = start().await;
    let (mut guide, _) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::Json).await;
    let (mut ada, _) = Client::join(&addr, ADA, Role::Client, "Ada", Codec::Json).await;
    let (mut bob, _) = Client::join(&addr, BOB, Role::Client, "Bob", Codec::MsgPack).await;
    let (mut carol, _) = Client::join(&addr, CAROL, Role::Client, "Carol", Codec::MsgPack).await;

    let rounds = 4;
    let sent = chat_rounds(&mut guide, &mut ada, &mut bob, rounds).await;
    let total = sent.len() + 2 * rounds;
    // Carol reads the first two events (the first message alone after the quiet start,
    // then a batch), then drops out between batches.
    let mut carol_got = Vec::new();
    for _ in 0..2 {
        match carol.next_chat().await.1 {
            Event::ChatMessagesPosted { messages } => carol_got.extend(messages),
            other => panic!("{other:?}"),
        }
    }
    let resume_from = (carol.last_seq, carol.epoch.clone());
    drop(carol);

    let (guide_got, guide_events) = guide.next_batches(total).await;
    let ada_got = ada.next_messages(total).await;
    let bob_got = bob.next_messages(total).await;
    assert_eq!(ada_got, guide_got, "one order for everyone (JSON)");
    assert_eq!(bob_got, guide_got, "one order for everyone (MessagePack)");
    let guide_texts: Vec<&str> = guide_got
        .iter()
        .filter(|m| m.attendee_id == GUIDE)
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(guide_texts, sent, "the guide's messages in the order sent");
    assert!(
        guide_events >= rounds && guide_events <= 3 * rounds,
        "{total} messages in {rounds} rounds of about one batch each came in {guide_events} events"
    );

    // Carol resumes: the replay holds the batches she missed, each message once.
    let mut carol =
        Client::connect(&addr, &token(CAROL, Role::Client, "Carol"), Codec::MsgPack).await;
    let (snapshot, resume) = carol.hello(Some(resume_from.clone())).await;
    assert_eq!((snapshot, resume), (None, Resume::Replayed));
    carol.last_seq = resume_from.0;
    let rest = carol.next_messages(total - carol_got.len()).await;
    carol_got.extend(rest);
    assert_eq!(carol_got, guide_got, "every message once, in the one order");

    // Ids still work on a message that came inside a batch: a deletion reaches everyone,
    // a pin of another, and a late joiner sees neither the deleted one nor a gap.
    let inside = guide_got
        .iter()
        .find(|m| m.text == "round 2 guide 5")
        .cloned()
        .unwrap();
    let pinned = guide_got
        .iter()
        .find(|m| m.text == "round 3 ada")
        .cloned()
        .unwrap();
    guide
        .done(Action::DeleteChatMessage {
            message_id: inside.message_id.clone(),
        })
        .await;
    guide
        .done(Action::PinChatMessage {
            message_id: Some(pinned.message_id.clone()),
        })
        .await;
    for client in [&mut ada, &mut bob, &mut carol] {
        assert_eq!(
            client.next_chat().await.1,
            Event::ChatMessageDeleted {
                message_id: inside.message_id.clone()
            }
        );
        assert_eq!(
            client.next_chat().await.1,
            Event::ChatMessagePinned {
                message_id: Some(pinned.message_id.clone())
            }
        );
    }
    let (_, snapshot) = Client::join(
        &addr,
        "dddddddddddddddddddddddddddddddd",
        Role::Client,
        "Dora",
        Codec::Json,
    )
    .await;
    let expected: Vec<ChatMessage> = guide_got
        .iter()
        .filter(|m| m.message_id != inside.message_id)
        .cloned()
        .collect();
    assert_eq!(snapshot.state_for_all.chat.messages, expected);
    assert_eq!(snapshot.state_for_all.chat.pinned, Some(pinned));
}

#[tokio::test]
async fn a_message_after_a_quiet_spell_goes_out_at_once_and_a_burst_is_still_refused_within_one_batch(
) {
    let addr = start().await;
    let (mut guide, _) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::MsgPack).await;
    let (mut ada, _) = Client::join(&addr, ADA, Role::Client, "Ada", Codec::Json).await;
    // Quiet: a message is acknowledged with its own seq and arrives alone.
    let r = ada.say("first").await;
    let seq = loop {
        match ada.recv().await {
            ServerFrame::Ack { r#ref, seq } if r#ref == r => break seq,
            _ => {}
        }
    };
    assert!(seq.is_some(), "posted at once");
    assert_eq!(guide.next_batches(1).await.1, 1);
    // Six more at once: four are taken for the next batch (acknowledged without a seq),
    // the fifth and sixth are over the rate (5 in 10 s) although the four are not ordered
    // yet: a message counts for its sender's rate when it is taken.
    let mut answers = Vec::new();
    for i in 0..6 {
        let r = ada.say(&format!("quick {i}")).await;
        answers.push(ada.answer(r).await);
    }
    assert_eq!(
        answers,
        [
            None,
            None,
            None,
            None,
            Some(ErrorCode::ChatRateLimited),
            Some(ErrorCode::ChatRateLimited)
        ]
    );
    let (messages, events) = guide.next_batches(4).await;
    assert_eq!(
        messages.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(),
        ["quick 0", "quick 1", "quick 2", "quick 3"]
    );
    assert!(
        events <= 2,
        "one batch (two when a tick fell among them): {events}"
    );
    assert!(guide
        .recv_within(Duration::from_millis(2 * CHAT_BATCH_MS))
        .await
        .is_none_or(|f| !matches!(f, ServerFrame::Event { .. })));
}

#[tokio::test]
async fn every_refusal_has_its_code_and_changes_nothing() {
    let addr = start().await;
    let (mut guide, _) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::Json).await;
    let (mut ada, _) = Client::join(&addr, ADA, Role::Client, "Ada", Codec::MsgPack).await;
    let (mut bob, _) = Client::join(&addr, BOB, Role::Client, "Bob", Codec::Json).await;

    // Length and emptiness, for everyone (10 kB is well under the frame limit).
    let r = ada.say(&"<".repeat(10 * 1024)).await;
    assert_eq!(ada.answer(r).await, Some(ErrorCode::ChatTooLong));
    let r = ada.say(&"x".repeat(501)).await;
    assert_eq!(ada.answer(r).await, Some(ErrorCode::ChatTooLong));
    let r = guide.say(" \n\u{202e} ").await;
    assert_eq!(guide.answer(r).await, Some(ErrorCode::ChatEmpty));

    // Moderation is the guide's: an attendee's attempt is forbidden.
    for action in [
        Action::DeleteChatMessage {
            message_id: GUIDE.into(),
        },
        Action::PinChatMessage { message_id: None },
        Action::SetChatSettings {
            settings: ChatSettings {
                closed: true,
                ..Default::default()
            },
        },
        Action::SetChatBlockedWords {
            words: vec!["hello".into()],
        },
        Action::ModerateChatAttendee {
            attendee_id: BOB.into(),
            timeout_minutes: None,
            banned: true,
        },
    ] {
        let r = ada.act(action).await;
        assert_eq!(ada.answer(r).await, Some(ErrorCode::Forbidden));
    }

    // A time-out: Ada is told, refused, Bob is not.
    let r = guide
        .act(Action::ModerateChatAttendee {
            attendee_id: ADA.into(),
            timeout_minutes: Some(5),
            banned: false,
        })
        .await;
    assert_eq!(guide.answer(r).await, None);
    let (
        _,
        Event::ChatAttendeeModerated {
            attendee_id,
            muted_until: Some(until),
            banned: false,
        },
    ) = ada.next_chat().await
    else {
        panic!("Ada is told of her time-out")
    };
    assert_eq!(attendee_id, ADA);
    let r = ada.say("let me speak").await;
    assert_eq!(ada.answer(r).await, Some(ErrorCode::ChatMuted));
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    assert!(until > now + 4 * 60_000 && until <= now + 5 * 60_000);

    // A ban replaces the time-out.
    guide
        .done(Action::ModerateChatAttendee {
            attendee_id: ADA.into(),
            timeout_minutes: None,
            banned: true,
        })
        .await;
    ada.next_chat().await;
    let r = ada.say("still me").await;
    assert_eq!(ada.answer(r).await, Some(ErrorCode::ChatBanned));

    // Blocked words: refused for attendees.
    guide
        .done(Action::SetChatBlockedWords {
            words: vec!["Rabatt".into()],
        })
        .await;
    let r = bob.say("gibt es RABATT?").await;
    assert_eq!(bob.answer(r).await, Some(ErrorCode::ChatBlockedWord));

    // Slow mode: one message per 60 s.
    guide
        .done(Action::SetChatSettings {
            settings: ChatSettings {
                slow_mode_seconds: 60,
                ..Default::default()
            },
        })
        .await;
    let r = bob.say("first").await;
    assert_eq!(bob.answer(r).await, None);
    let r = bob.say("second").await;
    assert_eq!(bob.answer(r).await, Some(ErrorCode::ChatSlowMode));

    // Closed.
    guide
        .done(Action::SetChatSettings {
            settings: ChatSettings {
                closed: true,
                ..Default::default()
            },
        })
        .await;
    let r = bob.say("anyone?").await;
    assert_eq!(bob.answer(r).await, Some(ErrorCode::ChatClosed));
    let r = guide.say("the chat is closed").await;
    assert_eq!(guide.answer(r).await, None, "a guide may still speak");

    // Open again, no slow mode: the chat rate (5 in 10 s).
    guide
        .done(Action::SetChatSettings {
            settings: ChatSettings::default(),
        })
        .await;
    guide
        .done(Action::ModerateChatAttendee {
            attendee_id: ADA.into(),
            timeout_minutes: None,
            banned: false,
        })
        .await;
    let mut answers = Vec::new();
    for i in 0..6 {
        let r = ada.say(&format!("quick {i}")).await;
        answers.push(ada.answer(r).await);
    }
    assert_eq!(
        answers,
        [
            None,
            None,
            None,
            None,
            None,
            Some(ErrorCode::ChatRateLimited)
        ]
    );

    // The chat holds only what was allowed, in order: refusals published nothing. (The
    // last batch is posted within a tick.)
    tokio::time::sleep(Duration::from_millis(2 * CHAT_BATCH_MS)).await;
    let (_, snapshot) = Client::join(&addr, CAROL, Role::Client, "Carol", Codec::Json).await;
    let posted: Vec<String> = snapshot
        .state_for_all
        .chat
        .messages
        .into_iter()
        .map(|m| m.text)
        .collect();
    assert_eq!(
        posted,
        [
            "first",
            "the chat is closed",
            "quick 0",
            "quick 1",
            "quick 2",
            "quick 3",
            "quick 4"
        ]
    );
    // A client's snapshot has no moderation in it; a guide's does.
    assert!(snapshot.state_for_guides.is_none());
    assert!(!snapshot.state_for_clients.chat_banned);
    let (_, guide_view) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::Json).await;
    assert_eq!(
        guide_view
            .state_for_guides
            .unwrap()
            .chat_moderation
            .blocked_words,
        ["Rabatt"]
    );
}

#[tokio::test]
async fn a_deletion_reaches_everyone_and_names_and_text_travel_as_text() {
    let addr = start().await;
    let evil = "<img src=x onerror=alert(1)>\u{202e}evil";
    let (mut guide, _) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::Json).await;
    let (mut ada, _) = Client::join(&addr, ADA, Role::Client, evil, Codec::Json).await;
    let (mut bob, _) = Client::join(&addr, BOB, Role::Client, "Bob", Codec::MsgPack).await;
    ada.say("<script>alert('x')</script>").await;
    let message = guide.next_message().await;
    assert_eq!(
        message.attendee_name.as_deref(),
        Some(evil),
        "the name is data, shown as text by clients"
    );
    assert_eq!(message.text, "<script>alert('x')</script>");
    assert_eq!(bob.next_message().await, message);
    ada.next_message().await;

    let r = guide
        .act(Action::DeleteChatMessage {
            message_id: message.message_id.clone(),
        })
        .await;
    assert_eq!(guide.answer(r).await, None);
    for client in [&mut ada, &mut bob] {
        assert_eq!(
            client.next_chat().await.1,
            Event::ChatMessageDeleted {
                message_id: message.message_id.clone()
            }
        );
    }
    let (_, snapshot) = Client::join(&addr, CAROL, Role::Client, "Carol", Codec::Json).await;
    assert!(
        snapshot.state_for_all.chat.messages.is_empty(),
        "a late joiner never sees it"
    );
}

/// Sums the `reactions` frames a client gets within `wait`, with their arrival times.
async fn reaction_frames(client: &mut Client, wait: Duration) -> Vec<(Instant, ReactionCounts)> {
    let deadline = Instant::now() + wait;
    let mut frames = Vec::new();
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match client.recv_within(left).await {
            Some(ServerFrame::Volatile {
                event: VolatileEvent::Reactions { counts },
            }) => frames.push((Instant::now(), counts)),
            Some(_) => {}
            None => break,
        }
    }
    frames
}

#[tokio::test]
async fn many_taps_become_at_most_one_sum_per_tick_with_the_right_counts() {
    let addr = start().await;
    let (mut guide, _) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::Json).await;
    let mut tappers = Vec::new();
    for (i, id) in [ADA, BOB, CAROL].iter().enumerate() {
        let codec = if i % 2 == 0 {
            Codec::Json
        } else {
            Codec::MsgPack
        };
        tappers.push(
            Client::join(&addr, id, Role::Client, "Tapper", codec)
                .await
                .0,
        );
    }
    let started = Instant::now();
    // 3 × 30 taps, within the per-client rate (40 at once).
    for tapper in &mut tappers {
        for i in 0..30 {
            let reaction = if i % 3 == 0 {
                Reaction::Fire
            } else {
                Reaction::Heart
            };
            tapper
                .send(&ClientFrame::Action {
                    r#ref: None,
                    action: Action::SendReaction { reaction },
                })
                .await;
        }
    }
    let frames = reaction_frames(&mut guide, Duration::from_millis(1500)).await;
    let elapsed = started.elapsed();
    let mut total = ReactionCounts::default();
    for (_, counts) in &frames {
        total.add(*counts);
    }
    assert_eq!(
        total,
        ReactionCounts {
            heart: 60,
            fire: 30,
            ..Default::default()
        },
        "every tap counted once"
    );
    let ticks = elapsed.as_millis() as u64 / REACTION_TICK_MS + 1;
    assert!(
        !frames.is_empty() && frames.len() as u64 <= ticks,
        "{} frames in {elapsed:?}",
        frames.len()
    );
    assert!(
        frames.len() < 10,
        "90 taps cost a handful of frames, not 90: {}",
        frames.len()
    );
    for pair in frames.windows(2) {
        // The ticker's period, less the jitter of delivery.
        assert!(
            pair[1].0 - pair[0].0 >= Duration::from_millis(REACTION_TICK_MS - 100),
            "{:?}",
            pair[1].0 - pair[0].0
        );
    }
    // A tapper gets the same sums; nothing was stored (no event in the log).
    let frames = reaction_frames(&mut tappers[0], Duration::from_millis(300)).await;
    let mut seen = ReactionCounts::default();
    frames.iter().for_each(|(_, c)| seen.add(*c));
    assert!(seen.heart <= 60);
    let (_, snapshot) = Client::join(
        &addr,
        "dddddddddddddddddddddddddddddddd",
        Role::Client,
        "Dora",
        Codec::Json,
    )
    .await;
    assert!(snapshot.state_for_all.chat.messages.is_empty());
}
