//! The load test against real servers, small: every attendee gets every slide change.

mod support;

/// The shared servers, with a small send queue and replay window.
async fn servers(dir: &std::path::Path) -> loadtest::Options {
    support::servers(dir, |hub| hub::Config {
        send_queue: 256,
        retained_events: 256,
        ..hub
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_attendee_receives_every_slide_change() {
    let dir = tempfile::tempdir().unwrap();
    let options = servers(dir.path()).await;
    let report = loadtest::run(&options).await.unwrap();
    assert_eq!(report.deliveries, 4 * 6, "{report}");
    assert_eq!(report.errors, 0, "{report}");
    assert!(report.hub_bytes_per_connection.is_some(), "{report}");
    // The first two slide changes of every attendee apart, the other four as the steady state.
    assert_eq!(
        (report.after_joins_us.len(), report.steady_us.len()),
        (4 * 2, 4 * 4),
        "{report}"
    );
    assert!(report.hub_cpu_seconds.is_some(), "{report}");
    assert_eq!(
        report.continuity,
        loadtest::Continuity::default(),
        "{report}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_resume_the_guide_waits_for_each_ack_and_every_attendee_ends_on_the_last_slide() {
    let dir = tempfile::tempdir().unwrap();
    let options = loadtest::Options {
        resume: true,
        ..servers(dir.path()).await
    };
    let report = loadtest::run(&options).await.unwrap();
    assert_eq!(report.deliveries, 4 * 6, "{report}");
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.continuity.resumes, 0, "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shards_split_the_attendees_and_their_reports_merge_into_one() {
    let dir = tempfile::tempdir().unwrap();
    let options = servers(dir.path()).await;
    let shard = |s: &str| loadtest::Options {
        clients: 5,
        shard: s.parse().unwrap(),
        ..options.clone()
    };
    // Started together, as scripts/bench.sh does: shard 0 joins the guide and waits for
    // the other shard's attendees before the slide changes.
    let (first, second) = (shard("0/2"), shard("1/2"));
    let (guide, other) = tokio::join!(loadtest::run(&first), loadtest::run(&second));
    let (guide, other) = (guide.unwrap(), other.unwrap());
    assert_eq!((guide.clients, other.clients), (3, 2));
    assert!(guide.hub_cpu_seconds.is_some() && other.hub_cpu_seconds.is_none());
    // Through JSON, as the processes hand them over.
    let written =
        |r: &loadtest::Report| serde_json::from_slice(&serde_json::to_vec(r).unwrap()).unwrap();
    let merged = loadtest::Report::merge(vec![written(&guide), written(&other)]).unwrap();
    assert_eq!(
        (merged.clients, merged.shards, merged.errors),
        (5, 2, 0),
        "{merged}"
    );
    assert_eq!(
        (merged.deliveries, merged.expected_deliveries),
        (5 * 6, 5 * 6),
        "{merged}"
    );
    assert!(
        merged.latency.max_ms >= guide.latency.max_ms.max(other.latency.max_ms),
        "{merged}"
    );
}
