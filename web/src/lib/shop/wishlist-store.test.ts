import { ApiClientError } from '@shopware/api-client';
import { describe, expect, it, vi } from 'vitest';
import { createLocalWishlist } from '@/lib/shop/wishlist';
import type { WishlistApi } from './server-wishlist';
import { createWishlistStore } from './wishlist-store';
import { memoryStorage } from '@/testing/memory-storage';

function apiError(status: number): ApiClientError<never> {
  return new ApiClientError({ status, url: '/store-api/customer/wishlist', _data: { errors: [] } } as never);
}

/** A server wishlist in memory that behaves like the shop's (404 until the first product). */
function fakeServer(initial: string[] | null = null) {
  let list = initial;
  const api: WishlistApi = {
    load: vi.fn(() => {
      if (!list) return Promise.reject(apiError(404));
      return Promise.resolve([...list]);
    }),
    add: vi.fn((id: string) => {
      list ??= [];
      if (list.includes(id)) return Promise.reject(apiError(400));
      list.push(id);
      return Promise.resolve();
    }),
    remove: vi.fn((id: string) => {
      if (!list?.includes(id)) return Promise.reject(apiError(404));
      list = list.filter((entry) => entry !== id);
      return Promise.resolve();
    }),
    merge: vi.fn((ids: string[]) => {
      list = [...new Set([...(list ?? []), ...ids])];
      return Promise.resolve();
    }),
  };
  return { api, list: () => list };
}

describe('wishlist store', () => {
  it('uses the local list for visitors', async () => {
    const local = createLocalWishlist(memoryStorage());
    const server = fakeServer();
    const store = createWishlistStore(local, server.api);
    await store.getState().sync(false);
    await store.getState().toggle('a');
    expect(store.getState().ids).toEqual(['a']);
    expect(local.getState().ids).toEqual(['a']);
    expect(server.api.add).not.toHaveBeenCalled();
  });

  it('merges the local list into the server one at login, then clears it locally', async () => {
    const local = createLocalWishlist(memoryStorage());
    local.getState().add('a');
    local.getState().add('b');
    const server = fakeServer(['b', 'c']);
    const store = createWishlistStore(local, server.api);
    await store.getState().sync(true);
    expect(server.api.merge).toHaveBeenCalledWith(['a', 'b']);
    expect(store.getState().mode).toBe('server');
    expect([...store.getState().ids].sort()).toEqual(['a', 'b', 'c']);
    expect(local.getState().ids).toEqual([]);
  });

  it('does not merge an empty local list, and keeps the local list when the merge fails', async () => {
    const local = createLocalWishlist(memoryStorage());
    const server = fakeServer(['c']);
    const store = createWishlistStore(local, server.api);
    await store.getState().sync(true);
    expect(server.api.merge).not.toHaveBeenCalled();
    expect(store.getState().ids).toEqual(['c']);

    local.getState().add('x');
    vi.mocked(server.api.merge).mockRejectedValueOnce(apiError(500));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await createWishlistStore(local, server.api).getState().sync(true);
    expect(local.getState().ids).toEqual(['x']);
  });

  it('treats a 404 wishlist load as an empty list without logging; other failures are logged and empty it', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    errors.mockClear();
    const store = createWishlistStore(createLocalWishlist(memoryStorage()), fakeServer(null).api);
    await store.getState().sync(true);
    expect(store.getState().ids).toEqual([]);
    expect(errors).not.toHaveBeenCalled();

    const broken = fakeServer(['a']);
    vi.mocked(broken.api.load).mockRejectedValueOnce(apiError(500));
    const other = createWishlistStore(createLocalWishlist(memoryStorage()), broken.api);
    await other.getState().sync(true);
    expect(other.getState().ids).toEqual([]);
    expect(errors).toHaveBeenCalledTimes(1);
  });

  it('adds and removes on the server for customers, and goes back to the local list at logout', async () => {
    const local = createLocalWishlist(memoryStorage());
    const server = fakeServer(null);
    const store = createWishlistStore(local, server.api);
    await store.getState().sync(true);
    await store.getState().toggle('a');
    expect(server.list()).toEqual(['a']);
    await store.getState().toggle('a');
    expect(server.list()).toEqual([]);
    expect(store.getState().ids).toEqual([]);

    vi.mocked(server.api.add).mockRejectedValueOnce(apiError(500));
    await expect(store.getState().add('b')).rejects.toBeInstanceOf(ApiClientError);
    expect(store.getState().ids).toEqual([]);

    await store.getState().sync(false);
    expect(store.getState().mode).toBe('local');
    expect(local.getState().ids).toEqual([]);
  });
});
