import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { Poll } from '@/protocol/generated';
import type { EngagementSession, GuideEngagement } from './engagement-session';
import { MAX_POLL_ANSWERS, newPollProblem, percentages, pollErrorOf, showsCounts, toggleAnswer, visiblePolls, type PollError } from './polls';

/*
 * Polls (#19) in the engagement panel: a guide creates, opens, closes and shows the
 * results of polls; attendees vote (and may change their vote while a poll is open).
 * Questions and answers are rendered as text, isolated (dir="auto").
 */

function Results({ poll }: { poll: Poll }) {
  const { t } = useTranslation();
  const shares = percentages(poll);
  return (
    <p className="poll__voters" data-testid="poll-voters">
      {t('engagement.polls.voters', { count: poll.voters })}
      {poll.answers.map((answer, i) => (
        <span key={answer.answerId} className="poll__result" data-testid="poll-result">
          <bdi dir="auto">{answer.text}</bdi>: <span data-testid="poll-count">{poll.counts[i]}</span> ({shares[i]} %)
        </span>
      ))}
    </p>
  );
}

/** One poll: an attendee votes; a guide opens, closes and shows the results. */
function PollCard({ poll, own, session }: { poll: Poll; own: string[] | undefined; session: EngagementSession }) {
  const { t } = useTranslation();
  const [selection, setSelection] = useState<string[] | null>(null);
  const [error, setError] = useState<PollError | null>(null);
  const chosen = selection ?? own ?? [];
  const guide = session.role === 'GUIDE' ? session : null;
  const send = (command: Promise<unknown>, sent?: () => void) => {
    setError(null);
    command.then(
      () => sent?.(),
      (refusal: { code?: string }) => setError(pollErrorOf(refusal.code ?? '')),
    );
  };
  const vote = (event: FormEvent) => {
    event.preventDefault();
    if (session.role === 'CLIENT') send(session.votePoll(poll.pollId, chosen), () => setSelection(null));
  };
  const open = poll.status === 'open';
  return (
    <li className="poll" data-testid="poll" data-status={poll.status}>
      <p className="poll__question" dir="auto" data-testid="poll-question">
        {poll.question}
      </p>
      <p className="poll__status">{t(`engagement.polls.status.${poll.status}`)}</p>
      {!guide && open && (
        <form onSubmit={vote}>
          <fieldset className="poll__answers">
            <legend className="poll__legend">{t(poll.multiple ? 'engagement.polls.chooseMany' : 'engagement.polls.chooseOne')}</legend>
            {poll.answers.map((answer) => (
              <label key={answer.answerId}>
                <input
                  type={poll.multiple ? 'checkbox' : 'radio'}
                  name={`poll-${poll.pollId}`}
                  checked={chosen.includes(answer.answerId)}
                  onChange={() => setSelection(toggleAnswer(chosen, answer.answerId, poll.multiple))}
                />{' '}
                <bdi dir="auto">{answer.text}</bdi>
              </label>
            ))}
          </fieldset>
          <button type="submit" className="button button--small button--primary" data-testid="poll-vote" disabled={chosen.length === 0}>
            {t(own ? 'engagement.polls.changeVote' : 'engagement.polls.vote')}
          </button>
          {own && <span className="poll__voted">{t('engagement.polls.voted')}</span>}
        </form>
      )}
      {showsCounts(poll, guide !== null) && poll.status !== 'draft' && <Results poll={poll} />}
      {guide && (
        <span className="poll__actions">
          {poll.status !== 'open' && (
            <button type="button" className="button button--small" onClick={() => send(guide.openPoll(poll.pollId))}>
              {t('engagement.polls.open')}
            </button>
          )}
          {open && (
            <button type="button" className="button button--small" onClick={() => send(guide.closePoll(poll.pollId))}>
              {t('engagement.polls.close')}
            </button>
          )}
          <button type="button" className="button button--small" onClick={() => send(guide.showPollResults(poll.pollId, !poll.resultsShown))}>
            {t(poll.resultsShown ? 'engagement.polls.hideResults' : 'engagement.polls.showResults')}
          </button>
        </span>
      )}
      {error && (
        <p className="chat__error" role="alert" data-testid="poll-error">
          {t(`engagement.polls.errors.${error}`)}
        </p>
      )}
    </li>
  );
}

