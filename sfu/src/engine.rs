//! The media engine: one task that owns the UDP socket, every room, every participant and
//! every str0m `Rtc` (each participant has a publisher and a subscriber peer connection).
//!
//! Signalling sessions talk to it through [`EngineHandle`] (an mpsc of [`Command`]s) and
//! hear back through the per-participant channel they hand in at join. Keeping all media
//! state in one task means no locks and no cross-task ordering questions: a packet that
//! arrives, the frames it completes and the writes to every subscriber all happen in one
//! pass. It also means one core for all media, which is the design limit this crate
//! accepts for the embedded default (scale-out is a LiveKit cluster).

mod peer;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use livekit_protocol as proto;
use proto::signal_request::Message as Request;
use proto::signal_response::Message as Response;
use str0m::change::{SdpAnswer, SdpOffer};
use str0m::media::{Direction, KeyframeRequestKind, MediaData, MediaKind, Mid, Rid};
use str0m::net::{Protocol, Receive};
use str0m::{Candidate, Event, Input, Output, Rtc};
use tokio::net::UdpSocket;
use tokio::sync::{mpsc, oneshot};
use tracing::{debug, info, warn};

pub use self::peer::ConnId;
use self::peer::{choose_layer, new_sid, rid_of, unix_now, DownState, DownTrack, Pc, Peer, Published, Role, Subscriber};
use crate::auth::JoinGrant;
use crate::error::Error;

/// Milliseconds since the Unix epoch, LiveKit's wire clock.
pub fn unix_millis() -> i64 {
    unix_now().1
}

/// Participants in one room.
const MAX_PARTICIPANTS_PER_ROOM: usize = 500;
/// Tracks one participant may publish (camera, microphone, screen and its audio, with room).
const MAX_TRACKS_PER_PARTICIPANT: usize = 8;
/// Responses queued for one signalling connection; a client that falls this far behind is
/// dropped rather than letting the engine buffer without bound.
pub const SIGNAL_QUEUE: usize = 512;
/// Commands queued for the engine.
const COMMAND_QUEUE: usize = 1024;
/// Largest UDP datagram read (WebRTC keeps packets under the path MTU).
const MAX_DATAGRAM: usize = 2048;
/// Datagrams handled before the engine drives its timers and forwards again.
const DATAGRAM_BATCH: usize = 64;
/// A publisher is asked for a key frame at most this often per track.
const KEYFRAME_REQUEST_INTERVAL: Duration = Duration::from_millis(300);
/// A simulcast layer without a frame for this long is taken to be off.
const LAYER_STALE: Duration = Duration::from_millis(1000);
/// What the server reports as its LiveKit version: the protocol subset it speaks is that
/// of the 1.x servers that predate the single peer connection (`/rtc/v1`).
pub const SERVER_VERSION: &str = "1.9.0";
/// LiveKit signalling protocol version spoken (dual peer connection, server offers to the subscriber).
const PROTOCOL_VERSION: i32 = 15;
/// Seconds between the client's pings, and without any message before it gives up.
pub const PING_INTERVAL_SECS: i32 = 5;
pub const PING_TIMEOUT_SECS: i32 = 15;

/// A request to the engine.
pub enum Command {
    /// A verified participant joins its room; the reply is its JoinResponse.
    Join { grant: JoinGrant, auto_subscribe: bool, signal: mpsc::Sender<Response>, reply: oneshot::Sender<Result<Joined, Error>> },
    /// A signalling request of a joined participant.
    Request { conn: ConnId, message: Box<Request> },
    /// The participant's signalling connection ended.
    Leave { conn: ConnId },
    /// The server stops: every participant is told so; the reply comes once they were.
    Shutdown { reply: oneshot::Sender<()> },
    /// A server API call (LiveKit's RoomService) about one room.
    Admin { room: String, action: AdminAction, reply: oneshot::Sender<Result<AdminReply, Error>> },
}

/// What the server API can do to a room.
#[derive(Debug, Clone)]
pub enum AdminAction {
    ListParticipants,
    /// Mutes a published track; the participant's client is told to mute it too.
    MuteTrack {
        identity: String,
        track_sid: String,
    },
    /// Takes a participant out at once: its media stops, its client is told to leave.
    RemoveParticipant {
        identity: String,
    },
}

