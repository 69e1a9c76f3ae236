import { describe, expect, it, vi } from 'vitest';
import type { Event } from '@/protocol/generated';
import type { Widgets } from '../api/room-admin';
import { createWidgetsStore, widgetsChangedBy } from './widgets';

const cart = (total: number) => ({ price: { totalPrice: total }, lineItems: [] }) as never;

function api(): Widgets & Record<keyof Widgets, ReturnType<typeof vi.fn>> {
  let total = 0;
  return {
    cartStatistics: vi.fn(async () => cart((total += 10))),
    attendeeInsights: vi.fn(async () => ({ attendees: {} })),
    wishlist: vi.fn(async () => ({ products: [], total: 0 })),
    lastSeen: vi.fn(async () => ({ products: [], total: 0 })),
  };
}

describe('widgets store', () => {
  it('loads every widget', async () => {
    const calls = api();
    const store = createWidgetsStore(calls);
    await store.getState().load();
    expect(store.getState().cart).toEqual(cart(10));
    expect(store.getState().insights).toEqual({ attendees: {} });
    expect(calls.wishlist).toHaveBeenCalledTimes(1);
    expect(calls.lastSeen).toHaveBeenCalledTimes(1);
  });

  it('reloads what a live event changes, and nothing else', () => {
    const cartChanged: Event = { kind: 'attendeeCartChanged', attendeeId: 'a', lineItemCount: 1, totalPrice: 10 };
    expect(widgetsChangedBy(cartChanged)).toEqual(['cart', 'insights']);
    expect(widgetsChangedBy({ kind: 'attendeeCollectionChanged', attendeeId: 'a', collection: 'wishlist', productId: 'p', added: true })).toEqual(['wishlist']);
    expect(widgetsChangedBy({ kind: 'attendeeCollectionChanged', attendeeId: 'a', collection: 'liked', productId: 'p', added: true })).toEqual(['wishlist']);
    expect(widgetsChangedBy({ kind: 'attendeeCollectionChanged', attendeeId: 'a', collection: 'disliked', productId: 'p', added: true })).toEqual([]);
    expect(widgetsChangedBy({ kind: 'lockChanged', locked: true })).toEqual([]);
  });

  it('loads once more when a change comes in while loading, and records a failure', async () => {
    const calls = api();
    const store = createWidgetsStore(calls);
    const first = store.getState().load(['cart']);
    store.getState().applyEvent({ kind: 'attendeeCartChanged', attendeeId: 'a', lineItemCount: 1, totalPrice: 10 });
    await first;
    await vi.waitFor(() => expect(store.getState().cart).toEqual(cart(20)));
    expect(calls.cartStatistics).toHaveBeenCalledTimes(2);
    calls.lastSeen.mockRejectedValueOnce(new Error('down'));
    await store.getState().load(['lastSeen']);
    expect(store.getState().failed).toEqual(['lastSeen']);
  });
});
