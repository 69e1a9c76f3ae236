import { describe, expect, it } from 'vitest';
import { offeredLocalesOf, pickLanguageId, shouldRefreshUser } from './session';

const languages = [
  { id: 'en', translationCode: { code: 'en-GB' } },
  { id: 'de', translationCode: { code: 'de-DE' } },
] as never[];

describe('offeredLocalesOf', () => {
  it('offers the locales of the shop’s languages: German switched off, no de-DE; none read, every one', () => {
    expect(offeredLocalesOf(languages)).toEqual(['en-US', 'en-GB', 'de-DE']);
    expect(offeredLocalesOf([languages[0]!])).toEqual(['en-US', 'en-GB']);
    expect(offeredLocalesOf([languages[1]!])).toEqual(['de-DE']);
    expect(offeredLocalesOf([])).toEqual(['en-US', 'en-GB', 'de-DE']);
  });
});

describe('pickLanguageId', () => {
  it('takes the language with the same code, else the same language', () => {
    expect(pickLanguageId(languages, 'de-DE')).toBe('de');
    expect(pickLanguageId(languages, 'en-GB')).toBe('en');
    expect(pickLanguageId(languages, 'en-US')).toBe('en');
  });

  it('reads the locale code when there is no translation code, and gives null when nothing fits', () => {
    expect(pickLanguageId([{ id: 'x', locale: { code: 'de-DE' } }] as never[], 'de-DE')).toBe('x');
    expect(pickLanguageId([{ id: 'x', translationCode: { code: 'fr-FR' } }] as never[], 'de-DE')).toBeNull();
  });
});

describe('shouldRefreshUser', () => {
  it('refreshes the user after 401 and 403, but not for the customer call or joins', () => {
    expect(shouldRefreshUser(403, 'http://shop/store-api/account/list-address')).toBe(true);
    expect(shouldRefreshUser(401, 'http://shop/store-api/checkout/order')).toBe(true);
    expect(shouldRefreshUser(403, 'http://shop/store-api/account/customer')).toBe(false);
    expect(shouldRefreshUser(403, 'http://shop/store-api/dsr/appointment/demo/join-as-client')).toBe(false);
    expect(shouldRefreshUser(404, 'http://shop/store-api/product/x')).toBe(false);
  });
});
