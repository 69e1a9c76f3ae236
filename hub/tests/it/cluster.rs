//! Cluster mode with real parts: a real `redis-server` and three real hub processes.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use protocol::action::Action;
use protocol::codec::Codec;
use protocol::engagement::{Reaction, ReactionCounts};
use protocol::frame::{ClientFrame, ErrorCode, Event, Resume, ServerFrame, VolatileEvent};
use protocol::Role;
use tokio_tungstenite::tungstenite::Message;

use hub::testing::APPOINTMENT;

use crate::Client;

/// The hub processes' secret: the harness's.
const SECRET: &str = "test-secret";

/// Kills the process when dropped.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

struct Redis {
    port: u16,
    dir: std::path::PathBuf,
    process: Option<Process>,
}

impl Redis {
    fn start() -> Redis {
        let dir = tempfile::tempdir().unwrap().keep();
        let mut redis = Redis {
            port: free_port(),
            dir,
            process: None,
        };
        redis.spawn();
        redis
    }

    /// Starts redis-server with an append-only file, as a deployment must: the order of
    /// events lives in Redis.
    fn spawn(&mut self) {
        let child = Command::new("redis-server")
            .args([
                "--port",
                &self.port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes",
            ])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server is installed (make test installs it)");
        self.process = Some(Process(child));
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A clean shutdown (the AOF is flushed), then a start on the same port and files.
    fn restart(&mut self, down_for: Duration) {
        let _ = Command::new("redis-cli")
            .args(["-p", &self.port.to_string(), "shutdown"])
            .output();
        if let Some(mut process) = self.process.take() {
            let _ = process.0.wait();
            std::mem::forget(process);
        }
        std::thread::sleep(down_for);
        self.spawn();
    }

    /// A restart that comes back without any data, as a Redis whose files were lost (or
    /// that ran without persistence).
    fn restart_empty(&mut self) {
        let _ = Command::new("redis-cli")
            .args(["-p", &self.port.to_string(), "shutdown", "nosave"])
            .output();
        if let Some(mut process) = self.process.take() {
            let _ = process.0.wait();
            std::mem::forget(process);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        std::fs::create_dir_all(&self.dir).unwrap();
        self.spawn();
    }

    fn flushall(&self) {
        let output = Command::new("redis-cli")
            .args(["-p", &self.port.to_string(), "FLUSHALL"])
            .output()
            .unwrap();
        assert!(String::from_utf8_lossy(&output.stdout).contains("OK"));
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }
}

/// A hub replica as its own process; returns it and its address.
fn start_hub(redis_url: &str) -> (Process, String) {
    start_hub_with(redis_url, "auto")
}

/// A hub replica with `HUB_REDIS_PUBSUB=pubsub`.
fn start_hub_with(redis_url: &str, pubsub: &str) -> (Process, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hub"))
        .env("HUB_REDIS_PUBSUB", pubsub)
        .env("HUB_PORT", "0")
        .env("BIND", "127.0.0.1")
        .env("REDIS_URL", redis_url)
        .env("HUB_SECRET", SECRET)
        .env("DATA_DIR", tempfile::tempdir().unwrap().keep())
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("hub listening on http://")
        .unwrap_or_else(|| panic!("unexpected: {line}"))
        .to_owned();
    (Process(child), addr)
}

type Socket = Client;

fn token(who: &str, role: Role) -> String {
    hub::testing::claims(&who.repeat(16), role, None)
        .sign(SECRET.as_bytes())
        .unwrap()
}

/// Connects and says hello; returns the socket and the welcome's (seq, epoch, resume).
async fn join(
    addr: &str,
    token: &str,
    last: Option<(u64, String)>,
) -> (Socket, u64, String, Resume) {
    let mut socket = Client::connect(addr, token, Codec::Json).await;
    let (seq, epoch, resume, _) = socket
        .hello_at(last.as_ref().map(|(s, _)| *s), last.map(|(_, e)| e))
        .await;
    (socket, seq, epoch, resume)
}

async fn recv(socket: &mut Socket) -> ServerFrame {
    socket.recv().await
}

async fn switch(guide: &mut Socket, alias: u32) {
    guide.switch_slide(alias, alias).await;
}

/// The next slide event as (seq, prev, alias).
async fn next_slide(socket: &mut Socket) -> (u64, u64, u32) {
    loop {
        if let ServerFrame::Event {
            seq,
            prev,
            event: Event::SlideSwitched { slide_alias, .. },
        } = recv(socket).await
        {
            return (seq, prev, slide_alias);
        }
    }
}

async fn health(addr: &str) -> u16 {
    match reqwest::get(format!("http://{addr}/healthz")).await {
        Ok(response) => response.status().as_u16(),
        Err(_) => 0,
    }
}

async fn wait_for_health(addr: &str, status: u16) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while health(addr).await != status {
        assert!(Instant::now() < deadline, "{addr} never reported {status}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_replicas_share_one_order_and_survive_a_replica_and_redis_restart() {
    let mut redis = Redis::start();
    let (_a, a) = start_hub(&redis.url());
    let (b_process, b) = start_hub(&redis.url());
    let (_c, c) = start_hub(&redis.url());

    // One order across replicas: guide on A, attendees on B and C.
    let (mut guide, ..) = join(&a, &token("g1", Role::Guide), None).await;
    let client_token = token("c1", Role::Client);
    let (mut on_b, _, epoch, _) = join(&b, &client_token, None).await;
    let (mut on_c, ..) = join(&c, &token("c2", Role::Client), None).await;
    for alias in 1..=20 {
        switch(&mut guide, alias).await;
    }
    let mut last_on_b = 0;
    for socket in [&mut on_b, &mut on_c] {
        let mut previous: Option<u64> = None;
        for alias in 1..=20 {
            let (seq, prev, got) = next_slide(socket).await;
            assert_eq!(got, alias, "slides in the guide's order on every replica");
            if let Some(previous) = previous {
                assert_eq!(prev, previous, "no gap and no duplicate");
            }
            previous = Some(seq);
        }
        last_on_b = last_on_b.max(previous.unwrap());
    }

    // Replica B dies; its attendee resumes on C and gets exactly what it missed.
    drop(b_process);
    drop(on_b);
    for alias in 21..=25 {
        switch(&mut guide, alias).await;
    }
    for alias in 21..=25 {
        assert_eq!(next_slide(&mut on_c).await.2, alias);
    }
    let (mut resumed, _, _, resume) =
        join(&c, &client_token, Some((last_on_b, epoch.clone()))).await;
    assert_eq!(resume, Resume::Replayed);
    let mut prev_expected = last_on_b;
    for alias in 21..=25 {
        let (seq, prev, got) = next_slide(&mut resumed).await;
        assert_eq!((got, prev), (alias, prev_expected));
        prev_expected = seq;
    }

    // Redis restarts: health goes red while events cannot flow, then green, and the
    // order goes on without a gap for connections that stayed open.
    wait_for_health(&a, 200).await;
    redis.restart(Duration::from_millis(1500));
    wait_for_health(&c, 200).await;
    wait_for_health(&a, 200).await;
    let (mut guide, ..) = join(&a, &token("g1", Role::Guide), None).await;
    switch(&mut guide, 26).await;
    let (seq, prev, alias) = next_slide(&mut resumed).await;
    assert_eq!((alias, prev), (26, prev_expected));
    assert!(seq > prev);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_is_red_while_redis_is_down() {
    let mut redis = Redis::start();
    let (_a, a) = start_hub(&redis.url());
    wait_for_health(&a, 200).await;
    let _ = Command::new("redis-cli")
        .args(["-p", &redis.port.to_string(), "shutdown"])
        .output();
    if let Some(mut process) = redis.process.take() {
        let _ = process.0.wait();
        std::mem::forget(process);
    }
    wait_for_health(&a, 503).await;
    redis.spawn();
    wait_for_health(&a, 200).await;
}

/// `PUBSUB <subcommand> <channel>`'s subscriber count for the test appointment's channel.
fn subscribers(redis: &Redis, subcommand: &str) -> u64 {
    let channel = format!("salesroom:{{{APPOINTMENT}}}:events");
    let output = Command::new("redis-cli")
        .args([
            "-p",
            &redis.port.to_string(),
            "PUBSUB",
            subcommand,
            &channel,
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .nth(1)
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("PUBSUB {subcommand}: {text}"))
}

async fn wait_for_subscribers(redis: &Redis, subcommand: &str, count: u64) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while subscribers(redis, subcommand) != count {
        assert!(
            Instant::now() < deadline,
            "PUBSUB {subcommand} never reached {count}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_travel_by_sharded_pub_sub_and_it_is_restored_after_a_redis_restart() {
    let mut redis = Redis::start();
    let (_a, a) = start_hub(&redis.url());
    let (_b, b) = start_hub(&redis.url());
    let (mut guide, ..) = join(&a, &token("g1", Role::Guide), None).await;
    let (mut attendee, ..) = join(&b, &token("c1", Role::Client), None).await;
    // Redis 7 has sharded pub/sub: both replicas hold a shard channel subscription and no
    // classic one.
    assert_eq!(subscribers(&redis, "SHARDNUMSUB"), 2);
    assert_eq!(subscribers(&redis, "NUMSUB"), 0);
    switch(&mut guide, 1).await;
    let (seq, _, alias) = next_slide(&mut attendee).await;
    assert_eq!(alias, 1);

    // After a restart the shard subscriptions come back and events flow again.
    redis.restart(Duration::from_millis(500));
    wait_for_health(&a, 200).await;
    wait_for_health(&b, 200).await;
    wait_for_subscribers(&redis, "SHARDNUMSUB", 2).await;
    let (mut guide, ..) = join(&a, &token("g1", Role::Guide), None).await;
    switch(&mut guide, 2).await;
    let (next, prev, alias) = next_slide(&mut attendee).await;
    assert_eq!((alias, prev), (2, seq));
    assert!(next > seq);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn classic_pub_sub_still_carries_events_when_chosen() {
    let redis = Redis::start();
    let (_a, a) = start_hub_with(&redis.url(), "classic");
    let (_b, b) = start_hub_with(&redis.url(), "classic");
    let (mut guide, ..) = join(&a, &token("g1", Role::Guide), None).await;
    let (mut attendee, ..) = join(&b, &token("c1", Role::Client), None).await;
    assert_eq!(subscribers(&redis, "NUMSUB"), 2);
    assert_eq!(subscribers(&redis, "SHARDNUMSUB"), 0);
    for alias in 1..=3 {
        switch(&mut guide, alias).await;
    }
    for alias in 1..=3 {
        assert_eq!(next_slide(&mut attendee).await.2, alias);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_opening_a_large_room_gets_every_participant() {
    let redis = Redis::start();
    let (_a, a) = start_hub(&redis.url());
    // 2,000 joins on replica A: the room's one snapshot is taken after 256 of them, so the
    // stream must keep the other 1,744 (more than the retained window and two default
    // snapshot intervals) for a replica that opens the room later.
    let http = reqwest::Client::new();
    let total = 2_000;
    for i in 0..total {
        let attendee = serde_json::json!({
            "attendeeId": format!("{i:032x}"), "role": "CLIENT", "attendeeName": format!("Attendee {i}"),
            "videoUserId": null, "hasJoined": true, "status": "joined", "connection": "connected",
            "cartPermission": "missing", "lastActiveAt": null,
        });
        let body = serde_json::json!({"appointmentId": APPOINTMENT, "audience": {"to": "guides"}, "event": {"kind": "attendeeChanged", "attendee": attendee}});
        let response = http
            .post(format!("http://{a}/internal/publish"))
            .bearer_auth(SECRET)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
    }
    let (_b, b) = start_hub(&redis.url());
    let state: serde_json::Value = http
        .get(format!(
            "http://{b}/internal/appointments/{APPOINTMENT}/state"
        ))
        .bearer_auth(SECRET)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let clients = state["stateForGuides"]["clients"]
        .as_object()
        .unwrap_or_else(|| panic!("no participants in {state}"));
    assert_eq!(clients.len(), total);
    assert_eq!(
        clients[&format!("{:032x}", total - 1)]["attendeeName"],
        "Attendee 1999"
    );
}

async fn close_code(socket: &mut Socket, events: bool) -> u16 {
    socket.close_code(events).await
}

/// Connects, says hello and expects to be turned away; the close code.
async fn turned_away(addr: &str, token: &str) -> u16 {
    Client::connect(addr, token, Codec::Json)
        .await
        .hello_refused()
        .await
}

async fn publish(addr: &str, audience: serde_json::Value, event: serde_json::Value) -> u64 {
    hub::testing::publish(addr, audience, event).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removed_attendee_is_turned_away_by_every_replica() {
    let redis = Redis::start();
    let (_a, a) = start_hub(&redis.url());
    let (_b, b) = start_hub(&redis.url());
    let (_guide, ..) = join(&a, &token("g1", Role::Guide), None).await;
    let removed = token("c1", Role::Client);
    let (mut on_b, ..) = join(&b, &removed, None).await;
    publish(
        &a,
        serde_json::json!({"to": "everyone"}),
        serde_json::json!({"kind": "attendeeRemoved", "attendeeId": "c1".repeat(16)}),
    )
    .await;
    // B applied the removal (it closed the socket), and refuses the token from then on.
    assert_eq!(
        close_code(&mut on_b, true).await,
        protocol::frame::close_code::REMOVED
    );
    assert_eq!(
        turned_away(&b, &removed).await,
        protocol::frame::close_code::REMOVED
    );
    assert_eq!(
        turned_away(&a, &removed).await,
        protocol::frame::close_code::REMOVED
    );
    // A replica that opens the room afterwards reads it from Redis.
    let (_c, c) = start_hub(&redis.url());
    assert_eq!(
        turned_away(&c, &removed).await,
        protocol::frame::close_code::REMOVED
    );
    let (_ok, ..) = join(&c, &token("c2", Role::Client), None).await;
}

/// Switches the slide and returns the sequence number of its ack.
async fn switch_acked(guide: &mut Socket, alias: u32) -> u64 {
    guide.switch_acked(alias).await
}

async fn slide_of(addr: &str) -> u64 {
    let state: serde_json::Value = reqwest::Client::new()
        .get(format!(
            "http://{addr}/internal/appointments/{APPOINTMENT}/state?role=CLIENT"
        ))
        .bearer_auth(SECRET)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    state["stateForAll"]["currentSlideAlias"].as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_is_lost_when_redis_forgets_by_a_flush_or_an_empty_restart() {
    let mut redis = Redis::start();
    let (_a, a) = start_hub(&redis.url());
    let (_b, b) = start_hub(&redis.url());
    let guide_token = token("g1", Role::Guide);
    let attendees = [
        (a.clone(), token("c1", Role::Client)),
        (b.clone(), token("c2", Role::Client)),
    ];
    let (mut guide, ..) = join(&a, &guide_token, None).await;
    let mut sockets = Vec::new();
    for (addr, token) in &attendees {
        let (socket, _, epoch, _) = join(addr, token, None).await;
        sockets.push((socket, epoch, 0u64));
    }
    let mut alias = 0;
    for (round, forget) in ["flush", "empty restart"].into_iter().enumerate() {
        // Slides before: every attendee gets each, with the acked seq.
        for _ in 0..3 {
            alias += 1;
            let seq = switch_acked(&mut guide, alias).await;
            for (socket, _, last) in sockets.iter_mut() {
                let (got, _, got_alias) = next_slide(socket).await;
                assert_eq!((got, got_alias), (seq, alias), "round {round}");
                *last = got;
            }
        }
        // Redis forgets.
        if forget == "flush" {
            redis.flushall();
        } else {
            redis.restart_empty();
            wait_for_health(&a, 200).await;
            wait_for_health(&b, 200).await;
        }
        // The next slide is not lost: it is acked only once it is in the new history, and
        // every connection is told to resync (4012) and gets it in a snapshot.
        alias += 1;
        let seq = switch_acked(&mut guide, alias).await;
        assert_eq!(
            close_code(&mut guide, true).await,
            protocol::frame::close_code::RESYNC
        );
        for (socket, _, _) in sockets.iter_mut() {
            assert_eq!(
                close_code(socket, true).await,
                protocol::frame::close_code::RESYNC,
                "{forget}"
            );
        }
        assert_eq!(
            (slide_of(&a).await, slide_of(&b).await),
            (alias as u64, alias as u64),
            "{forget}"
        );
        (guide, ..) = join(&a, &guide_token, None).await;
        for ((addr, token), (socket, epoch, last)) in attendees.iter().zip(sockets.iter_mut()) {
            let (resumed, welcome_seq, new_epoch, resume) =
                join(addr, token, Some((*last, epoch.clone()))).await;
            assert_eq!(
                resume,
                Resume::Snapshot,
                "{forget}: a new epoch, so a snapshot"
            );
            assert_ne!(&new_epoch, epoch);
            assert!(welcome_seq >= seq);
            *socket = resumed;
            *epoch = new_epoch;
        }
        // And after it, slides reach everyone again, acks matching deliveries.
        for _ in 0..3 {
            alias += 1;
            let seq = switch_acked(&mut guide, alias).await;
            for (socket, _, last) in sockets.iter_mut() {
                let (got, _, got_alias) = next_slide(socket).await;
                assert_eq!((got, got_alias), (seq, alias), "{forget}");
                *last = got;
            }
        }
    }
    let text = reqwest::get(format!("http://{a}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains("hub_history_resets_total 2"), "{text}");
}

/// One step of a rolling restart: SIGTERM makes a replica close its sockets with 4013
/// (`DRAINING`), stop accepting and exit within `HUB_DRAIN_SECS`; its client resumes on
/// another replica and is replayed every event it missed, in order, nothing twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draining_replica_sends_its_clients_elsewhere_and_they_resume_without_a_gap() {
    let redis = Redis::start();
    let (mut draining, addr_a) = start_hub(&redis.url());
    let (_other, addr_b) = start_hub(&redis.url());
    let (mut guide, ..) = join(&addr_b, &token("9", Role::Guide), None).await;
    let attendee_token = token("a", Role::Client);
    let (mut attendee, _, epoch, _) = join(&addr_a, &attendee_token, None).await;
    switch(&mut guide, 1).await;
    let (mut last_seq, _, alias) = next_slide(&mut attendee).await;
    assert_eq!(alias, 1);

    let started = Instant::now();
    let pid = draining.0.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    assert_eq!(
        close_code(&mut attendee, true).await,
        protocol::frame::close_code::DRAINING
    );
    // Published while the attendee is between replicas.
    switch(&mut guide, 2).await;
    switch(&mut guide, 3).await;
    // The replica exits by itself, well within its drain time, and accepts nothing more.
    let status = loop {
        if let Some(status) = draining.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the draining replica did not exit"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(status.success(), "{status}");
    assert_eq!(
        health(&addr_a).await,
        0,
        "a stopped replica accepts nothing"
    );

    let (mut attendee, _, resumed_epoch, resume) =
        join(&addr_b, &attendee_token, Some((last_seq, epoch.clone()))).await;
    assert_eq!((resume, resumed_epoch), (Resume::Replayed, epoch));
    // Every event after the last one seen, each naming the one before: no gap, no repeat.
    let mut aliases = Vec::new();
    while aliases.last() != Some(&3) {
        if let ServerFrame::Event { seq, prev, event } = recv(&mut attendee).await {
            assert_eq!(
                prev, last_seq,
                "event {seq} follows {prev}, but the last one seen was {last_seq}"
            );
            last_seq = seq;
            if let Event::SlideSwitched { slide_alias, .. } = event {
                aliases.push(slide_alias);
            }
        }
    }
    assert_eq!(aliases, [2, 3]);
}

/// Sends an action as JSON.
async fn act(socket: &mut Socket, r#ref: Option<u32>, action: Action) {
    socket.send(&ClientFrame::Action { r#ref, action }).await;
}

/// Reaction sums a socket gets within `wait`, and how many frames carried them.
async fn reaction_sums(socket: &mut Socket, wait: Duration) -> (ReactionCounts, usize) {
    let deadline = tokio::time::Instant::now() + wait;
    let (mut sum, mut frames) = (ReactionCounts::default(), 0);
    while let Ok(Some(Ok(message))) = tokio::time::timeout_at(deadline, socket.socket.next()).await
    {
        if let Message::Text(text) = message {
            if let ServerFrame::Volatile {
                event: VolatileEvent::Reactions { counts },
            } = serde_json::from_str(text.as_str()).unwrap()
            {
                sum.add(counts);
                frames += 1;
            }
        }
    }
    (sum, frames)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_and_moderation_cross_replicas_and_reaction_sums_merge_across_them() {
    let redis = Redis::start();
    let (_a, a) = start_hub(&redis.url());
    let (_b, b) = start_hub(&redis.url());
    let (mut guide, ..) = join(&a, &token("g1", Role::Guide), None).await;
    let (mut on_a, ..) = join(&a, &token("c1", Role::Client), None).await;
    let (mut on_b, ..) = join(&b, &token("c2", Role::Client), None).await;

    // A message from B reaches A in the one order; a time-out given on A holds on B.
    act(
        &mut on_b,
        Some(1),
        Action::SendChatMessage {
            text: "hi from B".into(),
        },
    )
    .await;
    let message = loop {
        if let ServerFrame::Event {
            event: Event::ChatMessagesPosted { mut messages },
            ..
        } = recv(&mut on_a).await
        {
            assert_eq!(messages.len(), 1, "one message after a quiet spell, alone");
            break messages.remove(0);
        }
    };
    assert_eq!(
        (message.text.as_str(), message.attendee_id.as_str()),
        ("hi from B", "c2".repeat(16).as_str())
    );
    act(
        &mut guide,
        Some(1),
        Action::ModerateChatAttendee {
            attendee_id: "c2".repeat(16),
            timeout_minutes: Some(1),
            banned: false,
        },
    )
    .await;
    loop {
        if let ServerFrame::Event {
            event: Event::ChatAttendeeModerated { .. },
            ..
        } = recv(&mut on_b).await
        {
            break;
        }
    }
    act(
        &mut on_b,
        Some(2),
        Action::SendChatMessage {
            text: "again".into(),
        },
    )
    .await;
    let code = loop {
        if let ServerFrame::Error {
            r#ref: Some(2),
            code,
            ..
        } = recv(&mut on_b).await
        {
            break code;
        }
    };
    assert_eq!(code, ErrorCode::ChatMuted);

    // Taps on both replicas: every participant, wherever connected, gets the room's sums.
    for _ in 0..20 {
        act(
            &mut on_a,
            None,
            Action::SendReaction {
                reaction: Reaction::Heart,
            },
        )
        .await;
        act(
            &mut on_b,
            None,
            Action::SendReaction {
                reaction: Reaction::Heart,
            },
        )
        .await;
    }
    for _ in 0..10 {
        act(
            &mut on_b,
            None,
            Action::SendReaction {
                reaction: Reaction::Clap,
            },
        )
        .await;
    }
    let expected = ReactionCounts {
        heart: 40,
        clap: 10,
        ..Default::default()
    };
    let wait = Duration::from_millis(2500);
    let ((on_guide, guide_frames), (on_b_sum, b_frames)) = tokio::join!(
        reaction_sums(&mut guide, wait),
        reaction_sums(&mut on_b, wait)
    );
    assert_eq!(on_guide, expected, "the guide on A sees B's taps too");
    assert_eq!(on_b_sum, expected, "B's client sees A's taps too");
    // At most one frame per tick (2.5 s: 10 ticks), far fewer than 50 taps.
    assert!(
        guide_frames <= 10 && b_frames <= 10,
        "{guide_frames} and {b_frames} frames"
    );
}

/// The last poll counts a socket gets within `wait`, and the events it got.
async fn poll_counts(socket: &mut Socket, wait: Duration) -> (Option<(Vec<u32>, u32)>, Vec<Event>) {
    let deadline = tokio::time::Instant::now() + wait;
    let (mut last, mut events) = (None, Vec::new());
    while let Ok(Some(Ok(message))) = tokio::time::timeout_at(deadline, socket.socket.next()).await
    {
        if let Message::Text(text) = message {
            match serde_json::from_str(text.as_str()).unwrap() {
                ServerFrame::Volatile {
                    event: VolatileEvent::PollCounts { counts, voters, .. },
                } => last = Some((counts, voters)),
                ServerFrame::Event { event, .. } => events.push(event),
                _ => {}
            }
        }
    }
    (last, events)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn votes_through_two_replicas_are_all_counted_everywhere() {
    use protocol::engagement::polls::NewPoll;
    let redis = Redis::start();
    let (_a, a) = start_hub(&redis.url());
    let (_b, b) = start_hub(&redis.url());
    let (mut guide, ..) = join(&a, &token("g1", Role::Guide), None).await;
    let (mut watcher_b, ..) = join(&b, &token("f1", Role::Client), None).await;
    let poll = NewPoll {
        question: "Which?".into(),
        answers: vec!["One".into(), "Two".into()],
        multiple: false,
        slide: None,
    };
    act(&mut guide, Some(1), Action::CreatePoll { poll }).await;
    let poll = loop {
        if let ServerFrame::Event {
            event: Event::PollCreated { poll },
            ..
        } = recv(&mut watcher_b).await
        {
            break poll;
        }
    };
    // A replica decides on the events it has applied: the guide's replica must have the
    // poll (its guide sees it) before it can open it, as in the cockpit.
    loop {
        if let ServerFrame::Event {
            event: Event::PollCreated { .. },
            ..
        } = recv(&mut guide).await
        {
            break;
        }
    }
    act(
        &mut guide,
        Some(2),
        Action::OpenPoll {
            poll_id: poll.poll_id.clone(),
        },
    )
    .await;
    // Both replicas have it open (each fans out only what it applied) before anyone votes.
    for socket in [&mut watcher_b, &mut guide] {
        loop {
            if let ServerFrame::Event {
                event: Event::PollOpened { .. },
                ..
            } = recv(socket).await
            {
                break;
            }
        }
    }
    // 10 voters on each replica; each votes twice (a change), the second on answer i % 2.
    let mut voters = Vec::new();
    for i in 0..20u32 {
        let addr = if i % 2 == 0 { &a } else { &b };
        voters.push(
            join(
                addr,
                &token(&format!("{:02x}", 0xd0 + i), Role::Client),
                None,
            )
            .await
            .0,
        );
    }
    for round in 0..2 {
        for (i, voter) in voters.iter_mut().enumerate() {
            let answer = if round == 0 { 0 } else { i / 2 % 2 };
            let answer_ids = vec![poll.answers[answer].answer_id.clone()];
            act(
                voter,
                None,
                Action::VotePoll {
                    poll_id: poll.poll_id.clone(),
                    answer_ids,
                },
            )
            .await;
        }
    }
    let wait = Duration::from_millis(2000);
    let ((on_a, _), (on_b, _)) = tokio::join!(
        poll_counts(&mut guide, wait),
        poll_counts(&mut watcher_b, wait)
    );
    assert_eq!(
        on_a,
        Some((vec![10, 10], 20)),
        "the guide on A counts B's votes too"
    );
    assert_eq!(
        on_b,
        Some((vec![10, 10], 20)),
        "a client on B counts A's votes too"
    );
    act(
        &mut guide,
        Some(3),
        Action::ClosePoll {
            poll_id: poll.poll_id.clone(),
        },
    )
    .await;
    let closed = loop {
        if let ServerFrame::Event {
            event: event @ Event::PollClosed { .. },
            ..
        } = recv(&mut watcher_b).await
        {
            break event;
        }
    };
    assert_eq!(
        closed,
        Event::PollClosed {
            poll_id: poll.poll_id.clone(),
            counts: vec![10, 10],
            voters: 20
        }
    );
}

/// The last up-vote counts a socket gets within `wait`, merged by question id.
async fn question_votes(
    socket: &mut Socket,
    wait: Duration,
) -> std::collections::BTreeMap<String, u32> {
    let deadline = tokio::time::Instant::now() + wait;
    let mut last = std::collections::BTreeMap::new();
    while let Ok(Some(Ok(message))) = tokio::time::timeout_at(deadline, socket.socket.next()).await
    {
        if let Message::Text(text) = message {
            if let ServerFrame::Volatile {
                event: VolatileEvent::QuestionVotes { votes },
            } = serde_json::from_str(text.as_str()).unwrap()
            {
                last.extend(votes);
            }
        }
    }
    last
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn question_up_votes_through_two_replicas_are_all_counted_everywhere() {
    use protocol::engagement::questions::QuestionStatus;
    let redis = Redis::start();
    let (_a, a) = start_hub(&redis.url());
    let (_b, b) = start_hub(&redis.url());
    let (mut guide, ..) = join(&a, &token("g1", Role::Guide), None).await;
    let (mut asker_b, ..) = join(&b, &token("a1", Role::Client), None).await;
    act(
        &mut asker_b,
        Some(1),
        Action::AskQuestion {
            text: "Asked on B?".into(),
        },
    )
    .await;
    let question = loop {
        if let ServerFrame::Event {
            event: Event::QuestionAsked { question },
            ..
        } = recv(&mut guide).await
        {
            break question;
        }
    };
    // B too has applied it (a replica decides on what it applied) before anyone votes there.
    loop {
        if let ServerFrame::Event {
            event: Event::QuestionAsked { .. },
            ..
        } = recv(&mut asker_b).await
        {
            break;
        }
    }
    // 10 voters on each replica up-vote; 4 of them (2 on each) withdraw; 2 of those vote again.
    let mut voters = Vec::new();
    for i in 0..20u32 {
        let addr = if i % 2 == 0 { &a } else { &b };
        voters.push(
            join(
                addr,
                &token(&format!("{:02x}", 0xe0 + i), Role::Client),
                None,
            )
            .await
            .0,
        );
    }
    let vote = |voted| Action::VoteQuestion {
        question_id: question.question_id.clone(),
        voted,
    };
    for voter in voters.iter_mut() {
        act(voter, None, vote(true)).await;
    }
    for voter in voters.iter_mut().take(4) {
        act(voter, None, vote(false)).await;
    }
    for voter in voters.iter_mut().take(2) {
        act(voter, None, vote(true)).await;
    }
    let wait = Duration::from_millis(2000);
    let (on_a, on_b) = tokio::join!(
        question_votes(&mut guide, wait),
        question_votes(&mut asker_b, wait)
    );
    assert_eq!(
        on_a.get(&question.question_id),
        Some(&18),
        "the guide on A counts B's up-votes too"
    );
    assert_eq!(
        on_b.get(&question.question_id),
        Some(&18),
        "the asker on B counts A's up-votes too"
    );
    // Marked on A, the one being answered reaches B.
    act(
        &mut guide,
        Some(2),
        Action::MarkQuestion {
            question_id: question.question_id.clone(),
            status: QuestionStatus::Answering,
        },
    )
    .await;
    let marked = loop {
        if let ServerFrame::Event {
            event: event @ Event::QuestionMarked { .. },
            ..
        } = recv(&mut asker_b).await
        {
            break event;
        }
    };
    assert_eq!(
        marked,
        Event::QuestionMarked {
            question_id: question.question_id.clone(),
            status: QuestionStatus::Answering
        }
    );
}
