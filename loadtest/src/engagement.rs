//! The engagement mode (issue #19 item 8): while the guide changes slides, the attendees
//! chat, react and vote in one poll the guide opens, and the run checks that no vote was
//! lost, that every attendee got every chat in the same order, and that reaction sums
//! arrive coalesced.
//!
//! The guide creates a poll before the slide changes and opens it with the first one.
//! The poll's opening starts each load generator's [`drive`]: for `--poll-window-secs`
//! it sends chats (`--chat-per-sec`), reactions (`--reactions-per-sec`) and one vote of
//! each of the first `--poll-votes` attendees, spread evenly over the window and over
//! the attendees so that nobody meets the hub's per-attendee limits ([`Plan::check`]).
//! Once the slide changes and the window are over, the guide closes the poll: its
//! `pollClosed` is the end of the run for every attendee, and its counts are what the
//! votes acknowledged are checked against (and the stored poll, read through the hub's
//! `GET /internal/appointments/{id}/state`, when `--hub-secret` is given).
//!
//! Each frame goes through the attendee's own task ([`Outbox`]), so the attendee's
//! socket stays unsplit, and acknowledgements are matched by their `ref`.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use protocol::action::Action;
use protocol::engagement::{Reaction, CHAT_BURST, CHAT_BURST_WINDOW_MS};
use protocol::frame::ClientFrame;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc::UnboundedSender;
use tokio_tungstenite::tungstenite::Message;

use crate::{Options, Shard};

/// The `ref` of every vote; its `ack` or `error` says whether it counted.
pub const VOTE_REF: u32 = 0xF000_0001;
/// The `ref` of every chat message.
pub const CHAT_REF: u32 = 0xF000_0002;
/// The `ref` of the guide's poll actions (create, open, close).
pub const POLL_REF: u32 = 0xF000_0003;

/// What the hub lets a client send per second on average
/// (`hub::ws::rate::CLIENT_REQUESTS_PER_SEC`; a test keeps them equal).
pub const CLIENT_REQUESTS_PER_SEC: f64 = 20.0;

/// How long the guide waits after the window before it closes the poll: the last votes
/// sent are still on their way.
pub const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// What a run with engagement sends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plan {
    pub chat_per_sec: f64,
    pub reactions_per_sec: f64,
    /// The first this many attendees (of all shards) vote once each.
    pub poll_votes: usize,
    pub window: Duration,
}

impl Plan {
    /// `None` for a plain run (no chat, no reactions, no votes).
    pub fn of(options: &Options) -> Option<Plan> {
        let plan = Plan {
            chat_per_sec: options.chat_per_sec,
            reactions_per_sec: options.reactions_per_sec,
            poll_votes: options.poll_votes,
            window: Duration::from_secs_f64(options.poll_window_secs.max(0.0)),
        };
        (plan.chat_per_sec > 0.0 || plan.reactions_per_sec > 0.0 || plan.poll_votes > 0)
            .then_some(plan)
    }

    /// Refuses a plan that would make the hub refuse attendees for their rate (rather
    /// than measure fan-out): every attendee stays within the chat burst
    /// ([`CHAT_BURST`] in [`CHAT_BURST_WINDOW_MS`]) and the request rate.
    pub fn check(&self, clients: usize) -> anyhow::Result<()> {
        let secs = self.window.as_secs_f64();
        if !(secs > 0.0 && secs.is_finite()) {
            anyhow::bail!("--poll-window-secs must be above 0");
        }
        if !(self.chat_per_sec >= 0.0
            && self.reactions_per_sec >= 0.0
            && self.chat_per_sec.is_finite()
            && self.reactions_per_sec.is_finite())
        {
            anyhow::bail!("--chat-per-sec and --reactions-per-sec must be 0 or more");
        }
        if clients == 0 {
            anyhow::bail!("engagement needs attendees");
        }
        if self.poll_votes > clients {
            anyhow::bail!(
                "--poll-votes {} is more than the {clients} attendees (each votes once)",
                self.poll_votes
            );
        }
        // Chat k is sent by attendee k % clients: each attendee's messages are
        // clients / rate seconds apart.
        let burst_window = secs.min(CHAT_BURST_WINDOW_MS as f64 / 1000.0);
        let per_attendee = (self.chat_per_sec * burst_window / clients as f64).ceil() as usize;
        if per_attendee > CHAT_BURST {
            anyhow::bail!(
                "{} chats/s over {clients} attendees is {per_attendee} messages per attendee in {CHAT_BURST_WINDOW_MS} ms; the hub takes {CHAT_BURST}",
                self.chat_per_sec
            );
        }
        let requests = (self.chat_per_sec + self.reactions_per_sec) / clients as f64 + 1.0 / secs;
        if requests >= CLIENT_REQUESTS_PER_SEC {
            anyhow::bail!(
                "{requests:.1} requests/s per attendee; the hub takes {CLIENT_REQUESTS_PER_SEC} (more attendees, or fewer reactions)"
            );
        }
        Ok(())
    }

