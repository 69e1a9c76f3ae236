import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { logIn, PASSWORD, registerCustomer, TEXTS, unique } from './shop';

/**
 * The account extras on the embedded shop: orders with details, documents, cancel;
 * profile, password, forgot and reset password, newsletter; the server wishlist with
 * the merge at login. Destructive steps use a freshly registered customer.
 */

test.describe.configure({ timeout: 90_000 });

/** A customer of these tests: `firstName` Order from Köln. */
const register = (page: Page, email: string, firstName = 'Olga') =>
  registerCustomer(page, { firstName, lastName: 'Order', email, street: 'Kontoweg 3', zipcode: '50667', city: 'Köln' });

/** Orders the Flannel shirt by invoice; returns the order number. */
async function placeOrder(page: Page): Promise<string> {
  await page.goto('/Flannel-shirt/SR10003');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('button', { name: 'Shopping cart, 1 items' })).toBeVisible();
  await page.goto('/checkout');
  await expect(page.getByTestId('billing-address')).toContainText('Kontoweg 3');
  await page.getByRole('radio', { name: /^Invoice/ }).click();
  await expect(page.getByRole('radio', { name: /^Invoice/ })).toBeChecked();
  await page.getByLabel('I have read and accepted the terms and conditions.').check();
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order!' })).toBeVisible();
  return (await page.getByTestId('order-number').innerText()).trim();
}

