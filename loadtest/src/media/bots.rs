//! The bots: the publisher (stamped video and audio frames at the set rate, key frames
//! when the sfu asks) and the subscribers (each frame's number and delay).

use super::*;

/// What the publisher sent, and the frame numbers the measurement spans.
#[derive(Default)]
pub(super) struct Shared {
    /// Set while measuring: subscribers count only frames sent in the window.
    pub(super) measuring: AtomicBool,
    /// Video and audio frame numbers at the start and the end of the window.
    pub(super) video_window: Mutex<(u32, u32)>,
    pub(super) audio_window: Mutex<(u32, u32)>,
    /// Subscribers that got their first video frame.
    pub(super) receiving: AtomicU32,
    /// Key frames the publisher sent because the sfu asked (PLI/FIR), over the whole run.
    pub(super) keyframes_on_request: AtomicU32,
    pub(super) stop: AtomicBool,
}

/// One subscriber's frames (number, delay µs) of the whole run.
#[derive(Default)]
pub(super) struct Received {
    pub(super) video: Vec<(u32, u32)>,
    pub(super) audio: Vec<(u32, u32)>,
    /// RTP packets received (str0m's ingress stats, summed over the tracks).
    pub(super) packets: u64,
    pub(super) nacks: u64,
}

pub(super) async fn publisher(
    options: MediaOptions,
    shared: Arc<Shared>,
    ready: tokio::sync::oneshot::Sender<anyhow::Result<()>>,
) {
    let result = publish(&options, &shared, Some(ready)).await;
    if let Err(e) = result {
        eprintln!("publisher: {e:#}");
        shared.stop.store(true, Ordering::SeqCst);
    }
}

pub(super) async fn publish(
    options: &MediaOptions,
    shared: &Shared,
    mut ready: Option<tokio::sync::oneshot::Sender<anyhow::Result<()>>>,
) -> anyhow::Result<()> {
    let mut ws = join(options, "bench-publisher", true).await?;
    for (cid, kind) in [
        ("bench-camera", proto::TrackType::Video),
        ("bench-microphone", proto::TrackType::Audio),
    ] {
        let source = if kind == proto::TrackType::Video {
            proto::TrackSource::Camera
        } else {
            proto::TrackSource::Microphone
        };
        let request = proto::AddTrackRequest {
            cid: cid.into(),
            r#type: kind as i32,
            source: source as i32,
            width: 640,
            height: 480,
            ..Default::default()
        };
        send(&mut ws, Request::AddTrack(request)).await?;
        loop {
            if let Response::TrackPublished(_) = next_response(&mut ws).await? {
                break;
            }
        }
    }
    let mut peer = Peer::new(false).await?;
    let mids = negotiate_publisher(
        &mut ws,
        &mut peer,
        &[
            (MediaKind::Video, "bench-camera"),
            (MediaKind::Audio, "bench-microphone"),
        ],
    )
    .await?;
    let (video_mid, audio_mid) = (mids[0], mids[1]);
    let mut connected = false;
    let start = Instant::now();
    let (mut video_sent, mut audio_sent) = (0u64, 0u64);
    let frame_interval = Duration::from_micros(1_000_000 / FPS);
    let mut next_ping = Instant::now() + PING_EVERY;
    let mut events = Vec::new();
    let (mut key_requested, mut last_key) = (false, start);
    while !shared.stop.load(Ordering::Relaxed) {
        let now = Instant::now();
        if connected {
            let elapsed = now.duration_since(start);
            if elapsed >= frame_interval * video_sent as u32 {
                let key = video_sent.is_multiple_of(KEYFRAME_EVERY)
                    || (key_requested && now.duration_since(last_key) >= KEYFRAME_REQUEST_GAP);
                if key {
                    if key_requested {
                        shared.keyframes_on_request.fetch_add(1, Ordering::Relaxed);
                    }
                    (key_requested, last_key) = (false, now);
                }
                let mut frame = video_frame(key, options.video_kbps);
                stamp(&mut frame, VP8_HEADER, video_sent as u32);
                let writer = peer.rtc.writer(video_mid).context("no video writer")?;
                let pt = writer
                    .payload_params()
                    .find(|p| p.spec().codec == Codec::Vp8)
                    .context("no VP8")?
                    .pt();
                writer.write(
                    pt,
                    now,
                    MediaTime::from_90khz(video_sent * 90_000 / FPS),
                    frame,
                )?;
                video_sent += 1;
                update_window(shared, &shared.video_window, video_sent as u32);
            }
            if elapsed >= AUDIO_INTERVAL * audio_sent as u32 {
                let mut frame = vec![0x5a; AUDIO_FRAME_BYTES];
                stamp(&mut frame, 0, audio_sent as u32);
                let writer = peer.rtc.writer(audio_mid).context("no audio writer")?;
                let pt = writer
                    .payload_params()
                    .find(|p| p.spec().codec == Codec::Opus)
                    .context("no Opus")?
                    .pt();
                // Speech level, as a browser writes it (the sfu's speaker detection reads it).
                let writer = writer.audio_level(-20, true);
                writer.write(
                    pt,
                    now,
                    MediaTime::new(audio_sent * 960, str0m::media::Frequency::FORTY_EIGHT_KHZ),
                    frame,
                )?;
                audio_sent += 1;
                update_window(shared, &shared.audio_window, audio_sent as u32);
            }
        }
        if now >= next_ping {
            send(&mut ws, ping()).await?;
            next_ping = now + PING_EVERY;
        }
        let wake = peer.poll(&mut events)?;
        for event in events.drain(..) {
            match event {
                Event::Connected => {
                    connected = true;
                    if let Some(ready) = ready.take() {
                        let _ = ready.send(Ok(()));
                    }
                }
                Event::KeyframeRequest(request) if request.mid == video_mid => key_requested = true,
                _ => {}
            }
        }
        let next_video = start + frame_interval * video_sent as u32;
        let next_audio = start + AUDIO_INTERVAL * audio_sent as u32;
        let wake = wake.min(next_video).min(next_audio).min(next_ping);
        tokio::select! {
            received = peer.socket.recv_from(&mut peer.buf) => {
                let (n, source) = received?;
                peer.receive(n, source)?;
            }
            message = ws.next() => match message {
                Some(Ok(_)) => {}
                _ => bail!("publisher's signalling closed"),
            },
            () = tokio::time::sleep_until(wake.into()) => {
                peer.rtc.handle_input(Input::Timeout(Instant::now()))?;
            }
        }
    }
    Ok(())
}

