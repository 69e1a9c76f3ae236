import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ownServers } from '../room';
import { submitBackofficeLogin } from '../logins';
import { registerCustomer, TEXTS, unique } from '../shop';

/*
 * The backoffice (/admin) on the demo shop at desktop (1440×900) and phone (390×844)
 * sizes, in English and German: login, the dashboard, the lists, an order and a customer
 * (one order is placed first), the settings, an appointment, a presentation with its
 * slide builder and attendee preview, a product, the CSV import and the users. Written to
 * docs/screenshots/admin-*.png (`npm run screenshots:room`).
 */

const OUT = path.resolve(import.meta.dirname, '../../../docs/screenshots');
const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
type Size = keyof typeof SIZES;

const { newPage: newRoomPage } = ownServers();

async function newPage(browser: Browser, size: Size): Promise<Page> {
  const page = await newRoomPage(browser);
  await page.setViewportSize(SIZES[size]);
  return page;
}

async function shot(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  await page.mouse.move(0, 0);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: path.join(OUT, `admin-${name}.png`), animations: 'disabled' });
}

const LISTS = [
  'dashboard',
  'orders',
  'customers',
  'appointments',
  'presentations',
  'products',
  'categories',
  'manufacturers',
  'promotions',
  'import',
  'users',
  'settings/shop',
  'settings/shipping',
  'settings/payment',
  'settings/taxes',
] as const;

/** A customer registers and orders the Flannel shirt by invoice, so the order pages have one to show. */
async function placeOrder(page: Page): Promise<void> {
  await registerCustomer(page, { firstName: 'Sina', lastName: 'Screenshot', email: unique('shot-order'), street: 'Bildweg 1', zipcode: '10115', city: 'Berlin' }, TEXTS.en);
  await page.goto(TEXTS.en.productPath);
  await page.getByRole('button', { name: TEXTS.en.addToCart }).click();
  await expect(page.getByRole('button', { name: TEXTS.en.cart })).toBeVisible();
  await page.goto('/checkout');
  await page.getByRole('radio', { name: /^Invoice/ }).click();
  await page.getByLabel(TEXTS.en.terms).check();
  await page.getByRole('button', { name: TEXTS.en.placeOrder }).click();
  await expect(page.getByRole('heading', { level: 1, name: TEXTS.en.thanks })).toBeVisible();
}

for (const size of Object.keys(SIZES) as Size[]) {
  test(`the backoffice on ${size}, English and German`, async ({ browser }) => {
    test.setTimeout(240_000);
    const shopper = await newPage(browser, 'desktop');
    await placeOrder(shopper);
    await shopper.context().close();
    const page = await newPage(browser, size);
    await page.goto('/admin/login');
    await shot(page, `login-${size}-en`);
    await submitBackofficeLogin(page, { open: false });
    await expect(page.getByRole('navigation', { name: 'Backoffice' })).toBeVisible();

    for (const [lang, prefix] of [
      ['en', ''],
      ['de', '/de-DE'],
    ] as const) {
      for (const list of LISTS) {
        await page.goto(`${prefix}/admin/${list}`);
        await expect(page.getByRole('navigation', { name: /Backoffice/ })).toBeVisible();
        await shot(page, `${list.replace('/', '-')}-${size}-${lang}`);
      }
      // One record of each kind that has an editor: the first link in the list's table.
      for (const list of ['orders', 'customers', 'appointments', 'presentations', 'products'] as const) {
        await page.goto(`${prefix}/admin/${list}`);
        const first = page.getByRole('table').getByRole('link').first();
        await first.click();
        await expect(page).toHaveURL(/\/admin\/[a-z]+\/[0-9a-f]{32}$/);
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await shot(page, `${list.replace(/s$/, '')}-${list === 'orders' || list === 'customers' ? 'detail' : 'editor'}-${size}-${lang}`);
      }
    }
  });
}
