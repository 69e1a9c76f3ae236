import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { ChatMessage } from '@/protocol/generated';
import { chatErrorOf, chatParts, MAX_CHAT_CHARS, type ChatError } from './chat-text';
import type { EngagementSession, GuideEngagement } from './engagement-session';
import { PollsPanel } from './polls-panel';
import { AnsweringBanner, QuestionsPanel } from './questions-panel';
import { createReactionsStore, REACTION_EMOJI, REACTIONS } from './reactions-store';
import './engagement-panel.css';

/*
 * The live chat and reactions, for attendees and guides alike; a guide also moderates.
 * Everything a participant wrote is rendered as React text nodes (never HTML), names and
 * messages isolated (<bdi>, dir="auto") so right-to-left text cannot reorder the rest.
 * Every command is a named method of the session (`engagement-session.ts`).
 */

const SLOW_MODES = [0, 10, 30, 60];
const TIMEOUT_MINUTES = 5;

function ChatText({ text, clickable }: { text: string; clickable: boolean }) {
  return (
    <span className="chat__text" dir="auto">
      {chatParts(text, clickable).map((part, i) =>
        part.href ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow ugc">
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </span>
  );
}

/** One chat message; with `guide` (the guide's session), its moderation buttons. */
function MessageLine({ message, clickable, guide }: { message: ChatMessage; clickable: boolean; guide: GuideEngagement | null }) {
  const { t } = useTranslation();
  const name = message.attendeeName ?? t('engagement.anonymous');
  const act = (command: Promise<unknown>) => void command.catch(() => undefined);
  return (
    <li className={`chat__message${message.role === 'GUIDE' ? ' chat__message--guide' : ''}`} data-testid="chat-message">
      <bdi className="chat__name" data-testid="chat-name">
        {name}
      </bdi>{' '}
      <ChatText text={message.text} clickable={clickable} />
      {guide && (
        <span className="chat__moderation">
          <button type="button" className="button button--compact" onClick={() => act(guide.deleteChatMessage(message.messageId))}>
            {t('engagement.delete')}
          </button>
          <button type="button" className="button button--compact" onClick={() => act(guide.pinChatMessage(message.messageId))}>
            {t('engagement.pin')}
          </button>
          {message.role === 'CLIENT' && (
            <>
              <button
                className="button button--compact"
                type="button"
                onClick={() => act(guide.timeOutChatAttendee(message.attendeeId, TIMEOUT_MINUTES))}
              >
                {t('engagement.timeout', { minutes: TIMEOUT_MINUTES })}
              </button>
              <button
                className="button button--compact"
                type="button"
                onClick={() => act(guide.banChatAttendee(message.attendeeId))}
              >
                {t('engagement.ban')}
              </button>
            </>
          )}
        </span>
      )}
    </li>
  );
}

function GuideChatSettings({ guide }: { guide: GuideEngagement }) {
  const { t } = useTranslation();
  const settings = useStore(guide.liveStore, (s) => s.snapshot?.stateForAll.chat.settings);
  const blocked = useStore(guide.liveStore, (s) => s.snapshot?.stateForGuides?.chatModeration.blockedWords);
  const [words, setWords] = useState<string | null>(null);
  if (!settings) return null;
  const set = (patch: Partial<typeof settings>) => void guide.setChatSettings({ ...settings, ...patch }).catch(() => undefined);
  const saveWords = (event: FormEvent) => {
    event.preventDefault();
    const list = (words ?? '').split(',').map((w) => w.trim()).filter(Boolean);
    void guide.setChatBlockedWords(list).then(() => setWords(null), () => undefined);
  };
  return (
    <details className="chat__settings">
      <summary>{t('engagement.settings')}</summary>
      <label>
        <input type="checkbox" checked={settings.closed} onChange={(e) => set({ closed: e.target.checked })} /> {t('engagement.closeChat')}
      </label>
      <label>
        <input type="checkbox" checked={settings.linksAllowed} onChange={(e) => set({ linksAllowed: e.target.checked })} />{' '}
        {t('engagement.linksAllowed')}
      </label>
      <label>
        {t('engagement.slowMode')}{' '}
        <select value={settings.slowModeSeconds} onChange={(e) => set({ slowModeSeconds: Number(e.target.value) })}>
          {SLOW_MODES.map((s) => (
            <option key={s} value={s}>
              {s === 0 ? t('engagement.slowModeOff') : t('engagement.seconds', { count: s })}
            </option>
          ))}
        </select>
      </label>
      <form onSubmit={saveWords}>
        <label>
          {t('engagement.blockedWords')}{' '}
          <input value={words ?? (blocked ?? []).join(', ')} onChange={(e) => setWords(e.target.value)} />
        </label>
        <button type="submit" className="button button--small button--primary">{t('engagement.save')}</button>
      </form>
    </details>
  );
}

function Reactions({ session }: { session: EngagementSession }) {
  const { t } = useTranslation();
  const [store] = useState(createReactionsStore);
  const floaters = useStore(store, (s) => s.floaters);
  const totals = useStore(store, (s) => s.totals);
  useEffect(() => session.onReactions((counts) => void store.getState().add(counts)), [session, store]);
  return (
    <div className="reactions">
      <div className="reactions__floaters" aria-hidden="true">
        {floaters.map((f) => (
          <span
            key={f.id}
            className="reactions__floater"
            style={{ left: `${f.x}%` }}
            data-testid="reaction-floater"
            onAnimationEnd={() => store.getState().expire(f.id)}
          >
            {REACTION_EMOJI[f.reaction]}
          </span>
        ))}
      </div>
      <div className="reactions__buttons" role="group" aria-label={t('engagement.reactions')}>
        {REACTIONS.map((reaction) => (
          <button
            className="button button--small"
            key={reaction}
            type="button"
            aria-label={t(`engagement.reaction.${reaction}`)}
            data-testid={`react-${reaction}`}
            onClick={() => void session.react(reaction).catch(() => undefined)}
          >
            {REACTION_EMOJI[reaction]}
            <span className="reactions__count" data-testid={`reaction-total-${reaction}`}>
              {totals[reaction] || ''}
            </span>
          </button>
        ))}
      </div>
    </div>
  );
}

/** Whether `until` (unix ms) is still ahead; turns false when it passes. */
function useStillAhead(until: number | null): boolean {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    const id = setTimeout(() => setNow(Date.now()), Math.max(0, until - Date.now()) + 50);
    return () => clearTimeout(id);
  }, [until]);
  return until !== null && until > now;
}

