import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNotificationStore, NOTIFICATION_DURATION_MS } from './notifications';

describe('notifications', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('disappear after 2500 ms', () => {
    const store = createNotificationStore();
    store.getState().push('Hello', { type: 'success' });
    expect(store.getState().notifications).toEqual([{ id: 1, type: 'success', message: 'Hello' }]);
    vi.advanceTimersByTime(NOTIFICATION_DURATION_MS - 1);
    expect(store.getState().notifications).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getState().notifications).toEqual([]);
  });

  it('stay when persistent until removed', () => {
    const store = createNotificationStore();
    const id = store.getState().push('Stay', { persistent: true });
    vi.advanceTimersByTime(60_000);
    expect(store.getState().notifications).toHaveLength(1);
    store.getState().remove(id);
    expect(store.getState().notifications).toEqual([]);
  });
});
