//! Password hashes (Argon2id, PHC string format) of customers and admin users.

use argon2::password_hash::{rand_core::OsRng, PasswordHasher, SaltString};
use argon2::Argon2;

/// The PHC hash of `password` with a fresh salt. Slow on purpose: call it off the
/// async runtime (`spawn_blocking`).
pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| anyhow::anyhow!("hashing a password: {e}"))?
        .to_string())
}
