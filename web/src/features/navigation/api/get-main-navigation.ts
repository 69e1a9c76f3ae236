import type { Schemas } from '@shopware/api-client/store-api-types';
import { shopClient } from '@/lib/shop/session';

export type NavigationCategory = Schemas['Category'];

/** The header's category tree: `POST /navigation/main-navigation/main-navigation` (depth 2, as a tree). */
export async function getMainNavigation(depth = 2): Promise<NavigationCategory[]> {
  const { data } = await shopClient().invoke('readNavigation post /navigation/{activeId}/{rootId}', {
    pathParams: { activeId: 'main-navigation', rootId: 'main-navigation' },
    body: { depth, buildTree: true } as never,
  });
  return Array.isArray(data) ? data : [];
}

/** The footer's links: the children of the sales channel's footer category (`footer-navigation`, depth 1). */
export async function getFooterNavigation(): Promise<NavigationCategory[]> {
  const { data } = await shopClient().invoke('readNavigation post /navigation/{activeId}/{rootId}', {
    pathParams: { activeId: 'footer-navigation', rootId: 'footer-navigation' },
    body: { depth: 1, buildTree: true } as never,
  });
  return Array.isArray(data) ? data : [];
}
