import { createStore } from 'zustand/vanilla';

/** Notifications go away after this long unless persistent (spec section 9). */
export const NOTIFICATION_DURATION_MS = 2_500;

export type NotificationType = 'info' | 'success' | 'warning' | 'danger';

export interface Notification {
  id: number;
  type: NotificationType;
  message: string;
}

interface NotificationState {
  notifications: Notification[];
  push(message: string, options?: { type?: NotificationType; persistent?: boolean }): number;
  remove(id: number): void;
  clear(): void;
}

export function createNotificationStore() {
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  let nextId = 1;
  return createStore<NotificationState>()((set, get) => ({
    notifications: [],
    push(message, { type = 'info', persistent = false } = {}) {
      const id = nextId++;
      set((state) => ({ notifications: [...state.notifications, { id, type, message }] }));
      if (!persistent) timers.set(id, setTimeout(() => get().remove(id), NOTIFICATION_DURATION_MS));
      return id;
    },
    remove(id) {
      clearTimeout(timers.get(id));
      timers.delete(id);
      set((state) => ({ notifications: state.notifications.filter((entry) => entry.id !== id) }));
    },
    clear() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      set({ notifications: [] });
    },
  }));
}

export const notificationStore = createNotificationStore();

export const notify = (message: string, options?: { type?: NotificationType; persistent?: boolean }) =>
  notificationStore.getState().push(message, options);
