//! Live appointments: one [`Room`] per appointment, found through [`Rooms`].

pub mod queue;
pub mod room;

use std::sync::Arc;

use dashmap::DashMap;

pub use room::{Attached, Audience, Backend, Outbound, Queued, Room, RoomSettings, SharedEvent, SharedVolatile, Subscriber};

use crate::store::StoreError;

/// All live rooms of this hub, by appointment id. Cheap to clone.
#[derive(Clone)]
pub struct Rooms {
    rooms: Arc<DashMap<String, Arc<Room>>>,
    /// Held while a room is opened, so each appointment gets one room.
    opening: Arc<tokio::sync::Mutex<()>>,
    backend: Backend,
    settings: RoomSettings,
}

impl Rooms {
    pub fn new(backend: Backend, settings: RoomSettings) -> Self {
        let settings = RoomSettings { retained_events: settings.retained_events.max(1), ..settings };
        Rooms { rooms: Arc::new(DashMap::new()), opening: Arc::default(), backend, settings }
    }

    /// An open room.
    pub fn get(&self, appointment_id: &str) -> Option<Arc<Room>> {
        self.rooms.get(appointment_id).map(|room| room.clone())
    }

    pub fn all(&self) -> Vec<Arc<Room>> {
        self.rooms.iter().map(|room| room.clone()).collect()
    }

    /// The room of an appointment, opened from the store (or Redis) on first use.
    pub async fn get_or_open(&self, appointment_id: &str) -> Result<Arc<Room>, StoreError> {
        if let Some(room) = self.get(appointment_id) {
            return Ok(room);
        }
        let _opening = self.opening.lock().await;
        if let Some(room) = self.get(appointment_id) {
            return Ok(room);
        }
        let id = appointment_id.to_owned();
        let room = Arc::new(match &self.backend {
            Backend::Local(store) => Room::open_local(id, &self.settings, store.clone())?,
            Backend::Cluster(cluster) => Room::open_cluster(id, &self.settings, cluster.clone()).await?,
        });
        self.rooms.insert(appointment_id.to_owned(), room.clone());
        if let Backend::Cluster(cluster) = &self.backend {
            // Events published while the room was loading were not delivered to it.
            room.catch_up(cluster).await?;
        }
        Ok(room)
    }

    pub fn len(&self) -> usize {
        self.rooms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rooms.is_empty()
    }

    pub fn connections(&self) -> usize {
        self.rooms.iter().map(|room| room.subscriber_count()).sum()
    }
}

/// What follows an event outside the room: connections of a removed attendee are
/// closed, and LiveKit is told about removals and mute-all.
pub fn after_publish(room: &Arc<Room>, video: Option<&crate::video::LiveKit>, event: &protocol::frame::Event) {
    use protocol::frame::{close_code, Event};
    match event {
        Event::AttendeeRemoved { attendee_id } => {
            room.disconnect_attendee(attendee_id, close_code::REMOVED);
            if let Some(video) = video.cloned() {
                let (room_id, identity) = (room.appointment_id.clone(), attendee_id.clone());
                tokio::spawn(async move {
                    if let Err(error) = video.remove_participant(&room_id, &identity).await {
                        tracing::warn!(%error, appointment_id = %room_id, "LiveKit did not remove a participant");
                    }
                });
            }
        }
        Event::MuteAllChanged { muted: true } => {
            if let Some(video) = video.cloned() {
                let (room_id, guides) = (room.appointment_id.clone(), room.guide_ids());
                tokio::spawn(async move {
                    match video.mute_all(&room_id, &guides).await {
                        Ok(count) => tracing::info!(appointment_id = %room_id, count, "muted all attendees"),
                        Err(error) => tracing::warn!(%error, appointment_id = %room_id, "LiveKit did not mute all"),
                    }
                });
            }
        }
        _ => {}
    }
}