function NewPollForm({ guide }: { guide: GuideEngagement }) {
  const { t } = useTranslation();
  const section = useStore(guide.liveStore, (s) => s.snapshot?.stateForAll.currentSectionId ?? null);
  const alias = useStore(guide.liveStore, (s) => s.snapshot?.stateForAll.currentSlideAlias ?? 0);
  const [question, setQuestion] = useState('');
  const [answers, setAnswers] = useState(['', '']);
  const [multiple, setMultiple] = useState(false);
  const [withSlide, setWithSlide] = useState(false);
  const [error, setError] = useState<PollError | 'question' | 'answers' | null>(null);
  const create = (event: FormEvent) => {
    event.preventDefault();
    const problem = newPollProblem(question, answers);
    if (problem) return setError(problem);
    setError(null);
    const slide = withSlide && section ? { sectionId: section, slideAlias: alias } : null;
    const poll = { question, answers: answers.map((a) => a.trim()).filter(Boolean), multiple, slide };
    guide.createPoll(poll).then(
      () => {
        setQuestion('');
        setAnswers(['', '']);
      },
      (refusal: { code?: string }) => setError(pollErrorOf(refusal.code ?? '')),
    );
  };
  return (
    <details className="chat__settings" data-testid="poll-new">
      <summary>{t('engagement.polls.new')}</summary>
      <form className="poll-new__form" onSubmit={create}>
        <label className="poll-new__field">
          {t('engagement.polls.question')} <input type="text" value={question} onChange={(e) => setQuestion(e.target.value)} />
        </label>
        {answers.map((answer, i) => (
          <label key={i} className="poll-new__field">
            {t('engagement.polls.answer', { n: i + 1 })}{' '}
            <input type="text" value={answer} onChange={(e) => setAnswers(answers.map((a, j) => (j === i ? e.target.value : a)))} />
          </label>
        ))}
        {answers.length < MAX_POLL_ANSWERS && (
          <button type="button" className="button button--small" onClick={() => setAnswers([...answers, ''])}>
            {t('engagement.polls.addAnswer')}
          </button>
        )}
        <label>
          <input type="checkbox" checked={multiple} onChange={(e) => setMultiple(e.target.checked)} /> {t('engagement.polls.multiple')}
        </label>
        {section && (
          <label>
            <input type="checkbox" checked={withSlide} onChange={(e) => setWithSlide(e.target.checked)} /> {t('engagement.polls.withSlide')}
          </label>
        )}
        <button type="submit" className="button button--small button--primary">{t('engagement.polls.create')}</button>
        {error && (
          <p className="chat__error" role="alert">
            {t(error === 'question' || error === 'answers' ? `engagement.polls.invalid.${error}` : `engagement.polls.errors.${error}`)}
          </p>
        )}
      </form>
    </details>
  );
}

/** The room's polls, for a guide to run and attendees to vote in. */
export function PollsPanel({ session }: { session: EngagementSession }) {
  const { t } = useTranslation();
  const guide = session.role === 'GUIDE' ? session : null;
  const polls = useStore(session.liveStore, (s) => s.snapshot?.stateForAll.polls);
  const votes = useStore(session.liveStore, (s) => s.snapshot?.stateForClients.pollVotes);
  if (!polls) return null;
  const shown = visiblePolls(polls, guide !== null);
  if (!guide && shown.length === 0) return null;
  return (
    <section className="polls" aria-label={t('engagement.polls.title')} data-testid="polls">
      <h3 className="engagement__title">{t('engagement.polls.title')}</h3>
      <ol className="polls__list">
        {shown.map((poll) => (
          <PollCard key={poll.pollId} poll={poll} own={votes?.[poll.pollId]} session={session} />
        ))}
      </ol>
      {guide && <NewPollForm guide={guide} />}
    </section>
  );
}
