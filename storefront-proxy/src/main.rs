use clap::Parser;
use storefront_proxy::{App, Config};
use tracing_subscriber::EnvFilter;

/// Listing and search answers build and drop many small JSON values on every request:
/// mimalloc's per-thread free lists make that far cheaper than glibc's malloc
/// (BENCHMARKS.md, "Shop: catalogue").
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
    let listener = tokio::net::TcpListener::bind((config.bind, config.port)).await?;
    let app = App::open(config).await?;
    println!(
        "storefront-proxy listening on http://{}",
        listener.local_addr()?
    );
    // Header read timeout, connection cap, no Nagle delay (forwarded live frames are
    // small and latency matters).
    app.serve(listener, shutdown_signal()).await?;
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
