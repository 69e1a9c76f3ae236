import { describe, expect, it } from 'vitest';
import type { Poll } from '@/protocol/generated';
import { makeSnapshot } from '@/testing/snapshot';
import { openWithSlide, pollCounts, pollVoted, recount } from './apply-polls';

const poll = (patch: Partial<Poll> = {}): Poll => ({
  pollId: 'p1',
  question: 'Which colour?',
  answers: [
    { answerId: 'a', text: 'Red' },
    { answerId: 'b', text: 'Blue' },
    { answerId: 'c', text: 'Green' },
  ],
  multiple: false,
  slide: null,
  status: 'open',
  resultsShown: false,
  counts: [0, 0, 0],
  voters: 0,
  ...patch,
});

describe('poll events', () => {
  it('recounts a first vote, a changed vote and a withdrawn one', () => {
    let p = recount(poll(), [], ['a']);
    p = recount(p, [], ['b']);
    p = recount(p, ['a'], ['c']);
    expect([p.counts, p.voters]).toEqual([[0, 1, 1], 2]);
    expect(recount(p, ['b'], []).voters).toBe(1);
  });

  it("keeps a client's own vote, and a closed poll's final counts over a late sum", () => {
    const base = makeSnapshot({ polls: [poll()] });
    const voted = pollVoted(base, 'p1', ['b'], []);
    expect(voted.stateForClients.pollVotes).toEqual({ p1: ['b'] });
    expect(voted.stateForAll.polls[0]?.counts).toEqual([0, 1, 0]);
    const summed = pollCounts(voted, 'p1', [3, 4, 5], 12);
    expect(summed.stateForAll.polls[0]?.counts).toEqual([3, 4, 5]);
    const closed = { ...summed, stateForAll: { ...summed.stateForAll, polls: [poll({ status: 'closed', counts: [1, 1, 1], voters: 3 })] } };
    expect(pollCounts(closed, 'p1', [9, 9, 9], 27).stateForAll.polls[0]?.counts).toEqual([1, 1, 1]);
  });

  it('opens a draft with its slide, not another', () => {
    const attached = poll({ status: 'draft', slide: { sectionId: 's1', slideAlias: 2 } });
    const base = makeSnapshot({ polls: [attached] });
    expect(openWithSlide(base, 's1', 3)).toBe(base);
    expect(openWithSlide(base, 's1', 2).stateForAll.polls[0]?.status).toBe('open');
  });
});
