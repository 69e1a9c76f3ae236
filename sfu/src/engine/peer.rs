//! One participant as the media engine keeps it: its grant, its two peer connections, the
//! tracks it publishes and the tracks it receives, and how it is described to the others.

use std::collections::HashMap;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use livekit_protocol as proto;
use rand::distr::{Alphanumeric, SampleString};
use str0m::change::SdpPendingOffer;
use str0m::media::{MediaKind, Mid, Rid};
use str0m::Rtc;
use tokio::sync::mpsc;

use crate::auth::JoinGrant;

/// The engine's key for one signalling connection (a rejoin gets a new one).
pub type ConnId = u64;

/// Which of a participant's two peer connections: LiveKit's `SignalTarget`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The browser offers, sends media to us.
    Publisher,
    /// We offer, send the room's media to the browser.
    Subscriber,
}

/// A `PA_…`, `TR_…` or `RM_…` id like LiveKit's.
pub fn new_sid(prefix: &str) -> String {
    format!("{prefix}{}", Alphanumeric.sample_string(&mut rand::rng(), 12))
}

pub fn unix_now() -> (i64, i64) {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    (since.as_secs() as i64, since.as_millis() as i64)
}

/// A str0m `Rtc` and when it next wants to be driven.
pub struct Pc {
    pub rtc: Rtc,
    /// Our ICE username fragment: the first half of the USERNAME of the browser's checks.
    pub ufrag: String,
    /// When `rtc` last asked for `Input::Timeout`.
    pub next: Instant,
    /// Something was fed to `rtc` since it was last polled, so it may have output.
    pub dirty: bool,
}

impl Pc {
    pub fn new(rtc: Rtc, ufrag: String) -> Pc {
        Pc { rtc, ufrag, next: Instant::now(), dirty: true }
    }

    /// The `Rtc`, marked to be polled: every call into it may produce packets or events.
    pub fn rtc(&mut self) -> &mut Rtc {
        self.dirty = true;
        &mut self.rtc
    }
}

/// A track the participant announced with AddTrack.
pub struct Published {
    /// What the room is told about it.
    pub info: proto::TrackInfo,
    /// The browser's `MediaStreamTrack` id, which the offer's `a=msid` names.
    pub cid: String,
    /// The publisher m-line carrying it, once the offer with it was accepted.
    pub mid: Option<Mid>,
    pub kind: MediaKind,
    /// The width of each simulcast layer, from AddTrack.
    pub layer_widths: Vec<(Rid, u32)>,
    /// When each simulcast layer last delivered a frame: the browser turns layers off and
    /// on as its bandwidth estimate and CPU allow.
    pub layers_seen: Vec<(Rid, Instant)>,
    /// When a key frame of each layer (`None`: no simulcast) was last asked for.
    pub keyframe_requests: Vec<(Option<Rid>, Instant)>,
}

impl Published {
    /// Visible to the room: announced and its media negotiated.
    pub fn is_live(&self) -> bool {
        self.mid.is_some()
    }
}

/// Where a down track stands in the subscriber negotiation (str0m's chat example's states).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DownState {
    ToOpen,
    Negotiating(Mid),
    Open(Mid),
    ToStop(Mid),
    NegotiatingStop(Mid),
}

/// Another participant's track sent to this one.
pub struct DownTrack {
    pub source: ConnId,
    pub source_sid: String,
    pub track_sid: String,
    pub kind: MediaKind,
    pub state: DownState,
    /// The simulcast layer this subscriber gets.
    pub forwarded_rid: Option<Rid>,
    /// The layer it gets from that layer's next key frame on.
    pub switch_to: Option<Rid>,
    /// The subscriber's client turned the track off (`UpdateTrackSettings`, adaptive stream:
    /// the video is not on screen).
    pub disabled: bool,
    /// The width its client shows the video at, when it said.
    pub max_width: Option<u32>,
}

impl DownTrack {
    pub fn new(source: ConnId, source_sid: String, track_sid: String, kind: MediaKind) -> DownTrack {
        DownTrack {
            source,
            source_sid,
            track_sid,
            kind,
            state: DownState::ToOpen,
            forwarded_rid: None,
            switch_to: None,
            disabled: false,
            max_width: None,
        }
    }
}

/// The subscriber peer connection: the engine is the offerer.
pub struct Subscriber {
    pub pc: Pc,
    pub pending: Option<SdpPendingOffer>,
    pub offer_id: u32,
    pub tracks: Vec<DownTrack>,
}

/// A participant in a room.
pub struct Peer {
    pub conn: ConnId,
    pub sid: String,
    pub room: String,
    pub grant: JoinGrant,
    pub auto_subscribe: bool,
    pub joined_at: (i64, i64),
    /// Increases with every change of `info()`; livekit-client drops older versions.
    pub version: u32,
    /// Responses to the participant's signalling connection.
    pub signal: mpsc::Sender<proto::signal_response::Message>,
    pub publisher: Option<Pc>,
    pub subscriber: Option<Subscriber>,
    pub published: Vec<Published>,
    /// mid → `MediaStreamTrack` id of the last accepted publisher offer.
    pub offered_tracks: HashMap<String, String>,
}

