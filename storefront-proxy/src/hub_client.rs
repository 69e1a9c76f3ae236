//! The hub's internal API as storefront-proxy uses it: publish state events (start, end,
//! settings, removals …) and read the live state.
//!
//! Events whose outcome a request does not depend on (an attendee's cart, likes and
//! wishlist) go through [`HubClient::publish_later`]: one background task publishes
//! them one after the other, so they reach the hub in the order they were queued
//! (per attendee and overall) while the shop request answers at once, even when the
//! hub hangs. The queue is bounded; when it is full an event is dropped and logged.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::http::StatusCode;
use tokio::sync::mpsc;

use protocol::frame::Event;
use protocol::internal::{
    AttendeeProfileRequest, AttendeeProfileResponse, Audience, PublishRequest, PublishResponse,
};
use protocol::state::Snapshot;

use crate::error::ApiError;

#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error("the hub is not reachable: {0}")]
    Unreachable(#[from] reqwest::Error),
    #[error("the hub answered {status}: {body}")]
    Refused { status: u16, body: String },
}

/// The answer to a request the hub did not take: `503` `SALESROOM__HUB_UNAVAILABLE`,
/// the cause logged.
pub fn hub_unavailable(error: HubError) -> ApiError {
    tracing::warn!(%error, "the hub did not take an event");
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "SALESROOM__HUB_UNAVAILABLE",
        "The live hub is not available. Please try again.",
    )
}

/// How many events may wait for the hub before new ones are dropped.
pub const PUBLISH_QUEUE: usize = 4096;

/// Cheap to clone.
#[derive(Clone)]
pub struct HubClient {
    http: reqwest::Client,
    base: String,
    secret: String,
    /// The background publisher's queue, started with the first queued event.
    queue: Arc<OnceLock<mpsc::Sender<PublishRequest>>>,
    dropped: Arc<AtomicU64>,
}

