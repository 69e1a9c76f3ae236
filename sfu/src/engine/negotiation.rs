//! The signalling requests that change peer connections and tracks: offers and answers,
//! trickle, add-track, mute, and which tracks each subscriber is offered.

use std::time::Instant;

use livekit_protocol as proto;
use proto::signal_request::Message as Request;
use proto::signal_response::Message as Response;
use str0m::bwe::Bitrate;
use str0m::change::{SdpAnswer, SdpOffer};
use str0m::media::{Direction, MediaKind, Mid};
use str0m::net::TcpType;
use str0m::{Candidate, IceCreds, Rtc};
use tracing::{debug, warn};

use super::peer::{new_sid, rid_of, ConnId, DownState, DownTrack, Pc, Published, Role, Subscriber};
use super::{send, Engine, MAX_TRACKS_PER_PARTICIPANT};

/// Longest track id, name or stream name accepted.
const MAX_TRACK_TEXT: usize = 256;
/// Most simulcast layers or codecs a track may announce (livekit-client sends up to three).
const MAX_LAYERS: usize = 4;
use crate::error::Error;

impl Engine {
    pub(super) fn on_request(&mut self, conn: ConnId, message: Request) -> Result<(), Error> {
        match message {
            Request::Offer(offer) => self.on_publisher_offer(conn, offer),
            Request::Answer(answer) => self.on_subscriber_answer(conn, answer),
            Request::Trickle(trickle) => {
                self.on_trickle(conn, trickle);
                Ok(())
            }
            Request::AddTrack(request) => {
                self.on_add_track(conn, request);
                Ok(())
            }
            Request::Mute(mute) => {
                self.on_mute(conn, mute);
                Ok(())
            }
            Request::TrackSetting(settings) => {
                self.on_track_settings(conn, settings);
                Ok(())
            }
            other => {
                // Subscription settings, layers, permissions, metadata and data tracks are not
                // served yet; livekit-client works without answers to them.
                debug!(conn, request = ?std::mem::discriminant(&other), "signal request ignored");
                Ok(())
            }
        }
    }

    pub(super) fn new_pc(&self, role: Role) -> Result<Pc, Error> {
        let credentials = IceCreds::new();
        let ufrag = credentials.ufrag.clone();
        let mut config = Rtc::builder()
            // The browser runs full ICE against our single host candidate, like LiveKit's
            // default (ICE-lite): we never send checks, we answer them.
            .set_ice_lite(true)
            // Packets are forwarded one by one as they come (`forwarding.rs`, `rtp.rs`).
            .set_rtp_mode(true)
            // Codecs whose key frames and renumbering the per-packet forwarding knows: Opus,
            // VP8 (livekit-client's default) and H.264. VP9 and AV1 come with SVC in
            // livekit-client (one stream of spatial layers the sfu would have to pick from,
            // by their dependency descriptors), H.265 with neither browser support nor a
            // publisher here; a browser offering them falls back to VP8.
            .enable_vp9(false)
            .enable_av1(false)
            .enable_h265(false)
            .set_local_ice_credentials(credentials);
        if let (Role::Subscriber, Some(kbps)) = (role, self.bwe_kbps) {
            config = config.enable_bwe(Some(Bitrate::kbps(u64::from(kbps))));
        }
        let mut rtc = config.build(Instant::now());
        let candidate = Candidate::host(self.local, "udp")
            .map_err(|e| Error::Config(format!("media candidate {}: {e}", self.local)))?;
        rtc.add_local_candidate(candidate);
        if let Some(tcp) = self.local_tcp {
            // Passive: the browser connects to us.
            let candidate = Candidate::builder()
                .tcp()
                .host(tcp)
                .tcptype(TcpType::Passive)
                .build()
                .map_err(|e| Error::Config(format!("media candidate tcp {tcp}: {e}")))?;
            rtc.add_local_candidate(candidate);
        }
        Ok(Pc::new(rtc, ufrag))
    }

