//! The media engine: one task that owns the UDP socket, every room, every participant and
//! every str0m `Rtc` (each participant has a publisher and a subscriber peer connection).
//!
//! Signalling sessions talk to it through [`EngineHandle`] (an mpsc of [`Command`]s) and
//! hear back through the per-participant channel they hand in at join. Keeping all media
//! state in one task means no locks and no cross-task ordering questions: a packet that
//! arrives and its writes to every subscriber (str0m's RTP mode, `engine/rtp.rs`) happen in one
//! pass. It also means about one core for all media, which is the design limit this crate
//! accepts for the embedded default (scale-out is a LiveKit cluster); only the sending of a
//! large fan-out is split over a second thread, started once with the engine (see [`Engine::drive`]).

mod forwarding;
mod negotiation;
mod peer;
mod rtp;
mod speakers;
mod tcp;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use livekit_protocol as proto;
use proto::signal_request::Message as Request;
use proto::signal_response::Message as Response;
use str0m::net::{Protocol, Receive};
use str0m::{Input, Output};
use tokio::net::{TcpListener, UdpSocket};
use tokio::sync::{mpsc, oneshot};
use tracing::{debug, info, warn};

use self::negotiation::stop_down_tracks;
pub use self::peer::ConnId;
use self::peer::{new_sid, unix_now, Pc, Peer, Role};
use self::tcp::TcpEvent;
use crate::auth::JoinGrant;
use crate::error::Error;
use crate::metrics::Metrics;

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
/// Largest UDP datagram read (WebRTC keeps packets under the path MTU), and largest TCP frame.
const MAX_DATAGRAM: usize = 2048;
/// Datagrams handled before the engine drives its timers and sends again (fewer when one
/// of them is a media packet: its copies go out first).
const DATAGRAM_BATCH: usize = 64;
/// Peer connections with something to send in one drive pass from which the pass is split
/// over [`DRIVE_THREADS`] threads (below it a thread costs more than it saves); the
/// default of `SFU_PARALLEL_SENDS`.
pub const PARALLEL_MIN: usize = 24;
/// Threads one drive pass uses at most, the engine's own included.
const DRIVE_THREADS: usize = 2;
/// Stack of a drive thread: it runs str0m's output path only.
const DRIVE_THREAD_STACK: usize = 256 * 1024;
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
    Join {
        grant: JoinGrant,
        auto_subscribe: bool,
        signal: mpsc::Sender<Response>,
        reply: oneshot::Sender<Result<Joined, Error>>,
    },
    /// A signalling request of a joined participant.
    Request { conn: ConnId, message: Box<Request> },
    /// The participant's signalling connection ended.
    Leave { conn: ConnId },
    /// The server stops: every participant is told so; the reply comes once they were.
    Shutdown { reply: oneshot::Sender<()> },
    /// A server API call (LiveKit's RoomService) about one room.
    Admin {
        room: String,
        action: AdminAction,
        reply: oneshot::Sender<Result<AdminReply, Error>>,
    },
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
    /// Closes the room: every participant is taken out at once (told the room was
    /// deleted), their media stops; a later join opens it anew.
    DeleteRoom,
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
    /// The TCP address for ICE over TCP, when its port could be had.
    pub media_tcp_addr: Option<SocketAddr>,
    /// What the engine counts, for `/metrics`.
    pub metrics: Arc<Metrics>,
}

