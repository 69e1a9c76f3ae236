import { describe, expect, it } from 'vitest';
import type { ChatMessage, DynamicPage, Snapshot } from '@/protocol/generated';
import { makeAttendee, makeSnapshot } from '@/testing/snapshot';
import { applyEvent, applyParticipants, applyVolatile, CHAT_HISTORY } from './apply-event';

const PAGE = 'a'.repeat(32);
const SECTION = 'b'.repeat(32);
const listing: DynamicPage = { pageId: PAGE, type: 'productList', opened: true };

describe('applyEvent', () => {
  it('switches the slide without touching the input', () => {
    const before = makeSnapshot({ currentSlideData: { page: 2 } });
    const after = applyEvent(before, { kind: 'slideSwitched', pageId: PAGE, sectionId: SECTION, slideAlias: 3 });
    expect(after.stateForAll).toMatchObject({
      currentPageId: PAGE,
      currentSectionId: SECTION,
      lastActiveGuideSection: SECTION,
      currentSlideAlias: 3,
      currentSlideData: null,
    });
    expect(before.stateForAll.currentSlideAlias).toBe(0);
    expect(before.stateForAll.currentSlideData).toEqual({ page: 2 });
  });

  it('starts and ends the presentation', () => {
    const started = applyEvent(makeSnapshot(), { kind: 'presentationStarted', startedAt: '2026-01-01T10:00:00Z' });
    expect(started.stateForAll).toMatchObject({ started: true, running: true, startedAt: '2026-01-01T10:00:00Z' });
    const ended = applyEvent(started, { kind: 'presentationEnded', endedAt: '2026-01-01T11:00:00Z' });
    expect(ended.stateForAll).toMatchObject({ started: true, running: false, ended: true, endedAt: '2026-01-01T11:00:00Z' });
  });

  it.each([
    [{ kind: 'lockChanged', locked: true } as const, { locked: true }],
    [{ kind: 'guideProductChanged', productId: PAGE } as const, { currentGuideProductId: PAGE }],
    [{ kind: 'broadcastModeChanged', active: true } as const, { broadcastMode: true }],
    [{ kind: 'viewModeChanged', mode: 'videoGrid' } as const, { viewMode: 'videoGrid' }],
    [{ kind: 'screenSharingChanged', active: true } as const, { allowScreenSharing: true }],
    [{ kind: 'muteAllChanged', muted: true } as const, { mutedAll: true }],
    [{ kind: 'dynamicPageOpened', page: listing } as const, { currentDynamicPage: listing }],
  ])('applies %o', (event, expected) => {
    expect(applyEvent(makeSnapshot(), event).stateForAll).toMatchObject(expected);
  });

  it('closes the open dynamic page only when it is meant', () => {
    const open = makeSnapshot({ currentDynamicPage: listing });
    const other = applyEvent(open, { kind: 'dynamicPageClosed', pageId: SECTION, all: false });
    expect(other.stateForAll.currentDynamicPage).toEqual(listing);
    expect(applyEvent(open, { kind: 'dynamicPageClosed', pageId: PAGE, all: false }).stateForAll.currentDynamicPage).toBeNull();
    expect(applyEvent(open, { kind: 'dynamicPageClosed', pageId: null, all: true }).stateForAll.currentDynamicPage).toBeNull();
  });

  it('files participants for guides by connection state', () => {
    const guideId = 'c'.repeat(32);
    const clientId = 'd'.repeat(32);
    let snapshot = makeSnapshot({}, {});
    // A guide's first presence event files it under guides, by its role.
    snapshot = applyEvent(snapshot, { kind: 'attendeeChanged', attendee: makeAttendee(guideId, { role: 'GUIDE' }) });
    expect(Object.keys(snapshot.stateForGuides!.guides)).toEqual([guideId]);
    expect(snapshot.stateForGuides!.clients).toEqual({});

    snapshot = applyEvent(snapshot, { kind: 'attendeeChanged', attendee: makeAttendee(clientId) });
    expect(Object.keys(snapshot.stateForGuides!.clients)).toEqual([clientId]);

    snapshot = applyEvent(snapshot, { kind: 'attendeeChanged', attendee: makeAttendee(clientId, { connection: 'lost' }) });
    expect(snapshot.stateForGuides!.clients).toEqual({});
    expect(snapshot.stateForGuides!.inactiveClients[clientId]?.connection).toBe('lost');

    snapshot = applyEvent(snapshot, { kind: 'cartPermissionChanged', attendeeId: clientId, permission: 'granted' });
    expect(snapshot.stateForGuides!.inactiveClients[clientId]?.cartPermission).toBe('granted');

    snapshot = applyEvent(snapshot, { kind: 'attendeeChanged', attendee: makeAttendee(guideId, { role: 'GUIDE', connection: 'reconnected' }) });
    expect(snapshot.stateForGuides!.guides[guideId]?.connection).toBe('reconnected');

    snapshot = applyEvent(snapshot, { kind: 'attendeeRemoved', attendeeId: clientId });
    expect(snapshot.stateForGuides!.inactiveClients).toEqual({});
  });

  it('takes the appointment settings into stateForAll', () => {
    const settings = {
      appointmentMode: 'guided' as const,
      videoAudioSettings: 'both' as const,
      attendeeRestrictionType: 'customer' as const,
      accessibleFrom: null,
      accessibleTo: '2026-12-01T00:00:00Z',
      productDetailDefaultPageId: null,
      quickviewPageId: null,
      productListingDefaultPageId: null,
    };
    const next = applyEvent(makeSnapshot(), { kind: 'appointmentConfigured', settings });
    expect(next.stateForAll.videoAudioSettings).toBe('both');
    expect(next.stateForAll.attendeeRestrictionType).toBe('customer');
    expect(next.stateForAll.accessibleTo).toBe('2026-12-01T00:00:00Z');
  });

  it('leaves a client snapshot without guide state alone', () => {
    const snapshot = makeSnapshot();
    expect(applyEvent(snapshot, { kind: 'attendeeChanged', attendee: makeAttendee('e'.repeat(32)) })).toBe(snapshot);
  });

  it('changes nothing on a reload hint', () => {
    const snapshot = makeSnapshot();
    expect(applyEvent(snapshot, { kind: 'reload', action: { key: 'loadProductList', payload: {} } })).toBe(snapshot);
  });
});

