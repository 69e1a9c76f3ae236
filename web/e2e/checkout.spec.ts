import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { fillRegistration, PASSWORD, placeOrder, registerCustomer, TEXTS, unique, type Texts } from './shop';

/**
 * The checkout journey on the embedded shop (CONTRACT.md demo data): browse, add to
 * cart, SALESROOM10, register in the checkout, choose methods, accept the terms, place
 * the order and see it confirmed; online payment through the shop's hosted page.
 */

/** From the home page into a category, onto its first product and into the cart; returns the product's name. */
async function addFromCategory(page: Page, t: Texts, phone = false): Promise<string> {
  await page.goto(t.prefix || '/');
  if (phone) {
    await page.getByRole('button', { name: t.openMenu }).click();
    const drawer = page.getByRole('navigation', { name: t.mainNavigation }).filter({ has: page.getByRole('button', { name: t.closeMenu }) });
    await drawer.getByRole('link', { name: t.clothing, exact: true }).click();
  } else {
    const link = page.getByRole('banner').getByRole('navigation', { name: t.mainNavigation }).getByRole('link', { name: t.clothing, exact: true });
    await expect(async () => {
      await link.click();
      await expect(page.getByRole('heading', { level: 1, name: t.clothing })).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
  }
  await expect(page.getByRole('heading', { level: 1, name: t.clothing })).toBeVisible();
  const card = page.getByTestId('product-card').first();
  const name = (await card.getByRole('heading').first().innerText()).trim();
  await card.getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.getByRole('button', { name: t.addToCart }).click();
  await expect(page.getByRole('button', { name: t.cart })).toBeVisible();
  return name;
}

/** Redeems SALESROOM10 in the cart sidebar's checkout and registers a new customer there. */
async function checkoutAsNewCustomer(page: Page, t: Texts, email: string) {
  await page.getByRole('button', { name: t.cart }).click();
  await page.getByRole('dialog').getByRole('link', { name: t.toCheckout }).click();
  await expect(page).toHaveURL(new RegExp(`${t.prefix}/checkout$`));
  await expect(page.getByRole('heading', { level: 1, name: t.checkout })).toBeVisible();

  await page.getByLabel(t.promotionCode).fill('SALESROOM10');
  await page.getByRole('button', { name: t.redeem }).click();
  await expect(page.getByText(t.redeemed)).toBeVisible();
  await expect(page.getByTestId('cart-discount')).toContainText('-');

  await page.getByRole('tab', { name: t.newCustomer }).click();
  await fillRegistration(page, { firstName: 'Clara', lastName: 'Checkout', email, street: 'Kassenweg 7', zipcode: '20095', city: 'Hamburg' }, t);
  await page.getByRole('button', { name: t.createAccount }).click();
  // Registration hashes the password: slow in a debug build on a busy machine.
  await expect(page.getByTestId('billing-address')).toContainText('Kassenweg 7', { timeout: 20_000 });
}

test.describe('checkout', () => {
  test.describe.configure({ timeout: 90_000 });
  test('browse, add to cart, redeem SALESROOM10, register, choose methods and place the order', async ({ page, browser }) => {
    const t = TEXTS.en;
    const product = await addFromCategory(page, t);
    await checkoutAsNewCustomer(page, t, unique('clara'));
    await page.screenshot({ path: 'test-results/checkout-desktop.png', fullPage: true });
    await expectAccessible(page);
    await placeOrder(page, t, t.invoice);

    await expect(page).toHaveURL(/\/checkout\/success\/[0-9a-f]{32}$/);
    await expect(page.getByRole('heading', { level: 1, name: t.thanks })).toBeVisible();
    const items = page.getByTestId('order-line-item');
    await expect(items.filter({ hasText: product })).toHaveCount(1);
    await expect(items.filter({ hasText: /SALESROOM10|10/ })).not.toHaveCount(0);
    await expect(page.getByText('Express').first()).toBeVisible();
    await expect(page.getByTestId('order-number')).toHaveText(/^\d+$/);
    await page.screenshot({ path: 'test-results/checkout-success-desktop.png', fullPage: true });
    await expectAccessible(page);

    // Another visitor does not see the order.
    const stranger = await browser.newPage();
    await stranger.goto(page.url());
    await expect(stranger.getByText('This order could not be found.')).toBeVisible();
    await stranger.close();

    // The cart is empty now: the checkout sends back to the cart page.
    await page.goto('/checkout');
    await expect(page).toHaveURL(/\/checkout\/cart$/);
  });

  test('pays online on the hosted page and lands on the paid page; a cancelled payment can be retried', async ({ page }) => {
    const t = TEXTS.en;
    await addFromCategory(page, t);
    await checkoutAsNewCustomer(page, t, unique('paula'));
    await placeOrder(page, t, t.payOnline);

    // The hosted page: cancel first, then pay from the unpaid page.
    await expect(page).toHaveURL(/\/payment\/pay-online\//);
    await page.getByRole('button', { name: t.cancel }).click();
    await expect(page).toHaveURL(/\/checkout\/success\/[0-9a-f]{32}\/unpaid$/);
    await expect(page.getByRole('heading', { level: 1, name: t.unpaid })).toBeVisible();
    await page.screenshot({ path: 'test-results/checkout-unpaid-desktop.png', fullPage: true });
    await page.getByRole('button', { name: 'Pay now' }).click();

    await expect(page).toHaveURL(/\/payment\/pay-online\//);
    await page.getByRole('button', { name: t.pay, exact: true }).click();
    await expect(page).toHaveURL(/\/checkout\/success\/[0-9a-f]{32}\/paid$/);
    await expect(page.getByRole('heading', { level: 1, name: t.paid })).toBeVisible();
    await expect(page.getByText('Paid', { exact: true })).toBeVisible();
  });

  test('a guest orders without an account and changes both addresses in the checkout', async ({ page }) => {
    const t = TEXTS.en;
    await addFromCategory(page, t);
    await page.goto('/checkout');
    await page.getByRole('tab', { name: t.newCustomer }).click();
    await page.getByLabel('Do not create a customer account (guest order)').check();
    await expect(page.getByLabel(t.password, { exact: true })).toBeHidden();
    const email = unique('gustav');
    await fillRegistration(page, { firstName: 'Gustav', lastName: 'Gast', email, street: 'Gastweg 2', zipcode: '80331', city: 'München' }, t, { guest: true });
    await page.getByRole('button', { name: 'Continue as guest' }).click();
    await expect(page.getByTestId('billing-address')).toContainText('Gastweg 2', { timeout: 20_000 });

    // A new billing address: a blank form is refused, a filled one is used for billing only.
    await page.getByRole('button', { name: `${t.change}: ${t.billingAddress}` }).click();
    const billing = page.getByRole('dialog', { name: `${t.change}: ${t.billingAddress}` });
    await expect(billing.getByRole('listitem').filter({ hasText: 'Gastweg 2' })).toContainText('Selected');
    await billing.getByRole('button', { name: t.newAddress }).click();
    await billing.getByRole('button', { name: t.saveAddress }).click();
    await expect(billing.getByLabel(t.city, { exact: true })).toHaveAccessibleDescription(t.required);
    await billing.getByLabel(t.firstName).fill('Gustav');
    await billing.getByLabel(t.lastName).fill('Gast');
    await billing.getByLabel(t.street).fill('Rechnungsstraße 5');
    await billing.getByLabel(t.zipcode).fill('90402');
    await billing.getByLabel(t.city, { exact: true }).fill('Nürnberg');
    const state = billing.getByLabel(t.state, { exact: true });
    if (await state.isVisible()) await state.selectOption({ index: 1 });
    await billing.getByRole('button', { name: t.saveAddress }).click();
    await expect(page.getByText(t.addressChanged)).toBeVisible();
    await expect(page.getByTestId('billing-address')).toContainText('Rechnungsstraße 5');
    await expect(page.getByTestId('shipping-address')).toContainText('Gastweg 2');

    // Shipping to the new address too, picked from the guest's list.
    await page.getByRole('button', { name: `${t.change}: ${t.shippingAddress}` }).click();
    const shipping = page.getByRole('dialog', { name: `${t.change}: ${t.shippingAddress}` });
    await shipping.getByRole('listitem').filter({ hasText: 'Rechnungsstraße 5' }).getByRole('button', { name: t.useAddress }).click();
    await expect(page.getByTestId('shipping-address')).toContainText('Rechnungsstraße 5');
    await expectAccessible(page);

    await placeOrder(page, t, t.invoice);
    await expect(page.getByRole('heading', { level: 1, name: t.thanks })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await expect(page.getByTestId('order-billing-address')).toContainText('Nürnberg');
    await expect(page.getByTestId('order-shipping-address')).toContainText('Nürnberg');
  });

  test('digital goods need the waiver; shipping to a blocked country is refused with its message', async ({ page, request }) => {
    // The demo's download product (CONTRACT.md: one product sold as a download).
    const answer = await request.post('/store-api/product', {
      headers: { 'sw-access-key': 'SWSCSALESROOMDEMO000000000' },
      data: { limit: 100, filter: [{ type: 'prefix', field: 'productNumber', value: 'SR' }], includes: { product: ['id', 'states', 'name', 'translated'] } },
    });
    const products = ((await answer.json()) as { elements: { id: string; states?: string[] }[] }).elements;
    const digital = products.find((product) => product.states?.includes('is-download'));
    expect(digital, 'the demo has a download product').toBeTruthy();

    const email = unique('dora');
    await registerCustomer(page, { firstName: 'Dora', lastName: 'Digital', email, street: 'Bitweg 1', zipcode: '01067', city: 'Dresden' });

    await page.goto(`/detail/${digital!.id}`);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('button', { name: 'Shopping cart, 1 items' })).toBeVisible();
    await page.goto('/checkout');
    const waiver = page.getByLabel(/I want the download right away/);
    await expect(waiver).toBeVisible();
    await page.getByLabel('I have read and accepted the terms and conditions.').check();
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(waiver).toHaveAccessibleDescription('Please confirm the waiver of your right of cancellation for digital goods.');
    await expect(page).toHaveURL(/\/checkout$/);

    // A new shipping address in a country the shop does not ship to.
    await page.getByRole('button', { name: 'Change: Shipping address' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change: Shipping address' });
    await dialog.getByRole('button', { name: 'New address' }).click();
    await dialog.getByLabel('First name').fill('Dora');
    await dialog.getByLabel('Last name').fill('Digital');
    await dialog.getByLabel('Street and house number').fill('Städtle 1');
    await dialog.getByLabel('Postal code').fill('9490');
    await dialog.getByLabel('City', { exact: true }).fill('Vaduz');
    await dialog.getByLabel('Country').selectOption({ label: 'Liechtenstein' });
    await dialog.getByRole('button', { name: 'Save address' }).click();
    await expect(page.getByTestId('shipping-address')).toContainText('Vaduz');
    await expect(page.locator('.checkout-page__errors')).toHaveText('Shipping to the selected shipping address is currently not possible.');
    await waiver.check();
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page).toHaveURL(/\/checkout$/);

    // Back to the first address: the order goes through, is paid online, and the file downloads.
    await page.getByRole('button', { name: 'Change: Shipping address' }).click();
    await dialog.getByRole('listitem').filter({ hasText: 'Dresden' }).getByRole('button', { name: 'Use this address' }).click();
    await expect(page.getByTestId('shipping-address')).toContainText('Dresden');
    await expect(page.locator('.checkout-page__errors')).toHaveCount(0);
    await page.getByRole('radio', { name: /^Pay online/ }).click();
    await expect(page.getByRole('radio', { name: /^Pay online/ })).toBeChecked();
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Payment received' })).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'care-guide.pdf' }).click();
    expect((await download).suggestedFilename()).toBe('care-guide.pdf');
  });

  test('a returning customer logs in on the checkout page and keeps the cart', async ({ page }) => {
    const t = TEXTS.en;
    const email = unique('lena');
    await registerCustomer(page, { firstName: 'Lena', lastName: 'Login', email, street: 'Loginweg 4', zipcode: '04109', city: 'Leipzig' });
    await page.getByRole('button', { name: 'Log out' }).click();

    const product = await addFromCategory(page, t);
    await page.goto('/checkout');
    await expect(page.getByRole('tab', { name: 'Log in' })).toHaveAttribute('aria-selected', 'true');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByText('The email address or password is not correct.')).toBeVisible();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByTestId('billing-address')).toContainText('Loginweg 4', { timeout: 20_000 });
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByTestId('cart-item').filter({ hasText: product })).toHaveCount(1);
  });
});
