import { describe, expect, it } from 'vitest';
import { createRecentlyViewedStore, RECENTLY_VIEWED_MAX } from './recently-viewed';

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
    clear: () => map.clear(),
    key: () => null,
    get length() {
      return map.size;
    },
  };
}

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
