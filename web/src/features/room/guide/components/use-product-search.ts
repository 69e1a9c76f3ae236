import { useEffect, useState } from 'react';
import type { GuideProduct } from '../api/room-admin';

const SEARCH_DELAY_MS = 250;

/**
 * The guide's catalogue search (name or product number over the whole catalogue, the
 * admin product search): the products found for `term`, null while the first answer is
 * awaited; typing waits for a short pause before it asks.
 */
export function useProductSearch(search: (term: string) => Promise<GuideProduct[]>, term: string) {
  const [found, setFound] = useState<GuideProduct[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    const timer = setTimeout(() => {
      search(term)
        .then((products) => {
          if (cancelled) return;
          setFound(products);
          setFailed(false);
        })
        .catch(() => !cancelled && setFailed(true));
    }, SEARCH_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [term, search]);
  return { found, failed };
}
