//! The logged-in customer of a request: the `LoggedIn` and `Registered` extractors the
//! account's, order's, wishlist's and room's routes take.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::StatusCode;
use rusqlite::OptionalExtension;

use crate::error::ApiError;
use crate::state::App;
use crate::store_api::ShopContext;

pub fn not_logged_in() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "CHECKOUT__CUSTOMER_NOT_LOGGED_IN",
        "Customer is not logged in.",
    )
}

/// A request whose session belongs to a customer (guests included).
#[derive(Debug, Clone)]
pub struct LoggedIn {
    pub ctx: ShopContext,
    pub customer_id: String,
    pub token: String,
}

impl FromRequestParts<App> for LoggedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        let ctx = ShopContext::from_request_parts(parts, app).await?;
        let token = ctx.token.clone().ok_or_else(not_logged_in)?;
        let (session, channel) = (token.clone(), ctx.sales_channel.id.clone());
        let customer: Option<String> = app
            .db
            .call(move |conn| {
                Ok(conn
                    .query_row(
                        "SELECT c.id FROM store_context s JOIN customer c ON c.id = s.customer_id
                         WHERE s.token = ?1 AND s.sales_channel_id = ?2 AND c.active = 1",
                        [&session, &channel],
                        |r| r.get(0),
                    )
                    .optional()?)
            })
            .await?;
        let customer_id = customer.ok_or_else(not_logged_in)?;
        Ok(LoggedIn {
            ctx,
            customer_id,
            token,
        })
    }
}

/// A logged-in customer with an account: guests are refused like anonymous sessions.
#[derive(Debug, Clone)]
pub struct Registered(pub LoggedIn);

impl FromRequestParts<App> for Registered {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        let user = LoggedIn::from_request_parts(parts, app).await?;
        let id = user.customer_id.clone();
        let guest: bool = app
            .db
            .call(move |conn| {
                Ok(
                    conn.query_row("SELECT guest FROM customer WHERE id = ?1", [&id], |r| {
                        r.get(0)
                    })?,
                )
            })
            .await?;
        if guest {
            return Err(not_logged_in());
        }
        Ok(Registered(user))
    }
}
