//! Media between participants: packets from a publisher to its subscribers, the simulcast
//! layer each subscriber gets, and key frame requests back to the publisher.
//!
//! Every `Rtc` is in str0m's RTP mode: each RTP packet is forwarded as it arrives (no frame
//! assembly, no repacketizing); see [`super::rtp`] for what that takes per packet.

use std::sync::atomic::Ordering;
use std::time::Instant;

use livekit_protocol as proto;
use str0m::bwe::BweKind;
use str0m::media::{KeyframeRequestKind, MediaKind, Mid, Rid};
use str0m::rtp::{ExtensionValues, RtpPacket, RtpWrite};
use str0m::Event;
use tracing::debug;

use super::peer::{choose_layer, ConnId, DownState, Role, Wanted};
use super::rtp::{starts_keyframe, In, Vp8Ids};
use super::{Engine, KEYFRAME_REQUEST_INTERVAL, LAYER_STALE};

/// Packets written to one subscriber and not yet sent whose delay is still to be observed;
/// beyond this (a subscriber whose connection holds everything back) they go unmeasured.
const MAX_UNSENT_TIMED: usize = 64;

impl Engine {
    pub(super) fn on_event(&mut self, conn: ConnId, role: Role, event: Event) {
        match (role, event) {
            (Role::Publisher, Event::RtpPacket(packet)) => self.forward(conn, packet),
            (Role::Subscriber, Event::KeyframeRequest(request)) => {
                // The subscriber's decoder lost its footing: ask for the layer it gets.
                let down = self
                    .peers
                    .get(&conn)
                    .and_then(|p| p.subscriber.as_ref())
                    .and_then(|s| {
                        s.tracks
                            .iter()
                            .find(|t| t.state == DownState::Open(request.mid))
                            .map(|t| (t.source, t.track_sid.clone(), t.forwarded_rid))
                    });
                let Some((source, sid, rid)) = down else {
                    return;
                };
                let mid = self
                    .peers
                    .get(&source)
                    .and_then(|p| p.published.iter().find(|t| t.info.sid == sid))
                    .and_then(|t| t.mid);
                if let Some(mid) = mid {
                    self.request_layer_keyframe(source, mid, rid);
                }
            }
            (Role::Subscriber, Event::EgressBitrateEstimate(estimate)) => {
                let bps = match estimate {
                    BweKind::Twcc { estimate, .. } | BweKind::Remb { estimate, .. } => {
                        estimate.as_u64()
                    }
                    _ => return,
                };
                if let Some(sub) = self
                    .peers
                    .get_mut(&conn)
                    .and_then(|p| p.subscriber.as_mut())
                {
                    sub.estimate = Some(bps);
                }
            }
            (_, Event::IceConnectionStateChange(state)) => debug!(conn, ?role, ?state, "ice"),
            (_, Event::Connected) => debug!(conn, ?role, "peer connection established"),
            _ => {}
        }
    }

