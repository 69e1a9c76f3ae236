import { createStore } from 'zustand/vanilla';

const KEY = 'salesroom.wishlist';

interface WishlistState {
  ids: string[];
  /** Adds the id if it is missing. */
  add(id: string): void;
  remove(id: string): void;
  toggle(id: string): void;
  clear(): void;
}

function read(storage: Storage | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** The wishlist of a visitor who is not logged in, kept in local storage (spec sections 3 and 4). */
export function createLocalWishlist(storage: Storage | undefined = globalThis.localStorage) {
  return createStore<WishlistState>()((set, get) => {
    const save = (ids: string[]) => {
      set({ ids });
      storage?.setItem(KEY, JSON.stringify(ids));
    };
    return {
      ids: read(storage),
      add: (id) => !get().ids.includes(id) && save([...get().ids, id]),
      remove: (id) => save(get().ids.filter((existing) => existing !== id)),
      toggle: (id) => (get().ids.includes(id) ? get().remove(id) : get().add(id)),
      clear: () => {
        set({ ids: [] });
        storage?.removeItem(KEY);
      },
    };
  });
}

export const localWishlist = createLocalWishlist();
