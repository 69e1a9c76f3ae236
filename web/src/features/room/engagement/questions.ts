import type { ErrorCode, Question } from '@/protocol/generated';

/*
 * Questions (#19) as the room shows them, pure: the guide's queue order, the one being
 * answered, and the refusals an attendee or the guide may get. The events' part of the
 * reducer is `realtime/apply-questions.ts`.
 */

export const MAX_QUESTION_CHARS = 300;
/** One question per this many seconds per attendee (`QUESTION_INTERVAL_MS` in the hub). */
export const QUESTION_INTERVAL_SECONDS = 30;

/** The refusals questions explain (each has a text in `engagement.questions.errors`). */
export const QUESTION_ERRORS = [
  'QUESTION_EMPTY',
  'QUESTION_TOO_LONG',
  'QUESTION_RATE_LIMITED',
  'QUESTION_BANNED',
  'QUESTION_NOT_FOUND',
  'QUESTION_OWN_VOTE',
  'QUESTION_LIMIT',
  'PRESENTATION_ENDED',
  'INVALID_PAYLOAD',
  'RATE_LIMITED',
  'FORBIDDEN',
] as const satisfies readonly ErrorCode[];

export type QuestionError = (typeof QUESTION_ERRORS)[number] | 'OTHER';

export function questionErrorOf(code: string): QuestionError {
  return (QUESTION_ERRORS as readonly string[]).includes(code) ? (code as QuestionError) : 'OTHER';
}

/** The queue order (the hub's `queue_order`): by up-votes, most first, then oldest first; answered last. */
export function queueOrder(a: Question, b: Question): number {
  const answered = (q: Question) => (q.status === 'answered' ? 1 : 0);
  return answered(a) - answered(b) || b.votes - a.votes || a.askedAt - b.askedAt || (a.questionId < b.questionId ? -1 : a.questionId > b.questionId ? 1 : 0);
}

export function sortedQueue(questions: Question[]): Question[] {
  return [...questions].sort(queueOrder);
}

/** The question being answered now, if any (at most one). */
export function beingAnswered(questions: Question[]): Question | null {
  return questions.find((q) => q.status === 'answering') ?? null;
}

/** Why a question cannot be sent yet, or null (the hub checks the same, and more). */
export function questionProblem(text: string): 'QUESTION_EMPTY' | 'QUESTION_TOO_LONG' | null {
  if ([...text].length > MAX_QUESTION_CHARS) return 'QUESTION_TOO_LONG';
  if (text.trim().length === 0) return 'QUESTION_EMPTY';
  return null;
}
