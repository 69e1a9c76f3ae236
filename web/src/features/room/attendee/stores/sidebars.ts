import { createStore } from 'zustand/vanilla';

/** The attendee's sidebars; one is open at a time. */
export type AttendeeSidebar = 'likes' | 'lastSeen' | 'cart' | 'wishlist';

export const ATTENDEE_SIDEBARS: readonly AttendeeSidebar[] = ['likes', 'lastSeen', 'cart', 'wishlist'];

export interface SidebarsState {
  open: AttendeeSidebar | null;
  toggle(sidebar: AttendeeSidebar): void;
  show(sidebar: AttendeeSidebar): void;
  close(): void;
}

export function createSidebarsStore() {
  return createStore<SidebarsState>()((set) => ({
    open: null,
    toggle: (sidebar) => set((state) => ({ open: state.open === sidebar ? null : sidebar })),
    show: (sidebar) => set({ open: sidebar }),
    close: () => set({ open: null }),
  }));
}
