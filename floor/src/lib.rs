//! The floor: the least work any WebSocket server can do for the fan-out benchmark, so
//! that the hub's figures have something to be measured against (issue #36).
//!
//! It speaks as much of the hub's wire as `loadtest` needs to drive it unchanged: `/ws`
//! upgrades offering `salesroom.v1.json` (and the token as `bearer.<token>`, which it
//! does not read), `hello` answered with a `welcome`, a guide's `switchSlide` acked and
//! fanned out as one `slideSwitched` event with the next `seq` and its `prev`, a
//! `guideHovered` fanned out as a volatile frame, and `/metrics` with the counters the
//! load generator and `scripts/bench-fanout.sh` read (`hub_connections`,
//! `hub_events_total`, `hub_frames_out_total`, `hub_write_batches_total` (here: `send`
//! calls), the process's memory and CPU; and `floor_queued_sends_total`, the sends a
//! socket did not take whole).
//!
//! Why it is the limit: per delivery, any server for this workload has to hand the
//! frame's bytes to the kernel for that one socket (TCP has no send to many sockets), and
//! per slide change it has to read the guide's frame and encode the event at least once.
//! The floor does exactly that and nothing else: one thread waits in `epoll_wait`; a slide
//! change is parsed and encoded once, into one WebSocket frame, and that same buffer goes
//! to every socket with one `send` each, in one pass, with no queue, task, wake-up or
//! hand-over in between; only bytes a socket cannot take are copied, queued and written
//! when epoll says it is writable. On this machine's loopback that `send` is most of a
//! delivery's cost (BENCHMARKS.md), so the hub's p50, p99 and CPU per delivery divided by
//! the floor's say what the hub's own work costs.
//!
//! What it leaves out, and a real hub cannot: verifying tokens and roles (anyone may
//! switch slides), storing events and replaying them on resume (a resumed client gets
//! `resume: snapshot` without a snapshot), the appointment's state and snapshots, rooms
//! and audiences (one room, everyone gets everything), rate limits, pings and the
//! heartbeat, slow consumers (a queue grows without bound), MessagePack, fragmented
//! messages, the engagement actions (refused with an `error`), Redis and replicas, more
//! than one thread, logs and draining. Of these only the audiences, the per-connection
//! queues and the writers' hand-overs are work per delivery of a slide change: that is
//! the hub's overhead the ratios measure.

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use base64::Engine as _;
use protocol::action::{Action, Interaction};
use protocol::frame::{ClientFrame, ErrorCode, Event, Resume, ServerFrame, VolatileEvent};
use protocol::status::Role;
use sha1::{Digest, Sha1};

/// The epoll token of the listening socket (connections use their file descriptor).
const LISTENER: u64 = u64::MAX;

/// The largest message a client may send (as the hub: `protocol::frame::MAX_MESSAGE_SIZE`).
const MAX_MESSAGE: usize = protocol::frame::MAX_MESSAGE_SIZE;

/// The largest HTTP request head the floor reads.
const MAX_HEAD: usize = 16 * 1024;

/// The epoch of the floor's (never stored) event history.
const EPOCH: &str = "floor";

/// Where a connection stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Reading the HTTP request head.
    Http,
    /// Upgraded; waiting for `hello`.
    Upgraded,
    /// Welcomed: receives every event.
    Open,
    /// Answered and shut for writing; what still comes is read and dropped until the
    /// peer closes.
    Draining,
}

struct Connection {
    stream: TcpStream,
    phase: Phase,
    /// Bytes read and not yet taken.
    input: Vec<u8>,
    /// Bytes the socket did not take yet, from `output_at` on.
    output: Vec<u8>,
    output_at: usize,
    /// Whether epoll also reports this socket writable (only while `output` has bytes).
    wants_write: bool,
}

/// The counters `/metrics` shows.
#[derive(Debug, Default, Clone, Copy)]
struct Counters {
    /// Welcomed connections.
    connections: u64,
    events: u64,
    frames_out: u64,
    writes: u64,
    /// Sends whose bytes the socket did not take at once (queued until writable).
    queued: u64,
}

