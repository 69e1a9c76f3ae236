//! Polls (issue #19 item 3).
//!
//! A guide creates a poll (a draft), opens it, closes it and shows or hides its results;
//! each of these is an ordered event of the appointment's log, and so is every vote
//! ([`crate::frame::Event::PollVoted`], sent to the voter and the guides only). The
//! reducer keeps the counts and every attendee's vote, so a snapshot (a late joiner, a
//! resume that fell out of the log, a restarted hub) holds the current counts and the
//! attendee's own vote. Everyone else learns the counts from a volatile
//! [`crate::frame::VolatileEvent::PollCounts`] the hub sends at most every
//! [`POLL_COUNTS_TICK_MS`] per poll, and from the exact counts `pollClosed` carries.
//!
//! A poll may name a slide: it opens (if it is still a draft) when the guide switches
//! to that slide; the reducer does it, so no second event is needed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::state::{check_id, Id, Invalid};

pub const MAX_POLL_QUESTION_CHARS: usize = 200;
pub const MAX_POLL_ANSWER_CHARS: usize = 100;
pub const MIN_POLL_ANSWERS: usize = 2;
pub const MAX_POLL_ANSWERS: usize = 6;
/// Polls one appointment may hold.
pub const MAX_POLLS: usize = 50;
/// The hub sends a poll's counts at most this often (4 times a second).
pub const POLL_COUNTS_TICK_MS: u64 = 250;

/// Where a poll is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum PollStatus {
    /// Created, not yet opened: only guides are shown it.
    #[default]
    Draft,
    Open,
    Closed,
}

/// The slide a poll opens with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PollSlide {
    pub section_id: Id,
    pub slide_alias: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PollAnswer {
    pub answer_id: Id,
    pub text: String,
}

/// One poll as everyone sees it (in `stateForAll.polls`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Poll {
    pub poll_id: Id,
    pub question: String,
    pub answers: Vec<PollAnswer>,
    /// Several answers may be chosen.
    pub multiple: bool,
    pub slide: Option<PollSlide>,
    pub status: PollStatus,
    /// Whether attendees are shown the counts.
    pub results_shown: bool,
    /// Votes per answer, in the order of `answers`.
    pub counts: Vec<u32>,
    /// Attendees who voted.
    pub voters: u32,
}

impl Poll {
    fn answer_index(&self, answer_id: &str) -> Option<usize> {
        self.answers.iter().position(|a| a.answer_id == answer_id)
    }

    /// Takes `previous` out of the counts and adds `now`.
    pub fn recount(&mut self, previous: &[Id], now: &[Id]) {
        for (answers, delta) in [(previous, -1i64), (now, 1)] {
            for id in answers {
                if let Some(i) = self.answer_index(id) {
                    self.counts[i] = (i64::from(self.counts[i]) + delta).max(0) as u32;
                }
            }
        }
        let voted_before = !previous.is_empty();
        let votes_now = !now.is_empty();
        match (voted_before, votes_now) {
            (false, true) => self.voters += 1,
            (true, false) => self.voters = self.voters.saturating_sub(1),
            _ => {}
        }
    }
}

/// Every attendee's vote per poll: the hub's own (kept in its snapshots), from which
/// each attendee's `stateForClients.pollVotes` is filled.
pub type PollVotes = BTreeMap<Id, BTreeMap<Id, Vec<Id>>>;

/// What a guide's `createPoll` asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct NewPoll {
    pub question: String,
    pub answers: Vec<String>,
    #[serde(default)]
    pub multiple: bool,
    #[serde(default)]
    pub slide: Option<PollSlide>,
}

fn check_text(field: &str, text: &str, max: usize) -> Result<(), Invalid> {
    let trimmed = text.trim();
    if trimmed.is_empty()
        || trimmed.chars().count() > max
        || trimmed.chars().any(|c| c.is_control())
    {
        return Err(format!("{field} must be 1 to {max} characters"));
    }
    Ok(())
}

impl NewPoll {
    pub fn validate(&self) -> Result<(), Invalid> {
        check_text("question", &self.question, MAX_POLL_QUESTION_CHARS)?;
        if !(MIN_POLL_ANSWERS..=MAX_POLL_ANSWERS).contains(&self.answers.len()) {
            return Err(format!(
                "answers must hold {MIN_POLL_ANSWERS} to {MAX_POLL_ANSWERS} entries"
            ));
        }
        for answer in &self.answers {
            check_text("each answer", answer, MAX_POLL_ANSWER_CHARS)?;
        }
        if let Some(slide) = &self.slide {
            check_id("slide.sectionId", &slide.section_id)?;
        }
        Ok(())
    }

