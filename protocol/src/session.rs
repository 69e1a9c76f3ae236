//! The session record (issue #19, item 5): what the session report needs of a live
//! session that no single moment of the live state holds, folded by the reducer
//! ([`crate::live_state::LiveState::apply`]) from the appointment's ordered events, and
//! kept in the hub's snapshots with the rest of the state. Nobody in the room is sent it;
//! storefront-proxy reads it through the hub's internal API for the report.
//!
//! - Attendance: a point each time the number of clients who joined or are connected
//!   changes, from the presence changes (`attendeeChanged`) the hub orders anyway, timed
//!   by the change's `lastActiveAt` (to the second; changes in the same second share one
//!   point).
//! - Reactions and cart value: taps are volatile and the shop's cart changes carry no
//!   time, so the hub writes a [`SessionSample`] into the log while the session has
//!   started (`sessionSampled`, guides only), at most one per sampling interval and only
//!   when something changed: the taps summed since the last sample, and the sum of the
//!   attendees' cart values (folded here from `attendeeCartChanged`).
//! - Chat activity: messages posted per minute, deleted ones included (the chat itself
//!   keeps only its newest messages).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::engagement::ReactionCounts;
use crate::state::{AttendeeSummary, Id};
use crate::status::{ConnectionState, Role};

/// Attendance points kept; later changes replace the last point.
pub const MAX_ATTENDANCE_POINTS: usize = 10_000;
/// Samples kept (24 hours at one per 30 seconds); later ones are added into the last.
pub const MAX_SAMPLES: usize = 2_880;
/// Minutes of chat activity kept; later messages count in the last minute.
pub const MAX_CHAT_MINUTES: usize = 1_440;

/// The hub's sample of a running session, written into the log (`sessionSampled`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SessionSample {
    /// When it was taken (RFC 3339, UTC, to the second).
    pub at: String,
    /// The sampling interval it belongs to (milliseconds since 1970 divided by the
    /// interval): a replica's sample for an interval already sampled is ignored.
    pub bucket: u64,
    /// Reaction taps since the previous sample.
    pub reactions: ReactionCounts,
    /// The sum of the attendees' cart values when it was taken.
    pub cart_value: f64,
}

/// The number of clients who joined and who are connected, from a moment on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttendancePoint {
    /// RFC 3339, UTC, to the second.
    pub at: String,
    /// Clients in the participant list (connected or not; removed ones leave it).
    pub joined: u32,
    pub connected: u32,
}

/// What the reducer keeps of a session for its report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SessionRecord {
    pub attendance: Vec<AttendancePoint>,
    pub samples: Vec<SessionSample>,
    /// Chat messages posted per minute (minutes since 1970).
    pub chat_per_minute: BTreeMap<u64, u32>,
    /// Every attendee's cart value, from the shop's latest `attendeeCartChanged`.
    pub cart_values: BTreeMap<Id, f64>,
    /// Clients in the participant list, and of them the connected ones, now.
    pub joined: u32,
    pub connected: u32,
}

/// Whether a participant counts as a joined client, and as a connected one.
fn counts(p: Option<&AttendeeSummary>) -> (u32, u32) {
    match p {
        Some(p) if p.role == Role::Client => (
            1,
            u32::from(matches!(
                p.connection,
                ConnectionState::Connected | ConnectionState::Reconnected
            )),
        ),
        _ => (0, 0),
    }
}

/// `at` to the second (`2026-01-05T10:00:07.123Z` → `2026-01-05T10:00:07Z`).
fn to_second(at: &str) -> Option<String> {
    let second = at.get(..19)?;
    at.ends_with('Z').then(|| format!("{second}Z"))
}

impl SessionRecord {
    /// A participant entry changed from `before` to `after` (either absent: joined or
    /// removed), at `at` when known.
    pub fn participant_changed(
        &mut self,
        before: Option<&AttendeeSummary>,
        after: Option<&AttendeeSummary>,
        at: Option<&str>,
    ) {
        let ((joined_before, connected_before), (joined_after, connected_after)) =
            (counts(before), counts(after));
        if (joined_before, connected_before) == (joined_after, connected_after) {
            return;
        }
        self.joined = (self.joined + joined_after).saturating_sub(joined_before);
        self.connected = (self.connected + connected_after).saturating_sub(connected_before);
        // Never before the last point: a change stamped earlier (a participant the hub
        // marks lost as it reopens the room, stamped when last active) counts from the
        // last point on, so the points stay in time order.
        let last = self.attendance.last().map(|p| p.at.as_str());
        let at = match (at.and_then(to_second), last) {
            (Some(at), Some(last)) if at.as_str() < last => Some(last.to_owned()),
            (Some(at), _) => Some(at),
            (None, last) => last.map(str::to_owned),
        };
        let Some(at) = at else { return };
        let point = AttendancePoint {
            at,
            joined: self.joined,
            connected: self.connected,
        };
        let full = self.attendance.len() >= MAX_ATTENDANCE_POINTS;
        match self.attendance.last_mut() {
            Some(last) if last.at == point.at || full => {
                last.joined = point.joined;
                last.connected = point.connected;
            }
            _ => self.attendance.push(point),
        }
    }