    pub(super) fn on_publisher_offer(
        &mut self,
        conn: ConnId,
        description: proto::SessionDescription,
    ) -> Result<(), Error> {
        if !self.peers.contains_key(&conn) {
            return Ok(());
        }
        let offer = SdpOffer::from_sdp_string(&description.sdp)?;
        let fresh = self.peers.get(&conn).is_some_and(|p| p.publisher.is_none());
        let new_pc = if fresh {
            Some(self.new_pc(Role::Publisher)?)
        } else {
            None
        };
        let Some(peer) = self.peers.get_mut(&conn) else {
            return Ok(());
        };
        if let Some(pc) = new_pc {
            self.by_ufrag
                .insert(pc.ufrag.clone(), (conn, Role::Publisher));
            peer.publisher = Some(pc);
        }
        let Some(pc) = peer.publisher.as_mut() else {
            return Ok(());
        };
        let answer = pc.rtc().sdp_api().accept_offer(offer)?;
        // Only lines the browser sends on carry a track: a removed track's line turns recvonly.
        peer.offered_tracks = crate::sdp::media_lines(&description.sdp)
            .into_iter()
            .filter(|l| l.sending)
            .filter_map(|l| Some((l.mid, l.track_id?)))
            .collect();
        send(
            peer,
            Response::Answer(proto::SessionDescription {
                r#type: "answer".into(),
                sdp: answer.to_sdp_string(),
                id: description.id,
                ..Default::default()
            }),
        );

        // Tracks whose m-line no longer carries them were unpublished by the browser.
        let gone: Vec<String> = peer
            .published
            .iter()
            .filter(|t| {
                t.mid
                    .is_some_and(|mid| peer.offered_tracks.get(&*mid) != Some(&t.cid))
            })
            .map(|t| t.info.sid.clone())
            .collect();
        for sid in gone {
            self.unpublish(conn, &sid);
        }
        self.claim_offered_tracks(conn);
        if fresh {
            // The browser has its peer connections now: it can take the subscriber offer.
            self.subscribe_to_room(conn);
        }
        Ok(())
    }

    /// Ties announced tracks to the m-lines that carry them; each one tied goes live.
    pub(super) fn claim_offered_tracks(&mut self, conn: ConnId) {
        let Some(peer) = self.peers.get_mut(&conn) else {
            return;
        };
        let mut live = Vec::new();
        for track in peer.published.iter_mut().filter(|t| t.mid.is_none()) {
            if let Some((mid, _)) = peer
                .offered_tracks
                .iter()
                .find(|(_, cid)| **cid == track.cid)
            {
                let mid = Mid::from(mid.as_str());
                track.mid = Some(mid);
                track.info.mid = mid.to_string();
                track.info.mime_type =
                    mime_type(&peer.publisher, mid, track.kind).unwrap_or_default();
                live.push(track.info.sid.clone());
            }
        }
        if live.is_empty() {
            return;
        }
        peer.version += 1;
        let info = peer.info();
        let room = peer.room.clone();
        debug!(conn, tracks = ?live, "tracks live");
        self.broadcast(
            &room,
            None,
            Response::Update(proto::ParticipantUpdate {
                participants: vec![info],
            }),
        );
        let members = self
            .rooms
            .get(&room)
            .map(|r| r.members.clone())
            .unwrap_or_default();
        for other in members.into_iter().filter(|&c| c != conn) {
            for sid in &live {
                self.add_down_track(other, conn, sid);
            }
            self.negotiate_subscriber(other);
        }
    }

    /// A newly connected subscriber receives every live track of the room.
    pub(super) fn subscribe_to_room(&mut self, conn: ConnId) {
        let Some(room) = self.peers.get(&conn).map(|p| p.room.clone()) else {
            return;
        };
        let members = self
            .rooms
            .get(&room)
            .map(|r| r.members.clone())
            .unwrap_or_default();
        for source in members.into_iter().filter(|&c| c != conn) {
            let sids: Vec<String> = self
                .peers
                .get(&source)
                .map(|p| {
                    p.published
                        .iter()
                        .filter(|t| t.is_live())
                        .map(|t| t.info.sid.clone())
                        .collect()
                })
                .unwrap_or_default();
            for sid in sids {
                self.add_down_track(conn, source, &sid);
            }
        }
        self.negotiate_subscriber(conn);
    }

