import type { Schemas } from '@shopware/api-client/store-api-types';
import { shopClient } from '@/lib/shop/session';

export type Salutation = Schemas['Salutation'];
export type Country = Schemas['Country'];

export async function getSalutations(): Promise<Salutation[]> {
  const { data } = await shopClient().invoke('readSalutation post /salutation', { body: {} });
  return data.elements ?? [];
}

/** Active shipping countries with their states, by position. */
export async function getCountries(): Promise<Country[]> {
  const { data } = await shopClient().invoke('readCountry post /country', {
    body: { associations: { states: {} }, limit: 250 },
  });
  return [...(data.elements ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || (a.translated?.name ?? a.name).localeCompare(b.translated?.name ?? b.name));
}
