import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeAttendee, makeSnapshot } from '@/testing/snapshot';
import { RealtimeClient } from '../../realtime/client';
import { fakeSockets } from '../../realtime/fake-socket';
import { ADA, BOB, flush, fakePresentation, hub, P1, PAGE, slide, welcome } from '../../session/testing';
import type { Widgets } from '../api/room-admin';
import { participantsOf } from '../stores/cockpit';
import type { InsightsApi } from '../stores/insights';
import { GuideSession, type GuideApi } from './guide-session';

describe('GuideSession', () => {
  let sockets: ReturnType<typeof fakeSockets>;
  let session: GuideSession;
  let api: GuideApi & { insights: Record<keyof InsightsApi, ReturnType<typeof vi.fn>>; widgets: Record<keyof Widgets, ReturnType<typeof vi.fn>> };
  let presentation: ReturnType<typeof fakePresentation>;

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = fakeSockets();
    api = {
      insights: {
        cart: vi.fn().mockResolvedValue({ lineItems: [], price: { totalPrice: 0 } }),
        changeLine: vi.fn().mockResolvedValue({ lineItems: [], price: { totalPrice: 0 } }),
        likes: vi.fn().mockResolvedValue({}),
        collections: vi.fn().mockResolvedValue({ liked: [], lastSeen: [] }),
        wishlist: vi.fn().mockResolvedValue([]),
        invitations: vi.fn().mockResolvedValue([]),
      },
      widgets: {
        cartStatistics: vi.fn().mockResolvedValue({}),
        attendeeInsights: vi.fn().mockResolvedValue({}),
        wishlist: vi.fn().mockResolvedValue({}),
        lastSeen: vi.fn().mockResolvedValue({}),
      },
      startAppointment: vi.fn().mockResolvedValue(undefined),
      endAppointment: vi.fn().mockResolvedValue(undefined),
      searchProducts: vi.fn().mockResolvedValue([]),
      productsByIds: vi.fn().mockResolvedValue([]),
      categories: vi.fn().mockResolvedValue([]),
      savedProducts: { load: vi.fn().mockResolvedValue([]), save: vi.fn().mockResolvedValue([]), update: vi.fn().mockResolvedValue([]), remove: vi.fn(), clear: vi.fn() },
      interactionTemplates: { load: vi.fn().mockResolvedValue([]), create: vi.fn(), update: vi.fn(), remove: vi.fn() },
      listingProducts: vi.fn().mockResolvedValue([]),
      createListing: vi.fn().mockResolvedValue(3),
      updateListing: vi.fn().mockResolvedValue(undefined),
      deleteListing: vi.fn().mockResolvedValue(undefined),
      removeAttendee: vi.fn().mockResolvedValue(undefined),
    };
    presentation = fakePresentation([slide(1), slide(2)]);
    session = new GuideSession(new RealtimeClient({ url: 'ws://hub/ws', token: 't' }, { createSocket: sockets.factory, random: () => 0 }), presentation, api, [
      slide(1),
      slide(2),
    ]);
  });

  afterEach(() => {
    session.stop();
    vi.useRealTimers();
  });

  const guideWelcome = () =>
    welcome('GUIDE', makeSnapshot({}, { clients: { [ADA]: makeAttendee(ADA, { cartPermission: 'granted' }), [BOB]: makeAttendee(BOB) } }));

  it('connects on start, loads every slide for the thumbnails and, once welcomed, the likes and the granted carts', async () => {
    session.start();
    expect(sockets.sockets).toHaveLength(1);
    hub(sockets).welcome(guideWelcome());
    await flush();
    expect(presentation.slide).toHaveBeenCalledTimes(2);
    expect(Object.keys(session.structure.getState().thumbnails)).toHaveLength(2);
    expect(api.insights.likes).toHaveBeenCalledWith([ADA, BOB]);
    expect(api.insights.cart).toHaveBeenCalledTimes(1);
    expect(api.insights.cart).toHaveBeenCalledWith(ADA);
    expect(api.insights.collections).toHaveBeenCalledWith(ADA);
    session.stop();
    expect(sockets.last().closedByClient).toBe(true);
  });

  it('reloads a granted cart and the cart widgets once per attendeeCartChanged, and nothing for an attendee without a grant', async () => {
    session.start();
    const room = hub(sockets);
    room.welcome(guideWelcome());
    await flush();
    api.insights.cart.mockClear();
    room.send({ kind: 'attendeeCartChanged', attendeeId: ADA, lineItemCount: 1, totalPrice: 10 });
    await flush();
    expect(api.insights.cart).toHaveBeenCalledTimes(1);
    expect(api.widgets.cartStatistics).toHaveBeenCalledTimes(1);
    expect(api.widgets.attendeeInsights).toHaveBeenCalledTimes(1);
    expect(session.insights.getState().carts[ADA]?.status).toBe('ready');
    room.send({ kind: 'attendeeCartChanged', attendeeId: BOB, lineItemCount: 1, totalPrice: 10 });
    await flush();
    expect(api.insights.cart).toHaveBeenCalledTimes(1);
    // The hub tells guides every cart's size; only a grant lets the guide look inside.
    expect(session.insights.getState().carts[BOB]?.lineItemCount).toBe(1);
  });

  it('loads the saved products again when a guide changed them (savedProductsChanged), as the shop has them', async () => {
    session.start();
    const room = hub(sockets);
    room.welcome(guideWelcome());
    await flush();
    const product = { id: 'p1', name: 'Product 1', productNumber: 'SW-1', coverUrl: null };
    api.savedProducts.load = vi.fn().mockResolvedValue([{ productId: 'p1', note: 'From the other guide' }]);
    api.productsByIds = vi.fn().mockResolvedValue([product]);
    room.send({ kind: 'savedProductsChanged' });
    await flush();
    expect(api.savedProducts.load).toHaveBeenCalledTimes(1);
    expect(session.saved.getState().products).toEqual([{ ...product, note: 'From the other guide' }]);
  });

  it('edits an attendee’s cart through the shop only: the shop’s event tells the attendee, the session sends no hint', async () => {
    session.start();
    const room = hub(sockets);
    room.welcome(guideWelcome());
    await session.insights.getState().changeLine(ADA, 'line-1', 2);
    expect(api.insights.changeLine).toHaveBeenCalledWith(ADA, 'line-1', 2);
    expect(room.sent()).toEqual([]);
  });

  it('removes an attendee through the shop, and the hub’s event takes them off the list and out of the insights', async () => {
    session.start();
    const room = hub(sockets);
    room.welcome(guideWelcome());
    await flush();
    await session.removeAttendee(BOB);
    expect(api.removeAttendee).toHaveBeenCalledWith(BOB);
    expect(room.sent()).toEqual([]);
    room.send({ kind: 'attendeeRemoved', attendeeId: ADA });
    await flush();
    expect(session.live.snapshot?.stateForGuides?.clients[ADA]).toBeUndefined();
    expect(session.insights.getState().carts[ADA]).toBeUndefined();
    // Her closed socket, announced after the removal, does not bring her back to the list.
    room.send({ kind: 'attendeeChanged', attendee: makeAttendee(ADA, { connection: 'lost' }) });
    await flush();
    expect(session.removed.getState().ids).toEqual([ADA]);
    expect(participantsOf(session.live.snapshot?.stateForGuides, session.removed.getState().ids).map((a) => a.attendeeId)).toEqual([BOB]);
  });

  it('sends the controls as frames and settles with their events', async () => {
    session.start();
    const room = hub(sockets);
    room.welcome(guideWelcome());
    void session.switchSlide(slide(2)).catch(() => undefined);
    void session.setLocked(true).catch(() => undefined);
    void session.setViewMode('videoGrid').catch(() => undefined);
    void session.requestCartPermission(BOB).catch(() => undefined);
    expect(room.sent()).toEqual([
      { type: 'action', ref: 1, action: { key: 'switchSlide', payload: { pageId: PAGE, sectionId: slide(2).sectionId, slideAlias: 2 } } },
      { type: 'action', ref: 2, action: { key: 'setLocked', payload: { locked: true } } },
      { type: 'interaction', ref: 3, interaction: { name: 'viewMode.changed', payload: { mode: 'videoGrid' } } },
      { type: 'action', ref: 4, action: { key: 'requestCartPermission', payload: { attendeeId: BOB } } },
    ]);
  });

  it('sends the chat, its moderation, the polls and the questions as named commands', () => {
    session.start();
    const room = hub(sockets);
    room.welcome(guideWelcome());
    const settings = { closed: true, linksAllowed: false, slowModeSeconds: 10 };
    const poll = { question: 'Which colour?', answers: ['Red', 'Blue'], multiple: false, slide: null };
    for (const command of [
      session.sendChatMessage('Welcome'),
      session.announce('Ten percent off'),
      session.deleteChatMessage('m1'),
      session.pinChatMessage(null),
      session.timeOutChatAttendee(ADA, 5),
      session.banChatAttendee(BOB),
      session.setChatSettings(settings),
      session.setChatBlockedWords(['spam']),
      session.react('clap'),
      session.createPoll(poll),
      session.openPoll('p1'),
      session.closePoll('p1'),
      session.showPollResults('p1', true),
      session.markQuestion('q1', 'answering'),
      session.dismissQuestion('q1'),
    ]) {
      command.catch(() => undefined);
    }
    expect(room.sent().map((frame) => (frame.type === 'action' ? frame.action : frame.interaction))).toEqual([
      { key: 'sendChatMessage', payload: { text: 'Welcome' } },
      { key: 'sendChatMessage', payload: { text: 'Ten percent off' } },
      { key: 'deleteChatMessage', payload: { messageId: 'm1' } },
      { key: 'pinChatMessage', payload: { messageId: null } },
      { key: 'moderateChatAttendee', payload: { attendeeId: ADA, timeoutMinutes: 5, banned: false } },
      { key: 'moderateChatAttendee', payload: { attendeeId: BOB, timeoutMinutes: null, banned: true } },
      { key: 'setChatSettings', payload: { settings } },
      { key: 'setChatBlockedWords', payload: { words: ['spam'] } },
      { key: 'sendReaction', payload: { reaction: 'clap' } },
      { key: 'createPoll', payload: { poll } },
      { key: 'openPoll', payload: { pollId: 'p1' } },
      { key: 'closePoll', payload: { pollId: 'p1' } },
      { key: 'showPollResults', payload: { pollId: 'p1', shown: true } },
      { key: 'markQuestion', payload: { questionId: 'q1', status: 'answering' } },
      { key: 'dismissQuestion', payload: { questionId: 'q1' } },
    ]);
  });

  it('hands the hub’s reaction sums to its listeners until they unsubscribe', () => {
    session.start();
    hub(sockets).welcome(guideWelcome());
    const sums: number[] = [];
    const unsubscribe = session.onReactions((counts) => sums.push(counts.heart));
    const counts = { heart: 3, clap: 0, laugh: 0, wow: 0, fire: 0 };
    sockets.last().receive({ type: 'volatile', event: { kind: 'questionVotes', votes: {} } });
    sockets.last().receive({ type: 'volatile', event: { kind: 'reactions', counts } });
    unsubscribe();
    sockets.last().receive({ type: 'volatile', event: { kind: 'reactions', counts } });
    expect(sums).toEqual([3]);
  });

  it('reloads the structure after a listing hint, forgetting the changed page', async () => {
    session.start();
    const room = hub(sockets);
    room.welcome(guideWelcome());
    await flush();
    presentation.slides.mockResolvedValue([slide(1), slide(2), slide(3, { isInstantListing: true })]);
    presentation.slide.mockClear();
    room.send({ kind: 'reload', action: { key: 'loadSlide', payload: { pageId: PAGE, sectionId: slide(1).sectionId } } });
    await flush();
    expect(session.structure.getState().slides.map((s) => s.index)).toEqual([1, 2, 3]);
    // The page's slides were forgotten: all three load again.
    expect(presentation.slide).toHaveBeenCalledTimes(3);
  });

  it('publishes a new instant listing and switches to its slide once the structure has it', async () => {
    presentation.slides.mockResolvedValue([slide(1), slide(2, { isInstantListing: true }), slide(3, { isInstantListing: true, groupId: 'd'.repeat(32) })]);
    session = new GuideSession(
      new RealtimeClient({ url: 'ws://hub/ws', token: 't' }, { createSocket: sockets.factory, random: () => 0 }),
      presentation,
      api,
      [slide(1), slide(2, { isInstantListing: true })],
    );
    session.start();
    const room = hub(sockets);
    room.welcome(guideWelcome());
    session.listing.getState().startNew('New');
    session.listing.getState().add({ id: P1, name: 'Lamp' } as never);
    const published = session.listing.getState().publish();
    await flush();
    expect(api.createListing).toHaveBeenCalledWith(expect.objectContaining({ productIds: [P1], pageName: 'New', layout: { pageId: PAGE, slideId: slide(2).sectionId } }));
    const payload: unknown = expect.objectContaining({ slideAlias: 3 });
    expect(room.sent()).toContainEqual(expect.objectContaining({ action: { key: 'switchSlide', payload } }));
    room.send({ kind: 'slideSwitched', pageId: 'd'.repeat(32), sectionId: slide(3).sectionId, slideAlias: 3 });
    sockets.last().receive({ type: 'ack', ref: 1, seq: 1 });
    await expect(published).resolves.toBe(true);
  });

  it('deletes the listing on screen only after moving everyone to the slide before it', async () => {
    const LISTING = 'd'.repeat(32);
    const listing = slide(3, { isInstantListing: true, groupId: LISTING, groupName: 'Picks' });
    session = new GuideSession(
      new RealtimeClient({ url: 'ws://hub/ws', token: 't' }, { createSocket: sockets.factory, random: () => 0 }),
      presentation,
      api,
      [slide(1), slide(2), listing],
    );
    session.start();
    const room = hub(sockets);
    room.welcome(guideWelcome());
    room.send({ kind: 'slideSwitched', pageId: LISTING, sectionId: listing.sectionId, slideAlias: 3 });
    await flush();
    expect(session.currentSlide()?.groupId).toBe(LISTING);
    const deleted = session.deleteListing(listing);
    await flush();
    expect(room.sent()).toEqual([{ type: 'action', ref: 1, action: { key: 'switchSlide', payload: { pageId: PAGE, sectionId: slide(2).sectionId, slideAlias: 2 } } }]);
    expect(api.deleteListing).not.toHaveBeenCalled();
    room.send({ kind: 'slideSwitched', pageId: PAGE, sectionId: slide(2).sectionId, slideAlias: 2 });
    sockets.last().receive({ type: 'ack', ref: 1, seq: 2 });
    await deleted;
    expect(api.deleteListing).toHaveBeenCalledWith(LISTING);
    expect(session.structure.getState().slides.map((s) => s.groupId)).not.toContain(LISTING);
    // Only instant listings are deleted.
    await expect(session.deleteListing(slide(1))).rejects.toThrow();
    expect(api.deleteListing).toHaveBeenCalledTimes(1);
  });
});