impl Peer {
    /// The participant as the room sees it.
    pub fn info(&self) -> proto::ParticipantInfo {
        proto::ParticipantInfo {
            sid: self.sid.clone(),
            identity: self.grant.identity.clone(),
            name: self.grant.name.clone(),
            metadata: self.grant.metadata.clone(),
            state: proto::participant_info::State::Active as i32,
            tracks: self.published.iter().filter(|t| t.is_live()).map(|t| t.info.clone()).collect(),
            joined_at: self.joined_at.0,
            joined_at_ms: self.joined_at.1,
            version: self.version,
            permission: Some(proto::ParticipantPermission {
                can_subscribe: self.grant.can_subscribe,
                can_publish: self.grant.can_publish,
                can_publish_data: self.grant.can_publish_data,
                hidden: self.grant.hidden,
                ..Default::default()
            }),
            is_publisher: self.published.iter().any(Published::is_live),
            kind: proto::participant_info::Kind::Standard as i32,
            ..Default::default()
        }
    }

    /// The participant as it leaves.
    pub fn departed_info(&self) -> proto::ParticipantInfo {
        proto::ParticipantInfo {
            state: proto::participant_info::State::Disconnected as i32,
            tracks: Vec::new(),
            version: self.version + 1,
            ..self.info()
        }
    }

    /// Mutable access to every peer connection this participant has.
    pub fn pcs_mut(&mut self) -> impl Iterator<Item = (Role, &mut Pc)> {
        let publisher = self.publisher.as_mut().map(|pc| (Role::Publisher, pc));
        let subscriber = self.subscriber.as_mut().map(|s| (Role::Subscriber, &mut s.pc));
        publisher.into_iter().chain(subscriber)
    }

    pub fn pc_mut(&mut self, role: Role) -> Option<&mut Pc> {
        match role {
            Role::Publisher => self.publisher.as_mut(),
            Role::Subscriber => self.subscriber.as_mut().map(|s| &mut s.pc),
        }
    }
}

impl Published {
    /// Notes a frame of simulcast layer `rid` at `now`.
    pub fn saw_layer(&mut self, rid: Rid, now: Instant) {
        let room_for_more = self.layers_seen.len() < 8;
        match self.layers_seen.iter_mut().find(|(r, _)| *r == rid) {
            Some(seen) => seen.1 = now,
            // livekit-client sends at most three layers; bound it regardless.
            None if room_for_more => self.layers_seen.push((rid, now)),
            None => {}
        }
    }

    /// The layers that delivered a frame within `stale`, smallest first, with their widths.
    pub fn flowing_layers(&self, now: Instant, stale: std::time::Duration) -> Vec<(Rid, u32)> {
        let mut flowing: Vec<(Rid, u32)> = self
            .layers_seen
            .iter()
            .filter(|(_, at)| now.duration_since(*at) < stale)
            .map(|(rid, _)| (*rid, self.layer_widths.iter().find(|(r, _)| r == rid).map_or(u32::MAX, |(_, w)| *w)))
            .collect();
        flowing.sort_by_key(|(rid, width)| (rid_rank(Some(*rid)), *width));
        flowing
    }

    /// Whether a key frame of `rid` may be asked for now (at most one per `interval`).
    pub fn may_request_keyframe(&mut self, rid: Option<Rid>, now: Instant, interval: std::time::Duration) -> bool {
        match self.keyframe_requests.iter_mut().find(|(r, _)| *r == rid) {
            Some((_, at)) if now.duration_since(*at) < interval => false,
            Some((_, at)) => {
                *at = now;
                true
            }
            None => {
                if self.keyframe_requests.len() < 8 {
                    self.keyframe_requests.push((rid, now));
                }
                true
            }
        }
    }
}

/// The layer a subscriber should get: the smallest flowing one at least as wide as it shows
/// the video, else the widest flowing one (`flowing` is smallest first).
pub fn choose_layer(flowing: &[(Rid, u32)], max_width: Option<u32>) -> Option<Rid> {
    let widest = flowing.last().map(|(rid, _)| *rid);
    match max_width {
        None => widest,
        Some(wanted) => flowing.iter().find(|(_, width)| *width >= wanted).map(|(rid, _)| *rid).or(widest),
    }
}

/// The rid livekit-client gives a layer of this quality.
pub fn rid_of(layer: &proto::VideoLayer) -> Rid {
    if !layer.rid.is_empty() {
        return Rid::from(layer.rid.as_str());
    }
    match proto::VideoQuality::try_from(layer.quality) {
        Ok(proto::VideoQuality::Low) => Rid::from("q"),
        Ok(proto::VideoQuality::Medium) => Rid::from("h"),
        _ => Rid::from("f"),
    }
}

/// Ranks simulcast layers as livekit-client names them: `q` < `h` < `f`.
pub fn rid_rank(rid: Option<Rid>) -> u8 {
    match rid.as_deref() {
        None => 0,
        Some("q") => 1,
        Some("h") => 2,
        Some("f") => 3,
        Some(_) => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subscriber_gets_the_smallest_layer_that_fills_its_video() {
        let flowing = [(Rid::from("q"), 160), (Rid::from("h"), 320), (Rid::from("f"), 640)];
        assert_eq!(choose_layer(&flowing, None), Some(Rid::from("f")));
        assert_eq!(choose_layer(&flowing, Some(300)), Some(Rid::from("h")));
        assert_eq!(choose_layer(&flowing, Some(100)), Some(Rid::from("q")));
        assert_eq!(choose_layer(&flowing, Some(1920)), Some(Rid::from("f")));
        // The browser dropped its top layer: the best one left.
        assert_eq!(choose_layer(&flowing[..2], Some(1920)), Some(Rid::from("h")));
        assert_eq!(choose_layer(&[], Some(320)), None);
    }
}
