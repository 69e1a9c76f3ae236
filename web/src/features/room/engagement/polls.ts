import type { ErrorCode, Poll, PollSlide, Snapshot } from '@/protocol/generated';

/*
 * Polls (#19) as the room shows them, pure: the reducer's part (the hub's golden cases
 * check it), what each role is shown, a voter's choice, and the refusal a vote may get.
 * Counts arrive with ordered events (a guide's view, one's own vote, the final counts of a
 * closed poll) and between them as `pollCounts` sums at most four times a second.
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

function withPoll(snapshot: Snapshot, pollId: string, update: (poll: Poll) => Poll): Snapshot {
  const polls = snapshot.stateForAll.polls.map((poll) => (poll.pollId === pollId ? update(poll) : poll));
  return { ...snapshot, stateForAll: { ...snapshot.stateForAll, polls } };
}

/** A poll recounted: `previous` taken out, `now` added. */
export function recount(poll: Poll, previous: string[], now: string[]): Poll {
  const counts = [...poll.counts];
  for (const [ids, delta] of [
    [previous, -1],
    [now, 1],
  ] as const) {
    for (const id of ids) {
      const i = poll.answers.findIndex((a) => a.answerId === id);
      if (i >= 0) counts[i] = Math.max(0, (counts[i] ?? 0) + delta);
    }
  }
  const voters = poll.voters + (previous.length === 0 && now.length > 0 ? 1 : 0) - (previous.length > 0 && now.length === 0 ? 1 : 0);
  return { ...poll, counts, voters: Math.max(0, voters) };
}

export function pollCreated(snapshot: Snapshot, poll: Poll): Snapshot {
  return { ...snapshot, stateForAll: { ...snapshot.stateForAll, polls: [...snapshot.stateForAll.polls, poll] } };
}

export function pollOpened(snapshot: Snapshot, pollId: string): Snapshot {
  return withPoll(snapshot, pollId, (poll) => ({ ...poll, status: 'open' }));
}

export function pollClosed(snapshot: Snapshot, pollId: string, counts: number[], voters: number): Snapshot {
  return withPoll(snapshot, pollId, (poll) => ({ ...poll, status: 'closed', counts, voters }));
}

export function pollResultsShown(snapshot: Snapshot, pollId: string, shown: boolean): Snapshot {
  return withPoll(snapshot, pollId, (poll) => ({ ...poll, resultsShown: shown }));
}

/** A vote the viewer is sent: its own (a client), or anyone's (a guide). */
export function pollVoted(snapshot: Snapshot, pollId: string, answerIds: string[], previous: string[]): Snapshot {
  const recounted = withPoll(snapshot, pollId, (poll) => recount(poll, previous, answerIds));
  // A client is sent only its own votes; a guide's view has no own vote to keep.
  if (snapshot.stateForGuides) return recounted;
  return { ...recounted, stateForClients: { ...recounted.stateForClients, pollVotes: { ...recounted.stateForClients.pollVotes, [pollId]: answerIds } } };
}

/** A `pollCounts` sum: the latest counts of an open poll (a closed one keeps its final ones). */
export function pollCounts(snapshot: Snapshot, pollId: string, counts: number[], voters: number): Snapshot {
  return withPoll(snapshot, pollId, (poll) => (poll.status === 'closed' ? poll : { ...poll, counts, voters }));
}

/** Draft polls attached to the slide the guide switched to open with it. */
export function openWithSlide(snapshot: Snapshot, sectionId: string, slideAlias: number): Snapshot {
  const here = (slide: PollSlide | null) => slide !== null && slide.sectionId === sectionId && slide.slideAlias === slideAlias;
  if (!snapshot.stateForAll.polls.some((p) => p.status === 'draft' && here(p.slide))) return snapshot;
  const polls = snapshot.stateForAll.polls.map((p) => (p.status === 'draft' && here(p.slide) ? { ...p, status: 'open' as const } : p));
  return { ...snapshot, stateForAll: { ...snapshot.stateForAll, polls } };
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
