//! The floor driven as `loadtest` drives the hub: attendees and a guide connect to `/ws`
//! offering `salesroom.v1.json` and `bearer.<token>`, say hello and read the welcome;
//! the guide's slide changes are acked and reach every attendee in order, each once,
//! with `prev` the `seq` before it, also for an attendee that reads only after the last
//! one was sent (the bytes its socket could not take were queued).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::Duration;

use floor::Floor;
use protocol::action::Action;
use protocol::frame::{ClientFrame, Event, Resume, ServerFrame};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

type Socket = WebSocket<TcpStream>;

fn start() -> SocketAddr {
    let floor = Floor::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = floor.local_addr().unwrap();
    thread::spawn(move || floor.run());
    addr
}

/// Connects as `loadtest` does (the token as a subprotocol), says hello, returns after
/// the welcome.
fn connect(addr: SocketAddr) -> (Socket, u64) {
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    let offered = format!(
        "{}, {}not-a-real-token",
        protocol::frame::SUBPROTOCOL_JSON,
        protocol::frame::TOKEN_SUBPROTOCOL_PREFIX
    );
    request
        .headers_mut()
        .insert("sec-websocket-protocol", offered.parse().unwrap());
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let (mut socket, response) = tungstenite::client(request, stream).unwrap();
    assert_eq!(
        response.headers()["sec-websocket-protocol"],
        protocol::frame::SUBPROTOCOL_JSON
    );
    let hello = ClientFrame::Hello {
        last_seq: None,
        epoch: None,
    };
    socket
        .send(Message::text(serde_json::to_string(&hello).unwrap()))
        .unwrap();
    match read(&mut socket) {
        ServerFrame::Welcome { seq, resume, .. } => {
            assert_eq!(resume, Resume::Fresh);
            (socket, seq)
        }
        other => panic!("expected a welcome, got {other:?}"),
    }
}

fn read(socket: &mut Socket) -> ServerFrame {
    loop {
        match socket.read().unwrap() {
            Message::Text(text) => return serde_json::from_str(text.as_str()).unwrap(),
            Message::Ping(_) | Message::Pong(_) => {}
            other => panic!("unexpected {other:?}"),
        }
    }
}

/// Switches slides 1 ..= `slides` (page id `page_id`), each acked before the next.
fn present(guide: &mut Socket, slides: u32, page_id: &str) {
    for alias in 1..=slides {
        let action = ClientFrame::Action {
            r#ref: Some(alias),
            action: Action::SwitchSlide {
                page_id: page_id.to_owned(),
                section_id: format!("{alias:032x}"),
                slide_alias: alias,
            },
        };
        guide
            .send(Message::text(serde_json::to_string(&action).unwrap()))
            .unwrap();
        loop {
            match read(guide) {
                ServerFrame::Ack { r#ref, seq } if r#ref == alias => {
                    assert_eq!(seq, Some(u64::from(alias)));
                    break;
                }
                ServerFrame::Event { .. } => {}
                other => panic!("the guide got {other:?}"),
            }
        }
    }
}

/// Reads slide changes until `slides`; checks each follows the one before, once.
fn receive(socket: &mut Socket, welcome_seq: u64, slides: u32) {
    let mut last = welcome_seq;
    for alias in 1..=slides {
        match socket.read().unwrap() {
            Message::Text(text) => {
                assert!(
                    text.as_str().starts_with(r#"{"type":"event""#),
                    "loadtest peeks at the first bytes"
                );
                match serde_json::from_str(text.as_str()).unwrap() {
                    ServerFrame::Event {
                        seq,
                        prev,
                        event: Event::SlideSwitched { slide_alias, .. },
                    } => {
                        assert_eq!((prev, seq), (last, last + 1), "in order, each once");
                        assert_eq!(slide_alias, alias);
                        last = seq;
                    }
                    other => panic!("expected a slide change, got {other:?}"),
                }
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}

#[test]
fn every_slide_change_reaches_every_attendee_in_order() {
    const ATTENDEES: usize = 20;
    const SLIDES: u32 = 50;
    let addr = start();
    let welcomed = Arc::new(Barrier::new(ATTENDEES + 1));
    let attendees: Vec<_> = (0..ATTENDEES)
        .map(|_| {
            let welcomed = welcomed.clone();
            thread::spawn(move || {
                let (mut socket, seq) = connect(addr);
                welcomed.wait();
                receive(&mut socket, seq, SLIDES);
            })
        })
        .collect();
    welcomed.wait();
    let (mut guide, _) = connect(addr);
    let metrics = http_get(addr, "/metrics");
    assert!(
        metrics.contains(&format!("hub_connections {}\n", ATTENDEES + 1)),
        "{metrics}"
    );
    present(&mut guide, SLIDES, &"0".repeat(32));
    for attendee in attendees {
        attendee.join().unwrap();
    }
    let metrics = http_get(addr, "/metrics");
    assert!(
        metrics.contains(&format!("hub_events_total {SLIDES}\n")),
        "{metrics}"
    );
    // Each slide change to the attendees and the guide.
    let frames = format!(
        "hub_frames_out_total {}\n",
        SLIDES as usize * (ATTENDEES + 1)
    );
    assert!(metrics.contains(&frames), "{metrics}");
    assert!(metrics.contains("process_cpu_seconds_total "), "{metrics}");
}

#[test]
fn a_reader_that_falls_behind_gets_every_queued_slide_change_in_order() {
    // 300 frames of 32 KiB: far more than a loopback socket's buffers hold.
    const SLIDES: u32 = 300;
    let addr = start();
    let (mut slow, seq) = connect(addr);
    let (mut guide, _) = connect(addr);
    present(&mut guide, SLIDES, &"a".repeat(32 * 1024));
    receive(&mut slow, seq, SLIDES);
    let metrics = http_get(addr, "/metrics");
    assert!(
        !metrics.contains("floor_queued_sends_total 0\n"),
        "the slow reader's socket was full: {metrics}"
    );
}

#[test]
fn other_paths_are_answered_and_closed() {
    let addr = start();
    assert!(http_get(addr, "/metrics").starts_with("HTTP/1.1 200 OK\r\n"));
    assert!(http_get(addr, "/internal/publish").starts_with("HTTP/1.1 404 Not Found\r\n"));
    assert!(http_get(addr, "/ws").starts_with("HTTP/1.1 400 Bad Request\r\n"));
}

/// A plain GET; the whole response (the floor closes after it).
fn http_get(addr: SocketAddr, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nhost: floor\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}
