import { describe, expect, it } from 'vitest';
import type { Poll } from '@/protocol/generated';
import generated from '@/protocol/generated.ts?raw';
import { de } from '@/lib/i18n/locales/de';
import { en } from '@/lib/i18n/locales/en';
import { makeSnapshot } from '@/testing/snapshot';
import { newPollProblem, percentages, pollCounts, pollErrorOf, pollVoted, openWithSlide, POLL_ERRORS, recount, showsCounts, toggleAnswer, visiblePolls } from './polls';

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

describe('polls', () => {
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

  it('shows attendees opened polls, and counts only when the guide shows them', () => {
    const polls = [poll({ status: 'draft', pollId: 'd' }), poll()];
    expect(visiblePolls(polls, false).map((p) => p.pollId)).toEqual(['p1']);
    expect(visiblePolls(polls, true)).toHaveLength(2);
    expect(showsCounts(poll(), false)).toBe(false);
    expect(showsCounts(poll({ resultsShown: true }), false)).toBe(true);
    expect(showsCounts(poll(), true)).toBe(true);
    expect(percentages(poll({ counts: [1, 1, 2] }))).toEqual([25, 25, 50]);
    expect(percentages(poll())).toEqual([0, 0, 0]);
  });

  it('takes one answer on a single-choice poll and toggles on a multiple-choice one', () => {
    expect(toggleAnswer(['a'], 'b', false)).toEqual(['b']);
    expect(toggleAnswer(['a'], 'b', true)).toEqual(['a', 'b']);
    expect(toggleAnswer(['a', 'b'], 'a', true)).toEqual(['b']);
  });

  it('checks a new poll as the hub does', () => {
    expect(newPollProblem(' ', ['a', 'b'])).toBe('question');
    expect(newPollProblem('q'.repeat(201), ['a', 'b'])).toBe('question');
    expect(newPollProblem('q', ['a', ' '])).toBe('answers');
    expect(newPollProblem('q', Array<string>(7).fill('a'))).toBe('answers');
    expect(newPollProblem('q', ['a', 'b'.repeat(101)])).toBe('answers');
    expect(newPollProblem('q', ['a', 'b', ''])).toBeNull();
  });

  it('has a text in English and German for every poll refusal the hub knows', () => {
    const codes = [...generated.matchAll(/"(POLL_[A-Z_]+)"/g)].map((m) => m[1] ?? '');
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) expect(POLL_ERRORS as readonly string[]).toContain(code);
    for (const code of [...POLL_ERRORS, 'OTHER'] as const) {
      expect(en.engagement.polls.errors[code]).toBeTruthy();
      expect(de.engagement.polls.errors[code]).toBeTruthy();
      expect(de.engagement.polls.errors[code]).not.toBe(en.engagement.polls.errors[code]);
    }
    expect(pollErrorOf('POLL_CLOSED')).toBe('POLL_CLOSED');
    expect(pollErrorOf('SOMETHING_NEW')).toBe('OTHER');
  });
});
