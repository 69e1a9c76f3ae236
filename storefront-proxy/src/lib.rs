//! storefront-proxy: the one public origin. Serves the web app, the embedded shop's
//! Store and Admin APIs over SQLite, and forwards `/ws` to the hub. See ARCHITECTURE.md.

pub mod account;
pub mod admin;
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
pub mod mail;
pub mod media;
pub mod navigation;
pub mod newsletter;
pub mod order;
pub mod storage;
pub mod store_api;
pub mod wishlist;

pub use app::App;
pub use config::Config;
