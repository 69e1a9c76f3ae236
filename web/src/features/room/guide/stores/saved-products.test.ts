import { describe, expect, it, vi } from 'vitest';
import type { GuideProduct, SavedProductsApi } from '../api/room-admin';
import { createSavedProductsStore } from './saved-products';

const product = (id: string): GuideProduct => ({ id, name: `Product ${id}`, productNumber: `SW-${id}`, coverUrl: null });

function fakeShop(initial: string[] = []) {
  let saved = [...initial];
  const api: { [K in keyof SavedProductsApi]: ReturnType<typeof vi.fn> } = {
    load: vi.fn(async () => [...saved]),
    save: vi.fn(async (ids: string[]) => {
      saved = [...saved, ...ids.filter((id) => !saved.includes(id))];
      return [...saved];
    }),
    remove: vi.fn(async (id: string) => {
      saved = saved.filter((other) => other !== id);
    }),
    clear: vi.fn(async () => {
      saved = [];
    }),
  };
  const resolve = vi.fn(async (ids: string[]) => ids.map(product));
  return { api, resolve };
}

describe('saved products', () => {
  it('loads the shop’s list as products, in order', async () => {
    const { api, resolve } = fakeShop(['b', 'a']);
    const store = createSavedProductsStore(api as unknown as SavedProductsApi, resolve);
    expect(store.getState().products).toBeNull();
    await store.getState().load();
    expect(store.getState().products?.map((p) => p.id)).toEqual(['b', 'a']);
    expect(resolve).toHaveBeenCalledWith(['b', 'a']);
  });

  it('saves, removes and clears through the shop, looking up only products it does not know', async () => {
    const { api, resolve } = fakeShop(['a']);
    const store = createSavedProductsStore(api as unknown as SavedProductsApi, resolve);
    await store.getState().load();
    resolve.mockClear();
    await store.getState().save(product('c'));
    expect(api.save).toHaveBeenCalledWith(['c']);
    expect(resolve).not.toHaveBeenCalled();
    // Saved twice: still once, in its first place.
    await store.getState().save(product('a'));
    expect(store.getState().products?.map((p) => p.id)).toEqual(['a', 'c']);
    await store.getState().remove('a');
    expect(store.getState().products?.map((p) => p.id)).toEqual(['c']);
    await store.getState().clear();
    expect(store.getState().products).toEqual([]);
  });

  it('keeps the list and reports a failed change', async () => {
    const { api, resolve } = fakeShop(['a']);
    const store = createSavedProductsStore(api as unknown as SavedProductsApi, resolve);
    await store.getState().load();
    api.save.mockRejectedValueOnce(new Error('limit'));
    await expect(store.getState().save(product('b'))).rejects.toThrow('limit');
    expect(store.getState().failed).toBe(true);
    expect(store.getState().products?.map((p) => p.id)).toEqual(['a']);
  });
});