impl EngineHandle {
    /// Admits a participant. Responses for it arrive on `signal` after the JoinResponse.
    pub async fn join(
        &self,
        grant: JoinGrant,
        auto_subscribe: bool,
        signal: mpsc::Sender<Response>,
    ) -> Result<Joined, Error> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(Command::Join {
                grant,
                auto_subscribe,
                signal,
                reply,
            })
            .await
            .map_err(|_| Error::EngineStopped)?;
        answer.await.map_err(|_| Error::EngineStopped)?
    }

    pub async fn request(&self, conn: ConnId, message: Request) -> Result<(), Error> {
        self.commands
            .send(Command::Request {
                conn,
                message: Box::new(message),
            })
            .await
            .map_err(|_| Error::EngineStopped)
    }

    pub async fn admin(&self, room: String, action: AdminAction) -> Result<AdminReply, Error> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(Command::Admin {
                room,
                action,
                reply,
            })
            .await
            .map_err(|_| Error::EngineStopped)?;
        answer.await.map_err(|_| Error::EngineStopped)?
    }

    /// Tells every participant that the server is going away (`SERVER_SHUTDOWN`), so that
    /// clients reconnect at once instead of waiting for a timeout, and stops the engine.
    pub async fn shutdown(&self) {
        let (reply, done) = oneshot::channel();
        if self
            .commands
            .send(Command::Shutdown { reply })
            .await
            .is_ok()
        {
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
    /// Who spoke in the last interval, as the room was told.
    speakers: Vec<proto::SpeakerInfo>,
}

/// Binds the media socket and starts the engine task. `announced_ip` is the address put in
/// ICE candidates; with `udp_addr` on port 0 the port actually bound is announced.
/// `bwe_kbps` turns on bandwidth estimation towards subscribers, from that initial estimate;
/// `parallel_from`: see [`PARALLEL_MIN`].
pub async fn spawn(
    udp_addr: SocketAddr,
    announced_ip: std::net::IpAddr,
    bwe_kbps: Option<u32>,
    parallel_from: usize,
) -> Result<(EngineHandle, tokio::task::JoinHandle<()>), Error> {
    static CRYPTO: Once = Once::new();
    CRYPTO.call_once(|| str0m::crypto::from_feature_flags().install_process_default());

    let socket = Arc::new(UdpSocket::bind(udp_addr).await?);
    let udp_buffers = size_udp_buffers(&socket);
    let bound = socket.local_addr()?;
    let local = SocketAddr::new(announced_ip, bound.port());
    // ICE over TCP on the same port number; without it media is UDP only, which is no
    // reason not to start.
    let (tcp_events_tx, tcp_events) = mpsc::channel(COMMAND_QUEUE);
    let tcp = match TcpListener::bind(bound).await {
        Ok(listener) => {
            let tcp_bound = listener.local_addr()?;
            tokio::spawn(tcp::listen(listener, tcp_events_tx));
            Some(tcp_bound)
        }
        Err(e) => {
            warn!(addr = %bound, error = %e, "no ICE over TCP: the port is taken");
            None
        }
    };
    let (commands, receiver) = mpsc::channel(COMMAND_QUEUE);
    let metrics = Arc::new(Metrics::default());
    metrics
        .udp_receive_buffer
        .store(udp_buffers as u64, Ordering::Relaxed);
    let engine = Engine {
        metrics: metrics.clone(),
        socket: socket.clone(),
        local,
        local_tcp: tcp.map(|addr| SocketAddr::new(announced_ip, addr.port())),
        tcp_writers: HashMap::new(),
        rooms: HashMap::new(),
        peers: HashMap::new(),
        by_addr: HashMap::new(),
        by_ufrag: HashMap::new(),
        next_conn: 1,
        bwe_kbps,
        parallel_from: parallel_from.max(1),
        drive_pool: drive_pool(),
    };
    info!(udp = %bound, tcp = ?tcp, announced = %local, "media engine listening");
    let task = tokio::spawn(engine.run(receiver, socket, tcp_events));
    Ok((
        EngineHandle {
            commands,
            media_addr: bound,
            media_tcp_addr: tcp,
            metrics,
        },
        task,
    ))
}

/// What the media socket's receive and send buffers are asked to hold. One socket takes
/// every publisher's packets and every subscriber's feedback (receiver reports, TWCC,
/// NACKs: 200 subscribers send thousands a second); while the engine sends a key frame's
/// copies (30 packets × 200 subscribers, tens of milliseconds) nothing reads it, and the
/// system's default (212,992 bytes, ~90 datagrams as the kernel counts them) overflowed:
/// the publisher's audio packets were dropped by the kernel before the sfu saw them
/// (BENCHMARKS.md, "Sfu", session 20). The kernel caps the size at `net.core.rmem_max` /
/// `wmem_max`; see README "Video" for raising them.
pub const UDP_BUFFER_BYTES: usize = 8 << 20;

/// Asks for [`UDP_BUFFER_BYTES`] both ways and answers the receive buffer the kernel gave
/// (it counts its bookkeeping in, so it reports about twice what it was asked, up to its
/// cap); a refusal is logged and the defaults stay.
fn size_udp_buffers(socket: &UdpSocket) -> usize {
    let sock = socket2::SockRef::from(socket);
    for (what, result) in [
        ("receive", sock.set_recv_buffer_size(UDP_BUFFER_BYTES)),
        ("send", sock.set_send_buffer_size(UDP_BUFFER_BYTES)),
    ] {
        if let Err(e) = result {
            warn!(error = %e, "the media socket's {what} buffer keeps its default size");
        }
    }
    let received = sock.recv_buffer_size().unwrap_or(0);
    if received < UDP_BUFFER_BYTES {
        warn!(
            bytes = received,
            wanted = UDP_BUFFER_BYTES,
            "the media socket's receive buffer is capped by net.core.rmem_max: a big room may lose packets (README, Video)"
        );
    }
    received
}

/// The long-lived drive threads (see [`Engine::drive`]).
fn drive_pool() -> Option<rayon::ThreadPool> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(DRIVE_THREADS - 1)
        .thread_name(|_| "sfu-drive".into())
        .stack_size(DRIVE_THREAD_STACK)
        .build();
    match pool {
        Ok(pool) => Some(pool),
        Err(e) => {
            warn!(error = %e, "no drive thread: every send comes from the engine task");
            None
        }
    }
}

