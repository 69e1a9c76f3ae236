import { createStore } from 'zustand/vanilla';
import type { GuideProduct } from '../api/room-admin';

/** An instant listing being composed: a new one, or a published one (`groupId`) being edited. */
export interface ListingDraft {
  groupId: string | null;
  name: string;
  products: GuideProduct[];
}

export interface InstantListingApi {
  create(draft: ListingDraft): Promise<unknown>;
  update(draft: ListingDraft & { groupId: string }): Promise<unknown>;
}

export type ListingStatus = 'idle' | 'publishing' | 'failed';

export interface InstantListingState {
  draft: ListingDraft | null;
  /** The draft as it was opened (what discarding goes back to). */
  original: ListingDraft | null;
  status: ListingStatus;
  startNew(name: string): void;
  edit(groupId: string, name: string, products: GuideProduct[]): void;
  rename(name: string): void;
  add(product: GuideProduct): void;
  remove(productId: string): void;
  removeAll(): void;
  /** Moves a product up (-1) or down (+1). */
  move(productId: string, by: -1 | 1): void;
  /** Orders the products by name, ascending or descending. */
  sortByName(direction: 'asc' | 'desc'): void;
  discard(): void;
  close(): void;
  publish(): Promise<boolean>;
}

/** Whether the draft differs from what was opened. */
export function isDirty(state: Pick<InstantListingState, 'draft' | 'original'>): boolean {
  const { draft, original } = state;
  if (!draft || !original) return false;
  return draft.name !== original.name || draft.products.map((p) => p.id).join() !== original.products.map((p) => p.id).join();
}

/** A draft can be published when it has products and, for an edit, changes. */
export function canPublish(state: Pick<InstantListingState, 'draft' | 'original' | 'status'>): boolean {
  if (!state.draft || state.draft.products.length === 0 || state.status === 'publishing') return false;
  return state.draft.groupId === null || isDirty(state);
}

/** The guide's instant-listing editor: one draft at a time, published through `api`. */
export function createInstantListingStore(api: InstantListingApi) {
  return createStore<InstantListingState>()((set, get) => {
    const change = (update: (draft: ListingDraft) => ListingDraft) => {
      const { draft } = get();
      if (draft) set({ draft: update(draft), status: get().status === 'failed' ? 'idle' : get().status });
    };
    return {
      draft: null,
      original: null,
      status: 'idle',
      startNew(name) {
        const draft = { groupId: null, name, products: [] };
        set({ draft, original: draft, status: 'idle' });
      },
      edit(groupId, name, products) {
        const draft = { groupId, name, products };
        set({ draft, original: draft, status: 'idle' });
      },
      rename: (name) => change((draft) => ({ ...draft, name })),
      add: (product) =>
        change((draft) => (draft.products.some((p) => p.id === product.id) ? draft : { ...draft, products: [...draft.products, product] })),
      remove: (productId) => change((draft) => ({ ...draft, products: draft.products.filter((p) => p.id !== productId) })),
      removeAll: () => change((draft) => ({ ...draft, products: [] })),
      move: (productId, by) =>
        change((draft) => {
          const products = [...draft.products];
          const from = products.findIndex((p) => p.id === productId);
          const to = from + by;
          if (from < 0 || to < 0 || to >= products.length) return draft;
          [products[from], products[to]] = [products[to]!, products[from]!];
          return { ...draft, products };
        }),
      sortByName: (direction) =>
        change((draft) => ({
          ...draft,
          products: [...draft.products].sort((a, b) => (direction === 'asc' ? 1 : -1) * a.name.localeCompare(b.name)),
        })),
      discard: () => set((state) => ({ draft: state.original, status: 'idle' })),
      close: () => set({ draft: null, original: null, status: 'idle' }),
      async publish() {
        const state = get();
        const { draft } = state;
        if (!draft || !canPublish(state)) return false;
        set({ status: 'publishing' });
        try {
          if (draft.groupId) await api.update({ ...draft, groupId: draft.groupId });
          else await api.create(draft);
          set({ draft: null, original: null, status: 'idle' });
          return true;
        } catch {
          set({ status: 'failed' });
          return false;
        }
      },
    };
  });
}
