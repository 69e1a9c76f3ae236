import type { Schemas } from '@shopware/api-client/admin-api-types';
import type { RuntimeConfig } from '@/config/runtime';
import { createAdminClient, createStoreClient, type AdminSession } from '@/lib/api/shop';
import { sessionLanguageId } from '../../api/store-client';
import { saveAdminSession } from '../stores/admin-session';

function admin(config: RuntimeConfig, session: AdminSession) {
  const client = createAdminClient(config, session);
  client.hook('onAuthChange', saveAdminSession);
  // Product names in the cockpit's language, as the slides show them (the language cookie may not be set yet).
  const languageId = sessionLanguageId();
  if (languageId) client.defaultHeaders['sw-language-id'] = languageId;
  return client;
}

/** A product as the guide's lists show it. */
export interface GuideProduct {
  id: string;
  name: string;
  productNumber: string;
  coverUrl: string | null;
}

type AnyProduct = {
  id: string;
  name?: string | null;
  productNumber?: string;
  translated?: { name?: string | null };
  cover?: { media?: { url?: string } | null } | null;
};

export const guideProductOf = (product: AnyProduct): GuideProduct => ({
  id: product.id,
  name: product.translated?.name || product.name || product.id,
  productNumber: product.productNumber ?? '',
  coverUrl: product.cover?.media?.url ?? null,
});

/** Products by name or number, for an instant listing (`POST /api/search/product`); with `categoryId`, of that category only. */
export async function searchProducts(config: RuntimeConfig, session: AdminSession, term: string, limit = 10, categoryId?: string): Promise<GuideProduct[]> {
  const filter = categoryId ? [{ type: 'equals', field: 'categoryIds', value: categoryId }] : undefined;
  const { data } = await admin(config, session).invoke('searchProduct post /search/product', {
    body: { term: term.trim() || undefined, limit, filter, associations: { cover: { associations: { media: {} } } } } as never,
  });
  return ((data as { data?: AnyProduct[] }).data ?? []).map(guideProductOf);
}

/** These products, in this order (unknown ones left out). */
export async function productsByIds(config: RuntimeConfig, session: AdminSession, ids: string[]): Promise<GuideProduct[]> {
  if (ids.length === 0) return [];
  const { data } = await admin(config, session).invoke('searchProduct post /search/product', {
    body: { ids, limit: ids.length, associations: { cover: { associations: { media: {} } } } },
  });
  const found = new Map(((data as { data?: AnyProduct[] }).data ?? []).map((product) => [product.id, guideProductOf(product)]));
  return ids.flatMap((id) => found.get(id) ?? []);
}

/** A category the guide browses the catalogue by. */
export interface GuideCategory {
  id: string;
  name: string;
}

/** The shop's main categories (the header's navigation, one level) in the guide's language. */
export async function catalogueCategories(config: RuntimeConfig, contextToken: string): Promise<GuideCategory[]> {
  const { data } = await createStoreClient(config, contextToken).invoke('readNavigation post /navigation/{activeId}/{rootId}', {
    pathParams: { activeId: 'main-navigation', rootId: 'main-navigation' },
    body: { depth: 1, buildTree: true } as never,
  });
  const categories = Array.isArray(data) ? data : [];
  return categories.map((category) => ({ id: category.id, name: category.translated?.name || category.name || category.id }));
}

/** One saved product as the shop keeps it: its id and the guide's note. */
export interface SavedEntry {
  productId: string;
  note: string | null;
}

/** The guide's saved products of the appointment (shared by its guides, kept between sessions), in the guide's order. */
export interface SavedProductsApi {
  load(): Promise<SavedEntry[]>;
  save(productIds: string[]): Promise<SavedEntry[]>;
  /** Moves one (0-based position) and/or sets its note (null clears it). */
  update(productId: string, change: { position?: number; note?: string | null }): Promise<SavedEntry[]>;
  remove(productId: string): Promise<void>;
  clear(): Promise<void>;
}

const entriesOf = (data: { elements: SavedEntry[] }): SavedEntry[] => data.elements.map(({ productId, note }) => ({ productId, note }));

export function savedProductsApi(config: RuntimeConfig, session: () => AdminSession, appointmentId: string): SavedProductsApi {
  const pathParams = { appointmentId };
  return {
    async load() {
      const { data } = await admin(config, session()).invoke('readSavedProducts get /_action/dsr/appointment/{appointmentId}/saved-products', { pathParams });
      return entriesOf(data);
    },
    async save(productIds) {
      const { data } = await admin(config, session()).invoke('saveProducts post /_action/dsr/appointment/{appointmentId}/saved-products', { pathParams, body: { productIds } });
      return entriesOf(data);
    },
    async update(productId, change) {
      const { data } = await admin(config, session()).invoke('updateSavedProduct patch /_action/dsr/appointment/{appointmentId}/saved-products/{productId}', {
        pathParams: { appointmentId, productId },
        body: change,
      });
      return entriesOf(data);
    },
    async remove(productId) {
      await admin(config, session()).invoke('removeSavedProduct delete /_action/dsr/appointment/{appointmentId}/saved-products/{productId}', {
        pathParams: { appointmentId, productId },
      });
    },
    async clear() {
      await admin(config, session()).invoke('clearSavedProducts delete /_action/dsr/appointment/{appointmentId}/saved-products', { pathParams });
    },
  };
}

