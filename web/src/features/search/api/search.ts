import type { Schemas } from '@shopware/api-client/store-api-types';
import { shopClient } from '@/lib/shop/session';

export type ListingResult = Schemas['ProductListingResult'];
export type ListingCriteria = Schemas['ProductListingCriteria'];

/** Products for the suggestion list under the search field: `POST /search-suggest`. */
export async function searchSuggest(term: string, limit = 5, signal?: AbortSignal): Promise<ListingResult> {
  const { data } = await shopClient().invoke('searchSuggest post /search-suggest', {
    body: { search: term, limit },
    fetchOptions: { signal },
  });
  return data;
}

/** The search results page: `POST /search?search={term}` with the listing criteria. */
export async function searchProducts(term: string, criteria: ListingCriteria): Promise<ListingResult> {
  const { data } = await shopClient().invoke('searchPage post /search', {
    query: { search: term } as never,
    body: { ...criteria, search: term },
  });
  return data;
}
