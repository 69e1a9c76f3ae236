use protocol::action::Action;
use protocol::engagement::questions::{QuestionStatus, MAX_QUESTIONS, QUESTION_INTERVAL_MS};
use protocol::frame::{ErrorCode, Event};
use protocol::internal::Audience;
use protocol::live_state::LiveState;
use protocol::{HubClaims, Role};

use super::{ask, decide, Caller, Decision, Request};

/// The clock of these tests (unix milliseconds).
const NOW: u64 = 1_800_000_000_000;

const GUIDE: &str = "9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a";
const ADA: &str = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1";
const BOB: &str = "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2";

fn claims(sub: &str, role: Role) -> HubClaims {
    HubClaims {
        sub: sub.into(),
        apt: "0123456789abcdef0123456789abcdef".into(),
        role,
        name: Some(sub[..3].into()),
        exp: u64::MAX,
    }
}

fn apply(state: &mut LiveState, decision: Decision) -> Decision {
    if let Decision::Publish { event, .. } = &decision {
        state.apply(event);
    }
    decision
}

fn run(state: &mut LiveState, sub: &str, role: Role, action: Action) -> Decision {
    let decision = decide(
        Caller::Participant(&claims(sub, role)),
        state,
        Request::Action(action),
        NOW,
    );
    apply(state, decision)
}

fn ask_at(state: &mut LiveState, sub: &str, text: &str, now: u64) -> Decision {
    let decision = ask(&claims(sub, Role::Client), state, text, now);
    apply(state, decision)
}

fn code(decision: &Decision) -> Option<ErrorCode> {
    match decision {
        Decision::Refuse { code, .. } => Some(*code),
        _ => None,
    }
}

#[test]
fn a_question_is_refused_for_its_text_the_rate_a_ban_and_the_end() {
    let mut state = LiveState::default();
    assert_eq!(
        code(&ask_at(&mut state, ADA, " \u{202E} \n", 1_000)),
        Some(ErrorCode::QuestionEmpty)
    );
    assert_eq!(
        code(&ask_at(&mut state, ADA, &"x".repeat(301), 1_000)),
        Some(ErrorCode::QuestionTooLong)
    );
    assert_eq!(
        code(&ask_at(&mut state, ADA, &"<b>".repeat(3_414), 1_000)),
        Some(ErrorCode::QuestionTooLong),
        "10 kB"
    );
    let asked = ask_at(
        &mut state,
        ADA,
        " <script>alert(1)</script>\u{202E} ",
        1_000,
    );
    let Decision::Publish {
        audience: Audience::Everyone,
        event: Event::QuestionAsked { question },
    } = asked
    else {
        panic!("{asked:?}")
    };
    assert_eq!(
        (question.text.as_str(), question.attendee_name.as_deref()),
        ("<script>alert(1)</script>", Some("a1a"))
    );
    assert_eq!(
        code(&ask_at(
            &mut state,
            ADA,
            "again",
            1_000 + QUESTION_INTERVAL_MS - 1
        )),
        Some(ErrorCode::QuestionRateLimited)
    );
    assert_eq!(
        code(&ask_at(&mut state, BOB, "mine", 1_001)),
        None,
        "the rate is per attendee"
    );
    assert_eq!(
        code(&ask_at(
            &mut state,
            ADA,
            "again",
            1_000 + QUESTION_INTERVAL_MS
        )),
        None
    );
    state.apply(&Event::ChatAttendeeModerated {
        attendee_id: BOB.into(),
        muted_until: None,
        banned: true,
    });
    assert_eq!(
        code(&ask_at(&mut state, BOB, "banned", 1_000_000)),
        Some(ErrorCode::QuestionBanned)
    );
    state.apply(&Event::PresentationEnded {
        ended_at: "2026-01-05T11:00:00Z".into(),
    });
    assert_eq!(
        code(&ask_at(&mut state, ADA, "late", 9_000_000)),
        Some(ErrorCode::PresentationEnded)
    );
    assert_eq!(
        state.state_for_all.questions.len(),
        3,
        "nothing refused was kept"
    );
}

