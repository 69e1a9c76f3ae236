import { describe, expect, it } from 'vitest';
import type { Event, Snapshot } from '@/protocol/generated';
import golden from '@/protocol/live-state-cases.json';
import { applyEvent } from './apply-event';
import { CART_ACTIONS } from './cart-actions';

/*
 * The live-state reducer's golden cases, generated from the Rust reducer by
 * `make protocol-ts`: the web's `applyEvent` must fold each case's events over `before`
 * to exactly its `after`, so the two reducers cannot drift apart.
 */

interface GoldenCase {
  name: string;
  before: Snapshot;
  events: Event[];
  after: Snapshot;
}

const { cartActions, cases } = golden as unknown as { cartActions: string[]; cases: GoldenCase[] };

/** Every kind of event; a kind added to the protocol fails to compile here until it is listed (and covered). */
const EVENT_KINDS: Record<Event['kind'], true> = {
  appointmentConfigured: true,
  slideSwitched: true,
  presentationStarted: true,
  presentationEnded: true,
  lockChanged: true,
  guideProductChanged: true,
  dynamicPageOpened: true,
  dynamicPageClosed: true,
  broadcastModeChanged: true,
  viewModeChanged: true,
  screenSharingChanged: true,
  muteAllChanged: true,
  sessionSampled: true,
  savedProductsChanged: true,
  attendeeChanged: true,
  attendeeRemoved: true,
  cartPermissionChanged: true,
  attendeeCollectionChanged: true,
  attendeeCartChanged: true,
  chatMessagePosted: true,
  chatMessagesPosted: true,
  chatMessageDeleted: true,
  chatMessagePinned: true,
  chatSettingsChanged: true,
  chatBlockedWordsChanged: true,
  chatAttendeeModerated: true,
  pollCreated: true,
  pollOpened: true,
  pollClosed: true,
  pollResultsShown: true,
  pollVoted: true,
  questionAsked: true,
  questionVoted: true,
  questionMarked: true,
  questionDismissed: true,
  reload: true,
};

describe('live-state golden cases', () => {
  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases.map((entry) => [entry.name, entry] as const))('%s', (_name, { before, events, after }) => {
    expect(events.reduce(applyEvent, before)).toEqual(after);
  });

  it('covers every kind of event', () => {
    const covered = new Set(cases.flatMap(({ events }) => events.map((event) => event.kind)));
    expect(Object.keys(EVENT_KINDS).filter((kind) => !covered.has(kind as Event['kind']))).toEqual([]);
  });

  it('knows the same cart actions as the hub', () => {
    expect(new Set(CART_ACTIONS)).toEqual(new Set(cartActions));
  });
});