    /// Queues `source`'s track for `conn` when `conn` subscribes automatically and is ready.
    pub(super) fn add_down_track(&mut self, conn: ConnId, source: ConnId, track_sid: &str) {
        let Some((source_sid, kind)) = self.peers.get(&source).and_then(|p| {
            p.published
                .iter()
                .find(|t| t.info.sid == track_sid)
                .map(|t| (p.sid.clone(), t.kind))
        }) else {
            return;
        };
        let new_pc = match self.peers.get(&conn) {
            Some(p) if p.grant.can_subscribe && p.auto_subscribe && p.publisher.is_some() => {
                p.subscriber.is_none()
            }
            _ => return,
        };
        let pc = if new_pc {
            match self.new_pc(Role::Subscriber) {
                Ok(pc) => Some(pc),
                Err(e) => {
                    warn!(conn, error = %e, "subscriber peer connection not created");
                    return;
                }
            }
        } else {
            None
        };
        let Some(peer) = self.peers.get_mut(&conn) else {
            return;
        };
        if let Some(pc) = pc {
            self.by_ufrag
                .insert(pc.ufrag.clone(), (conn, Role::Subscriber));
            peer.subscriber = Some(Subscriber {
                pc,
                pending: None,
                offer_id: 0,
                tracks: Vec::new(),
                bundle_tag: None,
                estimate: None,
            });
        }
        let Some(sub) = peer.subscriber.as_mut() else {
            return;
        };
        if sub
            .tracks
            .iter()
            .any(|t| t.source == source && t.track_sid == track_sid)
        {
            return;
        }
        sub.tracks.push(DownTrack::new(
            source,
            source_sid,
            track_sid.to_owned(),
            kind,
        ));
    }

    /// Offers the subscriber connection's pending changes, unless an offer is outstanding
    /// (the answer to it triggers the next one).
    pub(super) fn negotiate_subscriber(&mut self, conn: ConnId) {
        let Some(peer) = self.peers.get_mut(&conn) else {
            return;
        };
        let Some(sub) = peer.subscriber.as_mut() else {
            return;
        };
        if sub.pending.is_some() {
            return;
        }
        let mut change = sub.pc.rtc().sdp_api();
        for track in &mut sub.tracks {
            match track.state {
                DownState::ToOpen => {
                    // livekit-client reads `<participant sid>|<track sid>` as the stream id
                    // and the track sid as the track id to find the publication.
                    let stream_id = format!("{}|{}", track.source_sid, track.track_sid);
                    let mid = change.add_media(
                        track.kind,
                        Direction::SendOnly,
                        Some(stream_id),
                        Some(track.track_sid.clone()),
                        None,
                    );
                    sub.bundle_tag.get_or_insert(mid);
                    track.state = DownState::Negotiating(mid);
                }
                // The BUNDLE group's tag stays: stopping it made the browser's answer move the
                // transport, and str0m dropped the whole subscriber (every other remote
                // track with it); stopping every line made an empty BUNDLE group Chrome
                // refuses. Its track is gone (only `Open` lines get media): it stays silent.
                DownState::ToStop(mid) if sub.bundle_tag == Some(mid) => {}
                DownState::ToStop(mid) => {
                    change.stop_media(mid);
                    track.state = DownState::NegotiatingStop(mid);
                }
                _ => {}
            }
        }
        if !change.has_changes() {
            return;
        }
        let Some((offer, pending)) = change.apply() else {
            return;
        };
        sub.pending = Some(pending);
        sub.offer_id += 1;
        let mid_to_track_id = sub
            .tracks
            .iter()
            .filter_map(|t| match t.state {
                DownState::Negotiating(mid) | DownState::Open(mid) => {
                    Some((mid.to_string(), t.track_sid.clone()))
                }
                _ => None,
            })
            .collect();
        let offer = proto::SessionDescription {
            r#type: "offer".into(),
            sdp: offer.to_sdp_string(),
            id: sub.offer_id,
            mid_to_track_id,
        };
        send(peer, Response::Offer(offer));
    }

