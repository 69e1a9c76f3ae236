import { createStore } from 'zustand/vanilla';
import type { Event } from '@/protocol/generated';
import type { CollectionsApi } from '../api/collections';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed';

export interface CollectionsState {
  /** Liked product ids, the newest first. */
  liked: string[];
  /** Last seen product ids, the newest first. */
  lastSeen: string[];
  status: LoadStatus;
  /** Products whose like is being sent. */
  busy: string[];
  /** The last like or unlike that did not reach the shop. */
  failed: string | null;
  load(): Promise<void>;
  toggleLike(productId: string): Promise<void>;
  unlike(productId: string): Promise<void>;
  /** Records a product the attendee looked at; a failure is only logged. */
  viewed(productId: string): Promise<void>;
  /** Follows the hub's collection events about this attendee (also from other tabs). */
  applyEvent(event: Event, ownAttendeeId: string | null): void;
}

const withFirst = (ids: string[], id: string) => [id, ...ids.filter((existing) => existing !== id)];
const without = (ids: string[], id: string) => ids.filter((existing) => existing !== id);

/** The attendee's like list and last-seen list, one store per room. Likes change at once and roll back on failure. */
export function createCollectionsStore(api: CollectionsApi) {
  return createStore<CollectionsState>()((set, get) => {
    const setLike = async (productId: string, like: boolean) => {
      if (get().busy.includes(productId)) return;
      const before = get().liked;
      set((state) => ({
        liked: like ? withFirst(state.liked, productId) : without(state.liked, productId),
        busy: [...state.busy, productId],
        failed: null,
      }));
      try {
        await (like ? api.like(productId) : api.unlike(productId));
      } catch {
        set({ liked: before, failed: productId });
      } finally {
        set((state) => ({ busy: without(state.busy, productId) }));
      }
    };
    return {
      liked: [],
      lastSeen: [],
      status: 'idle',
      busy: [],
      failed: null,
      async load() {
        set({ status: 'loading' });
        try {
          const [liked, lastSeen] = await Promise.all([api.liked(), api.lastSeen()]);
          set({ liked, lastSeen, status: 'ready' });
        } catch {
          set({ status: 'failed' });
        }
      },
      toggleLike: (productId) => setLike(productId, !get().liked.includes(productId)),
      unlike: (productId) => setLike(productId, false),
      async viewed(productId) {
        set((state) => ({ lastSeen: withFirst(state.lastSeen, productId) }));
        try {
          await api.viewed(productId);
        } catch (error) {
          console.warn('could not record a viewed product', error);
        }
      },
      applyEvent(event, ownAttendeeId) {
        if (event.kind !== 'attendeeCollectionChanged' || event.attendeeId !== ownAttendeeId) return;
        const { productId, added } = event;
        if (event.collection === 'liked') {
          // A like in flight is settled by its own request.
          if (get().busy.includes(productId)) return;
          set((state) => ({ liked: added ? withFirst(state.liked, productId) : without(state.liked, productId) }));
        } else if (event.collection === 'lastSeen') {
          set((state) => ({ lastSeen: added ? withFirst(state.lastSeen, productId) : without(state.lastSeen, productId) }));
        }
      },
    };
  });
}
