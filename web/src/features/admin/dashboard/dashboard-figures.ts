import type { AggregationResults, Criteria } from '../api/client';
import { dayEnd, dayStart } from '../orders/order-criteria';

/** The browser's calendar day of `now` (`2026-11-28`). */
export function localDay(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * Today's orders (the browser's day): their count (the total) and their revenue per
 * currency, cancelled orders left out, summed by the server (criteria aggregations) over
 * every order of the day; no order itself is loaded.
 */
export function todaysOrdersCriteria(now: Date): Criteria {
  const day = localDay(now);
  return {
    limit: 1,
    filter: [{ type: 'range', field: 'orderDateTime', parameters: { gte: dayStart(day), lte: dayEnd(day) } }],
    aggregations: [
      {
        name: 'not-cancelled',
        type: 'filter',
        filter: [{ type: 'not', operator: 'and', queries: [{ type: 'equals', field: 'stateMachineState.technicalName', value: 'cancelled' }] }],
        aggregation: {
          name: 'revenue-per-currency',
          type: 'terms',
          field: 'currency.isoCode',
          aggregation: { name: 'revenue', type: 'sum', field: 'amountTotal' },
        },
      },
    ],
  };
}

/** The revenue per currency of `todaysOrdersCriteria`'s aggregations, to the cent, by currency code. */
export function revenueOfAggregations(aggregations: AggregationResults | [] | undefined): { currency: string; amount: number }[] {
  if (!aggregations || Array.isArray(aggregations)) return [];
  const buckets = aggregations['revenue-per-currency']?.buckets ?? [];
  return buckets
    .map((bucket) => {
      const revenue = bucket['revenue'] as { sum?: number } | undefined;
      return { currency: bucket.key, amount: Math.round((revenue?.sum ?? 0) * 100) / 100 };
    })
    .sort((a, b) => a.currency.localeCompare(b.currency));
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
