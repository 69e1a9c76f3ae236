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
export async function loadAttendeeCart(config: RuntimeConfig, session: AdminSession, attendeeId: string): Promise<Cart> {
  const { data } = await admin(config, session).invoke(
    'getAttendeeToken get /_action/dsr/appointment/attendee/{attendeeId}/sw-context-token',
    { pathParams: { attendeeId } },
  );
  const token = data['attendee-sw-context-token'];
  if (!token) throw new Error('the shop sent no context token for the attendee');
  const { data: cart } = await createStoreClient(config, token).invoke('readCart get /checkout/cart');
  return cart;
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
