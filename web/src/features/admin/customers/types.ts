import type { OrderAddress } from '../orders/types';

/** A customer as the customer pages read it (Shopware's field names). */
export interface AdminCustomer {
  id: string;
  customerNumber: string;
  firstName: string;
  lastName: string;
  email: string;
  company?: string | null;
  active: boolean;
  guest: boolean;
  createdAt: string;
  lastLogin?: string | null;
  birthday?: string | null;
  defaultBillingAddressId?: string | null;
  defaultShippingAddressId?: string | null;
  group?: { id?: string; name?: string | null; translated?: { name?: string | null } | null } | null;
  addresses?: OrderAddress[] | null;
  salutation?: { displayName?: string | null; translated?: { displayName?: string | null } | null } | null;
}

/** What the list shows as the customer's status. */
export type CustomerStatus = 'active' | 'inactive' | 'guest';

export function statusOf(customer: Pick<AdminCustomer, 'active' | 'guest'>): CustomerStatus {
  if (customer.guest) return 'guest';
  return customer.active ? 'active' : 'inactive';
}
