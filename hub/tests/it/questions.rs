//! Questions (issue #19 item 4) over real sockets: a real hub on port 0 with its SQLite
//! file, tokio-tungstenite clients in JSON and MessagePack. Order, resume, the late
//! joiner's questions, own up-votes and the one being answered, every refusal, a
//! dismissal reaching everyone, up-vote counts coalesced with none lost. (Up-votes through
//! two replicas with a real redis-server: `cluster.rs`.)

use std::time::{Duration, Instant};

use crate::{publish_to_everyone as publish, start, Client};
use hub::testing::{token, ADA, BOB, CAROL, GUIDE};
use protocol::action::Action;
use protocol::codec::Codec;
use protocol::engagement::questions::{
    clean_question_text, Question, QuestionStatus, MAX_QUESTION_CHARS, QUESTION_VOTES_TICK_MS,
};
use protocol::frame::{ClientFrame, ErrorCode, Event, Resume, ServerFrame, VolatileEvent};
use protocol::Role;

impl Client {
    async fn next_question_event(&mut self) -> Event {
        let (_, event) = self
            .next_event(|event| {
                matches!(
                    event,
                    Event::QuestionAsked { .. }
                        | Event::QuestionVoted { .. }
                        | Event::QuestionMarked { .. }
                        | Event::QuestionDismissed { .. }
                )
            })
            .await;
        event
    }

    /// Asks; the question as everyone is sent it (found by its text: others' may come first).
    async fn ask(&mut self, text: &str) -> Question {
        self.done(Action::AskQuestion { text: text.into() }).await;
        let stored = clean_question_text(text).unwrap();
        if let Some(Event::QuestionAsked { question }) = self
            .seen
            .iter()
            .find(|e| matches!(e, Event::QuestionAsked { question } if question.text == stored))
        {
            return question.clone();
        }
        loop {
            if let Event::QuestionAsked { question } = self.next_question_event().await {
                if question.text == stored {
                    return question;
                }
            }
        }
    }

    async fn up_vote(&mut self, question: &Question, voted: bool) -> Option<ErrorCode> {
        self.try_act(Action::VoteQuestion {
            question_id: question.question_id.clone(),
            voted,
        })
        .await
    }

    /// The `questionVotes` frames a client gets within `wait` (when each came, the
    /// counts), and the events between them.
    async fn votes_within(
        &mut self,
        wait: Duration,
    ) -> (
        Vec<(Instant, std::collections::BTreeMap<String, u32>)>,
        Vec<Event>,
    ) {
        let deadline = Instant::now() + wait;
        let (mut frames, mut events) = (Vec::new(), Vec::new());
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.recv_within(left).await {
                Some(ServerFrame::Volatile {
                    event: VolatileEvent::QuestionVotes { votes },
                }) => frames.push((Instant::now(), votes)),
                Some(ServerFrame::Event { event, .. }) => events.push(event),
                Some(_) => {}
                None => break,
            }
        }
        (frames, events)
    }
}

fn mark(question: &Question, status: QuestionStatus) -> Action {
    Action::MarkQuestion {
        question_id: question.question_id.clone(),
        status,
    }
}

const HOSTILE: &str = "<img src=x onerror=alert(1)><script>alert(2)</script> \u{202E}?kool";

