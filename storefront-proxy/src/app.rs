//! The top of the crate: opening the application ([`App::open`]) and the one place
//! where all routers are merged ([`App::router`]). No domain imports this module.

use std::sync::Arc;

use anyhow::Context;

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::any;
use axum::Router;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::TraceLayer;

use crate::config::Config;
use crate::error::{answer_errors_in_shape, ApiError, MAX_REQUEST_BODY};
use crate::hub_client::HubClient;
use crate::shop_event::ShopEvents;
use crate::state::App;
use crate::storage::Db;
use crate::upstream::Upstream;
use crate::{
    account, admin, admin_api, cart, catalog, checkout, cms, contact, context, demo, dsr, gateway,
    media, navigation, newsletter, order, settings, shopping_list, store_api, wishlist,
};

impl App {
    /// Opens (and on first start seeds) the database under `DATA_DIR`, and lets the
    /// live rooms listen to the shop's events.
    pub async fn open(config: Config) -> anyhow::Result<App> {
        // DATA_DIR 0700, its files 0600 (the hub secret, the shop, the mail outbox).
        listener::data_dir::make_private(&config.data_dir)
            .with_context(|| format!("making {} private", config.data_dir.display()))?;
        let hub_secret = match &config.hub_secret {
            Some(secret) => secret.as_bytes().to_vec(),
            None => protocol::token::load_or_create_secret(&config.data_dir)?,
        };
        let db = Db::open(&config.data_dir.join("shop.sqlite"))?;
        let upstream = config.upstream_url.as_deref().map(Upstream::new);
        if upstream.is_none() {
            let options = demo::Options {
                demo: config.demo,
                admin_password: config.admin_password.clone(),
                admin_password_file: Some(config.data_dir.join(demo::ADMIN_PASSWORD_FILE)),
                ..demo::Options::from_env()?
            };
            db.call(move |conn| demo::seed_if_empty(conn, options))
                .await?;
            // The merchant's domains are shop origins too (mailed links, `/ws`, CSP).
            let domains = config.merchant_domains.clone();
            db.call(move |conn| Ok(domains.load(conn)?)).await?;
        }
        if upstream.is_none() {
            // Expired store sessions go (issue #29, item 10).
            let interval =
                std::time::Duration::from_secs(config.store_context_cleanup_interval_secs);
            store_api::session::spawn_cleaner(
                db.clone(),
                config.store_context_lifetime(),
                interval,
            );
        }
        let hub = HubClient::new(&config.hub_http_url(), &hub_secret);
        let relay = match upstream {
            Some(_) => dsr::RoomRelay::forwarded(db.clone(), hub.clone()),
            None => dsr::RoomRelay::new(db.clone(), hub.clone()),
        };
        let events = ShopEvents::new(relay);
        let hub_socket = reqwest::Client::builder()
            .connect_timeout(std::time::Duration::from_secs(5))
            .pool_max_idle_per_host(0)
            .http1_only()
            .build()?;
        let security = Arc::new(crate::security::Security::new(&config));
        Ok(App {
            config: Arc::new(config),
            db,
            hub_secret: Arc::new(hub_secret),
            hub,
            upstream,
            events,
            hub_socket,
            security,
        })
    }

