import { describe, expect, it } from 'vitest';
import { createRecentlyViewedStore, RECENTLY_VIEWED_MAX } from './recently-viewed';
import { memoryStorage } from '@/testing/memory-storage';

describe('recently viewed', () => {
  it('keeps the newest first, without duplicates, at most 12, across reloads', () => {
    const storage = memoryStorage();
    const store = createRecentlyViewedStore(storage);
    for (let index = 0; index < 15; index += 1) store.getState().add(`p${index}`);
    store.getState().add('p10');
    const ids = store.getState().ids;
    expect(ids[0]).toBe('p10');
    expect(ids).toHaveLength(RECENTLY_VIEWED_MAX);
    expect(new Set(ids).size).toBe(ids.length);
    expect(createRecentlyViewedStore(storage).getState().ids).toEqual(ids);
  });
});
