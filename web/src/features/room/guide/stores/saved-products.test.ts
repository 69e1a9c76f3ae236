import { describe, expect, it, vi } from 'vitest';
import type { GuideProduct, SavedProductsApi } from '../api/room-admin';
import { createSavedProductsStore } from './saved-products';

const product = (id: string): GuideProduct => ({ id, name: `Product ${id}`, productNumber: `SW-${id}`, coverUrl: null });

function fakeShop(initial: string[] = []) {
  let saved = [...initial];
  const notes = new Map<string, string | null>();
  const entries = () => saved.map((productId) => ({ productId, note: notes.get(productId) ?? null }));
  const api: { [K in keyof SavedProductsApi]: ReturnType<typeof vi.fn> } = {
    load: vi.fn(async () => entries()),
    save: vi.fn(async (ids: string[]) => {
      saved = [...saved, ...ids.filter((id) => !saved.includes(id))];
      return entries();
    }),
    update: vi.fn(async (id: string, change: { position?: number; note?: string | null }) => {
      if (change.note !== undefined) notes.set(id, change.note);
      if (change.position !== undefined) {
        saved = saved.filter((other) => other !== id);
        saved.splice(change.position, 0, id);
      }
      return entries();
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

  it('moves a saved product and keeps the guide’s note, through the shop', async () => {
    const { api, resolve } = fakeShop(['a', 'b', 'c']);
    const store = createSavedProductsStore(api as unknown as SavedProductsApi, resolve);
    await store.getState().load();
    await store.getState().move('c', -1);
    expect(api.update).toHaveBeenCalledWith('c', { position: 1 });
    expect(store.getState().products?.map((p) => p.id)).toEqual(['a', 'c', 'b']);
    // Already first: nothing asked.
    api.update.mockClear();
    await store.getState().move('a', -1);
    expect(api.update).not.toHaveBeenCalled();
    await store.getState().setNote('b', '  Mention the warranty ');
    expect(api.update).toHaveBeenCalledWith('b', { note: 'Mention the warranty' });
    expect(store.getState().products?.find((p) => p.id === 'b')?.note).toBe('Mention the warranty');
    await store.getState().setNote('b', '   ');
    expect(api.update).toHaveBeenLastCalledWith('b', { note: null });
    expect(store.getState().products?.find((p) => p.id === 'b')?.note).toBeNull();
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

  it('shows answers in the order they were asked: a reload answered late does not undo a later change', async () => {
    const { api, resolve } = fakeShop(['a']);
    const store = createSavedProductsStore(api as unknown as SavedProductsApi, resolve);
    await store.getState().load();
    // Another guide's change asks for a reload; the shop answers it only after this guide's save.
    let answerReload: (entries: { productId: string; note: string | null }[]) => void = () => undefined;
    const lateAnswer = new Promise<{ productId: string; note: string | null }[]>((resolve) => {
      answerReload = resolve;
    });
    api.load.mockReturnValueOnce(lateAnswer);
    const reload = store.getState().load();
    await store.getState().save(product('b'));
    expect(store.getState().products?.map((p) => p.id)).toEqual(['a', 'b']);
    answerReload([{ productId: 'a', note: null }]);
    await reload;
    expect(store.getState().products?.map((p) => p.id)).toEqual(['a', 'b']);
    // A reload asked after the change is shown.
    await store.getState().load();
    expect(store.getState().products?.map((p) => p.id)).toEqual(['a', 'b']);
  });
});
