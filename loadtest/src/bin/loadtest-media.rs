//! Media load on the embedded sfu: one publisher bot, N subscriber bots (see `loadtest::media`).

use clap::Parser;
use loadtest::media::{run, MediaOptions};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let options = MediaOptions::parse();
    let report = run(&options).await?;
    if options.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("{report}");
    }
    Ok(())
}
