import type { Criteria } from '../api/client';

/** The status filter of the customer list. */
export type CustomerFilter = '' | 'active' | 'inactive' | 'guest';

export const CUSTOMER_FILTERS: CustomerFilter[] = ['', 'active', 'inactive', 'guest'];

/** The criteria of the customer list: the search term (name, e-mail, number, company), the status, newest first. */
export function customerListCriteria(term: string, status: CustomerFilter, page: number, limit: number): Criteria {
  const filter: unknown[] = [];
  if (status === 'guest') filter.push({ type: 'equals', field: 'guest', value: true });
  if (status === 'active' || status === 'inactive') {
    filter.push({ type: 'equals', field: 'guest', value: false }, { type: 'equals', field: 'active', value: status === 'active' });
  }
  const text = term.trim();
  // Shopware's search term: every word in the name, e-mail, number or company.
  return { page, limit, ...(text ? { term: text } : {}), filter, sort: [{ field: 'createdAt', order: 'DESC' }], associations: { group: {} } };
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
