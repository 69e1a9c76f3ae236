//! Writes the TypeScript declarations to the path given as the first argument, and the
//! live-state golden cases to the second (each defaulting to its place in `web/`).
fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let types = args
        .next()
        .unwrap_or_else(|| protocol::typescript::GENERATED_PATH.into());
    let cases = args
        .next()
        .unwrap_or_else(|| protocol::live_state::cases::CASES_PATH.into());
    std::fs::write(&types, protocol::typescript::typescript())?;
    std::fs::write(&cases, protocol::live_state::cases::cases_json())
}
