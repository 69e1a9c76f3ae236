import { participantsOf } from '../guide/stores/cockpit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { Cart } from '@/lib/shop/cart';
import type { Event, ServerFrame, Snapshot } from '@/protocol/generated';
import { makeAttendee, makeSnapshot } from '@/testing/snapshot';
import type { Slide } from '../api/presentation';
import type { CollectionsApi } from '../attendee/api/collections';
import type { Widgets } from '../guide/api/room-admin';
import type { InsightsApi } from '../guide/stores/insights';
import { RealtimeClient } from '../realtime/client';
import { fakeSockets, type FakeSocket } from '../realtime/fake-socket';
import { AttendeeSession, GuideSession, type AttendeeApi, type GuideApi, type PresentationApi } from './room-session';
import type { SlideData } from './slide-cache';

const APPOINTMENT = 'f'.repeat(32);
const ADA = 'a'.repeat(32);
const BOB = 'b'.repeat(32);
const PAGE = 'c'.repeat(32);
const P1 = '1'.repeat(32);

const slide = (index: number, fields: Partial<Slide> = {}): Slide => ({
  cmsPageId: PAGE,
  groupId: PAGE,
  groupName: 'Page',
  sectionId: String(index).repeat(32).slice(0, 32),
  sectionName: null,
  index,
  notes: [],
  ...fields,
});

function welcome(role: 'GUIDE' | 'CLIENT', snapshot: Snapshot, attendeeId = 'e'.repeat(32)): ServerFrame {
  return { type: 'welcome', appointmentId: APPOINTMENT, attendeeId, role, seq: 0, epoch: 'e1', resume: 'fresh', snapshot, heartbeatMs: 60_000 };
}

/** The hub's side of one session's sockets: welcome, then events in order. */
function hub(sockets: ReturnType<typeof fakeSockets>) {
  let seq = 0;
  return {
    welcome(frame: ServerFrame): FakeSocket {
      const socket = sockets.last();
      socket.open();
      socket.receive(frame);
      seq = frame.type === 'welcome' ? frame.seq : seq;
      return socket;
    },
    send(event: Event) {
      sockets.last().receive({ type: 'event', seq: seq + 1, prev: seq, event });
      seq += 1;
    },
    /** The frames the client sent besides hello, ping and pong. */
    sent: () => sockets.sockets.flatMap((socket) => socket.sent).filter((frame) => frame.type === 'action' || frame.type === 'interaction'),
  };
}

