//! Per-packet forwarding (str0m's RTP mode): what the engine must know of a packet that
//! str0m's frame path used to tell it, and how one subscriber's copy is renumbered.
//!
//! - [`starts_keyframe`]: whether a packet is the first of a key frame, per codec, from the
//!   RTP payload (str0m's detectors, plus H.264's parameter sets).
//! - [`InStream`]: one incoming stream (a track or a simulcast layer) as the engine saw it:
//!   where frames start, and sequence gaps not repaired in time (the loss signal).
//! - [`Rewriter`]: one down track's numbering. A subscriber gets a run of packets from one
//!   source stream at a time (a *segment*: from a key frame, or from any packet for audio,
//!   until a pause, a mute or a simulcast layer switch); each segment is shifted so that the
//!   subscriber sees one continuous stream: sequence numbers go on from the last one it got
//!   (packets not forwarded leave no gap, so it does not ask for them), RTP time goes on by
//!   the wall time that passed when the source changes (layers have their own time bases),
//!   and VP8 picture id and TL0PICIDX go on by one across a source change.

use std::time::Instant;

use str0m::format::{
    detect_av1_keyframe, detect_h264_keyframe, detect_h265_keyframe, detect_vp8_keyframe,
    detect_vp9_keyframe, Codec,
};
use str0m::rtp::{Ssrc, Vp8Descriptor, Vp8Patch};

/// Whether `payload` (the RTP payload of a packet of `codec`) begins a key frame, the point
/// where a receiver can start decoding. `frame_start`: the packet is the first of its frame
/// (see [`InStream::observe`]), which the codecs that do not mark it themselves need.
pub fn starts_keyframe(codec: Codec, payload: &[u8], frame_start: bool) -> bool {
    match codec {
        // Descriptor S bit with partition 0, and the payload header's P bit clear.
        Codec::Vp8 => detect_vp8_keyframe(payload),
        // The parameter sets come first in a key frame (Chrome sends SPS and PPS, then the
        // IDR slice, in one STAP-A or in packets of the same time stamp): a receiver that
        // starts at the IDR without them cannot decode it.
        Codec::H264 => h264_has_sps(payload) || (frame_start && detect_h264_keyframe(payload)),
        // Not negotiated by this sfu (see `Engine::new_pc`); kept correct as far as str0m's
        // detectors go, should they be enabled.
        Codec::Vp9 => frame_start && detect_vp9_keyframe(payload),
        Codec::Av1 => detect_av1_keyframe(payload),
        Codec::H265 => frame_start && detect_h265_keyframe(payload),
        _ => false,
    }
}

/// Whether an H.264 RTP payload carries a sequence parameter set (NAL type 7): alone, in a
/// STAP-A, or as the start of an FU-A.
fn h264_has_sps(payload: &[u8]) -> bool {
    const SPS: u8 = 7;
    const STAP_A: u8 = 24;
    const FU_A: u8 = 28;
    let Some(&first) = payload.first() else {
        return false;
    };
    match first & 0x1f {
        SPS => true,
        STAP_A => {
            let mut at = 1;
            while at + 2 < payload.len() {
                let size = usize::from(u16::from_be_bytes([payload[at], payload[at + 1]]));
                at += 2;
                if payload.get(at).is_some_and(|nal| nal & 0x1f == SPS) {
                    return true;
                }
                at += size;
            }
            false
        }
        FU_A => payload
            .get(1)
            .is_some_and(|fu| fu & 0x80 != 0 && fu & 0x1f == SPS),
        _ => false,
    }
}

/// The VP8 payload descriptor fields a subscriber's copy rewrites.
#[derive(Debug, Clone, Copy)]
pub struct Vp8Ids {
    descriptor: Vp8Descriptor,
    picture_id: Option<u16>,
    /// The picture id field is 15 bits wide (else 7); a rewrite keeps the width.
    wide: bool,
    tl0_pic_idx: Option<u8>,
}

