import { createStore } from 'zustand/vanilla';

/** Who is logged in to the backoffice: OAuth tokens and the user's role. */
export interface AdminSession {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds when the access token ends. */
  expiresAt: number;
  username: string;
  role: 'admin' | 'guide';
}

const KEY = 'salesroom.admin.session';

function read(storage: Pick<Storage, 'getItem'> | null): AdminSession | null {
  try {
    const value = JSON.parse(storage?.getItem(KEY) ?? 'null') as AdminSession | null;
    return value && typeof value.accessToken === 'string' && typeof value.refreshToken === 'string' ? value : null;
  } catch {
    return null;
  }
}

const browserStorage = typeof sessionStorage === 'undefined' ? null : sessionStorage;

/** The session, kept in sessionStorage: it ends with the tab, and a reload keeps it. */
export const adminSessionStore = createStore<{ session: AdminSession | null }>(() => ({ session: read(browserStorage) }));

adminSessionStore.subscribe(({ session }) => {
  if (!browserStorage) return;
  if (session) browserStorage.setItem(KEY, JSON.stringify(session));
  else browserStorage.removeItem(KEY);
});
