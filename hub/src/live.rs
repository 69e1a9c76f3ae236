//! Live appointments: one [`Room`] per appointment, found through [`Rooms`], and the one
//! path every change takes, [`submit`]: the policy decides, the room's order publishes,
//! the effects follow. Nothing here knows a socket ([`crate::ws`] is above it).
//!
//! - [`room`]: a room's state (`Inner`: live state, log, subscribers, engagement) and
//!   the [`Order`] trait; [`subscribers`] its connections.
//! - [`local`] / [`replicated`]: the two orders (single mode: SQLite; cluster: Redis).
//! - [`policy`]: who may do what, as a pure function.
//! - [`effects`]: what follows outside the room (LiveKit, disconnects, video grants,
//!   presence).
//! - [`outbound`]: what the room queues for a subscriber and how it reaches the writer.
//! - [`engagement`] / [`tick`]: what a room's engagement tick sends, and the tick task.
//! - [`queue`]: a connection's bounded send queue.

pub mod effects;
pub mod engagement;
pub mod local;
pub mod outbound;
pub mod policy;
pub mod queue;
pub mod replicated;
pub mod room;
pub mod subscribers;
pub mod tick;

use std::sync::Arc;

use dashmap::DashMap;
use protocol::action::Action;
use protocol::Role;

pub use outbound::{Outbound, Outlet, Queued, Scheduled, SharedEvent, SharedVolatile};
pub use policy::{Caller, Decision, Request};
pub use room::{Attached, Audience, Order, Room, RoomSettings, Submitted};
pub use subscribers::Subscriber;

use crate::store::StoreError;

/// The shortest sampling interval of [`Rooms::spawn_session_sampler`].
pub const MIN_SESSION_SAMPLE_MS: u64 = 100;
use crate::video::LiveKit;

/// All live rooms of this hub, by appointment id. Cheap to clone.
#[derive(Clone)]
pub struct Rooms {
    rooms: Arc<DashMap<String, Arc<Room>>>,
    /// Held while a room is opened, so each appointment gets one room.
    opening: Arc<tokio::sync::Mutex<()>>,
    order: Arc<dyn Order>,
    settings: RoomSettings,
}

impl Rooms {
    pub fn new(order: Arc<dyn Order>, settings: RoomSettings) -> Self {
        let settings = RoomSettings {
            retained_events: settings.retained_events.max(1),
            ..settings
        };
        Rooms {
            rooms: Arc::new(DashMap::new()),
            opening: Arc::default(),
            order,
            settings,
        }
    }

    /// An open room.
    pub fn get(&self, appointment_id: &str) -> Option<Arc<Room>> {
        self.rooms.get(appointment_id).map(|room| room.clone())
    }

    pub fn all(&self) -> Vec<Arc<Room>> {
        self.rooms.iter().map(|room| room.clone()).collect()
    }

    /// The room of an appointment, opened from its history on first use.
    pub async fn get_or_open(&self, appointment_id: &str) -> Result<Arc<Room>, StoreError> {
        if let Some(room) = self.get(appointment_id) {
            return Ok(room);
        }
        let _opening = self.opening.lock().await;
        if let Some(room) = self.get(appointment_id) {
            return Ok(room);
        }
        let room = Arc::new(
            self.order
                .clone()
                .open(appointment_id.to_owned(), self.settings.clone())
                .await?,
        );
        self.rooms.insert(appointment_id.to_owned(), room.clone());
        self.order.catch_up(&room).await?;
        Ok(room)
    }

    pub fn len(&self) -> usize {
        self.rooms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rooms.is_empty()
    }

    /// Samples every open room's session every `sample_ms` (at least 100) until the hub
    /// goes ([`Room::sample_session`]): what the session report reads of reactions and
    /// cart values, written into the room's log.
    pub fn spawn_session_sampler(&self, sample_ms: u64) {
        let rooms = self.clone();
        let sample_ms = sample_ms.max(MIN_SESSION_SAMPLE_MS);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_millis(sample_ms));
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                for room in rooms.all() {
                    if let Err(error) = room.sample_session(sample_ms, policy::now_ms()).await {
                        tracing::warn!(%error, appointment_id = %room.appointment_id, "could not write a session sample");
                    }
                }
            }
        });
    }

    pub fn connections(&self) -> usize {
        self.rooms.iter().map(|room| room.subscriber_count()).sum()
    }
}

/// Decides `request` (see [`policy::decide`]), carries the decision out in `room`, and
/// runs what follows a published event ([`effects::after_publish`]). Participants'
/// frames and the shop's internal calls all come through here.
pub async fn submit(
    room: &Arc<Room>,
    video: Option<&LiveKit>,
    caller: Caller<'_>,
    request: Request,
) -> Result<Submitted, StoreError> {
    if moderates_chat(&request) {
        // The chat messages taken before a guide's moderation are ordered before it (a
        // guide who writes "closing the chat" and closes it is read in that order).
        room.flush_chat().await?;
    } else if matches!(caller, Caller::Participant(claims) if claims.role == Role::Guide) {
        // What the chat said since the last write goes out with the guide's event
        // (a slide change) in a large room, a slice per event (see
        // [`Room::flush_chat_to_next_write`]). When it cannot be posted now, the tick
        // posts it; the guide's event does not wait for that.
        if let Err(error) = room.flush_chat_to_next_write().await {
            tracing::warn!(%error, appointment_id = %room.appointment_id, "could not post the chat's batch before a guide's event");
        }
    }
    let submitted = room
        .submit(|state| policy::decide(caller, state, request, policy::now_ms()))
        .await?;
    if let Submitted::Published { event, .. } = &submitted {
        effects::after_publish(room, video, event);
    }
    Ok(submitted)
}

/// Whether `request` changes the chat's moderation (see [`submit`]).
fn moderates_chat(request: &Request) -> bool {
    matches!(
        request,
        Request::Action(
            Action::DeleteChatMessage { .. }
                | Action::PinChatMessage { .. }
                | Action::SetChatSettings { .. }
                | Action::SetChatBlockedWords { .. }
                | Action::ModerateChatAttendee { .. }
        )
    )
}