impl Vp8Ids {
    /// The descriptor of a VP8 payload; `None` when it has neither picture id nor TL0PICIDX
    /// (nothing to keep continuous) or does not parse.
    pub fn parse(payload: &[u8]) -> Option<Vp8Ids> {
        let descriptor = Vp8Descriptor::parse(payload).ok()?;
        let (picture_id, tl0_pic_idx) = (descriptor.picture_id(), descriptor.tl0_pic_idx());
        if picture_id.is_none() && tl0_pic_idx.is_none() {
            return None;
        }
        // X bit, then I bit: the picture id's first byte has the M (wide) bit on top.
        let wide = picture_id.is_some() && payload.get(2).is_some_and(|b| b & 0x80 != 0);
        Some(Vp8Ids {
            descriptor,
            picture_id,
            wide,
            tl0_pic_idx,
        })
    }
}

/// What the rewriter needs of an incoming packet.
#[derive(Debug, Clone, Copy)]
pub struct In {
    pub ssrc: Ssrc,
    /// Extended sequence number (str0m's `SeqNo`).
    pub seq: u64,
    pub time: u32,
    /// RTP clock rate of its codec.
    pub clock_rate: u32,
    /// When it arrived.
    pub at: Instant,
    pub vp8: Option<Vp8Ids>,
}

/// What one subscriber's copy of a packet carries instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Out {
    /// Extended: its rollover counter starts at 0, as SRTP on the subscriber side expects.
    pub seq: u64,
    pub time: u32,
    pub vp8_patch: Option<Vp8Patch>,
}

const PICTURE_ID_MODULO: u16 = 0x8000;

/// One run of packets from one source stream, and how it is shifted.
#[derive(Debug, Clone, Copy)]
struct Segment {
    ssrc: Ssrc,
    /// Its first packet's sequence number: older packets (late or repaired ones of a run
    /// before) are not forwarded.
    first_seq: u64,
    /// out = in + offset, all wrapping.
    seq_offset: u64,
    time_offset: u32,
    picture_id_offset: u16,
    tl0_offset: u8,
}

/// The newest packet a subscriber got: where the next segment continues from.
#[derive(Debug, Clone, Copy)]
struct Last {
    ssrc: Ssrc,
    seq: u64,
    time: u32,
    /// The time offset it was sent with: a source that resumes keeps it.
    time_offset: u32,
    at: Instant,
    picture_id: Option<u16>,
    tl0_pic_idx: Option<u8>,
}

/// One down track's numbering (see the module's notes).
#[derive(Debug, Default, Clone)]
pub struct Rewriter {
    segment: Option<Segment>,
    last: Option<Last>,
}

impl Rewriter {
    /// Whether packets of `ssrc` go out now (else the subscriber waits for a starting point).
    pub fn forwards(&self, ssrc: Ssrc) -> bool {
        self.segment.is_some_and(|s| s.ssrc == ssrc)
    }

    /// Stops forwarding (paused, muted, or the layer changes): the next packet forwarded
    /// starts a new segment with [`Self::start`].
    pub fn stop(&mut self) {
        self.segment = None;
    }

    /// Starts a segment at `packet` (a key frame's first packet, or any audio packet): it goes
    /// out right after the last packet this subscriber got.
    pub fn start(&mut self, packet: &In) {
        let Some(last) = self.last else {
            // The first packet ever: numbers as they come, with the rollover counter at 0.
            self.segment = Some(Segment {
                ssrc: packet.ssrc,
                first_seq: packet.seq,
                seq_offset: (packet.seq & 0xffff).wrapping_sub(packet.seq),
                time_offset: 0,
                picture_id_offset: 0,
                tl0_offset: 0,
            });
            return;
        };
        let seq_offset = (last.seq + 1).wrapping_sub(packet.seq);
        let time_offset = if last.ssrc == packet.ssrc {
            // The same source resumes: its clock ran on meanwhile, and so does the subscriber's.
            last.time_offset
        } else {
            // Another time base: go on from the last time by the wall time between the two
            // packets (at least one tick, so that the new frame has a time of its own).
            let elapsed = packet.at.saturating_duration_since(last.at);
            let ticks = (elapsed.as_micros() * u128::from(packet.clock_rate) / 1_000_000)
                .clamp(1, u128::from(u32::MAX / 2)) as u32;
            last.time.wrapping_add(ticks).wrapping_sub(packet.time)
        };
        let vp8 = packet.vp8;
        let picture_id_offset = match (last.picture_id, vp8.and_then(|v| v.picture_id)) {
            (Some(last_id), Some(id)) => {
                ((u32::from(last_id) + 1 + u32::from(PICTURE_ID_MODULO) - u32::from(id))
                    % u32::from(PICTURE_ID_MODULO)) as u16
            }
            _ => 0,
        };
        let tl0_offset = match (last.tl0_pic_idx, vp8.and_then(|v| v.tl0_pic_idx)) {
            (Some(last_idx), Some(idx)) => last_idx.wrapping_add(1).wrapping_sub(idx),
            _ => 0,
        };
        self.segment = Some(Segment {
            ssrc: packet.ssrc,
            first_seq: packet.seq,
            seq_offset,
            time_offset,
            picture_id_offset,
            tl0_offset,
        });
    }

