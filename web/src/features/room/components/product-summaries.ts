import { useEffect, useState } from 'react';
import type { RuntimeConfig } from '@/config/runtime';
import { useRuntimeConfig } from '@/config/runtime';
import { roomStoreClient, sessionLanguageId } from '../api/store-client';

/** What a product row of a room list shows. */
export interface ProductSummary {
  id: string;
  name: string;
  productNumber: string;
  coverUrl: string | null;
  /** Gross unit price of one piece, if known. */
  price: number | null;
}

/** Loads the summaries of `ids` in one request (missing products are left out). */
export async function getProductSummaries(config: RuntimeConfig, ids: string[], contextToken?: string): Promise<ProductSummary[]> {
  if (ids.length === 0) return [];
  const { data } = await roomStoreClient(config, contextToken).invoke('readProduct post /product', {
    body: { ids, limit: ids.length, associations: { cover: { associations: { media: {} } } } },
  });
  return data.elements.map((product) => ({
    id: product.id,
    name: product.translated?.name || product.name || product.productNumber,
    productNumber: product.productNumber,
    coverUrl: product.cover?.media?.url ?? null,
    price: product.calculatedPrice?.unitPrice ?? product.calculatedPrices?.[0]?.unitPrice ?? null,
  }));
}

/** Summaries already loaded, by language and product id: lists share them and a re-render does not refetch. */
const cache = new Map<string, ProductSummary | null>();
const cacheKey = (id: string) => `${sessionLanguageId() ?? ''}:${id}`;

export type SummariesStatus = 'loading' | 'ready' | 'failed';

/**
 * The summaries of `ids`, in their order, loading those not known yet. A product the shop
 * does not know any more is left out.
 */
export function useProductSummaries(
  ids: string[],
  contextToken?: string,
): { summaries: ProductSummary[]; status: SummariesStatus; retry: () => void } {
  const config = useRuntimeConfig();
  const key = ids.join(',');
  const [version, setVersion] = useState(0);
  const [failed, setFailed] = useState(false);
  const missing = ids.filter((id) => !cache.has(cacheKey(id)));

  // Other products or another context: their load has not failed (yet).
  const [loading, setLoading] = useState({ config, key, contextToken });
  if (loading.config !== config || loading.key !== key || loading.contextToken !== contextToken) {
    setLoading({ config, key, contextToken });
    setFailed(false);
  }

  useEffect(() => {
    const wanted = key ? key.split(',').filter((id) => !cache.has(cacheKey(id))) : [];
    if (wanted.length === 0) return;
    let cancelled = false;
    getProductSummaries(config, wanted, contextToken)
      .then((found) => {
        for (const id of wanted) cache.set(cacheKey(id), found.find((summary) => summary.id === id) ?? null);
        if (!cancelled) setVersion((value) => value + 1);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [config, key, contextToken, version]);

  const summaries = ids.map((id) => cache.get(cacheKey(id))).filter((summary): summary is ProductSummary => !!summary);
  const retry = () => {
    setFailed(false);
    setVersion((value) => value + 1);
  };
  return { summaries, status: missing.length === 0 ? 'ready' : failed ? 'failed' : 'loading', retry };
}
