//! The hub's internal API as storefront-proxy uses it: publish state events (start, end,
//! settings, removals …) and read the live state.

use std::time::Duration;

use protocol::frame::Event;
use protocol::internal::{Audience, PublishRequest, PublishResponse};
use protocol::state::Snapshot;

#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error("the hub is not reachable: {0}")]
    Unreachable(#[from] reqwest::Error),
    #[error("the hub answered {status}: {body}")]
    Refused { status: u16, body: String },
}

/// Cheap to clone.
#[derive(Clone)]
pub struct HubClient {
    http: reqwest::Client,
    base: String,
    secret: String,
}

impl std::fmt::Debug for HubClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HubClient").field("base", &self.base).finish_non_exhaustive()
    }
}

impl HubClient {
    /// `base` is the hub's HTTP base URL (`http://127.0.0.1:8100`).
    pub fn new(base: &str, secret: &[u8]) -> HubClient {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(5)).build().unwrap_or_default();
        HubClient { http, base: base.trim_end_matches('/').to_owned(), secret: String::from_utf8_lossy(secret).into_owned() }
    }

    async fn check(response: reqwest::Response) -> Result<reqwest::Response, HubError> {
        if response.status().is_success() {
            return Ok(response);
        }
        let status = response.status().as_u16();
        Err(HubError::Refused { status, body: response.text().await.unwrap_or_default() })
    }

    /// Publishes a state event; returns its sequence number.
    pub async fn publish(&self, appointment_id: &str, audience: Audience, event: Event) -> Result<u64, HubError> {
        let request = PublishRequest { appointment_id: appointment_id.to_owned(), audience, event };
        let response = self.http.post(format!("{}/internal/publish", self.base)).bearer_auth(&self.secret).json(&request).send().await?;
        Ok(Self::check(response).await?.json::<PublishResponse>().await?.seq)
    }

    /// The live state as a guide sees it (with every participant).
    pub async fn state(&self, appointment_id: &str) -> Result<Snapshot, HubError> {
        self.state_as(appointment_id, "GUIDE").await
    }

    /// The live state as a client sees it: small however many participants there are.
    pub async fn client_state(&self, appointment_id: &str) -> Result<Snapshot, HubError> {
        self.state_as(appointment_id, "CLIENT").await
    }

    /// The live state as one attendee sees it (with its own cart permission).
    pub async fn attendee_state(&self, appointment_id: &str, attendee_id: &str) -> Result<Snapshot, HubError> {
        self.state_as(appointment_id, &format!("CLIENT&attendeeId={attendee_id}")).await
    }

    async fn state_as(&self, appointment_id: &str, role: &str) -> Result<Snapshot, HubError> {
        let url = format!("{}/internal/appointments/{appointment_id}/state?role={role}", self.base);
        let response = self.http.get(url).bearer_auth(&self.secret).send().await?;
        Ok(Self::check(response).await?.json().await?)
    }
}