    /// This subscriber's numbers for `packet`, or `None` when it is not forwarded: not of the
    /// running segment (another source, or no segment), or older than the segment's start.
    pub fn rewrite(&mut self, packet: &In) -> Option<Out> {
        let segment = self
            .segment
            .filter(|s| s.ssrc == packet.ssrc && packet.seq >= s.first_seq)?;
        let seq = packet.seq.wrapping_add(segment.seq_offset);
        let time = packet.time.wrapping_add(segment.time_offset);
        let mut picture_id = None;
        let mut tl0_pic_idx = None;
        let mut vp8_patch = None;
        if let Some(vp8) = packet.vp8 {
            let mut patch = vp8.descriptor.patch();
            if let Some(id) = vp8.picture_id {
                let out = (id + segment.picture_id_offset) % PICTURE_ID_MODULO;
                picture_id = Some(out);
                patch = patch.picture_id(if vp8.wide { out } else { out & 0x7f });
            }
            if let Some(idx) = vp8.tl0_pic_idx {
                let out = idx.wrapping_add(segment.tl0_offset);
                tl0_pic_idx = Some(out);
                patch = patch.tl0_pic_idx(out);
            }
            // Nothing to change: the payload goes out as it came.
            if segment.picture_id_offset != 0 || segment.tl0_offset != 0 {
                vp8_patch = patch.build().ok();
            }
        }
        if self.last.is_none_or(|last| seq > last.seq) {
            self.last = Some(Last {
                ssrc: packet.ssrc,
                seq,
                time,
                time_offset: segment.time_offset,
                at: packet.at,
                picture_id,
                tl0_pic_idx,
            });
        }
        Some(Out {
            seq,
            time,
            vp8_patch,
        })
    }
}

/// How long a sequence gap may stay open (NACK and RTX repairing it) before it counts as a
/// loss: several round trips on any network a live stream works over.
pub const REPAIR_DEADLINE: std::time::Duration = std::time::Duration::from_millis(500);
/// Gaps remembered per stream; a longer run of losses counts as a loss at once.
const MAX_GAPS: usize = 256;

/// One incoming stream (a track, or one simulcast layer of it) as the engine saw it.
#[derive(Debug, Default)]
pub struct InStream {
    /// The newest packet: sequence number, RTP time, marker.
    newest: Option<(u64, u32, bool)>,
    /// Sequence numbers skipped and not come yet, with when they were first missed.
    gaps: std::collections::VecDeque<(u64, Instant)>,
}

/// What [`InStream::observe`] learnt of a packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Observed {
    /// The packet is the first of its frame: the one before it ended a frame (marker) or
    /// had another RTP time.
    pub frame_start: bool,
    /// A packet of the stream is missing for longer than [`REPAIR_DEADLINE`] (or too many
    /// are): its receivers cannot decode on without a key frame.
    pub lost: bool,
}

