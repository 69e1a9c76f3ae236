import { describe, expect, it } from 'vitest';
import { createReactionsStore, MAX_FLOATERS, MAX_FLOATERS_PER_SUM } from './reactions-store';

describe('reactions store', () => {
  it('turns a sum into a few floaters and keeps running totals', () => {
    const store = createReactionsStore();
    const added = store.getState().add({ heart: 3, clap: 0, laugh: 0, wow: 1, fire: 0 }, () => 0.5);
    expect(added.map((f) => [f.reaction, f.x])).toEqual([
      ['heart', 50],
      ['heart', 50],
      ['heart', 50],
      ['wow', 50],
    ]);
    store.getState().add({ heart: 2, clap: 0, laugh: 0, wow: 0, fire: 0 });
    expect(store.getState().totals).toEqual({ heart: 5, clap: 0, laugh: 0, wow: 1, fire: 0 });
  });

  it('never makes one floater per tap: 10,000 taps are a handful', () => {
    const store = createReactionsStore();
    store.getState().add({ heart: 10_000, clap: 10_000, laugh: 0, wow: 0, fire: 0 });
    expect(store.getState().floaters).toHaveLength(2 * MAX_FLOATERS_PER_SUM);
    for (let i = 0; i < 20; i++) store.getState().add({ heart: 10_000, clap: 0, laugh: 0, wow: 0, fire: 0 });
    expect(store.getState().floaters).toHaveLength(MAX_FLOATERS);
    expect(store.getState().totals.heart).toBe(210_000);
  });

  it('drops a floater when its animation ends', () => {
    const store = createReactionsStore();
    const [first] = store.getState().add({ heart: 1, clap: 0, laugh: 0, wow: 0, fire: 0 });
    store.getState().expire(first!.id);
    expect(store.getState().floaters).toEqual([]);
  });
});
