import { createStore } from 'zustand/vanilla';
import type { GuideProduct, SavedProductsApi } from '../api/room-admin';

export interface SavedProductsState {
  /** The saved products in the order saved; null until the first load. */
  products: GuideProduct[] | null;
  /** The last change or load failed (the list shows what the shop last answered). */
  failed: boolean;
  load(): Promise<void>;
  save(product: GuideProduct): Promise<void>;
  remove(productId: string): Promise<void>;
  clear(): Promise<void>;
}

/**
 * The guide's saved products (spec: "saved products layer"): the shop keeps them per
 * appointment; every change answers the shop's list, which the store then shows.
 * `resolve` turns saved ids into products (name, number, cover) in their order.
 */
export function createSavedProductsStore(api: SavedProductsApi, resolve: (ids: string[]) => Promise<GuideProduct[]>) {
  return createStore<SavedProductsState>()((set, get) => {
    const known = () => new Map((get().products ?? []).map((product) => [product.id, product]));
    /** The shop's ids as products: those already shown reused, the others looked up. */
    const show = async (ids: string[], extra: GuideProduct[] = []) => {
      const byId = known();
      for (const product of extra) byId.set(product.id, product);
      const missing = ids.filter((id) => !byId.has(id));
      for (const product of missing.length ? await resolve(missing) : []) byId.set(product.id, product);
      set({ products: ids.flatMap((id) => byId.get(id) ?? []), failed: false });
    };
    const run = async (change: () => Promise<void>) => {
      try {
        await change();
      } catch (error) {
        set({ failed: true });
        throw error;
      }
    };
    return {
      products: null,
      failed: false,
      load: () => run(async () => show(await api.load())),
      save: (product) => run(async () => show(await api.save([product.id]), [product])),
      remove: (productId) =>
        run(async () => {
          await api.remove(productId);
          set((state) => ({ products: (state.products ?? []).filter((product) => product.id !== productId), failed: false }));
        }),
      clear: () =>
        run(async () => {
          await api.clear();
          set({ products: [], failed: false });
        }),
    };
  });
}
