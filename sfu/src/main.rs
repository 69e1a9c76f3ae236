//! The `sfu` binary: configuration from the environment, then the server until Ctrl-C.

use clap::Parser;
use tracing_subscriber::EnvFilter;

// Every forwarded packet allocates (str0m's packet and datagram buffers, per subscriber):
// mimalloc, as the hub and the proxy use, where glibc's malloc took ~8 % of the sfu's CPU.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> Result<(), sfu::Error> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("sfu=info")),
        )
        .init();
    let config = sfu::Config::parse();
    if config.bind.is_unspecified() && config.sfu_public_ip.is_none() {
        tracing::warn!(
            "BIND is every interface but SFU_PUBLIC_IP is unset: media candidates announce 127.0.0.1, reachable from this machine only"
        );
    }
    let credentials = config.credentials()?;
    let running = sfu::server::start(&config, credentials).await?;
    tracing::info!(http = %running.http_addr, media = %running.media_addr, "sfu ready");
    tokio::select! {
        result = running.server => match result {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(e.into()),
            Err(e) => Err(sfu::Error::Config(format!("server task: {e}"))),
        },
        () = stop_signal() => {
            running.engine.shutdown().await;
            // Let the signalling tasks write the leave before the process ends.
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            tracing::info!("stopped");
            Ok(())
        }
    }
}

/// Ctrl-C, or SIGTERM (how `make`, containers and test runners stop a server).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = terminate.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
