import type { RuntimeConfig } from '@/config/runtime';
import { createAdminClient, createStoreClient, type AdminSession } from '@/lib/api/shop';
import type { Cart } from '@/lib/shop/cart';
import { saveAdminSession } from '../stores/admin-session';

function admin(config: RuntimeConfig, session: AdminSession) {
  const client = createAdminClient(config, session);
  client.hook('onAuthChange', saveAdminSession);
  return client;
}

/**
 * An attendee's cart, read with their shop context; the shop answers 403 while the
 * attendee has not granted cart access.
 */
async function attendeeShop(config: RuntimeConfig, session: AdminSession, attendeeId: string) {
  const { data } = await admin(config, session).invoke(
    'getAttendeeToken get /_action/dsr/appointment/attendee/{attendeeId}/sw-context-token',
    { pathParams: { attendeeId } },
  );
  const token = data['attendee-sw-context-token'];
  if (!token) throw new Error('the shop sent no context token for the attendee');
  return createStoreClient(config, token);
}

export async function loadAttendeeCart(config: RuntimeConfig, session: AdminSession, attendeeId: string): Promise<Cart> {
  const { data } = await (await attendeeShop(config, session, attendeeId)).invoke('readCart get /checkout/cart');
  return data;
}

/** Changes a line of the attendee's cart on their behalf (quantity 0 removes it). */
export async function changeAttendeeCart(
  config: RuntimeConfig,
  session: AdminSession,
  attendeeId: string,
  lineItemId: string,
  quantity: number,
): Promise<Cart> {
  const shop = await attendeeShop(config, session, attendeeId);
  const { data } =
    quantity > 0
      ? await shop.invoke('updateLineItem patch /checkout/cart/line-item', { body: { items: [{ id: lineItemId, quantity }] } })
      : await shop.invoke('removeLineItem post /checkout/cart/line-item/delete', { body: { ids: [lineItemId] } });
  return data;
}

/** The liked products of these attendees, by attendee id (the attendee product collection entity). */
export async function loadAttendeeLikes(config: RuntimeConfig, session: AdminSession, attendeeIds: string[]): Promise<Record<string, string[]>> {
  if (attendeeIds.length === 0) return {};
  const { data } = await admin(config, session).invoke('searchDsrAttendeeProductCollection post /search/dsr-attendee-product-collection', {
    body: {
      filter: [
        { type: 'equalsAny', field: 'attendeeId', value: attendeeIds },
        { type: 'equals', field: 'alias', value: 'liked' },
      ],
      limit: 500,
    } as never,
  });
  const likes: Record<string, string[]> = {};
  for (const entry of (data as { data?: { attendeeId: string; productId: string }[] }).data ?? []) {
    (likes[entry.attendeeId] ??= []).push(entry.productId);
  }
  return likes;
}

/**
 * An attendee's liked and last seen products, read with their shop context (only with
 * their permission, like the cart).
 */
export async function loadAttendeeCollections(
  config: RuntimeConfig,
  session: AdminSession,
  attendeeId: string,
): Promise<{ liked: string[]; lastSeen: string[] }> {
  const shop = await attendeeShop(config, session, attendeeId);
  const [liked, lastSeen] = await Promise.all([
    shop.invoke('getAttendeeProductCollection get /dsr/appointment/collection/{alias}', { pathParams: { alias: 'liked' } }),
    shop.invoke('getLastSeenProducts get /dsr/appointment/collection/last-seen'),
  ]);
  return {
    liked: (liked.data.collection as { liked?: string[] } | undefined)?.liked ?? [],
    lastSeen: lastSeen.data.collection?.lastSeen ?? [],
  };
}
