import type { Schemas } from '@shopware/api-client/store-api-types';
import './address-lines.css';

interface Named {
  name?: string;
  translated?: { name?: string };
}

export type Address = Pick<Schemas['CustomerAddress'], 'firstName' | 'lastName' | 'street' | 'zipcode' | 'city' | 'company'> & {
  country?: Named | null;
  countryState?: Named | null;
};

const nameOf = (entity: Named | null | undefined) => entity?.translated?.name || entity?.name || '';

/**
 * An address as lines of text, the same everywhere (account, checkout, orders):
 * company, name, street, postal code and city with the state when there is one, country.
 */
export function AddressLines({ address }: { address: Address | null | undefined }) {
  if (!address) return null;
  const place = [[address.zipcode, address.city].filter(Boolean).join(' '), nameOf(address.countryState)].filter(Boolean).join(', ');
  const lines = [address.company, [address.firstName, address.lastName].filter(Boolean).join(' '), address.street, place, nameOf(address.country)].filter(Boolean);
  return (
    <address className="address-lines">
      {lines.map((line, index) => (
        <span key={index}>
          {index > 0 && <br />}
          {line}
        </span>
      ))}
    </address>
  );
}
