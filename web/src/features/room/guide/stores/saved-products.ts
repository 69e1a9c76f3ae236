import { createStore } from 'zustand/vanilla';
import type { GuideProduct, SavedEntry, SavedProductsApi } from '../api/room-admin';

/** A saved product with the guide's note on it. */
export interface SavedProduct extends GuideProduct {
  note: string | null;
}

export interface SavedProductsState {
  /** The saved products in the guide's order; null until the first load. */
  products: SavedProduct[] | null;
  /** The last change or load failed (the list shows what the shop last answered). */
  failed: boolean;
  /** Loads the list again (at the cockpit's start, and when another guide changed it). */
  load(): Promise<void>;
  save(product: GuideProduct): Promise<void>;
  remove(productId: string): Promise<void>;
  clear(): Promise<void>;
  /** Moves a saved product `delta` places up (-1) or down (+1). */
  move(productId: string, delta: number): Promise<void>;
  /** Sets (or with an empty text clears) the guide's note on a saved product. */
  setNote(productId: string, note: string): Promise<void>;
}

/**
 * The guide's saved products (spec: "saved products layer and upsert sidebar"): the shop
 * keeps them per appointment with their order and notes; every change answers the shop's
 * list, which the store then shows. `resolve` turns saved ids into products (name,
 * number, cover) in their order. Answers are shown in the order their requests were
 * made: an answer that arrives after a later request's answer was shown is older, and
 * is dropped (a reload for another guide's change may overtake one's own change).
 */
export function createSavedProductsStore(api: SavedProductsApi, resolve: (ids: string[]) => Promise<GuideProduct[]>) {
  return createStore<SavedProductsState>()((set, get) => {
    const known = () => new Map<string, GuideProduct>((get().products ?? []).map((product) => [product.id, product]));
    let asked = 0;
    let shown = 0;
    /** The shop's list as products: those already shown reused, the others looked up. */
    const show = async (ticket: number, entries: SavedEntry[], extra: GuideProduct[] = []) => {
      if (ticket < shown) return;
      const byId = known();
      for (const product of extra) byId.set(product.id, product);
      const missing = entries.map((entry) => entry.productId).filter((id) => !byId.has(id));
      for (const product of missing.length ? await resolve(missing) : []) byId.set(product.id, product);
      if (ticket < shown) return;
      shown = ticket;
      set({
        products: entries.flatMap((entry) => {
          const product = byId.get(entry.productId);
          return product ? [{ id: product.id, name: product.name, productNumber: product.productNumber, coverUrl: product.coverUrl, note: entry.note }] : [];
        }),
        failed: false,
      });
    };
    /** Runs a request with the next ticket (its place in the order of requests). */
    const run = async (change: (ticket: number) => Promise<void>) => {
      const ticket = ++asked;
      try {
        await change(ticket);
      } catch (error) {
        set({ failed: true });
        throw error;
      }
    };
    return {
      products: null,
      failed: false,
      load: () => run(async (ticket) => show(ticket, await api.load())),
      // A product known only by id and name (from a slide) is looked up for its number and cover.
      save: (product) => run(async (ticket) => show(ticket, await api.save([product.id]), product.productNumber ? [product] : [])),
      remove: (productId) =>
        run(async (ticket) => {
          await api.remove(productId);
          if (ticket < shown) return;
          shown = ticket;
          set((state) => ({ products: (state.products ?? []).filter((product) => product.id !== productId), failed: false }));
        }),
      clear: () =>
        run(async (ticket) => {
          await api.clear();
          if (ticket < shown) return;
          shown = ticket;
          set({ products: [], failed: false });
        }),
      move: (productId, delta) =>
        run(async (ticket) => {
          const list = get().products ?? [];
          const from = list.findIndex((product) => product.id === productId);
          if (from < 0) return;
          const to = Math.max(0, Math.min(list.length - 1, from + delta));
          if (to === from) return;
          await show(ticket, await api.update(productId, { position: to }));
        }),
      setNote: (productId, note) => run(async (ticket) => show(ticket, await api.update(productId, { note: note.trim() || null }))),
    };
  });
}
