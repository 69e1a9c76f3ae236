//! The one reducer of live state: what an [`Event`] does to an appointment's state, and
//! how that state looks to a guide or to one client.
//!
//! The hub keeps a [`LiveState`] per room and applies every event with
//! [`LiveState::apply`]; its snapshots are [`LiveState::view`] (built in two halves, see
//! [`LiveState::state_for_clients_of`] and [`file_participants`], so the hub can take the
//! parts under its lock and build the maps outside it). The web app's reducer
//! (`web/src/lib/realtime/apply-event.ts`) must agree: [`cases`] are golden cases,
//! computed with this reducer and written next to the generated TypeScript, that the
//! web's unit tests replay.

pub mod cases;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::engagement::polls::{PollStatus, PollVotes};
use crate::engagement::questions::{QuestionBook, QuestionStatus};
use crate::engagement::ChatModeration;
use crate::frame::Event;
use crate::session::SessionRecord;
use crate::state::{AttendeeSummary, Id, Snapshot, StateForAll, StateForClients, StateForGuides};
use crate::status::{ConnectionState, Role};

/// Who looks at the state, by attendee id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer<'a> {
    /// A guide: every participant, in `stateForGuides`.
    Guide(&'a str),
    /// A client: no `stateForGuides`.
    Client(&'a str),
}

/// An appointment's whole live state, as the hub holds it: more than any one participant
/// sees. It is also what the hub stores as a room's snapshot (JSON, `participants` as a
/// list); fields added after the first snapshots were written load empty when missing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LiveState {
    pub state_for_all: StateForAll,
    /// The part every client shares; `cartPermission` in here is unused (each client is
    /// shown its own, from its participant entry).
    pub state_for_clients: StateForClients,
    /// Every participant by attendee id. Shared, so snapshots can take them under a lock
    /// without copying; a change replaces the entry.
    #[serde(with = "participant_list")]
    pub participants: BTreeMap<Id, Arc<AttendeeSummary>>,
    /// Attendees the guide removed (`attendeeRemoved`). Nobody is sent this set: the hub
    /// keeps it (in its snapshots too) to refuse their tokens for good, since a token
    /// minted before the removal stays valid until it expires.
    #[serde(default)]
    pub removed: BTreeSet<Id>,
    /// The chat's blocked words, time-outs and bans (guides see them), and each
    /// attendee's recent post times (nobody does).
    #[serde(default)]
    pub chat_moderation: ChatModeration,
    /// Every attendee's vote per poll (each attendee is shown its own).
    #[serde(default)]
    pub poll_votes: PollVotes,
    /// What the session report needs beyond the state of the moment (nobody is sent it).
    #[serde(default)]
    pub session: SessionRecord,
    /// Who up-voted which question, and when each attendee last asked (the hub's own;
    /// each attendee is shown its own up-votes).
    #[serde(default)]
    pub question_book: QuestionBook,
}

/// [`LiveState::participants`] stored as a list of summaries (by attendee id, the map's
/// order), read back into the map.
mod participant_list {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use serde::ser::SerializeSeq;
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::state::{AttendeeSummary, Id};

