//! Polls (issue #19 item 3) over real sockets: a real hub on port 0 with its SQLite file,
//! tokio-tungstenite clients in JSON and MessagePack. Order, resume, the late joiner's
//! counts and own vote, every refusal, a poll opening with its slide, counts coalesced.

use std::time::{Duration, Instant};

use crate::{start, Client};
use hub::testing::{token, ADA, APPOINTMENT, BOB, CAROL, GUIDE};
use protocol::action::Action;
use protocol::codec::Codec;
use protocol::engagement::polls::{NewPoll, Poll, PollSlide, PollStatus, POLL_COUNTS_TICK_MS};
use protocol::frame::{ClientFrame, ErrorCode, Event, Resume, ServerFrame, VolatileEvent};
use protocol::Role;

impl Client {
    /// The next poll event, skipping presence, acks and volatile frames; checks `prev`
    /// chains without a gap.
    async fn next_poll_event(&mut self) -> Event {
        let (_, event) = self
            .next_event(|event| {
                matches!(
                    event,
                    Event::PollCreated { .. }
                        | Event::PollOpened { .. }
                        | Event::PollClosed { .. }
                        | Event::PollResultsShown { .. }
                        | Event::PollVoted { .. }
                        | Event::SlideSwitched { .. }
                )
            })
            .await;
        event
    }

    async fn vote(&mut self, poll: &Poll, answers: &[usize]) -> Option<ErrorCode> {
        let answer_ids = answers
            .iter()
            .map(|i| poll.answers[*i].answer_id.clone())
            .collect();
        let r = self
            .act(Action::VotePoll {
                poll_id: poll.poll_id.clone(),
                answer_ids,
            })
            .await;
        self.answer(r).await
    }

    /// The last `pollCounts` a client gets within `wait`, and how many came.
    async fn counts_within(
        &mut self,
        wait: Duration,
    ) -> (Vec<(Instant, Vec<u32>, u32)>, Vec<Event>) {
        let deadline = Instant::now() + wait;
        let mut frames = Vec::new();
        let mut events = Vec::new();
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.recv_within(left).await {
                Some(ServerFrame::Volatile {
                    event: VolatileEvent::PollCounts { counts, voters, .. },
                }) => frames.push((Instant::now(), counts, voters)),
                Some(ServerFrame::Event { event, .. }) => events.push(event),
                Some(_) => {}
                None => break,
            }
        }
        (frames, events)
    }
}

fn colours(multiple: bool) -> NewPoll {
    NewPoll {
        question: "Which colour?".into(),
        answers: vec!["Red".into(), "Green".into(), "Blue".into()],
        multiple,
        slide: None,
    }
}

/// The guide creates a poll; returns it as everyone got it.
async fn create(guide: &mut Client, poll: NewPoll) -> Poll {
    guide.done(Action::CreatePoll { poll }).await;
    loop {
        if let Event::PollCreated { poll } = guide.next_poll_event().await {
            return poll;
        }
    }
}

