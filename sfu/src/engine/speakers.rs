//! Who is speaking: from the audio level a client writes into each audio packet (the
//! `ssrc-audio-level` RTP header extension, RFC 6464), every [`SPEAKER_INTERVAL`] the room
//! is told whose speaking started, stopped or changed level (`SpeakersChanged`, which
//! livekit-client turns into `activeSpeakers` and `isSpeaking`).

use std::time::Duration;

use livekit_protocol as proto;
use proto::signal_response::Message as Response;

use super::Engine;

/// How often speakers are worked out and changes sent.
pub const SPEAKER_INTERVAL: Duration = Duration::from_millis(500);
/// A packet at least this loud (dBov, 0 is the loudest, 127 silence) counts as voice.
/// LiveKit's default active level is the same.
const LOUD_DBOV: u8 = 35;
/// A participant speaks when at least this share (per cent) of its packets in an interval
/// were loud: a single click does not make a speaker.
const LOUD_SHARE_PERCENT: u32 = 40;
/// A level change smaller than this is not worth a message.
const LEVEL_STEP: f32 = 0.05;

/// The audio levels of one track over the current interval.
#[derive(Debug, Default, Clone)]
pub struct Loudness {
    packets: u32,
    loud: u32,
    /// Sum of the linear levels (0–1) of the loud packets.
    loud_sum: f32,
}

impl Loudness {
    /// One packet's level as the extension carries it: -dBov (str0m gives 0 to -127).
    pub fn observe(&mut self, level: i8) {
        let dbov = level.unsigned_abs().min(127);
        self.packets += 1;
        if dbov <= LOUD_DBOV {
            self.loud += 1;
            self.loud_sum += linear(dbov);
        }
    }

    /// The level (0–1) of the interval when it was speech, and starts the next interval.
    pub fn take(&mut self) -> Option<f32> {
        let Loudness {
            packets,
            loud,
            loud_sum,
        } = std::mem::take(self);
        (packets > 0 && loud * 100 >= packets * LOUD_SHARE_PERCENT).then(|| loud_sum / loud as f32)
    }
}

/// dBov to a linear level, 1 the loudest, as LiveKit converts it.
fn linear(dbov: u8) -> f32 {
    10f32.powf(-f32::from(dbov) / 20.0)
}

/// What changed between the speakers of the last interval and this one: new speakers and
/// level changes (active), and those who stopped (inactive, level 0). Loudest first.
pub fn speakers_changed(
    before: &[proto::SpeakerInfo],
    now: &[proto::SpeakerInfo],
) -> Vec<proto::SpeakerInfo> {
    let mut changed: Vec<proto::SpeakerInfo> = now
        .iter()
        .filter(|s| {
            before
                .iter()
                .find(|b| b.sid == s.sid)
                .is_none_or(|b| (b.level - s.level).abs() >= LEVEL_STEP)
        })
        .cloned()
        .collect();
    changed.sort_by(|a, b| b.level.total_cmp(&a.level));
    changed.extend(
        before
            .iter()
            .filter(|b| !now.iter().any(|s| s.sid == b.sid))
            .map(|b| proto::SpeakerInfo {
                sid: b.sid.clone(),
                level: 0.0,
                active: false,
            }),
    );
    changed
}

impl Engine {
    /// Works out every room's speakers and tells each room what changed.
    pub(super) fn update_speakers(&mut self) {
        let rooms: Vec<String> = self.rooms.keys().cloned().collect();
        for name in rooms {
            let Some(room) = self.rooms.get(&name) else {
                continue;
            };
            let mut now = Vec::new();
            for conn in room.members.clone() {
                let Some(peer) = self.peers.get_mut(&conn) else {
                    continue;
                };
                let level = peer
                    .published
                    .iter_mut()
                    .filter_map(|t| t.loudness.take())
                    .reduce(f32::max);
                if let Some(level) = level {
                    now.push(proto::SpeakerInfo {
                        sid: peer.sid.clone(),
                        level,
                        active: true,
                    });
                }
            }
            let Some(room) = self.rooms.get_mut(&name) else {
                continue;
            };
            let changed = speakers_changed(&room.speakers, &now);
            // Levels within a step stay as last sent, so that slow drifts are still reported.
            for speaker in &mut now {
                if let Some(before) = room
                    .speakers
                    .iter()
                    .find(|b| b.sid == speaker.sid && !changed.iter().any(|c| c.sid == b.sid))
                {
                    speaker.level = before.level;
                }
            }
            room.speakers = now;
            if !changed.is_empty() {
                self.broadcast(
                    &name,
                    None,
                    Response::SpeakersChanged(proto::SpeakersChanged { speakers: changed }),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn speaker(sid: &str, level: f32) -> proto::SpeakerInfo {
        proto::SpeakerInfo {
            sid: sid.into(),
            level,
            active: true,
        }
    }

    #[test]
    fn speech_is_mostly_loud_packets_and_silence_is_not() {
        let mut track = Loudness::default();
        assert_eq!(track.take(), None, "no packets");
        for _ in 0..25 {
            track.observe(-20);
        }
        let level = track.take().expect("speaking");
        assert!((level - 0.1).abs() < 0.001, "{level}");
        // Background noise around -60 dBov with a click.
        for _ in 0..24 {
            track.observe(-60);
        }
        track.observe(-3);
        assert_eq!(track.take(), None);
        // 40 % loud is speech.
        for i in 0..10 {
            track.observe(if i < 4 { -30 } else { -90 });
        }
        assert!(track.take().is_some());
    }

    #[test]
    fn only_changes_are_sent() {
        let before = [speaker("PA_a", 0.5), speaker("PA_b", 0.2)];
        // a stays (small change), b stops, c starts louder than a.
        let now = [speaker("PA_a", 0.52), speaker("PA_c", 0.8)];
        let changed = speakers_changed(&before, &now);
        assert_eq!(
            changed,
            vec![
                speaker("PA_c", 0.8),
                proto::SpeakerInfo {
                    sid: "PA_b".into(),
                    level: 0.0,
                    active: false
                }
            ]
        );
        // A big change of level is sent.
        assert_eq!(
            speakers_changed(&now, &[speaker("PA_a", 0.2), speaker("PA_c", 0.8)]),
            vec![speaker("PA_a", 0.2)]
        );
        assert!(speakers_changed(&now, &now).is_empty());
    }
}
