//! Admin API authentication: `POST /api/oauth/token` and the bearer-token extractor.

pub mod oauth;
pub mod search;

pub use oauth::AdminUser;
