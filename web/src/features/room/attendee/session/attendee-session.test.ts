import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { Cart } from '@/lib/shop/cart';
import { makeSnapshot } from '@/testing/snapshot';
import { RealtimeClient } from '../../realtime/client';
import { fakeSockets } from '../../realtime/fake-socket';
import { ADA, BOB, flush, fakePresentation, hub, P1, slide, welcome } from '../../session/testing';
import type { CollectionsApi } from '../api/collections';
import { AttendeeSession, type AttendeeApi } from './attendee-session';

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

  it('votes in polls, asks and up-votes questions, chats and reacts as named commands, and answers the guide', () => {
    session.start();
    const room = hub(sockets);
    room.welcome(clientWelcome());
    for (const command of [
      session.votePoll('p1', ['a', 'b']),
      session.askQuestion('Does it come in blue?'),
      session.voteQuestion('q1', false),
      session.sendChatMessage('Hello'),
      session.react('heart'),
      session.answers.getState().answerCartRequest(false),
    ]) {
      command.catch(() => undefined);
    }
    expect(room.sent().map((frame) => (frame.type === 'action' ? frame.action : frame.interaction))).toEqual([
      { key: 'votePoll', payload: { pollId: 'p1', answerIds: ['a', 'b'] } },
      { key: 'askQuestion', payload: { text: 'Does it come in blue?' } },
      { key: 'voteQuestion', payload: { questionId: 'q1', voted: false } },
      { key: 'sendChatMessage', payload: { text: 'Hello' } },
      { key: 'sendReaction', payload: { reaction: 'heart' } },
      { key: 'setCartPermission', payload: { granted: false } },
    ]);
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
