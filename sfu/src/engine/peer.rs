//! One participant as the media engine keeps it: its grant, its two peer connections, the
//! tracks it publishes and the tracks it receives, and how it is described to the others.

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use livekit_protocol as proto;
use rand::distr::{Alphanumeric, SampleString};
use str0m::change::SdpPendingOffer;
use str0m::media::{MediaKind, Mid, Pt, Rid};
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
    format!(
        "{prefix}{}",
        Alphanumeric.sample_string(&mut rand::rng(), 12)
    )
}

pub fn unix_now() -> (i64, i64) {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
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
    /// Packets written to `rtc` (subscriber side) and not yet sent: when they reached the
    /// engine, and their kind; observed as the forward delay once sent.
    pub forwarded: Vec<(Instant, MediaKind)>,
}

impl Pc {
    pub fn new(rtc: Rtc, ufrag: String) -> Pc {
        Pc {
            rtc,
            ufrag,
            next: Instant::now(),
            dirty: true,
            forwarded: Vec::new(),
        }
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
    /// When each simulcast layer last delivered a packet: the browser turns layers off and
    /// on as its bandwidth estimate and CPU allow.
    pub layers_seen: Vec<LayerSeen>,
    /// When a key frame of each layer (`None`: no simulcast) was last asked for.
    pub keyframe_requests: Vec<(Option<Rid>, Instant)>,
    /// Audio levels of the current speaker interval (audio tracks).
    pub loudness: super::speakers::Loudness,
    /// Each incoming stream (`None`: no simulcast, else per layer): frame starts and losses.
    pub incoming: Vec<(Option<Rid>, super::rtp::InStream)>,
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
    /// What its client can show and its connection can take.
    pub wanted: Wanted,
    /// How the packets it gets are renumbered for it.
    pub rewriter: super::rtp::Rewriter,
    /// The last payload type mapping: the publisher's → this subscriber's.
    pub pt: Option<(Pt, Pt)>,
}

impl DownTrack {
    pub fn new(
        source: ConnId,
        source_sid: String,
        track_sid: String,
        kind: MediaKind,
    ) -> DownTrack {
        DownTrack {
            source,
            source_sid,
            track_sid,
            kind,
            state: DownState::ToOpen,
            forwarded_rid: None,
            switch_to: None,
            disabled: false,
            wanted: Wanted::default(),
            rewriter: super::rtp::Rewriter::default(),
            pt: None,
        }
    }
}

/// The subscriber peer connection: the engine is the offerer.
pub struct Subscriber {
    pub pc: Pc,
    pub pending: Option<SdpPendingOffer>,
    pub offer_id: u32,
    pub tracks: Vec<DownTrack>,
    /// The first m-line this subscriber was offered: the BUNDLE group's tag, never stopped
    /// (see `negotiate_subscriber`).
    pub bundle_tag: Option<Mid>,
    /// The last bandwidth estimate towards this subscriber, bits per second: str0m's TWCC
    /// estimate (with `SFU_BWE_KBPS`) or the client's REMB.
    pub estimate: Option<u64>,
}

impl Subscriber {
    /// What one of its video tracks may use of its bandwidth estimate: an equal share among
    /// the video it shows (audio is small and left out).
    pub fn video_budget(&self) -> Option<u64> {
        let estimate = self.estimate?;
        let shown = self
            .tracks
            .iter()
            .filter(|t| {
                t.kind == MediaKind::Video && !t.disabled && matches!(t.state, DownState::Open(_))
            })
            .count();
        Some(estimate / shown.max(1) as u64)
    }
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
            tracks: self
                .published
                .iter()
                .filter(|t| t.is_live())
                .map(|t| t.info.clone())
                .collect(),
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
        let subscriber = self
            .subscriber
            .as_mut()
            .map(|s| (Role::Subscriber, &mut s.pc));
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
    /// The state of the incoming stream `rid` (bounded: a publisher sends at most a few).
    pub fn incoming(&mut self, rid: Option<Rid>) -> Option<&mut super::rtp::InStream> {
        match self.incoming.iter().position(|(r, _)| *r == rid) {
            Some(at) => Some(&mut self.incoming[at].1),
            None if self.incoming.len() < 8 => {
                self.incoming.push((rid, Default::default()));
                self.incoming.last_mut().map(|(_, s)| s)
            }
            None => None,
        }
    }

    /// Notes a packet of simulcast layer `rid` and its size at `now`.
    pub fn saw_layer(&mut self, rid: Rid, bytes: usize, now: Instant) {
        let room_for_more = self.layers_seen.len() < 8;
        match self.layers_seen.iter_mut().find(|l| l.rid == rid) {
            Some(seen) => seen.saw(bytes, now),
            // livekit-client sends at most three layers; bound it regardless.
            None if room_for_more => {
                let mut seen = LayerSeen {
                    rid,
                    last: now,
                    window_start: now,
                    window_bytes: 0,
                    bitrate: None,
                };
                seen.saw(bytes, now);
                self.layers_seen.push(seen);
            }
            None => {}
        }
    }

