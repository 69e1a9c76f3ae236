use protocol::{HubClaims, Role};

fn claims(exp: u64) -> HubClaims {
    HubClaims {
        sub: "a".repeat(32),
        apt: "b".repeat(32),
        role: Role::Guide,
        name: Some("Ada".into()),
        exp,
    }
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

#[test]
fn signed_token_verifies_with_the_same_secret_only() {
    let original = claims(now() + 60);
    let token = original.sign(b"secret-one").unwrap();
    assert_eq!(HubClaims::verify(&token, b"secret-one").unwrap(), original);
    assert!(HubClaims::verify(&token, b"secret-two").is_err());
}

#[test]
fn expired_and_garbage_tokens_are_refused() {
    let expired = claims(now() - 3600).sign(b"s").unwrap();
    assert!(HubClaims::verify(&expired, b"s").is_err());
    // An unsigned token ("alg": "none") must not pass either.
    for garbage in ["", "abc", "a.b.c", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."] {
        assert!(
            HubClaims::verify(garbage, b"s").is_err(),
            "accepted {garbage:?}"
        );
    }
}
