import type { RuntimeConfig } from '@/config/runtime';
import { createStoreClient } from '@/lib/api/shop';

/** The attendee's product collections on the shop (liked, last seen), with the attendee's context. */
export interface CollectionsApi {
  liked(): Promise<string[]>;
  lastSeen(): Promise<string[]>;
  like(productId: string): Promise<void>;
  unlike(productId: string): Promise<void>;
  /** Records that the attendee looked at a product (it goes to the top of last seen). */
  viewed(productId: string): Promise<void>;
}

export function collectionsApi(config: RuntimeConfig, contextToken: string): CollectionsApi {
  const client = () => createStoreClient(config, contextToken);
  return {
    async liked() {
      const { data } = await client().invoke('getAttendeeProductCollection get /dsr/appointment/collection/{alias}', {
        pathParams: { alias: 'liked' },
      });
      const collection = data.collection as { liked?: string[] } | undefined;
      return collection?.liked ?? [];
    },
    async lastSeen() {
      const { data } = await client().invoke('getLastSeenProducts get /dsr/appointment/collection/last-seen');
      return data.collection?.lastSeen ?? [];
    },
    async like(productId) {
      await client().invoke('attendeeProductCollectionAddProduct post /dsr/appointment/collection/{alias}/{productId}', {
        pathParams: { alias: 'liked', productId },
      });
    },
    async unlike(productId) {
      await client().invoke('attendeeProductCollectionRemoveProduct delete /dsr/appointment/collection/{alias}/{productId}', {
        pathParams: { alias: 'liked', productId },
      });
    },
    async viewed(productId) {
      await client().invoke('addInteraction post /dsr/interaction', {
        body: { name: 'product.viewed', payload: { productId } } as never,
      });
    },
  };
}
