use clap::Parser;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let options = loadtest::Options::parse();
    let report = loadtest::run(&options).await?;
    if options.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("{report}");
    }
    Ok(())
}
