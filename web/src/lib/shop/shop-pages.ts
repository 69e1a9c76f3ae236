import type { Schemas } from '@shopware/api-client/store-api-types';
import { errorStatus } from '@/lib/api/shop';
import { shopClient } from './session';

/** The legal pages the merchant writes in the backoffice (`dsr_shop_page` names, as Shopware's basic information). */
export const LEGAL_PAGES = ['privacy', 'tos', 'imprint'] as const;
export type LegalPage = (typeof LEGAL_PAGES)[number];

/**
 * A shop page (`GET /store-api/dsr/shop-pages/{name}`: a CMS page) in the shop's current
 * language; null when the shop has none of that name.
 */
export async function loadShopPage(name: string): Promise<Schemas['CmsPage'] | null> {
  try {
    const { data } = await shopClient().invoke('dsrReadShopPage get /dsr/shop-pages/{layoutName}', { pathParams: { layoutName: name } });
    return data;
  } catch (error) {
    if (errorStatus(error) === 404) return null;
    throw error;
  }
}
