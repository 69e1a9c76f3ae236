import type { Question, Snapshot } from '@/protocol/generated';

/*
 * The questions' part of the reducer (`apply-event.ts`; the hub's golden cases check it).
 * Up-vote counts arrive with ordered events (a guide's view, one's own up-vote) and between
 * them as `questionVotes` sums at most four times a second.
 */

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
