import { createContext, useContext, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useRuntimeConfig } from '@/config/runtime';
import { AdminApi } from './client';
import { adminSessionStore, type AdminSession } from './session';

const AdminApiContext = createContext<AdminApi | null>(null);

/** One Admin API client for the backoffice, on the shop endpoint of the runtime config. */
export function AdminApiProvider({ children, api }: { children: ReactNode; api?: AdminApi }) {
  const config = useRuntimeConfig();
  const [client] = useState(() => api ?? new AdminApi(config.shopEndpoint));
  return <AdminApiContext.Provider value={client}>{children}</AdminApiContext.Provider>;
}

export function useAdminApi(): AdminApi {
  const api = useContext(AdminApiContext);
  if (!api) throw new Error('useAdminApi outside AdminApiProvider');
  return api;
}

/** The logged-in user (null: logged out), re-rendering on login, refresh and logout. */
export function useAdminSession(): AdminSession | null {
  return useStore(adminSessionStore, (state) => state.session);
}
