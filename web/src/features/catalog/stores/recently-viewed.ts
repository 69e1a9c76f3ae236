import { createStore } from 'zustand/vanilla';

const KEY = 'salesroom.recentlyViewed';
export const RECENTLY_VIEWED_MAX = 12;

interface RecentlyViewedState {
  ids: string[];
  /** Puts a product first; the list keeps at most 12. */
  add(id: string): void;
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

/** The products this browser looked at last, newest first (local storage). */
export function createRecentlyViewedStore(storage: Storage | undefined = globalThis.localStorage) {
  return createStore<RecentlyViewedState>()((set, get) => ({
    ids: read(storage),
    add(id) {
      const ids = [id, ...get().ids.filter((existing) => existing !== id)].slice(0, RECENTLY_VIEWED_MAX);
      set({ ids });
      storage?.setItem(KEY, JSON.stringify(ids));
    },
    clear() {
      set({ ids: [] });
      storage?.removeItem(KEY);
    },
  }));
}

export const recentlyViewedStore = createRecentlyViewedStore();