#[tokio::test]
async fn questions_are_ordered_for_everyone_resumed_exactly_and_a_late_joiner_gets_them_with_its_up_votes(
) {
    let addr = start().await;
    let (mut guide, _) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::Json).await;
    let (mut ada, _) = Client::join(&addr, ADA, Role::Client, "Ada", Codec::MsgPack).await;
    let (mut bob, _) = Client::join(&addr, BOB, Role::Client, "Bob <b>", Codec::Json).await;

    let adas = ada.ask(HOSTILE).await;
    let bobs = bob.ask("When does it ship?").await;
    assert_eq!(
        adas.text, "<img src=x onerror=alert(1)><script>alert(2)</script> ?kool",
        "kept as text, the RTL override gone"
    );
    assert_eq!(
        (
            adas.attendee_id.as_str(),
            adas.attendee_name.as_deref(),
            adas.votes,
            adas.status
        ),
        (ADA, Some("Ada"), 0, QuestionStatus::Open)
    );
    assert_eq!(bobs.attendee_name.as_deref(), Some("Bob <b>"));
    // One order for everyone, in both codecs.
    for client in [&mut guide, &mut ada, &mut bob] {
        let asked = |client: &Client| -> Vec<Question> {
            client
                .seen
                .iter()
                .filter_map(|e| {
                    if let Event::QuestionAsked { question } = e {
                        Some(question.clone())
                    } else {
                        None
                    }
                })
                .collect()
        };
        while asked(client).len() < 2 {
            client.next_question_event().await;
        }
        assert_eq!(asked(client), [adas.clone(), bobs.clone()]);
    }

    // Bob up-votes Ada's question: he and the guide are sent the vote, everyone the count.
    assert_eq!(bob.up_vote(&adas, true).await, None);
    assert_eq!(
        bob.up_vote(&adas, true).await,
        None,
        "the same up-vote again is acknowledged and counts once"
    );
    let voted = Event::QuestionVoted {
        question_id: adas.question_id.clone(),
        attendee_id: BOB.into(),
        voted: true,
    };
    assert_eq!(guide.next_question_event().await, voted);
    assert_eq!(guide.next_question_event().await, voted);
    let (frames, _) = ada.votes_within(Duration::from_millis(600)).await;
    assert_eq!(
        frames.last().expect("counts reach Ada").1[&adas.question_id],
        1
    );
    assert!(
        !ada.seen
            .iter()
            .any(|e| matches!(e, Event::QuestionVoted { .. })),
        "Ada is not sent Bob's vote itself"
    );

    // The guide marks Ada's being answered: everyone is sent it.
    guide.done(mark(&adas, QuestionStatus::Answering)).await;
    let answering = Event::QuestionMarked {
        question_id: adas.question_id.clone(),
        status: QuestionStatus::Answering,
    };
    for client in [&mut ada, &mut bob] {
        let (_, event) = client
            .next_event(|e| {
                matches!(
                    e,
                    Event::QuestionMarked { .. } | Event::QuestionDismissed { .. }
                )
            })
            .await;
        assert_eq!(event, answering);
    }

    // Bob drops out; the guide moves on to Bob's question (Ada's goes back to the queue),
    // answers it, and Carol up-votes. Bob's resume has it all, in order.
    let resume_from = (bob.last_seq, bob.epoch.clone());
    drop(bob);
    guide.done(mark(&bobs, QuestionStatus::Answering)).await;
    guide.done(mark(&bobs, QuestionStatus::Answered)).await;
    let (mut carol, snapshot) =
        Client::join(&addr, CAROL, Role::Client, "Carol", Codec::MsgPack).await;
    let answering_now: Vec<&Question> = snapshot
        .state_for_all
        .questions
        .iter()
        .filter(|q| q.status == QuestionStatus::Answering)
        .collect();
    assert!(answering_now.is_empty(), "none is being answered now");
    assert_eq!(carol.up_vote(&adas, true).await, None);
    let mut bob = Client::connect(&addr, &token(BOB, Role::Client, "Bob <b>"), Codec::Json).await;
    let (snapshot, resume) = bob.hello(Some(resume_from.clone())).await;
    assert_eq!((snapshot, resume), (None, Resume::Replayed));
    bob.last_seq = resume_from.0;
    assert_eq!(
        bob.next_question_event().await,
        Event::QuestionMarked {
            question_id: bobs.question_id.clone(),
            status: QuestionStatus::Answering
        }
    );
    assert_eq!(
        bob.next_question_event().await,
        Event::QuestionMarked {
            question_id: bobs.question_id.clone(),
            status: QuestionStatus::Answered
        }
    );

    // A late joiner gets the questions with their counts and statuses, and the one being
    // answered; Bob, joining afresh, his own up-vote; Ada none.
    guide.done(mark(&adas, QuestionStatus::Answering)).await;
    let (_dan, snapshot) =
        Client::join(&addr, &"d".repeat(32), Role::Client, "Dan", Codec::Json).await;
    let questions = &snapshot.state_for_all.questions;
    let summary: Vec<(&str, u32, QuestionStatus)> = questions
        .iter()
        .map(|q| (q.question_id.as_str(), q.votes, q.status))
        .collect();
    assert_eq!(
        summary,
        [
            (adas.question_id.as_str(), 2, QuestionStatus::Answering),
            (bobs.question_id.as_str(), 0, QuestionStatus::Answered)
        ]
    );
    assert_eq!(questions[0].text, adas.text);
    assert!(snapshot.state_for_clients.question_votes.is_empty());
    let (_bob_again, snapshot) =
        Client::join(&addr, BOB, Role::Client, "Bob <b>", Codec::MsgPack).await;
    assert_eq!(
        snapshot.state_for_clients.question_votes,
        vec![adas.question_id.clone()]
    );
    let (_ada_again, snapshot) = Client::join(&addr, ADA, Role::Client, "Ada", Codec::Json).await;
    assert!(snapshot.state_for_clients.question_votes.is_empty());
}

