//! Media between participants: frames from a publisher to its subscribers, the simulcast
//! layer each subscriber gets, and key frame requests back to the publisher.

use std::sync::atomic::Ordering;
use std::time::Instant;

use livekit_protocol as proto;
use str0m::bwe::BweKind;
use str0m::media::{KeyframeRequestKind, MediaData, MediaKind, Mid, Rid};
use str0m::Event;
use tracing::debug;

use super::peer::{choose_layer, ConnId, DownState, Role, Wanted};
use super::{Engine, KEYFRAME_REQUEST_INTERVAL, LAYER_STALE};

/// Frames written to one subscriber and not yet sent whose delay is still to be observed;
/// beyond this (a subscriber whose connection holds everything back) they go unmeasured.
const MAX_UNSENT_TIMED: usize = 64;

impl Engine {
    pub(super) fn on_event(&mut self, conn: ConnId, role: Role, event: Event) {
        match (role, event) {
            (Role::Publisher, Event::MediaData(data)) => self.forward(conn, data),
            (Role::Subscriber, Event::KeyframeRequest(request)) => {
                // The subscriber's decoder lost its footing: ask for the layer it gets.
                let down = self.peers.get(&conn).and_then(|p| p.subscriber.as_ref()).and_then(|s| {
                    s.tracks
                        .iter()
                        .find(|t| t.state == DownState::Open(request.mid))
                        .map(|t| (t.source, t.track_sid.clone(), t.forwarded_rid))
                });
                let Some((source, sid, rid)) = down else { return };
                let mid = self.peers.get(&source).and_then(|p| p.published.iter().find(|t| t.info.sid == sid)).and_then(|t| t.mid);
                if let Some(mid) = mid {
                    self.request_layer_keyframe(source, mid, rid);
                }
            }
            (Role::Subscriber, Event::EgressBitrateEstimate(estimate)) => {
                let bps = match estimate {
                    BweKind::Twcc { estimate, .. } | BweKind::Remb { estimate, .. } => estimate.as_u64(),
                    _ => return,
                };
                if let Some(sub) = self.peers.get_mut(&conn).and_then(|p| p.subscriber.as_mut()) {
                    sub.estimate = Some(bps);
                }
            }
            (_, Event::IceConnectionStateChange(state)) => debug!(conn, ?role, ?state, "ice"),
            (_, Event::Connected) => debug!(conn, ?role, "peer connection established"),
            _ => {}
        }
    }

    /// Sends a frame from `conn`'s publisher connection to every subscriber of its track.
    ///
    /// Simulcast: each subscriber gets one layer, the smallest flowing one that fills its
    /// video (or the best flowing one), and changes layers only at a key frame of the new
    /// one, so that it never gets a frame it cannot decode. Until that key frame comes the
    /// publisher is asked for it (throttled per layer).
    pub(super) fn forward(&mut self, conn: ConnId, data: MediaData) {
        let now = Instant::now();
        let Some(peer) = self.peers.get_mut(&conn) else { return };
        let room_name = peer.room.clone();
        let Some(track) = peer.published.iter_mut().find(|t| t.mid == Some(data.mid)) else { return };
        if track.info.muted {
            // Muted, possibly by the server API: whatever the client still sends stays here.
            return;
        }
        if let Some(level) = data.ext_vals.audio_level.filter(|_| track.kind == MediaKind::Audio) {
            track.loudness.observe(level);
        }
        let track_sid = track.info.sid.clone();
        let kind = track.kind;
        let flowing = match data.rid {
            Some(rid) => {
                track.saw_layer(rid, data.data.len(), now);
                track.flowing_layers(now, LAYER_STALE)
            }
            None => Vec::new(),
        };
        let mut keyframes: Vec<Option<Rid>> = Vec::new();
        if data.rid.is_none() && !data.contiguous && track.kind == MediaKind::Video {
            // Frames were lost on the way in: every receiver needs a fresh start.
            keyframes.push(None);
        }
        let Some(room) = self.rooms.get(&room_name) else { return };
        for other in room.members.iter().filter(|&&c| c != conn) {
            let Some(sub) = self.peers.get_mut(other).and_then(|p| p.subscriber.as_mut()) else { continue };
            let budget = if data.rid.is_some() { sub.video_budget() } else { None };
            let Some(down) = sub.tracks.iter_mut().find(|t| t.source == conn && t.track_sid == track_sid) else { continue };
            let DownState::Open(mid) = down.state else { continue };
            if down.disabled {
                continue;
            }
            if let Some(rid) = data.rid {
                let wanted = Wanted { budget, ..down.wanted };
                let target = choose_layer(&flowing, &wanted, down.forwarded_rid);
                if target != down.forwarded_rid && target != down.switch_to {
                    debug!(conn = other, track = %track_sid, from = ?down.forwarded_rid, to = ?target, "switching simulcast layer");
                    down.switch_to = target;
                }
                if down.switch_to == Some(rid) && data.is_keyframe() {
                    down.forwarded_rid = Some(rid);
                    down.switch_to = None;
                }
                if down.switch_to.is_some() && !keyframes.contains(&down.switch_to) {
                    keyframes.push(down.switch_to);
                }
                if down.forwarded_rid != Some(rid) {
                    continue;
                }
            }
            let Some(writer) = sub.pc.rtc().writer(mid) else { continue };
            let Some(pt) = writer.match_params(data.params) else { continue };
            match writer.write(pt, data.network_time, data.time, data.data.clone()) {
                Ok(()) => {
                    if sub.pc.forwarded.len() < MAX_UNSENT_TIMED {
                        sub.pc.forwarded.push((data.network_time, kind));
                    }
                    self.metrics.forwarded_frames.fetch_add(1, Ordering::Relaxed);
                }
                Err(e) => debug!(conn = other, error = %e, "forward failed"),
            }
        }
        for rid in keyframes {
            self.request_layer_keyframe(conn, data.mid, rid);
        }
    }

