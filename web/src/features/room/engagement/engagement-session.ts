import type { StoreApi } from 'zustand/vanilla';
import type { ChatSettings, NewPoll, QuestionStatus, Reaction, ReactionCounts } from '@/protocol/generated';
import type { RoomState } from '../realtime/client';

/*
 * What the engagement panel needs of a session: the live state to read and one named
 * command per message it sends. The panel builds no payload and never sees the socket;
 * `GuideSession` and `AttendeeSession` are these (the panel imports neither side). Each
 * command rejects with the hub's refusal (`{ code }`), which the panel explains.
 */

/** What both sides do: read the room, chat, react. */
interface SharedEngagement {
  readonly liveStore: StoreApi<RoomState>;
  sendChatMessage(text: string): Promise<unknown>;
  react(reaction: Reaction): Promise<unknown>;
  /** The hub's reaction sums; returns the unsubscribe. */
  onReactions(listener: (counts: ReactionCounts) => void): () => void;
}

/** An attendee votes in polls, asks questions and up-votes others'. */
export interface AttendeeEngagement extends SharedEngagement {
  readonly role: 'CLIENT';
  votePoll(pollId: string, answerIds: string[]): Promise<unknown>;
  askQuestion(text: string): Promise<unknown>;
  voteQuestion(questionId: string, voted: boolean): Promise<unknown>;
}

/** A guide moderates the chat, runs the polls and works through the questions. */
export interface GuideEngagement extends SharedEngagement {
  readonly role: 'GUIDE';
  deleteChatMessage(messageId: string): Promise<unknown>;
  /** Pins a message above the chat; null takes the pin off. */
  pinChatMessage(messageId: string | null): Promise<unknown>;
  /** Mutes an attendee in the chat for `minutes`. */
  timeOutChatAttendee(attendeeId: string, minutes: number): Promise<unknown>;
  banChatAttendee(attendeeId: string): Promise<unknown>;
  setChatSettings(settings: ChatSettings): Promise<unknown>;
  setChatBlockedWords(words: string[]): Promise<unknown>;
  createPoll(poll: NewPoll): Promise<unknown>;
  openPoll(pollId: string): Promise<unknown>;
  closePoll(pollId: string): Promise<unknown>;
  showPollResults(pollId: string, shown: boolean): Promise<unknown>;
  markQuestion(questionId: string, status: QuestionStatus): Promise<unknown>;
  dismissQuestion(questionId: string): Promise<unknown>;
}

export type EngagementSession = AttendeeEngagement | GuideEngagement;
