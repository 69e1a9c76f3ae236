use clap::Parser;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let options = loadtest::shop::ShopOptions::parse();
    let reports = loadtest::shop::run(&options).await?;
    if options.json {
        println!("{}", serde_json::to_string_pretty(&reports)?);
    } else {
        for report in &reports {
            println!("{report}");
        }
    }
    Ok(())
}
