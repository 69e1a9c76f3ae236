//! Fails when `web/src/protocol/generated.ts` is not what the Rust types generate.

#[test]
fn committed_typescript_matches_the_rust_types() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(protocol::typescript::GENERATED_PATH);
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let fresh = protocol::typescript::typescript();
    assert!(committed == fresh, "{} is stale: run `make protocol-ts` and commit the result", path.display());
}
