import { describe, expect, it, vi } from 'vitest';
import { canPublish, createInstantListingStore, isDirty, type InstantListingApi } from './instant-listing';

const product = (id: string, name = id) => ({ id, name, productNumber: `SR-${id}`, coverUrl: null });

function setUp(api: Partial<InstantListingApi> = {}) {
  const calls = { create: vi.fn(async () => 3), update: vi.fn(async () => undefined), ...api };
  return { store: createInstantListingStore(calls), calls };
}

describe('instant listing store', () => {
  it('composes a new listing and publishes it by creating', async () => {
    const { store, calls } = setUp();
    store.getState().startNew('Picked for Ada');
    expect(canPublish(store.getState())).toBe(false);
    store.getState().add(product('a'));
    store.getState().add(product('b'));
    store.getState().add(product('a'));
    expect(store.getState().draft?.products.map((p) => p.id)).toEqual(['a', 'b']);
    expect(await store.getState().publish()).toBe(true);
    expect(calls.create).toHaveBeenCalledWith({ groupId: null, name: 'Picked for Ada', products: [product('a'), product('b')] });
    expect(store.getState().draft).toBeNull();
  });

  it('edits a published listing: sort, move, remove; only a change can be published, as an update', async () => {
    const { store, calls } = setUp();
    store.getState().edit('g1', 'Listing', [product('a', 'Zebra'), product('b', 'Apple'), product('c', 'Mango')]);
    expect(canPublish(store.getState())).toBe(false);
    store.getState().sortByName('asc');
    expect(store.getState().draft?.products.map((p) => p.id)).toEqual(['b', 'c', 'a']);
    store.getState().move('a', -1);
    store.getState().move('b', -1);
    expect(store.getState().draft?.products.map((p) => p.id)).toEqual(['b', 'a', 'c']);
    store.getState().remove('c');
    expect(isDirty(store.getState())).toBe(true);
    await store.getState().publish();
    expect(calls.update).toHaveBeenCalledWith({ groupId: 'g1', name: 'Listing', products: [product('b', 'Apple'), product('a', 'Zebra')] });
  });

  it('discards changes back to what was opened, and cannot publish an empty listing', async () => {
    const { store, calls } = setUp();
    store.getState().edit('g1', 'Listing', [product('a')]);
    store.getState().rename('Other');
    store.getState().removeAll();
    expect(canPublish(store.getState())).toBe(false);
    expect(await store.getState().publish()).toBe(false);
    store.getState().discard();
    expect(store.getState().draft).toEqual({ groupId: 'g1', name: 'Listing', products: [product('a')] });
    expect(isDirty(store.getState())).toBe(false);
    expect(calls.update).not.toHaveBeenCalled();
  });

  it('keeps the draft when publishing fails', async () => {
    const { store } = setUp({ create: vi.fn(async () => Promise.reject(new Error('down'))) });
    store.getState().startNew('New');
    store.getState().add(product('a'));
    expect(await store.getState().publish()).toBe(false);
    expect(store.getState().status).toBe('failed');
    expect(store.getState().draft?.products).toHaveLength(1);
  });
});
