use protocol::action::Action;
use protocol::engagement::polls::{NewPoll, PollStatus, MAX_POLLS};
use protocol::frame::{ErrorCode, Event};
use protocol::internal::Audience;
use protocol::live_state::LiveState;
use protocol::{HubClaims, Role};

use super::{decide, Caller, Decision, Request};

/// The clock of these tests (unix milliseconds).
const NOW: u64 = 1_800_000_000_000;

const GUIDE: &str = "9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a";
const ADA: &str = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1";

fn claims(sub: &str, role: Role) -> HubClaims {
    HubClaims {
        sub: sub.into(),
        apt: "0123456789abcdef0123456789abcdef".into(),
        role,
        name: None,
        exp: u64::MAX,
    }
}

fn run(state: &mut LiveState, sub: &str, role: Role, action: Action) -> Decision {
    let decision = decide(
        Caller::Participant(&claims(sub, role)),
        state,
        Request::Action(action),
        NOW,
    );
    if let Decision::Publish { event, .. } = &decision {
        state.apply(event);
    }
    decision
}

fn code(decision: &Decision) -> Option<ErrorCode> {
    match decision {
        Decision::Refuse { code, .. } => Some(*code),
        _ => None,
    }
}

fn new_poll(multiple: bool) -> NewPoll {
    NewPoll {
        question: "Colour?".into(),
        answers: vec!["Red".into(), "Blue".into()],
        multiple,
        slide: None,
    }
}

#[test]
fn a_poll_is_the_guides_to_run_and_refuses_votes_it_cannot_take() {
    let mut state = LiveState::default();
    let by_client = run(
        &mut state,
        ADA,
        Role::Client,
        Action::CreatePoll {
            poll: new_poll(false),
        },
    );
    assert_eq!(code(&by_client), Some(ErrorCode::Forbidden));
    let too_short = NewPoll {
        answers: vec!["Red".into()],
        ..new_poll(false)
    };
    assert_eq!(
        code(&run(
            &mut state,
            GUIDE,
            Role::Guide,
            Action::CreatePoll { poll: too_short }
        )),
        Some(ErrorCode::InvalidPayload)
    );
    run(
        &mut state,
        GUIDE,
        Role::Guide,
        Action::CreatePoll {
            poll: new_poll(false),
        },
    );
    let poll = state.state_for_all.polls[0].clone();
    let (red, blue) = (
        poll.answers[0].answer_id.clone(),
        poll.answers[1].answer_id.clone(),
    );
    let vote = |ids: Vec<String>| Action::VotePoll {
        poll_id: poll.poll_id.clone(),
        answer_ids: ids,
    };
    assert_eq!(
        code(&run(&mut state, ADA, Role::Client, vote(vec![red.clone()]))),
        Some(ErrorCode::PollClosed),
        "a draft"
    );
    for action in [
        Action::OpenPoll {
            poll_id: poll.poll_id.clone(),
        },
        Action::ClosePoll {
            poll_id: poll.poll_id.clone(),
        },
    ] {
        assert_eq!(
            code(&run(&mut state, ADA, Role::Client, action)),
            Some(ErrorCode::Forbidden)
        );
    }
    run(
        &mut state,
        GUIDE,
        Role::Guide,
        Action::OpenPoll {
            poll_id: poll.poll_id.clone(),
        },
    );
    assert_eq!(state.state_for_all.polls[0].status, PollStatus::Open);
    assert_eq!(
        code(&run(
            &mut state,
            ADA,
            Role::Client,
            vote(vec!["f".repeat(32)])
        )),
        Some(ErrorCode::PollUnknownAnswer)
    );
    assert_eq!(
        code(&run(
            &mut state,
            ADA,
            Role::Client,
            vote(vec![red.clone(), blue.clone()])
        )),
        Some(ErrorCode::PollSingleChoice)
    );
    let unknown = Action::VotePoll {
        poll_id: "e".repeat(32),
        answer_ids: vec![red.clone()],
    };
    assert_eq!(
        code(&run(&mut state, ADA, Role::Client, unknown)),
        Some(ErrorCode::PollNotFound)
    );
    let first = run(&mut state, ADA, Role::Client, vote(vec![red.clone()]));
    assert!(
        matches!(first, Decision::Publish { audience: Audience::Attendee(ref id), .. } if id == ADA)
    );
    let again = run(&mut state, ADA, Role::Client, vote(vec![red.clone()]));
    assert!(
        matches!(again, Decision::Publish { .. }),
        "the same vote again is ordered (a replica may be behind)"
    );
    assert_eq!(
        state.state_for_all.polls[0].counts,
        vec![1, 0],
        "and changes no count"
    );
    assert_eq!(state.state_for_all.polls[0].voters, 1);
    let changed = run(&mut state, ADA, Role::Client, vote(vec![blue.clone()]));
    assert!(
        matches!(changed, Decision::Publish { event: Event::PollVoted { ref previous_answer_ids, .. }, .. } if *previous_answer_ids == vec![red.clone()])
    );
    assert_eq!(state.state_for_all.polls[0].counts, vec![0, 1]);
    assert_eq!(
        state.state_for_clients_of(ADA).poll_votes[&poll.poll_id],
        vec![blue.clone()]
    );
    let closed = run(
        &mut state,
        GUIDE,
        Role::Guide,
        Action::ClosePoll {
            poll_id: poll.poll_id.clone(),
        },
    );
    assert!(
        matches!(closed, Decision::Publish { event: Event::PollClosed { ref counts, voters: 1, .. }, .. } if *counts == vec![0, 1])
    );
    assert_eq!(
        code(&run(&mut state, ADA, Role::Client, vote(vec![red.clone()]))),
        Some(ErrorCode::PollClosed)
    );
    assert_eq!(
        code(&run(
            &mut state,
            GUIDE,
            Role::Guide,
            Action::OpenPoll {
                poll_id: "e".repeat(32)
            }
        )),
        Some(ErrorCode::PollNotFound)
    );
}

#[test]
fn an_appointment_holds_a_bounded_number_of_polls() {
    let mut state = LiveState::default();
    for _ in 0..MAX_POLLS {
        run(
            &mut state,
            GUIDE,
            Role::Guide,
            Action::CreatePoll {
                poll: new_poll(true),
            },
        );
    }
    assert_eq!(
        code(&run(
            &mut state,
            GUIDE,
            Role::Guide,
            Action::CreatePoll {
                poll: new_poll(true)
            }
        )),
        Some(ErrorCode::PollLimit)
    );
}
