import { describe, expect, it } from 'vitest';
import type { Question } from '@/protocol/generated';
import { makeSnapshot } from '@/testing/snapshot';
import { questionAsked, questionDismissed, questionMarked, questionVoted, questionVotes } from './apply-questions';

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

describe('question events', () => {
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
    expect(s.stateForAll.questions.map((q) => q.status)).toEqual(['answering', 'open']);
    s = questionMarked(s, 'q2', 'answering');
    expect(s.stateForAll.questions.map((q) => q.status)).toEqual(['open', 'answering']);
    s = questionMarked(s, 'q2', 'answered');
    expect(s.stateForAll.questions.map((q) => q.status)).toEqual(['open', 'answered']);
  });

  it('drops a dismissed question and the own up-vote on it', () => {
    let s = questionVoted(questionAsked(makeSnapshot(), question(1)), 'q1', true);
    s = questionDismissed(s, 'q1');
    expect(s.stateForAll.questions).toEqual([]);
    expect(s.stateForClients.questionVotes).toEqual([]);
  });
});
