import { describe, expect, it } from 'vitest';
import type { Question } from '@/protocol/generated';
import generated from '@/protocol/generated.ts?raw';
import { de } from '@/lib/i18n/locales/de';
import { en } from '@/lib/i18n/locales/en';
import { makeSnapshot } from '@/testing/snapshot';
import {
  beingAnswered,
  QUESTION_ERRORS,
  questionAsked,
  questionDismissed,
  questionErrorOf,
  questionMarked,
  questionProblem,
  questionVoted,
  questionVotes,
  sortedQueue,
} from './questions';

const question = (n: number, patch: Partial<Question> = {}): Question => ({
  questionId: `q${n}`,
  attendeeId: 'bob',
  attendeeName: 'Bob',
  role: 'CLIENT',
  text: `Question ${n}?`,
  askedAt: 1000 + n,
  status: 'open',
  votes: 0,
  ...patch,
});

const guideView = () => makeSnapshot({}, {});

describe('questions', () => {
  it('adds an asked question once', () => {
    const once = questionAsked(makeSnapshot(), question(1));
    expect(questionAsked(once, question(1)).stateForAll.questions).toHaveLength(1);
  });

  it("counts a client's own up-vote once and keeps its own list", () => {
    let s = questionAsked(makeSnapshot(), question(1));
    s = questionVoted(s, 'q1', true);
    s = questionVoted(s, 'q1', true);
    expect(s.stateForAll.questions[0]?.votes).toBe(1);
    expect(s.stateForClients.questionVotes).toEqual(['q1']);
    s = questionVoted(s, 'q1', false);
    expect(s.stateForAll.questions[0]?.votes).toBe(0);
    expect(s.stateForClients.questionVotes).toEqual([]);
    expect(questionVoted(s, 'gone', true)).toBe(s);
  });

  it("counts everyone's up-votes in a guide's view, and a questionVotes sum replaces the counts", () => {
    let s = questionAsked(guideView(), question(1));
    s = questionVoted(s, 'q1', true);
    s = questionVoted(s, 'q1', true);
    expect(s.stateForAll.questions[0]?.votes).toBe(2);
    expect(s.stateForClients.questionVotes).toEqual([]);
    s = questionVotes(s, { q1: 1, unknown: 5 });
    expect(s.stateForAll.questions[0]?.votes).toBe(1);
  });

  it('marks at most one question as being answered', () => {
    let s = questionAsked(questionAsked(makeSnapshot(), question(1)), question(2));
    s = questionMarked(s, 'q1', 'answering');
    expect(beingAnswered(s.stateForAll.questions)?.questionId).toBe('q1');
    s = questionMarked(s, 'q2', 'answering');
    expect(s.stateForAll.questions.map((q) => q.status)).toEqual(['open', 'answering']);
    s = questionMarked(s, 'q2', 'answered');
    expect(beingAnswered(s.stateForAll.questions)).toBeNull();
  });

  it('drops a dismissed question and the own up-vote on it', () => {
    let s = questionVoted(questionAsked(makeSnapshot(), question(1)), 'q1', true);
    s = questionDismissed(s, 'q1');
    expect(s.stateForAll.questions).toEqual([]);
    expect(s.stateForClients.questionVotes).toEqual([]);
  });

  it('sorts the queue by up-votes, then age, answered last', () => {
    const queue = sortedQueue([
      question(1, { votes: 1, askedAt: 10 }),
      question(2, { votes: 3, askedAt: 30, status: 'answered' }),
      question(3, { votes: 3, askedAt: 20 }),
      question(4, { votes: 1, askedAt: 5, status: 'answering' }),
      question(5, { votes: 0, askedAt: 1 }),
    ]);
    expect(queue.map((q) => q.questionId)).toEqual(['q3', 'q4', 'q1', 'q5', 'q2']);
  });

  it('checks the text as the hub does', () => {
    expect(questionProblem('  ')).toBe('QUESTION_EMPTY');
    expect(questionProblem('x'.repeat(301))).toBe('QUESTION_TOO_LONG');
    expect(questionProblem('ü'.repeat(300))).toBeNull();
  });

  it('has a text in English and German for every question refusal the hub knows', () => {
    const codes = [...generated.matchAll(/"(QUESTION_[A-Z_]+)"/g)].map((m) => m[1] ?? '');
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) expect(QUESTION_ERRORS as readonly string[]).toContain(code);
    for (const code of [...QUESTION_ERRORS, 'OTHER'] as const) {
      expect(en.engagement.questions.errors[code]).toBeTruthy();
      expect(de.engagement.questions.errors[code]).toBeTruthy();
      expect(de.engagement.questions.errors[code]).not.toBe(en.engagement.questions.errors[code]);
    }
    expect(questionErrorOf('QUESTION_OWN_VOTE')).toBe('QUESTION_OWN_VOTE');
    expect(questionErrorOf('SOMETHING_NEW')).toBe('OTHER');
  });
});