#[tokio::test]
async fn a_poll_is_ordered_for_everyone_resumed_exactly_and_a_late_joiner_gets_counts_and_its_vote()
{
    let addr = start().await;
    let (mut guide, _) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::Json).await;
    let (mut ada, _) = Client::join(&addr, ADA, Role::Client, "Ada", Codec::MsgPack).await;
    let (mut bob, _) = Client::join(&addr, BOB, Role::Client, "Bob", Codec::Json).await;

    let poll = create(&mut guide, colours(false)).await;
    assert_eq!(
        (poll.status, poll.counts.clone(), poll.voters),
        (PollStatus::Draft, vec![0, 0, 0], 0)
    );
    guide
        .done(Action::OpenPoll {
            poll_id: poll.poll_id.clone(),
        })
        .await;
    for client in [&mut ada, &mut bob] {
        assert_eq!(
            client.next_poll_event().await,
            Event::PollCreated { poll: poll.clone() }
        );
        assert_eq!(
            client.next_poll_event().await,
            Event::PollOpened {
                poll_id: poll.poll_id.clone()
            }
        );
    }
    assert_eq!(ada.vote(&poll, &[0]).await, None);
    assert_eq!(bob.vote(&poll, &[1]).await, None);
    assert_eq!(
        ada.vote(&poll, &[2]).await,
        None,
        "a vote may change while the poll is open"
    );
    assert_eq!(
        ada.vote(&poll, &[2]).await,
        None,
        "the same vote again is acknowledged and ordered, changes no count"
    );
    // Ada is sent her own votes (and not Bob's); the guide everyone's, in one order.
    let own = |attendee: &str, now: usize, before: Option<usize>| Event::PollVoted {
        poll_id: poll.poll_id.clone(),
        attendee_id: attendee.into(),
        answer_ids: vec![poll.answers[now].answer_id.clone()],
        previous_answer_ids: before
            .map(|b| poll.answers[b].answer_id.clone())
            .into_iter()
            .collect(),
    };
    guide.next_poll_event().await;
    assert_eq!(guide.next_poll_event().await, own(ADA, 0, None));
    assert_eq!(guide.next_poll_event().await, own(BOB, 1, None));
    assert_eq!(guide.next_poll_event().await, own(ADA, 2, Some(0)));
    assert_eq!(guide.next_poll_event().await, own(ADA, 2, Some(2)));
    let votes_seen = |client: &Client| {
        client
            .seen
            .iter()
            .filter(|e| matches!(e, Event::PollVoted { .. }))
            .cloned()
            .collect::<Vec<_>>()
    };
    // Everyone is sent the counts.
    let (frames, _) = bob.counts_within(Duration::from_millis(600)).await;
    let (_, counts, voters) = frames.last().cloned().expect("counts reach Bob");
    assert_eq!((counts, voters), (vec![0, 1, 1], 2));
    assert_eq!(
        votes_seen(&bob),
        [own(BOB, 1, None)],
        "Bob is sent his own vote only"
    );
    ada.counts_within(Duration::from_millis(300)).await;
    assert_eq!(
        votes_seen(&ada),
        [
            own(ADA, 0, None),
            own(ADA, 2, Some(0)),
            own(ADA, 2, Some(2))
        ],
        "Ada is sent her own votes only"
    );

    // Bob drops out; the guide shows the results and closes: Bob's resume has both.
    let resume_from = (bob.last_seq, bob.epoch.clone());
    drop(bob);
    guide
        .done(Action::ShowPollResults {
            poll_id: poll.poll_id.clone(),
            shown: true,
        })
        .await;
    guide
        .done(Action::ClosePoll {
            poll_id: poll.poll_id.clone(),
        })
        .await;
    let mut bob = Client::connect(&addr, &token(BOB, Role::Client, "Bob"), Codec::Json).await;
    let (snapshot, resume) = bob.hello(Some(resume_from.clone())).await;
    assert_eq!((snapshot, resume), (None, Resume::Replayed));
    bob.last_seq = resume_from.0;
    assert_eq!(
        bob.next_poll_event().await,
        Event::PollResultsShown {
            poll_id: poll.poll_id.clone(),
            shown: true
        }
    );
    let closed = Event::PollClosed {
        poll_id: poll.poll_id.clone(),
        counts: vec![0, 1, 1],
        voters: 2,
    };
    assert_eq!(bob.next_poll_event().await, closed);
    assert_eq!(bob.vote(&poll, &[0]).await, Some(ErrorCode::PollClosed));

    // A late joiner gets the closed poll with its counts; Ada, joining afresh, her vote.
    let (_carol, snapshot) =
        Client::join(&addr, CAROL, Role::Client, "Carol", Codec::MsgPack).await;
    let seen = &snapshot.state_for_all.polls[0];
    assert_eq!(
        (
            seen.status,
            seen.results_shown,
            seen.counts.clone(),
            seen.voters
        ),
        (PollStatus::Closed, true, vec![0, 1, 1], 2)
    );
    assert!(
        snapshot.state_for_clients.poll_votes.is_empty(),
        "Carol did not vote"
    );
    let (_ada_again, snapshot) = Client::join(&addr, ADA, Role::Client, "Ada", Codec::Json).await;
    assert_eq!(
        snapshot.state_for_clients.poll_votes[&poll.poll_id],
        vec![poll.answers[2].answer_id.clone()]
    );
}

