// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { initI18n } from '@/lib/i18n';
import type { Poll, Snapshot } from '@/protocol/generated';
import { makeSnapshot } from '@/testing/snapshot';
import type { RoomState } from '../realtime/client';
import { EngagementPanel } from './engagement-panel';
import type { AttendeeEngagement, GuideEngagement } from './engagement-session';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/*
 * The panel sends nothing itself: every button is one named command of the session it is
 * given (a fake here, with no socket at all).
 */

const ADA = 'a'.repeat(32);

const poll: Poll = {
  pollId: 'p1',
  question: 'Which colour?',
  answers: [
    { answerId: 'red', text: 'Red' },
    { answerId: 'blue', text: 'Blue' },
  ],
  multiple: false,
  slide: null,
  status: 'open',
  resultsShown: false,
  counts: [0, 0],
  voters: 0,
};

function liveStore(snapshot: Snapshot) {
  return createStore<RoomState>(() => ({
    connection: 'connected',
    role: null,
    attendeeId: ADA,
    snapshot,
    video: null,
    cartPermission: 'missing',
    closedFor: null,
  }));
}

const sent = () => vi.fn().mockResolvedValue(1);

function fakeGuide(snapshot: Snapshot) {
  return {
    role: 'GUIDE',
    liveStore: liveStore(snapshot),
    onReactions: () => () => undefined,
    sendChatMessage: sent(),
    react: sent(),
    deleteChatMessage: sent(),
    pinChatMessage: sent(),
    timeOutChatAttendee: sent(),
    banChatAttendee: sent(),
    setChatSettings: sent(),
    setChatBlockedWords: sent(),
    createPoll: sent(),
    openPoll: sent(),
    closePoll: sent(),
    showPollResults: sent(),
    markQuestion: sent(),
    dismissQuestion: sent(),
  } satisfies GuideEngagement;
}

function fakeAttendee(snapshot: Snapshot) {
  return {
    role: 'CLIENT',
    liveStore: liveStore(snapshot),
    onReactions: () => () => undefined,
    sendChatMessage: sent(),
    react: sent(),
    votePoll: sent(),
    askQuestion: sent(),
    voteQuestion: sent(),
  } satisfies AttendeeEngagement;
}

describe('EngagementPanel', () => {
  let host: HTMLDivElement;
  let root: Root;

  beforeAll(() => initI18n('en-US'));

  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });

  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  const button = (name: string) => {
    const found = [...host.querySelectorAll('button')].find((candidate) => (candidate.getAttribute('aria-label') ?? candidate.textContent)?.trim() === name);
    if (!found) throw new Error(`no button ${name}`);
    return found;
  };
  const click = (name: string) => act(() => button(name).click());

  it("a guide's moderation and poll buttons are the guide session's commands", async () => {
    const message = { messageId: 'm1', attendeeId: ADA, attendeeName: 'Ada', role: 'CLIENT' as const, text: 'Hello', sentAt: 1 };
    const guide = fakeGuide(makeSnapshot({ chat: { messages: [message], pinned: null, settings: { closed: false, slowModeSeconds: 0, linksAllowed: false } }, polls: [poll] }, {}));
    act(() => root.render(<EngagementPanel session={guide} />));
    click('Pin');
    click('Delete');
    click('Time out 5 min');
    click('Ban from chat');
    click('Close');
    click('Show results');
    click('Heart');
    await act(async () => {});
    expect(guide.pinChatMessage).toHaveBeenCalledWith('m1');
    expect(guide.deleteChatMessage).toHaveBeenCalledWith('m1');
    expect(guide.timeOutChatAttendee).toHaveBeenCalledWith(ADA, 5);
    expect(guide.banChatAttendee).toHaveBeenCalledWith(ADA);
    expect(guide.closePoll).toHaveBeenCalledWith('p1');
    expect(guide.showPollResults).toHaveBeenCalledWith('p1', true);
    expect(guide.react).toHaveBeenCalledWith('heart');
  });

  it("an attendee's vote is the attendee session's command, a refusal is explained, and no moderation shows", async () => {
    const attendee = fakeAttendee(makeSnapshot({ polls: [poll] }));
    attendee.votePoll.mockRejectedValue({ code: 'POLL_CLOSED' });
    act(() => root.render(<EngagementPanel session={attendee} />));
    act(() => host.querySelector<HTMLInputElement>('input[type="radio"]')?.click());
    await act(async () => button('Vote').click());
    expect(attendee.votePoll).toHaveBeenCalledWith('p1', ['red']);
    expect(host.querySelector('[data-testid="poll-error"]')?.textContent).toBeTruthy();
    expect(host.textContent).not.toContain('Ban from chat');
  });
});
