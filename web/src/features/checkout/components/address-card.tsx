import type { Schemas } from '@shopware/api-client/store-api-types';

type Address = Pick<Schemas['CustomerAddress'], 'firstName' | 'lastName' | 'street' | 'zipcode' | 'city' | 'company'> & {
  country?: { name?: string; translated?: { name?: string } } | null;
  countryState?: { name?: string; translated?: { name?: string } } | null;
};

/** An address as lines of text. */
export function AddressLines({ address }: { address: Address | null | undefined }) {
  if (!address) return null;
  return (
    <address className="address-lines">
      {address.company && (
        <>
          {address.company}
          <br />
        </>
      )}
      {[address.firstName, address.lastName].filter(Boolean).join(' ')}
      <br />
      {address.street}
      <br />
      {[address.zipcode, address.city].filter(Boolean).join(' ')}
      {address.countryState && `, ${address.countryState.translated?.name ?? address.countryState.name ?? ''}`}
      <br />
      {address.country?.translated?.name ?? address.country?.name}
    </address>
  );
}
