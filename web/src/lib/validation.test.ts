import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n, loadLocaleTexts } from '@/lib/i18n';
import i18next from 'i18next';
import { rules, validate, validUpload } from './validation';

describe('validation', () => {
  beforeAll(() => initI18n('en-US'));

  it('has the messages of spec section 5', () => {
    expect(validate(' ', [rules.required()])).toBe('Input required');
    expect(validate('', [rules.requiredIf(() => true)])).toBe('Value is required');
    expect(validate('', [rules.requiredIf(() => false)])).toBeNull();
    expect(validate('no-at', [rules.email()])).toBe('This is not a valid email address.');
    expect(validate('a@b.de', [rules.email()])).toBeNull();
    expect(validate('abc', [rules.minLength(8)])).toBe('This field should be at least 8 characters long.');
    expect(validate('abcdef', [rules.maxLength(5)])).toBe('The maximum length allowed is 5 characters.');
    expect(validate('ab', [rules.between('Password', 3, 5)])).toBe('Password should be between 3 and 5 characters long.');
  });

  it('reports the first failing rule', () => {
    expect(validate('', [rules.required(), rules.email()])).toBe('Input required');
  });

  it('speaks German under de-DE', async () => {
    await loadLocaleTexts('de-DE');
    await i18next.changeLanguage('de-DE');
    expect(validate('', [rules.required()])).toBe('Eingabe erforderlich');
    expect(validate('x', [rules.email()])).toBe('Dies ist keine gültige E-Mail-Adresse.');
    await i18next.changeLanguage('en-US');
  });

  it('accepts jpg/jpeg/png uploads up to 5 MB', () => {
    expect(validUpload({ name: 'a.png', type: 'image/png', size: 5 * 1024 * 1024 })).toBe(true);
    expect(validUpload({ name: 'a.JPEG', size: 10 })).toBe(true);
    expect(validUpload({ name: 'a.gif', type: 'image/gif', size: 10 })).toBe(false);
    expect(validUpload({ name: 'a.png', type: 'image/png', size: 5 * 1024 * 1024 + 1 })).toBe(false);
  });
});
