import type { RuntimeConfig } from '@/config/runtime';
import { createAdminClient, createStoreClient, errorStatus, type AdminSession } from '@/lib/api/shop';
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

interface CollectionEntry {
  attendeeId: string;
  productId: string;
  alias: 'liked' | 'disliked' | 'lastSeen';
}

/**
 * Entries of the attendee product collection entity (likes and last seen), newest first.
 * Guides read them through the admin API: what attendees like is theirs to see, with or
 * without access to the cart.
 */
async function searchCollections(
  config: RuntimeConfig,
  session: AdminSession,
  attendeeIds: string[],
  aliases: CollectionEntry['alias'][],
): Promise<CollectionEntry[]> {
  const { data } = await admin(config, session).invoke('searchDsrAttendeeProductCollection post /search/dsr-attendee-product-collection', {
    body: {
      filter: [
        { type: 'equalsAny', field: 'attendeeId', value: attendeeIds },
        { type: 'equalsAny', field: 'alias', value: aliases },
      ],
      sort: [{ field: 'createdAt', order: 'DESC' }],
      limit: 500,
    } as never,
  });
  return (data as { data?: CollectionEntry[] }).data ?? [];
}

/** The liked products of these attendees, by attendee id. */
export async function loadAttendeeLikes(config: RuntimeConfig, session: AdminSession, attendeeIds: string[]): Promise<Record<string, string[]>> {
  if (attendeeIds.length === 0) return {};
  const likes: Record<string, string[]> = {};
  for (const entry of await searchCollections(config, session, attendeeIds, ['liked'])) {
    (likes[entry.attendeeId] ??= []).push(entry.productId);
  }
  return likes;
}

/** An attendee's liked and last seen products, newest first. */
export async function loadAttendeeCollections(
  config: RuntimeConfig,
  session: AdminSession,
  attendeeId: string,
): Promise<{ liked: string[]; lastSeen: string[] }> {
  const entries = await searchCollections(config, session, [attendeeId], ['liked', 'lastSeen']);
  const of = (alias: CollectionEntry['alias']) => entries.filter((entry) => entry.alias === alias).map((entry) => entry.productId);
  return { liked: of('liked'), lastSeen: of('lastSeen') };
}

/** Closes an attendee out of the live room (`POST …/attendee/{id}/remove`); they cannot join again with that session. */
export async function removeAttendee(config: RuntimeConfig, session: AdminSession, attendeeId: string): Promise<void> {
  await admin(config, session).invoke('removeAttendee post /_action/dsr/appointment/attendee/{attendeeId}/remove', {
    pathParams: { attendeeId },
  });
}

/**
 * An attendee's wishlist, with their cart permission: the shop session of the attendee
 * (`…/attendee/{id}/sw-context-token`, refused without the permission) reads its server
 * wishlist. Null when the attendee is not a logged-in customer: a guest's wishlist lives
 * in their browser only (spec section 3), out of anyone else's reach.
 */
export async function loadAttendeeWishlist(config: RuntimeConfig, session: AdminSession, attendeeId: string): Promise<string[] | null> {
  const { data: token } = await admin(config, session).invoke('getAttendeeToken get /_action/dsr/appointment/attendee/{attendeeId}/sw-context-token', {
    pathParams: { attendeeId },
  });
  const contextToken = (token as Record<string, unknown>)['attendee-sw-context-token'];
  if (typeof contextToken !== 'string') throw new Error('no context token for the attendee');
  try {
    const { data } = await createStoreClient(config, contextToken).invoke('readCustomerWishlist post /customer/wishlist', {
      body: { limit: 100, includes: { product: ['id'] } },
    });
    return ((data.products?.elements ?? []) as { id: string }[]).map((product) => product.id);
  } catch (error) {
    const status = errorStatus(error);
    // 404: a customer without a wishlist yet; 401/403: a guest, whose wishlist stays in their browser.
    if (status === 404) return [];
    if (status === 401 || status === 403) return null;
    throw error;
  }
}

/** An attendee's answer to the invitation (spec section 3). */
export type InvitationAnswer = 'accepted' | 'maybe' | 'declined';

/** One attendee's answer to the invitation, as the guide lists it. */
export interface InvitationEntry {
  attendeeId: string;
  name: string;
  answer: InvitationAnswer;
}

/**
 * Every answer to this appointment's invitation, also of attendees who have not come into
 * the room (`POST /api/search/dsr-appointment-attendee`), in the order they joined.
 */
export async function loadInvitationAnswers(config: RuntimeConfig, session: AdminSession, appointmentId: string): Promise<InvitationEntry[]> {
  const { data } = await admin(config, session).invoke('searchDsrAppointmentAttendee post /search/dsr-appointment-attendee', {
    body: {
      filter: [
        { type: 'equals', field: 'appointmentId', value: appointmentId },
        { type: 'equalsAny', field: 'invitationStatus', value: ['accepted', 'maybe', 'declined'] },
      ],
      limit: 500,
    } as never,
  });
  const rows = (data as { data?: { id: string; attendeeName?: string | null; invitationStatus: InvitationAnswer }[] }).data ?? [];
  return rows.map((row) => ({ attendeeId: row.id, name: row.attendeeName ?? '', answer: row.invitationStatus }));
}