function fakePresentation(slides: Slide[]) {
  return {
    slides: vi.fn<PresentationApi['slides']>().mockResolvedValue(slides),
    slide: vi.fn<PresentationApi['slide']>().mockImplementation(async ({ sectionId }) => ({ cmsSection: { id: sectionId } }) as SlideData),
  };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

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

function cartOf(lines: number, total: number): Cart {
  return {
    lineItems: Array.from({ length: lines }, (_, index) => ({ id: `l${index}`, type: 'product', quantity: 1 })),
    price: { totalPrice: total },
  } as unknown as Cart;
}

/** The parts of the app's cart store the session uses, with the shop's answers set by the test. */
function fakeCart() {
  let next = cartOf(0, 0);
  let release: (() => void) | null = null;
  const store = createStore<{
    cart: Cart | null;
    refresh: ReturnType<typeof vi.fn>;
    addProduct: ReturnType<typeof vi.fn>;
    changeQuantity: ReturnType<typeof vi.fn>;
    remove: ReturnType<typeof vi.fn>;
    consumeErrors: () => never[];
  }>()((set) => ({
    cart: null,
    refresh: vi.fn(async () => set({ cart: next })),
    addProduct: vi.fn(async () => {
      // Held until the test lets the shop answer.
      await new Promise<void>((resolve) => (release = resolve));
      set({ cart: next });
    }),
    changeQuantity: vi.fn(async () => set({ cart: next })),
    remove: vi.fn(async () => set({ cart: next })),
    consumeErrors: () => [],
  }));
  return {
    store,
    answer(cart: Cart) {
      next = cart;
    },
    release: () => release?.(),
  };
}

describe('AttendeeSession', () => {
  let sockets: ReturnType<typeof fakeSockets>;
  let session: AttendeeSession;
  let cart: ReturnType<typeof fakeCart>;
  let collections: Record<keyof CollectionsApi, ReturnType<typeof vi.fn>>;
  let presentation: ReturnType<typeof fakePresentation>;
  let grant: boolean;

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = fakeSockets();
    cart = fakeCart();
    grant = false;
    collections = {
      liked: vi.fn().mockResolvedValue([]),
      lastSeen: vi.fn().mockResolvedValue([]),
      like: vi.fn().mockResolvedValue(undefined),
      unlike: vi.fn().mockResolvedValue(undefined),
      viewed: vi.fn().mockResolvedValue(undefined),
    };
    presentation = fakePresentation([slide(1), slide(2), slide(3)]);
    const api: AttendeeApi = {
      collections: collections as unknown as CollectionsApi,
      cart: cart.store as unknown as AttendeeApi['cart'],
      takeCartGrant: () => {
        const taken = grant;
        grant = false;
        return taken;
      },
    };
    session = new AttendeeSession(new RealtimeClient({ url: 'ws://hub/ws', token: 't' }, { createSocket: sockets.factory, random: () => 0 }), presentation, api);
  });

  afterEach(() => {
    session.stop();
    vi.useRealTimers();
  });

  const clientWelcome = (all = {}) => welcome('CLIENT', makeSnapshot({ started: true, ...all }), ADA);

  it('sends the join-time cart grant once the socket is up, and only once', async () => {
    grant = true;
    session.start();
    const room = hub(sockets);
    room.welcome(clientWelcome());
    expect(room.sent()).toEqual([{ type: 'action', ref: 1, action: { key: 'setCartPermission', payload: { granted: true } } }]);
    sockets.last().receive({ type: 'ack', ref: 1, seq: null });
    sockets.last().drop();
    await vi.advanceTimersByTimeAsync(1_000);
    room.welcome(clientWelcome());
    expect(room.sent()).toHaveLength(1);
  });

  it('loads the room’s collections, cart and structure while the room shows, again after a reconnect, and the slides around the current one', async () => {
    session.start();
    const room = hub(sockets);
    room.welcome(clientWelcome({ currentSlideAlias: 1, currentGuideProductId: P1 }));
    expect(collections.liked).not.toHaveBeenCalled();
    const leave = session.enterRoom();
    await flush();
    expect(collections.liked).toHaveBeenCalledTimes(1);
    expect(cart.store.getState().refresh).toHaveBeenCalledTimes(1);
    expect(presentation.slides).toHaveBeenCalledTimes(1);
    // The highlighted product counts as seen; slides 2 and 3 load ahead.
    expect(collections.viewed).toHaveBeenCalledWith(P1);
    expect(presentation.slide.mock.calls.map(([key]) => key.sectionId)).toEqual([slide(2).sectionId, slide(3).sectionId]);
    sockets.last().drop();
    await vi.advanceTimersByTimeAsync(1_000);
    room.welcome(clientWelcome());
    await flush();
    expect(collections.liked).toHaveBeenCalledTimes(2);
    expect(cart.store.getState().refresh).toHaveBeenCalledTimes(2);
    leave();
  });

  it('reloads its cart on the shop’s attendeeCartChanged only when the cart at hand differs', async () => {
    session.start();
    const room = hub(sockets);
    room.welcome(clientWelcome());
    session.enterRoom();
    await flush();
    const { refresh } = cart.store.getState();
    refresh.mockClear();

    // The guide changed the cart (or another tab did): reload.
    cart.answer(cartOf(1, 20));
    room.send({ kind: 'attendeeCartChanged', attendeeId: ADA, lineItemCount: 1, totalPrice: 20 });
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);

    // The same cart again, or another attendee's: nothing to load.
    room.send({ kind: 'attendeeCartChanged', attendeeId: ADA, lineItemCount: 1, totalPrice: 20 });
    room.send({ kind: 'attendeeCartChanged', attendeeId: BOB, lineItemCount: 4, totalPrice: 80 });
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('adds to the cart without a hint of its own, and the shop’s event told during the add costs no fetch', async () => {
    session.start();
    const room = hub(sockets);
    room.welcome(clientWelcome());
    session.enterRoom();
    await flush();
    const { refresh, addProduct } = cart.store.getState();
    refresh.mockClear();

    cart.answer(cartOf(1, 20));
    const added = session.addToCart(P1, 1);
    // The shop's event comes before the add's own answer.
    room.send({ kind: 'attendeeCartChanged', attendeeId: ADA, lineItemCount: 1, totalPrice: 20 });
    await flush();
    expect(refresh).not.toHaveBeenCalled();
    cart.release();
    await added;
    expect(addProduct).toHaveBeenCalledWith(P1, 1);
    expect(refresh).not.toHaveBeenCalled();
    expect(room.sent()).toEqual([]);
  });

  it('follows the hub’s collection events and reload hints about itself, and ignores those about others', async () => {
    session.start();
    const room = hub(sockets);
    room.welcome(clientWelcome());
    session.enterRoom();
    await flush();
    collections.liked.mockClear();
    const { refresh } = cart.store.getState();
    refresh.mockClear();
    room.send({ kind: 'attendeeCollectionChanged', attendeeId: ADA, collection: 'liked', productId: P1, added: true });
    room.send({ kind: 'attendeeCollectionChanged', attendeeId: BOB, collection: 'liked', productId: '2'.repeat(32), added: true });
    expect(session.collections.getState().liked).toEqual([P1]);
    room.send({ kind: 'reload', action: { key: 'updateProductQuantity', payload: { attendeeId: ADA, lineItemId: 'l1', quantity: 2 } } });
    room.send({ kind: 'reload', action: { key: 'loadLikeList', payload: { attendeeId: BOB } } });
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(collections.liked).not.toHaveBeenCalled();
  });
});
