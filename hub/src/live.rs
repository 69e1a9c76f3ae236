//! Live appointments: one [`Room`] per appointment, found through [`Rooms`].

pub mod room;

use std::sync::Arc;

use dashmap::DashMap;

pub use room::{Attached, Audience, Outbound, Room, Subscriber};

use crate::store::{Store, StoreError};

/// All live rooms of this hub, by appointment id. Cheap to clone.
#[derive(Clone)]
pub struct Rooms {
    rooms: Arc<DashMap<String, Arc<Room>>>,
    store: Arc<Store>,
    retained_events: usize,
}

impl Rooms {
    pub fn new(store: Arc<Store>, retained_events: usize) -> Self {
        Rooms { rooms: Arc::new(DashMap::new()), store, retained_events: retained_events.max(1) }
    }

    /// The room of an appointment, opened from the store on first use.
    pub fn get_or_open(&self, appointment_id: &str) -> Result<Arc<Room>, StoreError> {
        if let Some(room) = self.rooms.get(appointment_id) {
            return Ok(room.clone());
        }
        // The entry lock makes sure one room is opened per appointment.
        match self.rooms.entry(appointment_id.to_owned()) {
            dashmap::Entry::Occupied(room) => Ok(room.get().clone()),
            dashmap::Entry::Vacant(slot) => {
                let room = Arc::new(Room::open(appointment_id.to_owned(), self.retained_events, self.store.clone())?);
                Ok(slot.insert(room).clone())
            }
        }
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