#[derive(Debug)]
pub enum AdminReply {
    Participants(Vec<proto::ParticipantInfo>),
    Track(Box<proto::TrackInfo>),
    Done,
}

/// A participant admitted to a room.
#[derive(Debug)]
pub struct Joined {
    pub conn: ConnId,
    pub response: proto::JoinResponse,
}

/// A cheap, cloneable way to reach the engine task.
#[derive(Clone, Debug)]
pub struct EngineHandle {
    commands: mpsc::Sender<Command>,
    /// The UDP address media is received on.
    pub media_addr: SocketAddr,
}

impl EngineHandle {
    /// Admits a participant. Responses for it arrive on `signal` after the JoinResponse.
    pub async fn join(&self, grant: JoinGrant, auto_subscribe: bool, signal: mpsc::Sender<Response>) -> Result<Joined, Error> {
        let (reply, answer) = oneshot::channel();
        self.commands.send(Command::Join { grant, auto_subscribe, signal, reply }).await.map_err(|_| Error::EngineStopped)?;
        answer.await.map_err(|_| Error::EngineStopped)?
    }

    pub async fn request(&self, conn: ConnId, message: Request) -> Result<(), Error> {
        self.commands.send(Command::Request { conn, message: Box::new(message) }).await.map_err(|_| Error::EngineStopped)
    }

    pub async fn admin(&self, room: String, action: AdminAction) -> Result<AdminReply, Error> {
        let (reply, answer) = oneshot::channel();
        self.commands.send(Command::Admin { room, action, reply }).await.map_err(|_| Error::EngineStopped)?;
        answer.await.map_err(|_| Error::EngineStopped)?
    }

    /// Tells every participant that the server is going away (`SERVER_SHUTDOWN`), so that
    /// clients reconnect at once instead of waiting for a timeout, and stops the engine.
    pub async fn shutdown(&self) {
        let (reply, done) = oneshot::channel();
        if self.commands.send(Command::Shutdown { reply }).await.is_ok() {
            let _ = done.await;
        }
    }

    pub async fn leave(&self, conn: ConnId) {
        // A stopped engine has nobody left to tell.
        let _ = self.commands.send(Command::Leave { conn }).await;
    }
}

/// The members of one room.
struct RoomState {
    sid: String,
    created: (i64, i64),
    members: Vec<ConnId>,
}

/// Binds the media socket and starts the engine task. `announced_ip` is the address put in
/// ICE candidates; with `udp_addr` on port 0 the port actually bound is announced.
pub async fn spawn(udp_addr: SocketAddr, announced_ip: std::net::IpAddr) -> Result<(EngineHandle, tokio::task::JoinHandle<()>), Error> {
    static CRYPTO: Once = Once::new();
    CRYPTO.call_once(|| str0m::crypto::from_feature_flags().install_process_default());

    let socket = Arc::new(UdpSocket::bind(udp_addr).await?);
    let bound = socket.local_addr()?;
    let local = SocketAddr::new(announced_ip, bound.port());
    let (commands, receiver) = mpsc::channel(COMMAND_QUEUE);
    let engine =
        Engine { socket: socket.clone(), local, rooms: HashMap::new(), peers: HashMap::new(), by_addr: HashMap::new(), next_conn: 1 };
    info!(udp = %bound, announced = %local, "media engine listening");
    let task = tokio::spawn(engine.run(receiver, socket));
    Ok((EngineHandle { commands, media_addr: bound }, task))
}

struct Engine {
    socket: Arc<UdpSocket>,
    /// The address in our ICE candidates, and the destination str0m matches packets to.
    local: SocketAddr,
    rooms: HashMap<String, RoomState>,
    peers: HashMap<ConnId, Peer>,
    /// Which peer connection a remote address belongs to, learnt from ICE (str0m's
    /// `accepts` matches the STUN username's ufrag); saves asking every `Rtc` per packet.
    by_addr: HashMap<SocketAddr, (ConnId, Role)>,
    next_conn: ConnId,
}

