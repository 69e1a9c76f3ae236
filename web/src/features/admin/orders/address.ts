import type { Address } from '@/components/address-lines';
import type { Named, OrderAddress } from './types';

const named = (value: Named | null | undefined) => (value ? { name: value.name ?? undefined, translated: { name: value.translated?.name ?? undefined } } : null);

/** An Admin API address as the shop's `AddressLines` shows it (its nulls as absent). */
export function addressOf(value: OrderAddress | null | undefined): Address | null {
  if (!value) return null;
  return {
    firstName: value.firstName,
    lastName: value.lastName,
    street: value.street,
    city: value.city,
    zipcode: value.zipcode ?? undefined,
    company: value.company ?? undefined,
    country: named(value.country),
    countryState: named(value.countryState),
  };
}