/// The floor server: a listening socket and its epoll loop ([`Floor::run`]).
pub struct Floor {
    listener: TcpListener,
    epoll: OwnedFd,
    /// Indexed by file descriptor.
    connections: Vec<Option<Connection>>,
    seq: u64,
    counters: Counters,
}

fn check(result: libc::c_int) -> io::Result<libc::c_int> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(result)
    }
}

impl Floor {
    /// Listens on `addr` (port 0: any free port, see [`Floor::local_addr`]).
    pub fn bind(addr: SocketAddr) -> io::Result<Floor> {
        let listener = TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        // SAFETY: epoll_create1 has no memory preconditions; the descriptor it returns is
        // owned by nothing else.
        let epoll =
            unsafe { OwnedFd::from_raw_fd(check(libc::epoll_create1(libc::EPOLL_CLOEXEC))?) };
        let floor = Floor {
            listener,
            epoll,
            connections: Vec::new(),
            seq: 0,
            counters: Counters::default(),
        };
        floor.control(
            libc::EPOLL_CTL_ADD,
            floor.listener.as_raw_fd(),
            libc::EPOLLIN as u32,
            LISTENER,
        )?;
        Ok(floor)
    }

    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    fn control(&self, op: libc::c_int, fd: RawFd, events: u32, token: u64) -> io::Result<()> {
        let mut event = libc::epoll_event { events, u64: token };
        // SAFETY: both descriptors are open and `event` lives for the call.
        check(unsafe { libc::epoll_ctl(self.epoll.as_raw_fd(), op, fd, &mut event) })?;
        Ok(())
    }

    /// Serves until an error of epoll itself.
    pub fn run(mut self) -> io::Result<()> {
        let mut events = vec![libc::epoll_event { events: 0, u64: 0 }; 1024];
        loop {
            // SAFETY: `events` is valid for `len` entries during the call.
            let n = unsafe {
                libc::epoll_wait(
                    self.epoll.as_raw_fd(),
                    events.as_mut_ptr(),
                    events.len() as libc::c_int,
                    -1,
                )
            };
            if n < 0 {
                let error = io::Error::last_os_error();
                if error.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(error);
            }
            for event in &events[..n as usize] {
                let (token, flags) = (event.u64, event.events);
                if token == LISTENER {
                    self.accept();
                    continue;
                }
                let fd = token as RawFd;
                if flags & libc::EPOLLOUT as u32 != 0 {
                    self.flush(fd);
                }
                if flags
                    & (libc::EPOLLIN | libc::EPOLLHUP | libc::EPOLLERR | libc::EPOLLRDHUP) as u32
                    != 0
                {
                    self.readable(fd);
                }
            }
        }
    }

    /// Takes every waiting connection.
    fn accept(&mut self) {
        loop {
            let stream = match self.listener.accept() {
                Ok((stream, _)) => stream,
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => return,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => {
                    // Out of files, say: the waiting connections stay in the backlog.
                    eprintln!("floor: accept: {error}");
                    return;
                }
            };
            if stream.set_nonblocking(true).is_err() || stream.set_nodelay(true).is_err() {
                continue;
            }
            let fd = stream.as_raw_fd();
            let events = (libc::EPOLLIN | libc::EPOLLRDHUP) as u32;
            if self
                .control(libc::EPOLL_CTL_ADD, fd, events, fd as u64)
                .is_err()
            {
                continue;
            }
            let index = fd as usize;
            if self.connections.len() <= index {
                self.connections.resize_with(index + 1, || None);
            }
            self.connections[index] = Some(Connection {
                stream,
                phase: Phase::Http,
                input: Vec::new(),
                output: Vec::new(),
                output_at: 0,
                wants_write: false,
            });
        }
    }

    fn connection(&mut self, fd: RawFd) -> Option<&mut Connection> {
        self.connections.get_mut(fd as usize)?.as_mut()
    }

    fn close(&mut self, fd: RawFd) {
        if let Some(connection) = self.connections.get_mut(fd as usize).and_then(Option::take) {
            if connection.phase == Phase::Open {
                self.counters.connections -= 1;
            }
            // Closing the descriptor takes it out of the epoll set.
        }
    }

