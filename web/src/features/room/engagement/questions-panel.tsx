import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { Question } from '@/protocol/generated';
import type { EngagementSession } from './engagement-session';
import { beingAnswered, MAX_QUESTION_CHARS, QUESTION_INTERVAL_SECONDS, questionErrorOf, questionProblem, sortedQueue, type QuestionError } from './questions';

/*
 * Questions (#19) in the engagement panel: attendees ask and up-vote, the guide works
 * through the queue (sorted by up-votes, then age): answers one now (everyone sees it
 * above the panel's tabs), marks it answered, or dismisses it. Questions and names are
 * rendered as text, isolated (<bdi>, dir="auto").
 */

/** Sends one command of the session's, showing its refusal. */
type Send = (command: Promise<unknown>) => void;

/** The question being answered now, for everyone, above the chat and the questions. */
export function AnsweringBanner({ session }: { session: EngagementSession }) {
  const { t } = useTranslation();
  const questions = useStore(session.liveStore, (s) => s.snapshot?.stateForAll.questions);
  const answering = questions ? beingAnswered(questions) : null;
  if (!answering) return null;
  return (
    <p className="questions__answering" role="status" data-testid="question-answering">
      <span className="questions__answering-label">{t('engagement.questions.answering')}</span>{' '}
      <bdi className="chat__name">{answering.attendeeName ?? t('engagement.anonymous')}</bdi>{' '}
      <span className="chat__text" dir="auto" data-testid="question-answering-text">
        {answering.text}
      </span>
    </p>
  );
}

function QuestionItem({ question, session, own, voted, send }: { question: Question; session: EngagementSession; own: boolean; voted: boolean; send: Send }) {
  const { t } = useTranslation();
  const id = question.questionId;
  const guide = session.role === 'GUIDE' ? session : null;
  const attendee = session.role === 'CLIENT' ? session : null;
  return (
    <li className={`question question--${question.status}`} data-testid="question" data-status={question.status} data-question-id={id}>
      <span className="question__votes" data-testid="question-votes">
        {t('engagement.questions.votes', { count: question.votes })}
      </span>{' '}
      <bdi className="chat__name">{question.attendeeName ?? t('engagement.anonymous')}</bdi>{' '}
      <span className="chat__text" dir="auto" data-testid="question-text">
        {question.text}
      </span>
      {(question.status !== 'open' || (!guide && own)) && (
        <span className="question__badges">
          {question.status !== 'open' && (
            <span className="question__badge question__badge--status" data-testid="question-status">
              {t(`engagement.questions.${question.status}`)}
            </span>
          )}
          {!guide && own && <span className="question__badge">{t('engagement.questions.own')}</span>}
        </span>
      )}
      <span className="chat__moderation">
        {attendee && !own && (
          <button type="button" className="button button--small" aria-pressed={voted} data-testid="question-upvote" onClick={() => send(attendee.voteQuestion(id, !voted))}>
            {t(voted ? 'engagement.questions.withdraw' : 'engagement.questions.upVote')}
          </button>
        )}
        {guide && question.status !== 'answering' && (
          <button type="button" className="button button--small" onClick={() => send(guide.markQuestion(id, 'answering'))}>
            {t('engagement.questions.markAnswering')}
          </button>
        )}
        {guide && question.status !== 'answered' && (
          <button type="button" className="button button--small" onClick={() => send(guide.markQuestion(id, 'answered'))}>
            {t('engagement.questions.markAnswered')}
          </button>
        )}
        {guide && question.status !== 'open' && (
          <button type="button" className="button button--small" onClick={() => send(guide.markQuestion(id, 'open'))}>
            {t('engagement.questions.reopen')}
          </button>
        )}
        {guide && (
          <button type="button" className="button button--small" onClick={() => send(guide.dismissQuestion(id))}>
            {t('engagement.questions.dismiss')}
          </button>
        )}
      </span>
    </li>
  );
}

/** The room's questions: an attendee asks and up-votes, a guide answers from the queue. */
export function QuestionsPanel({ session }: { session: EngagementSession }) {
  const { t } = useTranslation();
  const guide = session.role === 'GUIDE';
  const questions = useStore(session.liveStore, (s) => s.snapshot?.stateForAll.questions);
  const ownVotes = useStore(session.liveStore, (s) => s.snapshot?.stateForClients.questionVotes);
  const me = useStore(session.liveStore, (s) => s.attendeeId);
  const [text, setText] = useState('');
  const [error, setError] = useState<QuestionError | null>(null);
  if (!questions) return null;
  const send = (command: Promise<unknown>, sent?: () => void) => {
    setError(null);
    command.then(
      () => sent?.(),
      (refusal: { code?: string }) => setError(questionErrorOf(refusal.code ?? '')),
    );
  };
  const ask = (event: FormEvent) => {
    event.preventDefault();
    if (session.role !== 'CLIENT') return;
    const problem = questionProblem(text);
    if (problem) return setError(problem);
    send(session.askQuestion(text), () => setText(''));
  };
  const queue = sortedQueue(questions);
  const over = [...text].length > MAX_QUESTION_CHARS;
  return (
    <section className="questions" aria-label={t('engagement.questions.title')} data-testid="questions">
      {guide && <h3 className="engagement__title">{t('engagement.questions.queue')}</h3>}
      {queue.length === 0 && <p className="chat__note">{t('engagement.questions.empty')}</p>}
      <ol className="questions__list" data-testid="question-list" aria-live="polite">
        {queue.map((question) => (
          <QuestionItem
            key={question.questionId}
            question={question}
            session={session}
            own={question.attendeeId === me}
            voted={ownVotes?.includes(question.questionId) ?? false}
            send={send}
          />
        ))}
      </ol>
      {!guide && (
        <form className="chat__form" onSubmit={ask}>
          <label className="chat__label" htmlFor="question-input">
            {t('engagement.questions.ask')}
          </label>
          <textarea id="question-input" data-testid="question-input" rows={2} value={text} onChange={(e) => setText(e.target.value)} />
          <span className={`chat__count${over ? ' chat__count--over' : ''}`}>
            {[...text].length}/{MAX_QUESTION_CHARS}
          </span>
          <button type="submit" className="button button--small button--primary" data-testid="question-ask">
            {t('engagement.questions.send')}
          </button>
        </form>
      )}
      {!guide && <p className="chat__note">{t('engagement.questions.rate', { seconds: QUESTION_INTERVAL_SECONDS })}</p>}
      {error && (
        <p className="chat__error" role="alert" data-testid="question-error">
          {t(`engagement.questions.errors.${error}`)}
        </p>
      )}
    </section>
  );
}