    pub fn serialize<S: Serializer>(
        participants: &BTreeMap<Id, Arc<AttendeeSummary>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut list = serializer.serialize_seq(Some(participants.len()))?;
        for participant in participants.values() {
            list.serialize_element(&**participant)?;
        }
        list.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<BTreeMap<Id, Arc<AttendeeSummary>>, D::Error> {
        let list = Vec::<AttendeeSummary>::deserialize(deserializer)?;
        Ok(list
            .into_iter()
            .map(|p| (p.attendee_id.clone(), Arc::new(p)))
            .collect())
    }
}

impl LiveState {
    /// Applies one event. Events that carry hints about data held in the shop (reload,
    /// cart and collection changes) leave the state as it is.
    pub fn apply(&mut self, event: &Event) {
        let all = &mut self.state_for_all;
        match event {
            Event::AppointmentConfigured { settings } => {
                all.appointment_mode = settings.appointment_mode;
                all.video_audio_settings = settings.video_audio_settings;
                all.attendee_restriction_type = settings.attendee_restriction_type;
                all.accessible_from = settings.accessible_from.clone();
                all.accessible_to = settings.accessible_to.clone();
                all.product_detail_default_page_id =
                    settings.product_detail_default_page_id.clone();
                all.quickview_page_id = settings.quickview_page_id.clone();
                all.product_listing_default_page_id =
                    settings.product_listing_default_page_id.clone();
            }
            Event::SlideSwitched {
                page_id,
                section_id,
                slide_alias,
            } => {
                all.current_page_id = Some(page_id.clone());
                all.current_section_id = Some(section_id.clone());
                all.last_active_guide_section = Some(section_id.clone());
                all.current_slide_alias = *slide_alias;
                all.current_slide_data = None;
                // A draft poll attached to this slide opens with it.
                for poll in &mut all.polls {
                    let here = poll.slide.as_ref().is_some_and(|s| {
                        s.section_id == *section_id && s.slide_alias == *slide_alias
                    });
                    if here && poll.status == PollStatus::Draft {
                        poll.status = PollStatus::Open;
                    }
                }
            }
            Event::PresentationStarted { started_at } => {
                all.started = true;
                all.running = true;
                all.started_at = Some(started_at.clone());
            }
            Event::PresentationEnded { ended_at } => {
                all.running = false;
                all.ended = true;
                all.ended_at = Some(ended_at.clone());
            }
            Event::LockChanged { locked } => all.locked = *locked,
            Event::GuideProductChanged { product_id } => {
                all.current_guide_product_id = product_id.clone()
            }
            Event::DynamicPageOpened { page } => all.current_dynamic_page = Some(page.clone()),
            Event::DynamicPageClosed {
                page_id,
                all: close_all,
            } => {
                let matches = all.current_dynamic_page.as_ref().is_some_and(|open| {
                    *close_all || page_id.as_deref() == Some(open.page_id.as_str())
                });
                if matches {
                    all.current_dynamic_page = None;
                }
            }
            Event::BroadcastModeChanged { active } => all.broadcast_mode = *active,
            Event::ViewModeChanged { mode } => all.view_mode = *mode,
            Event::ScreenSharingChanged { active } => all.allow_screen_sharing = *active,
            Event::MuteAllChanged { muted } => all.muted_all = *muted,
            Event::AttendeeChanged { attendee } => {
                let before = self
                    .participants
                    .insert(attendee.attendee_id.clone(), Arc::new(attendee.clone()));
                self.session.participant_changed(
                    before.as_deref(),
                    Some(attendee),
                    attendee.last_active_at.as_deref(),
                );
            }
            Event::AttendeeRemoved { attendee_id } => {
                let before = self.participants.remove(attendee_id);
                self.session
                    .participant_changed(before.as_deref(), None, None);
                self.removed.insert(attendee_id.clone());
            }
            Event::CartPermissionChanged {
                attendee_id,
                permission,
            } => {
                if let Some(p) = self.participants.get_mut(attendee_id) {
                    Arc::make_mut(p).cart_permission = *permission;
                }
            }
            Event::AttendeeCartChanged {
                attendee_id,
                total_price,
                ..
            } => self.session.cart_changed(attendee_id, *total_price),
            Event::SessionSampled { sample } => self.session.sampled(sample),
            Event::AttendeeCollectionChanged { .. }
            | Event::Reload { .. }
            | Event::SavedProductsChanged {} => {}
            Event::ChatMessagePosted { message } => {
                self.chat_moderation.record_post(message);
                self.session.chat_posted(message.sent_at);
                all.chat.post(message.clone());
            }
            Event::ChatMessagesPosted { messages } => {
                for message in messages {
                    self.chat_moderation.record_post(message);
                    self.session.chat_posted(message.sent_at);
                    all.chat.post(message.clone());
                }
            }
            Event::ChatMessageDeleted { message_id } => all.chat.delete(message_id),
            Event::ChatMessagePinned { message_id } => all.chat.pin(message_id.as_deref()),
            Event::ChatSettingsChanged { settings } => all.chat.settings = settings.clone(),
            Event::ChatBlockedWordsChanged { words } => {
                self.chat_moderation.blocked_words = words.clone()
            }
            Event::ChatAttendeeModerated {
                attendee_id,
                muted_until,
                banned,
            } => self
                .chat_moderation
                .moderate(attendee_id, *muted_until, *banned),
            Event::PollCreated { poll } => all.polls.push(poll.clone()),
            Event::PollOpened { poll_id } => {
                if let Some(poll) = all.polls.iter_mut().find(|p| p.poll_id == *poll_id) {
                    poll.status = PollStatus::Open;
                }
            }
            Event::PollClosed {
                poll_id,
                counts,
                voters,
            } => {
                if let Some(poll) = all.polls.iter_mut().find(|p| p.poll_id == *poll_id) {
                    poll.status = PollStatus::Closed;
                    poll.counts = counts.clone();
                    poll.voters = *voters;
                }
            }
            Event::PollResultsShown { poll_id, shown } => {
                if let Some(poll) = all.polls.iter_mut().find(|p| p.poll_id == *poll_id) {
                    poll.results_shown = *shown;
                }
            }
            // Recounted from the votes as ordered, not from `previousAnswerIds`: in cluster
            // mode a replica decides on the state it has applied so far, which may not yet
            // hold the voter's vote before.
            Event::PollVoted {
                poll_id,
                attendee_id,
                answer_ids,
                ..
            } => {
                let previous = self
                    .poll_votes
                    .entry(poll_id.clone())
                    .or_default()
                    .insert(attendee_id.clone(), answer_ids.clone())
                    .unwrap_or_default();
                if let Some(poll) = all.polls.iter_mut().find(|p| p.poll_id == *poll_id) {
                    poll.recount(&previous, answer_ids);
                }
            }
            Event::QuestionAsked { question } => {
                self.question_book
                    .last_asked
                    .insert(question.attendee_id.clone(), question.asked_at);
                if !all
                    .questions
                    .iter()
                    .any(|q| q.question_id == question.question_id)
                {
                    all.questions.push(question.clone());
                }
            }
            // Counted from the set of voters: the same vote twice is one. A vote on a
            // question dismissed meanwhile is forgotten with it.
            Event::QuestionVoted {
                question_id,
                attendee_id,
                voted,
            } => {
                if let Some(question) = all
                    .questions
                    .iter_mut()
                    .find(|q| q.question_id == *question_id)
                {
                    question.votes = self.question_book.vote(question_id, attendee_id, *voted);
                }
            }
            Event::QuestionMarked {
                question_id,
                status,
            } => {
                if all.questions.iter().any(|q| q.question_id == *question_id) {
                    for question in &mut all.questions {
                        if question.question_id == *question_id {
                            question.status = *status;
                        } else if *status == QuestionStatus::Answering
                            && question.status == QuestionStatus::Answering
                        {
                            question.status = QuestionStatus::Open;
                        }
                    }
                }
            }
            Event::QuestionDismissed { question_id } => {
                all.questions.retain(|q| q.question_id != *question_id);
                self.question_book.votes.remove(question_id);
            }
        }
    }