    /// The layers that delivered a frame within `stale`, smallest first, with their widths
    /// and measured bitrates.
    pub fn flowing_layers(&self, now: Instant, stale: Duration) -> Vec<Layer> {
        let mut flowing: Vec<Layer> = self
            .layers_seen
            .iter()
            .filter(|seen| now.duration_since(seen.last) < stale)
            .map(|seen| Layer {
                rid: seen.rid,
                width: self
                    .layer_widths
                    .iter()
                    .find(|(r, _)| *r == seen.rid)
                    .map_or(u32::MAX, |(_, w)| *w),
                bitrate: seen.bitrate,
            })
            .collect();
        flowing.sort_by_key(|layer| (rid_rank(Some(layer.rid)), layer.width));
        flowing
    }

    /// Whether a key frame of `rid` may be asked for now (at most one per `interval`).
    pub fn may_request_keyframe(
        &mut self,
        rid: Option<Rid>,
        now: Instant,
        interval: Duration,
    ) -> bool {
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

/// Over how long a layer's bitrate is measured.
const BITRATE_WINDOW: Duration = Duration::from_secs(1);

/// A simulcast layer as it arrives: when it last delivered a frame, and its bitrate.
pub struct LayerSeen {
    pub rid: Rid,
    pub last: Instant,
    window_start: Instant,
    window_bytes: u64,
    /// Bits per second over the last whole window; `None` before the first one ends.
    pub bitrate: Option<u64>,
}

impl LayerSeen {
    fn saw(&mut self, bytes: usize, now: Instant) {
        let elapsed = now.duration_since(self.window_start);
        if elapsed >= BITRATE_WINDOW {
            // Payload bits over the window (RTP and transport overhead are a few per cent more).
            self.bitrate = Some(self.window_bytes * 8 * 1000 / (elapsed.as_millis().max(1) as u64));
            self.window_start = now;
            self.window_bytes = 0;
        }
        self.window_bytes += bytes as u64;
        self.last = now;
    }
}

/// A flowing simulcast layer, as the choice of layer sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layer {
    pub rid: Rid,
    pub width: u32,
    /// Measured bits per second, once known.
    pub bitrate: Option<u64>,
}

/// What a subscriber can take of one video track.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wanted {
    /// The width its client shows the video at (`UpdateTrackSettings`), when it said.
    pub max_width: Option<u32>,
    /// The best quality its client asked for (`UpdateTrackSettings.quality`, used by
    /// livekit-client when it gives no size).
    pub max_quality: Option<proto::VideoQuality>,
    /// Bits per second this track may use of the subscriber's bandwidth estimate, when
    /// there is one (TWCC or REMB).
    pub budget: Option<u64>,
}

/// A layer is switched up to only when its bitrate stays this far below the budget (per
/// cent), so that an estimate hovering around a layer's bitrate does not flap between two
/// layers (every switch costs a key frame).
const SWITCH_UP_HEADROOM_PERCENT: u64 = 85;

/// The layer a subscriber should get (`flowing` is smallest first; `current` is the layer
/// it gets now):
/// 1. by size: the smallest layer at least as wide as it shows the video, else the widest;
///    with no size but a quality, the best layer up to that quality;
/// 2. by bandwidth: from there down, the first layer whose bitrate fits the budget (a layer
///    above `current` must fit with headroom); when none fits, the smallest — video keeps
///    flowing at its lowest rather than stopping. Layers whose bitrate is not measured yet fit.
pub fn choose_layer(flowing: &[Layer], wanted: &Wanted, current: Option<Rid>) -> Option<Rid> {
    if flowing.is_empty() {
        return None;
    }
    let widest = flowing.len() - 1;
    let by_size = match (wanted.max_width, wanted.max_quality) {
        (Some(width), _) => flowing
            .iter()
            .position(|l| l.width >= width)
            .unwrap_or(widest),
        (None, Some(quality)) => {
            let best_rank = match quality {
                proto::VideoQuality::Low => 1,
                proto::VideoQuality::Medium => 2,
                _ => 3,
            };
            flowing
                .iter()
                .rposition(|l| rid_rank(Some(l.rid)) <= best_rank)
                .unwrap_or(0)
        }
        (None, None) => widest,
    };
    let Some(budget) = wanted.budget else {
        return Some(flowing[by_size].rid);
    };
    let current_rank = flowing.iter().position(|l| Some(l.rid) == current);
    let fits = |at: usize| match flowing[at].bitrate {
        None => true,
        Some(bitrate) if current_rank.is_some_and(|c| at > c) => {
            bitrate * 100 <= budget * SWITCH_UP_HEADROOM_PERCENT
        }
        Some(bitrate) => bitrate <= budget,
    };
    let chosen = (0..=by_size).rev().find(|&at| fits(at)).unwrap_or(0);
    Some(flowing[chosen].rid)
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

    fn layers(bitrates: [Option<u64>; 3]) -> Vec<Layer> {
        let [q, h, f] = bitrates;
        vec![
            Layer {
                rid: Rid::from("q"),
                width: 160,
                bitrate: q,
            },
            Layer {
                rid: Rid::from("h"),
                width: 320,
                bitrate: h,
            },
            Layer {
                rid: Rid::from("f"),
                width: 640,
                bitrate: f,
            },
        ]
    }

    fn by_width(width: Option<u32>) -> Wanted {
        Wanted {
            max_width: width,
            ..Wanted::default()
        }
    }

    #[test]
    fn a_subscriber_gets_the_smallest_layer_that_fills_its_video() {
        let flowing = layers([None; 3]);
        let (q, h, f) = (
            Some(Rid::from("q")),
            Some(Rid::from("h")),
            Some(Rid::from("f")),
        );
        assert_eq!(choose_layer(&flowing, &by_width(None), None), f);
        assert_eq!(choose_layer(&flowing, &by_width(Some(300)), None), h);
        assert_eq!(choose_layer(&flowing, &by_width(Some(100)), None), q);
        assert_eq!(choose_layer(&flowing, &by_width(Some(1920)), None), f);
        // The browser dropped its top layer: the best one left.
        assert_eq!(choose_layer(&flowing[..2], &by_width(Some(1920)), None), h);
        assert_eq!(choose_layer(&[], &by_width(Some(320)), None), None);
    }

    #[test]
    fn without_a_size_the_quality_asked_for_caps_the_layer() {
        let flowing = layers([None; 3]);
        let quality = |q| Wanted {
            max_quality: Some(q),
            ..Wanted::default()
        };
        assert_eq!(
            choose_layer(&flowing, &quality(proto::VideoQuality::Low), None),
            Some(Rid::from("q"))
        );
        assert_eq!(
            choose_layer(&flowing, &quality(proto::VideoQuality::Medium), None),
            Some(Rid::from("h"))
        );
        assert_eq!(
            choose_layer(&flowing, &quality(proto::VideoQuality::High), None),
            Some(Rid::from("f"))
        );
        // Only the top layer flows: better than nothing.
        assert_eq!(
            choose_layer(&flowing[2..], &quality(proto::VideoQuality::Low), None),
            Some(Rid::from("f"))
        );
        // A size wins over a quality (livekit-client sends the quality only without a size).
        let both = Wanted {
            max_width: Some(600),
            max_quality: Some(proto::VideoQuality::Low),
            budget: None,
        };
        assert_eq!(choose_layer(&flowing, &both, None), Some(Rid::from("f")));
    }

    #[test]
    fn the_bandwidth_estimate_caps_the_layer() {
        let flowing = layers([Some(150_000), Some(500_000), Some(1_500_000)]);
        let budget = |b| Wanted {
            budget: Some(b),
            ..Wanted::default()
        };
        let (q, h, f) = (
            Some(Rid::from("q")),
            Some(Rid::from("h")),
            Some(Rid::from("f")),
        );
        assert_eq!(choose_layer(&flowing, &budget(5_000_000), None), f);
        assert_eq!(choose_layer(&flowing, &budget(1_000_000), f), h);
        assert_eq!(choose_layer(&flowing, &budget(200_000), f), q);
        // Not even the lowest fits: the lowest, not nothing.
        assert_eq!(choose_layer(&flowing, &budget(50_000), h), q);
        // The size still caps it when there is bandwidth to spare.
        let small = Wanted {
            max_width: Some(300),
            budget: Some(5_000_000),
            ..Wanted::default()
        };
        assert_eq!(choose_layer(&flowing, &small, None), h);
        // Not measured yet: no reason to hold it back.
        assert_eq!(
            choose_layer(&layers([Some(150_000), None, None]), &budget(200_000), None),
            f
        );
    }

    #[test]
    fn switching_up_needs_headroom_and_staying_does_not() {
        let flowing = layers([Some(150_000), Some(500_000), Some(1_500_000)]);
        let budget = |b| Wanted {
            budget: Some(b),
            ..Wanted::default()
        };
        let (q, h) = (Some(Rid::from("q")), Some(Rid::from("h")));
        // 550 kbit/s fits "h" (500) but not with 15 % headroom: a subscriber on "q" stays there,
        assert_eq!(choose_layer(&flowing, &budget(550_000), q), q);
        // one already on "h" keeps it,
        assert_eq!(choose_layer(&flowing, &budget(550_000), h), h);
        // and with enough room the switch up comes.
        assert_eq!(choose_layer(&flowing, &budget(600_000), q), h);
    }

    #[test]
    fn a_layers_bitrate_is_measured_over_a_window() {
        let start = Instant::now();
        let mut seen = LayerSeen {
            rid: Rid::from("f"),
            last: start,
            window_start: start,
            window_bytes: 0,
            bitrate: None,
        };
        // 30 frames of 6250 bytes in a second: 1.5 Mbit/s.
        for frame in 0..30u64 {
            seen.saw(6250, start + Duration::from_millis(frame * 1000 / 30));
        }
        assert_eq!(seen.bitrate, None, "no whole window yet");
        seen.saw(6250, start + Duration::from_millis(1000));
        assert_eq!(seen.bitrate, Some(1_500_000));
    }
}
