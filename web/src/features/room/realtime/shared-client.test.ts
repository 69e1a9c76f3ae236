import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSharedClients, SHARED_CLIENT_GRACE_MS } from './shared-client';

const hub = { url: 'ws://hub/ws', token: 'token-1' };

function setup() {
  const created: { start: ReturnType<typeof vi.fn>; stop: ReturnType<typeof vi.fn> }[] = [];
  const clients = createSharedClients(() => {
    const client = { start: vi.fn(), stop: vi.fn() };
    created.push(client);
    return client;
  });
  return { clients, created };
}

describe('shared realtime clients', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps one connection while the session moves from one screen to the next', () => {
    const { clients, created } = setup();
    const waiting = clients.client(hub);
    const releaseWaiting = clients.retain(hub);
    releaseWaiting();
    vi.advanceTimersByTime(SHARED_CLIENT_GRACE_MS - 1);
    expect(clients.client(hub)).toBe(waiting);
    const releaseRoom = clients.retain(hub);
    vi.advanceTimersByTime(SHARED_CLIENT_GRACE_MS * 2);
    expect(created).toHaveLength(1);
    expect(waiting.start).toHaveBeenCalledTimes(1);
    expect(waiting.stop).not.toHaveBeenCalled();
    releaseRoom();
  });

  it('disconnects once no screen has used it for the grace period, and a later use gets a new client', () => {
    const { clients, created } = setup();
    const release = clients.retain(hub);
    release();
    vi.advanceTimersByTime(SHARED_CLIENT_GRACE_MS);
    expect(created[0]!.stop).toHaveBeenCalledTimes(1);
    clients.retain(hub);
    expect(created).toHaveLength(2);
    expect(created[1]!.start).toHaveBeenCalledTimes(1);
  });

  it('gives another session its own client', () => {
    const { clients } = setup();
    expect(clients.client({ ...hub, token: 'token-2' })).not.toBe(clients.client(hub));
  });
});