#[tokio::test]
async fn every_refusal_has_its_code_and_changes_nothing() {
    let addr = start().await;
    let (mut guide, _) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::Json).await;
    let (mut ada, _) = Client::join(&addr, ADA, Role::Client, "Ada", Codec::MsgPack).await;

    // Running a poll is the guide's.
    let r = ada
        .act(Action::CreatePoll {
            poll: colours(false),
        })
        .await;
    assert_eq!(ada.answer(r).await, Some(ErrorCode::Forbidden));
    // Every limit of a new poll.
    for bad in [
        NewPoll {
            question: " ".into(),
            ..colours(false)
        },
        NewPoll {
            question: "q".repeat(201),
            ..colours(false)
        },
        NewPoll {
            answers: vec!["only".into()],
            ..colours(false)
        },
        NewPoll {
            answers: vec!["a".into(); 7],
            ..colours(false)
        },
        NewPoll {
            answers: vec!["a".into(), "b".repeat(101)],
            ..colours(false)
        },
    ] {
        let r = guide.act(Action::CreatePoll { poll: bad }).await;
        assert_eq!(guide.answer(r).await, Some(ErrorCode::InvalidPayload));
    }
    let poll = create(&mut guide, colours(false)).await;
    for action in [
        Action::OpenPoll {
            poll_id: poll.poll_id.clone(),
        },
        Action::ClosePoll {
            poll_id: poll.poll_id.clone(),
        },
        Action::ShowPollResults {
            poll_id: poll.poll_id.clone(),
            shown: true,
        },
    ] {
        let r = ada.act(action).await;
        assert_eq!(ada.answer(r).await, Some(ErrorCode::Forbidden));
    }
    let r = guide
        .act(Action::OpenPoll {
            poll_id: "e".repeat(32),
        })
        .await;
    assert_eq!(guide.answer(r).await, Some(ErrorCode::PollNotFound));

    assert_eq!(
        ada.vote(&poll, &[0]).await,
        Some(ErrorCode::PollClosed),
        "a draft takes no votes"
    );
    guide
        .done(Action::OpenPoll {
            poll_id: poll.poll_id.clone(),
        })
        .await;
    let r = ada
        .act(Action::VotePoll {
            poll_id: poll.poll_id.clone(),
            answer_ids: vec!["f".repeat(32)],
        })
        .await;
    assert_eq!(ada.answer(r).await, Some(ErrorCode::PollUnknownAnswer));
    let r = ada
        .act(Action::VotePoll {
            poll_id: poll.poll_id.clone(),
            answer_ids: vec![],
        })
        .await;
    assert_eq!(ada.answer(r).await, Some(ErrorCode::PollUnknownAnswer));
    assert_eq!(
        ada.vote(&poll, &[0, 1]).await,
        Some(ErrorCode::PollSingleChoice)
    );
    let r = ada
        .act(Action::VotePoll {
            poll_id: "e".repeat(32),
            answer_ids: vec![poll.answers[0].answer_id.clone()],
        })
        .await;
    assert_eq!(ada.answer(r).await, Some(ErrorCode::PollNotFound));
    let r = ada
        .act(Action::VotePoll {
            poll_id: "not an id".into(),
            answer_ids: vec![],
        })
        .await;
    assert_eq!(ada.answer(r).await, Some(ErrorCode::InvalidPayload));
    // A multiple-choice poll takes several.
    let multiple = create(&mut guide, colours(true)).await;
    guide
        .done(Action::OpenPoll {
            poll_id: multiple.poll_id.clone(),
        })
        .await;
    assert_eq!(ada.vote(&multiple, &[0, 2]).await, None);

    // Votes are held to the client rate (40 at once, 20 a second): a flood is refused.
    let mut refused = 0;
    let mut refs = Vec::new();
    for i in 0..60 {
        let answer_ids = vec![poll.answers[i % 3].answer_id.clone()];
        refs.push(
            ada.act(Action::VotePoll {
                poll_id: poll.poll_id.clone(),
                answer_ids,
            })
            .await,
        );
    }
    for r in refs {
        if ada.answer(r).await == Some(ErrorCode::RateLimited) {
            refused += 1;
        }
    }
    assert!(refused > 0, "a flood of votes is rate limited");

    // Nothing refused was counted: one voter in each poll.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (_, snapshot) = Client::join(&addr, CAROL, Role::Client, "Carol", Codec::Json).await;
    let polls = snapshot.state_for_all.polls;
    assert_eq!(polls.len(), 2);
    assert_eq!(
        (polls[0].voters, polls[0].counts.iter().sum::<u32>()),
        (1, 1)
    );
    assert_eq!(
        (polls[1].voters, polls[1].counts.clone()),
        (1, vec![1, 0, 1])
    );
}

