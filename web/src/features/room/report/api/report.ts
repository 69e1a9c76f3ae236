import type { RuntimeConfig } from '@/config/runtime';
import { createAdminClient, type AdminSession } from '@/lib/api/shop';

/** `GET /api/_action/dsr/appointment/{id}/report` (storefront-proxy `dsr/report.rs`). */
export interface SessionReport {
  appointment: { id: string; name: string; startedAt: string | null; endedAt: string | null };
  window: { from: string | null; to: string | null; ordersUntil: string | null; afterSessionHours: number };
  attendees: number;
  attendance: { minute: string; joined: number; joinedTotal: number }[];
  likes: { productId: string; name: string; likes: number }[];
  carts: { productId: string; name: string; quantity: number; attendees: number }[];
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
  live: { connectedNow: number; chatMessages: number; chatPerMinute: { minute: string; messages: number }[] } | null;
  generatedAt: string;
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