impl std::fmt::Debug for HubClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HubClient")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl HubClient {
    /// `base` is the hub's HTTP base URL (`http://127.0.0.1:8100`).
    pub fn new(base: &str, secret: &[u8]) -> HubClient {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(5))
            .build()
            .unwrap_or_default();
        HubClient {
            http,
            base: base.trim_end_matches('/').to_owned(),
            secret: String::from_utf8_lossy(secret).into_owned(),
            queue: Arc::default(),
            dropped: Arc::default(),
        }
    }

    async fn check(response: reqwest::Response) -> Result<reqwest::Response, HubError> {
        if response.status().is_success() {
            return Ok(response);
        }
        let status = response.status().as_u16();
        Err(HubError::Refused {
            status,
            body: response.text().await.unwrap_or_default(),
        })
    }

    /// Publishes a state event; returns its sequence number.
    pub async fn publish(
        &self,
        appointment_id: &str,
        audience: Audience,
        event: Event,
    ) -> Result<u64, HubError> {
        self.send(&PublishRequest {
            appointment_id: appointment_id.to_owned(),
            audience,
            event,
        })
        .await
    }

    async fn send(&self, request: &PublishRequest) -> Result<u64, HubError> {
        let response = self
            .http
            .post(format!("{}/internal/publish", self.base))
            .bearer_auth(&self.secret)
            .json(request)
            .send()
            .await?;
        Ok(Self::check(response)
            .await?
            .json::<PublishResponse>()
            .await?
            .seq)
    }

    /// Queues a state event for the background publisher and returns at once. Events
    /// reach the hub in the order they were queued; one the hub does not take is
    /// logged and not retried (the next change of the same thing carries it again).
    /// Must be called inside the tokio runtime.
    pub fn publish_later(&self, appointment_id: &str, audience: Audience, event: Event) {
        let request = PublishRequest {
            appointment_id: appointment_id.to_owned(),
            audience,
            event,
        };
        let queue = self.queue.get_or_init(|| {
            let (sender, receiver) = mpsc::channel(PUBLISH_QUEUE);
            // Without the queue: the task ends once every client (sender) is gone.
            let publisher = HubClient {
                queue: Arc::default(),
                ..self.clone()
            };
            tokio::spawn(publisher.publish_queued(receiver));
            sender
        });
        if let Err(error) = queue.try_send(request) {
            let dropped = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
            let request = match &error {
                mpsc::error::TrySendError::Full(request)
                | mpsc::error::TrySendError::Closed(request) => request,
            };
            tracing::warn!(
                appointment = %request.appointment_id,
                event = ?request.event,
                dropped,
                "the hub publish queue is full ({PUBLISH_QUEUE} waiting): an event was dropped"
            );
        }
    }

    /// How many queued events were dropped because the queue was full.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Publishes the queued events one at a time, in order, until every sender is gone.
    async fn publish_queued(self, mut queue: mpsc::Receiver<PublishRequest>) {
        while let Some(request) = queue.recv().await {
            if let Err(error) = self.send(&request).await {
                tracing::warn!(%error, appointment = %request.appointment_id, event = ?request.event, "could not publish a queued event");
            }
        }
    }

    /// Tells the hub an attendee's new name or video user id (`None`: unchanged); the hub
    /// merges it into the live participant list. Returns the published sequence number,
    /// `None` when the attendee is not live yet or nothing changed.
    pub async fn update_attendee_profile(
        &self,
        request: &AttendeeProfileRequest,
    ) -> Result<Option<u64>, HubError> {
        let response = self
            .http
            .post(format!("{}/internal/attendee-profile", self.base))
            .bearer_auth(&self.secret)
            .json(request)
            .send()
            .await?;
        Ok(Self::check(response)
            .await?
            .json::<AttendeeProfileResponse>()
            .await?
            .seq)
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
    pub async fn attendee_state(
        &self,
        appointment_id: &str,
        attendee_id: &str,
    ) -> Result<Snapshot, HubError> {
        self.state_as(appointment_id, &format!("CLIENT&attendeeId={attendee_id}"))
            .await
    }

    /// What the hub kept of the session for its report (attendance, samples, chat).
    pub async fn session(
        &self,
        appointment_id: &str,
    ) -> Result<protocol::session::SessionRecord, HubError> {
        let url = format!(
            "{}/internal/appointments/{appointment_id}/session",
            self.base
        );
        let response = self.http.get(url).bearer_auth(&self.secret).send().await?;
        Ok(Self::check(response).await?.json().await?)
    }

    /// Deletes the appointment's video room on the video server: everyone in it is
    /// disconnected (the hub answers 204, also when it has no video server).
    pub async fn delete_video_room(&self, appointment_id: &str) -> Result<(), HubError> {
        let url = format!(
            "{}/internal/appointments/{appointment_id}/video-room",
            self.base
        );
        Self::check(
            self.http
                .delete(url)
                .bearer_auth(&self.secret)
                .send()
                .await?,
        )
        .await?;
        Ok(())
    }

    async fn state_as(&self, appointment_id: &str, role: &str) -> Result<Snapshot, HubError> {
        let url = format!(
            "{}/internal/appointments/{appointment_id}/state?role={role}",
            self.base
        );
        let response = self.http.get(url).bearer_auth(&self.secret).send().await?;
        Ok(Self::check(response).await?.json().await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_queue_drops_and_counts_what_does_not_fit() {
        // Nothing listens there; the publisher does not run before the test yields.
        let hub = HubClient::new("http://127.0.0.1:9", b"secret");
        let event = || Event::AttendeeRemoved {
            attendee_id: "a".repeat(32),
        };
        for _ in 0..PUBLISH_QUEUE {
            hub.publish_later(&"b".repeat(32), Audience::Everyone, event());
        }
        assert_eq!(hub.dropped(), 0);
        hub.publish_later(&"b".repeat(32), Audience::Everyone, event());
        hub.clone()
            .publish_later(&"b".repeat(32), Audience::Everyone, event());
        assert_eq!(hub.dropped(), 2, "clones share one queue");
    }
}
