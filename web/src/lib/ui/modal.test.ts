import { describe, expect, it } from 'vitest';
import { createModalStore } from './modal';

describe('modal', () => {
  it('opens and closes', () => {
    const store = createModalStore();
    store.getState().open('content', { title: 'Quick view' });
    expect(store.getState().modal).toMatchObject({ title: 'Quick view', content: 'content' });
    store.getState().close();
    expect(store.getState().modal).toBeNull();
  });

  it('is dismissed by Escape or a click outside unless static', () => {
    const store = createModalStore();
    store.getState().open('a', { title: 'A' });
    expect(store.getState().dismiss()).toBe(true);
    expect(store.getState().modal).toBeNull();

    store.getState().open('b', { title: 'B', static: true });
    expect(store.getState().dismiss()).toBe(false);
    expect(store.getState().modal).toMatchObject({ title: 'B' });
  });
});
