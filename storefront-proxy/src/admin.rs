//! Admin API authentication: `POST /api/oauth/token` and the bearer-token extractor;
//! the shop's settings outside entities (`settings_api`, `_action/system-config`).

pub mod oauth;
pub mod search;
pub mod settings_api;

pub use oauth::AdminUser;
