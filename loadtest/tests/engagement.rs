//! The engagement mode against real servers, small (issue #19 item 8): while the guide
//! changes slides, 50 attendees chat, react and vote in the guide's poll; no vote is
//! lost, every chat reaches every attendee in one order, reaction sums come coalesced.

mod support;

/// The shared servers; 50 attendees chat, react and vote during 2.5 s of slide changes
/// (longer than the 2 s window).
async fn servers(dir: &std::path::Path) -> loadtest::Options {
    loadtest::Options {
        clients: 50,
        join_concurrency: 16,
        slides: 25,
        interval_ms: 100,
        highlight_every: 5,
        first_slides: 5,
        chat_per_sec: 50.0,
        reactions_per_sec: 200.0,
        poll_votes: 50,
        poll_window_secs: 2.0,
        ..support::servers(dir, |hub| hub).await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attendees_chat_react_and_vote_while_the_slides_change_and_nothing_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let options = servers(dir.path()).await;
    let report = loadtest::run(&options).await.unwrap();
    let e = report.engagement.clone().expect("an engagement report");
    // The slide changes are measured as in a plain run.
    assert_eq!(report.deliveries, 50 * 25, "{report}");
    assert_eq!(
        (report.errors, report.continuity),
        (0, loadtest::Continuity::default()),
        "{report}"
    );
    // Every attendee voted once, each vote was acknowledged and is in the final and the
    // stored counts, per answer.
    assert_eq!(
        (e.votes_sent, e.votes_acked, e.votes_refused),
        (50, 50, 0),
        "{report}"
    );
    assert_eq!(e.votes_lost(), Some(0), "{report}");
    let closed = e.poll_closed.clone().unwrap();
    assert_eq!(closed.voters, 50, "{report}");
    assert_eq!(
        closed
            .counts
            .iter()
            .map(|n| u64::from(*n))
            .collect::<Vec<_>>(),
        e.votes_per_answer,
        "{report}"
    );
    assert_eq!(
        e.votes_per_answer,
        vec![13, 13, 12, 12],
        "attendee n votes answer n % 4: {report}"
    );
    assert_eq!(e.poll_stored.as_ref(), Some(&closed), "{report}");
    // 100 chats, none refused, each to all 50 attendees, in the guide's order.
    assert_eq!(
        (e.chats_sent, e.chats_acked, e.chats_refused),
        (100, 100, 0),
        "{report}"
    );
    assert_eq!(e.guide_chats, Some(100), "{report}");
    assert_eq!(e.chat_deliveries(), 100 * 50, "{report}");
    assert!(e.chats_in_order(), "{report}");
    // 400 reaction taps, all in the sums the guide received; the sums coalesced to about
    // four a second.
    assert_eq!(
        (e.reactions_sent, e.reactions_refused),
        (400, 0),
        "{report}"
    );
    assert_eq!(e.reaction_taps_counted, Some(400), "{report}");
    assert!(e.reaction_frames >= 50 * 4, "{report}");
    assert!(e.reaction_frames_per_sec() <= 4.5, "{report}");
    assert!(report.is_clean(), "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plan_over_the_hubs_limits_is_refused_before_anyone_joins() {
    let dir = tempfile::tempdir().unwrap();
    let options = loadtest::Options {
        clients: 5,
        chat_per_sec: 50.0,
        poll_votes: 0,
        reactions_per_sec: 0.0,
        ..servers(dir.path()).await
    };
    let error = loadtest::run(&options).await.unwrap_err().to_string();
    assert!(error.contains("messages per attendee"), "{error}");
}

#[test]
fn the_load_generator_keeps_to_the_hubs_request_rate() {
    assert_eq!(
        loadtest::engagement::CLIENT_REQUESTS_PER_SEC,
        hub::ws::rate::CLIENT_REQUESTS_PER_SEC
    );
}
