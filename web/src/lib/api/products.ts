import type { RuntimeConfig } from '@/config/runtime';
import { createStoreClient } from './shop';

export interface ProductLabel {
  id: string;
  name: string;
  productNumber: string;
  coverUrl: string | null;
}

/** Products by id, or the first `limit` of the catalogue without ids: only what a label needs. */
export async function getProductLabels(
  config: RuntimeConfig,
  { ids, limit = 24, contextToken }: { ids?: string[]; limit?: number; contextToken?: string },
): Promise<ProductLabel[]> {
  const { data } = await createStoreClient(config, contextToken).invoke('readProduct post /product', {
    body: {
      ...(ids ? { ids } : {}),
      limit: ids ? ids.length : limit,
      associations: { cover: { associations: { media: {} } } },
    },
  });
  return data.elements.map((product) => ({
    id: product.id,
    name: product.translated?.name || product.name || product.id,
    productNumber: product.productNumber,
    coverUrl: product.cover?.media?.url ?? null,
  }));
}
