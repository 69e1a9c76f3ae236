//! The load test against real servers, small: every attendee gets every slide change.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_attendee_receives_every_slide_change() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "loadtest-secret";
    let hub_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hub_port = hub_listener.local_addr().unwrap().port();
    let hub_config = hub::Config {
        bind: [127, 0, 0, 1].into(),
        port: hub_port,
        data_dir: dir.path().to_path_buf(),
        secret: Some(secret.into()),
        heartbeat_secs: 15,
        send_queue: 256,
        retained_events: 256,
        redis_url: None,
        livekit_url: None,
        livekit_api_key: None,
        livekit_api_secret: None,
    };
    tokio::spawn(hub::Hub::open(hub_config, secret.as_bytes().to_vec()).await.unwrap().serve(hub_listener, std::future::pending()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    let config = storefront_proxy::Config {
        bind: [127, 0, 0, 1].into(),
        port,
        hub_port,
        hub_url: None,
        public_hub_url: None,
        hub_secret: Some(secret.into()),
        data_dir: dir.path().to_path_buf(),
        shop_endpoint: Some(base.clone()),
        shop_access_token: None,
        upstream_url: None,
        livekit_url: None,
        web_dist: dir.path().join("dist"),
    };
    let app = storefront_proxy::App::open(config).await.unwrap();
    tokio::spawn(async move { axum::serve(listener, app.router()).await });

    let options = loadtest::Options {
        base_url: base,
        hub_url: vec![],
        hub_metrics: vec![format!("http://127.0.0.1:{hub_port}/metrics")],
        access_key: "SWSCSALESROOMDEMO000000000".into(),
        presentation_path: "demo".into(),
        clients: 4,
        source_addresses: 2,
        join_concurrency: 2,
        slides: 6,
        interval_ms: 5,
        highlight_every: 2,
        hold_secs: 0,
        first_slides: 2,
        shard: loadtest::Shard::default(),
        out: None,
        merge: vec![],
        json: false,
    };
    let report = loadtest::run(&options).await.unwrap();
    assert_eq!(report.deliveries, 4 * 6, "{report}");
    assert_eq!(report.errors, 0, "{report}");
    assert!(report.hub_bytes_per_connection.is_some(), "{report}");
    // The first two slide changes of every attendee apart, the other four as the steady state.
    assert_eq!((report.after_joins_us.len(), report.steady_us.len()), (4 * 2, 4 * 4), "{report}");
    assert!(report.hub_cpu_seconds.is_some(), "{report}");
}