#[tokio::test]
async fn a_poll_attached_to_a_slide_opens_when_the_guide_switches_to_it() {
    let addr = start().await;
    let (mut guide, _) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::Json).await;
    let (mut ada, _) = Client::join(&addr, ADA, Role::Client, "Ada", Codec::Json).await;
    let section = "5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5e".to_owned();
    let slide = Some(PollSlide {
        section_id: section.clone(),
        slide_alias: 3,
    });
    let poll = create(
        &mut guide,
        NewPoll {
            slide,
            ..colours(false)
        },
    )
    .await;
    ada.next_poll_event().await;
    assert_eq!(ada.vote(&poll, &[1]).await, Some(ErrorCode::PollClosed));
    let switch = |alias| Action::SwitchSlide {
        page_id: APPOINTMENT.into(),
        section_id: section.clone(),
        slide_alias: alias,
    };
    guide.done(switch(2)).await;
    assert_eq!(
        ada.vote(&poll, &[1]).await,
        Some(ErrorCode::PollClosed),
        "another slide"
    );
    guide.done(switch(3)).await;
    assert_eq!(ada.vote(&poll, &[1]).await, None, "open with its slide");
    let (_, snapshot) = Client::join(&addr, BOB, Role::Client, "Bob", Codec::Json).await;
    assert_eq!(snapshot.state_for_all.polls[0].status, PollStatus::Open);
    // Closed, it stays closed when the slide comes back.
    guide
        .done(Action::ClosePoll {
            poll_id: poll.poll_id.clone(),
        })
        .await;
    guide.done(switch(2)).await;
    guide.done(switch(3)).await;
    assert_eq!(ada.vote(&poll, &[0]).await, Some(ErrorCode::PollClosed));
}

#[tokio::test]
async fn many_votes_become_at_most_four_counts_a_second_with_the_right_sums() {
    let addr = start().await;
    let (mut guide, _) = Client::join(&addr, GUIDE, Role::Guide, "Gina", Codec::Json).await;
    let poll = create(&mut guide, colours(false)).await;
    guide
        .done(Action::OpenPoll {
            poll_id: poll.poll_id.clone(),
        })
        .await;
    let mut voters = Vec::new();
    for i in 0..24u32 {
        let id = format!("{:032x}", 0xabc000 + i);
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
    // 24 voters, each voting three times (the last vote counts): 72 votes.
    for round in 0..3 {
        for (i, voter) in voters.iter_mut().enumerate() {
            let answer = (i + round) % 3;
            let answer_ids = vec![poll.answers[answer].answer_id.clone()];
            voter
                .send(&ClientFrame::Action {
                    r#ref: None,
                    action: Action::VotePoll {
                        poll_id: poll.poll_id.clone(),
                        answer_ids,
                    },
                })
                .await;
        }
    }
    let (frames, _) = watcher.counts_within(Duration::from_millis(1500)).await;
    let elapsed = started.elapsed();
    let (_, counts, voted) = frames.last().cloned().expect("counts reach a watcher");
    // Last round: voter i chose (i + 2) % 3: 8 each.
    assert_eq!(
        (counts, voted),
        (vec![8, 8, 8], 24),
        "every vote counted, changes replacing"
    );
    let ticks = elapsed.as_millis() as u64 / POLL_COUNTS_TICK_MS + 1;
    assert!(
        frames.len() as u64 <= ticks,
        "{} counts in {elapsed:?}",
        frames.len()
    );
    assert!(
        frames.len() < 10,
        "72 votes cost a handful of frames, not 72: {}",
        frames.len()
    );
    for pair in frames.windows(2) {
        assert!(
            pair[1].0 - pair[0].0 >= Duration::from_millis(POLL_COUNTS_TICK_MS - 100),
            "{:?}",
            pair[1].0 - pair[0].0
        );
    }
    // Every vote is in the order: a late joiner's snapshot has the same counts.
    let (_, snapshot) = Client::join(&addr, BOB, Role::Client, "Bob", Codec::Json).await;
    assert_eq!(snapshot.state_for_all.polls[0].counts, vec![8, 8, 8]);
}