/// Moves the measurement window's bounds along: its start while not yet measuring, its end
/// while measuring.
pub(super) fn update_window(shared: &Shared, window: &Mutex<(u32, u32)>, sent: u32) {
    let mut window = window.lock().unwrap_or_else(|e| e.into_inner());
    if shared.measuring.load(Ordering::SeqCst) {
        window.1 = sent;
    } else if window.1 == 0 {
        window.0 = sent;
    }
}

pub(super) async fn subscriber(
    options: MediaOptions,
    number: usize,
    shared: Arc<Shared>,
) -> anyhow::Result<Received> {
    let identity = format!("bench-subscriber-{number}");
    let mut ws = join(&options, &identity, false).await?;
    // livekit-client negotiates its (empty) publisher connection first; the sfu offers the
    // room's tracks once it has.
    // That connection is kept and driven as the browser does: the sfu drops a participant
    // one of whose peer connections fails (ICE or DTLS timing out).
    let mut unused = Peer::new(false).await?;
    negotiate_publisher(&mut ws, &mut unused, &[]).await?;
    let mut unused_events = Vec::new();
    let mut peer = Peer::new(true).await?;
    let mut received = Received::default();
    let mut video_mid = None;
    let mut first_video = true;
    let mut next_ping = Instant::now() + PING_EVERY;
    let mut events = Vec::new();
    let mut packets = std::collections::HashMap::new();
    while !shared.stop.load(Ordering::Relaxed) {
        let unused_wake = unused.poll(&mut unused_events)?;
        unused_events.clear();
        let wake = peer.poll(&mut events)?.min(unused_wake);
        for event in events.drain(..) {
            match event {
                Event::MediaAdded(added) if added.kind == MediaKind::Video => {
                    video_mid = Some(added.mid)
                }
                Event::MediaData(data) => {
                    let now = clock();
                    let video = Some(data.mid) == video_mid;
                    let Some((seq, sent)) =
                        read_stamp(&data.data, if video { VP8_HEADER } else { 0 })
                    else {
                        continue;
                    };
                    let delay = now.saturating_sub(sent).min(u64::from(u32::MAX)) as u32;
                    if video {
                        if first_video {
                            first_video = false;
                            shared.receiving.fetch_add(1, Ordering::SeqCst);
                        }
                        received.video.push((seq, delay));
                    } else {
                        received.audio.push((seq, delay));
                    }
                }
                Event::MediaIngressStats(stats) => {
                    // Totals per stream since the start; the last one of each is kept.
                    packets.insert((stats.mid, stats.rid), (stats.packets, stats.nacks));
                }
                _ => {}
            }
        }
        if Instant::now() >= next_ping {
            send(&mut ws, ping()).await?;
            next_ping = Instant::now() + PING_EVERY;
        }
        let wake = wake.min(next_ping);
        tokio::select! {
            result = peer.socket.recv_from(&mut peer.buf) => {
                let (n, source) = result?;
                peer.receive(n, source)?;
                // Take what else is waiting before polling again.
                while let Ok((n, source)) = peer.socket.try_recv_from(&mut peer.buf) {
                    peer.receive(n, source)?;
                }
            }
            message = ws.next() => match message {
                Some(Ok(frame)) => {
                    if let Some(Response::Offer(offer)) = decode(&frame) {
                        let answer = peer.rtc.sdp_api().accept_offer(SdpOffer::from_sdp_string(&offer.sdp)?)?;
                        let answer = proto::SessionDescription { r#type: "answer".into(), sdp: answer.to_sdp_string(), id: offer.id, ..Default::default() };
                        send(&mut ws, Request::Answer(answer)).await?;
                    }
                }
                _ => bail!("{identity}: signalling closed"),
            },
            result = unused.socket.recv_from(&mut unused.buf) => {
                let (n, source) = result?;
                unused.receive(n, source)?;
            }
            () = tokio::time::sleep_until(wake.into()) => {
                let now = Instant::now();
                peer.rtc.handle_input(Input::Timeout(now))?;
                unused.rtc.handle_input(Input::Timeout(now))?;
            }
        }
    }
    received.packets = packets.values().map(|(p, _)| p).sum();
    received.nacks = packets.values().map(|(_, n)| n).sum();
    Ok(received)
}
