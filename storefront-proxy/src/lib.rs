//! storefront-proxy: the one public origin. Serves the web app, the embedded shop's
//! Store and Admin APIs over SQLite, and forwards `/ws` to the hub. See ARCHITECTURE.md.
//!
//! Layering (kept by `tests/layering.rs`): the modules import each other in one
//! direction only. At the bottom, importing no domain: `config`, `error`, `storage`,
//! `state` (the application state), `shop_event` (the sink the shop domains emit
//! into), `hub_client`, `upstream`, `store_api` (what every store API request carries,
//! with the shop context), `security` (client addresses, throttles, bounded password
//! hashing). Above them the domains, lower ones first (`settings`,
//! `seo_url`, `media` below `catalog`; `catalog` below `cms` below `navigation`;
//! `checkout` and `cart` below `account` below `context`, `order`; `dsr` listens to
//! the shop events), and at the top `app`, which opens the application and merges
//! the routers.

pub mod account;
pub mod admin;
pub mod admin_api;
pub mod app;
pub mod cart;
pub mod catalog;
pub mod checkout;
pub mod cms;
pub mod config;
pub mod contact;
pub mod context;
pub mod demo;
pub mod dsr;
pub mod error;
pub mod gateway;
pub mod hub_client;
pub mod mail;
pub mod media;
pub mod navigation;
pub mod newsletter;
pub mod order;
pub mod rich_text;
pub mod security;
pub mod seo_url;
pub mod settings;
pub mod shop_event;
pub mod shopping_list;
pub mod state;
pub mod storage;
pub mod store_api;
pub mod upstream;
pub mod wishlist;

pub use config::Config;
pub use state::App;