    /// Chats, reactions and votes (of all shards) due `elapsed` into the window.
    fn due(&self, elapsed: Duration) -> (u64, u64, usize) {
        let t = elapsed.min(self.window).as_secs_f64();
        let whole = elapsed >= self.window;
        let chats = if whole {
            (self.chat_per_sec * self.window.as_secs_f64()).round()
        } else {
            (self.chat_per_sec * t).floor()
        };
        let reactions = if whole {
            (self.reactions_per_sec * self.window.as_secs_f64()).round()
        } else {
            (self.reactions_per_sec * t).floor()
        };
        let votes = if whole {
            self.poll_votes
        } else {
            (self.poll_votes as f64 * t / self.window.as_secs_f64()).floor() as usize
        };
        (chats as u64, reactions as u64, votes)
    }
}

/// The poll of the run, as the attendees learn it from `pollCreated`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenPoll {
    pub poll_id: String,
    pub answer_ids: Vec<String>,
}

/// What a load generator's attendees share: the poll, once one of them saw it created,
/// and whether it opened (which starts [`drive`]).
pub struct Shared {
    pub poll: OnceLock<SeenPoll>,
    pub opened: tokio::sync::watch::Sender<bool>,
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            poll: OnceLock::new(),
            opened: tokio::sync::watch::channel(false).0,
        }
    }
}

/// Frames for one attendee's socket, sent by its own task.
pub type Outbox = UnboundedSender<Message>;

/// What one load generator's driver sent.
#[derive(Debug, Default)]
pub struct Sent {
    pub chats: AtomicU64,
    pub reactions: AtomicU64,
    pub votes: AtomicU64,
    /// Votes sent per answer (the answer is the attendee's number modulo the answers).
    pub per_answer: Mutex<Vec<u64>>,
}

