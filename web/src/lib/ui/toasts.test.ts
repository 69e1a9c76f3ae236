import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore, TOAST_DURATION_MS, TOAST_REMOVE_DELAY_MS } from './toasts';

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const visible = (store: ReturnType<typeof createToastStore>) => store.getState().toasts.map((toast) => [toast.content, toast.show]);

  it('are created visible with the defaults', () => {
    const store = createToastStore();
    store.getState().push({ content: 'Saved' });
    expect(store.getState().toasts).toEqual([{ id: 1, show: true, variant: 'info', content: 'Saved', duration: 5000 }]);
  });

  it('hide after 5000 ms and are removed 1000 ms later', () => {
    const store = createToastStore();
    store.getState().push({ content: 'Saved' });
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(visible(store)).toEqual([['Saved', true]]);
    vi.advanceTimersByTime(1);
    expect(visible(store)).toEqual([['Saved', false]]);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(visible(store)).toEqual([['Saved', false]]);
    vi.advanceTimersByTime(1);
    expect(visible(store)).toEqual([]);
  });

  it('honour their own duration; 0 stays until closed', () => {
    const store = createToastStore();
    store.getState().push({ content: 'quick', duration: 1000 });
    const sticky = store.getState().push({ content: 'sticky', duration: 0 });
    vi.advanceTimersByTime(60_000);
    expect(visible(store)).toEqual([['sticky', true]]);
    store.getState().hide(sticky);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);
    expect(visible(store)).toEqual([]);
  });

  it('close at once on hide', () => {
    const store = createToastStore();
    const id = store.getState().push({ content: 'x' });
    store.getState().hide(id);
    expect(visible(store)).toEqual([['x', false]]);
  });

  it('pause while hovered and restart with the full duration when left', () => {
    const store = createToastStore();
    const id = store.getState().push({ content: 'hover me' });
    vi.advanceTimersByTime(4000);
    store.getState().pause(id);
    vi.advanceTimersByTime(60_000);
    expect(visible(store)).toEqual([['hover me', true]]);
    store.getState().resume(id);
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(visible(store)).toEqual([['hover me', true]]);
    vi.advanceTimersByTime(1);
    expect(visible(store)).toEqual([['hover me', false]]);
  });

  it('keep the action', () => {
    const store = createToastStore();
    const actionFn = vi.fn();
    store.getState().push({ content: 'Removed', actionText: 'Undo', actionFn, variant: 'success' });
    store.getState().toasts[0]!.actionFn!();
    expect(actionFn).toHaveBeenCalledOnce();
    expect(store.getState().toasts[0]).toMatchObject({ actionText: 'Undo', variant: 'success' });
  });
});