    pub(super) fn on_subscriber_answer(
        &mut self,
        conn: ConnId,
        description: proto::SessionDescription,
    ) -> Result<(), Error> {
        let Some(sub) = self
            .peers
            .get_mut(&conn)
            .and_then(|p| p.subscriber.as_mut())
        else {
            return Ok(());
        };
        let Some(pending) = sub.pending.take() else {
            debug!(conn, "answer without an offer");
            return Ok(());
        };
        let answer = SdpAnswer::from_sdp_string(&description.sdp)?;
        sub.pc.rtc().sdp_api().accept_answer(pending, answer)?;
        let mut opened = Vec::new();
        for track in &mut sub.tracks {
            if let DownState::Negotiating(mid) = track.state {
                track.state = DownState::Open(mid);
                if track.kind == MediaKind::Video {
                    opened.push((track.source, track.track_sid.clone()));
                }
            }
        }
        sub.tracks
            .retain(|t| !matches!(t.state, DownState::NegotiatingStop(_)));
        // A new receiver decodes nothing before a key frame: ask the publisher for one now.
        for (source, sid) in opened {
            self.request_keyframe(source, &sid);
        }
        self.negotiate_subscriber(conn);
        Ok(())
    }

    pub(super) fn on_trickle(&mut self, conn: ConnId, trickle: proto::TrickleRequest) {
        #[derive(serde::Deserialize)]
        struct CandidateInit {
            #[serde(default)]
            candidate: String,
        }
        let role = if trickle.target == proto::SignalTarget::Subscriber as i32 {
            Role::Subscriber
        } else {
            Role::Publisher
        };
        let Ok(init) = serde_json::from_str::<CandidateInit>(&trickle.candidate_init) else {
            debug!(conn, "unreadable candidate");
            return;
        };
        let text = init.candidate.trim();
        if text.is_empty() {
            return; // end of candidates
        }
        // mDNS (`….local`) candidates cannot be resolved here; ICE-lite learns the browser's
        // address from its checks anyway.
        let Ok(candidate) = Candidate::from_sdp_string(text) else {
            debug!(conn, candidate = %text, "candidate not used");
            return;
        };
        if let Some(pc) = self.peers.get_mut(&conn).and_then(|p| p.pc_mut(role)) {
            pc.rtc().add_remote_candidate(candidate);
        }
    }

