use clap::Parser;
use loadtest::Report;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let options = loadtest::Options::parse();
    let report = if options.merge.is_empty() {
        let report = loadtest::run(&options).await?;
        if let Some(path) = &options.out {
            std::fs::write(path, serde_json::to_vec(&report)?)?;
        }
        report
    } else {
        let mut parts = Vec::new();
        for path in &options.merge {
            let text =
                std::fs::read(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            parts.push(
                serde_json::from_slice(&text)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
            );
        }
        Report::merge(parts)?
    };
    let report = report.summary();
    let clean = report.is_clean();
    if options.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("{report}");
    }
    if options.strict && !clean {
        anyhow::bail!(
            "not every attendee saw every event exactly once, in order, up to the last slide"
        );
    }
    Ok(())
}
