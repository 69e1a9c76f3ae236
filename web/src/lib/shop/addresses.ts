import type { Schemas } from '@shopware/api-client/store-api-types';
import { ApiClientError } from '@shopware/api-client';
import { shopClient } from '@/lib/shop/session';

export type CustomerAddress = Schemas['CustomerAddress'];

export interface AddressInput {
  salutationId?: string;
  firstName: string;
  lastName: string;
  street: string;
  zipcode: string;
  city: string;
  countryId: string;
  countryStateId?: string;
}

/** The customer's addresses; 403 (nobody logged in) is an empty list (spec section 7). */
export async function listAddresses(): Promise<CustomerAddress[]> {
  try {
    const { data } = await shopClient().invoke('listAddress post /account/list-address', {
      body: { associations: { country: {}, countryState: {}, salutation: {} } },
    });
    return data.elements ?? [];
  } catch (error) {
    if (error instanceof ApiClientError && error.status === 403) return [];
    throw error;
  }
}

export async function saveAddress(address: AddressInput, id?: string): Promise<CustomerAddress> {
  if (id) {
    const { data } = await shopClient().invoke('updateCustomerAddress patch /account/address/{addressId}', {
      pathParams: { addressId: id },
      body: address,
    });
    return data;
  }
  const { data } = await shopClient().invoke('createCustomerAddress post /account/address', { body: address });
  return data;
}

export async function deleteAddress(id: string): Promise<void> {
  await shopClient().invoke('deleteCustomerAddress delete /account/address/{addressId}', { pathParams: { addressId: id } });
}

export async function setDefaultAddress(kind: 'billing' | 'shipping', id: string): Promise<void> {
  if (kind === 'billing') {
    await shopClient().invoke('defaultBillingAddress patch /account/address/default-billing/{addressId}', { pathParams: { addressId: id } });
  } else {
    await shopClient().invoke('defaultShippingAddress patch /account/address/default-shipping/{addressId}', { pathParams: { addressId: id } });
  }
}
