//! What the media engine reads from a publisher's SDP offer beyond what str0m exposes:
//! which `MediaStreamTrack` (the `cid` of livekit-client's AddTrackRequest) each m-line
//! carries, so that media arriving on a mid is tied to the track the client announced.

/// One m-line of an offer: its mid, the track id of its `a=msid` line, and whether the
/// offerer sends on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaLine {
    pub mid: String,
    pub track_id: Option<String>,
    /// `sendrecv` or `sendonly` (the default) on a line that is not rejected (port 0):
    /// a browser that removed a track offers `recvonly` or `inactive` for its line.
    pub sending: bool,
}

/// The m-lines of `sdp` in order. Lines without a mid (none in a BUNDLE offer) are skipped.
pub fn media_lines(sdp: &str) -> Vec<MediaLine> {
    let mut lines = Vec::new();
    let mut current: Option<Partial> = None;
    for line in sdp.lines().map(str::trim_end) {
        if let Some(media) = line.strip_prefix("m=") {
            lines.extend(current.take().and_then(Partial::finish));
            // `m=<kind> <port> …`: port 0 rejects the line.
            let rejected = media.split_whitespace().nth(1) == Some("0");
            current = Some(Partial {
                sending: !rejected,
                ..Partial::default()
            });
        } else if let Some(partial) = current.as_mut() {
            if let Some(value) = line.strip_prefix("a=mid:") {
                partial.mid = Some(value.trim().to_owned());
            } else if let Some(value) = line.strip_prefix("a=msid:") {
                // `a=msid:<stream id> <track id>`; the stream id may be `-`.
                partial.track_id = value.split_whitespace().nth(1).map(str::to_owned);
            } else if line == "a=recvonly" || line == "a=inactive" {
                partial.sending = false;
            }
        }
    }
    lines.extend(current.and_then(Partial::finish));
    lines
}

#[derive(Default)]
struct Partial {
    mid: Option<String>,
    track_id: Option<String>,
    sending: bool,
}

impl Partial {
    fn finish(self) -> Option<MediaLine> {
        Some(MediaLine {
            mid: self.mid?,
            track_id: self.track_id,
            sending: self.sending,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mids_are_tied_to_their_msid_tracks_and_removed_ones_do_not_send() {
        let sdp = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0 1 2\r\n\
            m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\na=mid:0\r\n\
            m=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:1\r\na=sendonly\r\na=msid:stream-a 5e1f-cam\r\n\
            m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:2\r\na=msid:- mic-7\r\n\
            m=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:3\r\na=recvonly\r\na=msid:- removed-cam\r\n\
            m=audio 0 UDP/TLS/RTP/SAVPF 111\r\na=mid:4\r\na=msid:- stopped-mic\r\n";
        assert_eq!(
            media_lines(sdp),
            vec![
                MediaLine {
                    mid: "0".into(),
                    track_id: None,
                    sending: true
                },
                MediaLine {
                    mid: "1".into(),
                    track_id: Some("5e1f-cam".into()),
                    sending: true
                },
                MediaLine {
                    mid: "2".into(),
                    track_id: Some("mic-7".into()),
                    sending: true
                },
                MediaLine {
                    mid: "3".into(),
                    track_id: Some("removed-cam".into()),
                    sending: false
                },
                MediaLine {
                    mid: "4".into(),
                    track_id: Some("stopped-mic".into()),
                    sending: false
                },
            ]
        );
    }
}