    /// Every route of the public origin.
    pub fn router(self) -> Router {
        if self.upstream.is_some() {
            return self.upstream_router();
        }
        let store_api = Router::new()
            .merge(dsr::store_routes())
            .merge(context::routes())
            .merge(settings::routes())
            .merge(account::routes())
            .merge(cart::routes())
            .merge(checkout::routes())
            .merge(order::routes())
            .merge(catalog::routes())
            .merge(navigation::routes())
            .merge(cms::routes())
            .merge(newsletter::routes())
            .merge(contact::routes())
            .merge(wishlist::routes())
            .merge(shopping_list::routes())
            .fallback(route_not_found)
            // Innermost first: the session of the token (its key, expired or not), before
            // it a guide's delegated token for an attendee's cart (cart routes only).
            .layer(axum::middleware::from_fn_with_state(
                self.clone(),
                store_api::resolve_session,
            ))
            .layer(axum::middleware::from_fn_with_state(
                self.clone(),
                dsr::delegation::guard,
            ))
            .layer(axum::middleware::from_fn_with_state(
                self.clone(),
                store_api::require_access_key,
            ))
            // Outermost: what one client may cost (rate, concurrency, read budget; #29 item 8).
            .layer(axum::middleware::from_fn_with_state(
                Arc::new(store_api::budget::StoreApiBudget::new(
                    &self.config,
                    self.security.clone(),
                )),
                store_api::budget::guard,
            ));
        let admin_api_routes = Router::new()
            .merge(admin::oauth::routes())
            .merge(admin::settings_api::routes())
            .merge(dsr::admin_routes())
            .merge(admin_api::routes())
            .fallback(route_not_found);
        // Every other path is the web app: a file of the build, else index.html, where
        // the app's router resolves it (spec section 2, catch-all content page).
        let headers = Arc::new(gateway::security_headers::SecurityHeaders::new(
            &self.config,
        ));
        let dist = &self.config.web_dist;
        let web_app = ServeDir::new(dist).fallback(ServeFile::new(dist.join("index.html")));
        Router::new()
            .nest("/store-api", store_api)
            .nest("/api", admin_api_routes)
            .merge(gateway::routes())
            .merge(media::routes())
            .merge(order::public_routes())
            .fallback_service(web_app)
            .layer(DefaultBodyLimit::max(MAX_REQUEST_BODY))
            .layer(axum::middleware::map_response(answer_errors_in_shape))
            .layer(axum::middleware::from_fn_with_state(
                headers.clone(),
                gateway::security_headers::add,
            ))
            .layer(TraceLayer::new_for_http())
            .with_state(self)
    }

    /// Serves [`App::router`] on `listener` until `shutdown` resolves, with a header
    /// read timeout and a cap on concurrent HTTP connections (`Config`; over the cap:
    /// `503` `SALESROOM__TOO_MANY_CONNECTIONS`).
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let config = &self.config;
        let full = ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "SALESROOM__TOO_MANY_CONNECTIONS",
            "The shop serves too many connections; try again.",
        );
        let limits = listener::Limits {
            header_read_timeout: std::time::Duration::from_millis(
                config.header_read_timeout_ms.max(1),
            ),
            max_connections: config.max_http_connections.max(1),
            full_answer: full.body().to_string(),
        };
        listener::serve(listener, self.router(), limits, shutdown).await
    }

    /// Upstream mode: the shop APIs are forwarded; the DSR calls that concern the live
    /// room are forwarded and followed up here (`dsr::forwarded`); the web app, its
    /// config and `/ws` stay here.
    fn upstream_router(self) -> Router {
        let headers = Arc::new(gateway::security_headers::SecurityHeaders::new(
            &self.config,
        ));
        let dist = &self.config.web_dist;
        let web_app = ServeDir::new(dist).fallback(ServeFile::new(dist.join("index.html")));
        Router::new()
            .merge(dsr::forwarded::routes())
            .route("/store-api/{*path}", any(gateway::forward_upstream))
            .route("/api/{*path}", any(gateway::forward_upstream))
            // A guide's delegated token: cart routes only, as the attendee's upstream session.
            .layer(axum::middleware::from_fn_with_state(
                self.clone(),
                dsr::forwarded::delegation::guard,
            ))
            .merge(gateway::routes())
            .fallback_service(web_app)
            .layer(DefaultBodyLimit::max(MAX_REQUEST_BODY))
            .layer(axum::middleware::map_response(answer_errors_in_shape))
            .layer(axum::middleware::from_fn_with_state(
                headers.clone(),
                gateway::security_headers::add,
            ))
            .layer(TraceLayer::new_for_http())
            .with_state(self)
    }
}

async fn route_not_found() -> ApiError {
    ApiError::not_found(
        "FRAMEWORK__ROUTE_NOT_FOUND",
        "No route found for this path.",
    )
}
