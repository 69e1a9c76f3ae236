import { createStore } from 'zustand/vanilla';

/** The full-screen loading overlay on request (the start-up shows it on its own). */
export const overlayStore = createStore<{ requests: number; show(): void; hide(): void }>()((set) => ({
  requests: 0,
  show: () => set((state) => ({ requests: state.requests + 1 })),
  hide: () => set((state) => ({ requests: Math.max(0, state.requests - 1) })),
}));

/** Shows the overlay while `work` runs. */
export async function withOverlay<T>(work: Promise<T>): Promise<T> {
  overlayStore.getState().show();
  try {
    return await work;
  } finally {
    overlayStore.getState().hide();
  }
}
