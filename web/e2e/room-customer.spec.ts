import { expect, test, type Page } from '@playwright/test';
import { highlightBySearch, ownServers } from './room';
import { fillRegistration, registerCustomer, TEXTS, unique, type Person } from './shop';

/*
 * A customer's path through the room: one wishlist in the room and the shop (the server
 * list for a logged-in customer), the customers-only appointment's login and
 * registration, and the pre-join name taken from the account. The guide starts the demo
 * appointment, so this spec runs on its own fresh servers.
 */

const { newPage } = ownServers();

const person = (firstName: string): Person => ({
  firstName,
  lastName: 'Customer',
  email: unique(firstName.toLowerCase()),
  street: 'Main Street 1',
  zipcode: '10115',
  city: 'Berlin',
});

async function guideStarts(guide: Page): Promise<void> {
  await guide.goto('/guide/demo/login');
  await guide.getByLabel('Username').fill('admin');
  await guide.getByLabel('Password').fill('shopware');
  await guide.getByRole('button', { name: 'Log in' }).click();
  await expect(guide.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  await guide.getByRole('button', { name: 'Start presentation' }).click();
  await guide.getByRole('dialog', { name: 'Start the presentation?' }).getByRole('button', { name: 'Start now' }).click();
  await expect(guide.getByTestId('presentation-phase')).toHaveText('Live');
}

test('a logged-in customer joins under their name, hearts a product in the room and finds it in the room and the shop wishlist', async ({ browser }) => {
  test.setTimeout(180_000);
  const carla = person('Carla');
  const customer = await newPage(browser);
  await registerCustomer(customer, carla);

  await test.step('the pre-join screen has the name of the account: no retyping', async () => {
    await customer.goto('/presentation/demo/prejoin');
    await expect(customer.getByLabel('Your name')).toHaveValue('Carla Customer');
    await expect(customer.getByText('You join as the customer Carla Customer.')).toBeVisible();
    await customer.getByLabel(/privacy policy/).check();
    await customer.getByRole('button', { name: 'Join' }).click();
    await expect(customer).toHaveURL(/\/presentation\/demo\/waiting$/);
  });

  const guide = await newPage(browser);
  await guideStarts(guide);
  await expect(customer).toHaveURL(/\/presentation\/demo$/);
  const product = await highlightBySearch(guide, '');
  await expect(customer.getByTestId('highlighted-product')).toContainText(product);

  // A fresh load of the room: nothing in this tab has asked the shop who is logged in yet.
  await customer.reload();
  await expect(customer.getByTestId('highlighted-product')).toContainText(product);
  await expect(customer.getByRole('button', { name: 'Wishlist (0)' })).toBeVisible();

  await test.step('the heart in the product modal puts it on the wishlist the room panel shows', async () => {
    await customer.getByTestId('highlighted-product').getByRole('button', { name: 'Details' }).click();
    const modal = customer.getByRole('dialog', { name: product });
    const heart = modal.getByRole('button', { name: new RegExp(`wishlist.*${product}|${product}.*wishlist`, 'i') });
    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await customer.keyboard.press('Escape');
    await expect(customer.getByRole('button', { name: 'Wishlist (1)' })).toBeVisible();
    await customer.getByRole('button', { name: 'Wishlist (1)' }).click();
    const panel = customer.getByRole('region', { name: 'Wishlist', exact: true });
    await expect(panel.getByRole('listitem', { name: product })).toBeVisible();
  });

  await test.step("it is on the customer's server wishlist: the browser's local list stays empty", async () => {
    expect(await customer.evaluate(() => localStorage.getItem('salesroom.wishlist'))).toBeNull();
    const shop = await customer.context().newPage();
    await shop.goto('/wishlist');
    await expect(shop.getByRole('heading', { level: 1, name: 'Wishlist' })).toBeVisible();
    await expect(shop.getByText(product).first()).toBeVisible();
    await shop.close();
  });
});

test('a guest turned away from a customers-only appointment logs in and joins under the account name', async ({ browser }) => {
  const page = await newPage(browser);
  await page.goto('/presentation/demo-customers/prejoin');
  await page.getByLabel('Your name').fill('Grace Guest');
  await page.getByLabel(/privacy policy/).check();
  await page.getByRole('button', { name: 'Join' }).click();
  await expect(page).toHaveURL(/\/presentation\/demo-customers\/denied$/);
  await expect(page.getByText('This presentation is open to customers only.')).toBeVisible();

  await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/presentation\/demo-customers\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Log in to join the presentation' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel('Email address').fill('demo@example.com');
  await page.getByLabel('Password').fill('salesroom');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();

  await expect(page).toHaveURL(/\/presentation\/demo-customers\/prejoin$/);
  await expect(page.getByLabel('Your name')).toHaveValue('Dana Demo');
  await page.getByLabel(/privacy policy/).check();
  await page.getByRole('button', { name: 'Join' }).click();
  await expect(page).toHaveURL(/\/presentation\/demo-customers(\/waiting)?$/);
});

test('Registrierung aus dem Vorraum eines Kundentermins, danach Teilnahme unter dem Kontonamen', async ({ browser }) => {
  const t = TEXTS.de;
  const page = await newPage(browser);
  await page.goto('/de-DE/presentation/demo-customers/prejoin');
  await page.getByRole('main').getByRole('link', { name: 'Konto anlegen' }).click();
  await expect(page).toHaveURL(/\/de-DE\/presentation\/demo-customers\/register$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Ein Konto anlegen, um an der Präsentation teilzunehmen' })).toBeVisible();
  await fillRegistration(page, person('Renate'), t);
  await page.getByRole('button', { name: t.createAccount }).click();
  // Registration hashes the password: slow in a debug build on a busy machine.
  await expect(page).toHaveURL(/\/de-DE\/presentation\/demo-customers\/prejoin$/, { timeout: 20_000 });
  await expect(page.getByLabel('Ihr Name')).toHaveValue('Renate Customer');
  await page.getByLabel(/Datenschutzerklärung/).check();
  await page.getByRole('button', { name: 'Teilnehmen' }).click();
  await expect(page).toHaveURL(/\/de-DE\/presentation\/demo-customers(\/waiting)?$/);
});
