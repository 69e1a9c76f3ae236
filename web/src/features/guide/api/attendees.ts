import type { RuntimeConfig } from '@/config/runtime';
import { createAdminClient, createStoreClient, type AdminSession } from '@/lib/api/shop';
import type { Cart } from '@/lib/shop/cart';
import { saveAdminSession } from '../stores/admin-session';

function admin(config: RuntimeConfig, session: AdminSession) {
  const client = createAdminClient(config, session);
  client.hook('onAuthChange', saveAdminSession);
  return client;
}

/** Whose cart a proxied call acts on: the attendee, in the appointment's sales channel. */
export interface AttendeeRef {
  salesChannelId: string;
  attendeeId: string;
}

const proxied = ({ salesChannelId, attendeeId }: AttendeeRef) => ({ pathParams: { salesChannelId }, query: { attendeeId } });

/**
 * An attendee's cart through the proxied store API; the shop answers 403 while the
 * attendee has not granted cart access.
 */
export async function loadAttendeeCart(config: RuntimeConfig, session: AdminSession, attendee: AttendeeRef): Promise<Cart> {
  const { data } = await admin(config, session).invoke(
    'readAttendeeCart get /_proxy/store-api/{salesChannelId}/checkout/cart',
    proxied(attendee),
  );
  return data;
}

/** Changes a line of the attendee's cart on their behalf (quantity 0 removes it). */
export async function changeAttendeeCart(
  config: RuntimeConfig,
  session: AdminSession,
  attendee: AttendeeRef,
  lineItemId: string,
  quantity: number,
): Promise<Cart> {
  const client = admin(config, session);
  const { pathParams, query } = proxied(attendee);
  const { data } =
    quantity > 0
      ? await client.invoke('updateAttendeeLineItem patch /_proxy/store-api/{salesChannelId}/checkout/cart/line-item', {
          pathParams,
          query,
          body: { items: [{ id: lineItemId, quantity }] },
        })
      : await client.invoke('removeAttendeeLineItem delete /_proxy/store-api/{salesChannelId}/checkout/cart/line-item', {
          pathParams,
          query: { ...query, ids: [lineItemId] },
        });
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

/** The attendee's own shop context (their `sw-context-token`). */
async function attendeeShop(config: RuntimeConfig, session: AdminSession, attendeeId: string) {
  const { data } = await admin(config, session).invoke(
    'getAttendeeToken get /_action/dsr/appointment/attendee/{attendeeId}/sw-context-token',
    { pathParams: { attendeeId } },
  );
  const token = data['attendee-sw-context-token'];
  if (!token) throw new Error('the shop sent no context token for the attendee');
  return createStoreClient(config, token);
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
