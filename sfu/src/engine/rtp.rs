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

use str0m::format::{detect_av1_keyframe, detect_h264_keyframe, detect_h265_keyframe, detect_vp8_keyframe, detect_vp9_keyframe, Codec};
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
    let Some(&first) = payload.first() else { return false };
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
        FU_A => payload.get(1).is_some_and(|fu| fu & 0x80 != 0 && fu & 0x1f == SPS),
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
        Some(Vp8Ids { descriptor, picture_id, wide, tl0_pic_idx })
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
            let ticks = (elapsed.as_micros() * u128::from(packet.clock_rate) / 1_000_000).clamp(1, u128::from(u32::MAX / 2)) as u32;
            last.time.wrapping_add(ticks).wrapping_sub(packet.time)
        };
        let vp8 = packet.vp8;
        let picture_id_offset = match (last.picture_id, vp8.and_then(|v| v.picture_id)) {
            (Some(last_id), Some(id)) => (last_id + 1 + PICTURE_ID_MODULO - id) % PICTURE_ID_MODULO,
            _ => 0,
        };
        let tl0_offset = match (last.tl0_pic_idx, vp8.and_then(|v| v.tl0_pic_idx)) {
            (Some(last_idx), Some(idx)) => last_idx.wrapping_add(1).wrapping_sub(idx),
            _ => 0,
        };
        self.segment = Some(Segment { ssrc: packet.ssrc, first_seq: packet.seq, seq_offset, time_offset, picture_id_offset, tl0_offset });
    }

    /// This subscriber's numbers for `packet`, or `None` when it is not forwarded: not of the
    /// running segment (another source, or no segment), or older than the segment's start.
    pub fn rewrite(&mut self, packet: &In) -> Option<Out> {
        let segment = self.segment.filter(|s| s.ssrc == packet.ssrc && packet.seq >= s.first_seq)?;
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
            self.last = Some(Last { ssrc: packet.ssrc, seq, time, time_offset: segment.time_offset, at: packet.at, picture_id, tl0_pic_idx });
        }
        Some(Out { seq, time, vp8_patch })
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
                if skipped == 0 { newest_marker || time != newest_time } else { time != newest_time }
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
        while self.gaps.front().is_some_and(|&(_, since)| now.saturating_duration_since(since) > REPAIR_DEADLINE) {
            self.gaps.pop_front();
            lost = true;
        }
        Observed { frame_start, lost }
    }
}
