//! Writes the TypeScript declarations to the path given as the first argument.
fn main() -> std::io::Result<()> {
    let path = std::env::args().nth(1).unwrap_or_else(|| protocol::typescript::GENERATED_PATH.into());
    std::fs::write(&path, protocol::typescript::typescript())
}
