//! Live appointments: one [`Room`] per appointment, found through [`Rooms`].

pub mod room;

use std::sync::Arc;

use dashmap::DashMap;

pub use room::{Attached, Audience, Outbound, Room, Subscriber};

/// All live rooms of this hub, by appointment id. Cheap to clone.
#[derive(Clone)]
pub struct Rooms {
    rooms: Arc<DashMap<String, Arc<Room>>>,
    retained_events: usize,
}

impl Rooms {
    pub fn new(retained_events: usize) -> Self {
        Rooms { rooms: Arc::new(DashMap::new()), retained_events: retained_events.max(1) }
    }

    /// The room of an appointment, created empty on first use.
    pub fn get_or_create(&self, appointment_id: &str) -> Arc<Room> {
        if let Some(room) = self.rooms.get(appointment_id) {
            return room.clone();
        }
        self.rooms
            .entry(appointment_id.to_owned())
            .or_insert_with(|| Arc::new(Room::new(appointment_id.to_owned(), self.retained_events)))
            .clone()
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