    /// Whether the guide removed this attendee from the appointment.
    pub fn is_removed(&self, attendee_id: &str) -> bool {
        self.removed.contains(attendee_id)
    }

    /// `stateForClients` as the attendee `attendee_id` sees it: its own cart permission
    /// (`missing` for someone not in the participant list).
    pub fn state_for_clients_of(&self, attendee_id: &str) -> StateForClients {
        let mut state_for_clients = self.state_for_clients.clone();
        state_for_clients.cart_permission = self
            .participants
            .get(attendee_id)
            .map(|p| p.cart_permission)
            .unwrap_or_default();
        state_for_clients.chat_muted_until =
            self.chat_moderation.muted_until.get(attendee_id).copied();
        state_for_clients.chat_banned = self.chat_moderation.banned.contains(attendee_id);
        state_for_clients.poll_votes = self
            .poll_votes
            .iter()
            .filter_map(|(poll_id, votes)| {
                votes
                    .get(attendee_id)
                    .map(|vote| (poll_id.clone(), vote.clone()))
            })
            .collect();
        state_for_clients.question_votes = self.question_book.voted_by(attendee_id);
        state_for_clients
    }

    /// The whole snapshot a viewer is sent.
    pub fn view(&self, viewer: Viewer<'_>) -> Snapshot {
        // Each viewer's `cartPermission` is the one of its own participant entry (a
        // guide's means nothing, but is filled the same way).
        let (state_for_clients, state_for_guides) = match viewer {
            Viewer::Guide(attendee_id) => {
                let mut guides = file_participants(self.participants.values().cloned());
                guides.chat_moderation = self.chat_moderation.for_guides();
                (self.state_for_clients_of(attendee_id), Some(guides))
            }
            Viewer::Client(attendee_id) => (self.state_for_clients_of(attendee_id), None),
        };
        Snapshot {
            state_for_all: self.state_for_all.clone(),
            state_for_clients,
            state_for_guides,
        }
    }
}

/// A guide's participant maps: guides under `guides`; clients under `clients`, or under
/// `inactiveClients` once their connection is lost.
pub fn file_participants(
    participants: impl IntoIterator<Item = Arc<AttendeeSummary>>,
) -> StateForGuides {
    let mut guides = StateForGuides::default();
    for p in participants {
        let map = match (p.role, p.connection) {
            (Role::Guide, _) => &mut guides.guides,
            (Role::Client, ConnectionState::Lost) => &mut guides.inactive_clients,
            (Role::Client, _) => &mut guides.clients,
        };
        let p = Arc::unwrap_or_clone(p);
        map.insert(p.attendee_id.clone(), p);
    }
    guides
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removed_attendee_leaves_the_list_and_is_remembered_as_removed() {
        let ada = "a".repeat(32);
        let mut state = LiveState::default();
        assert!(!state.is_removed(&ada));
        state.apply(&Event::AttendeeRemoved {
            attendee_id: ada.clone(),
        });
        assert!(state.is_removed(&ada) && !state.participants.contains_key(&ada));
        // Nobody's view shows the set: it is the hub's own.
        assert_eq!(
            state.view(Viewer::Guide("g")),
            LiveState::default().view(Viewer::Guide("g"))
        );
    }
}