impl Engine {
    async fn run(mut self, mut commands: mpsc::Receiver<Command>, socket: Arc<UdpSocket>) {
        let mut buf = vec![0u8; MAX_DATAGRAM];
        loop {
            self.drive();
            let deadline = self.next_deadline();
            tokio::select! {
                command = commands.recv() => match command {
                    Some(Command::Shutdown { reply }) => {
                        let everyone: Vec<ConnId> = self.peers.keys().copied().collect();
                        for conn in everyone {
                            self.remove(conn, Some(proto::DisconnectReason::ServerShutdown));
                        }
                        let _ = reply.send(());
                        break;
                    }
                    Some(command) => self.on_command(command),
                    None => break,
                },
                received = socket.recv_from(&mut buf) => {
                    match received {
                        Ok((n, source)) => self.on_datagram(source, &buf[..n]),
                        Err(e) => debug!(error = %e, "udp receive failed"),
                    }
                    // Take what else is waiting before driving every peer connection again.
                    for _ in 1..DATAGRAM_BATCH {
                        match socket.try_recv_from(&mut buf) {
                            Ok((n, source)) => self.on_datagram(source, &buf[..n]),
                            Err(_) => break,
                        }
                    }
                },
                () = tokio::time::sleep_until(deadline.into()) => {},
            }
        }
        info!("media engine stopped");
    }

    /// The earliest time a peer connection wants to be driven (at most a second away).
    fn next_deadline(&self) -> Instant {
        let cap = Instant::now() + Duration::from_secs(1);
        self.peers
            .values()
            .flat_map(|p| p.publisher.iter().map(|pc| pc.next).chain(p.subscriber.iter().map(|s| s.pc.next)))
            .fold(cap, Instant::min)
    }

    /// Feeds due timeouts to every peer connection, sends what they want to send and handles
    /// their events, until none has anything more to say.
    fn drive(&mut self) {
        loop {
            let now = Instant::now();
            let mut events = Vec::new();
            let mut failed = Vec::new();
            for peer in self.peers.values_mut() {
                let conn = peer.conn;
                for (role, pc) in peer.pcs_mut() {
                    if pc.next <= now {
                        if let Err(e) = pc.rtc().handle_input(Input::Timeout(now)) {
                            warn!(conn, ?role, error = %e, "peer connection failed");
                            failed.push(conn);
                            continue;
                        }
                    }
                    if !pc.dirty {
                        continue;
                    }
                    pc.dirty = false;
                    loop {
                        match pc.rtc.poll_output() {
                            Ok(Output::Timeout(at)) => {
                                pc.next = at;
                                break;
                            }
                            Ok(Output::Transmit(t)) => {
                                // UDP: a full send buffer drops the packet, as the network would.
                                let _ = self.socket.try_send_to(&t.contents, t.destination);
                            }
                            Ok(Output::Event(event)) => events.push((conn, role, event)),
                            Err(e) => {
                                warn!(conn, ?role, error = %e, "peer connection failed");
                                failed.push(conn);
                                break;
                            }
                        }
                    }
                    if !pc.rtc.is_alive() {
                        failed.push(conn);
                    }
                }
            }
            for conn in failed {
                self.remove(conn, Some(proto::DisconnectReason::MediaFailure));
            }
            if events.is_empty() {
                return;
            }
            for (conn, role, event) in events {
                self.on_event(conn, role, event);
            }
        }
    }

    fn on_datagram(&mut self, source: SocketAddr, bytes: &[u8]) {
        let Ok(contents) = bytes.try_into() else { return };
        let input = Input::Receive(Instant::now(), Receive { proto: Protocol::Udp, source, destination: self.local, contents });
        if let Some(&(conn, role)) = self.by_addr.get(&source) {
            if let Some(pc) = self.peers.get_mut(&conn).and_then(|p| p.pc_mut(role)) {
                if pc.rtc.accepts(&input) {
                    if let Err(e) = pc.rtc().handle_input(input) {
                        debug!(conn, ?role, error = %e, "packet refused");
                    }
                    return;
                }
            }
        }
        for peer in self.peers.values_mut() {
            let conn = peer.conn;
            for (role, pc) in peer.pcs_mut() {
                if pc.rtc.accepts(&input) {
                    self.by_addr.insert(source, (conn, role));
                    if let Err(e) = pc.rtc().handle_input(input) {
                        debug!(conn, ?role, error = %e, "packet refused");
                    }
                    return;
                }
            }
        }
        debug!(%source, "datagram for no peer connection");
    }

