import type { Criteria } from '../api/client';
import { dayEnd, dayStart } from '../orders/order-criteria';

/** The browser's calendar day of `now` (`2026-11-28`). */
export function localDay(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Today's orders (the browser's day): every one, for the count and the revenue. */
export function todaysOrdersCriteria(now: Date): Criteria {
  const day = localDay(now);
  return {
    limit: 500,
    filter: [{ type: 'range', field: 'orderDateTime', parameters: { gte: dayStart(day), lte: dayEnd(day) } }],
    associations: { stateMachineState: {}, currency: {} },
  };
}

/** Orders waiting to be shipped: delivery open, the order not cancelled; the longest waiting first. */
export function openToShipCriteria(limit: number): Criteria {
  return {
    limit,
    filter: [
      { type: 'equals', field: 'deliveries.stateMachineState.technicalName', value: 'open' },
      { type: 'not', operator: 'and', queries: [{ type: 'equals', field: 'stateMachineState.technicalName', value: 'cancelled' }] },
    ],
    sort: [{ field: 'orderDateTime', order: 'ASC' }],
    associations: { orderCustomer: {}, currency: {}, stateMachineState: {} },
  };
}

/** The next appointments: not ended, still open to attend, the soonest first. */
export function nextAppointmentsCriteria(now: Date, limit: number): Criteria {
  return {
    limit,
    filter: [
      { type: 'equals', field: 'endedAt', value: null },
      {
        type: 'multi',
        operator: 'or',
        queries: [
          { type: 'equals', field: 'accessibleTo', value: null },
          { type: 'range', field: 'accessibleTo', parameters: { gte: now.toISOString() } },
        ],
      },
    ],
    sort: [{ field: 'accessibleFrom', order: 'ASC' }],
  };
}

interface DayOrder {
  amountTotal: number;
  currency?: { isoCode: string } | null;
  stateMachineState?: { technicalName: string } | null;
}

/** Revenue of orders, per currency (a shop may sell in several), cancelled orders left out; in cents-exact sums. */
export function revenueOf(orders: DayOrder[], fallbackCurrency = 'EUR'): { currency: string; amount: number }[] {
  const sums = new Map<string, number>();
  for (const order of orders) {
    if (order.stateMachineState?.technicalName === 'cancelled') continue;
    const currency = order.currency?.isoCode ?? fallbackCurrency;
    sums.set(currency, (sums.get(currency) ?? 0) + Math.round(order.amountTotal * 100));
  }
  return [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount: amount / 100 }));
}