    /// Asks the publisher of `track_sid` for a key frame of every layer it sends.
    pub(super) fn request_keyframe(&mut self, source: ConnId, track_sid: &str) {
        let Some((mid, layers)) = self
            .peers
            .get(&source)
            .and_then(|p| p.published.iter().find(|t| t.info.sid == track_sid))
            .and_then(|t| Some((t.mid?, t.flowing_layers(Instant::now(), LAYER_STALE))))
        else {
            return;
        };
        if layers.is_empty() {
            self.request_layer_keyframe(source, mid, None);
        }
        for layer in layers {
            self.request_layer_keyframe(source, mid, Some(layer.rid));
        }
    }

    pub(super) fn request_layer_keyframe(&mut self, source: ConnId, mid: Mid, rid: Option<Rid>) {
        let Some(peer) = self.peers.get_mut(&source) else { return };
        let Some(track) = peer.published.iter_mut().find(|t| t.mid == Some(mid)) else { return };
        if track.kind != MediaKind::Video || !track.may_request_keyframe(rid, Instant::now(), KEYFRAME_REQUEST_INTERVAL) {
            return;
        }
        let Some(pc) = peer.publisher.as_mut() else { return };
        let Some(mut writer) = pc.rtc().writer(mid) else { return };
        if let Err(e) = writer.request_keyframe(rid, KeyframeRequestKind::Pli) {
            debug!(conn = source, error = %e, "key frame request failed");
        }
    }

    /// A subscriber's client tells what it shows of a track: off (not on screen) or at which size.
    pub(super) fn on_track_settings(&mut self, conn: ConnId, settings: proto::UpdateTrackSettings) {
        let Some(sub) = self.peers.get_mut(&conn).and_then(|p| p.subscriber.as_mut()) else { return };
        let mut restarted = Vec::new();
        for down in sub.tracks.iter_mut().filter(|t| settings.track_sids.contains(&t.track_sid)) {
            if down.disabled && !settings.disabled {
                // It decodes again from a key frame.
                down.forwarded_rid = None;
                down.switch_to = None;
                restarted.push((down.source, down.track_sid.clone()));
            }
            down.disabled = settings.disabled;
            down.wanted.max_width = (settings.width > 0).then_some(settings.width);
            // livekit-client sends a quality when it gives no size (adaptive stream off).
            down.wanted.max_quality = if settings.width > 0 { None } else { proto::VideoQuality::try_from(settings.quality).ok() };
        }
        for (source, sid) in restarted {
            self.request_keyframe(source, &sid);
        }
    }
}
