import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '@/lib/i18n';
import { isLoggedIn } from '@/lib/shop/customer';
import { redirectTarget } from './login-form';
import { registrationErrors } from './register-form';

const t = (key: string) => key;
const valid = {
  salutationId: 's',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  emailConfirmation: 'ADA@example.com ',
  password: 'analytical',
  passwordConfirmation: 'analytical',
  street: 'Main 1',
  zipcode: '10117',
  city: 'Berlin',
  countryId: 'de',
  countryStateId: '',
};

describe('registration', () => {
  beforeAll(() => initI18n('en-US'));

  it('accepts a complete form', () => {
    expect(Object.values(registrationErrors(valid, t, false)).filter(Boolean)).toEqual([]);
  });

  it('asks for every field of spec section 5 with its message', () => {
    const empty = Object.fromEntries(Object.keys(valid).map((key) => [key, ''])) as typeof valid;
    const errors = registrationErrors(empty, t, true);
    expect(errors.salutationId).toBe('Input required');
    expect(errors.email).toBe('Input required');
    expect(errors.countryStateId).toBe('Value is required');
    expect(Object.values(errors).every(Boolean)).toBe(true);
  });

  it('checks the email format, the confirmations and the password length', () => {
    const errors = registrationErrors({ ...valid, email: 'nope', emailConfirmation: 'other@example.com', password: 'short', passwordConfirmation: 'shorter' }, t, false);
    expect(errors.email).toBe('This is not a valid email address.');
    expect(errors.emailConfirmation).toBe('account.emailMismatch');
    expect(errors.password).toBe('This field should be at least 8 characters long.');
    expect(errors.passwordConfirmation).toBe('account.passwordMismatch');
  });
});

describe('login helpers', () => {
  it('redirects only to local paths', () => {
    expect(redirectTarget('/de-DE/account', '/account')).toBe('/de-DE/account');
    expect(redirectTarget('//evil.test', '/account')).toBe('/account');
    expect(redirectTarget('https://evil.test', '/account')).toBe('/account');
    expect(redirectTarget(null, '/account')).toBe('/account');
  });

  it('counts only active non-guest customers as logged in', () => {
    expect(isLoggedIn({ id: 'c', active: true, guest: false })).toBe(true);
    expect(isLoggedIn({ id: 'c', active: true, guest: true })).toBe(false);
    expect(isLoggedIn({ id: 'c', active: false, guest: false })).toBe(false);
    expect(isLoggedIn(null)).toBe(false);
  });
});
