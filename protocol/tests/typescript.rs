//! Fails when `web/src/protocol/generated.ts` is not what the Rust types generate, or
//! `web/src/protocol/live-state-cases.json` not what the reducer computes.

use std::path::{Path, PathBuf};

fn in_workspace(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

#[test]
fn committed_typescript_matches_the_rust_types() {
    let path = in_workspace(protocol::typescript::GENERATED_PATH);
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let fresh = protocol::typescript::typescript();
    assert!(
        committed == fresh,
        "{} is stale: run `make protocol-ts` and commit the result",
        path.display()
    );
}

#[test]
fn committed_live_state_cases_match_the_reducer() {
    let path = in_workspace(protocol::live_state::cases::CASES_PATH);
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let fresh = protocol::live_state::cases::cases_json();
    assert!(
        committed == fresh,
        "{} is stale: run `make protocol-ts` and commit the result",
        path.display()
    );
}