fn action_frame(r#ref: Option<u32>, action: Action) -> Message {
    Message::text(serde_json::to_string(&ClientFrame::Action { r#ref, action }).unwrap_or_default())
}

/// The text of chat `k` (of all shards): what the attendees' order digest is made of.
pub fn chat_text(k: u64) -> String {
    format!("load chat {k}")
}

/// Sends this shard's chats, reactions and votes through the attendees' outboxes
/// (`outboxes[n]` is the shard's n-th attendee; a failed join's is closed), from the
/// poll's opening for the plan's window.
pub async fn drive(
    plan: Plan,
    shard: Shard,
    clients: usize,
    outboxes: Vec<Outbox>,
    shared: &Shared,
    sent: &Sent,
) {
    let mut opened = shared.opened.subscribe();
    if opened.wait_for(|o| *o).await.is_err() {
        return;
    }
    let Some(poll) = shared.poll.get().cloned() else {
        return;
    };
    *sent.per_answer.lock().unwrap() = vec![0; poll.answer_ids.len()];
    let start = Instant::now();
    let outbox = |attendee: usize| -> Option<&Outbox> {
        (attendee % shard.count == shard.index)
            .then(|| outboxes.get(attendee / shard.count))
            .flatten()
    };
    let (mut chats, mut reactions, mut votes) = (0u64, 0u64, 0usize);
    let mut tick = tokio::time::interval(Duration::from_millis(10));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tick.tick().await;
        let elapsed = start.elapsed();
        let (chats_due, reactions_due, votes_due) = plan.due(elapsed);
        for k in chats..chats_due {
            if let Some(outbox) = outbox(k as usize % clients) {
                if outbox
                    .send(action_frame(
                        Some(CHAT_REF),
                        Action::SendChatMessage { text: chat_text(k) },
                    ))
                    .is_ok()
                {
                    sent.chats.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        chats = chats_due;
        for k in reactions..reactions_due {
            // Spread differently from the chats, so that chat and reaction senders differ.
            let attendee = (k as usize).wrapping_mul(7919) % clients;
            if let Some(outbox) = outbox(attendee) {
                let reaction = Reaction::ALL[k as usize % Reaction::ALL.len()];
                if outbox
                    .send(action_frame(None, Action::SendReaction { reaction }))
                    .is_ok()
                {
                    sent.reactions.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        reactions = reactions_due;
        for attendee in votes..votes_due {
            if let Some(outbox) = outbox(attendee) {
                let answer = attendee % poll.answer_ids.len();
                let vote = Action::VotePoll {
                    poll_id: poll.poll_id.clone(),
                    answer_ids: vec![poll.answer_ids[answer].clone()],
                };
                if outbox.send(action_frame(Some(VOTE_REF), vote)).is_ok() {
                    sent.votes.fetch_add(1, Ordering::Relaxed);
                    sent.per_answer.lock().unwrap()[answer] += 1;
                }
            }
        }
        votes = votes_due;
        if elapsed >= plan.window {
            return;
        }
    }
}

/// FNV-1a over `bytes`, continuing from `hash`: the digest of the chats in the order
/// an attendee received them.
pub fn digest(hash: u64, bytes: &[u8]) -> u64 {
    let mut hash = if hash == 0 {
        0xcbf2_9ce4_8422_2325
    } else {
        hash
    };
    for byte in bytes.iter().chain(b"\n") {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// What one attendee (or the guide) saw of the engagement.
#[derive(Debug, Default)]
pub struct Seen {
    pub chats: u64,
    pub chat_digest: u64,
    pub chats_acked: u64,
    pub chats_refused: u64,
    pub votes_acked: u64,
    pub votes_refused: u64,
    /// Error frames without a `ref`: refused reactions (the only requests sent without one).
    pub unreferenced_refusals: u64,
    pub reaction_frames: u64,
    first_reaction: Option<Instant>,
    last_reaction: Option<Instant>,
    /// Arrivals of reaction frames within the last second.
    recent_reactions: VecDeque<Instant>,
    pub reaction_max_per_sec: u32,
    pub poll_closed: bool,
}

impl Seen {
    pub fn chat(&mut self, text: &str) {
        self.chats += 1;
        self.chat_digest = digest(self.chat_digest, text.as_bytes());
    }

    pub fn reaction_frame(&mut self, now: Instant) {
        self.reaction_frames += 1;
        self.first_reaction.get_or_insert(now);
        self.last_reaction = Some(now);
        while self
            .recent_reactions
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1))
        {
            self.recent_reactions.pop_front();
        }
        self.recent_reactions.push_back(now);
        self.reaction_max_per_sec = self
            .reaction_max_per_sec
            .max(self.recent_reactions.len() as u32);
    }

    pub fn acked(&mut self, r#ref: u32) {
        match r#ref {
            VOTE_REF => self.votes_acked += 1,
            CHAT_REF => self.chats_acked += 1,
            _ => {}
        }
    }

    pub fn refused(&mut self, r#ref: Option<u32>) {
        match r#ref {
            Some(VOTE_REF) => self.votes_refused += 1,
            Some(CHAT_REF) => self.chats_refused += 1,
            None => self.unreferenced_refusals += 1,
            _ => {}
        }
    }
}

/// A poll's counts: as the guide's `pollClosed` carried them, or as the hub stored them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PollCount {
    pub counts: Vec<u32>,
    pub voters: u32,
}

/// How many attendees received which chats in which order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatView {
    pub chats: u64,
    pub digest: u64,
    pub attendees: u64,
}

/// The engagement part of a report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EngagementReport {
    pub window_secs: f64,
    pub chats_sent: u64,
    pub chats_acked: u64,
    pub chats_refused: u64,
    /// One entry per distinct sequence of chats the attendees received up to the
    /// poll's closing: one entry when every attendee got the same chats in one order.
    pub chat_views: Vec<ChatView>,
    /// What the guide received (the load generator with the guide).
    pub guide_chats: Option<u64>,
    pub guide_chat_digest: Option<u64>,
    pub reactions_sent: u64,
    /// Error frames without a `ref` (the refused reactions).
    pub reactions_refused: u64,
    /// The taps the reaction sums the guide received add up to.
    pub reaction_taps_counted: Option<u64>,
    /// Reaction frames all attendees received.
    pub reaction_frames: u64,
    /// Over all attendees: the intervals between their reaction frames, and the seconds
    /// from each one's first to its last (their ratio is the frames per second).
    pub reaction_intervals: u64,
    pub reaction_seconds: f64,
    /// The most reaction frames any attendee received within one second.
    pub reaction_max_frames_per_sec: u32,
    pub votes_sent: u64,
    pub votes_acked: u64,
    pub votes_refused: u64,
    /// Votes sent per answer.
    pub votes_per_answer: Vec<u64>,
    /// The final counts the guide received (`pollClosed`).
    pub poll_closed: Option<PollCount>,
    /// The poll as the hub stored it, read after the close.
    pub poll_stored: Option<PollCount>,
}

impl EngagementReport {
    pub fn add_attendee(&mut self, seen: &Seen) {
        self.chats_acked += seen.chats_acked;
        self.chats_refused += seen.chats_refused;
        self.votes_acked += seen.votes_acked;
        self.votes_refused += seen.votes_refused;
        self.reactions_refused += seen.unreferenced_refusals;
        self.add_view(ChatView {
            chats: seen.chats,
            digest: seen.chat_digest,
            attendees: 1,
        });
        self.reaction_frames += seen.reaction_frames;
        if let (Some(first), Some(last)) = (seen.first_reaction, seen.last_reaction) {
            self.reaction_intervals += seen.reaction_frames.saturating_sub(1);
            self.reaction_seconds += last.duration_since(first).as_secs_f64();
        }
        self.reaction_max_frames_per_sec = self
            .reaction_max_frames_per_sec
            .max(seen.reaction_max_per_sec);
    }

    fn add_view(&mut self, view: ChatView) {
        match self
            .chat_views
            .iter_mut()
            .find(|v| (v.chats, v.digest) == (view.chats, view.digest))
        {
            Some(v) => v.attendees += view.attendees,
            None => self.chat_views.push(view),
        }
    }

    /// The report of a run split over load generators: sums, the guide's readings.
    pub fn merge(&mut self, other: EngagementReport) {
        self.chats_sent += other.chats_sent;
        self.chats_acked += other.chats_acked;
        self.chats_refused += other.chats_refused;
        for view in other.chat_views {
            self.add_view(view);
        }
        self.guide_chats = self.guide_chats.or(other.guide_chats);
        self.guide_chat_digest = self.guide_chat_digest.or(other.guide_chat_digest);
        self.reactions_sent += other.reactions_sent;
        self.reactions_refused += other.reactions_refused;
        self.reaction_taps_counted = self.reaction_taps_counted.or(other.reaction_taps_counted);
        self.reaction_frames += other.reaction_frames;
        self.reaction_intervals += other.reaction_intervals;
        self.reaction_seconds += other.reaction_seconds;
        self.reaction_max_frames_per_sec = self
            .reaction_max_frames_per_sec
            .max(other.reaction_max_frames_per_sec);
        self.votes_sent += other.votes_sent;
        self.votes_acked += other.votes_acked;
        self.votes_refused += other.votes_refused;
        if self.votes_per_answer.len() < other.votes_per_answer.len() {
            self.votes_per_answer
                .resize(other.votes_per_answer.len(), 0);
        }
        for (mine, theirs) in self.votes_per_answer.iter_mut().zip(other.votes_per_answer) {
            *mine += theirs;
        }
        self.poll_closed = self.poll_closed.take().or(other.poll_closed);
        self.poll_stored = self.poll_stored.take().or(other.poll_stored);
    }

    /// Chats delivered to attendees (each chat once per attendee that received it).
    pub fn chat_deliveries(&self) -> u64 {
        self.chat_views.iter().map(|v| v.chats * v.attendees).sum()
    }

    /// Every attendee received the chats the guide received, in the guide's order, and
    /// every acknowledged chat was among them.
    pub fn chats_in_order(&self) -> bool {
        match (
            self.chat_views.as_slice(),
            self.guide_chats,
            self.guide_chat_digest,
        ) {
            ([view], Some(chats), Some(digest)) => {
                view.chats == chats && view.digest == digest && chats == self.chats_acked
            }
            _ => false,
        }
    }

    /// Acknowledged votes the final counts (or the stored poll) do not hold; `None`
    /// without the final counts.
    pub fn votes_lost(&self) -> Option<i64> {
        let closed = self.poll_closed.as_ref()?;
        let mut lost = self.votes_acked as i64 - i64::from(closed.voters);
        if let Some(stored) = &self.poll_stored {
            lost = lost.max(self.votes_acked as i64 - i64::from(stored.voters));
        }
        Some(lost)
    }

    /// Reaction frames per second an attendee received while reactions came.
    pub fn reaction_frames_per_sec(&self) -> f64 {
        self.reaction_intervals as f64 / self.reaction_seconds.max(1e-9)
    }

    /// No vote lost or refused, every chat delivered in order and none refused.
    pub fn is_clean(&self) -> bool {
        self.votes_lost() == Some(0)
            && self.votes_refused == 0
            && self.votes_acked == self.votes_sent
            && self.chats_refused == 0
            && self.chats_in_order()
            && self.poll_closed.as_ref().is_some_and(|c| {
                c.counts
                    .iter()
                    .map(|n| u64::from(*n))
                    .eq(self.votes_per_answer.iter().copied())
            })
    }
}

impl std::fmt::Display for EngagementReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let attendees: u64 = self.chat_views.iter().map(|v| v.attendees).sum();
        let show = |v: Option<u64>| v.map_or("-".to_owned(), |v| v.to_string());
        writeln!(f, "engagement over {} s:", self.window_secs)?;
        writeln!(
            f,
            "  votes sent {}  acknowledged {}  refused {}  counted {} (stored {})  lost {}",
            self.votes_sent,
            self.votes_acked,
            self.votes_refused,
            show(self.poll_closed.as_ref().map(|c| c.voters.into())),
            show(self.poll_stored.as_ref().map(|c| c.voters.into())),
            self.votes_lost().map_or("-".to_owned(), |l| l.to_string()),
        )?;
        writeln!(
            f,
            "  per answer sent {:?}  counted {:?}",
            self.votes_per_answer,
            self.poll_closed
                .as_ref()
                .map(|c| c.counts.clone())
                .unwrap_or_default()
        )?;
        writeln!(
            f,
            "  chats sent {}  acknowledged {}  refused {}  guide received {}  delivered {}/{}  in one order: {}",
            self.chats_sent,
            self.chats_acked,
            self.chats_refused,
            show(self.guide_chats),
            self.chat_deliveries(),
            self.chats_acked * attendees,
            if self.chats_in_order() { "yes" } else { "NO" },
        )?;
        write!(
            f,
            "  reactions sent {}  refused {}  taps in the guide's sums {}  sum frames {:.2}/s per attendee (most in one second {})",
            self.reactions_sent,
            self.reactions_refused,
            show(self.reaction_taps_counted),
            self.reaction_frames_per_sec(),
            self.reaction_max_frames_per_sec,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(chat: f64, reactions: f64, votes: usize, secs: f64) -> Plan {
        Plan {
            chat_per_sec: chat,
            reactions_per_sec: reactions,
            poll_votes: votes,
            window: Duration::from_secs_f64(secs),
        }
    }

    #[test]
    fn the_issue_size_keeps_every_attendee_within_the_hubs_limits_and_a_crowded_one_is_refused() {
        assert!(plan(50.0, 1000.0, 10_000, 10.0).check(10_000).is_ok());
        assert!(plan(50.0, 1000.0, 3_000, 10.0).check(3_000).is_ok());
        assert!(plan(50.0, 200.0, 50, 2.0).check(50).is_ok());
        assert!(
            plan(50.0, 0.0, 0, 10.0).check(50).is_err(),
            "10 chats per attendee in 10 s"
        );
        assert!(
            plan(0.0, 1000.0, 0, 10.0).check(50).is_err(),
            "20 reactions per attendee per second"
        );
        assert!(
            plan(0.0, 0.0, 51, 10.0).check(50).is_err(),
            "more votes than attendees"
        );
        assert!(plan(1.0, 0.0, 0, 0.0).check(50).is_err());
        assert!(plan(f64::NAN, 0.0, 0, 1.0).check(50).is_err());
    }

    #[test]
    fn everything_is_due_by_the_end_of_the_window_and_spread_over_it() {
        let p = plan(50.0, 1000.0, 10_000, 10.0);
        assert_eq!(p.due(Duration::ZERO), (0, 0, 0));
        assert_eq!(p.due(Duration::from_secs(5)), (250, 5_000, 5_000));
        assert_eq!(p.due(Duration::from_secs(10)), (500, 10_000, 10_000));
        assert_eq!(p.due(Duration::from_secs(60)), (500, 10_000, 10_000));
    }

    #[test]
    fn one_order_means_the_guides_chats_everywhere_and_votes_lost_are_the_acknowledged_ones_not_counted(
    ) {
        let (mut a, mut b, mut guide) = (Seen::default(), Seen::default(), Seen::default());
        for seen in [&mut a, &mut b, &mut guide] {
            seen.chat("load chat 0");
            seen.chat("load chat 1");
        }
        a.acked(CHAT_REF);
        b.acked(CHAT_REF);
        a.acked(VOTE_REF);
        b.refused(Some(VOTE_REF));
        b.refused(None);
        let mut report = EngagementReport {
            guide_chats: Some(guide.chats),
            guide_chat_digest: Some(guide.chat_digest),
            votes_sent: 2,
            votes_per_answer: vec![1, 1],
            poll_closed: Some(PollCount {
                counts: vec![1, 0],
                voters: 1,
            }),
            ..Default::default()
        };
        report.add_attendee(&a);
        report.add_attendee(&b);
        assert!(report.chats_in_order());
        assert_eq!(report.chat_deliveries(), 4);
        assert_eq!(
            (
                report.votes_acked,
                report.votes_refused,
                report.reactions_refused
            ),
            (1, 1, 1)
        );
        assert_eq!(report.votes_lost(), Some(0));
        assert!(!report.is_clean(), "a vote was refused");

        // The same chats in another order is not one order.
        let mut swapped = Seen::default();
        swapped.chat("load chat 1");
        swapped.chat("load chat 0");
        let mut other = report.clone();
        other.add_attendee(&swapped);
        assert!(!other.chats_in_order());
        // A count below the acknowledged votes is a lost vote; the stored poll too.
        let mut lost = report.clone();
        lost.poll_stored = Some(PollCount {
            counts: vec![0, 0],
            voters: 0,
        });
        assert_eq!(lost.votes_lost(), Some(1));

        // Merged over two load generators: sums, one view.
        let mut merged = EngagementReport {
            guide_chats: None,
            guide_chat_digest: None,
            poll_closed: None,
            ..report.clone()
        };
        merged.merge(report.clone());
        assert_eq!(merged.chat_views.len(), 1);
        assert_eq!(merged.chat_deliveries(), 8);
        assert_eq!(merged.guide_chats, Some(2));
        assert_eq!(merged.votes_per_answer, vec![2, 2]);
    }

    #[test]
    fn reaction_frames_are_counted_per_second() {
        let mut seen = Seen::default();
        let start = Instant::now();
        for i in 0..9 {
            seen.reaction_frame(start + Duration::from_millis(250 * i));
        }
        assert_eq!(seen.reaction_max_per_sec, 4);
        seen.reaction_frame(start + Duration::from_millis(2_010));
        assert_eq!(seen.reaction_max_per_sec, 5, "two frames close together");
        let mut report = EngagementReport::default();
        report.add_attendee(&seen);
        assert_eq!(report.reaction_intervals, 9);
        assert!((report.reaction_frames_per_sec() - 9.0 / 2.01).abs() < 1e-6);
    }
}