    /// Sends an RTP packet from `conn`'s publisher connection to every subscriber of its
    /// track, renumbered for each ([`super::rtp::Rewriter`]).
    ///
    /// Video starts (for a new subscriber, after a pause, after a loss) only at a key
    /// frame, and the publisher is asked for one meanwhile (throttled per layer).
    /// Simulcast: each subscriber gets one layer, the smallest flowing one that fills its
    /// video (or the best flowing one), and changes layers only at a key frame of the new
    /// one, so that it never gets a frame it cannot decode.
    pub(super) fn forward(&mut self, conn: ConnId, packet: RtpPacket) {
        let arrived = packet.timestamp;
        let Some(peer) = self.peers.get_mut(&conn) else {
            return;
        };
        let Some(pc) = peer.publisher.as_mut() else {
            return;
        };
        let ssrc = packet.header.ssrc;
        let Some((mid, rid)) = pc
            .rtc
            .direct_api()
            .stream_rx(&ssrc)
            .map(|s| (s.mid(), s.rid()))
        else {
            return;
        };
        let Some(params) = pc
            .rtc
            .codec_config()
            .iter()
            .find(|p| p.pt() == packet.header.payload_type)
            .copied()
        else {
            return;
        };
        let room_name = peer.room.clone();
        let Some(track) = peer.published.iter_mut().find(|t| t.mid == Some(mid)) else {
            return;
        };
        if track.info.muted {
            // Muted, possibly by the server API: whatever the client still sends stays here.
            return;
        }
        let ext = &packet.header.ext_vals;
        if let Some(level) = ext.audio_level.filter(|_| track.kind == MediaKind::Audio) {
            track.loudness.observe(level);
        }
        let track_sid = track.info.sid.clone();
        let kind = track.kind;
        let seq = *packet.seq_no;
        let Some(incoming) = track.incoming(rid) else {
            return;
        };
        let observed =
            incoming.observe(seq, packet.header.timestamp, packet.header.marker, arrived);
        let codec = params.spec().codec;
        let keyframe = kind == MediaKind::Video
            && starts_keyframe(codec, &packet.payload, observed.frame_start);
        let flowing = match rid {
            Some(rid) => {
                track.saw_layer(rid, packet.payload.len(), arrived);
                track.flowing_layers(arrived, LAYER_STALE)
            }
            None => Vec::new(),
        };
        let mut keyframes: Vec<Option<Rid>> = Vec::new();
        if observed.lost && kind == MediaKind::Video {
            // A packet was lost on the way in and not repaired in time: its receivers need a
            // fresh start.
            keyframes.push(rid);
        }
        let vp8 = if codec == str0m::format::Codec::Vp8 {
            Vp8Ids::parse(&packet.payload)
        } else {
            None
        };
        let input = In {
            ssrc,
            seq,
            time: packet.header.timestamp,
            clock_rate: params.spec().clock_rate.get(),
            at: arrived,
            vp8,
        };
        // What the subscribers' copies carry of the header extensions; str0m adds its own
        // (mid, rid, transport-wide sequence number, send time).
        let ext_vals = ExtensionValues {
            audio_level: ext.audio_level,
            voice_activity: ext.voice_activity,
            video_orientation: ext.video_orientation,
            ..Default::default()
        };
        let marker = packet.header.marker;
        let Some(room) = self.rooms.get(&room_name) else {
            return;
        };
        for other in room.members.iter().filter(|&&c| c != conn) {
            let Some(sub) = self
                .peers
                .get_mut(other)
                .and_then(|p| p.subscriber.as_mut())
            else {
                continue;
            };
            let budget = if rid.is_some() {
                sub.video_budget()
            } else {
                None
            };
            let Some(down) = sub
                .tracks
                .iter_mut()
                .find(|t| t.source == conn && t.track_sid == track_sid)
            else {
                continue;
            };
            let DownState::Open(down_mid) = down.state else {
                continue;
            };
            if down.disabled {
                down.rewriter.stop();
                continue;
            }
            if let Some(rid) = rid {
                let wanted = Wanted {
                    budget,
                    ..down.wanted
                };
                let target = choose_layer(&flowing, &wanted, down.forwarded_rid);
                if target != down.forwarded_rid && target != down.switch_to {
                    debug!(conn = other, track = %track_sid, from = ?down.forwarded_rid, to = ?target, "switching simulcast layer");
                    down.switch_to = target;
                }
                if down.switch_to == Some(rid) && keyframe {
                    down.forwarded_rid = Some(rid);
                    down.switch_to = None;
                    down.rewriter.stop();
                }
                if down.switch_to.is_some() && !keyframes.contains(&down.switch_to) {
                    keyframes.push(down.switch_to);
                }
                if down.forwarded_rid != Some(rid) {
                    continue;
                }
            }
            if !down.rewriter.forwards(ssrc) {
                // Audio starts anywhere; video at a key frame.
                if kind == MediaKind::Audio || keyframe {
                    down.rewriter.start(&input);
                } else {
                    if !keyframes.contains(&rid) {
                        keyframes.push(rid);
                    }
                    continue;
                }
            }
            let Some(out) = down.rewriter.rewrite(&input) else {
                continue;
            };
            let pt = match down.pt {
                Some((from, to)) if from == params.pt() => to,
                _ => {
                    let Some(to) = sub
                        .pc
                        .rtc
                        .codec_config()
                        .match_params(params)
                        .map(|p| p.pt())
                    else {
                        continue;
                    };
                    down.pt = Some((params.pt(), to));
                    to
                }
            };
            let mut api = sub.pc.rtc().direct_api();
            let Some(stream) = api.stream_tx_by_mid(down_mid, None) else {
                continue;
            };
            let mut write = RtpWrite::new(
                pt,
                out.seq.into(),
                out.time,
                arrived,
                packet.payload.clone(),
            )
            .marker(marker)
            .ext_vals(ext_vals.clone())
            .nackable(kind == MediaKind::Video);
            if let Some(patch) = out.vp8_patch {
                write = write.vp8_patch(patch);
            }
            stream.write_rtp(write);
            if sub.pc.forwarded.len() < MAX_UNSENT_TIMED {
                sub.pc.forwarded.push((arrived, kind));
            }
            self.metrics
                .forwarded_packets
                .fetch_add(1, Ordering::Relaxed);
        }
        for rid in keyframes {
            self.request_layer_keyframe(conn, mid, rid);
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
        let Some(peer) = self.peers.get_mut(&source) else {
            return;
        };
        let Some(track) = peer.published.iter_mut().find(|t| t.mid == Some(mid)) else {
            return;
        };
        if track.kind != MediaKind::Video
            || !track.may_request_keyframe(rid, Instant::now(), KEYFRAME_REQUEST_INTERVAL)
        {
            return;
        }
        let Some(pc) = peer.publisher.as_mut() else {
            return;
        };
        match pc.rtc().direct_api().stream_rx_by_mid(mid, rid) {
            Some(stream) => stream.request_keyframe(KeyframeRequestKind::Pli),
            None => debug!(
                conn = source,
                ?rid,
                "key frame request: no such incoming stream"
            ),
        }
    }

    /// A subscriber's client tells what it shows of a track: off (not on screen) or at which size.
    pub(super) fn on_track_settings(&mut self, conn: ConnId, settings: proto::UpdateTrackSettings) {
        let Some(sub) = self
            .peers
            .get_mut(&conn)
            .and_then(|p| p.subscriber.as_mut())
        else {
            return;
        };
        let mut restarted = Vec::new();
        for down in sub
            .tracks
            .iter_mut()
            .filter(|t| settings.track_sids.contains(&t.track_sid))
        {
            if down.disabled && !settings.disabled {
                // It decodes again from a key frame.
                down.forwarded_rid = None;
                down.switch_to = None;
                down.rewriter.stop();
                restarted.push((down.source, down.track_sid.clone()));
            }
            down.disabled = settings.disabled;
            down.wanted.max_width = (settings.width > 0).then_some(settings.width);
            // livekit-client sends a quality when it gives no size (adaptive stream off).
            down.wanted.max_quality = if settings.width > 0 {
                None
            } else {
                proto::VideoQuality::try_from(settings.quality).ok()
            };
        }
        for (source, sid) in restarted {
            self.request_keyframe(source, &sid);
        }
    }
}

impl Engine {
    /// A muted track's packets stay at the sfu: each subscriber's copy starts anew (at a key
    /// frame for video) once it is unmuted.
    pub(super) fn stop_forwarding(&mut self, source: ConnId, track_sid: &str) {
        let Some(room) = self.peers.get(&source).map(|p| p.room.clone()) else {
            return;
        };
        let members = self
            .rooms
            .get(&room)
            .map(|r| r.members.clone())
            .unwrap_or_default();
        for other in members {
            if let Some(sub) = self
                .peers
                .get_mut(&other)
                .and_then(|p| p.subscriber.as_mut())
            {
                for down in sub
                    .tracks
                    .iter_mut()
                    .filter(|t| t.source == source && t.track_sid == track_sid)
                {
                    down.rewriter.stop();
                }
            }
        }
    }
}
