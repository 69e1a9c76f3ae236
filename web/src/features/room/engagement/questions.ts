import type { ErrorCode, Question, Snapshot } from '@/protocol/generated';

/*
 * Questions (#19) as the room shows them, pure: the reducer's part (the hub's golden cases
 * check it), the guide's queue order, the one being answered, and the refusals an attendee
 * or the guide may get. Up-vote counts arrive with ordered events (a guide's view, one's
 * own up-vote) and between them as `questionVotes` sums at most four times a second.
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

function withQuestions(snapshot: Snapshot, update: (questions: Question[]) => Question[]): Snapshot {
  return { ...snapshot, stateForAll: { ...snapshot.stateForAll, questions: update(snapshot.stateForAll.questions) } };
}

export function questionAsked(snapshot: Snapshot, question: Question): Snapshot {
  if (snapshot.stateForAll.questions.some((q) => q.questionId === question.questionId)) return snapshot;
  return withQuestions(snapshot, (questions) => [...questions, question]);
}

/**
 * An up-vote the viewer is sent: its own (a client), or anyone's (a guide). A client's own
 * list makes its own vote count once; a guide's count is corrected by the next
 * `questionVotes` should one vote come twice.
 */
export function questionVoted(snapshot: Snapshot, questionId: string, voted: boolean): Snapshot {
  if (!snapshot.stateForAll.questions.some((q) => q.questionId === questionId)) return snapshot;
  const guide = snapshot.stateForGuides !== undefined;
  const own = snapshot.stateForClients.questionVotes;
  if (!guide && own.includes(questionId) === voted) return snapshot;
  const counted = withQuestions(snapshot, (questions) =>
    questions.map((q) => (q.questionId === questionId ? { ...q, votes: Math.max(0, q.votes + (voted ? 1 : -1)) } : q)),
  );
  if (guide) return counted;
  const questionVotes = voted ? [...own, questionId].sort() : own.filter((id) => id !== questionId);
  return { ...counted, stateForClients: { ...counted.stateForClients, questionVotes } };
}

/** The guide's mark; `answering` takes it from any other question being answered. */
export function questionMarked(snapshot: Snapshot, questionId: string, status: Question['status']): Snapshot {
  if (!snapshot.stateForAll.questions.some((q) => q.questionId === questionId)) return snapshot;
  return withQuestions(snapshot, (questions) =>
    questions.map((q) => {
      if (q.questionId === questionId) return { ...q, status };
      return status === 'answering' && q.status === 'answering' ? { ...q, status: 'open' as const } : q;
    }),
  );
}

export function questionDismissed(snapshot: Snapshot, questionId: string): Snapshot {
  const dismissed = withQuestions(snapshot, (questions) => questions.filter((q) => q.questionId !== questionId));
  const own = dismissed.stateForClients.questionVotes;
  if (!own.includes(questionId)) return dismissed;
  return { ...dismissed, stateForClients: { ...dismissed.stateForClients, questionVotes: own.filter((id) => id !== questionId) } };
}

/** A `questionVotes` sum: the latest counts of the questions named. */
export function questionVotes(snapshot: Snapshot, votes: Partial<Record<string, number>>): Snapshot {
  if (!snapshot.stateForAll.questions.some((q) => votes[q.questionId] !== undefined)) return snapshot;
  return withQuestions(snapshot, (questions) => questions.map((q) => (votes[q.questionId] === undefined ? q : { ...q, votes: votes[q.questionId] ?? q.votes })));
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