    /// Reads what the socket has and handles it.
    fn readable(&mut self, fd: RawFd) {
        let mut buffer = [0u8; 16 * 1024];
        let mut closed = false;
        {
            let Some(connection) = self.connection(fd) else {
                return;
            };
            loop {
                match connection.stream.read(&mut buffer) {
                    Ok(0) => {
                        closed = true;
                        break;
                    }
                    Ok(_) if connection.phase == Phase::Draining => {}
                    Ok(n) => connection.input.extend_from_slice(&buffer[..n]),
                    Err(error) if error.kind() == io::ErrorKind::WouldBlock => break,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => {
                        closed = true;
                        break;
                    }
                }
            }
        }
        if !self.take_input(fd) || closed {
            self.close(fd);
        }
    }

    /// Handles the complete requests and frames read so far; `false` when the
    /// connection is to be closed.
    fn take_input(&mut self, fd: RawFd) -> bool {
        loop {
            let Some(connection) = self.connection(fd) else {
                return false;
            };
            match connection.phase {
                Phase::Draining => return true,
                Phase::Http => {
                    let Some(end) = find(&connection.input, b"\r\n\r\n") else {
                        return connection.input.len() <= MAX_HEAD;
                    };
                    let head = String::from_utf8_lossy(&connection.input[..end]).into_owned();
                    connection.input.drain(..end + 4);
                    if !self.request(fd, &head) {
                        return false;
                    }
                }
                Phase::Upgraded | Phase::Open => {
                    let frame = match parse_frame(&connection.input) {
                        Ok(Some(frame)) => frame,
                        Ok(None) => return true,
                        Err(()) => return false,
                    };
                    let payload = unmask(&connection.input, &frame);
                    connection.input.drain(..frame.end);
                    if !self.message(fd, frame.opcode, &payload) {
                        return false;
                    }
                }
            }
        }
    }

    /// Answers an HTTP request head: `/ws` upgrades, `/metrics` reads the counters,
    /// anything else is not here.
    fn request(&mut self, fd: RawFd, head: &str) -> bool {
        let mut lines = head.split("\r\n");
        let target = lines.next().unwrap_or("").split(' ').nth(1).unwrap_or("");
        let path = target.split('?').next().unwrap_or("");
        let header = |name: &str| {
            head.split("\r\n").skip(1).find_map(|line| {
                let (key, value) = line.split_once(':')?;
                key.trim()
                    .eq_ignore_ascii_case(name)
                    .then(|| value.trim().to_owned())
            })
        };
        if path == "/ws" {
            let key = header("sec-websocket-key");
            let offered = header("sec-websocket-protocol").unwrap_or_default();
            let json = offered
                .split(',')
                .any(|p| p.trim() == protocol::frame::SUBPROTOCOL_JSON);
            if let (Some(key), true) = (key, json) {
                let response = format!(
                    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {}\r\nSec-WebSocket-Protocol: {}\r\n\r\n",
                    accept_key(&key),
                    protocol::frame::SUBPROTOCOL_JSON
                );
                if let Some(connection) = self.connection(fd) {
                    connection.phase = Phase::Upgraded;
                }
                return self.send(fd, response.as_bytes());
            }
            return self.answer(
                fd,
                "400 Bad Request",
                "a WebSocket upgrade offering salesroom.v1.json expected\n",
            );
        }
        if path == "/metrics" {
            let body = self.metrics();
            return self.answer(fd, "200 OK", &body);
        }
        self.answer(
            fd,
            "404 Not Found",
            "the floor serves /ws and /metrics only\n",
        )
    }

    /// Answers a plain HTTP request and shuts the connection for writing.
    fn answer(&mut self, fd: RawFd, status: &str, body: &str) -> bool {
        let response = format!(
            "HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        if !self.send(fd, response.as_bytes()) {
            return false;
        }
        if let Some(connection) = self.connection(fd) {
            connection.phase = Phase::Draining;
            connection.input.clear();
            if connection.output.is_empty() {
                let _ = connection.stream.shutdown(Shutdown::Write);
            }
        }
        true
    }

