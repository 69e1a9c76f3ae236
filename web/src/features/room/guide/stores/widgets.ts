import { createStore } from 'zustand/vanilla';
import type { Event } from '@/protocol/generated';
import { isCartAction } from '../../realtime/cart-actions';
import type { AttendeeInsights, CartStatistics, WidgetProducts, Widgets } from '../api/room-admin';

export type WidgetName = 'cart' | 'insights' | 'wishlist' | 'lastSeen';

export const WIDGETS: WidgetName[] = ['cart', 'insights', 'wishlist', 'lastSeen'];

export interface WidgetsState {
  cart: CartStatistics | null;
  insights: AttendeeInsights | null;
  wishlist: WidgetProducts | null;
  lastSeen: WidgetProducts | null;
  failed: WidgetName[];
  load(names?: WidgetName[]): Promise<void>;
  /** Reloads the widgets a live event changes (no polling). */
  applyEvent(event: Event): void;
}

/** The widgets an event makes stale. */
export function widgetsChangedBy(event: Event): WidgetName[] {
  switch (event.kind) {
    case 'attendeeCartChanged':
      return ['cart', 'insights'];
    case 'attendeeCollectionChanged':
      // The wishlist widget counts the attendees' likes (the reference's wishlist statistics).
      return event.collection === 'liked' || event.collection === 'wishlist' ? ['wishlist'] : event.collection === 'lastSeen' ? ['lastSeen'] : [];
    case 'attendeeRemoved':
      return ['cart', 'insights', 'wishlist', 'lastSeen'];
    case 'reload':
      return isCartAction(event.action.key) ? ['cart', 'insights'] : [];
    default:
      return [];
  }
}

/** The guide's widgets: one request per widget at a time; a change while loading loads again after. */
export function createWidgetsStore(api: Widgets) {
  const running = new Map<WidgetName, Promise<void>>();
  const again = new Set<WidgetName>();
  return createStore<WidgetsState>()((set, get) => {
    const loadOne = (name: WidgetName): Promise<void> => {
      const current = running.get(name);
      if (current) {
        again.add(name);
        return current;
      }
      const request = (async () => {
        try {
          const value =
            name === 'cart' ? await api.cartStatistics() : name === 'insights' ? await api.attendeeInsights() : name === 'wishlist' ? await api.wishlist() : await api.lastSeen();
          set({ [name]: value, failed: get().failed.filter((n) => n !== name) } as Partial<WidgetsState>);
        } catch {
          if (!get().failed.includes(name)) set({ failed: [...get().failed, name] });
        } finally {
          running.delete(name);
          if (again.delete(name)) void loadOne(name);
        }
      })();
      running.set(name, request);
      return request;
    };
    return {
      cart: null,
      insights: null,
      wishlist: null,
      lastSeen: null,
      failed: [],
      async load(names = WIDGETS) {
        await Promise.all(names.map(loadOne));
      },
      applyEvent(event) {
        const names = widgetsChangedBy(event);
        if (names.length > 0) void get().load(names);
      },
    };
  });
}
