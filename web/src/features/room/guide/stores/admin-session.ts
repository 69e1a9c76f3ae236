import type { AdminSession } from '@/lib/api/shop';

/** The guide's Admin API login lives for the browser tab (sessionStorage). */
const KEY = 'salesroom.adminSession';

export function loadAdminSession(): AdminSession | null {
  const stored = sessionStorage.getItem(KEY);
  return stored === null ? null : (JSON.parse(stored) as AdminSession);
}

export function saveAdminSession(session: AdminSession): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

export function clearAdminSession(): void {
  sessionStorage.removeItem(KEY);
}