impl InStream {
    /// Notes a packet that arrived at `now`.
    pub fn observe(&mut self, seq: u64, time: u32, marker: bool, now: Instant) -> Observed {
        let mut lost = false;
        let frame_start = match self.newest {
            None => true,
            Some((newest, newest_time, newest_marker)) if seq > newest => {
                let skipped = seq - newest - 1;
                if skipped as usize > MAX_GAPS {
                    lost = true;
                    self.gaps.clear();
                } else {
                    for missing in newest + 1..seq {
                        if self.gaps.len() == MAX_GAPS {
                            self.gaps.pop_front();
                            lost = true;
                        }
                        self.gaps.push_back((missing, now));
                    }
                }
                if skipped == 0 {
                    newest_marker || time != newest_time
                } else {
                    time != newest_time
                }
            }
            Some(_) => {
                // Late: a repair (RTX) or reordered. It starts no frame the engine acts on.
                if let Some(at) = self.gaps.iter().position(|&(missing, _)| missing == seq) {
                    self.gaps.remove(at);
                }
                false
            }
        };
        if self.newest.is_none_or(|(newest, _, _)| seq > newest) {
            self.newest = Some((seq, time, marker));
        }
        while self
            .gaps
            .front()
            .is_some_and(|&(_, since)| now.saturating_duration_since(since) > REPAIR_DEADLINE)
        {
            self.gaps.pop_front();
            lost = true;
        }
        Observed { frame_start, lost }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// A VP8 payload as Chrome sends it: extended descriptor with a 15-bit picture id,
    /// TL0PICIDX and TID; `start` marks the first packet of a frame, `key` a key frame.
    fn vp8(start: bool, key: bool, picture_id: u16, tl0: u8) -> Vec<u8> {
        let first = 0x80 | if start { 0x10 } else { 0 };
        let mut payload = vec![
            first,
            0xe0,
            0x80 | (picture_id >> 8) as u8,
            picture_id as u8,
            tl0,
            0x00,
        ];
        // The VP8 payload header: its low bit clear in a key frame.
        payload.extend_from_slice(&[if key { 0x10 } else { 0x11 }, 0x02, 0x00, 0x9d, 0x01, 0x2a]);
        payload
    }

    fn packet(ssrc: u32, seq: u64, time: u32, at: Instant, payload: &[u8]) -> In {
        In {
            ssrc: ssrc.into(),
            seq,
            time,
            clock_rate: 90_000,
            at,
            vp8: Vp8Ids::parse(payload),
        }
    }

    #[test]
    fn vp8_key_frames_are_found_at_their_first_packet() {
        assert!(starts_keyframe(Codec::Vp8, &vp8(true, true, 300, 7), true));
        assert!(
            !starts_keyframe(Codec::Vp8, &vp8(false, true, 300, 7), false),
            "a key frame's later packet"
        );
        assert!(
            !starts_keyframe(Codec::Vp8, &vp8(true, false, 300, 7), true),
            "a delta frame"
        );
        // The short descriptor str0m's own packetizer writes (no extension).
        assert!(starts_keyframe(Codec::Vp8, &[0x10, 0x10, 0x02, 0x00], true));
        assert!(!starts_keyframe(
            Codec::Vp8,
            &[0x10, 0x11, 0x02, 0x00],
            true
        ));
        assert!(!starts_keyframe(Codec::Vp8, &[], true));
        assert!(
            !starts_keyframe(Codec::Opus, &[0x10, 0x10], true),
            "audio has no key frames"
        );
    }

    #[test]
    fn h264_key_frames_start_at_their_parameter_sets() {
        let (sps, pps, idr, slice) = (
            [0x67, 0x42, 0x00, 0x1f],
            [0x68, 0xce, 0x3c, 0x80],
            [0x65, 0x88, 0x84],
            [0x41, 0x9a, 0x02],
        );
        // STAP-A with SPS, PPS and a small IDR: one packet, the start.
        let mut stap = vec![0x78];
        for nal in [&sps[..], &pps[..], &idr[..]] {
            stap.extend_from_slice(&u16::try_from(nal.len()).unwrap().to_be_bytes());
            stap.extend_from_slice(nal);
        }
        assert!(starts_keyframe(Codec::H264, &stap, true));
        // SPS and PPS alone in a STAP-A, then the IDR in FU-A packets of the same time: the
        // STAP-A is where a receiver must start, the IDR's first fragment is not.
        let mut params = vec![0x78];
        for nal in [&sps[..], &pps[..]] {
            params.extend_from_slice(&u16::try_from(nal.len()).unwrap().to_be_bytes());
            params.extend_from_slice(nal);
        }
        assert!(starts_keyframe(Codec::H264, &params, true));
        let fu_a_idr_start = [0x7c, 0x85, 0xb8, 0x00];
        assert!(!starts_keyframe(Codec::H264, &fu_a_idr_start, false));
        // An IDR first in its frame (parameter sets sent before, out of band) does start one.
        assert!(starts_keyframe(Codec::H264, &fu_a_idr_start, true));
        assert!(
            starts_keyframe(Codec::H264, &sps, true),
            "a single SPS packet"
        );
        assert!(
            !starts_keyframe(Codec::H264, &slice, true),
            "a non-IDR slice"
        );
        assert!(
            !starts_keyframe(Codec::H264, &[0x7c, 0x45, 0x00], true),
            "an IDR's last fragment"
        );
    }

    #[test]
    fn a_layer_switch_keeps_sequence_time_and_picture_ids_continuous() {
        let t0 = Instant::now();
        let mut rewriter = Rewriter::default();
        // Layer "q" (SSRC 1): a key frame of two packets, then a delta frame.
        let q = [
            packet(1, 70_000, 1_000, t0, &vp8(true, true, 500, 20)),
            packet(1, 70_001, 1_000, t0, &vp8(false, true, 500, 20)),
            packet(
                1,
                70_002,
                4_000,
                t0 + Duration::from_millis(33),
                &vp8(true, false, 501, 20),
            ),
        ];
        assert!(!rewriter.forwards(1.into()));
        rewriter.start(&q[0]);
        let out: Vec<Out> = q.iter().map(|p| rewriter.rewrite(p).unwrap()).collect();
        // The first packet ever: numbered as it came, the rollover counter at 0 for SRTP.
        assert_eq!(
            out.iter().map(|o| o.seq).collect::<Vec<_>>(),
            [4_464, 4_465, 4_466]
        );
        assert_eq!(
            out.iter().map(|o| o.time).collect::<Vec<_>>(),
            [1_000, 1_000, 4_000]
        );
        assert!(
            out.iter().all(|o| o.vp8_patch.is_none()),
            "nothing to rewrite in the first segment"
        );

        // The switch to layer "f" (SSRC 2) at its key frame, 40 ms after the last "q" packet:
        // other numbers and another time base on the way in, one stream on the way out.
        rewriter.stop();
        let f_key = vp8(true, true, 9_000, 200);
        let f = packet(2, 12_345, 777_000, t0 + Duration::from_millis(73), &f_key);
        assert_eq!(
            rewriter.rewrite(&f),
            None,
            "not forwarded before its segment starts"
        );
        rewriter.start(&f);
        assert!(rewriter.forwards(2.into()) && !rewriter.forwards(1.into()));
        let out = rewriter.rewrite(&f).unwrap();
        assert_eq!(out.seq, 4_467, "the sequence goes on by one");
        assert_eq!(
            out.time,
            4_000 + 40 * 90,
            "the time goes on by the 40 ms between the packets"
        );
        let expected = Vp8Descriptor::parse(&f_key)
            .unwrap()
            .patch()
            .picture_id(502)
            .tl0_pic_idx(21)
            .build()
            .unwrap();
        assert_eq!(
            out.vp8_patch,
            Some(expected),
            "picture id and TL0PICIDX go on by one"
        );
        // The next "f" packets keep the offsets; a late "q" packet goes nowhere.
        let next = rewriter
            .rewrite(&packet(
                2,
                12_346,
                780_000,
                t0 + Duration::from_millis(106),
                &vp8(true, false, 9_001, 200),
            ))
            .unwrap();
        assert_eq!((next.seq, next.time), (4_468, 4_000 + 40 * 90 + 3_000));
        let expected = Vp8Descriptor::parse(&vp8(true, false, 9_001, 200))
            .unwrap()
            .patch()
            .picture_id(503)
            .tl0_pic_idx(21)
            .build()
            .unwrap();
        assert_eq!(next.vp8_patch, Some(expected));
        assert_eq!(rewriter.rewrite(&q[2]), None);
    }

    #[test]
    fn packets_not_forwarded_leave_no_gap_and_late_ones_of_a_segment_still_go() {
        let t0 = Instant::now();
        let mut rewriter = Rewriter::default();
        let at = |ms| t0 + Duration::from_millis(ms);
        rewriter.start(&packet(1, 100, 9_000, at(0), &vp8(true, true, 10, 1)));
        assert_eq!(
            rewriter
                .rewrite(&packet(1, 100, 9_000, at(0), &vp8(true, true, 10, 1)))
                .unwrap()
                .seq,
            100
        );
        // 101 is lost on the way in; 102 goes out as 102, and 101's repair (RTX) fills the gap.
        assert_eq!(
            rewriter
                .rewrite(&packet(1, 102, 12_000, at(33), &vp8(true, false, 11, 1)))
                .unwrap()
                .seq,
            102
        );
        assert_eq!(
            rewriter
                .rewrite(&packet(1, 101, 9_000, at(40), &vp8(false, true, 10, 1)))
                .unwrap()
                .seq,
            101
        );

        // Paused (or muted) for 100 packets: none goes out,
        rewriter.stop();
        assert_eq!(
            rewriter.rewrite(&packet(1, 150, 90_000, at(1_000), &vp8(true, false, 40, 5))),
            None
        );
        // and the resumed stream goes on from 103 at the next key frame, its time on its own
        // clock (the same source: the pause shows as the time that passed).
        let resumed = packet(1, 203, 180_000, at(2_000), &vp8(true, true, 60, 9));
        rewriter.start(&resumed);
        let out = rewriter.rewrite(&resumed).unwrap();
        assert_eq!((out.seq, out.time), (103, 180_000));
        let expected = Vp8Descriptor::parse(&vp8(true, true, 60, 9))
            .unwrap()
            .patch()
            .picture_id(12)
            .tl0_pic_idx(2)
            .build()
            .unwrap();
        assert_eq!(out.vp8_patch, Some(expected));
        // A packet from before the pause, arriving late, is not forwarded into the new segment.
        assert_eq!(
            rewriter.rewrite(&packet(1, 160, 95_000, at(2_001), &vp8(true, false, 41, 5))),
            None
        );
    }

    #[test]
    fn picture_ids_wrap_within_their_width() {
        let t0 = Instant::now();
        let mut rewriter = Rewriter::default();
        rewriter.start(&packet(1, 1, 0, t0, &vp8(true, true, 0x7fff, 255)));
        rewriter
            .rewrite(&packet(1, 1, 0, t0, &vp8(true, true, 0x7fff, 255)))
            .unwrap();
        rewriter.stop();
        let other = packet(
            2,
            900,
            0,
            t0 + Duration::from_millis(10),
            &vp8(true, true, 3, 17),
        );
        rewriter.start(&other);
        let expected = Vp8Descriptor::parse(&vp8(true, true, 3, 17))
            .unwrap()
            .patch()
            .picture_id(0)
            .tl0_pic_idx(0)
            .build()
            .unwrap();
        assert_eq!(rewriter.rewrite(&other).unwrap().vp8_patch, Some(expected));
    }

    #[test]
    fn frame_starts_and_unrepaired_gaps_are_noticed() {
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        let mut stream = InStream::default();
        let first = stream.observe(10, 1_000, false, at(0));
        assert_eq!(
            first,
            Observed {
                frame_start: true,
                lost: false
            }
        );
        assert!(
            !stream.observe(11, 1_000, true, at(1)).frame_start,
            "the same frame"
        );
        assert!(
            stream.observe(12, 4_000, false, at(33)).frame_start,
            "after a marker"
        );
        // 13 is missing: 14 (same time as 12) starts nothing; 13 repaired in time is no loss.
        assert_eq!(
            stream.observe(14, 4_000, true, at(34)),
            Observed {
                frame_start: false,
                lost: false
            }
        );
        assert_eq!(
            stream.observe(13, 4_000, false, at(80)),
            Observed {
                frame_start: false,
                lost: false
            }
        );
        assert!(
            !stream.observe(15, 7_000, true, at(700)).lost,
            "nothing missing any more"
        );
        // 16 never comes: a loss once the repair deadline has passed.
        assert!(!stream.observe(17, 10_000, true, at(720)).lost);
        assert!(!stream.observe(18, 13_000, true, at(1_000)).lost);
        assert!(
            stream.observe(19, 16_000, true, at(1_300)).lost,
            "16 missing for more than the deadline"
        );
        assert!(
            !stream.observe(20, 19_000, true, at(1_333)).lost,
            "told once"
        );
    }
}
