import { useEffect } from 'react';
import { createStore } from 'zustand/vanilla';

/**
 * The language-independent path of the content page on screen (`/navigation/{id}`,
 * `/detail/{id}`, `/landingPage/{id}`). Seo paths differ between languages, so a
 * language switch goes there instead of to the same seo path.
 */
export const pagePathStore = createStore<{ path: string | null }>(() => ({ path: null }));

export function usePagePath(path: string | null): void {
  useEffect(() => {
    pagePathStore.setState({ path });
    return () => pagePathStore.setState({ path: null });
  }, [path]);
}
