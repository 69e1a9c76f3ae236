import { createStore } from 'zustand/vanilla';

export const TOAST_DURATION_MS = 5_000;
/** A hidden toast stays in the list this long, so it can animate out. */
export const TOAST_REMOVE_DELAY_MS = 1_000;

export type ToastVariant = 'info' | 'success' | 'warning' | 'danger';

export interface Toast {
  id: number;
  show: boolean;
  variant: ToastVariant;
  content: string;
  actionText?: string;
  actionFn?: () => void;
  /** Milliseconds until it hides; 0 keeps it until closed. */
  duration: number;
}

export type ToastInput = Pick<Toast, 'content'> & Partial<Omit<Toast, 'id' | 'show' | 'content'>>;

interface ToastState {
  toasts: Toast[];
  push(input: ToastInput): number;
  hide: (id: number) => void;
  /** Hovering: the hide timer stops. */
  pause: (id: number) => void;
  /** Leaving: the hide timer starts again with the full duration. */
  resume: (id: number) => void;
  clear(): void;
}

/** The toast stack (spec sections 3, 4, 9): top right, 5000 ms, removed 1000 ms after hiding. */
export function createToastStore() {
  const hideTimers = new Map<number, ReturnType<typeof setTimeout>>();
  const removeTimers = new Map<number, ReturnType<typeof setTimeout>>();
  let nextId = 1;

  const stopHideTimer = (id: number) => {
    clearTimeout(hideTimers.get(id));
    hideTimers.delete(id);
  };

  return createStore<ToastState>()((set, get) => {
    const startHideTimer = (id: number) => {
      stopHideTimer(id);
      const toast = get().toasts.find((candidate) => candidate.id === id);
      if (!toast?.show || toast.duration <= 0) return;
      hideTimers.set(
        id,
        setTimeout(() => get().hide(id), toast.duration),
      );
    };

    return {
      toasts: [],
      push(input) {
        const id = nextId++;
        const toast: Toast = { variant: 'info', duration: TOAST_DURATION_MS, ...input, id, show: true };
        set((state) => ({ toasts: [...state.toasts, toast] }));
        startHideTimer(id);
        return id;
      },
      hide(id) {
        stopHideTimer(id);
        if (!get().toasts.some((toast) => toast.id === id && toast.show)) return;
        set((state) => ({ toasts: state.toasts.map((toast) => (toast.id === id ? { ...toast, show: false } : toast)) }));
        removeTimers.set(
          id,
          setTimeout(() => {
            removeTimers.delete(id);
            set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) }));
          }, TOAST_REMOVE_DELAY_MS),
        );
      },
      pause: stopHideTimer,
      resume: startHideTimer,
      clear() {
        for (const timer of [...hideTimers.values(), ...removeTimers.values()]) clearTimeout(timer);
        hideTimers.clear();
        removeTimers.clear();
        set({ toasts: [] });
      },
    };
  });
}

export const toastStore = createToastStore();

/** Shows a toast from anywhere (stores, loaders, components). */
export const toast = (input: ToastInput) => toastStore.getState().push(input);
