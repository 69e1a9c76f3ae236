//! Questions (issue #19 item 4).
//!
//! Attendees ask questions (plain text, 1 to [`MAX_QUESTION_CHARS`] characters, one per
//! [`QUESTION_INTERVAL_MS`] each), others up-vote them (once each, a vote may be
//! withdrawn), the guide works through a queue sorted by votes (then age): marks one as
//! being answered (at most one at a time, shown to everyone) and then answered, or
//! dismisses it (it goes for everyone).
//!
//! Every step is an ordered event of the appointment's log, so a resume carries what was
//! missed and a snapshot (a late joiner, a restarted hub) holds the questions with their
//! counts ([`crate::state::StateForAll::questions`]) and the attendee's own up-votes
//! ([`crate::state::StateForClients::question_votes`]). An up-vote
//! ([`crate::frame::Event::QuestionVoted`]) is sent to the voter and the guides only;
//! everyone else learns the counts from a volatile
//! [`crate::frame::VolatileEvent::QuestionVotes`] the hub sends at most every
//! [`QUESTION_VOTES_TICK_MS`], like the polls' counts. The reducer counts votes from the
//! set of voters, so a vote decided twice (two replicas deciding on states a moment
//! apart) is still one vote.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::engagement::{clean_text, TextProblem};
use crate::state::Id;
use crate::status::Role;

/// Longest question, in characters (Unicode scalar values).
pub const MAX_QUESTION_CHARS: usize = 300;
/// An attendee may ask one question per this many milliseconds (`QUESTION_RATE_LIMITED`).
pub const QUESTION_INTERVAL_MS: u64 = 30_000;
/// Questions one appointment holds (asked, not dismissed); the next is refused with
/// `QUESTION_LIMIT` until the guide dismisses some.
pub const MAX_QUESTIONS: usize = 200;
/// The hub sends up-vote counts at most this often.
pub const QUESTION_VOTES_TICK_MS: u64 = 250;

/// Where a question is in the guide's queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum QuestionStatus {
    /// Waiting in the queue.
    #[default]
    Open,
    /// The guide is answering it now (at most one question at a time).
    Answering,
    /// The guide answered it.
    Answered,
}

/// One question as everyone sees it (in `stateForAll.questions`). Plain text: clients
/// render it as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Question {
    pub question_id: Id,
    pub attendee_id: Id,
    /// The asker's name at the time (a guest's join name); `None` for a nameless one.
    pub attendee_name: Option<String>,
    pub role: Role,
    pub text: String,
    /// Unix milliseconds, as the hub received it.
    pub asked_at: u64,
    pub status: QuestionStatus,
    /// Up-votes (the asker's own cannot be one).
    pub votes: u32,
}

/// The hub's own bookkeeping of questions (kept in its snapshots, sent to nobody): who
/// up-voted what, and when each attendee last asked.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct QuestionBook {
    /// Voters per question id.
    pub votes: BTreeMap<Id, BTreeSet<Id>>,
    /// Unix milliseconds of each attendee's last question.
    pub last_asked: BTreeMap<Id, u64>,
}

impl QuestionBook {
    /// The question ids `attendee_id` up-voted.
    pub fn voted_by(&self, attendee_id: &str) -> Vec<Id> {
        self.votes
            .iter()
            .filter(|(_, voters)| voters.contains(attendee_id))
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Records an up-vote (or its withdrawal); returns the question's count after it.
    pub fn vote(&mut self, question_id: &str, attendee_id: &str, voted: bool) -> u32 {
        let voters = self.votes.entry(question_id.to_owned()).or_default();
        if voted {
            voters.insert(attendee_id.to_owned());
        } else {
            voters.remove(attendee_id);
        }
        voters.len() as u32
    }
}

/// The question's text as it is stored: control and bidi-override characters removed,
/// surrounding white space trimmed; refused when nothing is left or it is over
/// [`MAX_QUESTION_CHARS`] characters.
pub fn clean_question_text(text: &str) -> Result<String, TextProblem> {
    clean_text(text, MAX_QUESTION_CHARS)
}

/// The guide's queue order: open questions (and the one being answered) by votes, most
/// first, then oldest first; answered ones after them, in the same order.
pub fn queue_order(a: &Question, b: &Question) -> std::cmp::Ordering {
    let answered = |q: &Question| q.status == QuestionStatus::Answered;
    answered(a)
        .cmp(&answered(b))
        .then(b.votes.cmp(&a.votes))
        .then(a.asked_at.cmp(&b.asked_at))
        .then(a.question_id.cmp(&b.question_id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(n: u8, votes: u32, asked_at: u64, status: QuestionStatus) -> Question {
        Question {
            question_id: format!("{n:032x}"),
            attendee_id: "a".repeat(32),
            attendee_name: None,
            role: Role::Client,
            text: n.to_string(),
            asked_at,
            status,
            votes,
        }
    }

    #[test]
    fn question_text_is_cleaned_and_bounded() {
        assert_eq!(clean_question_text("  why?  "), Ok("why?".into()));
        assert_eq!(
            clean_question_text("\u{202E}\u{2066} "),
            Err(TextProblem::Empty)
        );
        assert_eq!(
            clean_question_text(&"ü".repeat(MAX_QUESTION_CHARS)).map(|t| t.chars().count()),
            Ok(300)
        );
        assert_eq!(
            clean_question_text(&"x".repeat(MAX_QUESTION_CHARS + 1)),
            Err(TextProblem::TooLong)
        );
        assert_eq!(
            clean_question_text(&"x".repeat(10_240)),
            Err(TextProblem::TooLong)
        );
        assert_eq!(
            clean_question_text("<img src=x onerror=alert(1)>"),
            Ok("<img src=x onerror=alert(1)>".into())
        );
    }

    #[test]
    fn votes_are_a_set_of_voters() {
        let mut book = QuestionBook::default();
        let q = "1".repeat(32);
        assert_eq!(book.vote(&q, "ada", true), 1);
        assert_eq!(book.vote(&q, "ada", true), 1, "twice is once");
        assert_eq!(book.vote(&q, "bob", true), 2);
        assert_eq!(book.vote(&q, "ada", false), 1);
        assert_eq!(book.vote(&q, "ada", false), 1);
        assert_eq!(book.voted_by("bob"), vec![q.clone()]);
        assert!(book.voted_by("ada").is_empty());
    }

    #[test]
    fn the_queue_is_sorted_by_votes_then_age_answered_last() {
        let mut queue = [
            question(1, 1, 10, QuestionStatus::Open),
            question(2, 3, 30, QuestionStatus::Answered),
            question(3, 3, 20, QuestionStatus::Open),
            question(4, 1, 5, QuestionStatus::Answering),
            question(5, 0, 1, QuestionStatus::Open),
        ];
        queue.sort_by(queue_order);
        let order: Vec<&str> = queue.iter().map(|q| q.text.as_str()).collect();
        assert_eq!(order, ["3", "4", "1", "5", "2"]);
    }
}