    fn on_command(&mut self, command: Command) {
        match command {
            Command::Join { grant, auto_subscribe, signal, reply } => {
                let joined = self.join(grant, auto_subscribe, signal);
                if let Err(Ok(joined)) = reply.send(joined) {
                    // The session went away while waiting.
                    self.remove(joined.conn, None);
                }
            }
            Command::Request { conn, message } => {
                if let Err(e) = self.on_request(conn, *message) {
                    warn!(conn, error = %e, "signal request failed");
                }
            }
            Command::Leave { conn } => self.remove(conn, None),
            Command::Shutdown { reply } => {
                // Handled by the run loop, which stops after it.
                let _ = reply.send(());
            }
            Command::Admin { room, action, reply } => {
                let result = self.admin(&room, action);
                // The caller may have given up; the action stands either way.
                let _ = reply.send(result);
            }
        }
    }

    fn admin(&mut self, room: &str, action: AdminAction) -> Result<AdminReply, Error> {
        let members = self.rooms.get(room).map(|r| r.members.clone()).unwrap_or_default();
        let find = |identity: &str| members.iter().copied().find(|c| self.peers.get(c).is_some_and(|p| p.grant.identity == identity));
        match action {
            AdminAction::ListParticipants => {
                if !self.rooms.contains_key(room) {
                    return Err(Error::RoomNotFound);
                }
                Ok(AdminReply::Participants(members.iter().filter_map(|c| self.peers.get(c)).map(Peer::info).collect()))
            }
            AdminAction::MuteTrack { identity, track_sid } => {
                let conn = find(&identity).ok_or(Error::ParticipantNotFound)?;
                let peer = self.peers.get(&conn).ok_or(Error::ParticipantNotFound)?;
                if !peer.published.iter().any(|t| t.info.sid == track_sid) {
                    return Err(Error::TrackNotFound);
                }
                send(peer, Response::Mute(proto::MuteTrackRequest { sid: track_sid.clone(), muted: true }));
                self.on_mute(conn, proto::MuteTrackRequest { sid: track_sid.clone(), muted: true });
                let track =
                    self.peers.get(&conn).and_then(|p| p.published.iter().find(|t| t.info.sid == track_sid)).map(|t| t.info.clone());
                Ok(AdminReply::Track(Box::new(track.unwrap_or_default())))
            }
            AdminAction::RemoveParticipant { identity } => {
                let conn = find(&identity).ok_or(Error::ParticipantNotFound)?;
                self.remove(conn, Some(proto::DisconnectReason::ParticipantRemoved));
                Ok(AdminReply::Done)
            }
        }
    }

