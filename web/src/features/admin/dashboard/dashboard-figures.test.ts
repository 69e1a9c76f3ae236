import { describe, expect, it } from 'vitest';
import { localDay, nextAppointmentsCriteria, openToShipCriteria, revenueOfAggregations, todaysOrdersCriteria } from './dashboard-figures';

describe('the dashboard', () => {
  it('counts today as the browser’s calendar day', () => {
    const now = new Date(2026, 10, 28, 23, 30);
    expect(localDay(now)).toBe('2026-11-28');
    const [range] = todaysOrdersCriteria(now).filter as { parameters: { gte: string; lte: string } }[];
    expect(range!.parameters.gte).toBe(new Date(2026, 10, 28).toISOString());
    expect(range!.parameters.lte).toBe(new Date(new Date(2026, 10, 29).getTime() - 1).toISOString());
  });

  it('asks the server for the revenue per currency, cancelled orders left out, loading no order', () => {
    const criteria = todaysOrdersCriteria(new Date(2026, 10, 28, 12));
    expect(criteria.limit).toBe(1);
    expect(criteria.associations).toBeUndefined();
    expect(criteria.aggregations).toEqual([
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
    ]);
  });

  it('reads the revenue per currency from the aggregations, to the cent', () => {
    const aggregations = {
      'revenue-per-currency': {
        buckets: [
          { key: 'EUR', count: 3, revenue: { sum: 0.30000000000000004 } },
          { key: 'CHF', count: 1, revenue: { sum: 12.5 } },
        ],
      },
    };
    expect(revenueOfAggregations(aggregations)).toEqual([
      { currency: 'CHF', amount: 12.5 },
      { currency: 'EUR', amount: 0.3 },
    ]);
    // No order today: no bucket; Shopware answers `[]` when nothing was aggregated.
    expect(revenueOfAggregations({ 'revenue-per-currency': { buckets: [] } })).toEqual([]);
    expect(revenueOfAggregations([])).toEqual([]);
    expect(revenueOfAggregations(undefined)).toEqual([]);
  });

  it('finds the orders to ship (delivery open, order not cancelled) longest waiting first', () => {
    const criteria = openToShipCriteria(5);
    expect(criteria.filter).toEqual([
      { type: 'equals', field: 'deliveries.stateMachineState.technicalName', value: 'open' },
      { type: 'not', operator: 'and', queries: [{ type: 'equals', field: 'stateMachineState.technicalName', value: 'cancelled' }] },
    ]);
    expect(criteria.sort).toEqual([{ field: 'orderDateTime', order: 'ASC' }]);
  });

  it('shows the appointments not ended and still open, soonest first', () => {
    const now = new Date('2026-11-28T12:00:00Z');
    const criteria = nextAppointmentsCriteria(now, 5);
    expect(criteria.limit).toBe(5);
    expect(JSON.stringify(criteria.filter)).toContain('"gte":"2026-11-28T12:00:00.000Z"');
    expect(criteria.sort).toEqual([{ field: 'accessibleFrom', order: 'ASC' }]);
  });
});
