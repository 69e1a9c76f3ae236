use clap::Parser;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let options = loadtest::Options::parse();
    let report = loadtest::run(&options).await?;
    println!("{report}");
    Ok(())
}
