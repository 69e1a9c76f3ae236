import { describe, expect, it } from 'vitest';
import { localDay, nextAppointmentsCriteria, openToShipCriteria, revenueOf, todaysOrdersCriteria } from './dashboard-figures';

describe('the dashboard', () => {
  it('counts today as the browser’s calendar day', () => {
    const now = new Date(2026, 10, 28, 23, 30);
    expect(localDay(now)).toBe('2026-11-28');
    const [range] = todaysOrdersCriteria(now).filter as { parameters: { gte: string; lte: string } }[];
    expect(range!.parameters.gte).toBe(new Date(2026, 10, 28).toISOString());
    expect(range!.parameters.lte).toBe(new Date(new Date(2026, 10, 29).getTime() - 1).toISOString());
  });

  it('sums the revenue per currency to the cent, cancelled orders left out', () => {
    const orders = [
      { amountTotal: 0.1, currency: { isoCode: 'EUR' } },
      { amountTotal: 0.2, currency: { isoCode: 'EUR' } },
      { amountTotal: 100, currency: { isoCode: 'EUR' }, stateMachineState: { technicalName: 'cancelled' } },
      { amountTotal: 12.5, currency: { isoCode: 'CHF' } },
      { amountTotal: 1 },
    ];
    expect(revenueOf(orders)).toEqual([
      { currency: 'CHF', amount: 12.5 },
      { currency: 'EUR', amount: 1.3 },
    ]);
    expect(revenueOf([])).toEqual([]);
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
