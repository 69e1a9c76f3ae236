/** How long a reload for a path is remembered, so a missing chunk cannot loop (spec section 4). */
export const RELOAD_GUARD_MS = 10_000;
const KEY = 'salesroom.chunkReload';

interface GuardStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * Whether a chunk load failure on `path` may reload the page: yes, unless it already
 * did within the last 10 s. A yes is remembered.
 */
export function mayReloadFor(path: string, storage: GuardStorage = sessionStorage, now = Date.now()): boolean {
  let guard: { path?: string; at?: number } | null;
  try {
    guard = JSON.parse(storage.getItem(KEY) ?? 'null') as { path?: string; at?: number } | null;
  } catch {
    guard = null;
  }
  if (guard?.path === path && typeof guard.at === 'number' && now - guard.at < RELOAD_GUARD_MS) return false;
  storage.setItem(KEY, JSON.stringify({ path, at: now }));
  return true;
}

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|Failed to fetch dynamically|error loading dynamically imported|ChunkLoadError|Unable to preload CSS/i.test(
    message,
  );
}

/**
 * Wraps a route module import: when its chunk fails to load (a new deployment removed
 * it) the page reloads once per path and guard window; after that the error surfaces.
 */
export function withReloadGuard<T>(load: () => Promise<T>, reload: () => void = () => window.location.reload()) {
  return async (): Promise<T> => {
    try {
      return await load();
    } catch (error) {
      if (isChunkLoadError(error) && mayReloadFor(window.location.pathname)) {
        reload();
        return new Promise<T>(() => {});
      }
      throw error;
    }
  };
}