    fn join(&mut self, grant: JoinGrant, auto_subscribe: bool, signal: mpsc::Sender<Response>) -> Result<Joined, Error> {
        // A second connection of the same identity replaces the first, as in LiveKit: that is
        // also how a client's full reconnect finds its room again.
        let duplicate = self
            .rooms
            .get(&grant.room)
            .and_then(|room| room.members.iter().copied().find(|c| self.peers.get(c).is_some_and(|p| p.grant.identity == grant.identity)));
        if let Some(old) = duplicate {
            self.remove(old, Some(proto::DisconnectReason::DuplicateIdentity));
        }
        let room = self.rooms.entry(grant.room.clone()).or_insert_with(|| RoomState {
            sid: new_sid("RM_"),
            created: unix_now(),
            members: Vec::new(),
        });
        if room.members.len() >= MAX_PARTICIPANTS_PER_ROOM {
            return Err(Error::RoomFull);
        }
        let conn = self.next_conn;
        self.next_conn += 1;
        let peer = Peer {
            conn,
            sid: new_sid("PA_"),
            room: grant.room.clone(),
            grant,
            auto_subscribe,
            joined_at: unix_now(),
            version: 1,
            signal,
            publisher: None,
            subscriber: None,
            published: Vec::new(),
            offered_tracks: HashMap::new(),
        };
        room.members.push(conn);
        let others: Vec<proto::ParticipantInfo> = room
            .members
            .iter()
            .filter(|&&c| c != conn)
            .filter_map(|c| self.peers.get(c))
            .filter(|p| !p.grant.hidden)
            .map(Peer::info)
            .collect();
        let response = proto::JoinResponse {
            room: Some(proto::Room {
                sid: room.sid.clone(),
                name: peer.room.clone(),
                empty_timeout: 300,
                departure_timeout: 20,
                max_participants: MAX_PARTICIPANTS_PER_ROOM as u32,
                creation_time: room.created.0,
                creation_time_ms: room.created.1,
                num_participants: room.members.len() as u32,
                ..Default::default()
            }),
            participant: Some(peer.info()),
            other_participants: others,
            server_version: SERVER_VERSION.into(),
            subscriber_primary: false,
            client_configuration: Some(proto::ClientConfiguration {
                // No session resume yet: a client that lost its connection joins anew.
                resume_connection: proto::ClientConfigSetting::Disabled as i32,
                ..Default::default()
            }),
            ping_timeout: PING_TIMEOUT_SECS,
            ping_interval: PING_INTERVAL_SECS,
            server_info: Some(proto::ServerInfo {
                edition: proto::server_info::Edition::Standard as i32,
                version: SERVER_VERSION.into(),
                protocol: PROTOCOL_VERSION,
                node_id: "salesroom-sfu".into(),
                ..Default::default()
            }),
            ..Default::default()
        };
        info!(conn, sid = %peer.sid, room = %peer.room, identity = %peer.grant.identity, "participant joined");
        let update = (!peer.grant.hidden).then(|| peer.info());
        let room_name = peer.room.clone();
        self.peers.insert(conn, peer);
        if let Some(info) = update {
            self.broadcast(&room_name, Some(conn), Response::Update(proto::ParticipantUpdate { participants: vec![info] }));
        }
        Ok(Joined { conn, response })
    }

    /// Takes a participant out: its peer connections close, the others stop receiving its
    /// tracks and hear that it left. `reason` is told to the participant itself.
    fn remove(&mut self, conn: ConnId, reason: Option<proto::DisconnectReason>) {
        let Some(peer) = self.peers.remove(&conn) else { return };
        info!(conn, sid = %peer.sid, room = %peer.room, ?reason, "participant left");
        if let Some(reason) = reason {
            let leave = proto::LeaveRequest {
                reason: reason as i32,
                action: proto::leave_request::Action::Disconnect as i32,
                ..Default::default()
            };
            let _ = peer.signal.try_send(Response::Leave(leave));
        }
        self.by_addr.retain(|_, (c, _)| *c != conn);
        let members = match self.rooms.get_mut(&peer.room) {
            Some(room) => {
                room.members.retain(|&c| c != conn);
                room.members.clone()
            }
            None => Vec::new(),
        };
        if members.is_empty() {
            self.rooms.remove(&peer.room);
        }
        for other in &members {
            if let Some(sub) = self.peers.get_mut(other).and_then(|p| p.subscriber.as_mut()) {
                stop_down_tracks(sub, |t| t.source == conn);
            }
            self.negotiate_subscriber(*other);
        }
        if !peer.grant.hidden {
            self.broadcast(&peer.room, None, Response::Update(proto::ParticipantUpdate { participants: vec![peer.departed_info()] }));
        }
    }

