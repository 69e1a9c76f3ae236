import type { Criteria } from '../api/client';

/** The status filter of the customer list. */
export type CustomerFilter = '' | 'active' | 'inactive' | 'guest';

export const CUSTOMER_FILTERS: CustomerFilter[] = ['', 'active', 'inactive', 'guest'];

/** The criteria of the customer list: the term over name, e-mail, number and company; the status; newest first. */
export function customerListCriteria(term: string, status: CustomerFilter, page: number, limit: number): Criteria {
  const filter: unknown[] = [];
  const text = term.trim();
  if (text) {
    filter.push({
      type: 'multi',
      operator: 'or',
      queries: ['firstName', 'lastName', 'email', 'customerNumber', 'company'].map((field) => ({ type: 'contains', field, value: text })),
    });
  }
  if (status === 'guest') filter.push({ type: 'equals', field: 'guest', value: true });
  if (status === 'active' || status === 'inactive') {
    filter.push({ type: 'equals', field: 'guest', value: false }, { type: 'equals', field: 'active', value: status === 'active' });
  }
  return { page, limit, filter, sort: [{ field: 'createdAt', order: 'DESC' }], associations: { group: {} } };
}

/** The criteria of a customer's orders: newest first, with the states the table shows. */
export function customerOrdersCriteria(customerId: string): Criteria {
  return {
    limit: 50,
    filter: [{ type: 'equals', field: 'orderCustomer.customerId', value: customerId }],
    sort: [{ field: 'orderDateTime', order: 'DESC' }],
    associations: {
      stateMachineState: {},
      currency: {},
      transactions: { associations: { stateMachineState: {} } },
      deliveries: { associations: { stateMachineState: {} } },
    },
  };
}
