//! What the load tests against real servers share: a hub (`hub::testing::TestHub`) and a
//! storefront-proxy on port 0 with the demo data, and loadtest options aimed at them (a
//! small plain run; each test changes what it measures).

/// Starts the servers in `dir`; `hub` adjusts the hub's configuration (from the hub's
/// own defaults, not the test harness's: these runs measure the hub as deployed).
pub async fn servers(
    dir: &std::path::Path,
    hub: impl FnOnce(hub::Config) -> hub::Config,
) -> loadtest::Options {
    let secret = std::str::from_utf8(hub::testing::SECRET).unwrap();
    let deployed = |_| {
        hub(hub::Config {
            secret: Some(secret.into()),
            ..hub::Config::for_data_dir(dir)
        })
    };
    let test_hub = hub::testing::TestHub::start_in(dir, deployed, std::future::pending()).await;
    let hub_port: u16 = test_hub.addr.rsplit(':').next().unwrap().parse().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    let config = storefront_proxy::Config {
        port,
        hub_port,
        hub_secret: Some(secret.into()),
        shop_endpoint: Some(base.clone()),
        web_dist: dir.join("dist"),
        ..storefront_proxy::Config::for_data_dir(dir)
    };
    let app = storefront_proxy::App::open(config).await.unwrap();
    tokio::spawn(async move { axum::serve(listener, app.router()).await });

    loadtest::Options {
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
        resume: false,
        strict: false,
        chat_per_sec: 0.0,
        reactions_per_sec: 0.0,
        poll_votes: 0,
        poll_window_secs: 10.0,
        hub_secret: Some(secret.into()),
        busy_poll: false,
    }
}
