import { expect, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './axe';

/** What the shop specs share: the texts of both languages, registration, login and the axe check. */

export const TEXTS = {
  en: {
    prefix: '',
    clothing: 'Clothing',
    clothingPath: '/Clothing/',
    productPath: '/Flannel-shirt/SR10003',
    searchTerm: 'shirt',
    openMenu: 'Open menu',
    closeMenu: 'Close menu',
    mainNavigation: 'Main navigation',
    filters: 'Filters',
    showFilters: 'Filter',
    red: 'Red',
    removeRed: 'Remove filter: Red',
    sortBy: 'Sort by',
    size: /^Size/,
    specifications: 'Specifications',
    addToCart: 'Add to cart',
    added: (name: string) => `${name} is in your cart.`,
    cart: /^Shopping cart, \d+ items$/,
    cartTitle: 'Shopping cart',
    viewCart: 'View cart',
    toCheckout: 'Proceed to checkout',
    promotionCode: 'Promotion code',
    redeem: 'Redeem',
    redeemed: 'Promotion code SALESROOM10 redeemed.',
    unknownCode: 'The promotion code "NOPE" is not valid.',
    checkout: 'Checkout',
    newCustomer: 'New customer',
    salutation: 'Salutation',
    firstName: 'First name',
    lastName: 'Last name',
    email: 'Email address',
    emailConfirmation: 'Confirm email address',
    password: 'Password',
    passwordConfirmation: 'Repeat password',
    street: 'Street and house number',
    zipcode: 'Postal code',
    city: 'City',
    state: 'State',
    createAccount: 'Create account',
    privacy: /I have read the privacy policy/,
    hello: (name: string) => `Hello ${name}`,
    express: 'Express',
    invoice: 'Invoice',
    payOnline: 'Pay online',
    terms: 'I have read and accepted the terms and conditions.',
    termsRequired: 'Please accept the terms and conditions.',
    placeOrder: 'Place order',
    thanks: 'Thank you for your order!',
    paid: 'Payment received',
    unpaid: 'Your order is not paid yet',
    pay: 'Pay',
    cancel: 'Cancel',
    discount: 'Discount',
    logIn: 'Log in',
    logOut: 'Log out',
    loginFailed: 'The email address or password is not correct.',
    orders: 'Orders',
    orderTitle: (number: string) => `Order ${number}`,
    details: 'Details',
    orderOpen: 'Open',
    profile: 'Profile',
    changeProfile: 'Change profile',
    saveProfile: 'Save profile',
    profileSaved: 'Your profile has been saved.',
    addresses: 'Addresses',
    addAddress: 'Add address',
    saveAddress: 'Save address',
    required: 'Input required',
    defaultShipping: 'Default shipping address',
    useForShipping: 'Use for shipping',
    change: 'Change',
    billingAddress: 'Billing address',
    shippingAddress: 'Shipping address',
    newAddress: 'New address',
    useAddress: 'Use this address',
    addressChanged: 'The address has been changed.',
  },
  de: {
    prefix: '/de-DE',
    clothing: 'Kleidung',
    clothingPath: '/de-DE/Kleidung/',
    productPath: '/de-DE/Flanellhemd/SR10003',
    searchTerm: 'Hemd',
    openMenu: 'Menü öffnen',
    closeMenu: 'Menü schließen',
    mainNavigation: 'Hauptnavigation',
    filters: 'Filter',
    showFilters: 'Filtern',
    red: 'Rot',
    removeRed: 'Filter entfernen: Rot',
    sortBy: 'Sortieren nach',
    size: /^Größe/,
    specifications: 'Technische Daten',
    addToCart: 'In den Warenkorb',
    added: (name: string) => `${name} liegt im Warenkorb.`,
    cart: /^Warenkorb, \d+ Artikel$/,
    cartTitle: 'Warenkorb',
    viewCart: 'Zum Warenkorb',
    toCheckout: 'Zur Kasse',
    promotionCode: 'Aktionscode',
    redeem: 'Einlösen',
    redeemed: 'Aktionscode SALESROOM10 eingelöst.',
    unknownCode: 'Der Aktionscode „NOPE“ ist ungültig.',
    checkout: 'Kasse',
    newCustomer: 'Neukunde',
    salutation: 'Anrede',
    firstName: 'Vorname',
    lastName: 'Nachname',
    email: 'E-Mail-Adresse',
    emailConfirmation: 'E-Mail-Adresse bestätigen',
    password: 'Passwort',
    passwordConfirmation: 'Passwort wiederholen',
    street: 'Straße und Hausnummer',
    zipcode: 'Postleitzahl',
    city: 'Ort',
    state: 'Bundesland',
    createAccount: 'Konto erstellen',
    privacy: /Ich habe die Datenschutzerklärung gelesen/,
    hello: (name: string) => `Hallo ${name}`,
    express: 'Express',
    invoice: 'Rechnung',
    payOnline: 'Online bezahlen',
    terms: 'Ich habe die AGB gelesen und bin mit ihnen einverstanden.',
    termsRequired: 'Bitte akzeptieren Sie die AGB.',
    placeOrder: 'Zahlungspflichtig bestellen',
    thanks: 'Vielen Dank für Ihre Bestellung!',
    paid: 'Zahlung erhalten',
    unpaid: 'Ihre Bestellung ist noch nicht bezahlt',
    pay: 'Bezahlen',
    cancel: 'Abbrechen',
    discount: 'Rabatt',
    logIn: 'Anmelden',
    logOut: 'Abmelden',
    loginFailed: 'E-Mail-Adresse oder Passwort sind nicht korrekt.',
    orders: 'Bestellungen',
    orderTitle: (number: string) => `Bestellung ${number}`,
    details: 'Details',
    orderOpen: 'Offen',
    profile: 'Profil',
    changeProfile: 'Profil ändern',
    saveProfile: 'Profil speichern',
    profileSaved: 'Ihr Profil wurde gespeichert.',
    addresses: 'Adressen',
    addAddress: 'Adresse hinzufügen',
    saveAddress: 'Adresse speichern',
    required: 'Eingabe erforderlich',
    defaultShipping: 'Standard-Lieferadresse',
    useForShipping: 'Als Lieferadresse verwenden',
    change: 'Ändern',
    billingAddress: 'Rechnungsadresse',
    shippingAddress: 'Lieferadresse',
    newAddress: 'Neue Adresse',
    useAddress: 'Diese Adresse verwenden',
    addressChanged: 'Die Adresse wurde geändert.',
  },
};

export type Texts = (typeof TEXTS)['en'];

export const PASSWORD = 'salesroom-e2e';

/** A fresh email address per call, so parallel and repeated runs never collide. */
export const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  street: string;
  zipcode: string;
  city: string;
}

