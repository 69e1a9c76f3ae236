import { describe, expect, it } from 'vitest';
import { customerListCriteria, customerOrdersCriteria } from './customer-criteria';

describe('the customer list criteria', () => {
  it('search with Shopware’s term, newest first, with the group', () => {
    expect(customerListCriteria(' Olivia ', '', 2, 25)).toEqual({ page: 2, limit: 25, term: 'Olivia', filter: [], sort: [{ field: 'createdAt', order: 'DESC' }], associations: { group: {} } });
    expect(customerListCriteria('', '', 1, 25)).not.toHaveProperty('term');
  });

  it('tell guests from accounts, active or deactivated', () => {
    expect(customerListCriteria('', 'guest', 1, 25).filter).toEqual([{ type: 'equals', field: 'guest', value: true }]);
    expect(customerListCriteria('', 'inactive', 1, 25).filter).toEqual([
      { type: 'equals', field: 'guest', value: false },
      { type: 'equals', field: 'active', value: false },
    ]);
    expect(customerListCriteria('', 'active', 1, 25).filter).toContainEqual({ type: 'equals', field: 'active', value: true });
  });

  it('find a customer’s orders by the order’s customer, newest first', () => {
    expect(customerOrdersCriteria('c1')).toMatchObject({ filter: [{ type: 'equals', field: 'orderCustomer.customerId', value: 'c1' }], sort: [{ field: 'orderDateTime', order: 'DESC' }] });
  });
});