struct Engine {
    socket: Arc<UdpSocket>,
    /// The address in our ICE candidates, and the destination str0m matches packets to.
    local: SocketAddr,
    /// The same for ICE over TCP.
    local_tcp: Option<SocketAddr>,
    /// The open TCP media connections, by the browser's address.
    tcp_writers: HashMap<SocketAddr, mpsc::Sender<Vec<u8>>>,
    rooms: HashMap<String, RoomState>,
    peers: HashMap<ConnId, Peer>,
    /// Which peer connection a remote address belongs to, learnt from ICE (str0m's
    /// `accepts` matches the STUN username's ufrag); saves asking every `Rtc` per packet.
    by_addr: HashMap<(Protocol, SocketAddr), (ConnId, Role)>,
    /// Which peer connection an ICE username fragment is ours for: how a new address is let in.
    by_ufrag: HashMap<String, (ConnId, Role)>,
    next_conn: ConnId,
    /// Initial estimate of subscribers' bandwidth estimation, when it is on.
    bwe_kbps: Option<u32>,
    /// From how many busy peer connections a drive pass sends from two threads.
    parallel_from: usize,
    /// The drive threads beside the engine's own ([`DRIVE_THREADS`] − 1), started once and
    /// fed a share of each big pass; `None` when the system gave no thread (then the engine
    /// sends everything itself).
    drive_pool: Option<rayon::ThreadPool>,
    metrics: Arc<Metrics>,
}