#[test]
fn up_votes_are_once_each_never_ones_own_and_may_be_withdrawn() {
    let mut state = LiveState::default();
    ask_at(&mut state, ADA, "Does it fit?", 1);
    let id = state.state_for_all.questions[0].question_id.clone();
    let vote = |voted| Action::VoteQuestion {
        question_id: id.clone(),
        voted,
    };
    assert_eq!(
        code(&run(&mut state, ADA, Role::Client, vote(true))),
        Some(ErrorCode::QuestionOwnVote)
    );
    let unknown = Action::VoteQuestion {
        question_id: "e".repeat(32),
        voted: true,
    };
    assert_eq!(
        code(&run(&mut state, BOB, Role::Client, unknown)),
        Some(ErrorCode::QuestionNotFound)
    );
    let first = run(&mut state, BOB, Role::Client, vote(true));
    assert!(
        matches!(first, Decision::Publish { audience: Audience::Attendee(ref to), .. } if to == BOB)
    );
    run(&mut state, BOB, Role::Client, vote(true));
    assert_eq!(state.state_for_all.questions[0].votes, 1, "once each");
    assert_eq!(
        state.state_for_clients_of(BOB).question_votes,
        vec![id.clone()]
    );
    assert!(state.state_for_clients_of(ADA).question_votes.is_empty());
    run(&mut state, BOB, Role::Client, vote(false));
    run(&mut state, BOB, Role::Client, vote(false));
    assert_eq!(state.state_for_all.questions[0].votes, 0);
    // A vote decided twice (two replicas) is still one.
    let twice = Event::QuestionVoted {
        question_id: id.clone(),
        attendee_id: GUIDE.into(),
        voted: true,
    };
    state.apply(&twice);
    state.apply(&twice);
    assert_eq!(state.state_for_all.questions[0].votes, 1);
}

#[test]
fn the_guide_marks_one_question_answering_at_a_time_answers_and_dismisses() {
    let mut state = LiveState::default();
    ask_at(&mut state, ADA, "one", 1);
    ask_at(&mut state, BOB, "two", 2);
    let ids: Vec<String> = state
        .state_for_all
        .questions
        .iter()
        .map(|q| q.question_id.clone())
        .collect();
    let mark = |i: usize, status| Action::MarkQuestion {
        question_id: ids[i].clone(),
        status,
    };
    for action in [
        mark(0, QuestionStatus::Answering),
        Action::DismissQuestion {
            question_id: ids[0].clone(),
        },
    ] {
        assert_eq!(
            code(&run(&mut state, ADA, Role::Client, action)),
            Some(ErrorCode::Forbidden),
            "non-guide moderating"
        );
    }
    run(
        &mut state,
        GUIDE,
        Role::Guide,
        mark(0, QuestionStatus::Answering),
    );
    assert_eq!(
        run(
            &mut state,
            GUIDE,
            Role::Guide,
            mark(0, QuestionStatus::Answering)
        ),
        Decision::Nothing
    );
    run(
        &mut state,
        GUIDE,
        Role::Guide,
        mark(1, QuestionStatus::Answering),
    );
    let statuses = |state: &LiveState| {
        state
            .state_for_all
            .questions
            .iter()
            .map(|q| q.status)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        statuses(&state),
        [QuestionStatus::Open, QuestionStatus::Answering],
        "at most one at a time"
    );
    run(
        &mut state,
        GUIDE,
        Role::Guide,
        mark(1, QuestionStatus::Answered),
    );
    assert_eq!(
        statuses(&state),
        [QuestionStatus::Open, QuestionStatus::Answered]
    );
    run(
        &mut state,
        GUIDE,
        Role::Guide,
        Action::DismissQuestion {
            question_id: ids[0].clone(),
        },
    );
    assert_eq!(state.state_for_all.questions.len(), 1);
    for action in [
        mark(0, QuestionStatus::Answered),
        Action::DismissQuestion {
            question_id: ids[0].clone(),
        },
    ] {
        assert_eq!(
            code(&run(&mut state, GUIDE, Role::Guide, action)),
            Some(ErrorCode::QuestionNotFound)
        );
    }
    let bad = Action::MarkQuestion {
        question_id: "not an id".into(),
        status: QuestionStatus::Open,
    };
    assert_eq!(
        code(&run(&mut state, GUIDE, Role::Guide, bad)),
        Some(ErrorCode::InvalidPayload)
    );
}

#[test]
fn an_appointment_holds_a_bounded_number_of_questions() {
    let mut state = LiveState::default();
    for i in 0..MAX_QUESTIONS {
        let asker = format!("{i:032x}");
        assert_eq!(code(&ask_at(&mut state, &asker, "q", 1)), None);
    }
    assert_eq!(
        code(&ask_at(&mut state, ADA, "one more", 1)),
        Some(ErrorCode::QuestionLimit)
    );
    let first = state.state_for_all.questions[0].question_id.clone();
    run(
        &mut state,
        GUIDE,
        Role::Guide,
        Action::DismissQuestion { question_id: first },
    );
    assert_eq!(
        code(&ask_at(&mut state, ADA, "one more", 1)),
        None,
        "a dismissal makes room"
    );
}