    fn metrics(&self) -> String {
        let c = self.counters;
        let (memory, cpu) = process_usage();
        format!(
            "hub_connections {}\nhub_events_total {}\nhub_frames_out_total {}\nhub_write_batches_total {}\nprocess_resident_memory_bytes {memory}\nprocess_cpu_seconds_total {cpu}\nfloor_queued_sends_total {}\n",
            c.connections, c.events, c.frames_out, c.writes, c.queued
        )
    }

    /// Handles one WebSocket message; `false` closes the connection.
    fn message(&mut self, fd: RawFd, opcode: u8, payload: &[u8]) -> bool {
        match opcode {
            // Text.
            0x1 => self.text(fd, payload),
            // Binary (MessagePack is not spoken here): ignored.
            0x2 => true,
            // Close: answered with the same code, then closed.
            0x8 => {
                let code = payload.get(..2).unwrap_or(&[0x03, 0xe8]);
                let _ = self.send(fd, &ws_frame(0x8, code));
                false
            }
            // Ping: pong.
            0x9 => self.send(fd, &ws_frame(0xA, payload)),
            // Pong.
            0xA => true,
            // Continuation frames (fragmented messages) are not spoken here.
            _ => false,
        }
    }

    fn text(&mut self, fd: RawFd, payload: &[u8]) -> bool {
        let Ok(frame) = serde_json::from_slice::<ClientFrame>(payload) else {
            let error = ServerFrame::error(None, ErrorCode::BadFrame, "not a frame");
            return self.reply(fd, &error);
        };
        let phase = self.connection(fd).map(|c| c.phase);
        if phase == Some(Phase::Upgraded) {
            let ClientFrame::Hello { last_seq, .. } = frame else {
                let close = [
                    &protocol::frame::close_code::NO_HELLO.to_be_bytes()[..],
                    b"hello expected",
                ]
                .concat();
                let _ = self.send(fd, &ws_frame(0x8, &close));
                return false;
            };
            let welcome = ServerFrame::Welcome {
                appointment_id: "0".repeat(32),
                attendee_id: "0".repeat(32),
                role: Role::Client,
                seq: self.seq,
                epoch: EPOCH.to_owned(),
                resume: if last_seq.is_some() {
                    Resume::Snapshot
                } else {
                    Resume::Fresh
                },
                snapshot: None,
                heartbeat_ms: 30_000,
                participant_pages: None,
            };
            if let Some(connection) = self.connection(fd) {
                connection.phase = Phase::Open;
            }
            self.counters.connections += 1;
            return self.reply(fd, &welcome);
        }
        match frame {
            ClientFrame::Hello { .. } => self.reply(
                fd,
                &ServerFrame::error(
                    None,
                    ErrorCode::UnexpectedFrame,
                    "hello was already received",
                ),
            ),
            ClientFrame::Ping { nonce } => self.reply(fd, &ServerFrame::Pong { nonce }),
            ClientFrame::Pong { .. } => true,
            ClientFrame::Action {
                r#ref,
                action:
                    Action::SwitchSlide {
                        page_id,
                        section_id,
                        slide_alias,
                    },
            } => {
                let prev = self.seq;
                self.seq += 1;
                let seq = self.seq;
                let ok = match r#ref {
                    Some(r#ref) => self.reply(
                        fd,
                        &ServerFrame::Ack {
                            r#ref,
                            seq: Some(seq),
                        },
                    ),
                    None => true,
                };
                let event = Event::SlideSwitched {
                    page_id,
                    section_id,
                    slide_alias,
                };
                self.counters.events += 1;
                self.fan_out(&ServerFrame::Event { seq, prev, event });
                ok
            }
            ClientFrame::Interaction {
                r#ref,
                interaction: Interaction::GuideHovered(payload),
            } => {
                let ok = match r#ref {
                    Some(r#ref) => self.reply(fd, &ServerFrame::Ack { r#ref, seq: None }),
                    None => true,
                };
                let event = VolatileEvent::GuideHovered {
                    hovered_element_id: payload.hovered_element_id,
                };
                self.fan_out(&ServerFrame::Volatile { event });
                ok
            }
            ClientFrame::Action { r#ref, .. } | ClientFrame::Interaction { r#ref, .. } => self
                .reply(
                    fd,
                    &ServerFrame::error(
                        r#ref,
                        ErrorCode::UnexpectedFrame,
                        "the floor only switches slides and shows the guide's hover",
                    ),
                ),
        }
    }

