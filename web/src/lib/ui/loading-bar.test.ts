import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLoadingBarStore, LOADING_BAR_DURATION_MS, LOADING_BAR_THROTTLE_MS } from './loading-bar';

describe('loading bar', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stays hidden for work shorter than the 200 ms throttle', () => {
    const store = createLoadingBarStore();
    store.getState().start();
    vi.advanceTimersByTime(LOADING_BAR_THROTTLE_MS - 1);
    store.getState().finish();
    vi.advanceTimersByTime(5000);
    expect(store.getState().visible).toBe(false);
  });

  it('shows after 200 ms, advances over about 2000 ms without finishing, completes and fades', () => {
    const store = createLoadingBarStore();
    store.getState().start();
    vi.advanceTimersByTime(LOADING_BAR_THROTTLE_MS);
    expect(store.getState().visible).toBe(true);
    vi.advanceTimersByTime(LOADING_BAR_DURATION_MS / 2);
    const halfway = store.getState().progress;
    expect(halfway).toBeGreaterThan(25);
    vi.advanceTimersByTime(LOADING_BAR_DURATION_MS * 5);
    expect(store.getState().progress).toBeLessThan(100);
    expect(store.getState().progress).toBeGreaterThan(halfway);
    store.getState().finish();
    expect(store.getState().progress).toBe(100);
    vi.advanceTimersByTime(1000);
    expect(store.getState()).toMatchObject({ visible: false, progress: 0 });
  });

  it('runs until all overlapping work is done', () => {
    const store = createLoadingBarStore();
    store.getState().start();
    store.getState().start();
    vi.advanceTimersByTime(500);
    store.getState().finish();
    expect(store.getState().progress).toBeLessThan(100);
    store.getState().finish();
    expect(store.getState().progress).toBe(100);
  });
});