#[tokio::test]
async fn every_refusal_has_its_code_and_changes_nothing() {
    let addr = start().await;
    let (mut guide, _) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::Json).await;
    let (mut ada, _) = Client::join(&addr, ADA, Role::Client, "Ada", Codec::MsgPack).await;
    let (mut bob, _) = Client::join(&addr, BOB, Role::Client, "Bob", Codec::Json).await;
    let ask = |text: String| Action::AskQuestion { text };

    // The text: empty, nothing but controls, too long, 10 kB.
    assert_eq!(
        ada.try_act(ask("   ".into())).await,
        Some(ErrorCode::QuestionEmpty)
    );
    assert_eq!(
        ada.try_act(ask("\u{202E}\u{2066}\n\u{0007}".into())).await,
        Some(ErrorCode::QuestionEmpty)
    );
    assert_eq!(
        ada.try_act(ask("x".repeat(MAX_QUESTION_CHARS + 1))).await,
        Some(ErrorCode::QuestionTooLong)
    );
    assert_eq!(
        ada.try_act(ask("<script>".repeat(1_280))).await,
        Some(ErrorCode::QuestionTooLong)
    );
    // The longest allowed, then the rate: one question per 30 seconds.
    let adas = ada.ask(&"ü".repeat(MAX_QUESTION_CHARS)).await;
    assert_eq!(
        ada.try_act(ask("another one".into())).await,
        Some(ErrorCode::QuestionRateLimited)
    );
    // Up-votes: not one's own, not an unknown question, not a bad id.
    assert_eq!(
        ada.up_vote(&adas, true).await,
        Some(ErrorCode::QuestionOwnVote)
    );
    let unknown = "e".repeat(32);
    assert_eq!(
        bob.try_act(Action::VoteQuestion {
            question_id: unknown.clone(),
            voted: true
        })
        .await,
        Some(ErrorCode::QuestionNotFound)
    );
    assert_eq!(
        bob.try_act(Action::VoteQuestion {
            question_id: "<b>".into(),
            voted: true
        })
        .await,
        Some(ErrorCode::InvalidPayload)
    );
    // Moderating is the guide's.
    for action in [
        mark(&adas, QuestionStatus::Answering),
        Action::DismissQuestion {
            question_id: adas.question_id.clone(),
        },
    ] {
        assert_eq!(bob.try_act(action).await, Some(ErrorCode::Forbidden));
    }
    for action in [
        Action::MarkQuestion {
            question_id: unknown.clone(),
            status: QuestionStatus::Answered,
        },
        Action::DismissQuestion {
            question_id: unknown.clone(),
        },
    ] {
        assert_eq!(
            guide.try_act(action).await,
            Some(ErrorCode::QuestionNotFound)
        );
    }
    // A chat ban holds back from asking.
    guide
        .done(Action::ModerateChatAttendee {
            attendee_id: BOB.into(),
            timeout_minutes: None,
            banned: true,
        })
        .await;
    assert_eq!(
        bob.try_act(ask("may I?".into())).await,
        Some(ErrorCode::QuestionBanned)
    );
    // After the end, nobody asks or up-votes, and the guide no longer moderates.
    publish(
        &addr,
        serde_json::json!({"kind": "presentationEnded", "endedAt": "2026-11-27T03:00:00Z"}),
    )
    .await;
    let (mut carol, _) = Client::join(&addr, CAROL, Role::Client, "Carol", Codec::Json).await;
    assert_eq!(
        carol.try_act(ask("too late?".into())).await,
        Some(ErrorCode::PresentationEnded)
    );
    assert_eq!(
        carol.up_vote(&adas, true).await,
        Some(ErrorCode::PresentationEnded)
    );
    assert_eq!(
        guide.try_act(mark(&adas, QuestionStatus::Answered)).await,
        Some(ErrorCode::PresentationEnded)
    );

    // Nothing refused was kept: one question, no votes, still open.
    let (_, snapshot) =
        Client::join(&addr, &"d".repeat(32), Role::Client, "Dan", Codec::MsgPack).await;
    let questions = snapshot.state_for_all.questions;
    assert_eq!(questions.len(), 1);
    assert_eq!(
        (
            questions[0].text.chars().count(),
            questions[0].votes,
            questions[0].status
        ),
        (MAX_QUESTION_CHARS, 0, QuestionStatus::Open)
    );
}

