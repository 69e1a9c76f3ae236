import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AddressLines, type Address } from './address-lines';

/** The address's lines as text, one per line. */
const lines = (address: Address) =>
  renderToStaticMarkup(<AddressLines address={address} />)
    .replace(/<br\/>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .split('\n');

const frankfurt: Address = {
  firstName: 'Hanna',
  lastName: 'Hesse',
  street: 'Zeil 1',
  zipcode: '60313',
  city: 'Frankfurt am Main',
  country: { name: 'Germany', translated: { name: 'Deutschland' } },
};

describe('AddressLines', () => {
  it('shows the state after the city, in the shop language', () => {
    expect(lines({ ...frankfurt, countryState: { name: 'Hesse', translated: { name: 'Hessen' } } })).toEqual([
      'Hanna Hesse',
      'Zeil 1',
      '60313 Frankfurt am Main, Hessen',
      'Deutschland',
    ]);
  });

  it('leaves the state out when the address has none', () => {
    expect(lines({ ...frankfurt, countryState: null })).toEqual(['Hanna Hesse', 'Zeil 1', '60313 Frankfurt am Main', 'Deutschland']);
    expect(lines({ ...frankfurt, countryState: { name: '', translated: { name: '' } } })).toContain('60313 Frankfurt am Main');
  });

  it('starts with the company and falls back to untranslated names', () => {
    expect(lines({ ...frankfurt, company: 'Hesse GmbH', country: { name: 'Germany' }, countryState: { name: 'Hesse' } })).toEqual([
      'Hesse GmbH',
      'Hanna Hesse',
      'Zeil 1',
      '60313 Frankfurt am Main, Hesse',
      'Germany',
    ]);
  });

  it('renders nothing without an address', () => {
    expect(renderToStaticMarkup(<AddressLines address={null} />)).toBe('');
  });
});
