//! The media mode (`loadtest-media`, scripts/bench-media.sh) against a real sfu on port 0:
//! a short run with three subscribers measures something and loses nothing, and the
//! publisher bot answers the sfu's key frame requests, as a browser does (the sfu starts
//! each subscriber's video at a key frame and asks the publisher for one).

use loadtest::media::{run, MediaOptions};
use sfu::config::Config;

const KEY: &str = "APIloadtest";
const SECRET: &str = "loadtest-secret-long-enough-for-hs256-signing";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_subscribers_get_every_frame_and_the_publisher_answers_key_frame_requests() {
    let data = tempfile::tempdir().unwrap();
    let config = Config::loopback(data.path().to_owned(), KEY, SECRET);
    let running = sfu::server::start(&config, config.credentials().unwrap())
        .await
        .unwrap();
    let options = MediaOptions {
        url: format!("ws://{}", running.http_addr),
        api_key: KEY.into(),
        api_secret: SECRET.into(),
        subscribers: 3,
        video_kbps: 500,
        warmup_secs: 1,
        measure_secs: 3,
        sfu_pid: None,
        wave: 3,
        room: "media-test".into(),
        json: false,
    };
    let report = run(&options).await.unwrap();
    println!("{report}");

    assert_eq!(report.failed_subscribers, 0);
    assert!(
        report.video_frames_sent >= 30 && report.audio_frames_sent >= 50,
        "{report}"
    );
    assert_eq!(
        (report.video_frames_lost, report.audio_frames_lost),
        (0, 0),
        "{report}"
    );
    // Each subscriber's video starts at a key frame the sfu asked for; without the answer it
    // waits for the next periodic one (every 2 s).
    assert!(report.keyframes_on_request >= 1, "{report}");
    assert!(
        report.sfu_forward_delay_video.is_some() && report.sfu_forward_delay_audio.is_some(),
        "{report}"
    );
}