#[tokio::test]
async fn a_dismissal_reaches_everyone_and_its_question_is_gone_for_late_joiners() {
    let addr = start().await;
    let (mut guide, _) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::Json).await;
    let (mut ada, _) = Client::join(&addr, ADA, Role::Client, "Ada", Codec::MsgPack).await;
    let (mut bob, _) = Client::join(&addr, BOB, Role::Client, "Bob", Codec::Json).await;
    let adas = ada.ask("Spam?").await;
    bob.next_question_event().await;
    assert_eq!(bob.up_vote(&adas, true).await, None);
    guide.done(mark(&adas, QuestionStatus::Answering)).await;
    guide
        .done(Action::DismissQuestion {
            question_id: adas.question_id.clone(),
        })
        .await;
    let dismissed = Event::QuestionDismissed {
        question_id: adas.question_id.clone(),
    };
    for client in [&mut ada, &mut bob] {
        loop {
            if client.next_question_event().await == dismissed {
                break;
            }
        }
    }
    assert_eq!(
        bob.up_vote(&adas, false).await,
        Some(ErrorCode::QuestionNotFound),
        "gone"
    );
    let (_, snapshot) = Client::join(&addr, BOB, Role::Client, "Bob", Codec::Json).await;
    assert!(snapshot.state_for_all.questions.is_empty());
    assert!(
        snapshot.state_for_clients.question_votes.is_empty(),
        "its up-votes went with it"
    );
}

#[tokio::test]
async fn many_up_votes_become_a_few_count_frames_and_none_is_lost() {
    let addr = start().await;
    let (mut asker, _) = Client::join(&addr, ADA, Role::Client, "Ada", Codec::Json).await;
    let question = asker.ask("Is there a discount?").await;
    let mut voters = Vec::new();
    for i in 0..24u32 {
        let id = format!("{:032x}", 0xbee000 + i);
        let codec = if i % 2 == 0 {
            Codec::Json
        } else {
            Codec::MsgPack
        };
        voters.push(
            Client::join(&addr, &id, Role::Client, "Voter", codec)
                .await
                .0,
        );
    }
    let (mut watcher, _) = Client::join(&addr, CAROL, Role::Client, "Carol", Codec::MsgPack).await;
    let started = Instant::now();
    // 24 up-votes, then 6 withdrawn and 3 of those given again: 21.
    for voter in voters.iter_mut() {
        voter
            .send(&ClientFrame::Action {
                r#ref: None,
                action: Action::VoteQuestion {
                    question_id: question.question_id.clone(),
                    voted: true,
                },
            })
            .await;
    }
    for voter in voters.iter_mut().take(6) {
        voter
            .send(&ClientFrame::Action {
                r#ref: None,
                action: Action::VoteQuestion {
                    question_id: question.question_id.clone(),
                    voted: false,
                },
            })
            .await;
    }
    for voter in voters.iter_mut().take(3) {
        voter
            .send(&ClientFrame::Action {
                r#ref: None,
                action: Action::VoteQuestion {
                    question_id: question.question_id.clone(),
                    voted: true,
                },
            })
            .await;
    }
    let (frames, _) = watcher.votes_within(Duration::from_millis(1500)).await;
    let elapsed = started.elapsed();
    assert_eq!(
        frames.last().expect("counts reach a watcher").1[&question.question_id],
        21,
        "every up-vote counted, withdrawals too"
    );
    let ticks = elapsed.as_millis() as u64 / QUESTION_VOTES_TICK_MS + 1;
    assert!(
        frames.len() as u64 <= ticks && frames.len() < 10,
        "{} frames for 33 votes in {elapsed:?}",
        frames.len()
    );
    for pair in frames.windows(2) {
        assert!(
            pair[1].0 - pair[0].0 >= Duration::from_millis(QUESTION_VOTES_TICK_MS - 100),
            "{:?}",
            pair[1].0 - pair[0].0
        );
    }
    let (_, snapshot) = Client::join(&addr, BOB, Role::Client, "Bob", Codec::Json).await;
    assert_eq!(snapshot.state_for_all.questions[0].votes, 21);
    let (_, snapshot) = Client::join(
        &addr,
        &format!("{:032x}", 0xbee000 + 4),
        Role::Client,
        "Voter",
        Codec::Json,
    )
    .await;
    assert!(
        snapshot.state_for_clients.question_votes.is_empty(),
        "a withdrawn up-vote is not one's own any more"
    );
}
