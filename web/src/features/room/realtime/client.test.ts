import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CloseCode, type Event, type ServerFrame, type Snapshot } from '@/protocol/generated';
import { fakeSockets, type FakeSocket } from './fake-socket';
import { makeAttendee, makeSnapshot } from '@/testing/snapshot';
import { RealtimeClient, RealtimeError } from './client';

const PAGE = 'a'.repeat(32);
const SECTION = 'b'.repeat(32);
const HEARTBEAT_MS = 1_000;

function slide(slideAlias: number): Event {
  return { kind: 'slideSwitched', pageId: PAGE, sectionId: SECTION, slideAlias };
}

function welcome(fields: Partial<Extract<ServerFrame, { type: 'welcome' }>> = {}): ServerFrame {
  return {
    type: 'welcome',
    appointmentId: 'f'.repeat(32),
    attendeeId: 'e'.repeat(32),
    role: 'CLIENT',
    seq: 0,
    epoch: 'epoch-1',
    resume: 'fresh',
    snapshot: makeSnapshot(),
    heartbeatMs: HEARTBEAT_MS,
    ...fields,
  };
}

describe('RealtimeClient', () => {
  let sockets: ReturnType<typeof fakeSockets>;
  let client: RealtimeClient;

  const state = () => client.store.getState();
  const alias = () => state().snapshot?.stateForAll.currentSlideAlias;

  /** Opens the current socket and welcomes it. */
  function connect(frame = welcome()): FakeSocket {
    const socket = sockets.last();
    socket.open();
    socket.receive(frame);
    return socket;
  }

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = fakeSockets();
    client = new RealtimeClient(
      { url: 'ws://hub.test/ws', token: 'eyJh.eyJz.c2ln-_' },
      { createSocket: sockets.factory, random: () => 0 },
    );
    client.start();
  });

  afterEach(() => {
    client.stop();
    vi.useRealTimers();
  });

  it('connects offering the codec and the token as subprotocols (no token in the URL) and says hello first', () => {
    const socket = sockets.last();
    expect(socket.url).toBe('ws://hub.test/ws');
    expect(socket.protocols).toEqual(['salesroom.v1.json', 'bearer.eyJh.eyJz.c2ln-_']);
    expect(state().connection).toBe('connecting');
    socket.open();
    expect(socket.sent).toEqual([{ type: 'hello', lastSeq: null, epoch: null }]);
  });

  it('takes the welcome snapshot as its state', () => {
    const snapshot = makeSnapshot({ currentSlideAlias: 4 });
    connect(welcome({ seq: 7, snapshot, role: 'GUIDE' }));
    expect(state()).toEqual({ connection: 'connected', role: 'GUIDE', attendeeId: 'e'.repeat(32), snapshot, video: null, cartPermission: 'missing', closedFor: null });
  });

  it('applies events in order and drops duplicates', () => {
    const socket = connect(welcome({ seq: 3 }));
    socket.receive({ type: 'event', seq: 4, prev: 3, event: slide(1) });
    // Events for other audiences are skipped: prev links to the last one we got.
    socket.receive({ type: 'event', seq: 6, prev: 4, event: slide(2) });
    expect(alias()).toBe(2);
    socket.receive({ type: 'event', seq: 6, prev: 4, event: slide(9) });
    socket.receive({ type: 'event', seq: 4, prev: 3, event: slide(9) });
    expect(alias()).toBe(2);
    expect(socket.closedByClient).toBe(false);
  });

  it('tells event listeners each applied event once, in order, until they unsubscribe', () => {
    const seen: Event[] = [];
    const unsubscribe = client.onEvent((event) => {
      expect(alias()).toBe(event.kind === 'slideSwitched' ? event.slideAlias : alias());
      seen.push(event);
    });
    client.onEvent(() => {
      throw new Error('a broken listener does not stop the others');
    });
    const socket = connect(welcome({ seq: 3 }));
    const liked: Event = { kind: 'attendeeCollectionChanged', attendeeId: 'e'.repeat(32), collection: 'liked', productId: PAGE, added: true };
    socket.receive({ type: 'event', seq: 4, prev: 3, event: slide(1) });
    socket.receive({ type: 'event', seq: 5, prev: 4, event: liked });
    socket.receive({ type: 'event', seq: 5, prev: 4, event: liked });
    expect(seen).toEqual([slide(1), liked]);
    unsubscribe();
    socket.receive({ type: 'event', seq: 6, prev: 5, event: slide(2) });
    expect(seen).toHaveLength(2);
  });

  it('resumes from the last applied event after a gap', () => {
    const first = connect(welcome({ seq: 3 }));
    first.receive({ type: 'event', seq: 4, prev: 3, event: slide(1) });
    first.receive({ type: 'event', seq: 6, prev: 5, event: slide(3) });

    expect(first.closedByClient).toBe(true);
    expect(alias()).toBe(1);
    expect(state().connection).toBe('reconnecting');
    vi.advanceTimersByTime(125);

    const second = sockets.last();
    expect(second).not.toBe(first);
    second.open();
    expect(second.sent).toEqual([{ type: 'hello', lastSeq: 4, epoch: 'epoch-1' }]);
    second.receive(welcome({ seq: 6, resume: 'replayed', snapshot: undefined }));
    expect(state().connection).toBe('reconnected');
    second.receive({ type: 'event', seq: 5, prev: 4, event: slide(2) });
    expect(alias()).toBe(2);
    second.receive({ type: 'event', seq: 6, prev: 5, event: slide(3) });
    expect(alias()).toBe(3);
  });

  it('ignores frames from a socket it has given up', () => {
    const first = connect(welcome({ seq: 1 }));
    first.drop();
    first.receive({ type: 'event', seq: 2, prev: 1, event: slide(5) });
    expect(alias()).toBe(0);
  });

  it('replaces its state when the hub resumes with a snapshot', () => {
    const first = connect(welcome({ seq: 2 }));
    first.drop(CloseCode.GOING_AWAY);
    vi.advanceTimersByTime(125);
    const replacement: Snapshot = makeSnapshot({ currentSlideAlias: 5, locked: true });
    const second = connect(welcome({ seq: 40, epoch: 'epoch-2', resume: 'snapshot', snapshot: replacement }));
    expect(state().snapshot).toEqual(replacement);
    second.receive({ type: 'event', seq: 41, prev: 40, event: slide(6) });
    expect(alias()).toBe(6);
  });

  it('answers pings and pings the hub every heartbeat', () => {
    const socket = connect();
    socket.receive({ type: 'ping', nonce: 42 });
    expect(socket.sent.at(-1)).toEqual({ type: 'pong', nonce: 42 });
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(socket.sent.at(-1)).toEqual({ type: 'ping', nonce: 1 });
    socket.receive({ type: 'pong', nonce: 1 });
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(socket.sent.at(-1)).toEqual({ type: 'ping', nonce: 2 });
    expect(socket.closedByClient).toBe(false);
  });

  it('treats a hub silent for two heartbeats as dead and reconnects', () => {
    const socket = connect();
    vi.advanceTimersByTime(2 * HEARTBEAT_MS - 1);
    expect(socket.closedByClient).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.closedByClient).toBe(true);
    expect(state().connection).toBe('reconnecting');
    vi.advanceTimersByTime(125);
    expect(sockets.sockets).toHaveLength(2);
  });

  it('backs off exponentially and reports the connection lost after several failures', () => {
    // With random() = 0 each delay is half its step: 250, 500, 1000, 2000, 4000, then the 5000 ms cap.
    const delays = [125, 250, 500, 1000, 2000, 2500, 2500, 2500];
    for (const [attempt, delay] of delays.entries()) {
      sockets.last().drop();
      expect(state().connection).toBe(attempt + 1 >= 5 ? 'lost' : 'connecting');
      vi.advanceTimersByTime(delay - 1);
      expect(sockets.sockets).toHaveLength(attempt + 1);
      vi.advanceTimersByTime(1);
      expect(sockets.sockets).toHaveLength(attempt + 2);
    }
    connect();
    expect(state().connection).toBe('connected');
  });

  it('gives up on a socket that is never welcomed', () => {
    sockets.last().open();
    vi.advanceTimersByTime(10_000);
    expect(sockets.last().closedByClient).toBe(true);
    vi.advanceTimersByTime(125);
    expect(sockets.sockets).toHaveLength(2);
  });

  it('starts over quickly after a connection that had been welcomed', () => {
    connect();
    sockets.last().drop();
    vi.advanceTimersByTime(125);
    connect(welcome({ resume: 'replayed', snapshot: undefined }));
    expect(state().connection).toBe('reconnected');
  });

  it('resumes at once, without backing off, when the hub drains (4013)', () => {
    const first = connect(welcome({ seq: 3 }));
    first.receive({ type: 'event', seq: 4, prev: 3, event: slide(1) });
    first.drop(CloseCode.DRAINING);
    expect(state().connection).toBe('reconnecting');
    vi.advanceTimersByTime(0);
    const second = sockets.last();
    expect(second).not.toBe(first);
    second.open();
    expect(second.sent).toEqual([{ type: 'hello', lastSeq: 4, epoch: 'epoch-1' }]);
    second.receive(welcome({ seq: 4, resume: 'replayed', snapshot: undefined }));
    second.receive({ type: 'event', seq: 5, prev: 4, event: slide(2) });
    expect(state().connection).toBe('reconnected');
    expect(alias()).toBe(2);
  });

  it.each([
    [CloseCode.REPLACED, 'replaced'],
    [CloseCode.REMOVED, 'removed'],
    [CloseCode.LOCKED, 'locked'],
  ] as const)('stays away after close code %i', (code, why) => {
    connect();
    sockets.last().drop(code);
    expect(state().connection).toBe('lost');
    expect(state().closedFor).toBe(why);
    vi.advanceTimersByTime(60_000);
    expect(sockets.sockets).toHaveLength(1);
  });

  describe('sendAction', () => {
    const switchSlide = { key: 'switchSlide', payload: { pageId: PAGE, sectionId: SECTION, slideAlias: 2 } } as const;

    it('resolves once the acknowledged event has been applied', async () => {
      const socket = connect(welcome({ seq: 10 }));
      const done = vi.fn();
      void client.sendAction(switchSlide).then(done);
      expect(socket.sent.at(-1)).toEqual({ type: 'action', ref: 1, action: switchSlide });

      socket.receive({ type: 'ack', ref: 1, seq: 11 });
      await Promise.resolve();
      expect(done).not.toHaveBeenCalled();

      socket.receive({ type: 'event', seq: 11, prev: 10, event: slide(2) });
      await vi.waitFor(() => expect(done).toHaveBeenCalledWith(11));
      expect(alias()).toBe(2);
    });

    it('resolves at once when the event came before the ack or there is none', async () => {
      const socket = connect(welcome({ seq: 10 }));
      const first = client.sendAction(switchSlide);
      const second = client.sendAction({ key: 'loadProductReviews', payload: { productId: PAGE } });
      socket.receive({ type: 'event', seq: 11, prev: 10, event: slide(2) });
      socket.receive({ type: 'ack', ref: 1, seq: 11 });
      socket.receive({ type: 'ack', ref: 2, seq: null });
      await expect(first).resolves.toBe(11);
      await expect(second).resolves.toBeNull();
    });

    it('rejects with the hub error', async () => {
      const socket = connect();
      const result = client.sendAction(switchSlide);
      socket.receive({ type: 'error', ref: 1, code: 'FORBIDDEN', message: 'only a guide may send switchSlide' });
      await expect(result).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'only a guide may send switchSlide' });
    });

    it('rejects when not connected or when the connection drops first', async () => {
      await expect(client.sendAction(switchSlide)).rejects.toBeInstanceOf(RealtimeError);
      const socket = connect();
      const result = client.sendAction(switchSlide);
      socket.drop();
      await expect(result).rejects.toMatchObject({ code: 'DISCONNECTED' });
    });
  });

  it('sends interactions as interaction frames and settles them like actions', async () => {
    const socket = connect();
    const result = client.sendInteraction({ name: 'product.viewed', payload: { productId: 'c'.repeat(32) } });
    expect(socket.sent.at(-1)).toEqual({
      type: 'interaction',
      ref: 1,
      interaction: { name: 'product.viewed', payload: { productId: 'c'.repeat(32) } },
    });
    socket.receive({ type: 'event', seq: 1, prev: 0, event: { kind: 'guideProductChanged', productId: 'c'.repeat(32) } });
    socket.receive({ type: 'ack', ref: 1, seq: 1 });
    await expect(result).resolves.toBe(1);
    expect(state().snapshot?.stateForAll.currentGuideProductId).toBe('c'.repeat(32));
  });

  it('keeps the latest video grant and none without one', () => {
    const socket = connect();
    expect(state().video).toBeNull();
    socket.receive({ type: 'videoToken', url: 'wss://video.test', token: 'jwt-1', canPublish: true });
    socket.receive({ type: 'videoToken', url: 'wss://video.test', token: 'jwt-2', canPublish: false });
    expect(state().video).toEqual({ url: 'wss://video.test', token: 'jwt-2', canPublish: false });
  });

  it("follows its own cart permission and ignores other attendees'", () => {
    const socket = connect();
    const own = 'e'.repeat(32);
    socket.receive({ type: 'event', seq: 1, prev: 0, event: { kind: 'cartPermissionChanged', attendeeId: 'd'.repeat(32), permission: 'requested' } });
    expect(state().cartPermission).toBe('missing');
    socket.receive({ type: 'event', seq: 2, prev: 1, event: { kind: 'cartPermissionChanged', attendeeId: own, permission: 'requested' } });
    expect(state().cartPermission).toBe('requested');
    socket.receive({ type: 'event', seq: 3, prev: 2, event: { kind: 'cartPermissionChanged', attendeeId: own, permission: 'granted' } });
    expect(state().cartPermission).toBe('granted');
  });

  it('takes its own cart permission from the welcome, refused apart from never asked', () => {
    const refused = makeSnapshot();
    refused.stateForClients = { ...refused.stateForClients, cartPermission: 'refused' };
    const socket = connect(welcome({ snapshot: refused }));
    expect(state().cartPermission).toBe('refused');
    socket.receive({ type: 'event', seq: 1, prev: 0, event: { kind: 'cartPermissionChanged', attendeeId: 'e'.repeat(32), permission: 'requested' } });
    expect(state().cartPermission).toBe('requested');
    expect(state().snapshot?.stateForClients.cartPermission).toBe('requested');
  });

  it("completes a large room's participants from the pages after the welcome, then applies events", () => {
    const first = makeAttendee('1'.repeat(32));
    const second = makeAttendee('2'.repeat(32), { connection: 'lost' });
    const guide = makeAttendee('3'.repeat(32), { role: 'GUIDE' });
    const socket = connect(welcome({ role: 'GUIDE', seq: 5, snapshot: makeSnapshot({}, { clients: { [first.attendeeId]: first } }), participantPages: 2 }));
    socket.receive({ type: 'participants', page: 1, pages: 2, participants: [second] });
    socket.receive({ type: 'participants', page: 2, pages: 2, participants: [guide] });
    socket.receive({ type: 'event', seq: 6, prev: 5, event: { kind: 'attendeeChanged', attendee: { ...second, connection: 'reconnected' } } });
    const guides = state().snapshot?.stateForGuides;
    expect(Object.keys(guides?.clients ?? {}).sort()).toEqual([first.attendeeId, second.attendeeId]);
    expect(guides?.inactiveClients).toEqual({});
    expect(Object.keys(guides?.guides ?? {})).toEqual([guide.attendeeId]);
  });

  it('stops for good', () => {
    const socket = connect();
    client.stop();
    expect(socket.closedByClient).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(sockets.sockets).toHaveLength(1);
  });
});
