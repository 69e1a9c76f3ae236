import type { ErrorCode, Poll } from '@/protocol/generated';

/*
 * Polls (#19) as the room shows them, pure: what each role is shown, a voter's choice, a
 * new poll's checks and the refusal a vote may get. The events' part of the reducer is
 * `realtime/apply-polls.ts`.
 */

export const MAX_POLL_QUESTION_CHARS = 200;
export const MAX_POLL_ANSWER_CHARS = 100;
export const MIN_POLL_ANSWERS = 2;
export const MAX_POLL_ANSWERS = 6;

/** The refusals polls explain (each has a text in `engagement.polls.errors`). */
export const POLL_ERRORS = [
  'POLL_NOT_FOUND',
  'POLL_CLOSED',
  'POLL_UNKNOWN_ANSWER',
  'POLL_SINGLE_CHOICE',
  'POLL_LIMIT',
  'INVALID_PAYLOAD',
  'RATE_LIMITED',
  'FORBIDDEN',
] as const satisfies readonly ErrorCode[];

export type PollError = (typeof POLL_ERRORS)[number] | 'OTHER';

export function pollErrorOf(code: string): PollError {
  return (POLL_ERRORS as readonly string[]).includes(code) ? (code as PollError) : 'OTHER';
}

/** The polls a participant is shown: a guide all, an attendee those opened at least once. */
export function visiblePolls(polls: Poll[], guide: boolean): Poll[] {
  return guide ? polls : polls.filter((p) => p.status !== 'draft');
}

/** Whether a participant is shown a poll's counts: a guide always, an attendee when the guide shows them. */
export function showsCounts(poll: Poll, guide: boolean): boolean {
  return guide || poll.resultsShown;
}

/** Each answer's share of the votes, in whole percent. */
export function percentages(poll: Poll): number[] {
  const total = poll.counts.reduce((a, b) => a + b, 0);
  return poll.counts.map((n) => (total === 0 ? 0 : Math.round((100 * n) / total)));
}

/** The selection after a click on `answerId`: a single-choice poll takes one, a multiple-choice one toggles. */
export function toggleAnswer(selection: string[], answerId: string, multiple: boolean): string[] {
  if (!multiple) return [answerId];
  return selection.includes(answerId) ? selection.filter((id) => id !== answerId) : [...selection, answerId];
}

/** Why a new poll cannot be sent yet, or null (the hub checks the same limits). */
export function newPollProblem(question: string, answers: string[]): 'question' | 'answers' | null {
  const q = question.trim();
  if (q.length === 0 || [...q].length > MAX_POLL_QUESTION_CHARS) return 'question';
  const filled = answers.map((a) => a.trim()).filter(Boolean);
  if (filled.length < MIN_POLL_ANSWERS || filled.length > MAX_POLL_ANSWERS || filled.some((a) => [...a].length > MAX_POLL_ANSWER_CHARS)) {
    return 'answers';
  }
  return null;
}
