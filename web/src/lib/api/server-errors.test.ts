import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n, loadLocaleTexts } from '@/lib/i18n';
import { de } from '@/lib/i18n/locales/de';
import { en } from '@/lib/i18n/locales/en';
import { cartErrorKey, cartErrorMessage, serverErrorKey, serverErrorText } from './server-errors';

/** storefront-proxy's sources: every error code the shop can answer with is written there. */
const PROXY_SRC = join(import.meta.dirname, '../../../../storefront-proxy/src');

function rustSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return rustSources(path);
    return entry.name.endsWith('.rs') ? [readFileSync(path, 'utf8')] : [];
  });
}

function matches(sources: string[], pattern: RegExp): string[] {
  return [...new Set(sources.flatMap((source) => [...source.matchAll(pattern)].map((match) => match[1] ?? '')))].filter(Boolean).sort();
}

const all = rustSources(PROXY_SRC);
const cartSide = [...rustSources(join(PROXY_SRC, 'cart')), ...rustSources(join(PROXY_SRC, 'order'))];
/** `ApiError::new(_, "CHECKOUT__CART_EMPTY", …)`, `not_found("CONTENT__…")`, constants: Shopware codes have a `__`. */
const API_CODES = matches(all, /"([A-Z][A-Z0-9_]*__[A-Z0-9_]+)"/g);
/** `Violation::new("VIOLATION::TOO_SHORT_ERROR", …)`. */
const VIOLATION_CODES = matches(all, /"(VIOLATION::[A-Z0-9_]+)"/g);
/** Cart errors' `messageKey`s: `adjust("product-not-found", …)`, `error("billing-address-invalid", …)`, `CartError::new("promotion-not-found", …)`, `message_key: "…"`, `"messageKey": "…"`, `if … { "a" } else { "b" }`, each also with a line break after the opener (rustfmt). */
const CART_KEYS = matches(cartSide, /(?:adjust\(|error\(|CartError::new\(|message_key: |"messageKey": |\{)\s*"([a-z]+(?:-[a-z]+)+)"/g);

function lookup(messages: object, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);
}

describe('server error codes in words', () => {
  it('finds the codes in the Rust sources (the greps still match how errors are written)', () => {
    expect(API_CODES).toEqual(expect.arrayContaining(['CHECKOUT__CART_EMPTY', 'CHECKOUT__CUSTOMER_AUTH_BAD_CREDENTIALS', 'FRAMEWORK__INTERNAL_ERROR']));
    expect(API_CODES.length).toBeGreaterThan(60);
    expect(VIOLATION_CODES).toEqual(expect.arrayContaining(['VIOLATION::IS_BLANK_ERROR', 'VIOLATION::TOO_SHORT_ERROR']));
    expect(CART_KEYS).toEqual(expect.arrayContaining(['promotion-not-found', 'product-out-of-stock', 'max-order-quantity', 'product-stock-reached']));
  });

  it.each([
    ['English', en],
    ['German', de],
  ])('every code storefront-proxy can return has a %s text', (_language, messages) => {
    const missing = [...API_CODES, ...VIOLATION_CODES].map(serverErrorKey).filter((key) => typeof lookup(messages, key) !== 'string' || !lookup(messages, key));
    const missingCart = CART_KEYS.map(cartErrorKey).filter((key) => typeof lookup(messages, key) !== 'string' || !lookup(messages, key));
    expect([...missing, ...missingCart]).toEqual([]);
  });

  it('has no German text that is only the English one copied', () => {
    const copied = [...API_CODES, ...VIOLATION_CODES].map(serverErrorKey).filter((key) => lookup(de, key) === lookup(en, key));
    expect(copied).toEqual([]);
  });
});

describe('serverErrorText', () => {
  beforeAll(() => initI18n('de-DE'));

  it('speaks the page language and fills the limit in', async () => {
    await loadLocaleTexts('de-DE');
    await i18next.changeLanguage('de-DE');
    expect(serverErrorText({ code: 'CHECKOUT__CUSTOMER_AUTH_BAD_CREDENTIALS', detail: 'Invalid username and/or password.' })).toBe('E-Mail-Adresse oder Passwort ist falsch.');
    expect(serverErrorText({ code: 'VIOLATION::TOO_SHORT_ERROR', detail: 'This value is too short. It should have 8 characters or more.' })).toBe('Dieses Feld muss mindestens 8 Zeichen lang sein.');
    await i18next.changeLanguage('en-GB');
    expect(serverErrorText({ code: 'VIOLATION::TOO_SHORT_ERROR', detail: 'It should have 8 characters or more.' })).toBe('This field should be at least 8 characters long.');
  });

  it("keeps the server's words for a code it does not know (an upstream Shopware's)", async () => {
    await loadLocaleTexts('de-DE');
    await i18next.changeLanguage('de-DE');
    expect(serverErrorText({ code: 'SOMETHING__NEW', detail: 'Something new.' })).toBe('Something new.');
    expect(serverErrorText({ title: 'Only a title' })).toBe('Only a title');
  });

  it('names the promotion code of an unknown promotion in German', async () => {
    await loadLocaleTexts('de-DE');
    await i18next.changeLanguage('de-DE');
    expect(cartErrorMessage('promotion-not-found', { subject: 'NOPE', name: 'NOPE' }, 'Promotion with code "NOPE" not found!')).toBe('Der Aktionscode „NOPE“ ist ungültig.');
    expect(cartErrorMessage('', { subject: '', name: '' }, 'raw')).toBe('raw');
  });
});
