//! The integration tests of storefront-proxy, one binary: each module a domain, the
//! support modules (`common`, `admin_support`, `dsr_support`, `extras`) shared by all.
#![allow(dead_code)]

mod admin_support;
mod common;
mod dsr_support;
mod extras;

mod account;
mod account_extras;
mod admin_access;
mod admin_catalog;
mod admin_dsr;
mod admin_dsr_broadcast;
mod admin_dsr_interaction_templates;
mod admin_dsr_invite;
mod admin_dsr_preview;
mod admin_dsr_slides;
mod admin_empty_start;
mod admin_integration;
mod admin_legal_pages;
mod cart;
mod catalog;
mod catalog_speed;
mod checkout;
mod cms;
mod contact;
mod context;
mod dsr_attendee;
mod dsr_contract_extras;
mod dsr_discounts;
mod dsr_guide;
mod dsr_hub_publish;
mod dsr_journey;
mod dsr_login_tokens;
mod dsr_permissions;
mod dsr_report;
mod dsr_schema;
mod dsr_slides;
mod dsr_upcoming;
mod dsr_video_rooms;
mod foundation;
mod layering;
mod limits;
mod navigation;
mod newsletter;
mod order;
mod query_budget;
mod rich_text;
mod security_auth;
mod security_room;
mod security_throttles;
mod security_upstream;
mod shopping_lists;
mod upstream;
mod upstream_dsr;
mod wishlist;