    /// Sends one frame to one connection.
    fn reply(&mut self, fd: RawFd, frame: &ServerFrame) -> bool {
        let text = serde_json::to_vec(frame).expect("a server frame encodes");
        self.send(fd, &ws_frame(0x1, &text))
    }

    /// Encodes `frame` once and writes it to every welcomed connection, one `send` each.
    fn fan_out(&mut self, frame: &ServerFrame) {
        let text = serde_json::to_vec(frame).expect("a server frame encodes");
        let bytes = ws_frame(0x1, &text);
        let mut failed = Vec::new();
        for fd in 0..self.connections.len() {
            let open = self.connections[fd]
                .as_ref()
                .is_some_and(|c| c.phase == Phase::Open);
            if open {
                self.counters.frames_out += 1;
                if !self.send(fd as RawFd, &bytes) {
                    failed.push(fd as RawFd);
                }
            }
        }
        for fd in failed {
            self.close(fd);
        }
    }

    /// Writes `bytes` to a connection with one `send` when nothing is queued before
    /// them; what the socket does not take is queued until it is writable. `false` when
    /// the socket failed.
    fn send(&mut self, fd: RawFd, bytes: &[u8]) -> bool {
        let Some(connection) = self
            .connections
            .get_mut(fd as usize)
            .and_then(Option::as_mut)
        else {
            return false;
        };
        if connection.output.is_empty() {
            self.counters.writes += 1;
            let written = match connection.stream.write(bytes) {
                Ok(n) => n,
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => 0,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => 0,
                Err(_) => return false,
            };
            if written == bytes.len() {
                return true;
            }
            self.counters.queued += 1;
            connection.output.extend_from_slice(&bytes[written..]);
            connection.output_at = 0;
        } else {
            connection.output.extend_from_slice(bytes);
            return true;
        }
        if !connection.wants_write {
            connection.wants_write = true;
            let events = (libc::EPOLLIN | libc::EPOLLRDHUP | libc::EPOLLOUT) as u32;
            return self
                .control(libc::EPOLL_CTL_MOD, fd, events, fd as u64)
                .is_ok();
        }
        true
    }

    /// Writes what is queued for a connection that became writable.
    fn flush(&mut self, fd: RawFd) {
        let Some(connection) = self
            .connections
            .get_mut(fd as usize)
            .and_then(Option::as_mut)
        else {
            return;
        };
        let mut failed = false;
        while connection.output_at < connection.output.len() {
            self.counters.writes += 1;
            match connection
                .stream
                .write(&connection.output[connection.output_at..])
            {
                Ok(n) => connection.output_at += n,
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => break,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => {
                    failed = true;
                    break;
                }
            }
        }
        if failed {
            self.close(fd);
            return;
        }
        if connection.output_at < connection.output.len() {
            return;
        }
        connection.output.clear();
        connection.output_at = 0;
        connection.wants_write = false;
        if connection.phase == Phase::Draining {
            let _ = connection.stream.shutdown(Shutdown::Write);
        }
        let events = (libc::EPOLLIN | libc::EPOLLRDHUP) as u32;
        if self
            .control(libc::EPOLL_CTL_MOD, fd, events, fd as u64)
            .is_err()
        {
            self.close(fd);
        }
    }
}

