//! Durable room history for single mode: every state event is written to SQLite under
//! `DATA_DIR` before it is applied or sent, plus a periodic snapshot, so a restarted hub
//! comes back with the same state, sequence numbers and epoch.

use std::path::Path;
use std::sync::Mutex;

use protocol::frame::Event;
use protocol::internal::Audience;
use protocol::live_state::LiveState;
use rusqlite::{params, Connection, OptionalExtension};
use rusqlite_migration::{Migrations, M};
use serde::{Deserialize, Serialize};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("room storage: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("room storage: {0}")]
    Json(#[from] serde_json::Error),
    #[error("room storage: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error("room storage: {0}")]
    Io(#[from] std::io::Error),
    #[error("room storage (Redis): {0}")]
    Redis(#[from] redis::RedisError),
    #[error("room storage (Redis): {0}")]
    Corrupt(String),
    /// Redis no longer holds the history this replica applied (flushed, or restarted
    /// without its data); nothing was published.
    #[error("room storage (Redis): the appointment's history is gone from Redis")]
    Forgotten,
}

/// Events a room's replay log keeps at least per participant it has known: a reconnect
/// storm (a replica draining, every attendee moving to another) writes two presence
/// events per attendee, and an attendee resuming after it must still find its last event.
pub const RETAINED_EVENTS_PER_PARTICIPANT: usize = 3;

/// How many events a room with `participants` keeps for resuming clients: the configured
/// window (`HUB_RETAINED_EVENTS`), or more in big rooms
/// ([`RETAINED_EVENTS_PER_PARTICIPANT`] each), so that resuming after a reconnect storm
/// replays instead of falling back to a snapshot.
pub fn retained_events(configured: usize, participants: usize) -> usize {
    configured.max(RETAINED_EVENTS_PER_PARTICIPANT.saturating_mul(participants))
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredEvent {
    pub seq: u64,
    pub audience: Audience,
    pub event: Event,
}

/// What is known of a room: its epoch, its latest snapshot, and the events after it
/// (at least the `retained` newest ones, for resuming clients).
pub struct StoredRoom {
    pub epoch: String,
    pub snapshot_seq: u64,
    pub snapshot: LiveState,
    pub events: Vec<StoredEvent>,
}

pub struct Store {
    // Taken only for single statements or short transactions, never across an await.
    conn: Mutex<Connection>,
}

fn migrations() -> Migrations<'static> {
    Migrations::new(vec![M::up(
        "CREATE TABLE room (
             appointment_id TEXT PRIMARY KEY,
             epoch TEXT NOT NULL,
             snapshot_seq INTEGER NOT NULL DEFAULT 0,
             snapshot TEXT NOT NULL
         );
         CREATE TABLE event (
             appointment_id TEXT NOT NULL,
             seq INTEGER NOT NULL,
             audience TEXT NOT NULL,
             event TEXT NOT NULL,
             PRIMARY KEY (appointment_id, seq)
         ) WITHOUT ROWID;",
    )])
}

impl Store {
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // Durable across a crash of the process (the failure the hub must survive);
        // an OS crash may lose the last commits.
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        migrations().to_latest(&mut conn)?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    /// An in-memory store, for tests that do not restart.
    pub fn in_memory() -> Result<Store, StoreError> {
        let mut conn = Connection::open_in_memory()?;
        migrations().to_latest(&mut conn)?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Loads a room, or creates it with `new_epoch`.
    pub fn load_or_create(
        &self,
        appointment_id: &str,
        new_epoch: &str,
        retained: usize,
    ) -> Result<StoredRoom, StoreError> {
        let conn = self.conn();
        let found: Option<(String, u64, String)> = conn
            .query_row(
                "SELECT epoch, snapshot_seq, snapshot FROM room WHERE appointment_id = ?1",
                [appointment_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        let Some((epoch, snapshot_seq, snapshot)) = found else {
            let empty = serde_json::to_string(&LiveState::default())?;
            conn.execute(
                "INSERT INTO room (appointment_id, epoch, snapshot_seq, snapshot) VALUES (?1, ?2, 0, ?3)",
                params![appointment_id, new_epoch, empty],
            )?;
            return Ok(StoredRoom {
                epoch: new_epoch.to_owned(),
                snapshot_seq: 0,
                snapshot: LiveState::default(),
                events: Vec::new(),
            });
        };
        let snapshot: LiveState = serde_json::from_str(&snapshot)?;
        // Everything after the snapshot, and the retained window before it.
        let mut statement = conn.prepare("SELECT seq, audience, event FROM event WHERE appointment_id = ?1 AND seq > ?2 ORDER BY seq")?;
        let from = snapshot_seq
            .saturating_sub(retained_events(retained, snapshot.participants.len()) as u64);
        let events = statement
            .query_map(params![appointment_id, from], |r| {
                Ok((
                    r.get::<_, u64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })?
            .map(|row| {
                let (seq, audience, event) = row?;
                Ok(StoredEvent {
                    seq,
                    audience: serde_json::from_str(&audience)?,
                    event: serde_json::from_str(&event)?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(StoredRoom {
            epoch,
            snapshot_seq,
            snapshot,
            events,
        })
    }

    /// Writes one event. Nothing is applied or sent before this returns Ok.
    pub fn append(&self, appointment_id: &str, event: &StoredEvent) -> Result<(), StoreError> {
        let audience = serde_json::to_string(&event.audience)?;
        let body = serde_json::to_string(&event.event)?;
        // Cached: this runs for every event, under the room's lock.
        self.conn()
            .prepare_cached(
                "INSERT INTO event (appointment_id, seq, audience, event) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![appointment_id, event.seq, audience, body])?;
        Ok(())
    }

    /// Replaces the snapshot, unless a newer one is stored already (snapshots are written
    /// outside the room lock), and forgets events no longer needed for it or for
    /// resuming.
    pub fn snapshot(
        &self,
        appointment_id: &str,
        seq: u64,
        state: &LiveState,
        retained: usize,
    ) -> Result<(), StoreError> {
        let body = serde_json::to_string(state)?;
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "UPDATE room SET snapshot_seq = ?2, snapshot = ?3 WHERE appointment_id = ?1 AND snapshot_seq < ?2",
            params![appointment_id, seq, body],
        )?;
        tx.execute(
            "DELETE FROM event WHERE appointment_id = ?1 AND seq <= ?2",
            params![
                appointment_id,
                seq.saturating_sub(retained_events(retained, state.participants.len()) as u64)
            ],
        )?;
        tx.commit()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use protocol::live_state::LiveState;
    use protocol::state::AttendeeSummary;
    use protocol::{AttendeeStatus, CartPermission, ConnectionState, Role};

    #[test]
    fn a_snapshot_written_before_removals_were_kept_loads_with_none_and_participants_travel_as_a_list(
    ) {
        let old = r#"{"stateForAll":{},"stateForClients":{},"participants":[]}"#;
        let state: LiveState = serde_json::from_str(old).unwrap();
        assert!(state.removed.is_empty());
        let mut state = LiveState::default();
        state.removed.insert("a".repeat(32));
        let ada = AttendeeSummary {
            attendee_id: "b".repeat(32),
            role: Role::Client,
            attendee_name: Some("Ada".into()),
            video_user_id: None,
            has_joined: true,
            status: AttendeeStatus::Joined,
            connection: ConnectionState::Connected,
            cart_permission: CartPermission::Missing,
            last_active_at: None,
        };
        state
            .participants
            .insert(ada.attendee_id.clone(), Arc::new(ada));
        let json = serde_json::to_value(&state).unwrap();
        assert_eq!(
            json["participants"][0]["attendeeId"],
            "b".repeat(32),
            "{json}"
        );
        let again: LiveState = serde_json::from_value(json).unwrap();
        assert_eq!(again, state);
    }
}