describe('applyEvent on chat batches', () => {
  const message = (n: number): ChatMessage => ({
    messageId: n.toString(16).padStart(32, '0'),
    attendeeId: 'e'.repeat(32),
    attendeeName: `Ada ${n}`,
    role: 'CLIENT',
    text: `message ${n}`,
    sentAt: 1_767_603_600_000 + n,
  });
  const texts = (snapshot: Snapshot) => snapshot.stateForAll.chat.messages.map((m) => m.text);

  it('appends a batch in its order after single messages, and leaves the input alone', () => {
    const before = applyEvent(makeSnapshot(), { kind: 'chatMessagePosted', message: message(1) });
    const after = applyEvent(before, { kind: 'chatMessagesPosted', messages: [message(2), message(3), message(4)] });
    expect(texts(after)).toEqual(['message 1', 'message 2', 'message 3', 'message 4']);
    expect(texts(before)).toEqual(['message 1']);
    expect(applyEvent(after, { kind: 'chatMessagesPosted', messages: [] })).toBe(after);
  });

  it('deletes and pins a message that came in a batch by its id', () => {
    let snapshot = applyEvent(makeSnapshot(), { kind: 'chatMessagesPosted', messages: [message(1), message(2), message(3)] });
    snapshot = applyEvent(snapshot, { kind: 'chatMessagePinned', messageId: message(2).messageId });
    expect(snapshot.stateForAll.chat.pinned).toEqual(message(2));
    snapshot = applyEvent(snapshot, { kind: 'chatMessageDeleted', messageId: message(2).messageId });
    expect(texts(snapshot)).toEqual(['message 1', 'message 3']);
    expect(snapshot.stateForAll.chat.pinned).toBeNull();
  });

  it('keeps the last CHAT_HISTORY messages across batches', () => {
    let snapshot = makeSnapshot();
    for (let batch = 0; batch < 3; batch++) {
      const messages = Array.from({ length: 45 }, (_, i) => message(batch * 45 + i + 1));
      snapshot = applyEvent(snapshot, { kind: 'chatMessagesPosted', messages });
    }
    expect(snapshot.stateForAll.chat.messages).toHaveLength(CHAT_HISTORY);
    expect(texts(snapshot)[0]).toBe('message 36');
    expect(texts(snapshot).at(-1)).toBe('message 135');
  });
});

describe('applyVolatile', () => {
  it('tracks the element the guide hovers', () => {
    const snapshot = applyVolatile(makeSnapshot(), { kind: 'guideHovered', hoveredElementId: PAGE });
    expect(snapshot.stateForClients.hoveredElementId).toBe(PAGE);
  });
});

describe('applyParticipants', () => {
  it('files a page of participants as their attendeeChanged events would, without touching the input', () => {
    const id = (n: number) => n.toString(16).padStart(32, '0');
    const page = [
      makeAttendee(id(1)),
      makeAttendee(id(2), { connection: 'lost' }),
      makeAttendee(id(3), { role: 'GUIDE' }),
      makeAttendee(id(4)),
      makeAttendee(id(4), { connection: 'lost' }),
      makeAttendee(id(5), { connection: 'lost' }),
      makeAttendee(id(5), { connection: 'reconnected' }),
    ];
    const before = makeSnapshot({}, { clients: { [id(9)]: makeAttendee(id(9)) } });
    const byEvents = page.reduce((snapshot, attendee) => applyEvent(snapshot, { kind: 'attendeeChanged', attendee }), before);
    const byPage = applyParticipants(before, page);
    expect(byPage.stateForGuides).toEqual(byEvents.stateForGuides);
    expect(Object.keys(byPage.stateForGuides!.clients).sort()).toEqual([id(1), id(5), id(9)]);
    expect(Object.keys(byPage.stateForGuides!.inactiveClients).sort()).toEqual([id(2), id(4)]);
    expect(Object.keys(byPage.stateForGuides!.guides)).toEqual([id(3)]);
    expect(Object.keys(before.stateForGuides!.clients)).toEqual([id(9)]);
  });

  it('files a room of 10,000 in pages of 500', () => {
    const id = (n: number) => n.toString(16).padStart(32, '0');
    let snapshot = makeSnapshot({}, {});
    for (let start = 0; start < 10_000; start += 500) {
      const page = Array.from({ length: 500 }, (_, i) => makeAttendee(id(start + i), { connection: (start + i) % 10 === 0 ? 'lost' : 'connected' }));
      snapshot = applyParticipants(snapshot, page);
    }
    expect(Object.keys(snapshot.stateForGuides!.clients)).toHaveLength(9_000);
    expect(Object.keys(snapshot.stateForGuides!.inactiveClients)).toHaveLength(1_000);
  });
});