    /// The draft poll, with the ids the hub gave it.
    pub fn into_poll(self, poll_id: Id, answer_ids: impl IntoIterator<Item = Id>) -> Poll {
        let answers: Vec<PollAnswer> = self
            .answers
            .iter()
            .zip(answer_ids)
            .map(|(text, answer_id)| PollAnswer {
                answer_id,
                text: text.trim().to_owned(),
            })
            .collect();
        Poll {
            poll_id,
            question: self.question.trim().to_owned(),
            counts: vec![0; answers.len()],
            answers,
            multiple: self.multiple,
            slide: self.slide,
            status: PollStatus::Draft,
            results_shown: false,
            voters: 0,
        }
    }
}

/// Why a vote is refused (each has its error code).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VoteProblem {
    UnknownPoll,
    NotOpen,
    UnknownAnswer,
    SingleChoice,
}

/// Checks a vote against the poll; returns the answer ids without duplicates, in the
/// poll's order.
pub fn check_vote(poll: Option<&Poll>, answer_ids: &[Id]) -> Result<Vec<Id>, VoteProblem> {
    let poll = poll.ok_or(VoteProblem::UnknownPoll)?;
    if poll.status != PollStatus::Open {
        return Err(VoteProblem::NotOpen);
    }
    if answer_ids.is_empty() || answer_ids.iter().any(|id| poll.answer_index(id).is_none()) {
        return Err(VoteProblem::UnknownAnswer);
    }
    let chosen: Vec<Id> = poll
        .answers
        .iter()
        .filter(|a| answer_ids.contains(&a.answer_id))
        .map(|a| a.answer_id.clone())
        .collect();
    if chosen.len() > 1 && !poll.multiple {
        return Err(VoteProblem::SingleChoice);
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u8) -> Id {
        format!("{n:032x}")
    }

    fn poll(multiple: bool) -> Poll {
        let new = NewPoll {
            question: " Which? ".into(),
            answers: vec!["A".into(), "B".into(), "C".into()],
            multiple,
            slide: None,
        };
        new.into_poll(id(1), [id(10), id(11), id(12)])
    }

    #[test]
    fn a_new_poll_is_checked_for_every_limit() {
        let ok = NewPoll {
            question: "q".into(),
            answers: vec!["a".into(), "b".into()],
            multiple: false,
            slide: None,
        };
        assert_eq!(ok.validate(), Ok(()));
        let with = |f: &dyn Fn(&mut NewPoll)| {
            let mut new = ok.clone();
            f(&mut new);
            new.validate().is_err()
        };
        assert!(with(&|p| p.question = " ".into()));
        assert!(with(
            &|p| p.question = "q".repeat(MAX_POLL_QUESTION_CHARS + 1)
        ));
        assert!(!with(&|p| p.question = "ü".repeat(MAX_POLL_QUESTION_CHARS)));
        assert!(with(&|p| p.answers = vec!["a".into()]));
        assert!(with(&|p| p.answers = vec!["a".into(); 7]));
        assert!(!with(&|p| p.answers = vec!["a".into(); 6]));
        assert!(with(
            &|p| p.answers[1] = "b".repeat(MAX_POLL_ANSWER_CHARS + 1)
        ));
        assert!(with(&|p| p.answers[1] = "".into()));
        assert!(with(&|p| p.slide = Some(PollSlide {
            section_id: "nope".into(),
            slide_alias: 1
        })));
    }

    #[test]
    fn votes_are_checked_and_recounted() {
        let mut single = poll(false);
        assert_eq!(check_vote(None, &[id(10)]), Err(VoteProblem::UnknownPoll));
        assert_eq!(
            check_vote(Some(&single), &[id(10)]),
            Err(VoteProblem::NotOpen)
        );
        single.status = PollStatus::Open;
        assert_eq!(
            check_vote(Some(&single), &[id(99)]),
            Err(VoteProblem::UnknownAnswer)
        );
        assert_eq!(
            check_vote(Some(&single), &[]),
            Err(VoteProblem::UnknownAnswer)
        );
        assert_eq!(
            check_vote(Some(&single), &[id(10), id(11)]),
            Err(VoteProblem::SingleChoice)
        );
        assert_eq!(
            check_vote(Some(&single), &[id(10), id(10)]),
            Ok(vec![id(10)])
        );
        let mut multiple = poll(true);
        multiple.status = PollStatus::Open;
        assert_eq!(
            check_vote(Some(&multiple), &[id(12), id(10)]),
            Ok(vec![id(10), id(12)])
        );
        multiple.recount(&[], &[id(10), id(12)]);
        multiple.recount(&[], &[id(10)]);
        multiple.recount(&[id(10), id(12)], &[id(11)]);
        assert_eq!(multiple.counts, vec![1, 1, 0]);
        assert_eq!(multiple.voters, 2);
        single.status = PollStatus::Closed;
        assert_eq!(
            check_vote(Some(&single), &[id(10)]),
            Err(VoteProblem::NotOpen)
        );
    }
}
