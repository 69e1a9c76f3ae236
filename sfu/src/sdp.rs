//! What the media engine reads from a publisher's SDP offer beyond what str0m exposes:
//! which `MediaStreamTrack` (the `cid` of livekit-client's AddTrackRequest) each m-line
//! carries, so that media arriving on a mid is tied to the track the client announced.

/// One m-line of an offer: its mid and the track id of its `a=msid` line, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaLine {
    pub mid: String,
    pub track_id: Option<String>,
}

/// The m-lines of `sdp` in order. Lines without a mid (none in a BUNDLE offer) are skipped.
pub fn media_lines(sdp: &str) -> Vec<MediaLine> {
    let mut lines = Vec::new();
    let mut current: Option<(Option<String>, Option<String>)> = None;
    for line in sdp.lines().map(str::trim_end) {
        if line.starts_with("m=") {
            if let Some((Some(mid), track_id)) = current.take() {
                lines.push(MediaLine { mid, track_id });
            }
            current = Some((None, None));
        } else if let Some((mid, track_id)) = current.as_mut() {
            if let Some(value) = line.strip_prefix("a=mid:") {
                *mid = Some(value.trim().to_owned());
            } else if let Some(value) = line.strip_prefix("a=msid:") {
                // `a=msid:<stream id> <track id>`; the stream id may be `-`.
                *track_id = value.split_whitespace().nth(1).map(str::to_owned);
            }
        }
    }
    if let Some((Some(mid), track_id)) = current {
        lines.push(MediaLine { mid, track_id });
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mids_are_tied_to_their_msid_tracks() {
        let sdp = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0 1 2\r\n\
            m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\na=mid:0\r\n\
            m=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:1\r\na=sendonly\r\na=msid:stream-a 5e1f-cam\r\n\
            m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:2\r\na=msid:- mic-7\r\n";
        assert_eq!(
            media_lines(sdp),
            vec![
                MediaLine { mid: "0".into(), track_id: None },
                MediaLine { mid: "1".into(), track_id: Some("5e1f-cam".into()) },
                MediaLine { mid: "2".into(), track_id: Some("mic-7".into()) },
            ]
        );
    }
}