    pub fn cart_changed(&mut self, attendee_id: &str, total_price: f64) {
        if total_price > 0.0 {
            self.cart_values.insert(attendee_id.to_owned(), total_price);
        } else {
            self.cart_values.remove(attendee_id);
        }
    }

    /// The sum of the attendees' cart values now.
    pub fn cart_value(&self) -> f64 {
        // Cents, so that the sum does not drift with the order of additions.
        let cents: i64 = self
            .cart_values
            .values()
            .map(|v| (v * 100.0).round() as i64)
            .sum();
        cents as f64 / 100.0
    }

    pub fn chat_posted(&mut self, sent_at_ms: u64) {
        let minute = sent_at_ms / 60_000;
        let minute = match self.chat_per_minute.last_key_value() {
            Some((&last, _)) if self.chat_per_minute.len() >= MAX_CHAT_MINUTES && minute > last => {
                last
            }
            _ => minute,
        };
        *self.chat_per_minute.entry(minute).or_default() += 1;
    }

    /// The bucket of the newest sample (0: none yet).
    pub fn last_bucket(&self) -> u64 {
        self.samples.last().map_or(0, |s| s.bucket)
    }

    pub fn sampled(&mut self, sample: &SessionSample) {
        if sample.bucket <= self.last_bucket() {
            return;
        }
        let full = self.samples.len() >= MAX_SAMPLES;
        match self.samples.last_mut() {
            Some(last) if full => {
                last.reactions.add(sample.reactions);
                last.cart_value = sample.cart_value;
                last.at = sample.at.clone();
                last.bucket = sample.bucket;
            }
            _ => self.samples.push(sample.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::{AttendeeStatus, CartPermission};

    fn client(connection: ConnectionState) -> AttendeeSummary {
        AttendeeSummary {
            attendee_id: "a".repeat(32),
            role: Role::Client,
            attendee_name: None,
            video_user_id: None,
            has_joined: true,
            status: AttendeeStatus::Joined,
            connection,
            cart_permission: CartPermission::Missing,
            last_active_at: None,
        }
    }

    #[test]
    fn attendance_follows_joins_and_leaves_one_point_per_second() {
        let mut record = SessionRecord::default();
        let (connected, lost) = (
            client(ConnectionState::Connected),
            client(ConnectionState::Lost),
        );
        record.participant_changed(None, Some(&connected), Some("2026-01-05T10:00:01.5Z"));
        record.participant_changed(
            Some(&connected),
            Some(&lost),
            Some("2026-01-05T10:00:09.1Z"),
        );
        record.participant_changed(
            Some(&lost),
            Some(&connected),
            Some("2026-01-05T10:00:09.7Z"),
        );
        record.participant_changed(Some(&connected), Some(&lost), Some("2026-01-05T10:00:12Z"));
        record.participant_changed(Some(&lost), None, Some("2026-01-05T10:00:13Z"));
        let points: Vec<(&str, u32, u32)> = record
            .attendance
            .iter()
            .map(|p| (p.at.as_str(), p.joined, p.connected))
            .collect();
        assert_eq!(
            points,
            [
                ("2026-01-05T10:00:01Z", 1, 1),
                ("2026-01-05T10:00:09Z", 1, 1),
                ("2026-01-05T10:00:12Z", 1, 0),
                ("2026-01-05T10:00:13Z", 0, 0)
            ]
        );
    }

    #[test]
    fn a_change_stamped_before_the_last_point_counts_from_it() {
        let mut record = SessionRecord::default();
        let (connected, lost) = (
            client(ConnectionState::Connected),
            client(ConnectionState::Lost),
        );
        let other = AttendeeSummary {
            attendee_id: "b".repeat(32),
            ..connected.clone()
        };
        record.participant_changed(None, Some(&connected), Some("2026-01-05T10:00:01Z"));
        record.participant_changed(None, Some(&other), Some("2026-01-05T10:00:05Z"));
        // Marked lost, stamped when it was last active.
        record.participant_changed(Some(&connected), Some(&lost), Some("2026-01-05T10:00:01Z"));
        let points: Vec<(&str, u32, u32)> = record
            .attendance
            .iter()
            .map(|p| (p.at.as_str(), p.joined, p.connected))
            .collect();
        assert_eq!(
            points,
            [
                ("2026-01-05T10:00:01Z", 1, 1),
                ("2026-01-05T10:00:05Z", 2, 1)
            ]
        );
    }

    #[test]
    fn a_sample_of_an_interval_already_sampled_is_ignored_and_cart_values_sum_in_cents() {
        let mut record = SessionRecord::default();
        record.cart_changed("a", 0.1);
        record.cart_changed("b", 0.2);
        assert_eq!(record.cart_value(), 0.3);
        record.cart_changed("a", 0.0);
        assert_eq!(record.cart_value(), 0.2);
        let sample = |bucket, heart| SessionSample {
            at: "2026-01-05T10:00:00Z".into(),
            bucket,
            reactions: ReactionCounts {
                heart,
                ..Default::default()
            },
            cart_value: 0.0,
        };
        record.sampled(&sample(5, 1));
        record.sampled(&sample(5, 7));
        record.sampled(&sample(6, 2));
        assert_eq!(
            record
                .samples
                .iter()
                .map(|s| s.reactions.heart)
                .collect::<Vec<_>>(),
            [1, 2]
        );
    }
}
