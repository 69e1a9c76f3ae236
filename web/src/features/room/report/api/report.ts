import type { RuntimeConfig } from '@/config/runtime';
import { createAdminClient, type AdminSession } from '@/lib/api/shop';

/** `GET /api/_action/dsr/appointment/{id}/report` (storefront-proxy `dsr/report.rs`). */
export interface SessionReport {
  appointment: { id: string; name: string; startedAt: string | null; endedAt: string | null };
  window: { from: string | null; to: string | null; ordersUntil: string | null; afterSessionHours: number };
  attendees: number;
  attendance: { minute: string; joined: number; joinedTotal: number }[];
  /** Per product: likes in the room, and hearts into a customer's wishlist (counted apart). */
  likes: { productId: string; name: string; likes: number; wishlist: number }[];
  /** Cart additions per product: in the attendees' carts now, and ordered in the session's orders. */
  carts: { productId: string; name: string; quantity: number; attendees: number; ordered: number }[];
  orders: {
    orderNumber: string;
    orderedAt: string;
    amountTotal: number;
    currency: string;
    attendeeId: string;
    attendeeName: string | null;
    afterSession: boolean;
  }[];
  revenue: { currency: string; amount: number }[];
  conversion: { attendees: number; buyers: number; rate: number };
  /** The hub's live numbers; null when the hub did not answer. */
  live: LiveReport | null;
  generatedAt: string;
}

/** Reaction taps per kind (as the hub's `ReactionCounts`). */
export interface ReactionsByKind {
  heart: number;
  clap: number;
  laugh: number;
  wow: number;
  fire: number;
}

/** What the hub kept of the session (its ordered log, folded), and its polls. */
export interface LiveReport {
  connectedNow: number;
  joinedNow: number;
  /** Most connected attendees at once, and the time-weighted average, over the session's window. */
  viewers: { peak: number; average: number };
  /** A point each time the number of joined or connected attendees changed (to the second). */
  attendance: { at: string; joined: number; connected: number }[];
  chatMessages: number;
  chatPerMinute: { minute: string; messages: number }[];
  reactions: { total: number; byKind: ReactionsByKind; perMinute: { minute: string; reactions: number }[] };
  /** The sum of the attendees' cart values, sampled by the hub when it changed. */
  cartValue: { at: string; value: number }[];
  polls: {
    pollId: string;
    question: string;
    multiple: boolean;
    status: 'open' | 'closed';
    voters: number;
    answers: { answerId: string; text: string; votes: number }[];
  }[];
}

export async function loadSessionReport(
  config: RuntimeConfig,
  session: AdminSession,
  appointmentId: string,
  onAuthChange: (session: AdminSession) => void,
): Promise<SessionReport> {
  const client = createAdminClient(config, session);
  client.hook('onAuthChange', onAuthChange);
  // The route is ours (not in Shopware's Admin API types).
  const { data } = await client.invoke('getSessionReport get /_action/dsr/appointment/{appointmentId}/report' as never, {
    pathParams: { appointmentId },
  } as never);
  return data;
}