    fn on_request(&mut self, conn: ConnId, message: Request) -> Result<(), Error> {
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

    fn new_pc(&self) -> Result<Pc, Error> {
        let mut rtc = Rtc::builder()
            // The browser runs full ICE against our single host candidate, like LiveKit's
            // default (ICE-lite): we never send checks, we answer them.
            .set_ice_lite(true)
            .build(Instant::now());
        let candidate = Candidate::host(self.local, "udp").map_err(|e| Error::Config(format!("media candidate {}: {e}", self.local)))?;
        rtc.add_local_candidate(candidate);
        Ok(Pc::new(rtc))
    }

    fn on_publisher_offer(&mut self, conn: ConnId, description: proto::SessionDescription) -> Result<(), Error> {
        if !self.peers.contains_key(&conn) {
            return Ok(());
        }
        let offer = SdpOffer::from_sdp_string(&description.sdp)?;
        let fresh = self.peers.get(&conn).is_some_and(|p| p.publisher.is_none());
        let new_pc = if fresh { Some(self.new_pc()?) } else { None };
        let Some(peer) = self.peers.get_mut(&conn) else { return Ok(()) };
        if let Some(pc) = new_pc {
            peer.publisher = Some(pc);
        }
        let Some(pc) = peer.publisher.as_mut() else { return Ok(()) };
        let answer = pc.rtc().sdp_api().accept_offer(offer)?;
        peer.offered_tracks = crate::sdp::media_lines(&description.sdp).into_iter().filter_map(|l| Some((l.mid, l.track_id?))).collect();
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
            .filter(|t| t.mid.is_some_and(|mid| peer.offered_tracks.get(&*mid) != Some(&t.cid)))
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
    fn claim_offered_tracks(&mut self, conn: ConnId) {
        let Some(peer) = self.peers.get_mut(&conn) else { return };
        let mut live = Vec::new();
        for track in peer.published.iter_mut().filter(|t| t.mid.is_none()) {
            if let Some((mid, _)) = peer.offered_tracks.iter().find(|(_, cid)| **cid == track.cid) {
                let mid = Mid::from(mid.as_str());
                track.mid = Some(mid);
                track.info.mid = mid.to_string();
                if let Some(media) = peer.publisher.as_ref().and_then(|pc| pc.rtc.media(mid)) {
                    track.info.mime_type = mime_type(&peer.publisher, media.mid(), track.kind).unwrap_or_default();
                }
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
        self.broadcast(&room, None, Response::Update(proto::ParticipantUpdate { participants: vec![info] }));
        let members = self.rooms.get(&room).map(|r| r.members.clone()).unwrap_or_default();
        for other in members.into_iter().filter(|&c| c != conn) {
            for sid in &live {
                self.add_down_track(other, conn, sid);
            }
            self.negotiate_subscriber(other);
        }
    }

    /// A newly connected subscriber receives every live track of the room.
    fn subscribe_to_room(&mut self, conn: ConnId) {
        let Some(room) = self.peers.get(&conn).map(|p| p.room.clone()) else { return };
        let members = self.rooms.get(&room).map(|r| r.members.clone()).unwrap_or_default();
        for source in members.into_iter().filter(|&c| c != conn) {
            let sids: Vec<String> = self
                .peers
                .get(&source)
                .map(|p| p.published.iter().filter(|t| t.is_live()).map(|t| t.info.sid.clone()).collect())
                .unwrap_or_default();
            for sid in sids {
                self.add_down_track(conn, source, &sid);
            }
        }
        self.negotiate_subscriber(conn);
    }

    /// Queues `source`'s track for `conn` when `conn` subscribes automatically and is ready.
    fn add_down_track(&mut self, conn: ConnId, source: ConnId, track_sid: &str) {
        let Some((source_sid, kind)) =
            self.peers.get(&source).and_then(|p| p.published.iter().find(|t| t.info.sid == track_sid).map(|t| (p.sid.clone(), t.kind)))
        else {
            return;
        };
        let new_pc = match self.peers.get(&conn) {
            Some(p) if p.grant.can_subscribe && p.auto_subscribe && p.publisher.is_some() => p.subscriber.is_none(),
            _ => return,
        };
        let pc = if new_pc {
            match self.new_pc() {
                Ok(pc) => Some(pc),
                Err(e) => {
                    warn!(conn, error = %e, "subscriber peer connection not created");
                    return;
                }
            }
        } else {
            None
        };
        let Some(peer) = self.peers.get_mut(&conn) else { return };
        if let Some(pc) = pc {
            peer.subscriber = Some(Subscriber { pc, pending: None, offer_id: 0, tracks: Vec::new() });
        }
        let Some(sub) = peer.subscriber.as_mut() else { return };
        if sub.tracks.iter().any(|t| t.source == source && t.track_sid == track_sid) {
            return;
        }
        sub.tracks.push(DownTrack::new(source, source_sid, track_sid.to_owned(), kind));
    }

    /// Offers the subscriber connection's pending changes, unless an offer is outstanding
    /// (the answer to it triggers the next one).
    fn negotiate_subscriber(&mut self, conn: ConnId) {
        let Some(peer) = self.peers.get_mut(&conn) else { return };
        let Some(sub) = peer.subscriber.as_mut() else { return };
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
                    let mid = change.add_media(track.kind, Direction::SendOnly, Some(stream_id), Some(track.track_sid.clone()), None);
                    track.state = DownState::Negotiating(mid);
                }
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
        let Some((offer, pending)) = change.apply() else { return };
        sub.pending = Some(pending);
        sub.offer_id += 1;
        let mid_to_track_id = sub
            .tracks
            .iter()
            .filter_map(|t| match t.state {
                DownState::Negotiating(mid) | DownState::Open(mid) => Some((mid.to_string(), t.track_sid.clone())),
                _ => None,
            })
            .collect();
        let offer = proto::SessionDescription { r#type: "offer".into(), sdp: offer.to_sdp_string(), id: sub.offer_id, mid_to_track_id };
        send(peer, Response::Offer(offer));
    }

    fn on_subscriber_answer(&mut self, conn: ConnId, description: proto::SessionDescription) -> Result<(), Error> {
        let Some(sub) = self.peers.get_mut(&conn).and_then(|p| p.subscriber.as_mut()) else { return Ok(()) };
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
        sub.tracks.retain(|t| !matches!(t.state, DownState::NegotiatingStop(_)));
        // A new receiver decodes nothing before a key frame: ask the publisher for one now.
        for (source, sid) in opened {
            self.request_keyframe(source, &sid);
        }
        self.negotiate_subscriber(conn);
        Ok(())
    }

    fn on_trickle(&mut self, conn: ConnId, trickle: proto::TrickleRequest) {
        #[derive(serde::Deserialize)]
        struct CandidateInit {
            #[serde(default)]
            candidate: String,
        }
        let role = if trickle.target == proto::SignalTarget::Subscriber as i32 { Role::Subscriber } else { Role::Publisher };
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

    fn on_add_track(&mut self, conn: ConnId, request: proto::AddTrackRequest) {
        let Some(peer) = self.peers.get_mut(&conn) else { return };
        if !peer.grant.can_publish {
            // As LiveKit: no answer, the client's publication times out.
            warn!(conn, identity = %peer.grant.identity, "track refused: no permission to publish");
            return;
        }
        if peer.published.len() >= MAX_TRACKS_PER_PARTICIPANT
            || peer.published.iter().any(|t| t.cid == request.cid)
            || request.cid.is_empty()
        {
            warn!(conn, cid = %request.cid, "track refused: duplicate, unnamed or too many");
            return;
        }
        let kind = if request.r#type == proto::TrackType::Audio as i32 { MediaKind::Audio } else { MediaKind::Video };
        #[allow(deprecated)]
        let layer_widths = request.layers.iter().map(|layer| (rid_of(layer), layer.width)).collect();
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
        send(peer, Response::TrackPublished(proto::TrackPublishedResponse { cid: request.cid.clone(), track: Some(info.clone()) }));
        peer.published.push(Published {
            info,
            cid: request.cid,
            mid: None,
            kind,
            layer_widths,
            layers_seen: Vec::new(),
            keyframe_requests: Vec::new(),
        });
        self.claim_offered_tracks(conn);
    }

    fn on_mute(&mut self, conn: ConnId, mute: proto::MuteTrackRequest) {
        let Some(peer) = self.peers.get_mut(&conn) else { return };
        let Some(track) = peer.published.iter_mut().find(|t| t.info.sid == mute.sid) else { return };
        if track.info.muted == mute.muted {
            return;
        }
        track.info.muted = mute.muted;
        let live = track.is_live();
        peer.version += 1;
        let (room, info) = (peer.room.clone(), peer.info());
        if live {
            self.broadcast(&room, None, Response::Update(proto::ParticipantUpdate { participants: vec![info] }));
        }
        if !mute.muted {
            // An unmuted camera shows at once rather than at its next periodic key frame.
            self.request_keyframe(conn, &mute.sid);
        }
    }

    fn unpublish(&mut self, conn: ConnId, track_sid: &str) {
        let Some(peer) = self.peers.get_mut(&conn) else { return };
        peer.published.retain(|t| t.info.sid != track_sid);
        peer.version += 1;
        send(peer, Response::TrackUnpublished(proto::TrackUnpublishedResponse { track_sid: track_sid.to_owned() }));
        let (room, info) = (peer.room.clone(), peer.info());
        self.broadcast(&room, None, Response::Update(proto::ParticipantUpdate { participants: vec![info] }));
        let members = self.rooms.get(&room).map(|r| r.members.clone()).unwrap_or_default();
        for other in members.into_iter().filter(|&c| c != conn) {
            if let Some(sub) = self.peers.get_mut(&other).and_then(|p| p.subscriber.as_mut()) {
                stop_down_tracks(sub, |t| t.source == conn && t.track_sid == track_sid);
            }
            self.negotiate_subscriber(other);
        }
    }

    fn on_event(&mut self, conn: ConnId, role: Role, event: Event) {
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
    fn forward(&mut self, conn: ConnId, data: MediaData) {
        let now = Instant::now();
        let Some(peer) = self.peers.get_mut(&conn) else { return };
        let room_name = peer.room.clone();
        let Some(track) = peer.published.iter_mut().find(|t| t.mid == Some(data.mid)) else { return };
        if track.info.muted {
            // Muted, possibly by the server API: whatever the client still sends stays here.
            return;
        }
        let track_sid = track.info.sid.clone();
        let flowing = match data.rid {
            Some(rid) => {
                track.saw_layer(rid, now);
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
            let Some(down) = sub.tracks.iter_mut().find(|t| t.source == conn && t.track_sid == track_sid) else { continue };
            let DownState::Open(mid) = down.state else { continue };
            if down.disabled {
                continue;
            }
            if let Some(rid) = data.rid {
                let target = choose_layer(&flowing, down.max_width);
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
            if let Err(e) = writer.write(pt, data.network_time, data.time, data.data.clone()) {
                debug!(conn = other, error = %e, "forward failed");
            }
        }
        for rid in keyframes {
            self.request_layer_keyframe(conn, data.mid, rid);
        }
    }

    /// Asks the publisher of `track_sid` for a key frame of every layer it sends.
    fn request_keyframe(&mut self, source: ConnId, track_sid: &str) {
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
        for (rid, _) in layers {
            self.request_layer_keyframe(source, mid, Some(rid));
        }
    }

    fn request_layer_keyframe(&mut self, source: ConnId, mid: Mid, rid: Option<Rid>) {
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
    fn on_track_settings(&mut self, conn: ConnId, settings: proto::UpdateTrackSettings) {
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
            down.max_width = (settings.width > 0).then_some(settings.width);
        }
        for (source, sid) in restarted {
            self.request_keyframe(source, &sid);
        }
    }

    /// Sends `message` to every participant of `room` but `except`.
    fn broadcast(&mut self, room: &str, except: Option<ConnId>, message: Response) {
        let Some(room) = self.rooms.get(room) else { return };
        let mut slow = Vec::new();
        for conn in room.members.iter().filter(|&&c| Some(c) != except) {
            if let Some(peer) = self.peers.get(conn) {
                if !send(peer, message.clone()) {
                    slow.push(*conn);
                }
            }
        }
        for conn in slow {
            self.remove(conn, None);
        }
    }
}

/// Queues a response for a participant; false when its connection cannot take it (gone,
/// or so far behind that it is better dropped).
fn send(peer: &Peer, message: Response) -> bool {
    match peer.signal.try_send(message) {
        Ok(()) => true,
        Err(e) => {
            warn!(conn = peer.conn, error = %e, "signal queue refused a response");
            false
        }
    }
}

/// Marks the matching down tracks to be stopped (or forgets those never offered).
fn stop_down_tracks(sub: &mut Subscriber, matches: impl Fn(&DownTrack) -> bool) {
    sub.tracks.retain(|t| !(matches(t) && t.state == DownState::ToOpen));
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
    let kind = if kind == MediaKind::Audio { "audio" } else { "video" };
    Some(format!("{kind}/{}", params.spec().codec))
}
