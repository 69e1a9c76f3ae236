import { createStore } from 'zustand/vanilla';

/** The bar appears only for work that takes longer than this. */
export const LOADING_BAR_THROTTLE_MS = 200;
/** About how long the bar takes to cross the page. */
export const LOADING_BAR_DURATION_MS = 2_000;
export const LOADING_BAR_HEIGHT_PX = 3;
const FADE_MS = 400;

interface LoadingBarState {
  /** 0..100 */
  progress: number;
  visible: boolean;
  /** Work in progress; the bar runs while it is above zero. */
  pending: number;
  start(): void;
  finish(): void;
}

/**
 * The thin navigation loading bar (spec sections 4 and 9): starts after a 200 ms
 * throttle, advances over about 2000 ms (never reaching the end on its own), completes
 * and fades when all work is done.
 */
export function createLoadingBarStore() {
  let throttle: ReturnType<typeof setTimeout> | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  let fade: ReturnType<typeof setTimeout> | undefined;
  const STEP_MS = 100;

  return createStore<LoadingBarState>()((set, get) => ({
    progress: 0,
    visible: false,
    pending: 0,
    start() {
      const pending = get().pending + 1;
      set({ pending });
      if (pending > 1) return;
      clearTimeout(fade);
      throttle = setTimeout(() => {
        set({ visible: true, progress: 0 });
        const step = (100 / LOADING_BAR_DURATION_MS) * STEP_MS;
        ticker = setInterval(() => {
          // Slows down near the end and waits at 95 until the work is done.
          set((state) => ({ progress: Math.min(95, state.progress + step * (1 - state.progress / 110)) }));
        }, STEP_MS);
      }, LOADING_BAR_THROTTLE_MS);
    },
    finish() {
      const pending = Math.max(0, get().pending - 1);
      set({ pending });
      if (pending > 0) return;
      clearTimeout(throttle);
      clearInterval(ticker);
      if (!get().visible) return;
      set({ progress: 100 });
      fade = setTimeout(() => set({ visible: false, progress: 0 }), FADE_MS);
    },
  }));
}

export const loadingBarStore = createLoadingBarStore();

/** Runs `work` with the loading bar. */
export async function withLoadingBar<T>(work: Promise<T>): Promise<T> {
  loadingBarStore.getState().start();
  try {
    return await work;
  } finally {
    loadingBarStore.getState().finish();
  }
}
