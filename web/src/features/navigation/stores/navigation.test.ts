import { describe, expect, it, vi } from 'vitest';
import { createNavigationStore } from './navigation';

const entry = (id: string, extra: object = {}) => ({ id, name: id, children: [], ...extra }) as never;

describe('navigation store', () => {
  it('loads the tree once per language and drops hidden entries', async () => {
    const store = createNavigationStore();
    const fetchTree = vi.fn(async () => [entry('a', { children: [entry('a1'), entry('a2', { visible: false })] }), entry('b', { active: false })]);
    await store.getState().load('en-US', fetchTree);
    await store.getState().load('en-US', fetchTree);
    expect(fetchTree).toHaveBeenCalledOnce();
    expect(store.getState().status).toBe('ready');
    expect(store.getState().items.map((item) => item.id)).toEqual(['a']);
    expect(store.getState().items[0]!.children.map((item) => item.id)).toEqual(['a1']);
    await store.getState().load('de-DE', fetchTree);
    expect(fetchTree).toHaveBeenCalledTimes(2);
  });

  it('reports a failure and tries again next time', async () => {
    const store = createNavigationStore();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await store.getState().load('en-US', async () => Promise.reject(new Error('down')));
    expect(store.getState()).toMatchObject({ status: 'failed', items: [] });
    await store.getState().load('en-US', async () => [entry('a')]);
    expect(store.getState().status).toBe('ready');
  });
});
