import { describe, expect, it } from 'vitest';
import { createLocalWishlist } from './wishlist';
import { memoryStorage } from '@/testing/memory-storage';

describe('local wishlist', () => {
  it('adds an id only once, removes and clears, and keeps the list in storage', () => {
    const storage = memoryStorage();
    const store = createLocalWishlist(storage);
    store.getState().add('a');
    store.getState().add('a');
    store.getState().add('b');
    expect(store.getState().ids).toEqual(['a', 'b']);
    expect(createLocalWishlist(storage).getState().ids).toEqual(['a', 'b']);
    store.getState().remove('a');
    expect(store.getState().ids).toEqual(['b']);
    store.getState().toggle('b');
    store.getState().toggle('c');
    expect(store.getState().ids).toEqual(['c']);
    store.getState().clear();
    expect(createLocalWishlist(storage).getState().ids).toEqual([]);
  });
});
