import { createStore } from 'zustand/vanilla';

/** Whether the cart sidebar is open; any feature may open it (after adding to the cart). */
export const cartUi = createStore<{ isOpen: boolean; open(): void; close(): void }>()((set) => ({
  isOpen: false,
  open: () => set({ isOpen: true }),
  close: () => set({ isOpen: false }),
}));