/**
 * Fills the registration form inside `scope` (the registration page or the checkout's
 * "new customer" tab); a guest has no password fields.
 */
export async function fillRegistration(scope: Page | Locator, person: Person, t: Texts = TEXTS.en, { guest = false } = {}) {
  await scope.getByLabel(t.salutation, { exact: true }).selectOption({ index: 1 });
  await scope.getByLabel(t.firstName, { exact: true }).fill(person.firstName);
  await scope.getByLabel(t.lastName, { exact: true }).fill(person.lastName);
  await scope.getByLabel(t.email, { exact: true }).fill(person.email);
  await scope.getByLabel(t.emailConfirmation, { exact: true }).fill(person.email);
  if (!guest) {
    await scope.getByLabel(t.password, { exact: true }).fill(PASSWORD);
    await scope.getByLabel(t.passwordConfirmation, { exact: true }).fill(PASSWORD);
  }
  await scope.getByLabel(t.street, { exact: true }).fill(person.street);
  await scope.getByLabel(t.zipcode, { exact: true }).fill(person.zipcode);
  await scope.getByLabel(t.city, { exact: true }).fill(person.city);
  const state = scope.getByLabel(t.state, { exact: true });
  if (await state.isVisible()) await state.selectOption({ index: 1 });
  await scope.getByLabel(t.privacy).check();
}

/** Registers `person` on the registration page and waits for the account page greeting them. */
export async function registerCustomer(page: Page, person: Person, t: Texts = TEXTS.en) {
  await page.goto(`${t.prefix}/account/register`);
  await fillRegistration(page, person, t);
  await page.getByRole('button', { name: t.createAccount }).click();
  // Registration hashes the password: slow in a debug build on a busy machine.
  await expect(page.getByRole('heading', { level: 1, name: t.hello(`${person.firstName} ${person.lastName}`) })).toBeVisible({ timeout: 20_000 });
}

/** Submits the login page's form (the result is for the caller to check). */
export async function logIn(page: Page, email: string, password: string, t: Texts = TEXTS.en) {
  await page.goto(`${t.prefix}/account/login`);
  await page.getByLabel(t.email).fill(email);
  await page.getByLabel(t.password).fill(password);
  await page.getByRole('button', { name: t.logIn, exact: true }).click();
}

/**
 * In the checkout: express shipping and `payment`, then place the order: first without
 * the terms (refused, and the refusal is accessible), then with them.
 */
export async function placeOrder(page: Page, t: Texts, payment: string) {
  await page.getByRole('radio', { name: t.express }).click();
  await expect(page.getByRole('radio', { name: t.express })).toBeChecked();
  await page.getByRole('radio', { name: new RegExp(`^${payment}`) }).click();
  await expect(page.getByRole('radio', { name: new RegExp(`^${payment}`) })).toBeChecked();

  // The terms are required.
  await page.getByRole('button', { name: t.placeOrder }).click();
  await expect(page.getByLabel(t.terms)).toHaveAccessibleDescription(t.termsRequired);
  await expectAccessible(page);
  await page.getByLabel(t.terms).check();
  await page.getByRole('button', { name: t.placeOrder }).click();
}
