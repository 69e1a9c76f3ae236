import { describe, expect, it } from 'vitest';
import { de } from './locales/de';
import { en } from './locales/en';

/** Every message of spec sections 5 (validation) and 8 (error catalogue), in English and German. */

function flatten(messages: object, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(messages as Record<string, unknown>).flatMap(([key, value]) =>
      typeof value === 'string' ? [[`${prefix}${key}`, value]] : Object.entries(flatten(value as object, `${prefix}${key}.`)),
    ),
  );
}

const english = flatten(en);
const german = flatten(de);

/** The spec's English text (placeholders written the i18next way) and, where the spec gives it, the German one. */
const SPEC_MESSAGES: [key: string, english: string | null, german?: string][] = [
  // Section 5: validation.
  ['validation.required', 'Input required'],
  ['validation.requiredIf', 'Value is required'],
  ['validation.email', 'This is not a valid email address.'],
  ['validation.minLength', 'This field should be at least {{min}} characters long.'],
  ['validation.maxLength', 'The maximum length allowed is {{max}} characters.'],
  ['validation.between', '{{field}} should be between {{min}} and {{max}} characters long.'],
  ['validation.upload', 'Only JPG/JPEG or PNG files up to 5 MB are allowed.'],
  ['checkout.termsRequired', null],
  ['checkout.waiverRequired', null],
  ['presentation.consentRequired', null],
  // Section 8: checkout.
  ['checkout.shippingAddressBlocked', 'Shipping to the selected shipping address is currently not possible.'],
  ['checkout.billingAddressBlocked', 'Billing to the selected address is not possible.'],
  ['checkout.shippingAddressInvalid', null],
  ['checkout.billingAddressInvalid', null],
  ['errorPages.productNotFound', 'The product could not be found.'],
  // Section 8: error pages and their titles.
  ['errorPages.404', 'This page could not be found.', 'Die Seite konnte nicht gefunden werden.'],
  ['errorPages.408', 'API is not responding.', 'Die API anwortet zu langsam.'],
  ['errorPages.500', 'Oops, something went wrong.', 'Ups, da ist was schiefgelaufen.'],
  ['errorPages.502', 'Server could not complete the request.', 'Der Server konnte die Anfrage nicht bearbeiten.'],
  ['errorPages.503', 'Server is not available. Please try again in few seconds.', 'Der Server ist nicht erreichbar. Bitte versuchen Sie es später noch einmal.'],
  ['errorPages.notFoundTitle', 'Page Not Found'],
  ['errorPages.serverErrorTitle', 'Internal Server Error'],
  // Section 8: generic, components, upload, devices, page errors, account.
  ['errors.generic', "Something didn't work as expected. Please try again."],
  ['errorPages.unknownComponent', 'There is no {{component}}'],
  ['errorPages.unsupportedInPresentation', '{{name}} is not supported in presentations', '{{name}} wird in Präsentationen nicht unterstützt'],
  ['video.errors.permissionsDenied', null],
  ['video.errors.unknown', null],
  ['video.errors.cameraInUse', null],
  ['video.errors.microphoneInUse', null],
  ['video.errors.cameraAndMicrophoneInUse', null],
  ['video.errors.noDeviceFound', null],
  ['errorPages.noProductFound', null],
  ['errorPages.noProductsFound', null],
  ['errorPages.pageProblem', null],
  ['presentation.notFound', null],
  ['room.restricted', null],
  ['checkout.addressChanged', null],
  ['account.addressDeleted', null],
  ['account.loginFailed', null],
  ['account.loggedIn', null],
];

/** Texts that are the same word in German. */
const SAME_IN_GERMAN = new Set([
  'Salesroom',
  'Details',
  'Likes',
  'Likes ({{count}})',
  'Chat',
  'Widgets',
  '{{count}} ×',
  'Live',
  'Navigation',
  'Guides',
  'Online',
  'Offline',
  'Service',
  'English (US)',
  'English (UK)',
  'Deutsch',
  'Name A-Z',
  'Name Z-A',
  'Video',
  'Newsletter',
  'Download',
  'Downloads',
]);

describe('the messages of spec sections 5 and 8', () => {
  it.each(SPEC_MESSAGES)('%s exists in English and German', (key, englishText, germanText) => {
    expect(english[key], key).toBeTruthy();
    expect(german[key], key).toBeTruthy();
    if (englishText) expect(english[key]).toBe(englishText);
    if (germanText) expect(german[key]).toBe(germanText);
    expect(german[key]).not.toBe(english[key]);
  });
});

describe('the German catalogue', () => {
  it('translates every text that is not the same word in German', () => {
    const untranslated = Object.keys(english).filter((key) => german[key] === english[key] && !SAME_IN_GERMAN.has(english[key]!));
    expect(untranslated).toEqual([]);
  });

  it('has no English leftovers in German texts', () => {
    const english_words = /\b(the|please|your|could not|is not)\b/i;
    const leftovers = Object.entries(german).filter(([, text]) => english_words.test(text.replace(/{{\s*\w+\s*}}/g, '')));
    expect(leftovers).toEqual([]);
  });
});
