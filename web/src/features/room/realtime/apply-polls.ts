import type { Poll, PollSlide, Snapshot } from '@/protocol/generated';

/*
 * The polls' part of the reducer (`apply-event.ts`; the hub's golden cases check it).
 * Counts arrive with ordered events (a guide's view, one's own vote, the final counts of a
 * closed poll) and between them as `pollCounts` sums at most four times a second.
 */

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