impl Engine {
    async fn run(
        mut self,
        mut commands: mpsc::Receiver<Command>,
        socket: Arc<UdpSocket>,
        mut tcp_events: mpsc::Receiver<TcpEvent>,
    ) {
        let mut buf = vec![0u8; MAX_DATAGRAM];
        let mut next_speakers = Instant::now() + speakers::SPEAKER_INTERVAL;
        loop {
            self.drive();
            if Instant::now() >= next_speakers {
                self.update_speakers();
                next_speakers = Instant::now() + speakers::SPEAKER_INTERVAL;
            }
            let deadline = self.next_deadline().min(next_speakers);
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
                    Some(command) => {
                        self.on_command(command);
                        self.metrics.participants.store(self.peers.len() as u64, Ordering::Relaxed);
                    }
                    None => break,
                },
                received = socket.recv_from(&mut buf) => {
                    let mut media = match received {
                        Ok((n, source)) => self.on_datagram(Protocol::Udp, source, &buf[..n]),
                        Err(e) => {
                            debug!(error = %e, "udp receive failed");
                            false
                        }
                    };
                    // Take what else is waiting before driving every peer connection again,
                    // unless a media packet was forwarded: its copies go out first.
                    let mut read = 1;
                    while read < DATAGRAM_BATCH && !media {
                        match socket.try_recv_from(&mut buf) {
                            Ok((n, source)) => media = self.on_datagram(Protocol::Udp, source, &buf[..n]),
                            Err(_) => break,
                        }
                        read += 1;
                    }
                    self.metrics.datagrams_in.fetch_add(read as u64, Ordering::Relaxed);
                },
                Some(event) = tcp_events.recv() => match event {
                    TcpEvent::Open { remote, writer } => {
                        self.tcp_writers.insert(remote, writer);
                    }
                    TcpEvent::Packet { remote, bytes } => {
                        self.on_datagram(Protocol::Tcp, remote, &bytes);
                    }
                    TcpEvent::Closed { remote } => {
                        self.tcp_writers.remove(&remote);
                        self.by_addr.remove(&(Protocol::Tcp, remote));
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
            .flat_map(|p| {
                p.publisher
                    .iter()
                    .map(|pc| pc.next)
                    .chain(p.subscriber.iter().map(|s| s.pc.next))
            })
            .fold(cap, Instant::min)
    }

    /// Feeds due timeouts to every peer connection, sends what they want to send and handles
    /// their events, until none has anything more to say.
    ///
    /// A packet forwarded to many subscribers leaves many `Rtc`s with packets to
    /// encrypt and send (~10 µs each on this project's machine, most of it str0m and the
    /// kernel's UDP send). With `parallel_from` ([`PARALLEL_MIN`]) or more of them, the pass is split over
    /// [`DRIVE_THREADS`] threads, so that the last subscriber's copy does not wait for every
    /// other subscriber's: each thread services its share of the `Rtc`s (they are
    /// independent) and sends on the shared socket; events are handled afterwards here.
    /// The second thread lives as long as the engine (a one-thread rayon pool, handed its
    /// share as a scoped job): starting a thread per pass — about once per packet in a big
    /// room — cost more than the thread's share of some passes.
    fn drive(&mut self) {
        loop {
            let now = Instant::now();
            let mut work: Vec<(ConnId, Role, &mut Pc)> = Vec::new();
            for peer in self.peers.values_mut() {
                let conn = peer.conn;
                for (role, pc) in peer.pcs_mut() {
                    if pc.dirty || pc.next <= now {
                        work.push((conn, role, pc));
                    }
                }
            }
            let out = Outlet {
                socket: &self.socket,
                tcp_writers: &self.tcp_writers,
                metrics: &self.metrics,
            };
            let mut serviced = Serviced::default();
            let busy = work.iter().filter(|(_, _, pc)| pc.dirty).count();
            if busy >= self.parallel_from {
                let work_len = work.len();
                let share = work_len.div_ceil(DRIVE_THREADS);
                let mut chunks = work.chunks_mut(share);
                let mine = chunks.next().unwrap_or_default();
                if share < work_len && self.drive_pool.is_some() {
                    self.metrics.parallel_sends.fetch_add(1, Ordering::Relaxed);
                }
                let mut others: Vec<Serviced> = Vec::new();
                match &self.drive_pool {
                    Some(pool) => {
                        let chunks: Vec<_> = chunks.collect();
                        others.resize_with(chunks.len(), Serviced::default);
                        // The pool's long-lived thread takes the other share(s) while this
                        // thread services its own; the scope ends when both are done.
                        pool.in_place_scope(|scope| {
                            for (chunk, slot) in chunks.into_iter().zip(others.iter_mut()) {
                                scope.spawn(move |_| *slot = out.service(chunk, now));
                            }
                            serviced = out.service(mine, now);
                        });
                    }
                    // No drive thread could be had at start: this thread sends everything.
                    None => {
                        serviced = out.service(mine, now);
                        others.extend(chunks.map(|chunk| out.service(chunk, now)));
                    }
                }
                for other in others {
                    serviced.events.extend(other.events);
                    serviced.failed.extend(other.failed);
                }
            } else {
                serviced = out.service(&mut work, now);
            }
            let Serviced { events, failed } = serviced;
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

    /// Hands a datagram to the peer connection it is for; answers whether it was a media
    /// packet from a publisher (then forwarded already).
    fn on_datagram(&mut self, proto: Protocol, source: SocketAddr, bytes: &[u8]) -> bool {
        let destination = match proto {
            Protocol::Udp => self.local,
            _ => match self.local_tcp {
                Some(local) => local,
                None => return false,
            },
        };
        let Ok(contents) = bytes.try_into() else {
            return false;
        };
        let input = Input::Receive(
            Instant::now(),
            Receive {
                proto,
                source,
                destination,
                contents,
            },
        );
        let target = match self.by_addr.get(&(proto, source)) {
            Some(&(conn, role)) => self
                .peers
                .get_mut(&conn)
                .and_then(|p| p.pc_mut(role))
                .filter(|pc| pc.rtc.accepts(&input))
                .map(|_| (conn, role)),
            None => None,
        };
        let target = match target {
            Some(known) => Some(known),
            // A new address: only an ICE check naming one of our username fragments opens it,
            // so junk from anywhere costs a lookup, not a question to every `Rtc`.
            None => {
                let found = stun_local_ufrag(bytes)
                    .and_then(|ufrag| self.by_ufrag.get(ufrag))
                    .copied();
                let accepted = found.filter(|&(conn, role)| {
                    self.peers
                        .get_mut(&conn)
                        .and_then(|p| p.pc_mut(role))
                        .is_some_and(|pc| pc.rtc.accepts(&input))
                });
                if let Some(new) = accepted {
                    self.by_addr.insert((proto, source), new);
                }
                accepted
            }
        };
        let Some((conn, role)) = target else {
            debug!(%source, "datagram for no peer connection");
            return false;
        };
        let Some(pc) = self.peers.get_mut(&conn).and_then(|p| p.pc_mut(role)) else {
            return false;
        };
        if let Err(e) = pc.rtc().handle_input(input) {
            debug!(conn, ?role, error = %e, "packet refused");
            return false;
        }
        // In RTP mode str0m holds one received packet until it is polled: a publisher's
        // connection is polled now, before the next datagram, and the packet forwarded.
        role == Role::Publisher && self.service_now(conn, role)
    }

    /// Drives one peer connection at once (sends its output, handles its events); answers
    /// whether one of the events was a media packet.
    fn service_now(&mut self, conn: ConnId, role: Role) -> bool {
        let out = Outlet {
            socket: &self.socket,
            tcp_writers: &self.tcp_writers,
            metrics: &self.metrics,
        };
        let Some(pc) = self.peers.get_mut(&conn).and_then(|p| p.pc_mut(role)) else {
            return false;
        };
        let Serviced { events, failed } = out.service(&mut [(conn, role, pc)], Instant::now());
        for conn in failed {
            self.remove(conn, Some(proto::DisconnectReason::MediaFailure));
        }
        let mut media = false;
        for (conn, role, event) in events {
            media |= matches!(event, str0m::Event::RtpPacket(_));
            self.on_event(conn, role, event);
        }
        media
    }

    fn on_command(&mut self, command: Command) {
        match command {
            Command::Join {
                grant,
                auto_subscribe,
                signal,
                reply,
            } => {
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
            Command::Admin {
                room,
                action,
                reply,
            } => {
                let result = self.admin(&room, action);
                // The caller may have given up; the action stands either way.
                let _ = reply.send(result);
            }
        }
    }

    fn admin(&mut self, room: &str, action: AdminAction) -> Result<AdminReply, Error> {
        let members = self
            .rooms
            .get(room)
            .map(|r| r.members.clone())
            .unwrap_or_default();
        let find = |identity: &str| {
            members.iter().copied().find(|c| {
                self.peers
                    .get(c)
                    .is_some_and(|p| p.grant.identity == identity)
            })
        };
        match action {
            AdminAction::ListParticipants => {
                if !self.rooms.contains_key(room) {
                    return Err(Error::RoomNotFound);
                }
                Ok(AdminReply::Participants(
                    members
                        .iter()
                        .filter_map(|c| self.peers.get(c))
                        .map(Peer::info)
                        .collect(),
                ))
            }
            AdminAction::MuteTrack {
                identity,
                track_sid,
            } => {
                let conn = find(&identity).ok_or(Error::ParticipantNotFound)?;
                let peer = self.peers.get(&conn).ok_or(Error::ParticipantNotFound)?;
                if !peer.published.iter().any(|t| t.info.sid == track_sid) {
                    return Err(Error::TrackNotFound);
                }
                send(
                    peer,
                    Response::Mute(proto::MuteTrackRequest {
                        sid: track_sid.clone(),
                        muted: true,
                    }),
                );
                self.on_mute(
                    conn,
                    proto::MuteTrackRequest {
                        sid: track_sid.clone(),
                        muted: true,
                    },
                );
                let track = self
                    .peers
                    .get(&conn)
                    .and_then(|p| p.published.iter().find(|t| t.info.sid == track_sid))
                    .map(|t| t.info.clone());
                Ok(AdminReply::Track(Box::new(track.unwrap_or_default())))
            }
            AdminAction::RemoveParticipant { identity } => {
                let conn = find(&identity).ok_or(Error::ParticipantNotFound)?;
                self.remove(conn, Some(proto::DisconnectReason::ParticipantRemoved));
                Ok(AdminReply::Done)
            }
            AdminAction::DeleteRoom => {
                if !self.rooms.contains_key(room) {
                    return Err(Error::RoomNotFound);
                }
                for conn in members {
                    self.remove(conn, Some(proto::DisconnectReason::RoomDeleted));
                }
                self.rooms.remove(room);
                Ok(AdminReply::Done)
            }
        }
    }

    fn join(
        &mut self,
        grant: JoinGrant,
        auto_subscribe: bool,
        signal: mpsc::Sender<Response>,
    ) -> Result<Joined, Error> {
        // A second connection of the same identity replaces the first, as in LiveKit: that is
        // also how a client's full reconnect finds its room again.
        let duplicate = self.rooms.get(&grant.room).and_then(|room| {
            room.members.iter().copied().find(|c| {
                self.peers
                    .get(c)
                    .is_some_and(|p| p.grant.identity == grant.identity)
            })
        });
        if let Some(old) = duplicate {
            self.remove(old, Some(proto::DisconnectReason::DuplicateIdentity));
        }
        let room = self
            .rooms
            .entry(grant.room.clone())
            .or_insert_with(|| RoomState {
                sid: new_sid("RM_"),
                created: unix_now(),
                members: Vec::new(),
                speakers: Vec::new(),
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
            self.broadcast(
                &room_name,
                Some(conn),
                Response::Update(proto::ParticipantUpdate {
                    participants: vec![info],
                }),
            );
        }
        Ok(Joined { conn, response })
    }

    /// Takes a participant out: its peer connections close, the others stop receiving its
    /// tracks and hear that it left. `reason` is told to the participant itself.
    /// Removes `conn` (told `reason`, if any), and every participant whose signal queue
    /// refuses the news of it, and so on: a loop over a work list, not recursion, so that
    /// a whole room leaving at once (every queue closed) cannot exhaust the stack.
    fn remove(&mut self, conn: ConnId, reason: Option<proto::DisconnectReason>) {
        let mut pending = vec![(conn, reason)];
        while let Some((conn, reason)) = pending.pop() {
            pending.extend(
                self.remove_one(conn, reason)
                    .into_iter()
                    .map(|slow| (slow, None)),
            );
        }
    }

    /// Removes one participant; answers those who could not be told (see [`Self::remove`]).
    fn remove_one(&mut self, conn: ConnId, reason: Option<proto::DisconnectReason>) -> Vec<ConnId> {
        let Some(peer) = self.peers.remove(&conn) else {
            return Vec::new();
        };
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
        self.by_ufrag.retain(|_, (c, _)| *c != conn);
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
            if let Some(sub) = self
                .peers
                .get_mut(other)
                .and_then(|p| p.subscriber.as_mut())
            {
                stop_down_tracks(sub, |t| t.source == conn);
            }
            self.negotiate_subscriber(*other);
        }
        if peer.grant.hidden {
            return Vec::new();
        }
        self.tell_room(
            &peer.room,
            None,
            Response::Update(proto::ParticipantUpdate {
                participants: vec![peer.departed_info()],
            }),
        )
    }

    /// Sends `message` to every participant of `room` but `except`; removes those whose
    /// queue refuses it.
    fn broadcast(&mut self, room: &str, except: Option<ConnId>, message: Response) {
        for conn in self.tell_room(room, except, message) {
            self.remove(conn, None);
        }
    }

    /// Sends `message` to every participant of `room` but `except`; answers those whose
    /// queue refused it.
    fn tell_room(&self, room: &str, except: Option<ConnId>, message: Response) -> Vec<ConnId> {
        let Some(room) = self.rooms.get(room) else {
            return Vec::new();
        };
        room.members
            .iter()
            .filter(|&&c| Some(c) != except)
            .filter(|conn| {
                self.peers
                    .get(conn)
                    .is_some_and(|peer| !send(peer, message.clone()))
            })
            .copied()
            .collect()
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

/// The local (our) username fragment of a STUN binding request: `USERNAME` is
/// `<our ufrag>:<their ufrag>` (RFC 8445 7.2.2). `None` for anything else.
fn stun_local_ufrag(packet: &[u8]) -> Option<&str> {
    const MAGIC_COOKIE: [u8; 4] = [0x21, 0x12, 0xa4, 0x42];
    const USERNAME: u16 = 0x0006;
    if packet.len() < 20 || packet[0] & 0xc0 != 0 || packet[4..8] != MAGIC_COOKIE {
        return None;
    }
    let end = packet
        .len()
        .min(20 + usize::from(u16::from_be_bytes([packet[2], packet[3]])));
    let mut at = 20;
    while at + 4 <= end {
        let kind = u16::from_be_bytes([packet[at], packet[at + 1]]);
        let len = usize::from(u16::from_be_bytes([packet[at + 2], packet[at + 3]]));
        let value = packet.get(at + 4..at + 4 + len)?;
        if kind == USERNAME {
            return std::str::from_utf8(value).ok()?.split(':').next();
        }
        // Attributes are padded to four bytes.
        at += 4 + len.div_ceil(4) * 4;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::stun_local_ufrag;

    #[test]
    fn the_local_ufrag_is_read_from_a_binding_request() {
        let username = b"srvUfrag:browser";
        let mut packet = vec![0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xa4, 0x42];
        packet.extend_from_slice(&[7; 12]);
        // A PRIORITY attribute first, then USERNAME (16 bytes, no padding needed).
        packet.extend_from_slice(&[0x00, 0x24, 0x00, 0x04, 1, 2, 3, 4]);
        packet.extend_from_slice(&[0x00, 0x06, 0x00, 16]);
        packet.extend_from_slice(username);
        let len = u16::try_from(packet.len() - 20).unwrap().to_be_bytes();
        packet[2..4].copy_from_slice(&len);
        assert_eq!(stun_local_ufrag(&packet), Some("srvUfrag"));
        // RTP, DTLS and truncated packets are not STUN.
        assert_eq!(stun_local_ufrag(&[0x80; 40]), None);
        assert_eq!(
            stun_local_ufrag(&[22, 254, 253, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
            None
        );
        assert_eq!(stun_local_ufrag(&packet[..30]), None);
    }
}

/// Where a drive pass sends: what its threads share of the engine (all `Sync`).
#[derive(Clone, Copy)]
struct Outlet<'a> {
    socket: &'a UdpSocket,
    tcp_writers: &'a HashMap<SocketAddr, mpsc::Sender<Vec<u8>>>,
    metrics: &'a Metrics,
}

/// What a drive pass over some peer connections brought up.
#[derive(Default)]
struct Serviced {
    events: Vec<(ConnId, Role, str0m::Event)>,
    failed: Vec<ConnId>,
}

impl Outlet<'_> {
    /// Drives each of `pcs`: its due timeout, then everything it has to send (sent at once)
    /// and its events (returned).
    fn service(&self, pcs: &mut [(ConnId, Role, &mut Pc)], now: Instant) -> Serviced {
        let mut serviced = Serviced::default();
        for (conn, role, pc) in pcs.iter_mut() {
            let (conn, role) = (*conn, *role);
            if pc.next <= now {
                if let Err(e) = pc.rtc().handle_input(Input::Timeout(now)) {
                    warn!(conn, ?role, error = %e, "peer connection failed");
                    serviced.failed.push(conn);
                    continue;
                }
            }
            if !pc.dirty {
                continue;
            }
            pc.dirty = false;
            let mut sent = 0;
            loop {
                match pc.rtc.poll_output() {
                    Ok(Output::Timeout(at)) => {
                        pc.next = at;
                        break;
                    }
                    Ok(Output::Transmit(t)) => {
                        sent += 1;
                        // A full send buffer or queue drops the packet, as the network would.
                        if t.proto == Protocol::Udp {
                            let _ = self.socket.try_send_to(&t.contents, t.destination);
                        } else if let Some(writer) = self.tcp_writers.get(&t.destination) {
                            let _ = writer.try_send(t.contents.to_vec());
                        }
                    }
                    Ok(Output::Event(event)) => serviced.events.push((conn, role, event)),
                    Err(e) => {
                        warn!(conn, ?role, error = %e, "peer connection failed");
                        serviced.failed.push(conn);
                        break;
                    }
                }
            }
            self.metrics
                .datagrams_out
                .fetch_add(sent, Ordering::Relaxed);
            if sent > 0 && !pc.forwarded.is_empty() {
                // What was written to this subscriber since its last poll went out now.
                let out = Instant::now();
                for (arrived, kind) in pc.forwarded.drain(..) {
                    self.metrics
                        .forward_delay(kind)
                        .observe(out.saturating_duration_since(arrived));
                }
            }
            if !pc.rtc.is_alive() {
                serviced.failed.push(conn);
            }
        }
        serviced
    }
}