/** The listing layout an instant listing is made with: a CMS page and its section. */
export interface ListingLayout {
  pageId: string;
  slideId: string;
}

/** Creates an instant listing after the page `after`; answers the new slide's number. */
export async function createInstantListing(
  config: RuntimeConfig,
  session: AdminSession,
  appointmentId: string,
  body: { productIds: string[]; pageName: string | null; currentPageGroupId: string | null; layout: ListingLayout },
): Promise<number | undefined> {
  const { data } = await admin(config, session).invoke('addInstantListing post /_action/dsr/appointment/{appointmentId}/instant-listing', {
    pathParams: { appointmentId },
    body: {
      productIds: body.productIds,
      pageName: body.pageName,
      ...(body.currentPageGroupId ? { currentPageGroupId: body.currentPageGroupId } : {}),
      ...body.layout,
    },
  });
  return data.index;
}

/** Replaces the products (in this order) and the name of the instant listing `groupId`. */
export async function updateInstantListing(
  config: RuntimeConfig,
  session: AdminSession,
  appointmentId: string,
  body: { groupId: string; productIds: string[]; pageName: string | null; layout: ListingLayout },
): Promise<void> {
  await admin(config, session).invoke('updateInstantListing patch /_action/dsr/appointment/{appointmentId}/instant-listing', {
    pathParams: { appointmentId },
    body: {
      currentPageGroupId: body.groupId,
      productIds: body.productIds,
      addProductIds: [],
      removeProductIds: [],
      pageName: body.pageName,
      ...body.layout,
    } as never,
  });
}

/** Takes the published instant listing `groupId` out of the presentation (attendees reload it). */
export async function deleteInstantListing(config: RuntimeConfig, session: AdminSession, appointmentId: string, groupId: string): Promise<void> {
  await admin(config, session).invoke('deleteInstantListing delete /_action/dsr/appointment/{appointmentId}/instant-listing/{pageId}', {
    pathParams: { appointmentId, pageId: groupId },
  });
}

/** The picked products of a listing page, in order (the guide's own shop context). */
export async function listingProducts(config: RuntimeConfig, contextToken: string, groupId: string): Promise<GuideProduct[]> {
  const { data } = await createStoreClient(config, contextToken).invoke('dsrProductListing post /dsr/product-listing', {
    body: { currentPageGroupId: groupId, limit: 100, loadAllIds: false } as never,
  });
  return ((data as unknown as { elements?: AnyProduct[] }).elements ?? []).map(guideProductOf);
}

export type CartStatistics = Schemas['Cart'];
export type AttendeeInsights = Schemas['GetAttendeeInsightsResponse'];

export interface WidgetProducts {
  products: (AnyProduct & { customFields?: Record<string, unknown> })[];
  total: number;
}

export interface Widgets {
  cartStatistics(): Promise<CartStatistics>;
  attendeeInsights(): Promise<AttendeeInsights>;
  wishlist(): Promise<WidgetProducts>;
  lastSeen(): Promise<WidgetProducts>;
}

/** The widget endpoints of one appointment. */
export function widgetsApi(config: RuntimeConfig, session: () => AdminSession, appointmentId: string): Widgets {
  const pathParams = { appointmentId };
  return {
    async cartStatistics() {
      const { data } = await admin(config, session()).invoke('getCartStatistics get /_action/dsr/appointment/{appointmentId}/widgets/cart-statistics', { pathParams });
      return data;
    },
    async attendeeInsights() {
      const { data } = await admin(config, session()).invoke('getAttendeeInsights get /_action/dsr/appointment/{appointmentId}/widgets/attendee-insights', { pathParams });
      return data;
    },
    async wishlist() {
      const { data } = await admin(config, session()).invoke('getWishlistInsights get /_action/dsr/appointment/{appointmentId}/widgets/wishlist-statistics', { pathParams });
      return data as unknown as WidgetProducts;
    },
    async lastSeen() {
      const { data } = await admin(config, session()).invoke('getLastSeenProductsInsights get /_action/dsr/appointment/{appointmentId}/widgets/last-seen-statistics', { pathParams });
      return data as unknown as WidgetProducts;
    },
  };
}
