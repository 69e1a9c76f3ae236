use clap::Parser;
use hub::{Config, Hub};
use tracing_subscriber::EnvFilter;

/// mimalloc, as in storefront-proxy: it gives memory back to the system after a burst
/// (4,000 half-sent requests left glibc's malloc holding 7 times the idle size;
/// BENCHMARKS.md, "Hostile clients").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    // Idle workers hand back what a burst freed (listener::memory).
    listener::memory::runtime()?.block_on(run())
}

async fn run() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let config = Config::parse();
    // Every connection is a file descriptor: take all the system allows.
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::info!(limit, "open files limit"),
        Err(error) => tracing::warn!(%error, "could not raise the open files limit"),
    }
    // DATA_DIR 0700, its files 0600: the hub secret mints guide tokens.
    listener::data_dir::make_private(&config.data_dir)?;
    let secret = config.load_secret()?;
    let listener = tokio::net::TcpListener::bind((config.bind, config.port)).await?;
    println!("hub listening on http://{}", listener.local_addr()?);
    let drain_within = std::time::Duration::from_secs(config.drain_secs);
    let hub = Hub::open(config, secret).await?;
    // Told to stop: the server stops accepting, then every client is sent elsewhere
    // (hub::drain) before the process exits.
    hub.clone().serve(listener, shutdown_signal()).await?;
    tracing::info!("stopped accepting; draining");
    hub::drain::drain(&hub, drain_within).await;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let terminate = async {
        if let Ok(mut sig) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            sig.recv().await;
        }
    };
    tokio::select! { _ = ctrl_c => {}, _ = terminate => {} }
}
