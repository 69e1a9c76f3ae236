//! What the load tests against real servers share: a hub and a storefront-proxy on port 0
//! with the demo data, and loadtest options aimed at them (a small plain run; each test
//! changes what it measures).

/// Starts the servers in `dir`; `hub` adjusts the hub's configuration.
pub async fn servers(dir: &std::path::Path, hub: impl FnOnce(hub::Config) -> hub::Config) -> loadtest::Options {
    let secret = "loadtest-secret";
    let hub_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hub_port = hub_listener.local_addr().unwrap().port();
    let hub_config = hub(hub::Config { port: hub_port, secret: Some(secret.into()), ..hub::Config::for_data_dir(dir) });
    tokio::spawn(hub::Hub::open(hub_config, secret.as_bytes().to_vec()).await.unwrap().serve(hub_listener, std::future::pending()));
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
