import { describe, expect, it } from 'vitest';
import { currentTransaction, dayEnd, dayStart, filtersFromParams, filtersToParams, NO_FILTERS, orderListCriteria, primaryDelivery } from './order-criteria';

describe('the order list criteria', () => {
  it('are newest first with the associations the table shows, and no filter without one', () => {
    const criteria = orderListCriteria(NO_FILTERS, 2, 25);
    expect(criteria).toMatchObject({ page: 2, limit: 25, filter: [], sort: [{ field: 'orderDateTime', order: 'DESC' }] });
    expect(Object.keys(criteria.associations ?? {})).toEqual(expect.arrayContaining(['stateMachineState', 'orderCustomer', 'transactions', 'deliveries']));
  });

  it('send the term as Shopware’s search term, trimmed, and none for blanks', () => {
    expect(orderListCriteria({ ...NO_FILTERS, term: '  Olivia Order ' }, 1, 25)).toMatchObject({ term: 'Olivia Order', filter: [] });
    expect(orderListCriteria({ ...NO_FILTERS, term: '   ' }, 1, 25)).not.toHaveProperty('term');
  });

  it('filter the three states, the whole days of the range and the appointment', () => {
    const appointment = 'a'.repeat(32);
    const criteria = orderListCriteria({ ...NO_FILTERS, status: 'open', payment: 'paid', delivery: 'shipped', from: '2026-11-01', to: '2026-11-28', appointment }, 1, 25);
    expect(criteria.filter).toEqual([
      { type: 'equals', field: 'stateMachineState.technicalName', value: 'open' },
      { type: 'equals', field: 'transactions.stateMachineState.technicalName', value: 'paid' },
      { type: 'equals', field: 'deliveries.stateMachineState.technicalName', value: 'shipped' },
      { type: 'range', field: 'orderDateTime', parameters: { gte: new Date('2026-11-01T00:00:00').toISOString(), lte: new Date(new Date('2026-11-29T00:00:00').getTime() - 1).toISOString() } },
      { type: 'equals', field: 'appointmentId', value: appointment },
    ]);
  });

  it('take an open-ended range', () => {
    expect(orderListCriteria({ ...NO_FILTERS, from: '2026-11-01' }, 1, 25).filter).toEqual([{ type: 'range', field: 'orderDateTime', parameters: { gte: dayStart('2026-11-01') } }]);
    expect(orderListCriteria({ ...NO_FILTERS, to: '2026-11-01' }, 1, 25).filter).toEqual([{ type: 'range', field: 'orderDateTime', parameters: { lte: dayEnd('2026-11-01') } }]);
  });
});

describe('the filters in the URL', () => {
  it('go there and back, only those set', () => {
    const filters = { ...NO_FILTERS, status: 'cancelled', from: '2026-11-01' };
    const params = filtersToParams(filters);
    expect(params).toEqual({ status: 'cancelled', from: '2026-11-01' });
    expect(filtersFromParams(new URLSearchParams(params))).toEqual(filters);
  });

  it('leave out what is not a valid value (a hand-edited URL)', () => {
    const params = new URLSearchParams({ status: 'lost', payment: 'paid', delivery: 'DROP TABLE', from: '1.11.2026', to: '2026-11-28', appointment: 'nope', term: ' 10001 ' });
    expect(filtersFromParams(params)).toEqual({ ...NO_FILTERS, payment: 'paid', to: '2026-11-28', term: '10001' });
  });
});

describe('the payment and delivery that count', () => {
  it('are the newest transaction and the first delivery', () => {
    const order = {
      transactions: [
        { id: 'old', createdAt: '2026-11-28T10:00:00+00:00' },
        { id: 'new', createdAt: '2026-11-28T11:00:00+00:00' },
      ],
      deliveries: [{ id: 'first' }, { id: 'second' }],
    };
    expect(currentTransaction(order)?.id).toBe('new');
    expect(primaryDelivery(order)?.id).toBe('first');
    expect(currentTransaction({ transactions: null })).toBeNull();
    expect(primaryDelivery({ deliveries: [] })).toBeNull();
  });
});