/** Chat and questions (in tabs, the one being answered above them), polls and reactions beside the stage. */
export function EngagementPanel({ session }: { session: EngagementSession }) {
  const { t } = useTranslation();
  const store = session.liveStore;
  const chat = useStore(store, (s) => s.snapshot?.stateForAll.chat);
  const mutedUntil = useStore(store, (s) => s.snapshot?.stateForClients.chatMutedUntil ?? null);
  const banned = useStore(store, (s) => s.snapshot?.stateForClients.chatBanned ?? false);
  const muted = useStillAhead(mutedUntil);
  const openQuestions = useStore(store, (s) => s.snapshot?.stateForAll.questions.filter((q) => q.status !== 'answered').length ?? 0);
  const [tab, setTab] = useState<'chat' | 'questions'>('chat');
  const [text, setText] = useState('');
  const [error, setError] = useState<ChatError | null>(null);
  const guide = session.role === 'GUIDE' ? session : null;
  if (!chat) return null;
  const clickable = guide !== null || chat.settings.linksAllowed;
  const send = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    session.sendChatMessage(text).then(
      () => setText(''),
      (refusal: { code?: string }) => setError(chatErrorOf(refusal.code ?? '')),
    );
  };
  const over = [...text].length > MAX_CHAT_CHARS;
  return (
    <aside className="engagement" aria-label={t('engagement.title')} data-testid="engagement">
      <h2 className="engagement__title">{t('engagement.title')}</h2>
      <PollsPanel session={session} />
      <AnsweringBanner session={session} />
      <div className="engagement__tabs" role="tablist">
        {(['chat', 'questions'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`engagement-tab-${name}`}
            aria-selected={tab === name}
            aria-controls="engagement-tabpanel"
            className="button button--small engagement__tab"
            data-testid={`engagement-tab-${name}`}
            onClick={() => setTab(name)}
          >
            {name === 'chat' ? t('engagement.chatTab') : t('engagement.questions.tab', { count: openQuestions })}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="engagement-tabpanel" aria-labelledby={`engagement-tab-${tab}`} className="engagement__chat">
        {tab === 'questions' ? (
          <QuestionsPanel session={session} />
        ) : (
          <>
            {chat.pinned && (
              <p className="chat__pinned" data-testid="chat-pinned">
                <span className="chat__pin-label">{t('engagement.pinned')}</span> <bdi>{chat.pinned.attendeeName ?? t('engagement.anonymous')}</bdi>{' '}
                <ChatText text={chat.pinned.text} clickable={clickable} />
                {guide && (
                  <button type="button" className="button button--compact" onClick={() => void guide.pinChatMessage(null).catch(() => undefined)}>
                    {t('engagement.unpin')}
                  </button>
                )}
              </p>
            )}
            <ol className="chat__messages" data-testid="chat-messages" aria-live="polite">
              {chat.messages.map((message) => (
                <MessageLine key={message.messageId} message={message} clickable={clickable} guide={guide} />
              ))}
            </ol>
            {!guide && (banned || muted) && (
              <p className="chat__note" data-testid="chat-moderated">
                {t(banned ? 'engagement.errors.CHAT_BANNED' : 'engagement.errors.CHAT_MUTED')}
              </p>
            )}
            {chat.settings.closed && <p className="chat__note">{t('engagement.closed')}</p>}
            {chat.settings.slowModeSeconds > 0 && <p className="chat__note">{t('engagement.slowModeOn', { count: chat.settings.slowModeSeconds })}</p>}
            <form className="chat__form" onSubmit={send}>
              <label className="chat__label" htmlFor="chat-input">
                {t('engagement.message')}
              </label>
              <textarea id="chat-input" data-testid="chat-input" rows={2} value={text} onChange={(e) => setText(e.target.value)} />
              <span className={`chat__count${over ? ' chat__count--over' : ''}`}>
                {[...text].length}/{MAX_CHAT_CHARS}
              </span>
              <button type="submit" className="button button--small button--primary" data-testid="chat-send">
                {t('engagement.send')}
              </button>
            </form>
            {error && (
              <p className="chat__error" role="alert" data-testid="chat-error">
                {t(`engagement.errors.${error}`)}
              </p>
            )}
            {guide && <GuideChatSettings guide={guide} />}
          </>
        )}
      </div>
      <Reactions session={session} />
    </aside>
  );
}
