import { createStore, type StoreApi } from 'zustand/vanilla';
import { errorStatus } from '@/lib/api/shop';
import { customerStore, isLoggedIn } from '@/lib/shop/customer';
import { localWishlist } from '@/lib/shop/wishlist';
import { serverWishlist, type WishlistApi } from './server-wishlist';

type LocalStore = typeof localWishlist;

export interface WishlistState {
  ids: string[];
  /** Local for visitors and guests; the server's for logged-in customers (spec section 6). */
  mode: 'local' | 'server';
  /** Switches to the list of the session: `loggedIn` merges the local list into the server one first. */
  sync(loggedIn: boolean): Promise<void>;
  toggle(id: string): Promise<void>;
  add(id: string): Promise<void>;
  remove(id: string): Promise<void>;
}

/**
 * The wishlist the header, product cards and the wishlist page use. At login the
 * local list is merged into the server's and then cleared locally (spec section 4);
 * a wishlist load that answers 404 (none yet) is an empty list, other failures are
 * logged and empty the list (spec section 7).
 */
export function createWishlistStore(local: LocalStore = localWishlist, api: WishlistApi = serverWishlist): StoreApi<WishlistState> {
  const store = createStore<WishlistState>()((set, get) => {
    const load = async () => {
      try {
        set({ ids: await api.load() });
      } catch (error) {
        if (errorStatus(error) !== 404) console.error('the wishlist could not be loaded', error);
        set({ ids: [] });
      }
    };
    return {
      ids: local.getState().ids,
      mode: 'local',
      async sync(loggedIn) {
        if (!loggedIn) {
          set({ mode: 'local', ids: local.getState().ids });
          return;
        }
        set({ mode: 'server' });
        const pending = local.getState().ids;
        if (pending.length > 0) {
          try {
            await api.merge(pending);
            local.getState().clear();
          } catch (error) {
            // The local list stays; the next login tries again.
            console.error('the wishlist could not be merged', error);
          }
        }
        await load();
      },
      async add(id) {
        if (get().mode === 'local') {
          local.getState().add(id);
          return;
        }
        if (get().ids.includes(id)) return;
        set({ ids: [...get().ids, id] });
        try {
          await api.add(id);
        } catch (error) {
          // 400 is "already on the list": the server and the list agree.
          if (errorStatus(error) !== 400) {
            set({ ids: get().ids.filter((existing) => existing !== id) });
            throw error;
          }
        }
      },
      async remove(id) {
        if (get().mode === 'local') return local.getState().remove(id);
        const before = get().ids;
        set({ ids: before.filter((existing) => existing !== id) });
        try {
          await api.remove(id);
        } catch (error) {
          if (errorStatus(error) !== 404) {
            set({ ids: before });
            throw error;
          }
        }
      },
      toggle: (id) => (get().ids.includes(id) ? get().remove(id) : get().add(id)),
    };
  });
  // The local list changes (other tabs, clear): mirrored while it is the one in use.
  local.subscribe((state) => {
    if (store.getState().mode === 'local') store.setState({ ids: state.ids });
  });
  return store;
}

export const wishlistStore = createWishlistStore();

/** Follows the session: a login switches to the server list (after the merge), a logout back. */
export function followCustomer(store: StoreApi<WishlistState> = wishlistStore): () => void {
  let current: boolean | null = null;
  const apply = () => {
    const { customer, status } = customerStore.getState();
    if (status !== 'known') return;
    const loggedIn = isLoggedIn(customer);
    if (loggedIn === current) return;
    current = loggedIn;
    void store.getState().sync(loggedIn);
  };
  apply();
  return customerStore.subscribe(apply);
}

followCustomer();