/// Where `needle` first occurs in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key` (RFC 6455 section 4.2.2).
fn accept_key(key: &str) -> String {
    let mut sha1 = Sha1::new();
    sha1.update(key.as_bytes());
    sha1.update(b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
    base64::engine::general_purpose::STANDARD.encode(sha1.finalize())
}

/// A whole frame at the start of the input: where its payload is, and its mask.
#[derive(Debug, PartialEq, Eq)]
struct FrameAt {
    opcode: u8,
    mask: Option<[u8; 4]>,
    payload: std::ops::Range<usize>,
    end: usize,
}

/// The frame at the start of `input`: `None` until all of it is there, an error for
/// one the floor does not take (fragmented, or over the size limit).
fn parse_frame(input: &[u8]) -> Result<Option<FrameAt>, ()> {
    let [first, second, ..] = *input else {
        return Ok(None);
    };
    if first & 0x80 == 0 {
        return Err(());
    }
    let (len, mut at) = match second & 0x7f {
        126 => match input.get(2..4) {
            Some(b) => (u16::from_be_bytes([b[0], b[1]]) as u64, 4),
            None => return Ok(None),
        },
        127 => match input.get(2..10) {
            Some(b) => (u64::from_be_bytes(b.try_into().map_err(|_| ())?), 10),
            None => return Ok(None),
        },
        n => (n as u64, 2),
    };
    if len > MAX_MESSAGE as u64 {
        return Err(());
    }
    let mask = if second & 0x80 != 0 {
        let Some(key) = input.get(at..at + 4) else {
            return Ok(None);
        };
        at += 4;
        Some([key[0], key[1], key[2], key[3]])
    } else {
        None
    };
    let end = at + len as usize;
    if input.len() < end {
        return Ok(None);
    }
    Ok(Some(FrameAt {
        opcode: first & 0x0f,
        mask,
        payload: at..end,
        end,
    }))
}

/// A frame's payload, unmasked.
fn unmask(input: &[u8], frame: &FrameAt) -> Vec<u8> {
    let mut payload = input[frame.payload.clone()].to_vec();
    if let Some(mask) = frame.mask {
        for (i, byte) in payload.iter_mut().enumerate() {
            *byte ^= mask[i % 4];
        }
    }
    payload
}

/// An unmasked, unfragmented server frame.
fn ws_frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut frame = Vec::with_capacity(payload.len() + 10);
    frame.push(0x80 | opcode);
    match payload.len() {
        n if n < 126 => frame.push(n as u8),
        n if n <= 0xffff => {
            frame.push(126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            frame.push(127);
            frame.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    frame.extend_from_slice(payload);
    frame
}

/// This process's resident memory (bytes) and CPU time (seconds, user and system).
fn process_usage() -> (u64, f64) {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or_default();
    // SAFETY: sysconf has no memory preconditions.
    let page_size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(0) as u64;
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // After the command name in parentheses: utime is field 14, stime 15.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| {
        fields
            .get(i - 3)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or_default()
    };
    // SAFETY: sysconf has no memory preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    (pages * page_size, (ticks(14) + ticks(15)) / hz)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_accept_key_of_rfc_6455() {
        assert_eq!(
            accept_key("dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
    }

    #[test]
    fn a_frame_is_taken_only_when_whole_and_unmasked() {
        let mask = [1, 2, 3, 4];
        let mut input = vec![0x81, 0x80 | 5];
        input.extend_from_slice(&mask);
        input.extend(b"hello".iter().zip(mask.iter().cycle()).map(|(b, m)| b ^ m));
        assert_eq!(parse_frame(&input[..8]), Ok(None));
        let frame = parse_frame(&input).unwrap().unwrap();
        assert_eq!(frame.opcode, 1);
        assert_eq!(frame.end, input.len());
        assert_eq!(unmask(&input, &frame), b"hello");
        // Fragmented: not taken.
        assert_eq!(parse_frame(&[0x01, 0x00]), Err(()));
        // Over the limit.
        assert_eq!(parse_frame(&[0x81, 127, 0, 0, 0, 0, 0, 1, 0, 1]), Err(()));
    }

    #[test]
    fn server_frames_carry_the_length_in_the_smallest_form() {
        assert_eq!(ws_frame(1, b"ab"), vec![0x81, 2, b'a', b'b']);
        let long = ws_frame(1, &[0; 300]);
        assert_eq!(&long[..4], &[0x81, 126, 1, 44]);
        assert_eq!(long.len(), 304);
    }
}