test('the demo customer logs in and sees the account with orders, profile and newsletter', async ({ page }) => {
  await logIn(page, 'demo@example.com', 'salesroom');
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId('account-email')).toHaveText('demo@example.com');
  await expect(page.getByRole('heading', { name: 'Orders' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Newsletter' })).toBeVisible();
  await expect(page.getByLabel('Yes, I would like to receive the newsletter.')).toBeVisible();
  await page.screenshot({ path: 'test-results/account-desktop.png', fullPage: true });
});

test('a customer sees the order from the checkout, downloads the invoice and cancels the order', async ({ page }) => {
  await register(page, unique('olga'));
  const number = await placeOrder(page);
  await page.goto('/account');
  const order = page.getByTestId('order-card').filter({ hasText: `Order ${number}` });
  await expect(order).toBeVisible();
  await expect(order.getByTestId('order-state')).toHaveText('Open');

  await order.getByRole('button', { name: 'Details' }).click();
  await expect(order.getByTestId('order-line-item').filter({ hasText: 'Flannel shirt' })).toHaveCount(1);
  const download = page.waitForEvent('download');
  await order.getByRole('button', { name: /^Invoice / }).click();
  expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
  await page.screenshot({ path: 'test-results/account-order-desktop.png', fullPage: true });
  await expectAccessible(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/account-order-phone.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Cancel: a confirm modal; keeping the order changes nothing.
  await order.getByRole('button', { name: 'Cancel order' }).click();
  const dialog = page.getByRole('dialog', { name: `Cancel order ${number}?` });
  await dialog.getByRole('button', { name: 'Keep order' }).click();
  await expect(dialog).toBeHidden();
  await expect(order.getByTestId('order-state')).toHaveText('Open');
  await order.getByRole('button', { name: 'Cancel order' }).click();
  await dialog.getByRole('button', { name: 'Cancel order' }).click();
  await expect(page.getByText('The order has been cancelled.')).toBeVisible();
  await expect(order.getByTestId('order-state')).toHaveText('Cancelled');
  await expect(order.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
});

test('a customer changes the payment method of an open order and pays online', async ({ page }) => {
  await register(page, unique('paul'), 'Paul');
  const number = await placeOrder(page);
  await page.goto('/account');
  const order = page.getByTestId('order-card').filter({ hasText: `Order ${number}` });
  await order.getByRole('button', { name: 'Change payment method' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change payment method' });
  await dialog.getByRole('radio', { name: /^Pay online/ }).click();
  await dialog.getByRole('button', { name: 'Pay now' }).click();
  await expect(page).toHaveURL(/\/payment\/pay-online\//);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Payment received' })).toBeVisible();
  await page.goto('/account');
  await expect(order).toContainText('Paid');
  await expect(order.getByRole('button', { name: 'Change payment method' })).toHaveCount(0);
});

test('a customer changes profile and password and logs in with the new password', async ({ page }) => {
  const email = unique('pia');
  await register(page, email, 'Pia');

  await page.getByRole('button', { name: 'Change profile' }).click();
  const profile = page.getByRole('dialog', { name: 'Change profile' });
  await profile.getByLabel('First name').fill('Petra');
  await profile.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Your profile has been saved.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Hello Petra Order' })).toBeVisible();

  await page.getByRole('button', { name: 'Change password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change password' });
  await dialog.getByLabel('Current password').fill('not-the-password');
  await dialog.getByLabel('New password', { exact: true }).fill('new-salesroom-e2e');
  await dialog.getByLabel('Repeat new password').fill('new-salesroom-e2e');
  await dialog.getByRole('button', { name: 'Save password' }).click();
  // The server's message comes as a list; the dialog stays open.
  await expect(dialog.getByRole('alert')).toBeVisible();
  await dialog.getByLabel('Current password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByText('Your password has been changed.')).toBeVisible();

  await page.getByRole('button', { name: 'Log out' }).click();
  await logIn(page, email, PASSWORD);
  await expect(page.getByText('The email address or password is not correct.')).toBeVisible();
  await page.getByLabel('Password').fill('new-salesroom-e2e');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hello Petra Order' })).toBeVisible();
});

test('forgot password sends a link; an unknown reset link says so', async ({ page }) => {
  await page.goto('/account/login');
  await page.getByLabel('Email address').fill('demo@example.com');
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset your password' });
  await expect(dialog.getByLabel('Email address')).toHaveValue('demo@example.com');
  await dialog.getByRole('button', { name: 'Send link' }).click();
  await expect(dialog.getByText(/you will receive a link to reset your password/)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.goto(`/account/recover/password?hash=${'0'.repeat(32)}`);
  await page.getByLabel('New password', { exact: true }).fill('another-password');
  await page.getByLabel('Repeat new password').fill('another-password');
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This link is not valid (anymore). Please request a new one.');
});

test('the newsletter toggle subscribes and unsubscribes; a broken confirmation link says so', async ({ page }) => {
  await register(page, unique('nina'), 'Nina');
  const box = page.getByLabel('Yes, I would like to receive the newsletter.');
  await expect(box).not.toBeChecked();
  await box.check();
  // A customer is subscribed at once or after the double opt-in mail, as the shop decides.
  await expect(page.getByText(/^(You have subscribed to the newsletter\.|Almost done: please confirm)/).first()).toBeVisible();
  await expect(box).toBeChecked();
  await page.reload();
  await expect(page.getByLabel('Yes, I would like to receive the newsletter.')).toBeChecked();
  await box.uncheck();
  await expect(page.getByText('You have unsubscribed from the newsletter.')).toBeVisible();
  await expect(box).not.toBeChecked();

  await page.goto('/de-DE/newsletter-subscribe?em=abc&hash=def');
  await expect(page.getByRole('alert')).toHaveText(/Das Abonnement konnte nicht bestätigt werden/);
});

test('the wishlist of a visitor is merged into the customer wishlist at login', async ({ page }) => {
  const email = unique('wilma');
  await register(page, email, 'Wilma');
  await page.getByRole('button', { name: 'Log out' }).click();

  // As a visitor: the heart keeps the product in the browser.
  await page.goto('/Flannel-shirt/SR10003');
  await page.getByRole('button', { name: 'Add Flannel shirt to the wishlist' }).click();
  await expect(page.getByRole('link', { name: 'Wishlist, 1 items' })).toBeVisible();

  await logIn(page, email, PASSWORD);
  await expect(page.getByRole('heading', { level: 1, name: 'Hello Wilma Order' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Wishlist, 1 items' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('salesroom.wishlist'))).toBeNull();

  // The list is the server's now: it survives a new browser session of the same customer.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await logIn(page, email, PASSWORD);
  await expect(page.getByRole('link', { name: 'Wishlist, 1 items' })).toBeVisible();
  await page.getByRole('link', { name: 'Wishlist, 1 items' }).click();
  await expect(page.getByTestId('product-card').filter({ hasText: 'Flannel shirt' })).toHaveCount(1);

  // Removing on the server.
  await page.getByRole('button', { name: 'Remove Flannel shirt from the wishlist' }).first().click();
  await expect(page.getByText('Your wishlist is empty.', { exact: false })).toBeVisible();
});

test('the account pages in German: login, registration, orders, profile and addresses', async ({ page }) => {
  const t = TEXTS.de;
  const email = unique('greta');
  await logIn(page, email, PASSWORD, t);
  await expect(page.getByRole('alert')).toHaveText(t.loginFailed);
  await expect(page).toHaveURL(/\/de-DE\/account\/login$/);

  await registerCustomer(page, { firstName: 'Greta', lastName: 'Grün', email, street: 'Kontoweg 3', zipcode: '50667', city: 'Köln' }, t);
  await expect(page).toHaveURL(/\/de-DE\/account$/);
  await expect(page.getByRole('heading', { name: t.orders })).toBeVisible();
  await expect(page.getByText('Sie haben noch keine Bestellungen aufgegeben.')).toBeVisible();

  // An order, then its card in German.
  await page.goto(t.productPath);
  await page.getByRole('button', { name: t.addToCart }).click();
  await expect(page.getByRole('button', { name: t.cart })).toBeVisible();
  await page.goto('/de-DE/checkout');
  await expect(page.getByTestId('billing-address')).toContainText('Kontoweg 3');
  await page.getByRole('radio', { name: new RegExp(`^${t.invoice}`) }).click();
  await expect(page.getByRole('radio', { name: new RegExp(`^${t.invoice}`) })).toBeChecked();
  // The terms open beside their checkbox, as the shop-page modal (issue #31, item 7).
  await page.getByRole('button', { name: 'Allgemeine Geschäftsbedingungen lesen' }).click();
  await expect(page.getByRole('dialog', { name: 'Allgemeine Geschäftsbedingungen' }).getByTestId('shop-page')).toContainText('Preise inklusive MwSt.');
  await page.keyboard.press('Escape');
  await page.getByLabel(t.terms).check();
  await page.getByRole('button', { name: t.placeOrder }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.thanks })).toBeVisible();
  const number = (await page.getByTestId('order-number').innerText()).trim();
  // Dates in the German format (issue #31, item 6: not "11/28/2026").
  const today = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium' }).format(new Date());
  expect(today).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
  await expect(page.getByText(today, { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Zu meinen Bestellungen' }).click();
  const order = page.getByTestId('order-card').filter({ hasText: t.orderTitle(number) });
  await expect(order.getByTestId('order-state')).toHaveText(t.orderOpen);
  await expect(order.getByText(`Bestellt am ${today}`)).toBeVisible();
  await order.getByRole('button', { name: t.details }).click();
  await expect(order.getByRole('button', { name: 'Details ausblenden' })).toBeVisible();
  await expect(order.getByRole('button', { name: 'Bestellung stornieren' })).toBeVisible();

  // Profile.
  await page.getByRole('button', { name: t.changeProfile }).click();
  const profile = page.getByRole('dialog', { name: t.changeProfile });
  await profile.getByLabel(t.firstName).fill('Grete');
  await profile.getByRole('button', { name: t.saveProfile }).click();
  await expect(page.getByText(t.profileSaved)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: t.hello('Grete Grün') })).toBeVisible();

  // Addresses: a blank form is refused in German, a filled one is added and made the shipping default.
  await page.getByRole('button', { name: t.addAddress }).click();
  const dialog = page.getByRole('dialog', { name: t.addAddress });
  await dialog.getByRole('button', { name: t.saveAddress }).click();
  await expect(dialog.getByLabel(t.city, { exact: true })).toHaveAccessibleDescription(t.required);
  await dialog.getByLabel(t.firstName).fill('Grete');
  await dialog.getByLabel(t.lastName).fill('Grün');
  await dialog.getByLabel(t.street).fill('Zweitweg 2');
  await dialog.getByLabel(t.zipcode).fill('20095');
  await dialog.getByLabel(t.city, { exact: true }).fill('Hamburg');
  await dialog.getByLabel(t.state, { exact: true }).selectOption({ label: 'Hamburg' });
  await dialog.getByRole('button', { name: t.saveAddress }).click();
  await expect(page.getByText('Die Adresse wurde gespeichert.')).toBeVisible();
  const second = page.getByTestId('address').filter({ hasText: 'Zweitweg 2' });
  // The card shows the state after the city.
  await expect(second).toContainText('20095 Hamburg, Hamburg');
  await second.getByRole('button', { name: t.useForShipping }).click();
  await expect(second).toContainText(t.defaultShipping);
  await expectAccessible(page);

  await page.getByRole('button', { name: t.logOut }).click();
  await expect(page.getByText('Sie sind abgemeldet.')).toBeVisible();
});
