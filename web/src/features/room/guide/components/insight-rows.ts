import type { AttendeeInsights } from '../api/room-admin';
import type { AttendeeCart } from '../stores/insights';

/** One attendee of the insights widget: products in the cart and the cart's gross total (null while unknown). */
export interface InsightRow {
  id: string;
  productCount: number;
  total: number | null;
}

/**
 * The attendee insights widget's rows (attendees with products in their cart). The shop
 * answers each cart's sum net (`cartSum`, as Shopware's DSR documents it); the room shows
 * every price gross, as the shop does, so a row's total is the gross total the guide knows
 * of that cart (from the hub's cart events or a read of the cart), none while unknown.
 */
export function insightRows(insights: AttendeeInsights | null | undefined, carts: Record<string, AttendeeCart>): InsightRow[] {
  return Object.values(insights?.attendees ?? {}).flatMap((entry) => {
    if (!entry?.id || (entry.productCount ?? 0) <= 0) return [];
    const cart = carts[entry.id];
    const known = cart && cart.status !== 'failed' && cart.lineItemCount > 0;
    return [{ id: entry.id, productCount: entry.productCount ?? 0, total: known ? cart.totalPrice : null }];
  });
}
