import { describe, expect, it } from 'vitest';
import type { Poll } from '@/protocol/generated';
import generated from '@/protocol/generated.ts?raw';
import { de } from '@/lib/i18n/locales/de';
import { en } from '@/lib/i18n/locales/en';
import { newPollProblem, percentages, pollErrorOf, POLL_ERRORS, showsCounts, toggleAnswer, visiblePolls } from './polls';

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
