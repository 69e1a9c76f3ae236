import type { Schemas } from '@shopware/api-client/store-api-types';
import { ApiClientError } from '@shopware/api-client';
import { createStore } from 'zustand/vanilla';
import { onAuthFailure, shopClient } from './session';

export type Customer = Schemas['Customer'];

interface CustomerState {
  customer: Customer | null;
  status: 'unknown' | 'loading' | 'known';
  /**
   * Loads the session's customer. The context says whether anyone is logged in, so a guest's
   * visit asks nothing that fails; 403 (or 401) from the customer route still means nobody.
   */
  refresh(): Promise<Customer | null>;
  login(username: string, password: string): Promise<Customer | null>;
  logout(): Promise<void>;
  register(body: Record<string, unknown>): Promise<Customer | null>;
}

/** Logged in means: a customer with an id, active and not a guest (spec section 4). */
export function isLoggedIn(customer: Pick<Customer, 'id' | 'active' | 'guest'> | null | undefined): boolean {
  return !!customer?.id && customer.active !== false && !customer.guest;
}

export function createCustomerStore() {
  return createStore<CustomerState>()((set, get) => ({
    customer: null,
    status: 'unknown',
    async refresh() {
      set({ status: get().status === 'known' ? 'known' : 'loading' });
      try {
        const { data: context } = await shopClient().invoke('readContext get /context');
        if (!context.customer) {
          set({ customer: null, status: 'known' });
          return null;
        }
        const { data } = await shopClient().invoke('readCustomer post /account/customer', { body: {} });
        set({ customer: data, status: 'known' });
        return data;
      } catch (error) {
        if (error instanceof ApiClientError && (error.status === 403 || error.status === 401)) {
          set({ customer: null, status: 'known' });
          return null;
        }
        set({ status: 'known' });
        throw error;
      }
    },
    async login(username, password) {
      const { data } = await shopClient().invoke('loginCustomer post /account/login', { body: { username, password } });
      const token = (data as { contextToken?: string }).contextToken;
      if (token) shopClient().defaultHeaders['sw-context-token'] = token;
      return get().refresh();
    },
    async logout() {
      try {
        await shopClient().invoke('logoutCustomer post /account/logout');
      } finally {
        set({ customer: null, status: 'known' });
      }
    },
    async register(body) {
      const { data } = await shopClient().invoke('register post /account/register', { body: body as never });
      set({ customer: data, status: 'known' });
      return data;
    },
  }));
}

export const customerStore = createCustomerStore();

onAuthFailure(() => {
  customerStore.getState().refresh().catch(() => undefined);
});
