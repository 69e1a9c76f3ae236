import { createStore } from 'zustand/vanilla';
import { getMainNavigation, type NavigationCategory } from '../api/get-main-navigation';

type Status = 'idle' | 'loading' | 'ready' | 'failed';

interface NavigationState {
  status: Status;
  /** The language the tree was loaded in; a switch loads it again. */
  language: string | null;
  items: NavigationCategory[];
  load(language: string, fetchTree?: () => Promise<NavigationCategory[]>): Promise<void>;
}

/** Visible entries only, children included. */
export function visibleEntries(items: NavigationCategory[]): NavigationCategory[] {
  return items
    .filter((item) => item.visible !== false && item.active !== false)
    .map((item) => ({ ...item, children: visibleEntries(item.children ?? []) }));
}

export function createNavigationStore() {
  return createStore<NavigationState>()((set, get) => ({
    status: 'idle',
    language: null,
    items: [],
    async load(language, fetchTree = getMainNavigation) {
      if (get().language === language && get().status !== 'failed') return;
      set({ status: 'loading', language });
      try {
        const items = visibleEntries(await fetchTree());
        if (get().language === language) set({ status: 'ready', items });
      } catch (error) {
        console.warn('could not load the main navigation', error);
        if (get().language === language) set({ status: 'failed', items: [] });
      }
    },
  }));
}

export const navigationStore = createNavigationStore();

/** The footer's service links (About us, Contact, Newsletter, …). */
export const footerNavigationStore = createNavigationStore();
