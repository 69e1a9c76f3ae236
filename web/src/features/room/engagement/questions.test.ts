import { describe, expect, it } from 'vitest';
import type { Question } from '@/protocol/generated';
import generated from '@/protocol/generated.ts?raw';
import { de } from '@/lib/i18n/locales/de';
import { en } from '@/lib/i18n/locales/en';
import { beingAnswered, QUESTION_ERRORS, questionErrorOf, questionProblem, sortedQueue } from './questions';

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

describe('questions', () => {
  it('finds the question being answered, if any', () => {
    expect(beingAnswered([question(1), question(2, { status: 'answering' })])?.questionId).toBe('q2');
    expect(beingAnswered([question(1), question(2, { status: 'answered' })])).toBeNull();
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