    pub(super) fn on_add_track(&mut self, conn: ConnId, request: proto::AddTrackRequest) {
        let Some(peer) = self.peers.get_mut(&conn) else {
            return;
        };
        if !peer.grant.can_publish {
            // As LiveKit: no answer, the client's publication times out.
            warn!(conn, identity = %peer.grant.identity, "track refused: no permission to publish");
            return;
        }
        // Everything here is repeated to every participant of the room: keep it small.
        #[allow(deprecated)]
        let oversized = [&request.cid, &request.name, &request.stream]
            .iter()
            .any(|text| text.len() > MAX_TRACK_TEXT)
            || request.layers.len() > MAX_LAYERS
            || request.simulcast_codecs.len() > MAX_LAYERS;
        if peer.published.len() >= MAX_TRACKS_PER_PARTICIPANT
            || peer.published.iter().any(|t| t.cid == request.cid)
            || request.cid.is_empty()
            || oversized
        {
            warn!(
                conn,
                "track refused: duplicate, unnamed, oversized or too many"
            );
            return;
        }
        let kind = if request.r#type == proto::TrackType::Audio as i32 {
            MediaKind::Audio
        } else {
            MediaKind::Video
        };
        #[allow(deprecated)]
        let layer_widths = request
            .layers
            .iter()
            .map(|layer| (rid_of(layer), layer.width))
            .collect();
        // The deprecated fields are still what livekit-client reads for layers and DTX.
        #[allow(deprecated)]
        let info = proto::TrackInfo {
            sid: new_sid("TR_"),
            r#type: request.r#type,
            name: request.name.clone(),
            muted: request.muted,
            width: request.width,
            height: request.height,
            simulcast: request.layers.len() > 1,
            disable_dtx: request.disable_dtx,
            source: request.source,
            layers: request.layers.clone(),
            disable_red: request.disable_red,
            stereo: request.stereo,
            encryption: request.encryption,
            stream: request.stream.clone(),
            audio_features: request.audio_features.clone(),
            ..Default::default()
        };
        send(
            peer,
            Response::TrackPublished(proto::TrackPublishedResponse {
                cid: request.cid.clone(),
                track: Some(info.clone()),
            }),
        );
        peer.published.push(Published {
            info,
            cid: request.cid,
            mid: None,
            kind,
            layer_widths,
            layers_seen: Vec::new(),
            keyframe_requests: Vec::new(),
            loudness: Default::default(),
            incoming: Vec::new(),
        });
        self.claim_offered_tracks(conn);
    }

    pub(super) fn on_mute(&mut self, conn: ConnId, mute: proto::MuteTrackRequest) {
        let Some(peer) = self.peers.get_mut(&conn) else {
            return;
        };
        let Some(track) = peer.published.iter_mut().find(|t| t.info.sid == mute.sid) else {
            return;
        };
        if track.info.muted == mute.muted {
            return;
        }
        track.info.muted = mute.muted;
        let live = track.is_live();
        peer.version += 1;
        let (room, info) = (peer.room.clone(), peer.info());
        if live {
            self.broadcast(
                &room,
                None,
                Response::Update(proto::ParticipantUpdate {
                    participants: vec![info],
                }),
            );
        }
        if mute.muted {
            self.stop_forwarding(conn, &mute.sid);
        } else {
            // An unmuted camera shows at once rather than at its next periodic key frame.
            self.request_keyframe(conn, &mute.sid);
        }
    }

    pub(super) fn unpublish(&mut self, conn: ConnId, track_sid: &str) {
        let Some(peer) = self.peers.get_mut(&conn) else {
            return;
        };
        peer.published.retain(|t| t.info.sid != track_sid);
        peer.version += 1;
        send(
            peer,
            Response::TrackUnpublished(proto::TrackUnpublishedResponse {
                track_sid: track_sid.to_owned(),
            }),
        );
        let (room, info) = (peer.room.clone(), peer.info());
        self.broadcast(
            &room,
            None,
            Response::Update(proto::ParticipantUpdate {
                participants: vec![info],
            }),
        );
        let members = self
            .rooms
            .get(&room)
            .map(|r| r.members.clone())
            .unwrap_or_default();
        for other in members.into_iter().filter(|&c| c != conn) {
            if let Some(sub) = self
                .peers
                .get_mut(&other)
                .and_then(|p| p.subscriber.as_mut())
            {
                stop_down_tracks(sub, |t| t.source == conn && t.track_sid == track_sid);
            }
            self.negotiate_subscriber(other);
        }
    }
}

/// Marks the matching down tracks to be stopped (or forgets those never offered).
pub(super) fn stop_down_tracks(sub: &mut Subscriber, matches: impl Fn(&DownTrack) -> bool) {
    sub.tracks
        .retain(|t| !(matches(t) && t.state == DownState::ToOpen));
    for track in sub.tracks.iter_mut().filter(|t| matches(t)) {
        if let DownState::Open(mid) | DownState::Negotiating(mid) = track.state {
            track.state = DownState::ToStop(mid);
        }
    }
}

/// The negotiated codec of a publisher m-line, as LiveKit names it (`video/VP8`).
fn mime_type(publisher: &Option<Pc>, mid: Mid, kind: MediaKind) -> Option<String> {
    let rtc = &publisher.as_ref()?.rtc;
    let media = rtc.media(mid)?;
    let pt = *media.remote_pts().first()?;
    let params = rtc.codec_config().iter().find(|p| p.pt() == pt)?;
    let kind = if kind == MediaKind::Audio {
        "audio"
    } else {
        "video"
    };
    Some(format!("{kind}/{}", params.spec().codec))
}
